"""The one definedness rule (expr/singularities.py) and the continuity analysis
(services/continuity.py), checked against facts computed independently (mpmath, by hand)."""
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from boundcalc.backends import arb as A
from boundcalc.backends import mp as mpb
from boundcalc.backends.np import compile_numpy
from boundcalc.errors import BoundcalcError
from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.expr.singularities import breaks, definedness
from boundcalc.prover.decide import UndefinedError, check_defined_somewhere, decide_relation
from boundcalc.services.continuity import continuity, continuity_radius

REAL, POS = Domain(), Domain(lo=Fraction(0))


@pytest.mark.parametrize("text,env", [("log(2, 1)", {}), ("log(x, 1)", {"x": Fraction(3)}),
                                      ("0**0", {}), ("x**0", {"x": Fraction(0)}),
                                      ("log(x, -2)", {"x": Fraction(3)}), ("(-8)**(1/3)", {}),
                                      ("0**(-1/2)", {}), ("1/(x - 2)", {"x": Fraction(2)})])
def test_every_back_end_refuses_what_the_rule_refuses(text, env):
    node = parse(text, allow_relation=False)
    with pytest.raises(A.Undefined):
        A.enclose(node, env, prec=64)
    with pytest.raises(BoundcalcError, match="undefined|division by zero"):
        mpb.evaluate(node, env)
    with np.errstate(all="ignore"):
        v = compile_numpy(node)(**{k: np.float64(float(x)) for k, x in env.items()})
    assert not np.isfinite(v)                 # NumPy: nan/inf, never a number
    # the rule lists a condition that fails at env (checked here by hand with mpmath)
    failing = []
    for c in definedness(node):
        val = mpb.evaluate(c.expr, env)
        ok = {">": val > 0, ">=": val >= 0, "!=": val != 0}[c.op]
        if not ok:
            failing.append(c.kind)
    assert failing, text


def test_defined_values_are_not_refused():
    for text, want in (("log(8, 2)", 3), ("x**0", 1), ("(1/4)**(1/2)", mpmath.mpf(1) / 2)):
        assert abs(mpb.evaluate(parse(text), {"x": Fraction(5)}) - want) < 1e-14


def test_a_side_undefined_everywhere_is_refused_by_the_decision_procedure():
    with pytest.raises(UndefinedError, match="base"):
        check_defined_somewhere(parse("log(x, 1) + x"), "LHS")
    with pytest.raises(UndefinedError, match="base"):
        decide_relation(parse("log(x, 1)"), "==", parse("log(x, 1) + 1"), {"x": POS})
    check_defined_somewhere(parse("log(x, 2)"), "LHS")        # defined for x > 0


def test_breaks_name_every_pole_jump_and_end():
    kinds = sorted(c.kind for c in breaks(parse("tan(x) + 1/(x - 1) + floor(x) + sqrt(x) + log(x, 3) + y"), "x"))
    assert kinds == ["division", "jump", "log", "sqrt", "tan"]
    assert breaks(parse("exp(x) + x**2 + abs(x)"), "x") == []


@pytest.mark.parametrize("text,dom,ok", [
    ("tan(x)", Domain(lo=Fraction(1), lo_closed=True, hi=Fraction(2), hi_closed=True), False),   # pi/2 inside
    ("tan(x)", Domain(lo=Fraction(1, 10), lo_closed=True, hi=Fraction(3, 2), hi_closed=True), True),
    ("1/x", REAL, False), ("1/x", POS, True), ("1/(x + 1)", POS, True),
    ("log(x - 1)", POS, True),          # defined on the one interval x > 1, continuous there
    ("log(x**2 - 1)", REAL, False),     # defined on x < -1 and x > 1: a gap
    ("1/(x - 1)", POS, False),
    ("floor(x)", POS, False), ("floor(x)", Domain(lo=Fraction(1, 4), lo_closed=True, hi=Fraction(3, 4),
                                                   hi_closed=True), True),
])
def test_continuity_on_a_region(text, dom, ok):
    c = continuity(parse(text), "x", {"x": dom})
    assert c.ok is ok, c.text()
    # independent: tan's pole pi/2 = 1.5707... lies in [1, 2] and not in [0.1, 1.5]
    assert 1 < mpmath.pi / 2 < 2 and not 0.1 <= mpmath.pi / 2 <= 1.5


def test_continuity_radius_is_the_distance_to_the_pole_within_a_factor_16():
    with mpmath.workdps(50):
        x0 = Fraction(mpmath.nstr(mpmath.pi / 2 - mpmath.mpf("1e-20"), 40))
        r = continuity_radius(parse("tan(x)"), "x", {"x": x0})
        dist = mpmath.pi / 2 - mpmath.mpf(x0.numerator) / x0.denominator    # ~1e-20 (mpmath)
        assert mpmath.mpf("0.9e-20") < dist < mpmath.mpf("1.1e-20")
        assert r is not None and dist / 16 <= mpmath.mpf(r.numerator) / r.denominator < dist
    assert continuity_radius(parse("1/(x - 2)"), "x", {"x": Fraction(2)}) is None
    assert continuity_radius(parse("exp(x)"), "x", {"x": Fraction(2)}) == Fraction(1, 1000)
