"""The model and its loss: outputs, loss and gradient, Hessian- and Jacobian-vector products.
"""
from __future__ import annotations

import numpy as np

from .. import ops
from .kernels import (
    _auto_chunk,
    _backward,
    _forward,
    _loss_grad_blocks,
    _tangent_and_hvp,
    _to_params,
)
from .params import Array, MHAParams, _check_chunk, _check_same, _check_X, _check_y


def _phi_blocks(params: MHAParams, X: Array, scale: float | None = None) -> Array:
    n, T, _ = X.shape
    Tq = 1 if params.decoder == "last" else T
    step = _auto_chunk(n, T, Tq * params.H)
    return np.concatenate([_forward(params, X[i:i + step], scale).phi for i in range(0, n, step)])


def forward(params: MHAParams, X: Array) -> Array:
    """Phi~(X_i; theta) for every sample, eq. (2). Returns shape (n,)."""
    X = _check_X(params, X)
    return _phi_blocks(params, X)


def head_outputs(params: MHAParams, X: Array) -> Array:
    """Unscaled single-head outputs Phi(X_i; U_h, W_h) (eq. (1)), shape (n, H)."""
    X = _check_X(params, X)
    f = _forward(params, X, scale=1.0)
    n = X.shape[0]
    Tq = f.Q.shape[1]
    return np.einsum("nthd,thd->nh", f.O.reshape(n, Tq, params.H, -1), f.Ueff)


def _tangent_blocks(params: MHAParams, X: Array, V: MHAParams | None, coeffs,
                    chunk: int | None) -> tuple[Array, MHAParams]:
    """Run :func:`_tangent_and_hvp` (or, with V None, :func:`_backward`) block by block.

    ``coeffs(sl, phi_block) -> (c_block, cdot_of or None)`` gives each block's weights; all
    weights are per-sample, so summing the blocks is exact.  Returns (phidot (n,), sum).
    """
    n, T, _d = X.shape
    Tq = 1 if params.decoder == "last" else T
    _check_chunk(chunk)
    step = int(chunk) if chunk is not None else max(1, _auto_chunk(n, T, Tq * params.H) // 4)
    phid = np.zeros(n)
    gU = np.zeros_like(params.U)
    gW = np.zeros_like(params.W)
    with ops.single_threaded_blas():
        for i0 in range(0, n, step):
            sl = slice(i0, i0 + step)
            f = _forward(params, X[sl])
            c, cdot_of = coeffs(sl, f.phi)
            if V is None:
                g = _to_params(params, *_backward(params, f, c))
            else:
                phid[sl], g = _tangent_and_hvp(params, f, c, V, cdot_of)
            gU += g.U
            gW += g.W
    return phid, MHAParams(gU, gW, params.decoder)


def model_vjp(params: MHAParams, X: Array, c: Array, *, chunk: int | None = None) -> MHAParams:
    """sum_i c_i grad_theta Phi~(X_i; theta) (Lemma 1, summed over heads with H^{-1/2})."""
    X = _check_X(params, X)
    c = np.asarray(c, dtype=np.float64)
    if c.shape != (X.shape[0],):
        raise ValueError(f"c must have shape ({X.shape[0]},), got {c.shape}")
    return _tangent_blocks(params, X, None, lambda sl, phi: (c[sl], None), chunk)[1]


def loss(params: MHAParams, X: Array, y: Array, loss: str = "logistic") -> float:
    """Empirical risk L^(theta) = (1/n) sum_i l(y_i Phi~(X_i; theta)) (Sec. 2)."""
    X = _check_X(params, X)
    return _risk(params, X, _check_y(y, X.shape[0]), loss)


def _risk(params: MHAParams, X: Array, y: Array, loss_name: str) -> float:
    lf = ops.margin_loss(loss_name)[0]
    return float(np.mean(lf(y * _phi_blocks(params, X))))


def loss_and_grad(params: MHAParams, X: Array, y: Array, loss: str = "logistic", *,
                  chunk: int | None = None) -> tuple[float, MHAParams]:
    """(L^(theta), grad L^(theta)) with the analytic gradient of Lemma 1.

    ``chunk``: samples per block of the fused forward/backward (None: automatic, sized for
    cache; any value gives the same gradient up to floating-point summation order).
    """
    X = _check_X(params, X)
    y = _check_y(y, X.shape[0])
    _check_chunk(chunk)
    L, gU, gWr = _loss_grad_blocks(params, X, y, loss, chunk)
    return L, _to_params(params, gU, gWr)


def hvp(params: MHAParams, X: Array, y: Array, v: MHAParams | Array,
        loss: str = "logistic", *, chunk: int | None = None) -> MHAParams:
    """Hessian-vector product  grad^2 L^(theta) v, exact (analytic forward-over-reverse).

    grad^2 L^ v = (1/n) sum_i [ l''(m_i) <grad Phi~_i, v> grad Phi~_i + l'(m_i) y_i grad^2 Phi~_i v ],
    m_i = y_i Phi~(X_i).  ``v`` is an :class:`MHAParams` or a flat vector.  Computed in
    sample blocks of ``chunk`` (None: automatic), so memory stays bounded for large n.
    """
    X = _check_X(params, X)
    y = _check_y(y, X.shape[0])
    V = _as_params(params, v)
    _, l1, l2 = ops.margin_loss(loss)
    n = X.shape[0]

    def coeffs(sl, phi):
        yb = y[sl]
        m = yb * phi
        w2 = l2(m) * yb * yb / n
        return l1(m) * yb / n, (lambda phid: w2 * phid)

    return _tangent_blocks(params, X, V, coeffs, chunk)[1]


def _as_params(params: MHAParams, v) -> MHAParams:
    if isinstance(v, MHAParams):
        _check_same(params, v)
        return v
    return params.like(v)


def model_hvp(params: MHAParams, X: Array, c: Array, v: MHAParams | Array, *,
              chunk: int | None = None) -> MHAParams:
    """(sum_i c_i grad^2 Phi~(X_i; theta)) v: the model Hessian contracted with weights c."""
    X = _check_X(params, X)
    c = np.asarray(c, dtype=np.float64)
    if c.shape != (X.shape[0],):
        raise ValueError(f"c must have shape ({X.shape[0]},), got {c.shape}")
    return _tangent_blocks(params, X, _as_params(params, v), lambda sl, phi: (c[sl], None),
                           chunk)[1]


def model_jvp(params: MHAParams, X: Array, v: MHAParams | Array, *,
              chunk: int | None = None) -> Array:
    """<grad Phi~(X_i; theta), v> for every sample (forward-mode tangent), shape (n,)."""
    X = _check_X(params, X)
    zero = np.zeros(X.shape[0])
    return _tangent_blocks(params, X, _as_params(params, v), lambda sl, phi: (zero[sl], None),
                           chunk)[0]
