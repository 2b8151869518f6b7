"""Goals symmetric in two symbols (prover/symmetric.py, the "symmetry" row): which pairs it
reads (equal domains, swap-invariant assumptions, SymPy's identity), that it refuses the
others, that a symmetric theorem is proved through x <= y and that false symmetric relations
are not. Truth at 50 digits by mpmath on a grid (the test's own evaluation)."""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from prover.test_cases import _box, _decide, _mp, _p

from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.prover.order import order_assumptions
from boundcalc.prover.symmetric import applies, symmetric_pair
from boundcalc.recheck import recheck


def _grid_min(lhs, rel, rhs, lo, hi, n=30):
    with mpmath.workdps(50):
        lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
        pts = [lo + (hi - lo) * k / n for k in range(n + 1)]
        return min(((_mp(lhs, {"x": x, "y": y}) - _mp(rhs, {"x": x, "y": y})) * (1 if rel == ">=" else -1))
                   for x in pts for y in pts)


@pytest.mark.parametrize("lhs, rhs, want", [
    ("sin(x) + sin(y)", "2*sin((x + y)/2)", ("x", "y")),
    ("abs(sin(x) - sin(y))", "abs(x - y)", ("x", "y")),
    ("log(x)*log(y)", "(log(x*y)/2)**2", ("x", "y")),
    ("sin(x) - sin(y)", "x - y", None),                 # antisymmetric, not symmetric
    ("x + 2*y", "3*sqrt(x*y)", None),
])
def test_the_symmetric_pair(lhs, rhs, want):
    doms = _box(x=(1, 3), y=(1, 3))
    assert symmetric_pair(_p(lhs), "<=", _p(rhs), doms, [], 2.0) == want


def test_it_refuses_unequal_domains_and_asymmetric_assumptions():
    g = (_p("sin(x) + sin(y)"), "<=", _p("2*sin((x + y)/2)"))
    assert symmetric_pair(*g, _box(x=(0, 3), y=(0, 2)), [], 2.0) is None
    assert not applies(*g, _box(x=(0, 3), y=(0, 2)), [])
    doms = _box(x=(0, 4), y=(0, 4))
    assert symmetric_pair(*g, doms, [parse("x <= pi")], 2.0) is None                 # y unbounded by pi
    assert symmetric_pair(*g, doms, [parse("x <= pi"), parse("y <= pi")], 2.0) == ("x", "y")
    assert symmetric_pair(*g, doms, [parse("x <= y")], 2.0) is None                  # already ordered
    ints = {n: Domain(integer=True, lo=Fraction(0), lo_closed=True) for n in "xy"}
    assert not applies(*g, ints, [])


def test_order_reads_a_flipped_order_assumption():
    doms = _box(x=(0, 5), y=(0, 5))
    got = order_assumptions([parse("-x <= -y"), parse("2*x < 2*y"), parse("-x <= y")], doms)
    assert [(lo, hi) for _, lo, hi in got] == [("y", "x"), ("x", "y")]


def test_a_symmetric_theorem_is_proved_where_x_le_y():
    lhs, rhs = "log(x)*log(y)", "(log(x*y)/2)**2"
    assert _grid_min(lhs, "<=", rhs, 1, 10) >= -mpmath.mpf(10) ** -40
    d = _decide(lhs, "<=", rhs, _box(x=(1, 10), y=(1, 10)), seconds=15.0)
    assert str(d.verdict) == "proved" and "symmetric in x, y" in d.text, d.text
    assert d.certificate is not None and recheck(d.certificate).valid


@pytest.mark.parametrize("lhs, rel, rhs", [
    ("log(x)*log(y)", "<=", "(log(x*y)/2)**2 - 0.001"),        # the diagonal moved
    ("sin(x) + sin(y)", ">=", "2*sin((x + y)/2)"),            # Jensen the wrong way on [0, 3]
])
def test_false_symmetric_relations_are_not_proved(lhs, rel, rhs):
    assert _grid_min(lhs, rel, rhs, 1, 3) < -mpmath.mpf(10) ** -6
    d = _decide(lhs, rel, rhs, _box(x=(1, 3), y=(1, 3)), seconds=8.0)
    assert str(d.verdict) == "disproved", d.text
