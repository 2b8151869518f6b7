"""prover/search.py, the counterexample search's report (its search is exercised as the
last layer of decide in tests/prover/test_relations.py)."""
from fractions import Fraction

from boundcalc.expr.nodes import Num
from boundcalc.expr.parser import parse
from boundcalc.prover.search import side_texts


def test_a_counterexample_prints_its_sides_to_the_digits_that_differ():
    # 2 against 2 + 10^-18: alike at 12 digits (a new user's transcription counterexample
    # printed lhs = rhs = 2.03642451862); at 24 they differ in the 19th
    lhs, rhs = side_texts(parse("x + 1"), Num(Fraction(2) + Fraction(1, 10 ** 18)), {"x": Fraction(1)})
    assert lhs != rhs and rhs.startswith("2.000000000000000001"), (lhs, rhs)
    assert side_texts(parse("x + 1"), parse("3"), {"x": Fraction(1)}) == ("2.0", "3.0")


def test_sides_equal_at_every_precision_print_alike():
    lhs, rhs = side_texts(parse("2*x"), parse("x + x"), {"x": Fraction(1, 3)})
    assert lhs == rhs and lhs.startswith("0.6666666666")
