"""The integer layer on its own (prover/integers.py): induction or a real relaxation from n0,
every integer below checked with a certified sign. The false cases go to the layer itself
(in the relation suite the counterexample search meets them first). Expected answers are
worked out by hand in the comments."""
from fractions import Fraction

import mpmath

from boundcalc.backends.exact import evaluate_exact
from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.prover.decide import _real_decider
from boundcalc.prover.integers import prove_integers, shift

Z1 = Domain(integer=True, lo=Fraction(1), lo_closed=True)


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
        assert evaluate_exact(s, {"n": Fraction(2)}) == 0
        assert evaluate_exact(s, {"n": Fraction(5)}) == 513
    assert "3**(n + 1)" not in str(s)
