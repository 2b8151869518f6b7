from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundcalc.errors import ExpressionError
from boundcalc.expr.nodes import Add, Func, Mul, Num, Pow, Ref, Rel, Sym, depth
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
    ("x[0][1]", "subscript of anything but a symbol name"),   # s[i] is an indexed symbol
    ("f(x)[0]", "subscript of anything but a symbol name"),
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


def test_deep_parentheses_message_gives_the_reason_and_a_short_echo():
    with pytest.raises(ExpressionError) as e:
        parse("(" * 500 + "x" + ")" * 500, where="f.toml: [formulas.g]")
    assert str(e.value) == ("f.toml: [formulas.g]: syntax error: too many nested parentheses (Python's parser "
                            "allows at most 200), in '" + "(" * 40 + "...' (1001 characters)")


@pytest.mark.parametrize("n", [2, 300, 1000, 1999])
def test_long_flat_sums_and_products_parse_to_one_level(n):
    """x+x+...+x (n terms, up to 3997 characters) is one n-ary sum, whatever n; likewise a
    product chain with divisions and a sum chain with subtractions."""
    s = parse("+".join(["x"] * n))
    assert isinstance(s, Add) and s.args == (Sym("x"),) * n and depth(s) == 2
    p = parse("*".join(["x", "y"] * (n // 2)) + "/z")
    assert isinstance(p, Mul) and len(p.args) == 2 * (n // 2) + 1 and depth(p) == 3
    from boundcalc.expr.exact import evaluate_exact
    env = {"x": Fraction(3), "y": Fraction(1, 2), "z": Fraction(7)}
    assert evaluate_exact(s, env) == 3 * n
    assert evaluate_exact(p, env) == Fraction(3, 2) ** (n // 2) / 7
    d = parse("-".join(["x"] * n))           # x - x - ... - x = (2 - n) x
    assert evaluate_exact(d, env) == (2 - n) * 3


def test_genuine_nesting_is_limited_with_the_depth_in_the_message():
    from boundcalc.expr.parser import MAX_DEPTH
    ok = "sqrt(" * (MAX_DEPTH - 1) + "x" + ")" * (MAX_DEPTH - 1)      # 199 calls: depth 200
    assert depth(parse(ok)) == MAX_DEPTH
    with pytest.raises(ExpressionError) as e:
        parse("x**" * 1000 + "x")
    assert str(e.value) == (f"expression: expression nested 1001 levels deep; the limit is {MAX_DEPTH} "
                            "(flat sums and products count as one level), in '" + ("x**" * 14)[:40]
                            + "...' (3001 characters)")


def test_unary_chains_and_whitelist_messages_are_short():
    assert parse("- - -x") == Mul((Num(Fraction(-1)), Sym("x"))) and parse("+-+3") == Num(Fraction(-3))
    with pytest.raises(ExpressionError) as e:
        parse("x" + " + x" * 900 + " + y.__class__")
    msg = str(e.value)
    assert msg.startswith("expression: attribute access is not allowed in a formula ('y.__class__' in 'x + x")
    assert msg.endswith("...' (3615 characters))") and len(msg) < 200


def test_division_and_power_structure():
    from boundcalc.expr.exact import evaluate_exact
    v = parse("x**(1/2)")
    assert isinstance(v, Pow) and v.base == Sym("x")
    assert evaluate_exact(v.exp, {}) == Fraction(1, 2)
    assert evaluate_exact(parse("(3 - 5)/4"), {}) == Fraction(-1, 2)


def test_numpy_scalars_are_numbers():
    import numpy as np
    assert parse_number(np.float64(0.25)) == Fraction(1, 4)
    assert parse_number(np.int64(7)) == Fraction(7)


@st.composite
def _chains(draw):
    """A flat chain of + - * / over small rationals, built with its exact value (Python's
    precedence: * and / bind tighter; left to right), independently of the parser."""
    n = draw(st.integers(1, 400))
    text, total, term = "", Fraction(0), None
    sign = 1
    for i in range(n):
        x = Fraction(draw(st.integers(1, 9)), 1)
        op = draw(st.sampled_from("+-*/")) if i else "+"
        if op in "+-":
            if term is not None:
                total += sign * term
            sign, term = (1 if op == "+" else -1), x
        else:
            term = term * x if op == "*" else term / x
        text += (op if i else "") + str(x.numerator)
    total += sign * term
    return text, total


@settings(max_examples=100, deadline=None)
@given(_chains())
def test_property_flat_chains_evaluate_exactly(chain):
    from boundcalc.expr.exact import evaluate_exact
    text, value = chain
    node = parse(text)
    assert evaluate_exact(node, {}) == value
    assert depth(node) <= 5


def test_nodes_compare_hash_and_map_without_recursion():
    """Equality, hashing and map of a tree 5000 levels deep (built directly: beyond the
    parser's limit) use no Python stack."""
    from boundcalc.expr.nodes import substitute
    a, b = Sym("x"), Sym("x")
    for _ in range(5000):
        a, b = Func("exp", (a,)), Func("exp", (b,))
    assert a == b and hash(a) == hash(b) and a is not b
    c = substitute(a, {"x": Sym("y")})
    assert c != a and depth(c) == 5001 and sum(1 for _ in c.walk()) == 5001
    assert substitute(c, {"y": Sym("x")}) == a
