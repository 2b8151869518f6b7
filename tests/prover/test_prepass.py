"""The pre-pass (prover/prepass.py): the root substitution keeps the problem's truth value,
checked by evaluating both forms at the same points (x = X**k) with exact rationals, and by
asking z3 about a false near-miss after the substitution."""
from fractions import Fraction

from boundcalc.expr.domains import Domain
from boundcalc.expr.exact import evaluate_exact
from boundcalc.expr.nodes import Rel
from boundcalc.expr.parser import parse as _parse
from boundcalc.prover.decide import fold_constants
from boundcalc.prover.prepass import profile, root_substitution
from boundcalc.prover.smt import decide_smt

P = Domain(lo=Fraction(0))


def parse(text):
    """As the orchestrator hands goals on: constants folded (2/3 is one number)."""
    return fold_constants(_parse(text))


def test_root_substitution_is_the_same_function():
    g = parse("x**(2/3) + y**(1/2)*x - 3*y**(3/2) + z")
    out = root_substitution(g, [], {"x": P, "y": P, "z": P})
    assert out is not None
    g2, _, doms, labels = out
    assert sorted(labels) == ["x = x_root**3", "y = y_root**2"]
    assert "z" in doms and doms["x_root"] == Domain(lo=Fraction(0))
    for X, Y, Z in [(2, 3, 1), (Fraction(1, 2), 5, 7), (4, 1, 0)]:
        X, Y, Z = Fraction(X), Fraction(Y), Fraction(Z)
        # the original at x = X^3, y = Y^2: x^(2/3) = X^2, y^(1/2) = Y, y^(3/2) = Y^3
        want = X**2 + Y * X**3 - 3 * Y**3 + Z
        assert evaluate_exact(g2, {"x_root": X, "y_root": Y, "z": Z}) == want


def test_no_substitution_where_it_would_change_the_problem():
    g = parse("x**(1/2) + n**(1/2)")
    ints = {"x": Domain(lo=Fraction(2), lo_closed=True), "n": Domain(integer=True, lo=Fraction(1), lo_closed=True)}
    assert root_substitution(g, [], ints) is None            # sqrt(2) irrational; n an integer
    assert root_substitution(parse("u**(1/3)"), [], {"u": Domain()}) is None      # u < 0 allowed
    assert root_substitution(parse("x**a"), [], {"x": P, "a": P}) is None          # symbolic power
    out = root_substitution(parse("x**(1/2)"), [], {"x": Domain(lo=Fraction(9, 4), lo_closed=True)})
    assert out is not None and out[2]["x_root"].lo == Fraction(3, 2)


def test_substituted_near_miss_is_not_proved():
    # l_(2/3) <= 1.732 l_1 is false at x = y = z (the ratio is sqrt(3) = 1.73205...)
    g = parse("1.732*(x + y + z) - (x**(2/3) + y**(2/3) + z**(2/3))**(3/2)")
    g2, extra2, doms2, _ = root_substitution(g, [], {"x": P, "y": P, "z": P})
    assert decide_smt(g2, ">=", doms2, extra2, timeout_ms=2000).status != "proved"
    g = parse("sqrt(3)*(x + y + z) - (x**(2/3) + y**(2/3) + z**(2/3))**(3/2)")
    g2, extra2, doms2, _ = root_substitution(g, [], {"x": P, "y": P, "z": P})
    assert decide_smt(g2, ">=", doms2, extra2, timeout_ms=2000).status == "proved"


def test_profile():
    n_dom = {"n": Domain(integer=True, lo=Fraction(1), lo_closed=True), "x": P}
    p = profile(parse("atan(x) - n"), "==", n_dom, [Rel(">=", parse("x"), parse("1"))])
    assert p.equality and p.special and p.integer_symbols == ("n",) and "atan" in p.functions
    assert not profile(parse("sqrt(x) - 1"), ">=", n_dom).special
