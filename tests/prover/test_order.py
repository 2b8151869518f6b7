"""The diagonal reduction of an order assumption (prover/order.py, the "order" row): which
assumptions it reads, when the segment argument is refused, that its proofs hold and its
near misses are not proved. Truth at 50 digits by mpmath on a grid where the assumption
holds (the test's own evaluation, no boundcalc code)."""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from prover.test_cases import _box, _decide, _mp, _p

from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.prover.order import _inside, applies, order_assumptions, prove_order, segment_keeps
from boundcalc.recheck import recheck


def _margin_min(lhs, rel, rhs, box, order, n=24):
    """The least margin (>= 0 where the relation holds) over a grid of the box where
    ``order`` (a (lo, hi) pair of names: lo <= hi) holds, at 50 digits."""
    out = mpmath.inf
    with mpmath.workdps(50):
        (u, (ua, ub)), (v, (va, vb)) = ((n, tuple(mpmath.mpf(e.numerator) / e.denominator if isinstance(e, Fraction)
                                                  else mpmath.mpf(e) for e in ends)) for n, ends in box.items())
        for i in range(n + 1):
            for j in range(n + 1):
                env = {u: ua + (ub - ua) * i / n, v: va + (vb - va) * j / n}
                if env[order[0]] > env[order[1]] or 0 in env.values():
                    continue
                a, b = _mp(lhs, env), _mp(rhs, env)
                out = min(out, (a - b) if rel.startswith(">") else (b - a))
    return out


TRUE = [   # (lhs, rel, rhs, box, assumption, (lo, hi))
    ("atan(x) - atan(y)", "<=", "(x - y)/(1 + y**2)", {"x": (0, 10), "y": (0, 10)}, "x >= y", ("y", "x")),
    ("log(x) - log(y)", ">=", "2*(x - y)/(x + y)", {"x": (Fraction(1, 10), 10), "y": (Fraction(1, 10), 10)},
     "x >= y", ("y", "x")),
    ("tanh(y) - tanh(x)", "<=", "(y - x)*(1 - tanh(x)**2)", {"x": (0, 5), "y": (0, 5)}, "x <= y", ("x", "y")),
]


@pytest.mark.parametrize("lhs, rel, rhs, box, assume, order", TRUE, ids=[t[0] for t in TRUE])
def test_a_theorem_under_an_order_assumption_is_proved_on_the_diagonal(lhs, rel, rhs, box, assume, order):
    assert _margin_min(lhs, rel, rhs, box, order) >= -mpmath.mpf(10) ** -40
    d = _decide(lhs, rel, rhs, _box(**box), (assume,), seconds=15.0)
    assert str(d.verdict) == "proved", d.text
    assert "order" in d.text, d.text
    assert d.certificate is not None and recheck(d.certificate).valid


NEAR_MISSES = [   # false: the constant moved by 1e-3 (the derivative's sign then fails near the diagonal),
    # or the diagonal itself moved (the derivative holds, the diagonal goal fails); each with a point
    # where it fails (in the box, under the assumption)
    ("atan(x) - atan(y)", "<=", "0.999*(x - y)/(1 + y**2)", {"x": (0, 10), "y": (0, 10)}, "x >= y",
     {"x": "0.01", "y": "0"}),
    ("log(x) - log(y)", ">=", "2.002*(x - y)/(x + y)", {"x": (Fraction(1, 10), 10), "y": (Fraction(1, 10), 10)},
     "x >= y", {"x": "1.01", "y": "1"}),
    ("atan(x) - atan(y)", "<=", "(x - y)/(1 + y**2) - 1/1000", {"x": (0, 10), "y": (0, 10)}, "x >= y",
     {"x": "1", "y": "1"}),
    # the wrong way round: L(x, y) >= G(x, y) stated as L <= G
    ("log(x) - log(y)", ">=", "(x - y)/sqrt(x*y)", {"x": (Fraction(1, 10), 10), "y": (Fraction(1, 10), 10)},
     "x >= y", {"x": "4", "y": "1"}),
]


@pytest.mark.parametrize("lhs, rel, rhs, box, assume, at", NEAR_MISSES, ids=[t[2] for t in NEAR_MISSES])
def test_a_near_miss_is_not_proved(lhs, rel, rhs, box, assume, at):
    with mpmath.workdps(50):
        env = {k: mpmath.mpf(v) for k, v in at.items()}
        assert env["x"] >= env["y"]
        a, b = _mp(lhs, env), _mp(rhs, env)
        assert ((a - b) if rel == ">=" else (b - a)) < -mpmath.mpf(10) ** -8
    d = _decide(lhs, rel, rhs, _box(**box), (assume,), seconds=8.0)
    assert str(d.verdict) == "disproved", d.text


def _deciders():
    from boundcalc.expr.nodes import Num
    from boundcalc.prover.decide import decide_relation

    def decide_real(g, op, doms, ex, seconds):
        return decide_relation(g, op, Num(Fraction(0)), dict(doms), list(ex), seconds=seconds).verdict

    def decide_rel(a, rel, b, doms, ex, seconds):
        return decide_relation(a, rel, b, dict(doms), list(ex), seconds=seconds, certify=True)
    return decide_real, decide_rel


def test_the_diagonal_counterexample_is_returned_as_a_candidate():
    # the derivative's sign holds, the diagonal goal 0 <= -1/1000 fails: a point with x = y
    real, rel = _deciders()
    o = prove_order(_p("atan(x) - atan(y)"), "<=", _p("(x - y)/(1 + y**2) - 1/1000"), _box(x=(0, 10), y=(0, 10)),
                    [parse("x >= y")], real, rel, seconds=8.0)
    assert o is not None and o.point is not None and o.point["x"] == o.point["y"], o


def test_which_assumptions_are_order_assumptions():
    doms = {**_box(x=(0, 1), y=(0, 1)), "n": Domain(integer=True, lo=Fraction(1), lo_closed=True)}
    got = order_assumptions([parse(s) for s in ("x >= y", "y < x", "x <= 2*y", "x >= 1/2", "n <= x", "x <= x")],
                            doms)
    assert [(str(r), lo, hi) for r, lo, hi in got] == [("x >= y", "y", "x"), ("y < x", "y", "x")]
    assert applies(_p("x - y"), ">=", _p("0"), doms, [parse("x >= y")])
    assert not applies(_p("x - y"), ">=", _p("0"), doms, [parse("x >= 2*y")])
    assert not applies(_p("x - y"), "==", _p("0"), doms, [parse("x >= y")])
    assert not applies(_p("x"), ">=", _p("0"), doms, [parse("n <= x")])          # an integer symbol


def test_the_segment_must_stay_in_the_moving_symbols_interval():
    d01, d510, d010 = (Domain(lo=Fraction(a), lo_closed=True, hi=Fraction(b), hi_closed=True)
                       for a, b in ((0, 1), (5, 10), (0, 10)))
    assert _inside(d01, d010) and _inside(d510, d010) and not _inside(d010, d510)
    op = Domain(lo=Fraction(0), lo_closed=False, hi=Fraction(10), hi_closed=True)
    assert _inside(op, d010) and not _inside(d010, op)                       # 0 in one, not in the other
    assert not _inside(Domain(), d010) and _inside(d010, Domain())


def test_the_segment_must_keep_every_other_assumption():
    order = parse("y <= x")
    ex = [order, parse("x <= 3"), parse("x >= 1/2")]
    # moving x down to y (case A): x <= 3 is kept, x >= 1/2 is not (y may be below 1/2) ...
    assert not segment_keeps(ex, order, "x", "y", True)
    # ... unless y >= 1/2 is assumed too
    assert segment_keeps(ex + [parse("y >= 1/2")], order, "x", "y", True)
    assert segment_keeps([order, parse("x <= 3")], order, "x", "y", True)
    # moving x up (case B): x <= 3 breaks without y <= 3
    assert not segment_keeps([order, parse("x <= 3")], order, "x", "y", False)
    assert segment_keeps([order, parse("x <= 3"), parse("3 >= y")], order, "x", "y", False)
    # an assumption that is no bound of the moving symbol: refused
    assert not segment_keeps([order, parse("x**2 >= 1/4")], order, "x", "y", True)
    assert not segment_keeps([order, parse("x <= 2*y")], order, "x", "y", True)
    assert segment_keeps([order, parse("y**2 >= 1/4")], order, "x", "y", True)   # no x in it


def test_a_goal_whose_segment_leaves_the_assumptions_is_refused():
    # log(x) - log(y) >= 2(x - y)/(x + y) under y <= x with x**2 >= 1/4 and y**2 <= 100 (true):
    # each symbol is in an assumption that is not a bound of it, which a segment may break
    real, rel = _deciders()
    ex = [parse("x >= y"), parse("x**2 >= 1/4"), parse("y**2 <= 100")]
    doms = _box(x=(Fraction(1, 10), 10), y=(Fraction(1, 10), 10))
    o = prove_order(_p("log(x) - log(y)"), ">=", _p("2*(x - y)/(x + y)"), doms, ex, real, rel, seconds=6.0)
    assert o is None


def test_order_reads_a_flipped_order_assumption():
    doms = _box(x=(0, 5), y=(0, 5))
    got = order_assumptions([parse("-x <= -y"), parse("2*x < 2*y"), parse("-x <= y")], doms)
    assert [(lo, hi) for _, lo, hi in got] == [("y", "x"), ("x", "y")]
