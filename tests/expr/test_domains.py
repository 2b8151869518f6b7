"""Domain.default_range and Domain.check_nonempty (moved onto Domain from services, issue 23).

Expected boxes are worked out by hand from the rule in the docstring: a bounded domain is
itself with open ends moved in by 1/100 of the width; a half-line reaches 100 beyond its
finite end (or a factor 100 when that is farther); the whole line is [-100, 100].
"""
from fractions import Fraction as F

import pytest

from boundcalc.errors import BoundcalcError
from boundcalc.expr.domains import Domain, parse_domain


@pytest.mark.parametrize("text, want", [
    ("real", (F(-100), F(100))),
    ("[0, 1]", (F(0), F(1))),
    # (0, 1): lo = 0 + 1/100; hi = 1 - (1 - 1/100)/100 = 1 - 99/10000
    ("(0, 1)", (F(1, 100), F(9901, 10000))),
    # x > 0: lo = 1/100, hi = max(100 lo, lo + 100) = 100 + 1/100
    ("positive", (F(1, 100), F(10001, 100))),
    # x >= 2: hi = max(200, 102) = 200
    ("real >= 2", (F(2), F(200))),
    # x >= -3: lo <= 0, hi = lo + 100 = 97
    ("real >= -3", (F(-3), F(97))),
    # x <= -5: lo = min(-500, -105) = -500
    ("real <= -5", (F(-500), F(-5))),
    # x < 1: hi = 1 - 1/100, lo = hi - 100
    ("real < 1", (F(-9901, 100), F(99, 100))),
])
def test_default_range_by_hand(text, want):
    assert parse_domain(text).default_range() == want


def test_check_nonempty_names_the_symbol():
    Domain(lo=F(1), lo_closed=True, hi=F(1), hi_closed=True).check_nonempty("x")   # {1}: not empty
    with pytest.raises(BoundcalcError, match=r"^the domain of k is empty: k must be integer in \(1, 2\)$"):
        Domain(integer=True, lo=F(1), hi=F(2)).check_nonempty("k")
    with pytest.raises(BoundcalcError, match="the domain of t is empty"):
        Domain(lo=F(1), hi=F(1)).check_nonempty("t")
