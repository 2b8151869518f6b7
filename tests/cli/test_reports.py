"""The compare / reproduce commands, on a tiny fake experiment module (the real
experiments' end-to-end runs are tested with each paper's experiments)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import types

import pytest
from typer.testing import CliRunner

from boundcalc import experiments, parallel
from boundcalc.cli import main
from boundcalc.cli.app import app
from boundcalc.errors import BoundcalcError
from boundcalc.experiments import Reproduction
from boundcalc.reports.table import Row, Table

CALLS: list = []


def fake_compare(*, seed=0, jobs=1, cache_dir=None, **settings):
    CALLS.append(dict(seed=seed, jobs=jobs, cache_dir=cache_dir, **settings))
    try:
        n = int(settings.get("n", 8))
    except ValueError:
        raise BoundcalcError(f"--n must be an integer, got {settings['n']!r}") from None
    return Table("deora2023", "fake_table", {"n": n, "seed": seed}, seed, [
        Row("margin", "Prop. 2", bound=1e30, measured=0.5, constant="up to C"),
        Row("heads", "Thm 1", bound=100, measured=n, kind="condition"),
    ])


def fake_run(**kw):
    CALLS.append(kw)
    return {"ours": 0.5, "paper": 0.48, "kw": {k: v for k, v in kw.items() if k != "cache_dir"},
            "cache_dir": kw["cache_dir"]}


@pytest.fixture
def fake(monkeypatch):
    CALLS.clear()
    mod = types.ModuleType("boundcalc.experiments.deora2023")
    mod.SETTINGS = {"n": (8, "sample size"), "step_size": (0.1, "eta")}
    mod.compare = fake_compare
    mod.REPRODUCTIONS = {"fake-fig1": Reproduction("fake-fig1", "a fake figure", fake_run,
                                                   lambda d: f"ours {d['ours']} vs paper {d['paper']}")}
    monkeypatch.setitem(sys.modules, "boundcalc.experiments.deora2023", mod)
    monkeypatch.setitem(sys.modules, "boundcalc.experiments.anon2025", None)   # "not importable"
    monkeypatch.setattr(experiments, "PAPERS", ("deora2023", "anon2025"))
    return mod


def invoke(*args):
    return CliRunner().invoke(app, list(args), catch_exceptions=True)


def ok(*args):
    r = invoke(*args)
    assert r.exit_code == 0, (r.output, r.exception)
    return r.output


def err(*args) -> str:
    r = invoke(*args)
    assert isinstance(r.exception, BoundcalcError), (r.output, r.exception)
    return str(r.exception)


def test_formats(fake):
    out = ok("compare", "deora2023", "--n", "64", "--seed", "3", "--jobs", "2")
    assert "fake_table" in out and "1.00e30" in out and "seed 3" in out
    assert CALLS[-1] == {"seed": 3, "jobs": 2, "cache_dir": None, "n": "64"}   # strings, as documented
    md = ok("compare", "deora2023", "--format", "markdown")
    # a power of ten in a Markdown table is math (the one number style), not 1.00e30
    assert re.search(r"^\| margin +\| Prop\. 2 +\| +\$1\.00\\times 10\^\{30\}\$ \|", md, flags=re.MULTILINE), md
    tex = ok("compare", "deora2023", "--format", "latex")
    assert r"\toprule" in tex and " & 1.00e30 & " in tex and r"fake\_table" in tex
    lines = ok("compare", "deora2023", "--format", "csv").splitlines()
    assert lines[0].startswith("quantity,source") and lines[1].startswith("margin,Prop. 2")
    for args in (("--format", "json"), ("--json",)):
        d = json.loads(ok("compare", "deora2023", "--step-size", "0.2", *args))
        assert d["rows"][0]["bound"] == 1e30 and d["rows"][1]["holds"] is False
        assert d["rows"][0]["bound_exact"] is None          # the float 1e30 is exact
    assert CALLS[-1]["step_size"] == "0.2"
    ok("compare", "deora2023", "--no-cache")
    assert CALLS[-1]["cache_dir"] is False


def test_output_and_plot_are_not_overwritten(fake, tmp_path):
    out = tmp_path / "t.tex"
    ok("compare", "deora2023", "--format", "latex", "--output", str(out))
    assert out.read_text().startswith("% requires")
    out.write_text("my own notes")
    assert "already exists" in err("compare", "deora2023", "--output", str(out)) and str(out) in \
        err("compare", "deora2023", "--output", str(out))
    assert out.read_text() == "my own notes"
    ok("compare", "deora2023", "--format", "csv", "--output", str(out), "--force")
    assert out.read_text().startswith("quantity,")
    ok("compare", "deora2023", "--plot", str(tmp_path / "bars.png"))
    # two kinds of quantity (a margin, a head count): one figure each, FILE-KIND.png and .pdf
    for kind in ("norms-and-margins", "head-counts"):
        assert (tmp_path / f"bars-{kind}.png").read_bytes()[:4] == b"\x89PNG" and (tmp_path / f"bars-{kind}.pdf").exists()
    assert not (tmp_path / "bars.png").exists()
    n = len(CALLS)
    e = err("compare", "deora2023", "--plot", str(tmp_path / "bars"))
    assert "already exist" in e and "bars-head-counts.pdf" in e and "bars-norms-and-margins.png" in e
    assert len(CALLS) == n                    # refused before computing anything
    ok("compare", "deora2023", "--plot", str(tmp_path / "bars"), "--force")
    # one panel's files, already there, are refused before any work too
    (tmp_path / "one.pdf").write_bytes(b"mine")
    assert "one.pdf" in err("compare", "deora2023", "--plot", str(tmp_path / "one"))
    assert len(CALLS) == n + 1 and (tmp_path / "one.pdf").read_bytes() == b"mine"


def test_compare_errors(fake):
    assert "--bogus" in err("compare", "deora2023", "--bogus", "1") and "--step-size" in \
        err("compare", "deora2023", "--bogus", "1")
    assert "--n" in err("compare", "deora2023", "--n", "many")
    assert "unknown paper 'nope'" in err("compare", "nope")
    assert "not available" in err("compare", "anon2025")
    assert "--format" in err("compare", "deora2023", "--format", "html")
    assert "--jobs" in err("compare", "deora2023", "--jobs", "0")


def test_compare_help_lists_settings(fake):
    out = ok("compare", "--help")
    assert "--step-size" in out and "sample size" in out and "deora2023" in out
    assert "anon2025: not available" in out


def test_reproduce(fake, monkeypatch):
    out = ok("reproduce", "--list")
    assert "fake-fig1" in out and "a fake figure" in out and "anon2025" in out
    assert "fake-fig1" in ok("reproduce", "list")
    d = json.loads(ok("reproduce", "list", "--json"))
    assert d["reproductions"] == [{"name": "fake-fig1", "description": "a fake figure", "settings": []}]
    assert "ours 0.5 vs paper 0.48" in ok("reproduce", "fake-fig1")
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(parallel, "cores", lambda: 4)
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1",
                                  dashboard_address=None) as cluster:     # the scheduler is probed first
        d = json.loads(ok("reproduce", "fake-fig1", "--json", "--seed", "4", "--full", "--jobs", "2",
                          "--backend", "dask", "--scheduler", cluster.scheduler_address, "--plot-dir", "figs",
                          "--no-cache"))
    assert d["kw"] == {"seed": 4, "full": True, "jobs": 2, "backend": "dask",
                       "scheduler": cluster.scheduler_address, "plot_dir": "figs", "progress": True}
    assert d["cache_dir"] is False
    assert "fake-fig1" in err("reproduce", "nope")
    assert "--scheduler" in err("reproduce", "fake-fig1", "--backend", "dask")
    assert "--backend" in err("reproduce", "fake-fig1", "--backend", "mpi")
    assert "--list" in err("reproduce")


def test_main_prints_one_line_and_exits_2(fake, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["boundcalc", "compare", "deora2023", "--bogus", "1"])
    with pytest.raises(SystemExit) as e:
        main()
    assert e.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: unknown setting --bogus")


# require-heads importing none of the reporting stack (NumPy, matplotlib, joblib, the experiments,
# pandas, the comparison table, rich's progress bars): tests/cli/test_app.py's
# test_numeric_commands_do_not_import_sympy_or_pandas (moved there, issue 37: one interpreter for both)


def test_reproduce_refuses_a_non_empty_plot_dir(tmp_path):
    from support import cli  # in process, through the real entry point
    (tmp_path / "mine.png").write_bytes(b"user's file")
    p = cli(["reproduce", "tarzanagh2023-fig1", "--plot-dir", tmp_path])
    assert p.returncode == 2 and "not an empty folder" in p.stderr
    assert (tmp_path / "mine.png").read_bytes() == b"user's file"


def test_reproduce_on_a_dask_cluster_of_worker_processes():
    """`reproduce ... --backend dask --scheduler tcp://HOST:PORT`, as on a cluster of several
    machines (here: a LocalCluster of 2 worker processes on loopback), gives the numbers of a
    local run; the CLI runs in a process of its own, as a user's would."""
    distributed = pytest.importorskip("distributed")
    args = ["reproduce", "tarzanagh2023-fig9", "--trials", "3", "--steps", "30", "--dims", "2,5",
            "--json", "--no-cache"]

    def cli(*extra):
        p = subprocess.run([sys.executable, "-m", "boundcalc", *args, *extra], capture_output=True,
                           text=True, timeout=300, check=False)
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)

    local = cli("--jobs", "1")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        remote = cli("--backend", "dask", "--scheduler", cluster.scheduler_address)
        assert len(cluster.scheduler_info["workers"]) == 2
    assert remote["per_d"] == local["per_d"] and remote["paper_vs_ours"] == local["paper_vs_ours"]


# --- issue 30: --jobs bounded, the Dask scheduler checked before any work -------------------

def main_err(monkeypatch, capsys, *args) -> tuple[int, list[str]]:
    """``boundcalc ARGS`` in this process through main(): (exit status, stderr lines)."""
    monkeypatch.setattr(sys, "argv", ["boundcalc", *args])
    with pytest.raises(SystemExit) as e:
        main()
    return e.value.code, capsys.readouterr().err.strip().splitlines()


@pytest.mark.parametrize("jobs", ["0", "-2"])
def test_reproduce_and_compare_refuse_zero_and_negative_jobs(fake, monkeypatch, capsys, jobs):
    for cmd in (["reproduce", "fake-fig1"], ["compare", "deora2023"]):
        code, lines = main_err(monkeypatch, capsys, *cmd, "--jobs", jobs)
        assert code == 2 and lines == [f"error: --jobs must be a positive integer or -1 (one per core), got {jobs}"]
    assert CALLS == []                                   # refused before any work


def test_reproduce_jobs_beyond_the_cores_is_reduced(fake, monkeypatch):
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    r = CliRunner().invoke(app, ["reproduce", "fake-fig1", "--json", "--jobs", "1000"])
    assert r.exit_code == 0, r.output
    assert CALLS[-1]["jobs"] == 2
    assert "note: --jobs 1000 reduced to 2, the number of cores" in r.output   # (stderr mixed in)


@pytest.mark.parametrize("address", ["garbage address", "tcp://127.0.0.1", "tls://127.0.0.1:8786"])
def test_reproduce_with_a_garbage_scheduler_is_one_line(fake, monkeypatch, capsys, address):
    code, lines = main_err(monkeypatch, capsys, "reproduce", "fake-fig1", "--backend", "dask",
                           "--scheduler", address)
    assert code == 2 and len(lines) == 1 and "is not a Dask scheduler address" in lines[0], lines
    assert CALLS == []


def test_reproduce_against_an_http_server_is_one_line_within_5_s(fake, monkeypatch, capsys):
    """A local HTTP server (loopback only) is not a Dask scheduler: one line within the 5 s
    probe (it hung 99 s, or tried to allocate 3.07 EiB, before)."""
    import http.server
    import threading
    import time
    pytest.importorskip("distributed")
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        t0 = time.monotonic()
        code, lines = main_err(monkeypatch, capsys, "reproduce", "fake-fig1", "--backend", "dask",
                               "--scheduler", f"tcp://127.0.0.1:{srv.server_address[1]}")
        took = time.monotonic() - t0
    finally:
        srv.shutdown()
        srv.server_close()
    assert code == 2 and len(lines) == 1, lines
    assert re.search(r"not a Dask scheduler|no answer from a Dask scheduler within 5 s", lines[0]), lines
    assert took < 7, took
    assert CALLS == []


def test_a_reproduction_without_a_sweep_refuses_dask(monkeypatch, capsys):
    """tarzanagh2023-fig1 runs in this process alone: --backend dask/--scheduler are refused,
    not ignored (it ran and ignored an invalid --scheduler)."""
    for extra in (["--scheduler", "garbage"], ["--scheduler", "tcp://127.0.0.1:8786"]):
        code, lines = main_err(monkeypatch, capsys, "reproduce", "tarzanagh2023-fig1", "--backend", "dask",
                               *extra)
        assert code == 2 and lines == [("error: reproduction tarzanagh2023-fig1 runs in this process alone "
                                       "(no sweep): --backend dask and --scheduler would not be used")], lines


def test_every_reproduction_says_whether_it_honours_the_scheduler():
    """A reproduction marked as sweeping passes ``scheduler`` on to runs.sweep (its code
    names it beyond its signature); one that does not is marked ``sweeps=False``."""
    import inspect
    for name, rep in experiments.reproductions().items():
        src = inspect.getsource(inspect.getmodule(rep.run))
        flat = src.replace(" ", "")
        # passed as a keyword, or as the key of a dict of keywords
        passes = "scheduler=scheduler" in flat or '"scheduler":scheduler' in flat
        assert passes == rep.sweeps, name
