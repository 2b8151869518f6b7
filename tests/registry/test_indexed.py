"""registry.indexed.check_lengths: a vector's length against its symbol's declared range,
evaluated exactly at the other values (lengths worked out by hand)."""
from fractions import Fraction as F

import pytest

from boundcalc.errors import ExpressionError
from boundcalc.expr.domains import parse_domain
from boundcalc.expr.indexed import Vector
from boundcalc.expr.parser import parse
from boundcalc.registry.indexed import check_lengths
from boundcalc.registry.model import Symbol


def _sym(name, lo, hi):
    return Symbol("p", name, "d", name, parse_domain("positive"), index="i", range=(parse(lo), parse(hi)))


TABLE = {"s": _sym("s", "1", "L"), "t": _sym("t", "0", "2*L - 1"),
         "L": Symbol("p", "L", "d", "L", parse_domain("integer >= 1"))}


def test_lengths_that_fit():
    check_lengths(TABLE, {"L": F(3), "s": Vector([F(1)] * 3)})
    check_lengths(TABLE, {"L": F(2), "t": Vector([F(1)] * 4, start=0)})      # 0 .. 3: four values
    check_lengths(TABLE, {"s": Vector([F(1)] * 7)})         # L has no value: nothing to check
    check_lengths(TABLE, {"L": F(3), "s": F(2)})            # one number for every component


@pytest.mark.parametrize("env,msg", [
    ({"L": F(4), "s": Vector([F(1)] * 3)}, "s: 3 values given, but its index runs over 1 .. 4 (4 values)"),
    ({"L": F(2), "t": Vector([F(1)] * 3, start=0)}, "t: 3 values given, but its index runs over 0 .. 3 (4 values)"),
    ({"L": F(5, 2), "s": Vector([F(1)] * 2)}, "non-integer ends"),
])
def test_lengths_that_do_not(env, msg):
    with pytest.raises(ExpressionError, match=msg.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        check_lengths(TABLE, env)
