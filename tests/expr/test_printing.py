"""The one expression printer (boundcalc.expr.printing): the formula syntax, by hand and
read back by the parser (a second method: the printed text, parsed, has the same exact
value at random rational points), SymPy's simplified text, LaTeX, Markdown, str()."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from boundcalc.backends.sym import to_latex, to_sympy_text
from boundcalc.expr.exact import NotExact, evaluate_exact
from boundcalc.expr.nodes import Add, Const, Func, Mul, Num, Pow, Ref, Rel, Sym, sub
from boundcalc.expr.parser import parse
from boundcalc.expr.printing import to_markdown, to_text


def P(text):
    return parse(text, allow_relation=True)


@pytest.mark.parametrize("text, shown", [
    ("x*y/(2*z)", "x*y/(2*z)"),
    ("a-b", "a - b"),
    ("-x", "-x"),
    ("-(a+b)", "-(a + b)"),
    ("1/n", "1/n"),
    ("sqrt(x)", "sqrt(x)"),
    ("x**(1/3)", "x**(1/3)"),
    ("x-3", "x - 3"),
    ("log(n, 2)", "log(n, 2)"),
    ("(a+b)**2", "(a + b)**2"),
    ("x**-2", "x**(-2)"),
    ("2**x", "2**x"),
    ("exp(-x)*y", "exp(-x)*y"),
    ("x <= y/2", "x <= y/2"),
    ("min(x, y) + max(1, z)", "min(x, y) + max(1, z)"),
    ("x/(y*z)", "x/(y*z)"),
    ("pi*E", "pi*E"),
])
def test_text_by_hand(text, shown):
    assert to_text(P(text)) == shown
    assert str(P(text)) == shown                          # Node.__str__ is the printer


def test_text_of_built_trees():
    x, y = Sym("x"), Sym("y")
    assert to_text(Num(Fraction(-3, 4))) == "-3/4"
    assert to_text(sub(x, y)) == "x - y"
    assert to_text(Add((x, Num(Fraction(-1, 2))))) == "x - 1/2"
    assert to_text(Pow(x, Num(Fraction(1, 2)))) == "sqrt(x)"
    assert to_text(Pow(x, Num(Fraction(-1)))) == "1/x"
    assert to_text(Mul((x, Pow(y, Num(Fraction(-2)))))) == "x/(y**2)"
    assert to_text(Mul((Pow(y, Num(Fraction(-1, 2))),))) == "1/(sqrt(y))"
    assert to_text(Ref(None, "thm1")) == "thm1"
    assert to_text(Ref("deora2023", "thm1")) == "deora2023.thm1"
    assert to_text(Rel(">=", Func("exp", (x,)), Const("E"))) == "exp(x) >= E"


def _random_tree(rnd: random.Random, d: int):
    if d == 0 or rnd.random() < 0.25:
        return rnd.choice([Num(Fraction(rnd.randint(-4, 4), rnd.choice([1, 1, 3]))), Sym("x"), Sym("y")])
    k = rnd.randrange(5)
    if k == 0:
        return Add(tuple(_random_tree(rnd, d - 1) for _ in range(rnd.randint(2, 3))))
    if k == 1:
        return Mul(tuple(_random_tree(rnd, d - 1) for _ in range(rnd.randint(2, 3))))
    if k == 2:
        return Pow(_random_tree(rnd, d - 1), Num(Fraction(rnd.choice([-3, -2, -1, 2, 3]))))
    if k == 3:
        name = rnd.choice(["min", "max", "abs"])
        return Func(name, tuple(_random_tree(rnd, d - 1) for _ in range(1 if name == "abs" else 2)))
    return Pow(_random_tree(rnd, d - 1), Num(Fraction(rnd.choice([-1, 1]), 2)))


def test_printed_text_parses_back_to_the_same_value():
    rnd = random.Random(23)
    checked = 0
    for _ in range(400):
        t = _random_tree(rnd, 4)
        back = P(to_text(t))
        for _ in range(3):
            env = {"x": Fraction(rnd.randint(1, 40), rnd.randint(1, 7)), "y": Fraction(rnd.randint(-9, 9), 4)}
            try:
                want = evaluate_exact(t, env)
            except (NotExact, ZeroDivisionError):
                continue
            assert evaluate_exact(back, env) == want, to_text(t)
            checked += 1
    assert checked > 300


def test_deep_tree_prints():
    depth = 5_000                                         # 5x Python's recursion limit
    n = Sym("x")
    for _ in range(depth):
        n = Func("exp", (n,))
    assert to_text(n) == "exp(" * depth + "x" + ")" * depth


def test_shared_subtree_prints_in_full():
    s = Add((Sym("a"), Sym("b")))
    assert to_text(Mul((s, s))) == "(a + b)*(a + b)"


def test_simplified_text_is_sympys():
    # the SymPy back end's forms (expr/ imports no back end): check's evidence and LaTeX
    assert to_sympy_text(P("x*x + x")) == "x*(x + 1)"
    assert to_sympy_text(P("(a**2 - b**2)/(a - b)")) == "a + b"


def test_latex_through_sympy():
    assert to_latex(P("sqrt(x)/2")) == r"\frac{\sqrt{x}}{2}"
    assert to_latex(P("gamma*n"), {"gamma": r"\gamma"}) == r"\gamma n"
    # a LaTeX name with its own superscript is braced (else x^{2} would be a double superscript)
    assert to_latex(P("t**2"), {"t": r"\theta^{(1)}"}) == r"\left({\theta^{(1)}}\right)^{2}"


def test_markdown_is_a_code_span():
    assert to_markdown(P("x*y/2")) == "`x*y/2`"
    assert to_markdown(P("a*b*c"), table=True) == "`a*b*c`"
