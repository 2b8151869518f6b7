"""factorial, gamma, binomial and sums/products/max/min over an index in every numeric
back end (exact, arb via mp.evaluate, NumPy) and SymPy, each against an independent value:
mpmath at 50 digits on the test's own formulas, or a hand computation."""
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
import sympy as sp

from boundcalc.backends import arb as A
from boundcalc.backends import mp as mpb
from boundcalc.backends.np import evaluate_grid
from boundcalc.backends.sym import from_sympy, to_latex, to_sympy
from boundcalc.errors import ExpressionError
from boundcalc.expr.exact import NotExact, evaluate_exact
from boundcalc.expr.indexed import Vector
from boundcalc.expr.parser import parse


@pytest.fixture(autouse=True)
def _fifty_digits():
    """50 digits for this module's tests, in a local precision (a module-level setting would
    change every other module's precision from collection on)."""
    with mpmath.workdps(50):
        yield

# (expression, env, independent value: a function of mpmath at 50 digits)
CASES = [
    ("factorial(n)", {"n": F(20)}, lambda: mpmath.factorial(20)),
    ("factorial(n)", {"n": F(300)}, lambda: mpmath.factorial(300)),
    ("factorial(x)", {"x": F(1, 2)}, lambda: mpmath.gamma(mpmath.mpf(3) / 2)),
    ("gamma(x)", {"x": F(1, 2)}, lambda: mpmath.sqrt(mpmath.pi)),
    ("gamma(x)", {"x": F(-3, 2)}, lambda: mpmath.gamma(mpmath.mpf(-3) / 2)),
    ("gamma(x)", {"x": F(7)}, lambda: mpmath.mpf(720)),
    ("binomial(n, k)", {"n": F(50), "k": F(25)}, lambda: mpmath.binomial(50, 25)),
    ("binomial(n, k)", {"n": F(5, 2), "k": F(4)}, lambda: mpmath.mpf(-5) / 128),     # (5/2)(3/2)(1/2)(-1/2)/4!
    ("binomial(n, k)", {"n": F(3), "k": F(5)}, lambda: mpmath.mpf(0)),
    ("binomial(n, k)", {"n": F(7, 3), "k": F(1, 3)}, lambda: mpmath.binomial(mpmath.mpf(7) / 3, mpmath.mpf(1) / 3)),
    ("sum(1/i**2, i, 1, L)", {"L": F(100)}, lambda: mpmath.nsum(lambda i: 1 / i ** 2, [1, 100])),
    ("prod(1 + 1/i, i, 1, L)", {"L": F(9)}, lambda: mpmath.mpf(10)),                  # telescopes to L + 1
    ("max(sin(i), i, 1, L)", {"L": F(10)}, lambda: max(mpmath.sin(i) for i in range(1, 11))),
    ("min(s[i]*i, i, 1, L)", {"L": F(3), "s": Vector([F(3), F(1), F(1, 2)])}, lambda: mpmath.mpf(3) / 2),
    ("sum(s[i + 1], i, 0, L - 1)", {"L": F(3), "s": Vector([F(1), F(2), F(4)])}, lambda: mpmath.mpf(7)),
    ("sum(sum(i*j, j, 1, i), i, 1, n)", {"n": F(4)}, lambda: mpmath.mpf(1 + 2 * 3 + 3 * 6 + 4 * 10)),
    ("sum(s[i], i, 1, L)", {"L": F(4), "s": F(5, 2)}, lambda: mpmath.mpf(10)),         # broadcast
]


@pytest.mark.parametrize("text,env,want", CASES, ids=[c[0] + str(sorted(c[1])) for c in CASES])
def test_certified_value_against_mpmath(text, env, want):
    got = mpb.evaluate(parse(text), env, digits=30)
    w = want()
    assert abs(got - w) <= abs(w) * mpmath.mpf(10) ** -29 + (mpmath.mpf(10) ** -40 if w == 0 else 0)


@pytest.mark.parametrize("text,env,want", CASES, ids=[c[0] + str(sorted(c[1])) for c in CASES])
def test_arb_encloses_the_mpmath_value(text, env, want):
    lo, hi = A.enclose_interval(parse(text), env, prec=128)
    w = want()
    assert A.to_mpf(lo) <= w <= A.to_mpf(hi)


@pytest.mark.parametrize("text,env,want", CASES, ids=[c[0] + str(sorted(c[1])) for c in CASES])
def test_numpy_against_mpmath(text, env, want):
    got = evaluate_grid(parse(text), {k: (v.map(float) if isinstance(v, Vector) else float(v)) for k, v in env.items()})
    g, w = mpmath.mpf(np.asarray(got).item()), want()      # 300! is beyond float64: mpmath's fallback
    assert mpmath.isfinite(g)
    assert abs(g - w) <= abs(w) * mpmath.mpf("1e-12") + mpmath.mpf("1e-300")


def test_exact_values():
    assert evaluate_exact(parse("factorial(n)"), {"n": F(25)}) == 15511210043330985984000000
    assert evaluate_exact(parse("binomial(n, k)"), {"n": F(10), "k": F(3)}) == 120
    assert evaluate_exact(parse("binomial(n, k)"), {"n": F(3), "k": F(5)}) == 0
    assert evaluate_exact(parse("gamma(x)"), {"x": F(5)}) == 24
    assert evaluate_exact(parse("sum(s[i]**2, i, 1, L)"), {"L": F(3), "s": Vector([F(1), F(2), F(1, 2)])}) == F(21, 4)
    for text, env in (("gamma(x)", {"x": F(1, 2)}), ("factorial(n)", {"n": F(-1)}), ("sum(i, i, 1, L)", {"L": F(5, 2)})):
        with pytest.raises(NotExact):
            evaluate_exact(parse(text), env)


@pytest.mark.parametrize("text,env,why", [
    ("gamma(x)", {"x": F(0)}, "pole"),
    ("gamma(x)", {"x": F(-3)}, "pole"),
    ("factorial(n)", {"n": F(-1)}, "pole"),
    ("binomial(n, k)", {"n": F(-1), "k": F(2)}, "n < 0 or k < 0"),
    ("sum(i, i, 1, L)", {"L": F(5, 2)}, "non-integer"),
    ("max(i, i, 1, L)", {"L": F(0)}, "empty"),
])
def test_undefined_by_the_one_rule(text, env, why):
    with pytest.raises(ExpressionError, match=why):
        mpb.evaluate(parse(text), env)
    with np.errstate(all="ignore"):
        assert np.isnan(float(evaluate_grid(parse(text), {k: float(v) for k, v in env.items()})))


def test_length_mismatch_is_one_line():
    with pytest.raises(ExpressionError, match=r"s\[4\]: index outside 1 \.\. 3") as e:
        mpb.evaluate(parse("sum(s[i], i, 1, L)"), {"L": F(4), "s": Vector([F(1), F(2), F(3)])})
    assert "\n" not in str(e.value)


def test_gamma_over_a_box_is_rigorous():
    """Enclosures over boxes left and right of gamma's minimum (1.4616...) and across it
    contain gamma at many points (mpmath)."""
    for a, b in ((F(1, 10), F(1, 2)), (F(2), F(5)), (F(1), F(2)), (F(-5, 2), F(-21, 10))):
        lo, hi = A.enclose_interval(parse("gamma(x)"), {"x": (a, b)}, prec=96)
        for t in range(11):
            x = mpmath.mpf(a.numerator) / a.denominator + (mpmath.mpf((b - a).numerator) / (b - a).denominator) * t / 10
            assert A.to_mpf(lo) <= mpmath.gamma(x) <= A.to_mpf(hi), (a, b, x)
    with pytest.raises(A.Unresolved):
        A.enclose_interval(parse("gamma(x)"), {"x": (F(-1, 2), F(1, 2))}, prec=96)   # contains the pole 0


def test_sum_over_a_box_of_lengths_is_unresolved_not_wrong():
    with pytest.raises(A.Unresolved):
        A.enclose_interval(parse("sum(i, i, 1, L)"), {"L": (F(1), F(5))}, prec=64)


def test_numpy_grid_over_lengths():
    # R_A at rho = 2, s = b = 1: 2^L L^(3/2), by hand at L = 1, 2, 3
    e = parse("prod(rho[i]*s[i], i, 1, L)*sum((b[i]/s[i])**(2/3), i, 1, L)**(3/2)")
    got = evaluate_grid(e, {"L": np.array([1.0, 2.0, 3.0]), "rho": 2.0, "s": 1.0, "b": 1.0})
    assert np.allclose(got, [2.0, 4 * 2 ** 1.5, 8 * 3 ** 1.5], rtol=1e-14)


def test_sympy_forms_and_back():
    e = parse("prod(rho[i]*s[i], i, 1, L)*sum((b[i]/s[i])**(2/3), i, 1, L)**(3/2)")
    s = to_sympy(e)
    assert s.has(sp.Product) and s.has(sp.Sum)
    assert str(from_sympy(s)) == str(parse(str(from_sympy(s))))
    assert to_sympy(parse("sum(i, i, 1, L)")).doit().equals(sp.Symbol("L", positive=True) * (sp.Symbol("L", positive=True) + 1) / 2)
    assert to_sympy(parse("prod(a, i, 1, L)")).doit() == sp.Symbol("a", positive=True) ** sp.Symbol("L", positive=True)
    assert to_sympy(parse("factorial(n)")) == sp.factorial(sp.Symbol("n", positive=True))
    for t in ("factorial(n)", "gamma(x)", "binomial(n, k)", "max(s[i], i, 1, L)", "sum(sum(i*j, j, 1, i), i, 1, n)"):
        assert str(from_sympy(to_sympy(parse(t)))) == str(parse(t))


def test_latex_output():
    tex = to_latex(parse("prod(rho[i]*s[i], i, 1, L)*sum(b[i], i, 1, L)"), {"rho": r"\rho"})
    assert r"\prod_{i=1}^{L}" in tex and r"\sum_{i=1}^{L}" in tex and r"{\rho}_{i}" in tex
    assert to_latex(parse("factorial(n)")) == "n!"
    assert to_latex(parse("gamma(x)")) == r"\Gamma\left(x\right)"
    assert r"\binom{n}{k}" in to_latex(parse("binomial(n, k)"))
    assert to_latex(parse("max(s[i], i, 1, L)")) == r"\max_{i=1}^{L} \left({s}_{i}\right)"
