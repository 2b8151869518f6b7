"""Per-sample Jacobians, the NTK features and Gram matrix, and the NTK margin.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .kernels import _attn_adjoint, _forward
from .model import model_vjp
from .params import Array, MHAParams, _check_X, _check_y


def _head_jacobians(params: MHAParams, X: Array, scale: float) -> Array:
    """Per-sample Jacobians of the scaled model restricted to ``params``' heads.

    Returns (n, H_sub, per_head_size): row i, head h is grad_{theta_h} (scale * Phi(X_i; theta_h)).
    """
    n, T, d = X.shape
    H = params.H
    f = _forward(params, X, scale=scale)
    Tq = f.Q.shape[1]
    JUe = scale * f.O.reshape(n, Tq, H, d)
    if params.decoder == "full":
        JU = JUe.transpose(0, 2, 1, 3).reshape(n, H, T * d)
    elif params.decoder == "pooling":
        JU = JUe.sum(axis=1)
    else:
        JU = JUe[:, 0]
    B = np.matmul(_attn_adjoint(f, f.Ueff).transpose(0, 2, 1), X)      # (n, Tq*H, d)
    JW = np.matmul(f.Q.transpose(0, 2, 1), B.reshape(n, Tq, H * d))       # (n, d, H*d)
    JW = scale * JW.reshape(n, d, H, d).transpose(0, 2, 1, 3).reshape(n, H, d * d)
    return np.concatenate([JU.reshape(n, H, -1), JW], axis=2)


def _head_chunk(params: MHAParams, n: int, T: int, max_bytes: float) -> int:
    Tq = 1 if params.decoder == "last" else T
    per_head = 8.0 * n * (3 * Tq * T + 2 * Tq * params.d + 2 * params.per_head_size)
    return int(max(1, min(params.H, max_bytes // per_head)))


def ntk_features(params: MHAParams, X: Array, *, max_bytes: float = 2e8) -> Array:
    """Empirical NTK features grad_theta Phi~(X_i; theta) as an (n, H*per_head_size) array.

    Column order is that of :meth:`MHAParams.flat`.  Computed head-chunk by head-chunk with
    the analytic per-head Jacobians; the result itself is dense (use :func:`ntk_gram` when
    n * H * per_head_size is large).
    """
    X = _check_X(params, X)
    n, T, _ = X.shape
    out = np.empty((n, params.H, params.per_head_size))
    step = _head_chunk(params, n, T, max_bytes)
    s = 1.0 / np.sqrt(params.H)
    for h0 in range(0, params.H, step):
        out[:, h0:h0 + step] = _head_jacobians(params.heads(slice(h0, h0 + step)), X, s)
    return out.reshape(n, -1)


def ntk_gram(params: MHAParams, X: Array, *, max_bytes: float = 2e8,
             sample_chunk: int | None = None) -> Array:
    """Empirical NTK Gram matrix K_ij = <grad Phi~(X_i; theta), grad Phi~(X_j; theta)>.

    Memory-aware: K = sum over head chunks of J_c J_c^T, where J_c (n, |chunk| * p_h) is the
    per-head analytic Jacobian of one chunk of heads; the chunk size keeps the temporaries
    under ``max_bytes``.  ``sample_chunk`` additionally splits the samples when building
    each J_c (useful when n is very large).
    """
    X = _check_X(params, X)
    n, T, _ = X.shape
    K = np.zeros((n, n))
    s = 1.0 / np.sqrt(params.H)
    step = _head_chunk(params, n, T, max_bytes)
    sc = n if sample_chunk is None else int(sample_chunk)
    if sc < 1:
        raise ValueError(f"sample_chunk must be >= 1, got {sample_chunk}")
    for h0 in range(0, params.H, step):
        sub = params.heads(slice(h0, h0 + step))
        J = np.concatenate([_head_jacobians(sub, X[i0:i0 + sc], s).reshape(min(sc, n - i0), -1)
                            for i0 in range(0, n, sc)], axis=0)
        K += J @ J.T
    return K


@dataclass
class NTKMargin:
    """NTK margin of P3: gamma = max_{||theta*|| = sqrt 2} min_i y_i <grad Phi~(X_i; theta_0), theta*>.

    ``gamma = sqrt(2) * geometric_margin`` where ``geometric_margin`` is the hard-margin
    (no bias) SVM margin of the features g_i = grad Phi~(X_i; theta_0); ``gamma <= 0`` (status
    'inseparable') means not NTK-separable.  ``theta_star`` is the maximiser,
    sqrt(2) w / ||w|| with w = sum_i alpha_i y_i g_i (None when inseparable).
    """

    gamma: float
    geometric_margin: float
    status: str
    theta_star: MHAParams | None
    result: object


def ntk_margin(params0: MHAParams, X: Array, y: Array, *, max_bytes: float = 2e8) -> NTKMargin:
    """NTK margin gamma of Definition 1 (P3), from the Gram matrix via ``svm.max_margin_gram``."""
    from ..svm import max_margin_gram

    X = _check_X(params0, X)
    y = _check_y(y, X.shape[0])
    res = max_margin_gram(ntk_gram(params0, X, max_bytes=max_bytes), y)
    gm = float(res.margin)
    theta = None
    if res.status == "optimal":
        w = model_vjp(params0, X, np.asarray(res.alpha) * y)
        theta = w.like(np.sqrt(2.0) * w.flat() / np.linalg.norm(w.flat()))
    return NTKMargin(np.sqrt(2.0) * gm, gm, str(res.status), theta, res)
