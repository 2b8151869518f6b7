"""The runnable examples (examples/*.py, including the percent-format notebook
examples/walkthrough.py) run end to end at reduced sizes, write their outputs, and the
numbers they print agree with values computed here independently (mpmath, by hand)."""
import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import mpmath
import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SCRIPTS = ["deora2023_heads_and_samples.py", "arda2026_width.py", "tarzanagh2023_step_size.py",
           "anon2025_conditions.py", "walkthrough.py"]

# One interpreter runs every script (as __main__, like `python examples/X.py`), so the
# shared imports are paid once; each script's time is reported back.
RUNNER = """
import json, runpy, sys, time
times = {}
for path in sys.argv[1:]:
    t = time.perf_counter()
    runpy.run_path(path, run_name="__main__")
    times[path] = time.perf_counter() - t
print("TIMES " + json.dumps(times))
"""


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    out = tmp_path_factory.mktemp("examples")
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOUNDCALC") or k == "BOUNDCALC_REGISTRY_CACHE"}
    env.update(BOUNDCALC_EXAMPLES_QUICK="1", BOUNDCALC_EXAMPLES_OUT=str(out),
               BOUNDCALC_CACHE=str(out / "cache"), MPLBACKEND="Agg")
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", RUNNER, *(str(EXAMPLES / s) for s in SCRIPTS)],
                       capture_output=True, text=True, env=env, timeout=300, cwd=out, check=False)
    assert p.returncode == 0, p.stderr[-3000:]
    times = json.loads(p.stdout.rsplit("TIMES ", 1)[1])
    return out, times, time.perf_counter() - t


def test_every_script_ran_and_wrote_its_outputs(outputs):
    out, times, total = outputs
    for s in SCRIPTS[:-1]:
        stem = s[:-3].replace("_", "-")      # outputs are hyphenated like every other file
        assert (out / f"{stem}.md").stat().st_size > 500, stem
        assert (out / f"{stem}.csv").stat().st_size > 100, stem
    for name in ("formulas", "answers", "comparison", "checks"):
        assert (out / f"walkthrough-{name}.csv").stat().st_size > 100, name
    print(f"examples: {total:.1f} s in all; " + ", ".join(f"{Path(k).name} {v:.1f} s" for k, v in times.items()))


def test_docs_link_every_example():
    page = (ROOT / "docs" / "tutorial" / "examples.md").read_text(encoding="utf-8")   # the README links it
    for s in SCRIPTS + ["my_paper.toml"]:
        assert f"](examples/{s})" in page, s


def _rows(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_arda_least_widths_match_the_closed_form(outputs):
    # app_eps: 2 (1*3 + 1*3 + 1*3) sqrt(2 log(2n/delta)/m) <= eps  <=>  m >= 648 log(2n/delta)/eps^2
    text = (outputs[0] / "arda2026-width.md").read_text(encoding="utf-8")
    with mpmath.workdps(50):
        for eps in ("1", "0.5", "0.1"):
            m = int(mpmath.ceil(648 * mpmath.log(2 * 5000 / mpmath.mpf("0.05")) / mpmath.mpf(eps) ** 2))
            assert f"| {eps} | {m} | holds at {m}, fails at {m - 1} |" in text, (eps, m)


def test_walkthrough_answers_are_certified_boundaries(outputs):
    rows = {r["question"]: r for r in _rows(outputs[0] / "walkthrough-answers.csv")}
    # Anonymous (2025): d_m >= C_w N^3 with C_w = 1 at N = 400
    assert rows["least d_m"]["answer"] == str(400 ** 3)
    # Tarzanagh et al.: eta <= 1/L_p, L_p = M0 ||X||^4 + 3 M1 ||X||^3 (v = W = 1), Fig. 1(a) values
    with mpmath.workdps(100):      # the bracket is 2^-200 (6e-61) wide: more digits than that
        X4 = mpmath.mpf("10.91661365520989537964509021236449838968")
        X3 = mpmath.mpf("6.005732099224402748474006924307581974525")
        eta = 1 / (X4 / 4 + 3 * X3)
        r = rows["greatest eta"]
        assert abs(mpmath.mpf(r["holds at"]) - eta) <= eta * mpmath.mpf(10) ** -55
        assert mpmath.mpf(r["holds at"]) <= eta < mpmath.mpf(r["fails at"])
    # Arda et al.: least m at eps = 0.1
    with mpmath.workdps(50):
        m = int(mpmath.ceil(64800 * mpmath.log(200000)))
    assert rows["least m"]["answer"] == str(m) and rows["least m"]["fails at"] == str(m - 1)


def test_walkthrough_check_frame_has_the_template_paper(outputs):
    rows = _rows(outputs[0] / "walkthrough-checks.csv")
    mine = {r["check"]: r["severity"] for r in rows if r["paper"] == "my_paper"}
    # cor1_from_thm1 runs under Cor. 1's quoted hypothesis (its sample size, the paper's): ok;
    # gap_order_in_n's Theta(1/sqrt(n)) is read off gen_gap's own n^(-1/2) factor: identity
    assert mine == {"gap_decreases_in_n": "ok", "gap_order_in_n": "identity", "cor1_from_thm1": "ok"}


def test_committed_check_report_grades_match_a_fresh_run():
    """examples/check/report.json (the report the README and docs quote) is not stale: a fixed
    sample of its checks (every 9th by paper and id, about 30) graded afresh here gets the
    committed severity and reason. The whole report: `python examples/check/make_report.py --verify`."""
    import runpy
    mod = runpy.run_path(str(EXAMPLES / "check" / "make_report.py"))
    from boundcalc.services.check import run_checks
    committed = mod["committed"]()
    keys = sorted(mod["grades"](committed))[::9]
    assert len(keys) >= 25
    for paper in sorted({p for p, _ in keys}):
        fresh = run_checks(paper, only=[c for p, c in keys if p == paper], jobs=1).to_json()
        assert not mod["differences"](committed, fresh), (
            "examples/check/report.json is stale (python examples/check/make_report.py): "
            + "; ".join(mod["differences"](committed, fresh)))
