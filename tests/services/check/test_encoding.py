"""Passes that cannot fail by construction (services/check/encoding.py, issue 35): one small
hand-written check per rule that must be graded identity, and a near-miss beside each that must
stay a pass (ok or conditional). Each expected grade is argued by hand in its comment; every
identity below is a pass (ok / conditional) with its rule switched off
(test_each_identity_needs_its_rule), so each test fails if its rule is removed."""
import pytest

from boundcalc.services.check import encoding, run_checks

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

[symbols.u_twin]
description = "u twin"
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

[symbols.w]
description = "w, any sign"
domain = "real"

[[hypotheses]]
result = "Thm. 1"
expr = "z > log(2*d)"
quote = "whenever z > log(2d)"
source = "Thm. 1 (proof)"

[[hypotheses]]
result = "Thm. 1"
expr = "w >= 0"
quote = "w is nonnegative"
source = "Thm. 1 (statement)"
'''


def _check(cid, body):
    return f'\n[[checks]]\nid = "{cid}"\nlocation = "l"\ndescription = "d"\n' + body


def _assume(*exprs):
    return "assume = [" + ", ".join(f'{{ expr = "{e}", reason = "ours" }}' for e in exprs) + "]\n"


CHECKS = "".join([
    # rule 1: e^z/(2d) > 1 is z > log(2d) exponentiated (d, z > 0): each implies the other, the
    # assumption (ours) is the claim solved for z — the shape of tarzanagh2023 lemma8_case1_threshold
    _check("alone", 'kind = "compare"\nlhs = "exp(z)/(2*d)"\nrel = ">"\nrhs = "1"\n' + _assume("z > log(2*d)")),
    # near-miss: x <= y/2 implies x^2 <= y^2 but not back (x = y = 1): a step of algebra is left
    # (tarzanagh2023 thm5_76_loss_lower, lemma12_quadrant_77): conditional on it, not an identity
    _check("implies_only", 'kind = "compare"\nlhs = "x**2"\nrel = "<="\nrhs = "y**2"\n' + _assume("x <= y/2")),
    # near-miss: the same claim as "alone" under the paper's quoted hypothesis z > log(2d) of
    # Thm. 1: the paper's own threshold (a misprinted 2 would fail), so a pass (tarzanagh2023
    # thm6_case2_r)
    _check("paper_threshold", 'kind = "compare"\ncovers = ["Thm. 1"]\nlhs = "exp(z)/(2*d)"\nrel = ">"\nrhs = "1"\n'),
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
    # rule 4: with c_twin = -c and u_twin = u put in, c e^u + c_twin e^u_twin = 0 is c e^u - c e^u = 0
    # (arda2026 def3_symmetric_init; neither equality alone implies the claim, so rule 1 does not apply)
    _check("substituted", 'kind = "compare"\nlhs = "c*exp(u) + c_twin*exp(u_twin)"\nrel = "=="\nrhs = "0"\n'
           + _assume("c_twin == -c", "u_twin == u")),
    # near-miss: F (a printed formula) at d = 1 against x^2 + y names a formula of the paper: conditional
    _check("substituted_formula", 'kind = "compare"\nlhs = "F"\nrel = "=="\nrhs = "x**2 + y"\nuses = ["F"]\n'
           + _assume("d == 1")),
    # rule 5: max(x, y) >= x whatever x and y (ok before: no premise to drop)
    _check("max_pick", 'kind = "compare"\nlhs = "max(x, y)"\nrel = ">="\nrhs = "x"\n'),
    # near-miss: max(x, y) >= (x + y)/2: no argument of the max is the other side
    _check("max_mean", 'kind = "compare"\nlhs = "max(x, y)"\nrel = ">="\nrhs = "(x + y)/2"\n'),
    # near-miss: max(2, x) w >= 2 w picks 2 for the max but needs w >= 0, the paper's quoted
    # hypothesis (w real): false at w = -1, x = 3 without it — a pass (tarzanagh2023 combined_covers_58)
    _check("max_signed", 'kind = "compare"\ncovers = ["Thm. 1"]\nlhs = "max(2, x)*w"\nrel = ">="\nrhs = "2*w"\n'),
])


@pytest.fixture(scope="module")
def got(tmp_path_factory):
    p = tmp_path_factory.mktemp("encoding") / "enc.toml"
    p.write_text('[paper]\nkey = "enc"\ntitle = "t"\n' + SYMS + CHECKS, encoding="utf-8")
    return {r.check: r for r in run_checks("enc", formulas_path=[str(p)]).results}


@pytest.mark.parametrize("cid, words", [
    ("alone", "the claim restates its own assumption z > log(2*d)"), ("product", "the product of its own assumptions"),
    ("sum", "the sum of its own assumptions"), ("affine", "affine formula"),
    ("substituted", "own equalities"), ("max_pick", "max(a, b) >= a")])
def test_a_pass_that_cannot_fail_is_graded_identity(got, cid, words):
    r = got[cid]
    assert (r.severity, r.reason) == ("identity", "tautology"), r.message
    assert words in r.message


@pytest.mark.parametrize("cid, grade", [
    ("chain", "conditional"), ("implies_only", "conditional"), ("paper_threshold", "ok"),
    ("product_const", "conditional"), ("not_affine", "ok"), ("substituted_formula", "conditional"),
    ("max_mean", "ok"), ("max_signed", "ok")])
def test_a_near_miss_stays_a_pass(got, cid, grade):
    assert got[cid].severity == grade, got[cid].message


@pytest.mark.parametrize("cid, rule, grade", [
    ("alone", "_restated", "conditional"), ("product", "_combination", "conditional"),
    ("sum", "_combination", "conditional"), ("affine", "_affine", "ok"),
    ("substituted", "_substituted", "conditional"), ("max_pick", "_max_pick", "ok")])
def test_each_identity_needs_its_rule(tmp_path, monkeypatch, cid, rule, grade):
    """With its rule switched off, each identity above is a pass again (no other rule of the
    screen or of premises.py grades it): the identity tests fail if the rule is removed."""
    p = tmp_path / "enc.toml"
    p.write_text('[paper]\nkey = "enc"\ntitle = "t"\n' + SYMS + CHECKS, encoding="utf-8")
    monkeypatch.setattr(encoding, rule, lambda *a, **k: None)
    (r,) = run_checks("enc", formulas_path=[str(p)], only=[cid]).results
    assert r.severity == grade, r.message


def test_strength_x_minus_x_cannot_fail(tmp_path):
    """check --strength on x - x = 0 (issue 35). Written inline ("x - x == 0") it is an identity
    of the encoding and is not mutated. Written through a printed formula, G <= x with G := x, no
    screen sees it (the sides are a formula and an inline x); then its flip (x >= x) and its
    scalings (2x <= 2x: a mutation reaches every side written the same) survive, G has no
    constant, power or sum for a mutant of the paper's side, and the pass is graded "cannot
    fail" — not counted as a pass. (tests/services/test_check.py::x_le_x2 is the case where the
    flip and the scalings do die, and still do not count.)"""
    p = tmp_path / "xx.toml"
    p.write_text('[paper]\nkey = "xx"\ntitle = "t"\n' + SYMS + '''
[formulas.G]
name = "G"
kind = "definition"
source = "Eq. (4)"
expr = "x"
''' + _check("via_formula", 'kind = "compare"\nlhs = "G"\nrel = "<="\nrhs = "x"\nuses = ["G"]\n')
        + _check("inline", 'kind = "compare"\nlhs = "x - x"\nrel = "=="\nrhs = "0"\n'), encoding="utf-8")
    got = {r.check: r for r in run_checks("xx", formulas_path=[str(p)], strength=True).results}
    st = got["via_formula"].strength
    assert got["via_formula"].severity == "cannot fail", (got["via_formula"].message, st)
    assert st["paper_killed"] == 0 and st["paper_caught"] == []
    assert {"flip <= -> >=", "lhs: scale by 2", "rhs: scale by 1/2"} <= set(st["survivors"]), st
    assert (got["inline"].severity, got["inline"].strength) == ("identity", None), got["inline"].message
