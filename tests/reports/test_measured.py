"""``compare PAPER --measured runs.csv`` and ``boundcalc.api.compare_measured``: a user's
measurements beside their bound (issue 18). The bound of each run is computed here by
hand with mpmath (Thm. 1 of examples/my_paper.toml: C B sqrt(d/n) + sqrt(log(1/delta)/(2n)),
C = 1), never taken from boundcalc."""
from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import mpmath
import pytest
from support import cli as cli_run  # the real entry point, in this process

from boundcalc.api import compare_measured
from boundcalc.errors import BoundcalcError

ROOT = Path(__file__).resolve().parents[2]
TOML = str(ROOT / "examples" / "my_paper.toml")
RUNS = ROOT / "examples" / "my_paper_runs.csv"
ENV = {k: v for k, v in os.environ.items() if not k.startswith("BOUNDCALC") or k == "BOUNDCALC_REGISTRY_CACHE"}


@pytest.fixture(autouse=True)
def _fifty_digits():
    """Hand values at 50 digits, in a local precision (the global mpmath context is left alone)."""
    with mpmath.workdps(50):
        yield


def by_hand(n, d, B, delta):
    n, d, B, delta = (mpmath.mpf(str(x)) for x in (n, d, B, delta))
    return 1 * B * mpmath.sqrt(d / n) + mpmath.sqrt(mpmath.log(1 / delta) / (2 * n))


def expected():
    rows = list(csv.DictReader(RUNS.read_text().splitlines()))
    assert len(rows) == 3
    return [(r["run"], by_hand(r["n"], r["d"], r["B"], r["delta"]), mpmath.mpf(r["gen_gap"])) for r in rows]


def test_python_api_bound_measured_ratio_per_row():
    t = compare_measured(RUNS, paper="my_paper", formulas_path=[TOML])
    assert len(t.rows) == 3
    for row, (run, b, m) in zip(t.rows, expected()):
        assert row.quantity == f"gen_gap ({run})" and row.kind == "upper"
        assert abs(mpmath.mpf(row.bound) - b) < mpmath.mpf(10) ** -14 * b
        assert float(row.measured) == float(m)
        assert abs(row.ratio - float(b / m)) < 1e-12 * float(b / m)
        assert row.holds is bool(b >= m) and "C = 1" in row.constant     # the hidden constant is said


def cli(*args):
    return cli_run(["--formulas", TOML, "compare", "my_paper", "--measured", RUNS, *args], env=ENV)


def test_every_output_format():
    exp = expected()
    p = cli("--format", "json")
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)["rows"]
    for r, (run, b, m) in zip(rows, exp):
        assert r["quantity"] == f"gen_gap ({run})" and abs(r["bound"] - float(b)) < 1e-12
        assert r["measured"] == float(m) and abs(r["ratio"] - float(b / m)) < 1e-12 and r["holds"] is True
    p = cli("--format", "csv")
    got = list(csv.DictReader(io.StringIO(p.stdout)))
    assert [abs(float(r["bound"]) - float(b)) < 1e-12 and float(r["measured"]) == float(m)
            for r, (_, b, m) in zip(got, exp)] == [True] * 3
    for fmt, needle in (("markdown", r"| $L(\theta) - \hat L(\theta)$ (small)"), ("latex", r"\begin{table"), ("rich", "gen_gap (large)")):
        p = cli("--format", fmt)
        assert p.returncode == 0 and needle in p.stdout, (fmt, p.stderr, p.stdout[:300])
        for run, b, m in exp:                       # every row's three numbers, as printed (3 digits)
            assert mpmath.nstr(b, 3) in p.stdout.replace(r"\num{", "").replace("}", "") or fmt == "latex"
    assert "0.355" in cli("--format", "markdown").stdout and "1.69" in cli("--format", "markdown").stdout


@pytest.mark.parametrize("text,needle", [
    ("run,n,d,B,delta,gen_gapp\nx,1,1,1,0.5,1\n", "column 6 'gen_gapp' is neither a symbol nor a formula"),
    ("run,n,d,B,delta\nx,1,1,1,0.5\n", "no measured column"),
    ("n,n,gen_gap\n1,1,1\n", "column 2 'n' appears twice"),
    ("n,d,B,delta,gen_gap\n1,1,one,0.5,1\n", "line 2, column 'B'"),
    ("n,d,B,gen_gap\n100,1,1,0.3\n", "gen_gap needs delta"),
    ("n,d,B,delta,gen_gap\n0,1,1,0.5,1\n", "n = 0 is outside its domain"),
    ("n,d,B,delta,samples_cor1\n1,1,1,0.5,1\n", "is a requirement"),
    ("n,d,B,delta,gen_gap\n1,1,1,0.5\n", "line 2 has 4 cells"),
    # issue 30: a measured value beyond the double range was an internal OverflowError
    ("n,d,B,delta,gen_gap\n1000,100,1,0.05,0.2\n1000,100,1,0.05,1e999\n",
     "line 3, column 'gen_gap': '1e999' is not a finite double-precision number"),
    ("n,d,B,delta,gen_gap\n1000,100,1,0.05,-1e999\n", "line 2, column 'gen_gap': '-1e999' is not a finite"),
    # a seed is an integer ('abc' was accepted as one)
    ("run,seed,n,d,B,delta,gen_gap\nx,abc,1000,100,1,0.05,0.2\n", "line 2, column 'seed': 'abc' is not a seed"),
    ("run,seed,n,d,B,delta,gen_gap\nx,1.5,1000,100,1,0.05,0.2\n", "line 2, column 'seed': '1.5' is not a seed"),
    ("run,seed,n,d,B,delta,gen_gap\nx,-1,1000,100,1,0.05,0.2\n", "line 2, column 'seed': '-1' is not a seed"),
])
def test_bad_csv_is_one_line_naming_the_culprit(tmp_path, text, needle):
    f = tmp_path / "runs.csv"
    f.write_text(text)
    with pytest.raises(BoundcalcError) as e:
        compare_measured(f, paper="my_paper", formulas_path=[TOML])
    assert needle in str(e.value) and "\n" not in str(e.value), str(e.value)
    p = cli_run(["--formulas", TOML, "compare", "my_paper", "--measured", f], env=ENV)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and needle in p.stderr, p.stderr


def test_setting_supplies_missing_inputs(tmp_path):
    # the toy setting gives d = 100, B = 1, delta = 0.05, C = 1: the CSV gives only n
    f = tmp_path / "runs.csv"
    f.write_text("n,gen_gap\n1000,0.2\n")
    t = compare_measured(f, paper="my_paper", setting="toy", formulas_path=[TOML])
    (row,) = t.rows
    b = by_hand(1000, 100, 1, "0.05")
    assert abs(mpmath.mpf(row.bound) - b) < mpmath.mpf(10) ** -14 * b


# ---------------------------------------------------------------- --map and repeated seeds
SEEDS = """run,seed,N,d,B,delta,gap
small,0,1000,100,1,0.05,0.21
small,1,1000,100,1,0.05,0.23
small,2,1000,100,1,0.05,0.19
large,0,16000,100,1,0.05,0.061
large,1,16000,100,1,0.05,0.059
"""


def test_seed_column_gives_mean_and_student_t_interval(tmp_path):
    f = tmp_path / "seeds.csv"
    f.write_text(SEEDS)
    t = compare_measured(f, paper="my_paper", formulas_path=[TOML], mapping={"N": "n", "gap": "gen_gap"})
    assert [r.quantity for r in t.rows] == ["gen_gap (small)", "gen_gap (large)"]
    small, large = t.rows
    # by hand: mean 0.21, sd 0.02 (ddof 1), t_{0.975, 2} = 4.302652729911275 (tables), half width
    # 4.3026527 * 0.02 / sqrt(3) = 0.0496826
    assert abs(float(small.measured) - 0.21) < 1e-12
    half = 4.302652729911275 * 0.02 / 3 ** 0.5
    assert f"[{0.21 - half:.3g}, {0.21 + half:.3g}]" in small.note and "3 seeds" in small.note
    # two seeds: mean 0.06, sd sqrt(2) * 0.001, t_{0.975, 1} = 12.706204736174705
    assert abs(float(large.measured) - 0.06) < 1e-12 and "2 seeds" in large.note
    half2 = 12.706204736174705 * (2 ** 0.5 * 0.001) / 2 ** 0.5
    assert f"[{0.06 - half2:.3g}, {0.06 + half2:.3g}]" in large.note
    assert abs(float(small.bound) - float(by_hand(1000, 100, 1, 0.05))) < 1e-12
    assert small.holds is True and "reaches past" not in small.note
    assert t.seed is None and t.settings["map"] == "N=n, gap=gen_gap"


def test_interval_reaching_past_the_bound_is_said(tmp_path):
    b = float(by_hand(1000, 100, 1, 0.05))            # 0.3550...
    f = tmp_path / "wide.csv"
    f.write_text(f"run,seed,n,d,B,delta,gen_gap\nx,0,1000,100,1,0.05,{b - 0.1}\nx,1,1000,100,1,0.05,{b + 0.05}\n")
    (row,) = compare_measured(f, paper="my_paper", formulas_path=[TOML]).rows
    assert row.holds is True and "the interval reaches past the bound" in row.note


@pytest.mark.parametrize("text, mapping, needle", [
    (SEEDS, {"M": "n"}, "has no column 'M'"),
    (SEEDS, {"gap": "gen_gap"}, "column 3 'N' is neither a symbol nor a formula"),
    ("run,seed,n,d,B,delta,gen_gap\nx,0,1000,100,1,0.05,0.2\nx,1,2000,100,1,0.05,0.2\n", None,
     "gives other inputs than line 2"),
    ("run,seed,n,d,B,delta,gen_gap\nx,0,1000,100,1,0.05,0.2\nx,0,1000,100,1,0.05,0.3\n", None,
     "repeats seed 0 of run x"),
    ("run,seed,n,d,B,delta,gen_gap\nx,7,1000,100,1,0.05,0.2\nx,007,1000,100,1,0.05,0.3\n", None,
     "repeats seed 7 of run x"),
    ("run,n,d,B,delta,gen_gap\nx,1000,100,1,0.05,0.2\nx,1000,100,1,0.05,0.3\n", None,
     "repeats run x (line 2); add a 'seed' column"),
])
def test_map_and_seed_errors_are_one_line(tmp_path, text, mapping, needle):
    f = tmp_path / "bad.csv"
    f.write_text(text)
    with pytest.raises(BoundcalcError) as e:
        compare_measured(f, paper="my_paper", formulas_path=[TOML], mapping=mapping)
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_cli_map_option(tmp_path):
    f = tmp_path / "seeds.csv"
    f.write_text(SEEDS)
    r = cli_run(["--formulas", TOML, "compare", "my_paper", "--measured", f, "--map", "N=n", "--map", "gap=gen_gap",
             "--json"], env=ENV)
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)["rows"]
    assert [round(x["measured"], 12) for x in rows] == [0.21, 0.06]
    bad = cli_run(["--formulas", TOML, "compare", "my_paper", "--measured", f, "--map", "N"], env=ENV)
    assert bad.returncode == 2 and "write COLUMN=NAME" in bad.stderr and "Traceback" not in bad.stderr


# ---------------------------------------------------------------------------- issue 34 (7)
# the interval in columns of its own, and a figure against the input that varies
WIDTHS = """run,seed,n,d,B,delta,gen_gap
a,0,1000,100,1,0.05,0.20
a,1,1000,100,1,0.05,0.22
a,2,1000,100,1,0.05,0.24
b,0,4000,100,1,0.05,0.11
b,1,4000,100,1,0.05,0.13
c,0,16000,100,1,0.05,0.061
"""
# by hand: a: mean 0.22, sd 0.02, t_{0.975,2} = 4.302652729911275 (tables) -> half 0.0496828...;
# b: mean 0.12, sd 0.01 * sqrt(2), t_{0.975,1} = 12.706204736174705 -> half 12.7062 * 0.01 = 0.127062;
# c: one run, no interval
HAND = {"a": (0.22, 4.302652729911275 * 0.02 / 3 ** 0.5, 3), "b": (0.12, 12.706204736174705 * 0.01, 2),
        "c": (0.061, None, None)}


def test_csv_has_interval_columns(tmp_path):
    f = tmp_path / "w.csv"
    f.write_text(WIDTHS)
    r = cli_run(["--formulas", TOML, "compare", "my_paper", "--measured", f, "--format", "csv"], env=ENV)
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert [x["quantity"] for x in rows] == ["gen_gap (a)", "gen_gap (b)", "gen_gap (c)"]
    for x in rows:
        mean, half, n = HAND[x["quantity"][-2]]
        assert float(x["measured"]) == pytest.approx(mean, abs=1e-12)
        if half is None:
            assert x["measured_low"] == x["measured_high"] == ""        # one seed: no interval, said
            assert x["seeds"] == "1" and x["interval"] == "1 run, no interval"
        else:
            assert float(x["measured_low"]) == pytest.approx(mean - half, abs=1e-9)
            assert float(x["measured_high"]) == pytest.approx(mean + half, abs=1e-9)
            assert int(x["seeds"]) == n
            assert x["interval"] == f"95% two-sided Student-t, {n - 1} degree{'s' if n > 2 else ''} of freedom"
    t = compare_measured(f, paper="my_paper", formulas_path=[TOML])
    df = t.to_frame()
    assert str(df["measured_low"].dtype) == "float64" and str(df["seeds"].dtype) == "Int64"
    j = t.to_json()["rows"][0]
    assert j["measured_low"] == pytest.approx(0.22 - HAND["a"][1], abs=1e-9) and j["seeds"] == 3


def test_measured_figure_against_the_varying_input(tmp_path, monkeypatch):
    """The figure of compare --measured --plot: x = n (the one input that varies), the bound
    at each run (by hand), the mean with its Student-t bars; 3.25 in x at most 2.6 in, no
    title, the symbol n and the quantity L(theta) - hat L(theta) typeset."""
    from matplotlib.figure import Figure
    from PIL import Image
    saved = []
    real = Figure.savefig
    monkeypatch.setattr(Figure, "savefig", lambda self, *a, **k: (saved.append(self), real(self, *a, **k))[1])
    f = tmp_path / "w.csv"
    f.write_text(WIDTHS)
    r = cli_run(["--formulas", TOML, "compare", "my_paper", "--measured", f, "--plot", tmp_path / "fig",
                 "--format", "csv"], env=ENV)
    assert r.returncode == 0, r.stderr
    png = tmp_path / "fig.png"
    with Image.open(png) as im:
        assert im.size[0] == 975 and im.size[1] <= 2.6 * 300
    ax = saved[0].axes[0]
    assert not ax.get_title() and saved[0]._suptitle is None
    assert ax.get_xscale() == "log" and "$n$" in ax.get_xlabel()
    assert r"$L(\theta) - \hat L(\theta)$" in ax.get_ylabel() and "upper bound" in ax.get_ylabel()
    bound_line = next(ln for ln in ax.get_lines() if str(ln.get_label()).startswith("bound"))
    assert list(bound_line.get_xdata()) == [1000, 4000, 16000]
    for y, n in zip(bound_line.get_ydata(), (1000, 4000, 16000)):
        assert y == pytest.approx(float(by_hand(n, 100, 1, 0.05)), rel=1e-12)
    # the error bars: one vertical segment per seeded run, from mean - half to mean + half
    from matplotlib.collections import LineCollection
    (bars,) = [c for c in ax.collections if isinstance(c, LineCollection)]
    segs = bars.get_segments()
    for seg, key in zip(segs, "abc"):
        mean, half, _ = HAND[key]
        assert seg[0][1] == pytest.approx(mean - (half or 0)) and seg[1][1] == pytest.approx(mean + (half or 0))
    legend = [t.get_text() for leg in saved[0].legends for t in leg.get_texts()]
    assert "bars: 95% Student-$t$ interval of the mean (2\u20133 seeds); no bar: one run" in legend
    assert any("$C = 1$" in t for t in legend)            # the hidden constant, said


def test_versus_names_the_axis_and_is_refused_when_unknown(tmp_path):
    f = tmp_path / "two.csv"
    f.write_text("run,n,d,B,delta,gen_gap\nx,1000,100,1,0.05,0.2\ny,2000,50,1,0.05,0.1\n")
    r = cli_run(["--formulas", TOML, "compare", "my_paper", "--measured", f, "--plot", tmp_path / "p"], env=ENV)
    assert r.returncode == 2 and "the runs vary n, d: name the one to plot against with --versus n" in r.stderr
    assert not (tmp_path / "p.png").exists() and "Traceback" not in r.stderr
    r = cli_run(["--formulas", TOML, "compare", "my_paper", "--measured", f, "--plot", tmp_path / "p",
                 "--versus", "m"], env=ENV)
    assert r.returncode == 2 and "--versus 'm': not an input column of the runs (their inputs: n, d, B, delta)" in r.stderr
    r = cli_run(["--formulas", TOML, "compare", "my_paper", "--measured", f, "--versus", "n"], env=ENV)
    assert r.returncode == 2 and "give --plot FILE too" in r.stderr
    r = cli_run(["--formulas", TOML, "compare", "my_paper", "--measured", f, "--plot", tmp_path / "p",
                 "--versus", "d", "--format", "csv"], env=ENV)
    assert r.returncode == 0 and (tmp_path / "p.png").exists()
