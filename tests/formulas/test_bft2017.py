"""Indexed symbols in formula files, end to end on a user's paper (examples/bft2017.toml:
Bartlett, Foster & Telgarsky's spectral complexity R_A over L layers): declarations and
scoping checked at load in one line, vector values in settings, the API and the CLI,
and eval / monotone / asymptotic, each against an independent hand computation."""
import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from boundcalc.api import formula
from boundcalc.errors import BoundcalcError, FormulaFileError
from boundcalc.registry.loader import load_file

ROOT = Path(__file__).resolve().parents[2]
BFT = str(ROOT / "examples" / "bft2017.toml")
ENV = {k: v for k, v in os.environ.items() if not k.startswith("BOUNDCALC") or k == "BOUNDCALC_REGISTRY_CACHE"}


def run(*args):
    from support import cli  # the real entry point, in this process
    return cli(["--formulas", BFT, *args], env=ENV)


def _hand_R_A(rho, s, b):
    """R_A = (prod rho_i s_i) (sum (b_i/s_i)^(2/3))^(3/2), by hand in mpmath at 50 digits."""
    with mpmath.workdps(50):
        p = mpmath.mpf(1)
        for r, x in zip(rho, s):
            p *= mpmath.mpf(r) * mpmath.mpf(x)
        q = sum((mpmath.mpf(bb) / mpmath.mpf(x)) ** (mpmath.mpf(2) / 3) for bb, x in zip(b, s))
        return p * q ** (mpmath.mpf(3) / 2)


def test_R_A_at_three_layers_equals_the_hand_computation_and_the_written_out_form():
    # setting three_layers: rho = 1, s = (1, 2, 1/2), b = 2: (2^(2/3) + 1 + 4^(2/3))^(3/2) = 11.5419663055892...
    want = _hand_R_A([1, 1, 1], [1, 2, mpmath.mpf("0.5")], [2, 2, 2])
    assert mpmath.nstr(want, 15) == "11.5419663055892"
    for fid in ("bft2017.R_A", "bft2017.R_A_3", "bft2017.R_A_latex"):
        f, values = formula(fid, formulas_path=[BFT]).at_setting("three_layers")
        v = f.evaluate(values, digits=30).mpf
        assert abs(v - want) < mpmath.mpf(10) ** -28, fid


def test_vectors_and_scalars_from_python():
    f = formula("bft2017.R_A", formulas_path=[BFT])
    got = f.evaluate({"L": 4, "rho": [1, 2, 1, 3], "s": "2, 1, 3, 1", "b": 1}, digits=25).mpf
    assert abs(got - _hand_R_A([1, 2, 1, 3], [2, 1, 3, 1], [1, 1, 1, 1])) < mpmath.mpf(10) ** -23
    with pytest.raises(BoundcalcError, match=r"^s: 3 values given, but its index runs over 1 \.\. 4 \(4 values\)$"):
        f.evaluate({"L": 4, "rho": 1, "s": [1, 2, 3], "b": 1})
    with pytest.raises(BoundcalcError, match="s is .*|outside"):
        f.evaluate({"L": 3, "rho": 1, "s": [1, -2, 3], "b": 1})


def test_cli_eval_with_vector_options():
    p = run("eval", "bft2017.R_A", "--L", "3", "--rho", "1", "--s", "1,2,0.5", "--b", "2", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["value"].startswith("11.541966305589")
    p = run("eval", "bft2017.R_A", "--L", "4", "--rho", "1", "--s", "1,2,0.5", "--b", "2")
    assert p.returncode != 0
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "s: 3 values given" in lines[0] and "Traceback" not in p.stderr


def test_monotone_in_depth_is_proved_with_equal_layers():
    f = formula("bft2017.R_A", formulas_path=[BFT])
    r = f.monotone("L", fixed={"rho": "1", "s": "2", "b": "1"})
    # by hand: R_A = 2^L (L 2^(-2/3))^(3/2) = 2^L L^(3/2) / 2, increasing for L >= 1
    assert (r.verdict, r.evidence) == ("increasing", "proved")


def test_monotone_in_depth_fails_for_small_layers():
    """Not increasing in L for every weight: rho s < 1 makes it fall (the planted check)."""
    f = formula("bft2017.R_A", formulas_path=[BFT])
    r = f.monotone("L", fixed={"rho": "1", "s": "1/8", "b": "1"})
    # by hand: R_A = 8^-L (L 8^(2/3))^(3/2) = 8^(1-L) L^(3/2); d/dL log R_A = 3/(2L) - log 8 < 0
    # for L >= 1 (log 8 = 2.079...): decreasing
    assert (r.verdict, r.evidence) == ("decreasing", "proved")


def test_asymptotic_exponential_in_depth():
    f = formula("bft2017.R_A", formulas_path=[BFT])
    r = f.asymptotic("L", fixed={"rho": "1", "s": "2", "b": "1"})
    assert r.order == "Theta(2**L*L**(3/2))" and r.base == "2" and r.coefficient == "1/2"
    r = f.asymptotic("L", fixed={"rho": "3", "s": "1", "b": "1"})
    assert r.order == "Theta(3**L*L**(3/2))"


def test_asymptotic_still_refuses_faster_than_exponential(tmp_path):
    p = _file(tmp_path, 'expr = "factorial(L)"')
    f = formula("tiny.f", formulas_path=[str(p)])
    with pytest.raises(BoundcalcError, match="faster than any exponential"):
        f.asymptotic("L")


def test_check_of_the_example_finds_the_planted_error():
    p = run("check", "bft2017", "--json")
    data = json.loads(p.stdout)
    rows = {r["check"]: r["severity"] for r in data["findings"] + data["passed"]}
    assert rows["R_A_grows_with_depth"] == "ok"
    assert rows["R_A_not_monotone_in_depth_in_general"] == "error"
    # the file's own sums/products over L layers, decided for every depth (prover/bigops.py);
    # by hand: prod(rho s) = prod(rho) prod(s); sum_i v_i/abar = 1; sum_i u_i^2/(v_i/abar)^2 with
    # u = b/s, v = u^(2/3) is abar^2 sum u^(2/3) = abar^3; (sum v)^(3/2) <= sqrt(L) sum v^(3/2)
    for ok in ("R_A_product_splits", "alpha_weights_sum_to_one", "covering_sum_collapses_to_abar_cubed",
               "R_A_sum_factor_power_mean"):
        assert rows[ok] == "ok", ok
    assert rows["PLANTED_alpha_weights_wrong_exponent"] == "error"
    bad = next(r for r in data["findings"] if r["check"] == "PLANTED_alpha_weights_wrong_exponent")
    ce = bad["evidence"]["counterexample"]
    L = int(ce["L"])
    with mpmath.workdps(50):      # the planted sum at the reported layers, independently
        q = [Fraction(ce[f"b[{k}]"]) / Fraction(ce[f"s[{k}]"]) for k in range(1, L + 1)]
        u = [mpmath.mpf(x.numerator) / x.denominator for x in q]
        abar = mpmath.fsum(x ** (mpmath.mpf(2) / 3) for x in u)
        assert abs(mpmath.fsum(x ** (mpmath.mpf(3) / 2) for x in u) / abar - 1) > mpmath.mpf("1e-6")


def test_check_fail_on_error_exits_1():
    # the planted error alone (the whole audit runs in the test above): the text report names
    # it and --fail-on error fails the run
    p = run("check", "bft2017", "--only", "PLANTED_alpha_weights_wrong_exponent", "--fail-on", "error")
    assert p.returncode == 1 and "PLANTED_alpha_weights_wrong_exponent" in p.stdout


HEAD = '''[paper]
key = "tiny"
title = "t"
authors = "a"
reference = "r"

[symbols.L]
description = "depth"
domain = "integer >= 1"

[symbols.s]
description = "per layer"
domain = "positive"
index = "i"
range = [1, "L"]

[formulas.f]
name = "f"
kind = "definition"
source = "here"
'''


def _file(tmp_path, body, head=HEAD):
    p = tmp_path / "tiny.toml"
    p.write_text(head + body + "\n")
    return p


@pytest.mark.parametrize("body,what", [
    ('expr = "sum(s[i], i, 1, L) + i"', "free index 'i' outside the sum/prod/max/min that binds it"),
    ('expr = "s + 1"', "'s' is indexed (s[i]): write s[...]"),
    ('expr = "sum(t[i], i, 1, L)"', "t[...]: 't' is not declared as an indexed symbol"),
    ('expr = "sum(s[i], L, 1, 3)"', "index 'L' of sum(...) is also the name of a symbol"),
    ('expr = "s[j]"', "unknown name 'j'"),
    ('expr = "sum(s[i], i, 1, L)"\n\n[settings.x]\nname = "x"\nsource = "y"\nvalues = { L = 2, s = [1, 2, 3] }',
     r"s: 3 values given, but its index runs over 1 \.\. 2"),
    ('expr = "sum(s[i], i, 1, L)"\n\n[settings.x]\nname = "x"\nsource = "y"\nvalues = { L = 2, s = [1, -2] }',
     "outside its domain"),
])
def test_file_errors_are_one_line_naming_the_culprit(tmp_path, body, what):
    with pytest.raises(FormulaFileError, match=what if "\\" in what else re.escape(what)) as e:
        load_file(_file(tmp_path, body))
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("decl,what", [
    ('index = "i"', "needs both index"),
    ('index = "i"\nrange = [1]', r"range must be a list \[lo, hi\]"),
    ('index = "L"\nrange = [1, 3]', "index 'L' is also a symbol"),
    ('index = "i"\nrange = [1, "n"]', "range names 'n', which is not a plain symbol"),
])
def test_declaration_errors(tmp_path, decl, what):
    head = HEAD.replace('index = "i"\nrange = [1, "L"]', decl)
    with pytest.raises(FormulaFileError, match=what):
        load_file(_file(tmp_path, 'expr = "L"', head))


def test_numeric_eval_of_an_indexed_formula_imports_no_sympy(tmp_path):
    """(Without the formula given by LaTeX alone: reading LaTeX imports SymPy at load.)"""
    text = Path(BFT).read_text()
    a = text.index("[formulas.R_A_latex]")
    b = text.index("[formulas.R_A_3]")
    path = tmp_path / "bft2017.toml"
    path.write_text(text[:a] + text[b:])
    code = ("import sys; from boundcalc.api import formula; "
            f"f = formula('bft2017.R_A', formulas_path=[{str(path)!r}]); "
            "print(f.evaluate({'L': 3, 'rho': 1, 's': [1, 2, 0.5], 'b': 2})); "
            "print('sympy' in sys.modules)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, timeout=120, check=False)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split()[-1] == "False"


def _least_n(rho, s, b, X=245, margin=1, W=784, delta="0.01", target="0.1"):
    """The least integer n with margin_bound <= target (C = 1), by mpmath at 50 digits:
    f(n) = X R_A log(W)/(margin n) + sqrt(log(1/delta)/n) decreases in n; bisection."""
    with mpmath.workdps(50):
        R = _hand_R_A(rho, s, b)
        f = lambda n: X * R * mpmath.log(W) / (margin * n) + mpmath.sqrt(mpmath.log(1 / mpmath.mpf(delta)) / n)
        lo, hi = 1, 1
        while f(hi) > mpmath.mpf(target):
            hi *= 2
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if f(mid) <= mpmath.mpf(target) else (mid, hi)
        return hi


def test_require_with_the_setting_vectors_and_a_vector_override():
    p = run("require", "n", "--setting", "three_layers", "--target", "margin_bound <= 0.1", "--json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["n"] == _least_n([1, 1, 1], [1, 2, mpmath.mpf("0.5")], [2, 2, 2])
    assert data["inputs"]["s"]["value"] == "[1, 2, 0.5]"
    p = run("require", "n", "--setting", "three_layers", "--target", "margin_bound <= 0.1", "--s", "1,1,1", "--json")
    assert json.loads(p.stdout)["n"] == _least_n([1, 1, 1], [1, 1, 1], [2, 2, 2])
    p = run("require", "n", "--setting", "three_layers", "--target", "margin_bound <= 0.1", "--s", "1,1")
    assert p.returncode != 0 and len(p.stderr.strip().splitlines()) == 1 and "s: 2 values given" in p.stderr


def test_monotone_with_a_vector_and_its_refusal():
    p = run("monotone", "bft2017.margin_bound", "--var", "margin", "--L", "3", "--rho", "1", "--s", "1,2,0.5",
            "--b", "2", "--n", "1000", "--X_norm", "10", "--W", "100", "--delta", "0.1", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert (r["verdict"], r["evidence"]) == ("decreasing", "proved")     # C (X R_A log W/n)/margin + ...
    p = run("monotone", "bft2017.R_A", "--var", "L", "--rho", "1", "--s", "1,2,0.5", "--b", "2")
    assert p.returncode != 0 and "a list of values cannot follow the range of s[...] as L varies" in p.stderr


@pytest.mark.parametrize("expr,order,leading", [
    ("binomial(n, 2)", "Theta(n**2)", "n**2/2"),                    # n (n - 1)/2
    ("log(factorial(n))", "Theta(n*log(n))", "n*log(n)"),           # Stirling: n log n - n + O(log n)
    ("gamma(n + 1/2)/gamma(n)", "Theta(sqrt(n))", "sqrt(n)"),       # Gamma(n + a)/Gamma(n) ~ n^a
    # (binomial(2n, n) gives Theta(4**n/sqrt(n)), leading 4^n/sqrt(pi n), by Stirling as by
    # hand, but SymPy's limits take ~50 s on a loaded machine: not run here)
    ("prod(3, i, 1, n)", "Theta(3**n)", "3**n"),                    # a product of n equal factors
])
def test_asymptotic_orders_of_the_new_functions(tmp_path, expr, order, leading):
    head = HEAD.replace('[symbols.L]\ndescription = "depth"', '[symbols.n]\ndescription = "n"')
    head = head.replace('range = [1, "L"]', 'range = [1, "n"]')
    f = formula("tiny.f", formulas_path=[str(_file(tmp_path, f'expr = "{expr}"', head))])
    r = f.asymptotic("n")
    assert (r.order, r.leading) == (order, leading)
