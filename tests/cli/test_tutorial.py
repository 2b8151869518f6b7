"""The user tutorial runs (issue 18): every ``boundcalc`` command of CONTRIBUTING.md's "Add
your own paper" and of the header of examples/my_paper.toml is run as printed, from the
repository root, and its exit status and key output are asserted; a command added to the
tutorial without an expectation here fails the test, so the documented commands cannot rot.

Expected numbers are by hand from examples/my_paper.toml (C = B = 1, d = 100, delta = 0.05):
gen_gap = (C B sqrt(d) + sqrt(log(1/delta)/2)) / sqrt(n), so gen_gap <= 0.1 needs
n >= (10 + sqrt(log(20)/2))^2 / 0.01 (12598), and Cor. 1's sufficient
n >= (2 C^2 B^2 d + log(1/delta)) / epsilon^2 at epsilon = 0.1 asks (200 + log 20)/0.01 (20300),
more: (a + b)^2 <= 2a^2 + 2b^2 is the corollary's step."""
from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import mpmath
import pytest
from support import cli

ROOT = Path(__file__).resolve().parents[2]
ENV = {k: v for k, v in os.environ.items() if not k.startswith("BOUNDCALC") or k == "BOUNDCALC_REGISTRY_CACHE"}
ENV["COLUMNS"] = "200"      # the tables at the width a pipe gets, whatever the worker's environment holds


def _least_n() -> int:
    with mpmath.workdps(50):                          # local precision: the global context is left alone
        a = 10 + mpmath.sqrt(mpmath.log(20) / 2)      # C B sqrt(d) + sqrt(log(1/delta)/2)
        return int(mpmath.ceil((a / mpmath.mpf("0.1")) ** 2))


def _least_n_cor1() -> int:
    with mpmath.workdps(50):
        return int(mpmath.ceil((200 + mpmath.log(20)) / mpmath.mpf("0.01")))


def _gap(n) -> str:
    with mpmath.workdps(50):
        v = (10 + mpmath.sqrt(mpmath.log(20) / 2)) / mpmath.sqrt(n)
        return mpmath.nstr(v, 15)


def tutorial_commands() -> list[str]:
    """``boundcalc ...`` lines of the tutorial: CONTRIBUTING.md's "Add your own paper" code
    blocks and the commands in the header comments of examples/my_paper.toml."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("## Add your own paper", 1)[1].split("\n## ", 1)[0]
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", section, flags=re.DOTALL):
        lines += [ln for ln in block.splitlines() if ln.startswith("boundcalc ")]
    for ln in (ROOT / "examples" / "my_paper.toml").read_text(encoding="utf-8").splitlines():
        m = re.match(r"#\s+(boundcalc .*)", ln)
        if m:
            lines.append(m.group(1))
    return [shlex.split(ln, comments=True) for ln in lines]


LEAST = _least_n()
LEAST_COR1 = _least_n_cor1()
# the command's words after 'boundcalc' that identify it -> (exit status, strings in stdout)
EXPECT = {
    ("check", "my_paper"): (0, ["3 checks", "0 error(s)", "2 passed", "1 identity"]),
    ("list", "--paper"): (0, ["my_paper.gen_gap", "my_paper.samples_cor1"]),
    ("require", "--epsilon"): (0, [f"least n = {LEAST_COR1}"]),
    ("require", "--target"): (0, [f"least n = {LEAST}"]),
    ("require", "--from"): (0, [f"least n = {LEAST}", "searched only n in [100, +inf)"]),
    ("eval", "--set"): (0, [f"my_paper.gen_gap = {_gap(1000)}"]),
    ("eval", "--setting"): (0, [f"my_paper.gen_gap = {_gap(1000)}", "setting my_paper.toy"]),
    ("monotone", "--box"): (0, ["decreasing in n (proved)", "n in [8, +inf)"]),
    ("compare", "--measured"): (0, ["gen_gap (small)", "gen_gap (medium)", "gen_gap (large)", "0.355", "1.69"]),
}


def _bft() -> tuple[str, list[str]]:
    """examples/bft2017.toml by hand: R_A at L = 3, rho = 1, s = (1, 2, 1/2), b = 2 is
    (1*2*1/2) (2^(2/3) + 1 + 4^(2/3))^(3/2); the margin bound C (X R_A log W/(gamma n) +
    sqrt(log(1/delta)/n)) at the setting three_layers (X = 245, W = 784, gamma = 1,
    delta = 1/100, C = 1) for the CSV's n = 60000, 240000, 960000, to 3 digits."""
    with mpmath.workdps(50):
        ra = (2 ** (mpmath.mpf(2) / 3) + 1 + 4 ** (mpmath.mpf(2) / 3)) ** (mpmath.mpf(3) / 2)
        bounds = [mpmath.nstr(245 * ra / n * mpmath.log(784) + mpmath.sqrt(mpmath.log(100) / n), 3)
                  for n in (60000, 240000, 960000)]
        return mpmath.nstr(ra, 15), bounds


RA, BFT_BOUNDS = _bft()
EXPECT.update({
    ("bft2017 eval", ""): (0, [f"bft2017.R_A = {RA}"]),
    ("bft2017 eval", "--setting"): (0, [f"bft2017.R_A_latex = {RA}"]),
    ("bft2017 monotone", ""): (0, ["bft2017.R_A is increasing in L (proved)"]),
    ("bft2017 asymptotic", ""): (0, ["Theta(2**L*L**(3/2))", "2**L*L**(3/2)/2"]),
    # two planted errors (the monotone claim, the wrong exponent in the weights' sum); the
    # product, the weights' sum, the covering sum and the power-mean step pass for every depth L
    ("bft2017 check", ""): (1, ["2 error(s)", "R_A_not_monotone_in_depth_in_general",
                                "PLANTED_alpha_weights_wrong_exponent", "at depth L = "]),
    ("bft2017 sheet", ""): (0, ["Formula sheet", "R_A_latex", "prod", "margin_bound"]),
    ("bft2017 compare", "--setting"): (0, ["margin_bound (n=60k)", *BFT_BOUNDS, "with C = 1 (default)"]),
})


def _key(args: list[str]) -> tuple[str, str]:
    files = [args[k + 1] for k, a in enumerate(args[:-1]) if a == "--formulas"]
    rest = [a for k, a in enumerate(args) if a != "--formulas" and (k == 0 or args[k - 1] != "--formulas")]
    cmd = rest[0]
    if files == ["examples/bft2017.toml"]:            # the multi-layer walk-through
        flag = "--setting" if "--setting" in rest else ""
        return ("bft2017 " + cmd, flag)
    if cmd in ("check",):
        return (cmd, "my_paper")
    for flag in ("--from", "--epsilon", "--target", "--setting", "--set", "--paper", "--box", "--measured"):
        if flag in rest:
            return (cmd, flag)
    raise AssertionError(f"no expectation for tutorial command {' '.join(args)!r}")


def test_the_tutorial_lists_the_commands_this_test_knows():
    keys = [_key(c[1:]) for c in tutorial_commands()]
    assert set(EXPECT) <= set(keys), set(EXPECT) - set(keys)
    assert len(keys) >= 9


@pytest.mark.parametrize("args", tutorial_commands(), ids=lambda a: " ".join(a[1:])[:60])
def test_tutorial_command_runs_as_printed(args):
    assert args[0] == "boundcalc"
    code, needles = EXPECT[_key(args[1:])]
    p = cli(args[1:], cwd=ROOT, env=ENV)          # in process, through the real entry point
    assert p.returncode == code, (args, p.stderr)
    out = " ".join(p.stdout.split())
    for s in needles:
        assert s in out, (args, s, p.stdout[:800])
    assert "Traceback" not in p.stderr


def test_a_planted_error_exits_1_and_its_rerun_line_runs_as_printed(tmp_path):
    """The tutorial's CI use: a slip in the user's file fails the job, and the printed re-run
    line reproduces the finding as typed."""
    src = (ROOT / "examples" / "my_paper.toml").read_text(encoding="utf-8")
    planted = src.replace('order = "1/sqrt(n)"', 'order = "1/n"')     # the gap is Theta(n^-1/2), not 1/n
    assert planted != src
    f = tmp_path / "my_paper.toml"
    f.write_text(planted, encoding="utf-8")
    p = cli(["check", "--formulas", f, "my_paper"], cwd=tmp_path, env=ENV)
    assert p.returncode == 1 and "1 error(s)" in p.stdout and "gap_order_in_n" in p.stdout
    reruns = {check: line for line, check in re.findall(r"re-run: (boundcalc .*--only (\S+).*)", p.stdout)}
    assert set(reruns) == {"gap_order_in_n"}, p.stdout       # the error's line (passes print none)
    q = cli(shlex.split(reruns["gap_order_in_n"])[1:], cwd=tmp_path, env=ENV)
    assert q.returncode == 1 and "gap_order_in_n" in q.stdout and "1 error(s)" in q.stdout, q.stdout


def test_a_slip_in_the_quoted_hypothesis_fails_the_step(tmp_path):
    """Cor. 1's sample size without the factor 2 of (a + b)^2 <= 2a^2 + 2b^2 no longer gives a
    gap of at most epsilon: the pass under the paper's hypothesis can fail. By hand at the
    counterexample's kind of point, B = 7.6, C = 0.1, d = 10, delta = 0.01, eps = 0.017,
    n = 40000: the slipped condition asks n >= (5.776 + 4.605)/0.000289 = 35921 (holds),
    the gap is 0.01202 + 0.00759 = 0.01960 > 0.017."""
    src = (ROOT / "examples" / "my_paper.toml").read_text(encoding="utf-8")
    planted = src.replace('expr = "n >= (2*C**2*B**2*d', 'expr = "n >= (C**2*B**2*d')
    assert planted != src
    f = tmp_path / "my_paper.toml"
    f.write_text(planted, encoding="utf-8")
    p = cli(["check", "--formulas", f, "my_paper", "--only", "cor1_from_thm1"], cwd=tmp_path, env=ENV)
    assert p.returncode == 1 and "1 error(s)" in p.stdout and "inside the hypotheses" in p.stdout, p.stdout
    assert "with C = 1" not in p.stdout        # the claim's C and the hypothesis' C are one constant
