"""experiments.record (JSON + Markdown + figures of a reproduction) and the paper-vs-ours rows."""
import json

import pytest

from boundcalc.experiments import paper_vs_ours as P
from boundcalc.experiments import record
from boundcalc.runs.intervals import mean_interval


def test_rows_and_markdown():
    r = P.row("x", 0.5, "Sec. 1: 'x is 0.5'", None, "reproduced", "inside", interval=mean_interval([0.4, 0.6]))
    assert r["paper"] == "0.5" and r["method"] == "95% Student-t, 2 seeds" and r["ours"].startswith("0.5 [")
    md = P.to_markdown([r, P.row("a|b", "1", "Table 1", "-", "not reproduced (data not shipped)", "N too large")])
    assert md.count("\n") == 4 and "a\\|b" in md and "not reproduced (data not shipped)" in md
    with pytest.raises(ValueError):
        P.row("x", 1, "s", 1.0, "maybe", "why")


def test_record_writes_json_markdown_and_figures(tmp_path, monkeypatch):
    monkeypatch.setenv("BOUNDCALC_CACHE", str(tmp_path / "cache"))
    rc = record.main(["arda2026-fig1", "--out", str(tmp_path), "--set", "widths=4,8", "--set", "d=3",
                      "--set", "T=4", "--set", "n=20", "--set", "R=2", "--set", "pool=16", "--set", "tau=5",
                      "--set", "seeds=2"])
    assert rc == 0
    folder = tmp_path / "reduced"
    data = json.loads((folder / "arda2026-fig1.json").read_text())
    assert data["wall_seconds"] > 0 and data["command"].startswith("python -m boundcalc.experiments.record")
    assert data["plots"] == ["arda2026-fig1.png", "arda2026-fig1.pdf"]
    md = (folder / "README.md").read_text()
    assert "## Paper vs ours" in md and "![arda2026-fig1](arda2026-fig1.png)" in md and "Wall time" in md
    assert (folder / "arda2026-fig1.png").exists()
    import os
    m = data["machine"]                         # what the run saw, not a claim made in advance
    assert data["cpu_count"] == os.cpu_count() and m["jobs"] == os.cpu_count() and m["niceness"] == os.nice(0)
    assert len(m["load_average_1min"]) == 2 and f"nice {os.nice(0)};" in md
    assert data["sweep_points"] == {"computed": 4, "from_cache": 0}    # 2 widths x 2 seeds
    assert "read from the cache" not in md
    # the same recording again: every point is a cache hit, and the wall time says so
    assert record.main(["arda2026-fig1", "--out", str(tmp_path), "--set", "widths=4,8", "--set", "d=3",
                        "--set", "T=4", "--set", "n=20", "--set", "R=2", "--set", "pool=16", "--set", "tau=5",
                        "--set", "seeds=2"]) == 0
    again = json.loads((folder / "arda2026-fig1.json").read_text())
    assert again["sweep_points"] == {"computed": 0, "from_cache": 4}
    assert "4 of its 4 sweep points were read from the cache" in (folder / "README.md").read_text()
    assert record.main(["arda2026-fig1", "--out", str(tmp_path), "--set", "widths=8"]) == 2
    assert record.main(["arda2026-fig1", "--set", "novalue"]) == 2


def test_cli_reproduce_passes_settings_and_rejects_unknown(tmp_path):
    import os

    from support import cli  # in process, through the real entry point
    env = dict(os.environ, BOUNDCALC_CACHE=str(tmp_path / "cache"))
    args = ["reproduce", "arda2026-fig1", "--json", "--no-cache",
            "--teacher", "authors-code", "--widths", "4,8", "--d", "3", "--T", "4", "--n", "20", "--R", "2",
            "--pool", "16", "--tau", "5", "--seeds", "2"]
    p = cli(args, env=env)
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["settings"]["teacher"] == "authors-code" and data["widths"] == [4, 8]
    p = cli(args[:2] + ["--teacher", "code"], env=env)
    assert p.returncode == 2 and "--teacher" in p.stderr and "Traceback" not in p.stderr
    p = cli(["reproduce", "anon2025-table1", "--widths", "4"], env=env)
    assert p.returncode == 2 and "--widths" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("name, settings, check", [
    ("tarzanagh2023-fig3", ["--steps", "30"], lambda d: d["setup"]["steps"] == 30),
    ("tarzanagh2023-fig9", ["--trials", "2", "--steps", "20", "--dims", "2,3"],
     lambda d: sorted(d["per_d"]) == ["2", "3"]),
    ("anon2025-table1", ["--data", "digits", "--dms", "4", "--Ns", "20,40", "--epochs", "2", "--seeds", "2",
                         "--n-test", "30"],
     lambda d: d["setup"]["cells"] == [[4, 20], [4, 40]] and d["setup"]["epochs"] == 2
     and d["setup"]["n_test"] == 30 and len(d["runs"]) == 4),
    ("deora2023-dm1", ["--ns", "20,30", "--seeds", "2", "--k-equals-n", "true", "--n1", "40", "--n-test", "50",
                       "--H", "4"],
     lambda d: d["ns"] == [20, 30] and [p["K"] for p in d["points"]] == [20, 20, 30, 30]),
])
def test_cli_reproduce_settings_of_every_paper(tmp_path, name, settings, check):
    # Every reproduction's size overrides work from the command line (strings converted and
    # checked), as they do from Python.
    import os

    from support import cli  # in process, through the real entry point
    env = dict(os.environ, BOUNDCALC_CACHE=str(tmp_path / "cache"))
    p = cli(["reproduce", name, "--json", "--no-cache", *settings], env=env)
    assert p.returncode == 0, p.stderr
    assert check(json.loads(p.stdout))
    bad = settings[:-1] + ["x"]               # the last value made invalid: one line naming it, exit 2
    p = cli(["reproduce", name, "--no-cache", *bad], env=env)
    assert p.returncode == 2 and settings[-2] in p.stderr and "Traceback" not in p.stderr


def test_replot_redraws_figures_from_the_json_only(tmp_path, monkeypatch):
    # record a tiny DM1 run, then spoil its figures and change nothing else: --replot draws
    # them again from the JSON (no training: the sweep is made to fail if it is called),
    # keeps the numbers, wall time and command, and says the figures were redrawn.
    monkeypatch.setenv("BOUNDCALC_CACHE", str(tmp_path / "cache"))
    assert record.main(["deora2023-dm1", "--out", str(tmp_path), "--set", "ns=20,30", "--set", "seeds=2",
                        "--set", "n1=40", "--set", "n_test=50", "--set", "H=4"]) == 0
    folder = tmp_path / "reduced"
    before = json.loads((folder / "deora2023-dm1.json").read_text())
    for png in folder.glob("*.png"):
        png.write_bytes(b"")
    from boundcalc.runs import sweep

    def no_training(*a, **k):
        raise AssertionError("replot must not train")
    monkeypatch.setattr(sweep, "run", no_training)
    assert record.main(["deora2023-dm1", "--replot", "--out", str(tmp_path)]) == 0
    after = json.loads((folder / "deora2023-dm1.json").read_text())
    assert sorted(after["plots"]) == sorted(before["plots"])
    assert all((folder / p).stat().st_size > 10_000 for p in after["plots"] if p.endswith(".png"))
    note = after.pop("figures_note")
    assert "--replot" in note and after == before          # numbers, wall time and command unchanged
    md = (folder / "README.md").read_text()
    assert "Figures and paper-vs-ours table redrawn from this JSON" in md and f"Wall time: {before['wall_seconds']:.0f} s" in md
    # a missing folder, stray options
    assert record.main(["tarzanagh2023-fig1", "--replot", "--out", str(tmp_path)]) == 2
    assert record.main(["deora2023-dm1", "--replot", "--full", "--out", str(tmp_path)]) == 2
    assert record.main(["deora2023-dm1", "--replot", "--set", "H=4", "--out", str(tmp_path)]) == 2


@pytest.mark.parametrize("name", ["deora2023-dm1", "anon2025-table1", "tarzanagh2023-fig9", "tarzanagh2023-fig1",
                                  "tarzanagh2023-fig3", "arda2026-fig1", "arda2026-minloss", "arda2026-teacher"])
def test_recorded_examples_redraw(tmp_path, name):
    # every committed recording of a reproduction with a JSON-only plot redraws from its JSON
    import shutil
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "examples"
    if not root.is_dir():
        pytest.skip("examples/ not next to the tests (installed elsewhere)")
    subs = [sub for sub in ("reduced", "full") if (root / name / sub / f"{name}.json").exists()]
    assert subs, f"no recording of {name} under examples/{name}/"
    for sub in subs:
        shutil.copytree(root / name / sub, tmp_path / sub)
        assert record.main([name, "--replot", "--out", str(tmp_path)] + (["--full"] if sub == "full" else [])) == 0
        assert list((tmp_path / sub).glob("*.png"))


def test_dumps_keeps_number_lists_on_a_line_and_round_trips():
    x = {"a": [1, 2.5, None], "b": [[0.1, 0.2], [0.3, 1e-300]], "c": [{"d": []}, "s"], "e": {}, "f": "x\n"}
    text = record.dumps(x)
    assert json.loads(text) == x
    assert '"a": [1, 2.5, null]' in text and "\n  [0.1, 0.2],\n" in text
    assert json.loads(record.dumps([])) == [] and record.dumps(3.0) == "3.0"
