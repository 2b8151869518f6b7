"""Monotonicity in one variable (prover/monotone.py, the "monotonicity" row): which faces it
reads, and that a derivative of the wrong sign proves nothing. Its proofs inside the
error-analysis bounds are tested with the case split (tests/prover/test_cases.py); truth at
50 digits by mpmath there."""
from __future__ import annotations

import mpmath
from prover.test_cases import EPS, _box, _decide, _holds, _p

from boundcalc.expr.parser import parse
from boundcalc.prover.monotone import applies, touching_face


def test_touching_face():
    doms = _box(x=(0, 10), d=(0, EPS))
    assert touching_face(_p("x*d"), ">=", _p("sin(x*(1 + d)) - sin(x)"), doms, []) == ("d", "lo")
    assert touching_face(_p("x*d + 1"), ">=", _p("sin(x*(1 + d)) - sin(x)"), doms, []) is None
    # d in an assumption: its faces are not this layer's
    assert touching_face(_p("x*d"), ">=", _p("sin(x*(1 + d)) - sin(x)"), doms, [parse("d <= x")]) != ("d", "lo")


def test_monotonicity_in_the_wrong_direction_proves_nothing():
    # exp(x*y) >= 1 + 1.5*x*y fails for small x*y (d/dx = y (e^{xy} - 1.5) < 0 there): never proved
    with mpmath.workdps(50):
        assert not _holds("exp(x*y)", ">=", "1 + 1.5*x*y", {"x": (0, 1), "y": (0, 1)})
    d = _decide("exp(x*y)", ">=", "1 + 1.5*x*y", _box(x=(0, 1), y=(0, 1)), seconds=6.0)
    assert str(d.verdict) == "disproved", d.text




def test_applies_needs_two_symbols_and_a_smooth_one():
    doms = _box(x=(0, 1), y=(0, 1))
    assert applies(_p("exp(x*y)"), ">=", _p("1 + x*y"), doms, [])
    assert not applies(_p("exp(x)"), ">=", _p("1 + x"), _box(x=(0, 1)), [])          # one symbol: the ends layer's
    assert not applies(_p("abs(x - y)"), ">=", _p("0"), doms, [])                   # x, y only inside abs
    assert applies(_p("abs(sin(x))*y"), ">=", _p("0"), doms, [])                    # abs(sin x) is constant in y


def test_the_face_proof_of_a_product_bound():
    # exp(x*y) >= 1 + x*y on [0, 1]^2: d/dx = y (e^{xy} - 1) >= 0, the face x = 0 is 1 >= 1
    assert _holds("exp(x*y)", ">=", "1 + x*y", {"x": (0, 1), "y": (0, 1)})
    from boundcalc.prover import pipeline
    from boundcalc.prover.monotone import prove_monotone

    def decide_real(g, op, doms, ex, seconds):
        from fractions import Fraction

        from boundcalc.expr.nodes import Num
        from boundcalc.prover.decide import decide_relation
        return decide_relation(g, op, Num(Fraction(0)), dict(doms), list(ex), seconds=seconds).verdict

    def decide_rel(a, rel, b, doms, ex, seconds):
        from boundcalc.prover.decide import decide_relation
        return decide_relation(a, rel, b, dict(doms), list(ex), seconds=seconds)

    m = prove_monotone(_p("exp(x*y)"), ">=", _p("1 + x*y"), _box(x=(0, 1), y=(0, 1)), [], decide_real, decide_rel,
                       seconds=6.0)
    assert m is not None and m.point is None and m.at == 0, m
    assert pipeline.Monotonicity().name == "monotonicity"
