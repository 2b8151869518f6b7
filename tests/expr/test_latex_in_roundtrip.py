"""Round trip (issue 29), a property test: random whitelist trees -> our LaTeX printer
(:func:`boundcalc.backends.sym.to_latex`, the one the sheets use) -> the reader -> the same
tree (the same canonical SymPy form) and the same value at random points, evaluated apart
(the mp back end at 40 digits, and SymPy exactly at rational points for trees without
transcendental functions). 500 trees per run."""
from fractions import Fraction

import mpmath
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from boundcalc.errors import BoundcalcError
from boundcalc.expr import latex_in as L
from boundcalc.expr.nodes import Add, BigOp, Func, Indexed, Mul, Num, Pow, Sym

LATEX = {"x": "x", "y": "y", "g": r"\gamma", "zm": r"Z_\mu", "th": r"\|\tilde\theta\|_{2,\infty}", "n": "n",
         "s": "s"}
NM = L.names({k: v for k, v in LATEX.items()}, indexed=frozenset({"s"}))

leaves = st.one_of(
    st.sampled_from([Sym("x"), Sym("y"), Sym("g"), Sym("zm"), Sym("th"), Sym("n")]),
    st.integers(1, 9).map(lambda k: Num(Fraction(k))),
    st.tuples(st.integers(1, 7), st.integers(2, 5)).map(lambda t: Num(Fraction(*t))),
)
FUNCS1 = ["sqrt", "exp", "log", "sin", "cos", "tan", "tanh", "atan", "erf", "abs", "floor", "ceil", "gamma",
          "factorial"]


def _extend(kids):
    small = st.integers(-3, 4).filter(lambda k: k not in (0, 1)).map(lambda k: Num(Fraction(k)))
    return st.one_of(
        st.lists(kids, min_size=2, max_size=3).map(lambda a: Add(tuple(a))),
        st.lists(kids, min_size=2, max_size=3).map(lambda a: Mul(tuple(a))),
        st.tuples(kids, st.one_of(small, st.sampled_from([Num(Fraction(1, 2)), Num(Fraction(1, 3))]), kids))
        .map(lambda t: Pow(t[0], t[1])),
        st.tuples(st.sampled_from(FUNCS1), kids).map(lambda t: Func(t[0], (t[1],))),
        st.tuples(st.sampled_from(["max", "min"]), st.lists(kids, min_size=2, max_size=3))
        .map(lambda t: Func(t[0], tuple(t[1]))),
        st.tuples(kids, st.integers(2, 3)).map(lambda t: Func("log", (t[0], Num(Fraction(t[1]))))),
        st.tuples(kids).map(lambda t: Func("binomial", (Sym("n"), Num(Fraction(2))))),
        st.tuples(st.sampled_from(["sum", "prod"]), leaves)        # one index letter: bodies not nested
        .map(lambda t: BigOp(t[0], Mul((Indexed("s", Sym("i")), t[1])), "i", Num(Fraction(1)), Sym("n"))),
    )


trees = st.recursive(leaves, _extend, max_leaves=8)


def _sympy(node):
    from boundcalc.backends.sym import to_sympy
    return to_sympy(node, {})


def _rational_only(node) -> bool:
    return all(not isinstance(n, (Func, BigOp)) for n in node.walk())


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@example(Pow(Func("gamma", (Sym("x"),)), Num(Fraction(2))), [Fraction(1, 7)] * 6)   # \Gamma^{2}\left(x\right)
@given(trees, st.lists(st.fractions(Fraction(1, 7), Fraction(9, 2), max_denominator=12), min_size=6, max_size=6))
def test_printer_reader_round_trip(tree, pt):
    from boundcalc.backends.sym import to_latex
    a = _sympy(tree)
    import sympy as sp
    if any(a.has(c) for c in (sp.I, sp.zoo, sp.nan, sp.oo, -sp.oo)):
        # a constant SymPy evaluates to a complex number or an infinity (sqrt(log(1/2, 2)) =
        # sqrt(-1) = i, log(log(1)) = log(0)) is undefined over the reals: the printer writes
        # SymPy's 'i' or '\tilde{\infty}', which no formula file can mean
        return
    tex = to_latex(tree, LATEX)
    try:
        back = L.parse_statement(tex, NM, kind="definition", where="round trip").node
    except BoundcalcError as e:
        pytest.fail(f"our printer's LaTeX {tex!r} of {tree} is refused: {e}")
    b = _sympy(back)
    import sympy as sp
    assert a == b or sp.simplify(a - b) == 0, (str(tree), tex, str(back))
    # the same value at a point, by two routes independent of the reader's tree
    env = dict(zip(["x", "y", "g", "zm", "th"], pt[:5]))
    env["n"] = Fraction(int(pt[5] * 2) + 2)
    if _rational_only(tree):
        subs = {s: sp.Rational(env[s.name].numerator, env[s.name].denominator) for s in a.free_symbols}
        try:
            va = a.subs(subs)
        except ZeroDivisionError:
            return
        if va.is_finite:
            assert va == b.subs(subs), (tex, va)          # exact rationals
        return
    from boundcalc.backends import mp as mpb
    try:
        va = mpb.evaluate(tree, env, digits=40)
    except Exception:                 # undefined there (log of a negative ...): nothing to compare
        return
    vb = mpb.evaluate(back, env, digits=40)
    assert abs(va - vb) <= mpmath.mpf(10) ** -30 * max(1, abs(va)), (tex, va, vb)
