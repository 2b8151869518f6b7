"""The substitution x = pi*t for domains ending at rational multiples of pi (prover/pisub.py,
the "pi scaling" row of prover/pipeline.py). Truth is checked independently at 50 digits
with mpmath; the verdicts come from the prover."""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.prover import pipeline
from boundcalc.prover.decide import decide_relation
from boundcalc.prover.pisub import pi_multiple, scaled
from boundcalc.recheck import recheck

OUTSIDE = Fraction(1570797, 10**6)          # a rational just above pi/2 (pi/2 = 1.5707963...)


def _p(s):
    return parse(s, allow_relation=False)


@pytest.mark.parametrize("text, q", [("pi", 1), ("pi/2", Fraction(1, 2)), ("3*pi/4", Fraction(3, 4)),
                                     ("-pi/2", Fraction(-1, 2)), ("2*pi", 2), ("pi**2", None), ("pi + 1", None),
                                     ("x*pi", None), ("2", None)])
def test_pi_multiple(text, q):
    assert pi_multiple(_p(text)) == (None if q is None else Fraction(q))


def test_scaled_maps_the_ends_to_rationals():
    doms = {"x": Domain(lo=Fraction(0), hi=OUTSIDE)}
    a, _b, d, extra, names = scaled(_p("tan(x)"), _p("x"), doms, [parse("x < pi/2")])
    assert names == {"x": "x_over_pi"} and extra == []
    assert d == {"x_over_pi": Domain(lo=Fraction(0), hi=Fraction(1, 2))}
    assert a.symbols() == {"x_over_pi"}
    # a closed pi end and a lower pi end, another assumption carried over with x -> pi*t
    doms = {"x": Domain(lo=Fraction(-2), lo_closed=True, hi=Fraction(2), hi_closed=True), "y": Domain()}
    out = scaled(_p("cos(x)"), _p("y"), doms, [parse("x >= -pi/2"), parse("x <= pi/2"), parse("y <= x")])
    assert out is not None
    _, _, d, extra, _ = out
    assert d["x_over_pi"] == Domain(lo=Fraction(-1, 2), lo_closed=True, hi=Fraction(1, 2), hi_closed=True)
    assert len(extra) == 1 and extra[0].symbols() == {"y", "x_over_pi"}


@pytest.mark.parametrize("doms, assume", [
    ({"x": Domain(lo=Fraction(0), hi=Fraction(3, 2))}, ["x < pi/2"]),         # 3/2 < pi/2: the bound cuts
    ({"x": Domain(lo=Fraction(1), hi=OUTSIDE)}, ["x < pi/2"]),                 # t > 1/pi: irrational end
    ({"x": Domain(lo=Fraction(0), hi=OUTSIDE)}, ["x < pi/2", "x <= 3*pi/4"]),  # two bounds on one side
    ({"x": Domain(integer=True, lo=Fraction(0), hi=Fraction(4))}, ["x < pi"]),  # integer symbol
])
def test_scaled_refuses_what_is_no_bijection(doms, assume):
    assert scaled(_p("sin(x)"), _p("x"), doms, [parse(a) for a in assume]) is None


def _holds_at_50_digits(f, lo, hi, n=400):
    with mpmath.workdps(50):
        return all(f(lo + (hi - lo) * mpmath.mpf(k) / n) > 0 for k in range(1, n))


def _decide(lhs, rel, rhs, assume, certify=True):
    doms = {"x": Domain(lo=Fraction(0), hi=OUTSIDE)}
    return decide_relation(_p(lhs), rel, _p(rhs), doms, [parse(a) for a in assume], seconds=15.0,
                           certify=certify)


def test_lambert_convergent_proved_through_the_substitution():
    # tan x > x (15 - x^2)/(15 - 6 x^2) on (0, pi/2): a convergent of Lambert's continued fraction
    assert _holds_at_50_digits(lambda x: mpmath.tan(x) - x * (15 - x**2) / (15 - 6 * x**2),
                               mpmath.mpf(0), mpmath.pi / 2)
    d = _decide("tan(x)", ">", "x*(15 - x**2)/(15 - 6*x**2)", ["x < pi/2"])
    assert str(d.verdict) == "proved", d.text
    assert "x = pi*x_over_pi" in d.text                  # fails without the pi-scaling row
    assert d.certificate["kind"] == "rewrite" and recheck(d.certificate).valid


def test_the_twin_stays_disproved_and_a_false_bound_is_not_proved():
    # the near miss fails near 0 (checked here at 50 digits), and the layer takes no disproof
    with mpmath.workdps(50):
        x = mpmath.mpf("0.01")
        assert mpmath.tan(x) < mpmath.mpf("1.001") * x * (15 - x**2) / (15 - 6 * x**2)
    d = _decide("tan(x)", ">", "1.001*x*(15 - x**2)/(15 - 6*x**2)", ["x < pi/2"])
    assert str(d.verdict) == "disproved"
    # false only beyond the rational bound's cut would be a wrong proof if the bound were
    # dropped: sin(x) < 0.9 fails at x = 1.2 < 3/2 < pi/2 -- never proved
    doms = {"x": Domain(lo=Fraction(0), hi=Fraction(3, 2))}
    d = decide_relation(_p("sin(x)"), "<", _p("9/10"), doms, [parse("x < pi/2")], seconds=5.0)
    assert str(d.verdict) != "proved"


def test_the_row_is_in_the_strategy():
    assert any(isinstance(r.layer, pipeline.PiScaling) for r in pipeline.STRATEGY)
