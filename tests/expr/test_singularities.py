"""The one definedness rule (expr/singularities.py): integer powers of negative bases
(issue 30: `verify '(-1)**n' '<=' '1'` with n an integer said "undefined everywhere")."""
from __future__ import annotations

from fractions import Fraction

import pytest

from boundcalc.backends import arb as A
from boundcalc.expr.indexed import instantiate
from boundcalc.expr.parser import parse
from boundcalc.expr.singularities import definedness, first_undefined_constant, is_integer_valued
from boundcalc.prover.decide import fold_constants


@pytest.mark.parametrize("text, integer", [
    ("n", True), ("x", False), ("2*n + 1", True), ("n*k - 3", True), ("n**2", True), ("n**(1/2)", False),
    ("n/2", False), ("floor(x)", True), ("factorial(n)", True), ("binomial(n, k)", True),
    ("sum(i*n, i, 1, k)", True), ("sum(i/2, i, 1, k)", False), ("n + x", False), ("2**n", False),
])
def test_integer_valued_expressions(text, integer):
    assert is_integer_valued(parse(text), {"n", "k"}) is integer


def _holds(conds, env) -> bool:
    """Every condition at the point ``env``, decided in ball arithmetic (exact at integers)."""
    ok = True
    for c in conds:
        v = A.enclose(c.expr, env, prec=64).mid()
        s = (v > 0) - (v < 0)
        ok &= {">": s > 0, ">=": s >= 0, "!=": s != 0}[c.op]
    return ok


@pytest.mark.parametrize("text", ["(-1)**n", "(-2)**(n - 3)", "x**n", "x**(2*n - 5)", "(-1)**n * x**(n + 1)",
                                  "sum((-1)**i, i, 1, n)"])
def test_integer_powers_are_defined_where_eval_computes_them(text):
    """The rule with n an integer agrees with eval (ball arithmetic) at every integer point
    tried, with negative, zero and positive bases: defined exactly where eval has a value."""
    node = parse(text)
    conds = definedness(node, {"n"})
    for n in range(-4, 6):
        for x in (Fraction(-3), Fraction(-1, 2), Fraction(0), Fraction(2)):
            env = {"n": Fraction(n), "x": x}
            try:                                  # eval's semantics: the values put in, then evaluated
                A.enclose(fold_constants(instantiate(node, env)), {}, prec=64)
                defined = True
            except A.Undefined:
                defined = False
            except ValueError:                    # an empty range of the sum (n < 1)
                continue
            assert _holds(conds, env) is defined, (text, n, x)


def test_without_integers_a_negative_base_is_undefined_and_0_pow_0_stays_undefined():
    assert first_undefined_constant(parse("(-1)**n"), lambda e: -1) is not None       # n real
    assert first_undefined_constant(parse("(-1)**n"), lambda e: 1, {"n"}) is None     # n integer
    c = definedness(parse("x**n"), {"n"})
    assert len(c) == 1 and not _holds(c, {"x": Fraction(0), "n": Fraction(0)})       # 0**0, as eval
    assert _holds(c, {"x": Fraction(0), "n": Fraction(1)}) and _holds(c, {"x": Fraction(-5), "n": Fraction(-2)})
