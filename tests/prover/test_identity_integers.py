"""The identity and integer layers on their own (prover/identity.py, prover/integers.py).

The relation suite (test_relations.py) meets these layers behind the counterexample search,
which disproves the false cases first; here the layers themselves get the false cases, so a
layer that said "proved" to a wrong branch or a wrong integer claim would fail. Expected
answers are worked out by hand in the comments (and the branch constants checked with mpmath).
"""
from fractions import Fraction

import mpmath
import pytest

from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.prover.decide import _real_decider
from boundcalc.prover.identity import prove_identity
from boundcalc.prover.integers import prove_integers, shift

R, P = Domain(), Domain(lo=Fraction(0))
Z1 = Domain(integer=True, lo=Fraction(1), lo_closed=True)


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


def _ints(g, dom, seconds=3.0):
    return prove_integers(parse(g), ">=", "n", {"n": dom}, _real_decider(500, 0), seconds=seconds)


def test_integer_layer_induction_and_exhaustive_part():
    # 3^n - n^3 >= 0: n = 1, 2, 3 give 2, 1, 0; the step holds for n >= 3
    r = _ints("3**n - n**3", Z1)
    assert r is not None and r.status == "proved" and "n\u2080 = 3" in r.how, r
    # 2^n >= n^2 from n = 4 (16 = 16)
    r = _ints("2**n - n**2", Domain(integer=True, lo=Fraction(4), lo_closed=True))
    assert r is not None and r.status == "proved", r


def test_integer_layer_finds_the_integer_where_it_fails():
    # 2^n - n^2 at n = 3 is 8 - 9 = -1: the step from n0 = 4 holds, the exhaustive part fails
    r = _ints("2**n - n**2", Z1)
    assert r is not None and r.status == "disproved" and r.point == {"n": Fraction(3)}, r
    # a bounded domain is checked value by value: 10 - n >= 0 fails at n = 11 only
    r = _ints("10 - n", Domain(integer=True, lo=Fraction(1), lo_closed=True, hi=Fraction(11), hi_closed=True))
    assert r is not None and r.status == "disproved" and r.point == {"n": Fraction(11)}, r


def test_integer_layer_does_not_prove_a_false_tail():
    # n - 50 >= 0 fails at every n < 50 and holds from 50: never "proved" on n >= 1
    r = _ints("n - 50", Z1)
    assert r is None or r.status == "disproved"
    # (log n)^2/n <= 0.5409 fails at n = 7 (0.540938...)
    r = _ints("0.5409 - log(n)**2/n", Z1)
    assert r is None or (r.status == "disproved" and r.point == {"n": Fraction(7)})


def test_shift_splits_constant_base_powers():
    s = shift(parse("3**n - n**3"), "n")
    with mpmath.workdps(30):
        # g(n + 1) at n = 2: 3^3 - 3^3 = 0; at n = 5: 729 - 216 = 513
        from boundcalc.backends.exact import evaluate_exact
        assert evaluate_exact(s, {"n": Fraction(2)}) == 0
        assert evaluate_exact(s, {"n": Fraction(5)}) == 513
    assert "3**(n + 1)" not in str(s)
