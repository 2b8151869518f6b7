"""The convexity layer on its own (prover/convexity.py) and through the decision procedure.

The relation suite meets this layer behind the counterexample search, which disproves false
cases first; here the layer itself gets the near misses (a domain where f changes from
concave to convex, weights not summing to 1, different functions, a singularity inside the
hull, a strict relation), so a layer that said "proved" to one would fail. Each near miss
that is false carries a counterexample computed here with mpmath at 50 digits.
"""
from fractions import Fraction

import mpmath
import pytest

from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.prover.convexity import jensen_instance, prove_convexity
from boundcalc.prover.decide import _real_decider, decide_relation, fold_constants

R, P = Domain(), Domain(lo=Fraction(0), lo_closed=False)
BOX = Domain(lo=Fraction(-2), lo_closed=True, hi=Fraction(2), hi_closed=True)
ONE_TWO = Domain(lo=Fraction(1), lo_closed=True, hi=Fraction(2), hi_closed=True)
HALF_NEG = Domain(lo=Fraction(-1, 2), lo_closed=True, hi=Fraction(1), hi_closed=True)


def _layer(lhs, rel, rhs, doms):
    # the orchestrator hands the layer folded trees ((x + y)/2 as (x + y)*1/2)
    return prove_convexity(_p(lhs), rel, _p(rhs), dict(doms), _real_decider(500, 0), seconds=3.0)


def _p(text):
    return fold_constants(parse(text))


def _decide(lhs, rel, rhs, doms, assume=()):
    return decide_relation(parse(lhs), rel, parse(rhs), dict(doms), [parse(a) for a in assume], seconds=8.0)


# tanh'' = -2 tanh sech^2 <= 0 for t >= 0; softplus'' = s(1 - s) >= 0 (s the logistic);
# exp'' = exp > 0 (AM-GM in logarithmic form)
PROVED = [
    ("tanh((x + y)/2)", ">=", "(tanh(x) + tanh(y))/2", {"x": P, "y": P}, "concave"),
    ("tanh((x + y + z)/3)", ">=", "(tanh(x) + tanh(y) + tanh(z))/3", {"x": P, "y": P, "z": P}, "concave"),
    ("log(1 + exp((u + v)/2))", "<=", "(log(1 + exp(u)) + log(1 + exp(v)))/2", {"u": R, "v": R}, "convex"),
    ("log(1 + exp((u + v + w)/3))", "<=", "(log(1 + exp(u)) + log(1 + exp(v)) + log(1 + exp(w)))/3",
     {"u": R, "v": R, "w": R}, "convex"),
    ("exp((u + v + w)/3)", "<=", "(exp(u) + exp(v) + exp(w))/3", {"u": R, "v": R, "w": R}, "convex"),
    # the sides swapped, unequal weights 1/3 and 2/3 written term by term
    ("(tanh(x) + tanh(y))/2", "<=", "tanh((x + y)/2)", {"x": P, "y": P}, "concave"),
    ("tanh(x/3 + 2*y/3)", ">=", "tanh(x)/3 + 2*tanh(y)/3", {"x": P, "y": P}, "concave"),
    # the hull of [1, 2] and (0, oo) is (0, oo), where tanh is concave
    ("tanh((x + y)/2)", ">=", "(tanh(x) + tanh(y))/2", {"x": ONE_TWO, "y": P}, "concave"),
    # f(t) = -1/t^2 has f'' = -6/t^4 < 0 away from 0: concave on (0, oo)
    ("-1/((x + y)/2)**2", ">=", "(-1/x**2 - 1/y**2)/2", {"x": P, "y": P}, "concave"),
]


@pytest.mark.parametrize("lhs,rel,rhs,doms,shape", PROVED)
def test_convexity_layer_proves_jensen_instances(lhs, rel, rhs, doms, shape):
    how = _layer(lhs, rel, rhs, doms)
    assert how is not None and how.startswith("convexity:") and f" {shape} on " in how, how


@pytest.mark.parametrize("lhs,rel,rhs,doms,shape", PROVED[:5])
def test_the_decision_names_the_convexity_layer(lhs, rel, rhs, doms, shape):
    d = _decide(lhs, rel, rhs, doms)
    assert str(d.verdict) == "proved" and str(d.layer) == "convexity", d.text
    assert "Jensen" in d.text


def test_assumptions_coupling_the_variables_keep_the_proof():
    # Jensen holds at every point of the hull, so x <= y only removes points
    d = _decide("tanh((x + y)/2)", ">=", "(tanh(x) + tanh(y))/2", {"x": P, "y": P}, ["x <= y", "x*y >= 1"])
    assert str(d.verdict) == "proved", d.text


def _t(v):
    return mpmath.tanh(v)


# false near misses, each with a point where it fails (checked at 50 digits below)
NEAR_MISSES = [
    # tanh is convex on [-2, 0]: x = -2, y = -1
    ("tanh((x + y)/2)", ">=", "(tanh(x) + tanh(y))/2", {"x": BOX, "y": BOX},
     {"x": -2, "y": -1}, lambda x, y: _t((x + y) / 2) - (_t(x) + _t(y)) / 2),
    # one domain reaches into t < 0, where tanh is convex: x = -1/2, y = 1/1000
    ("tanh((x + y)/2)", ">=", "(tanh(x) + tanh(y))/2", {"x": HALF_NEG, "y": P},
     {"x": Fraction(-1, 2), "y": Fraction(1, 1000)}, lambda x, y: _t((x + y) / 2) - (_t(x) + _t(y)) / 2),
    # weights 0.6 + 0.6 = 1.2: x = y = 1
    ("tanh((x + y)/2)", ">=", "0.6*(tanh(x) + tanh(y))", {"x": P, "y": P},
     {"x": 1, "y": 1}, lambda x, y: _t((x + y) / 2) - mpmath.mpf("0.6") * (_t(x) + _t(y))),
    # a different function on the mean side: tanh 1 < atan 1 = pi/4
    ("tanh((x + y)/2)", ">=", "(atan(x) + atan(y))/2", {"x": P, "y": P},
     {"x": 1, "y": 1}, lambda x, y: _t((x + y) / 2) - (mpmath.atan(x) + mpmath.atan(y)) / 2),
    ("tanh((x + y)/2)", ">=", "(tanh(x) + atan(y))/2", {"x": P, "y": P},
     {"x": 1, "y": 1}, lambda x, y: _t((x + y) / 2) - (_t(x) + mpmath.atan(y)) / 2),
    # the argument is not the mean of the inner arguments: x = 0, y = 1
    ("tanh((x + y)/2)", ">=", "(tanh(x) + tanh(2*y))/2", {"x": P, "y": P},
     {"x": 0, "y": 1}, lambda x, y: _t((x + y) / 2) - (_t(x) + _t(2 * y)) / 2),
    # softplus is convex: the concave direction fails at u = 0, v = 2
    ("log(1 + exp((u + v)/2))", ">=", "(log(1 + exp(u)) + log(1 + exp(v)))/2", {"u": R, "v": R},
     {"u": 0, "v": 2}, lambda u, v: mpmath.log(1 + mpmath.exp((u + v) / 2))
     - (mpmath.log(1 + mpmath.exp(u)) + mpmath.log(1 + mpmath.exp(v))) / 2),
    # strict: equality at x = y
    ("tanh((x + y)/2)", ">", "(tanh(x) + tanh(y))/2", {"x": P, "y": P},
     {"x": 1, "y": 1}, lambda x, y: _t((x + y) / 2) - (_t(x) + _t(y)) / 2),
    # -1/t^2 has f'' = -6/t^4 <= 0 wherever it is defined, but a pole at 0 inside the hull
    # of the reals: u = 1, v = -3/2 (mean -1/4, f = -16 against (-1 - 4/9)/2)
    ("-1/((u + v)/2)**2", ">=", "(-1/u**2 - 1/v**2)/2", {"u": R, "v": R},
     {"u": 1, "v": Fraction(-3, 2)}, lambda u, v: -1 / ((u + v) / 2) ** 2 - (-1 / u ** 2 - 1 / v ** 2) / 2),
]


@pytest.mark.parametrize("lhs,rel,rhs,doms,point,diff", NEAR_MISSES)
def test_near_misses_are_false_at_50_digits(lhs, rel, rhs, doms, point, diff):
    with mpmath.workdps(50):
        args = [mpmath.mpf(v.numerator) / v.denominator if isinstance(v, Fraction) else mpmath.mpf(v)
                for v in point.values()]
        g = diff(*args)
        # the relation is lhs REL rhs; g = lhs - rhs must violate it by more than rounding
        if rel == ">=":
            assert g < -mpmath.mpf(10) ** -40, g
        else:                       # ">": equality is enough to fail
            assert g <= mpmath.mpf(10) ** -45, g


@pytest.mark.parametrize("lhs,rel,rhs,doms,point,diff", NEAR_MISSES)
def test_convexity_layer_never_proves_a_near_miss(lhs, rel, rhs, doms, point, diff):
    assert _layer(lhs, rel, rhs, doms) is None


@pytest.mark.parametrize("lhs,rel,rhs,doms,point,diff", NEAR_MISSES[:1] + NEAR_MISSES[-1:])
def test_the_decision_disproves_near_misses(lhs, rel, rhs, doms, point, diff):
    assert str(_decide(lhs, rel, rhs, doms).verdict) == "disproved"


def test_recognition_of_the_pattern():
    f, t, pairs = jensen_instance(_p("log(1 + exp((u + v + w)/3))"),
                                  _p("(log(1 + exp(u)) + log(1 + exp(v)) + log(1 + exp(w)))/3"))
    assert f == _p(f"log(1 + exp({t}))")
    assert sorted((w, x.name) for w, x in pairs) == [(Fraction(1, 3), "u"), (Fraction(1, 3), "v"),
                                                     (Fraction(1, 3), "w")]
    # weights summing to 2/3, a constant term, one point only: not an instance
    assert jensen_instance(_p("tanh((x + y)/3)"), _p("(tanh(x) + tanh(y))/3")) is None
    assert jensen_instance(_p("tanh((x + y)/2)"), _p("(tanh(x) + tanh(y))/2 + 1")) is None
    assert jensen_instance(_p("tanh(x)"), _p("tanh(x)")) is None
    # a parameter inside f (not a one-variable function): not an instance
    assert jensen_instance(_p("tanh(a*(x + y)/2)"), _p("(tanh(a*x) + tanh(a*y))/2")) is None
