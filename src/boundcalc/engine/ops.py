"""Numerical primitives shared by every engine model (float64, NumPy only).

Stable softmax / log-sum-exp, the losses the four papers use with their first and
second derivatives, a seeded RNG helper, Lanczos extreme eigenvalues from a
Hessian-vector product, and a central finite-difference checker for tests.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

Array = np.ndarray


def rng(seed: int | None) -> np.random.Generator:
    """The one way the engine makes random numbers: PCG64 seeded explicitly."""
    return np.random.default_rng(seed)


def softmax(z: Array, axis: int = -1) -> Array:
    """Numerically stable softmax along ``axis``."""
    z = z - np.max(z, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)


#: Largest |logit| for which a fused step computes the softmax without subtracting the
#: maximum (its caller proves the bound, e.g. by Cauchy-Schwarz: see
#: ``engine.arda2026.logit_bound``). exp(600) = 3.8e260 and exp(-600) = 2.6e-261 are normal
#: float64 numbers, so every exponential, a sum of up to 10^47 of them and the reciprocal of
#: that sum are finite, normal and carry exp's own relative accuracy (a few ulp): the
#: accuracy of the max-shifted softmax, whose subtraction rounds too. float32 overflows at
#: exp(88.7) and leaves its normal range below exp(-87.3): its limit is 80 (sums of up to
#: 10^3 terms stay finite).
LOGIT_LIMIT = {np.dtype(np.float64): 600.0, np.dtype(np.float32): 80.0}


def check_dtype(dtype) -> np.dtype:
    """'float64' (the default everywhere) or 'float32': the precision of a fused step."""
    try:
        dt = np.dtype(dtype)
    except TypeError:
        dt = None
    if dt not in LOGIT_LIMIT:
        raise ValueError(f"dtype must be 'float64' or 'float32', got {dtype!r}")
    return dt


def max_norm(a: Array, axis: int = -1) -> float:
    """max over the other axes of the Euclidean norm along ``axis`` (float64)."""
    a = np.asarray(a, dtype=np.float64)
    return float(np.sqrt(np.max(np.sum(a * a, axis=axis))))


def softmax_needs_shift(bound: float, dtype) -> bool:
    """Whether logits bounded in absolute value by ``bound`` need the max subtraction."""
    return not (bound <= LOGIT_LIMIT[np.dtype(dtype)])


def logsumexp(z: Array, axis: int = -1) -> Array:
    m = np.max(z, axis=axis, keepdims=True)
    return np.squeeze(m, axis=axis) + np.log(np.sum(np.exp(z - m), axis=axis))


# --- losses of the margin m = y f(x): value, first and second derivative -------------

def logistic(m: Array) -> Array:
    """log(1 + exp(-m)), stable for both signs."""
    return np.logaddexp(0.0, -m)


def logistic_d1(m: Array) -> Array:
    """d/dm log(1+e^{-m}) = -1/(1+e^{m}) = -exp(-log(1+e^{m})), accurate for large |m|
    (no cancellation: at m = 40 it is -4.25e-18, not 0)."""
    return -np.exp(-np.logaddexp(0.0, m))


def logistic_d2(m: Array) -> Array:
    """second derivative e^{m}/(1+e^{m})^2 = exp(-log(1+e^{m}) - log(1+e^{-m}))."""
    return np.exp(-np.logaddexp(0.0, m) - np.logaddexp(0.0, -m))


def exponential(m: Array) -> Array:
    return np.exp(-m)


def exponential_d1(m: Array) -> Array:
    return -np.exp(-m)


def exponential_d2(m: Array) -> Array:
    return np.exp(-m)


def correlation(m: Array) -> Array:
    """Correlation loss l(m) = -m (Tarzanagh et al.)."""
    return -m


def correlation_d1(m: Array) -> Array:
    return -np.ones_like(m)


def correlation_d2(m: Array) -> Array:
    return np.zeros_like(m)


LOSSES: dict[str, tuple[Callable[[Array], Array], Callable[[Array], Array], Callable[[Array], Array]]] = {
    "logistic": (logistic, logistic_d1, logistic_d2),
    "exponential": (exponential, exponential_d1, exponential_d2),
    "correlation": (correlation, correlation_d1, correlation_d2),
}


def margin_loss(name: str):
    """(value, d1, d2) of a margin loss by name; unknown names raise ValueError."""
    try:
        return LOSSES[name]
    except KeyError:
        raise ValueError(f"unknown loss {name!r}; choose one of {sorted(LOSSES)}") from None


# --- BLAS threading --------------------------------------------------------------------

_BLAS_CONTROLLER = None


def single_threaded_blas():
    """Context manager limiting the BLAS behind NumPy to one thread (via threadpoolctl).

    For loops of many tiny GEMMs (cache-sized blocks) multithreading only adds
    synchronisation, which becomes very costly when cores are shared; inside this context
    each GEMM runs on the calling thread.  A no-op if threadpoolctl is unavailable.
    """
    global _BLAS_CONTROLLER
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:                      # pragma: no cover - threadpoolctl ships with sklearn
        import contextlib
        return contextlib.nullcontext()
    if _BLAS_CONTROLLER is None:
        _BLAS_CONTROLLER = ThreadpoolController()
    return _BLAS_CONTROLLER.limit(limits=1, user_api="blas")


# --- argument checks shared by the training loops ----------------------------------

def check_schedule(lr: float, steps: int, record_every: int) -> None:
    """Validate a GD schedule: positive finite step, integer steps >= 0, recording period >= 1."""
    if not np.isfinite(lr) or lr <= 0:
        raise ValueError(f"lr must be a positive number, got {lr}")
    if int(steps) != steps or steps < 0:
        raise ValueError(f"steps must be a non-negative integer, got {steps}")
    if int(record_every) != record_every or record_every < 1:
        raise ValueError(f"record_every must be a positive integer, got {record_every}")


# --- spectra from Hessian-vector products --------------------------------------------

def extreme_eigenvalues(hvp: Callable[[Array], Array], dim: int, *, tol: float = 1e-8,
                        seed: int = 0, dense_below: int = 200) -> tuple[float, float]:
    """(lambda_min, lambda_max) of a symmetric operator given by ``hvp``.

    Uses ARPACK's Lanczos (scipy.sparse.linalg.eigsh) on a LinearOperator; only for
    ``dim < dense_below`` is the matrix materialised column by column and solved
    densely (cheaper and exact there).
    """
    from scipy.sparse.linalg import LinearOperator, eigsh

    if dim < dense_below:
        eye = np.eye(dim)
        mat = np.column_stack([hvp(eye[:, j]) for j in range(dim)])
        w = np.linalg.eigvalsh(0.5 * (mat + mat.T))
        return float(w[0]), float(w[-1])
    op = LinearOperator((dim, dim), matvec=hvp, dtype=np.float64)
    v0 = rng(seed).standard_normal(dim)
    lmax = eigsh(op, k=1, which="LA", tol=tol, v0=v0, return_eigenvectors=False)[0]
    lmin = eigsh(op, k=1, which="SA", tol=tol, v0=v0, return_eigenvectors=False)[0]
    return float(lmin), float(lmax)


# --- finite differences (tests) -------------------------------------------------------

def finite_difference_grad(f: Callable[[Array], float], x: Array, eps: float = 1e-6) -> Array:
    """Central finite-difference gradient of a scalar function of a flat vector."""
    x = np.asarray(x, dtype=np.float64)
    g = np.empty_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g
