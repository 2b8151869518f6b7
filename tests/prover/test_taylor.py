"""Taylor models in the interval layer (boundcalc.prover.taylor, prover/interval.py).

Independent values: minima computed with mpmath at 50 digits from the calculus of each
function (its critical points written here by hand), never from the layer itself."""
from __future__ import annotations

import time
from fractions import Fraction as Q

import mpmath
import pytest

from boundcalc.backends import arb as A
from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.prover import taylor as TM
from boundcalc.prover.interval import prove_interval
from boundcalc.services.verify import verify


def D(a, b) -> Domain:
    return Domain(lo=Q(a), hi=Q(b), lo_closed=True, hi_closed=True)


def _mp(q: Q):
    return mpmath.mpf(q.numerator) / q.denominator


# ------------------------------------------------------------------ the enclosure itself
@pytest.mark.parametrize("a,b", [(Q(0), Q(1, 2)), (Q(7, 8), Q(9, 8)), (Q(1), Q(3, 2)), (Q(2), Q(4)),
                                 (Q(1, 3), Q(5, 3))])
def test_second_order_form_is_below_the_true_minimum_and_close_to_it(a, b):
    """g = x exp(-x) - 3/10 on [a, b]: its minimum is at an end (the only critical point,
    x = 1, is a maximum), computed at 50 digits. The Taylor-2 bound is below it (sound) and
    within (b - a)^3 of it (the order the form promises, for this g with |g'''| <= 3)."""
    g = parse("x*exp(-x) - 3/10")
    d1, d2 = TM.derivatives(g, ["x"])
    low = TM.lower_taylor2(A, g, d1, d2, {"x": (a, b)})
    with mpmath.workdps(50):
        f = lambda x: x * mpmath.exp(-x) - mpmath.mpf(3) / 10
        true_min = min(f(_mp(a)), f(_mp(b)))
        lo = mpmath.mpf(A.to_mpf(low.lower()))
        assert lo <= true_min
        assert true_min - lo <= (_mp(b) - _mp(a)) ** 3


@pytest.mark.parametrize("a,beta,r", [(Q(1), Q(2), Q(1)), (Q(-3), Q(1), Q(1, 2)), (Q(1, 10), Q(-1), Q(2)),
                                      (Q(0), Q(4), Q(1)), (Q(5), Q(1), Q(1))])
def test_quadratic_minimum_matches_the_exact_one(a, beta, r):
    """min over [-r, r] of a h + beta h^2 / 2, by hand: the vertex -a/beta when beta > 0
    and it lies inside, else the better end."""
    with A.precision(96):
        got = TM._quad_min(A.ball(a), A.ball(beta), A.ball(r))
    ends = [a * h + beta * h * h / 2 for h in (-r, r)]
    exact = min(ends)
    if beta > 0 and abs(a / beta) <= r:
        exact = min(exact, -a * a / (2 * beta))
    assert A.to_fraction(got) <= exact
    assert exact - A.to_fraction(got) < Q(1, 10 ** 20)


# ------------------------------------------------------------------ branch and bound
MARGIN = [
    # (goal g >= 0, domains, why it holds)
    ("exp(-1) + 1/1000000 - x*exp(-x)", {"x": D(0, 10)},
     "max of x e^-x is 1/e at x = 1 (derivative (1 - x) e^-x)"),
    ("exp(-2) + 1/1000000 - x*y*exp(-x-y)", {"x": D(0, 4), "y": D(0, 4)},
     "x e^-x <= 1/e in each variable, so x y e^-(x+y) <= e^-2"),
    ("367880/1000000 - x*exp(-x)", {"x": D(0, 10)}, "1/e = 0.3678794... < 0.367880"),
]


@pytest.mark.parametrize("g,doms,why", MARGIN, ids=[m[0][:40] for m in MARGIN])
def test_margin_1e6_closes_in_a_few_hundred_boxes(g, doms, why):
    t = time.process_time()
    r = prove_interval(parse(g), ">=", dict(doms), (), seconds=8, max_boxes=600)
    assert r.status == "proved", (r, why)
    assert r.boxes <= 600 and time.process_time() - t < 8


TOUCH = [
    ("exp(-1) - x*exp(-x)", {"x": D(0, 5)}, {"x": Q(1)}, "max 1/e at x = 1"),
    ("exp(-2) - x*y*exp(-x-y)", {"x": D(0, 4), "y": D(0, 4)}, {"x": Q(1), "y": Q(1)}, "max e^-2 at (1, 1)"),
    ("1 - x*exp(1 - x)", {"x": D(0, 3)}, {"x": Q(1)}, "max 1 at x = 1"),
    ("x**2 - 2*x + 2 - exp(x - 1)*(2 - exp(x - 1))", {"x": D(0, 2)}, {"x": Q(1)},
     "(x - 1)^2 + (e^(x-1) - 1)^2 >= 0, zero only at x = 1"),
]


@pytest.mark.parametrize("g,doms,x0,why", TOUCH, ids=[m[0][:40] for m in TOUCH])
def test_equality_at_an_interior_point_is_proved_from_the_derivatives(g, doms, x0, why):
    r = prove_interval(parse(g), ">=", dict(doms), (), seconds=8, max_boxes=2000)
    assert r.status == "proved", (r, why)
    assert x0 in r.touching
    assert r.boxes <= 600
    with mpmath.workdps(50):      # the point really is a zero of g (independently)
        env = {k: _mp(v) for k, v in x0.items()}
        val = eval(g.replace("exp", "mpmath.exp"), {"mpmath": mpmath}, env)
        assert abs(val) < mpmath.mpf(10) ** -45


def test_plain_first_order_does_not_close_the_touching_case():
    """Without the Hessian (the layer as it was), the interior touching point is not
    proved: what makes the difference is the second-order argument."""
    g = parse("exp(-2) - x*y*exp(-x-y)")
    orig = TM.derivatives
    try:
        TM.derivatives = lambda g, n, seconds=1.0: (orig(g, n, seconds)[0], {})
        r = prove_interval(g, ">=", {"x": D(0, 4), "y": D(0, 4)}, (), seconds=3, max_boxes=2000)
    finally:
        TM.derivatives = orig
    assert r.status != "proved"


def test_an_irrational_touching_point_is_not_taken_for_a_rational_one():
    """x/e - log x >= 0 touches 0 at x = e (irrational): Newton's candidate, rounded to a
    rational, fails the exact check, so no touching point is claimed (the verdict may
    stay open, never rests on a wrong point)."""
    r = prove_interval(parse("x*exp(-1) - log(x)"), ">=", {"x": D(1, 4)}, (), seconds=2, max_boxes=400)
    assert r.touching == []
    assert r.status in ("budget", "proved")


NEAR_MISS = [
    ("x*exp(-x)", "<=", "exp(-1) - 1/1000000", [], "1/e is attained at x = 1"),
    ("x*exp(-x)", "<=", "367879/1000000", [], "1/e = 0.36787944... > 0.367879"),
    ("x*y*exp(-x-y)", "<=", "exp(-2) - 1/1000000", ["x <= 4", "y <= 4"], "e^-2 at (1, 1)"),
]


@pytest.mark.parametrize("lhs,rel,rhs,assume,why", NEAR_MISS, ids=[m[2][:40] for m in NEAR_MISS])
def test_near_miss_variants_are_disproved_with_a_checked_point(lhs, rel, rhs, assume, why):
    r = verify(lhs, rel, rhs, list(assume))
    assert r.verdict == "disproved", r.describe()
    with mpmath.workdps(50):
        env = {}
        for k, v in r.counterexample.items():
            if k in ("lhs", "rhs"):
                continue
            num, _, den = v.partition("/")
            env[k] = mpmath.mpf(num) / mpmath.mpf(den or 1)
        ev = lambda s: eval(s.replace("exp", "mpmath.exp").replace("**", "**"), {"mpmath": mpmath},
                            {**env, "mpf": mpmath.mpf})
        a = ev(lhs)
        b = ev(rhs.replace("1/1000000", "mpf(1)/1000000").replace("367879/1000000", "mpf(367879)/1000000"))
        assert a > b, (env, why)
