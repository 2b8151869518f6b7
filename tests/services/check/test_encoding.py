"""Passes that cannot fail by construction (services/check/encoding.py, issue 35): one small
hand-written check per rule that must be graded identity, and a near-miss beside each that must
stay a pass (ok or conditional). Each expected grade is argued by hand in its comment; every
identity below was a pass (ok / conditional) before encoding.py existed."""
import pytest

from boundcalc.services.check import run_checks

SYMS = '''
results = ["Thm. 1"]
''' + "".join(f'\n[symbols.{s}]\ndescription = "{s}"\ndomain = "positive"\n' for s in ("x", "y", "d", "a", "z")) + '''
[symbols.c]
description = "c"
domain = "real"

[symbols.u]
description = "u"
domain = "real"

[symbols.c_twin]
description = "c twin"
domain = "real"

[formulas.K]
name = "K, affine in x"
kind = "definition"
source = "Eq. (1)"
expr = "d*x + y"

[formulas.Kc]
name = "Kc, not affine in x"
kind = "definition"
source = "Eq. (2)"
expr = "x**3 + d*x"

[formulas.F]
name = "F"
kind = "definition"
source = "Eq. (3)"
expr = "x**2 + d*y"
'''


def _check(cid, body):
    return f'\n[[checks]]\nid = "{cid}"\nlocation = "l"\ndescription = "d"\n' + body


def _assume(*exprs):
    return "assume = [" + ", ".join(f'{{ expr = "{e}", reason = "ours" }}' for e in exprs) + "]\n"


CHECKS = "".join([
    # rule 1: x^2 <= y^2 follows from x <= y alone (x, y > 0): the assumption is the claim restated
    _check("alone", 'kind = "compare"\nlhs = "x**2"\nrel = "<="\nrhs = "y**2"\n' + _assume("x <= y")),
    # near-miss: x <= d + 2 needs both x <= y and y <= d + 1 (neither alone), and the 2 is arithmetic
    _check("chain", 'kind = "compare"\nlhs = "x"\nrel = "<="\nrhs = "d + 2"\n' + _assume("x <= y", "y <= d + 1")),
    # rule 2: x y <= d a is the product of x <= d and y <= a, side by side
    _check("product", 'kind = "compare"\nlhs = "x*y"\nrel = "<="\nrhs = "d*a"\n' + _assume("x <= d", "y <= a")),
    # near-miss: x y <= 2 d a, a constant no assumption holds (a misprint 1/2 would fail)
    _check("product_const", 'kind = "compare"\nlhs = "x*y"\nrel = "<="\nrhs = "2*d*a"\n'
           + _assume("x <= d", "y <= a")),
    # rule 2, sum: x + y <= d + a is the sum of the two assumptions
    _check("sum", 'kind = "compare"\nlhs = "x + y"\nrel = "<="\nrhs = "d + a"\n' + _assume("x <= d", "y <= a")),
    # rule 3: K = d x + y is affine in x with slope d > 0 by domain
    _check("affine", 'kind = "monotone"\nformula = "K"\nvar = "x"\nclaim = "increasing"\n'),
    # near-miss: x^3 + d x holds x twice (a derivative is taken): a step
    _check("not_affine", 'kind = "monotone"\nformula = "Kc"\nvar = "x"\nclaim = "increasing"\n'),
    # rule 4: with c_twin = -c put in, c e^u + c_twin e^u = 0 is c e^u - c e^u = 0
    _check("substituted", 'kind = "compare"\nlhs = "c*exp(u) + c_twin*exp(u)"\nrel = "=="\nrhs = "0"\n'
           + _assume("c_twin == -c")),
    # near-miss: F (a printed formula) at d = 1 against x^2 + y names a formula of the paper: conditional
    _check("substituted_formula", 'kind = "compare"\nlhs = "F"\nrel = "=="\nrhs = "x**2 + y"\nuses = ["F"]\n'
           + _assume("d == 1")),
    # rule 5: max(x, y) >= x whatever x and y (ok before: no premise to drop)
    _check("max_pick", 'kind = "compare"\nlhs = "max(x, y)"\nrel = ">="\nrhs = "x"\n'),
    # near-miss: max(x, y) >= (x + y)/2: no argument of the max is the other side
    _check("max_mean", 'kind = "compare"\nlhs = "max(x, y)"\nrel = ">="\nrhs = "(x + y)/2"\n'),
])


@pytest.fixture(scope="module")
def got(tmp_path_factory):
    p = tmp_path_factory.mktemp("encoding") / "enc.toml"
    p.write_text('[paper]\nkey = "enc"\ntitle = "t"\n' + SYMS + CHECKS, encoding="utf-8")
    return {r.check: r for r in run_checks("enc", formulas_path=[str(p)]).results}


@pytest.mark.parametrize("cid, words", [
    ("alone", "alone implies the claim"), ("product", "the product of its own assumptions"),
    ("sum", "the sum of its own assumptions"), ("affine", "affine formula"),
    ("substituted", "own equalities"), ("max_pick", "max(a, b) >= a")])
def test_a_pass_that_cannot_fail_is_graded_identity(got, cid, words):
    r = got[cid]
    assert (r.severity, r.reason) == ("identity", "tautology"), r.message
    assert words in r.message


@pytest.mark.parametrize("cid, grade", [
    ("chain", "conditional"), ("product_const", "conditional"), ("not_affine", "ok"),
    ("substituted_formula", "conditional"), ("max_mean", "ok")])
def test_a_near_miss_stays_a_pass(got, cid, grade):
    assert got[cid].severity == grade, got[cid].message
