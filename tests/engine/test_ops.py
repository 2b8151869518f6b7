"""Shared numerical primitives against mpmath (50 digits) and finite differences."""
import mpmath
import numpy as np
import pytest

from boundcalc.engine import ops

M = np.array([-700.0, -50.0, -3.0, -1e-3, 0.0, 2.0, 40.0, 700.0])


def ref(f, m):
    with mpmath.workdps(50):
        return np.array([float(f(mpmath.mpf(x))) for x in m])


def test_logistic_and_derivatives_are_accurate_in_the_tails():
    np.testing.assert_allclose(ops.logistic(M), ref(lambda x: mpmath.log1p(mpmath.exp(-x)), M), rtol=1e-14)
    np.testing.assert_allclose(ops.logistic_d1(M), ref(lambda x: -1 / (1 + mpmath.exp(x)), M), rtol=1e-13)
    np.testing.assert_allclose(ops.logistic_d2(M), ref(lambda x: mpmath.exp(x) / (1 + mpmath.exp(x)) ** 2, M),
                               rtol=1e-13)


@pytest.mark.parametrize("name", ["logistic", "exponential", "correlation"])
def test_loss_derivatives_match_finite_differences(name):
    f, d1, d2 = ops.margin_loss(name)
    m = np.linspace(-3, 3, 13)
    h = 1e-5
    np.testing.assert_allclose(d1(m), (f(m + h) - f(m - h)) / (2 * h), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(d2(m), (d1(m + h) - d1(m - h)) / (2 * h), rtol=1e-6, atol=1e-9)


def test_softmax_stable_and_logsumexp():
    z = np.array([[1000.0, 1000.0, -1000.0], [0.0, 1.0, 2.0]])
    s = ops.softmax(z)
    np.testing.assert_allclose(s.sum(axis=1), 1.0)
    np.testing.assert_allclose(s[0], [0.5, 0.5, 0.0])
    np.testing.assert_allclose(ops.logsumexp(z[1]), np.log(np.exp(z[1]).sum()))


def test_unknown_loss():
    with pytest.raises(ValueError, match="unknown loss 'hinge'"):
        ops.margin_loss("hinge")


def test_extreme_eigenvalues_dense_and_lanczos_agree_with_numpy():
    rng = ops.rng(3)
    for n in (30, 300):
        A = rng.standard_normal((n, n))
        A = A + A.T
        w = np.linalg.eigvalsh(A)
        lo, hi = ops.extreme_eigenvalues(lambda v, A=A: A @ v, n)
        assert abs(lo - w[0]) < 1e-6 * abs(w[0]) and abs(hi - w[-1]) < 1e-6 * abs(w[-1])


def test_finite_difference_grad():
    g = ops.finite_difference_grad(lambda x: float(np.sum(x ** 3)), np.array([1.0, -2.0]))
    np.testing.assert_allclose(g, [3.0, 12.0], rtol=1e-8)
