"""Back ends agree with each other and with independent computations."""
from fractions import Fraction

import mpmath
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import boundcalc
from boundcalc.backends import mp as mpb
from boundcalc.expr.exact import NotExact, evaluate_exact
from boundcalc.expr.parser import parse

beta2 = boundcalc.formula("deora2023.beta2")


def test_certified_digits_match_a_much_more_precise_evaluation():
    node = parse("exp(x)*log(y)/sqrt(z) + pi")
    env = {"x": Fraction(1000), "y": Fraction(3), "z": Fraction(2, 7)}
    v = mpb.evaluate(node, env, digits=40)
    with mpmath.workdps(200):
        ref = mpmath.exp(1000) * mpmath.log(3) / mpmath.sqrt(mpmath.mpf(2) / 7) + mpmath.pi
        assert abs(v - ref) <= abs(ref) * mpmath.mpf(10) ** -40


def test_far_beyond_double_range():
    v = mpb.evaluate(parse("10**x * 3"), {"x": Fraction(100000)}, digits=10)
    assert mpmath.nstr(v, 10) == "3.0e+100000"


def test_exact_backend():
    assert evaluate_exact(parse("sqrt(9/4) + x**2"), {"x": Fraction(1, 2)}) == Fraction(7, 4)
    try:
        evaluate_exact(parse("sqrt(2)"), {})
        raise AssertionError("sqrt(2) is not rational")
    except NotExact:
        pass


def test_numpy_grid_matches_mpmath_and_falls_back_beyond_double():
    T = np.array([1, 4, 16])[:, None]
    R = np.array([1.0, 2.0, 1e80])[None, :]
    out = beta2.grid(T=T, R=R, d=8, H=4, theta_2inf=1.5)
    assert out.shape == (3, 3)
    for i, t in enumerate([1, 4, 16]):
        for j, r in enumerate(["1", "2", "1e80"]):
            ref = beta2.evaluate(T=t, R=r, d=8, H=4, theta_2inf="1.5", digits=20).mpf
            got = out[i, j]
            if isinstance(got, float):
                assert abs(got - float(ref)) <= 1e-12 * abs(float(ref))
            else:
                assert mpmath.almosteq(got, ref, rel_eps=1e-15)
    assert out.dtype == object and not any(isinstance(x, float) and not np.isfinite(x) for x in out.ravel())


@settings(max_examples=60, deadline=None)
@given(T=st.integers(1, 10 ** 6), d=st.integers(1, 10 ** 4), H=st.integers(1, 10 ** 6),
       R=st.fractions(min_value=1, max_value=10 ** 6, max_denominator=1000),
       th=st.fractions(min_value=0, max_value=10 ** 6, max_denominator=1000))
def test_property_beta2_mp_numpy_and_identity(T, d, H, R, th):
    """beta2 = beta3/sqrt(H) + beta1^2/4 and beta2 >= beta1^2/4 on random inputs; NumPy agrees."""
    kw = {"T": T, "d": d, "R": R, "theta_2inf": th}
    b1 = boundcalc.formula("deora2023.beta1").evaluate(T=T, R=R, theta_2inf=th, digits=30).mpf
    b3 = boundcalc.formula("deora2023.beta3").evaluate(digits=30, **kw).mpf
    b2 = beta2.evaluate(H=H, digits=30, **kw).mpf
    with mpmath.workdps(40):
        assert mpmath.almosteq(b2, b3 / mpmath.sqrt(H) + b1 ** 2 / 4, rel_eps=mpmath.mpf(10) ** -25)
    assert b2 >= b1 ** 2 / 4
    g = beta2.grid(H=H, T=T, d=d, R=float(R), theta_2inf=float(th))
    assert abs(float(g) - float(b2)) <= 1e-9 * float(b2)


@settings(max_examples=40, deadline=None)
@given(d=st.integers(1, 64), T=st.integers(1, 64),
       R=st.fractions(min_value=1, max_value=4, max_denominator=8),
       th=st.fractions(min_value=0, max_value=8, max_denominator=8),
       D=st.fractions(min_value=Fraction(1, 8), max_value=8, max_denominator=8))
def test_property_least_heads_is_least(d, T, R, th, D):
    """The solver's H satisfies (3) and H - 1 does not (decided exactly: the inputs are rationals)."""
    f = boundcalc.formula("deora2023.heads_thm1")
    kw = {"d": d, "T": T, "R": R, "theta_2inf": th, "dist0": D}
    sol = f.solve("H", **kw)
    assert f.holds(H=sol.value, **kw)
    if sol.value > 1:
        assert not f.holds(H=sol.value - 1, **kw)
    # exact check: H >= rhs^2 with rhs^2 = d^2 T R^10 th^2 D^6 rational
    rhs2 = Fraction(d) ** 2 * T * R ** 10 * th ** 2 * D ** 6
    assert sol.value == max(1, -(-rhs2.numerator // rhs2.denominator))
