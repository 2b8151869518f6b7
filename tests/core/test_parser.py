from fractions import Fraction

import pytest

from boundcalc.errors import ExpressionError
from boundcalc.expr.nodes import Add, Func, Num, Pow, Ref, Rel, Sym
from boundcalc.expr.parser import parse, parse_number


def test_arithmetic_tree():
    n = parse("2*x**3 - y/4")
    assert isinstance(n, Add)
    assert n.symbols() == {"x", "y"}


def test_decimals_are_exact_rationals():
    assert parse("1.5") == Num(Fraction(3, 2))
    assert parse("1e-3") == Num(Fraction(1, 1000))
    assert parse_number("0.1") == Fraction(1, 10)
    assert parse_number("1e400") == Fraction(10) ** 400
    assert parse_number(0.1) == Fraction(1, 10)
    assert parse_number("2**100") == Fraction(2) ** 100


def test_qualified_reference_and_relation():
    n = parse("sqrt(H) >= deora2023.beta3")
    assert isinstance(n, Rel) and n.op == ">="
    assert isinstance(n.lhs, Func) and isinstance(n.rhs, Ref)
    assert n.rhs == Ref("deora2023", "beta3")


@pytest.mark.parametrize("text,culprit", [
    ("__import__('os').system('echo hi')", "calling anything but"),
    ("x.__class__", "attribute access"),
    ("(lambda: 1)()", "calling anything but"),
    ("'abc'", "str literal"),
    ("x[0]", "Subscript"),
    ("x ^ 2", "'^' is not allowed"),
    ("open('f')", "calling anything but"),
    ("sqrt(x, y)", "sqrt with 2 argument"),
    ("log(x, base=2)", "keyword"),
    ("1 < x < 2", "chained"),
    ("x if y else z", "IfExp"),
    ("[x for x in y]", "ListComp"),
    ("x == (y <= z)", "comparison inside"),
    ("sqrt", "used as a value"),
    ("0x10", "number format"),
])
def test_whitelist_rejects(text, culprit):
    with pytest.raises(ExpressionError) as e:
        parse(text)
    assert culprit in str(e.value)


def test_deep_nesting_is_an_error_not_a_crash():
    with pytest.raises(ExpressionError):
        parse("(" * 3000 + "x" + ")" * 3000)


def test_division_and_power_structure():
    from boundcalc.backends.exact import evaluate_exact
    v = parse("x**(1/2)")
    assert isinstance(v, Pow) and v.base == Sym("x")
    assert evaluate_exact(v.exp, {}) == Fraction(1, 2)
    assert evaluate_exact(parse("(3 - 5)/4"), {}) == Fraction(-1, 2)


def test_numpy_scalars_are_numbers():
    import numpy as np
    assert parse_number(np.float64(0.25)) == Fraction(1, 4)
    assert parse_number(np.int64(7)) == Fraction(7)
