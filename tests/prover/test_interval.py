"""prover/interval.py: branch and bound in ball arithmetic.

Regression (found 2026-11-27): the derivative pruning moved a piece to its face at an
*open* end of a domain (x = 0 for x in (0, 1)); that face is outside the domain, the SMT
call that closes pieces at open ends then ran on an empty domain and held vacuously, and
the layer answered 'proved' for false statements (``decide_relation`` too, when no layer
before it decided). Every expected value here is computed by hand or with mpmath."""
from fractions import Fraction

import mpmath
import pytest

from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.prover.decide import decide_relation
from boundcalc.prover.interval import prove_interval
from boundcalc.verdicts import IntervalStatus, Verdict

OPEN = Domain(lo=Fraction(0), hi=Fraction(1))                                   # x in (0, 1)
CLOSED = Domain(lo=Fraction(0), lo_closed=True, hi=Fraction(1), hi_closed=True)  # y in [0, 1]

# false statements: at y = atanh(7/10)/3 the square vanishes and the left side is about x
FALSE = [("x + (tanh(3*y) - 7/10)**2", Fraction(1, 1000)), ("exp(x) + (tanh(3*y) - 7/10)**2", Fraction(1001, 1000))]


def _lhs(expr: str, x, y):
    return {"x + (tanh(3*y) - 7/10)**2": lambda: x + (mpmath.tanh(3 * y) - mpmath.mpf(7) / 10) ** 2,
            "exp(x) + (tanh(3*y) - 7/10)**2": lambda: mpmath.exp(x) + (mpmath.tanh(3 * y) - mpmath.mpf(7) / 10) ** 2}[expr]()


@pytest.mark.parametrize("lhs,rhs", FALSE)
def test_false_statements_on_an_open_domain_are_never_proved(lhs, rhs):
    bound = mpmath.mpf(rhs.numerator) / rhs.denominator
    with mpmath.workdps(40):                 # the statement is false (by hand, at 40 digits)
        y0 = mpmath.atanh(mpmath.mpf(7) / 10) / 3
        assert _lhs(lhs, mpmath.mpf("1e-6"), y0) < bound
    text = f"{rhs.numerator}/{rhs.denominator}"
    out = prove_interval(parse(f"{lhs} - {text}"), ">=", {"x": OPEN, "y": CLOSED})
    assert out.status is not IntervalStatus.PROVED
    d = decide_relation(parse(lhs), ">=", parse(text), {"x": OPEN, "y": CLOSED})
    assert d.verdict is Verdict.DISPROVED
    x, y = (Fraction(d.counterexample[k]) for k in ("x", "y"))
    assert 0 < x < 1 and 0 <= y <= 1           # inside the domains
    with mpmath.workdps(40):
        assert _lhs(lhs, mpmath.mpf(x.numerator) / x.denominator, mpmath.mpf(y.numerator) / y.denominator) < bound


@pytest.mark.parametrize("g,op,want", [
    ("x - 2", ">=", IntervalStatus.DISPROVED),     # false at every x of (0, 1)
    ("exp(x) - 3", ">=", IntervalStatus.DISPROVED),  # exp(x) < e < 3 there
    ("exp(x) - 1", ">", IntervalStatus.PROVED),    # exp(x) > 1 for x > 0 (true, infimum at the open end)
    ("x", ">", IntervalStatus.PROVED),             # true on (0, 1)
])
def test_one_variable_on_an_open_interval(g, op, want):
    out = prove_interval(parse(g), op, {"x": OPEN})
    assert out.status is want
    if want is IntervalStatus.DISPROVED:
        assert 0 < out.point["x"] < 1               # the point is inside the domain
