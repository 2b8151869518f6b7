"""The identity layer on its own (prover/identity.py).

The relation suite (test_relations.py) meets this layer behind the counterexample search,
which disproves the false cases first; here the layer itself gets the wrong branches, so a
layer that said "proved" to one would fail. Expected answers are worked out by hand in the
comments (and the branch constants checked with mpmath).
"""
from fractions import Fraction

import mpmath
import pytest

from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.prover.decide import _real_decider
from boundcalc.prover.identity import prove_identity

R, P = Domain(), Domain(lo=Fraction(0))


def _ident(lhs, rhs, doms, assume=()):
    return prove_identity(parse(lhs), parse(rhs), dict(doms), [parse(a) for a in assume],
                          _real_decider(500, 0), seconds=3.0)


@pytest.mark.parametrize("lhs,rhs,doms,assume", [
    # atan u - atan v = atan((u-v)/(1+uv)) holds exactly where uv > -1; inside uv >= -1/2
    ("atan(u) - atan(v)", "atan((u - v)/(1 + u*v))", {"u": R, "v": R}, ["u*v >= -1/2"]),
    ("atan(u) - atan(v)", "atan((u - v)/(1 + u*v))", {"u": R, "v": R}, ["u*v > -1"]),
    ("atan(x) + atan(1/x)", "pi/2", {"x": P}, []),
    ("atan(u) + atan(1/u)", "-pi/2", {"u": Domain(hi=Fraction(0))}, []),
    ("tanh(2*u)", "2*tanh(u)/(1 + tanh(u)**2)", {"u": R}, []),
])
def test_identity_layer_proves_on_the_branch(lhs, rhs, doms, assume):
    assert _ident(lhs, rhs, doms, assume) is not None


@pytest.mark.parametrize("lhs,rhs,doms,assume", [
    # the other branch: for uv < -1 the sides differ by +-pi (u = 2, v = -1: atan 2 + pi/4 =
    # 1.8925 against atan(-3) = -1.2490, a difference of pi)
    ("atan(u) - atan(v)", "atan((u - v)/(1 + u*v))", {"u": R, "v": R}, ["u*v <= -2"]),
    # over all reals the region u*v != -1 has pieces on both branches
    ("atan(u) - atan(v)", "atan((u - v)/(1 + u*v))", {"u": R, "v": R}, []),
    # atan u + atan(1/u) = -pi/2 for u < 0: pi/2 is wrong there, and over u != 0 both occur
    ("atan(u) + atan(1/u)", "pi/2", {"u": Domain(hi=Fraction(0))}, []),
    ("atan(u) + atan(1/u)", "pi/2", {"u": R}, []),
    # x, y > 0: atan x + atan y = atan((x+y)/(1-xy)) only where xy < 1
    ("atan(x) + atan(y)", "atan((x + y)/(1 - x*y))", {"x": P, "y": P}, []),
    ("tanh(2*u)", "2*tanh(u)/(1 - tanh(u)**2)", {"u": R}, []),
])
def test_identity_layer_never_proves_off_the_branch(lhs, rhs, doms, assume):
    assert _ident(lhs, rhs, doms, assume) is None


def test_the_branch_constants_by_hand():
    with mpmath.workdps(50):
        u, v = mpmath.mpf(2), mpmath.mpf(-1)
        gap = mpmath.atan(u) - mpmath.atan(v) - mpmath.atan((u - v) / (1 + u * v))
        assert abs(gap - mpmath.pi) < mpmath.mpf(10) ** -45
        u = mpmath.mpf(-3)
        assert abs(mpmath.atan(u) + mpmath.atan(1 / u) + mpmath.pi / 2) < mpmath.mpf(10) ** -45
