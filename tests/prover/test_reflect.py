"""The reflection x = c - t about a domain's pi/2 or pi end (prover/reflect.py, the
"reflection" row): the reflected sides agree with the original ones at 50 digits (mpmath on
the test's own strings against boundcalc's evaluation of the reflected tree), the point sets
correspond, it refuses the goals it must, and a theorem near tan's pole is proved while its
near miss is not."""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from prover.test_cases import _decide, _mp, _p

from boundcalc.backends import mp as mpb
from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.prover.reflect import collect, reflected

HALF = Domain(lo=Fraction(0), lo_closed=False, hi=Fraction(1570797, 10 ** 6), hi_closed=False)
WHOLE = Domain(lo=Fraction(0), lo_closed=True, hi=Fraction(3141593, 10 ** 6), hi_closed=True)


@pytest.mark.parametrize("text, dom, bound, c", [
    ("tan(x) - 1/(pi/2 - x) + (pi/2 - x)/3", HALF, "x < pi/2", Fraction(1, 2)),
    ("sin(x)*tan(x) - x**2 + cos(x)", HALF, "x < pi/2", Fraction(1, 2)),
    ("sin(x)/x - (pi**2 - x**2)/(pi**2 + x**2) + cos(x) + tan(x)", WHOLE, "x <= pi", Fraction(1)),
    ("sin(2*x) + cos(x/2) - tan(x)", WHOLE, "x <= pi", Fraction(1)),
])
def test_the_reflected_side_agrees_with_the_original_at_50_digits(text, dom, bound, c):
    a2, _b2, doms, _extra, names = reflected(_p(text), _p("0"), {"x": dom}, [parse(bound)])
    (t, _), = names.values()
    assert set(doms) == {t} and doms[t].lo == 0
    with mpmath.workdps(50):
        c = mpmath.pi * mpmath.mpf(c.numerator) / c.denominator       # c = q*pi at 50 digits
        for k in range(1, 40):
            tq = Fraction(k, 40) * (Fraction(157, 100) if c < 2 else Fraction(314, 100)) + Fraction(1, 997)
            x = c - mpmath.mpf(tq.numerator) / tq.denominator   # t rational (exact for boundcalc), x at 50 digits
            if x <= 0 or abs(mpmath.cos(x)) < mpmath.mpf(10) ** -6:
                continue
            want = _mp(text, {"x": x})
            got = mpb.evaluate(a2, {t: tq}, digits=50)
            assert abs(got - want) <= mpmath.mpf(10) ** -40 * (1 + abs(want)), (text, x, got, want)


def test_the_point_sets_correspond():
    # 0 < x < pi/2  <->  0 < t < pi/2;  0 <= x <= pi  <->  0 <= t <= pi
    _, _, doms, extra, names = reflected(_p("tan(x)"), _p("x"), {"x": HALF}, [parse("x < pi/2")])
    (t, _), = names.values()
    assert (doms[t].lo, doms[t].lo_closed) == (0, False) and [str(r) for r in extra] == [f"{t} < (1/2)*pi"]
    _, _, doms, extra, names = reflected(_p("sin(x)"), _p("x"), {"x": WHOLE}, [parse("x <= pi"), parse("x >= 0")])
    (t, _), = names.values()
    assert (doms[t].lo, doms[t].lo_closed) == (0, True) and str(extra[-1]) == f"{t} <= 1*pi"
    assert str(extra[0]) == f"pi - {t} >= 0"                    # another assumption: x -> pi - t


@pytest.mark.parametrize("text, dom, extra", [
    ("tan(x)", Domain(lo=Fraction(1, 10), lo_closed=True, hi=Fraction(2), hi_closed=False), ["x < pi/2"]),   # lo != 0
    ("tan(x)", HALF, ["x < pi/3"]),                                       # not pi/2 nor pi
    ("tan(x)", Domain(lo=Fraction(0), lo_closed=False, hi=Fraction(3, 2), hi_closed=False), ["x < pi/2"]),
    ("tan(x)", HALF, ["x < pi/2", "x <= pi"]),                            # two pi bounds
    ("tan(2*x) + x", HALF, ["x < pi/2"]),                                 # no trig of x itself
    ("tan(x)", HALF, []),                                                 # no pi end
])
def test_it_refuses(text, dom, extra):
    assert reflected(_p(text), _p("x"), {"x": dom}, [parse(e) for e in extra]) is None


def test_collect_combines_like_terms_only():
    assert str(collect(_p("pi/2 - (pi/2 - t)"))) == "t"
    assert str(collect(_p("1/(pi/2 - (pi/2 - t)) + 2*(t - 1) - 2*t"))) in ("1/t + -2", "1/t - 2", "-2 + 1/t")
    e = _p("sin(pi - (pi - t)) + 3*(x + y) - x")
    with mpmath.workdps(50):
        env = {"t": mpmath.mpf("0.3"), "x": mpmath.mpf("1.7"), "y": mpmath.mpf("-0.2")}
        assert abs(mpb.evaluate(collect(e), env, digits=50) - (mpmath.sin(env["t"]) + 2 * env["x"] + 3 * env["y"])) \
            < mpmath.mpf(10) ** -45


def test_the_cot_series_bound_is_proved_and_its_near_miss_is_not():
    doms = {"x": HALF}
    with mpmath.workdps(50):
        for k in range(1, 200):
            x = mpmath.pi / 2 * k / 200
            u = mpmath.pi / 2 - x
            assert mpmath.tan(x) < 1 / u - u / 3
        x = mpmath.pi / 2 - mpmath.mpf("0.05")                      # the twin fails here
        u = mpmath.pi / 2 - x
        assert mpmath.tan(x) > 1 / u - u / mpmath.mpf("2.997")
    d = _decide("tan(x)", "<", "1/(pi/2 - x) - (pi/2 - x)/3", doms, ("x < pi/2",), seconds=15.0)
    assert str(d.verdict) == "proved" and "x = pi/2 - " in d.text, d.text
    from boundcalc.recheck import recheck
    assert d.certificate is not None and recheck(d.certificate).valid
    d = _decide("tan(x)", "<", "1/(pi/2 - x) - (pi/2 - x)/2.997", doms, ("x < pi/2",), seconds=8.0)
    assert str(d.verdict) == "disproved", d.text
