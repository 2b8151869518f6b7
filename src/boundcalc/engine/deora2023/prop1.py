"""Single-head quantities of Prop. 1: gradient norms, Hessian norm, the decoder matrix and
the proposition's bounds.
"""
from __future__ import annotations

import numpy as np

from .. import ops
from .kernels import _forward, _tangent_and_hvp
from .ntk import _head_chunk, _head_jacobians
from .params import Array, MHAParams, _check_X


def head_gradient_norms(params: MHAParams, X: Array, *, max_bytes: float = 2e8) -> Array:
    """||grad_{theta_h} Phi(X_i; theta_h)|| of the single-head model (1), shape (n, H) (Prop. 1)."""
    X = _check_X(params, X)
    n, T, _ = X.shape
    out = np.empty((n, params.H))
    step = _head_chunk(params, n, T, max_bytes)
    for h0 in range(0, params.H, step):
        J = _head_jacobians(params.heads(slice(h0, h0 + step)), X, 1.0)
        out[:, h0:h0 + step] = np.sqrt(np.sum(J ** 2, axis=2))
    return out


def head_hessian_norm(params: MHAParams, x: Array, h: int = 0) -> float:
    """Spectral norm ||grad^2_{theta_h} Phi(x; theta_h)|| of head ``h`` at one sample x (T,d) (Prop. 1)."""
    if not 0 <= h < params.H:
        raise ValueError(f"head index h must be in [0, {params.H}), got {h}")
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError(f"x must be one sample of shape (T, d), got {x.shape}")
    sub = params.heads(slice(h, h + 1))
    X = _check_X(sub, x[None])
    f = _forward(sub, X, scale=1.0)
    one = np.ones(1)

    def mv(v):
        return _tangent_and_hvp(sub, f, one, sub.like(v), None)[1].flat()

    lo, hi = ops.extreme_eigenvalues(mv, sub.size)
    return float(max(abs(lo), abs(hi)))


def decoder_matrix(params: MHAParams, h: int, T: int) -> Array:
    """The T x d decoder U_h that head ``h`` applies (expanding 'pooling' / 'last')."""
    if params.decoder == "full":
        return params.U[h].copy()
    if params.decoder == "pooling":
        return np.tile(params.U[h], (T, 1))
    out = np.zeros((T, params.d))
    out[-1] = params.U[h]
    return out


def prop1_bounds(x: Array, U: Array) -> tuple[float, float]:
    """Right-hand sides of Prop. 1 for one sample x (T,d) and decoder matrix U (T,d):

        ||grad Phi||    <= 2 ||X||_{2,inf}^2 sum_t ||X u_t||_inf + sqrt(T) ||X||_{2,inf}
        ||grad^2 Phi||  <= 6 d ||X||_{2,inf}^2 ||X||_{1,inf}^2 sum_t ||X u_t||_inf
                           + 2 sqrt(T d) ||X||_{2,inf}^2 ||X||_{1,inf}

    with ||X||_{2,inf} = max_t ||x_t|| and ||X||_{1,inf} = max_{t,j} |X_tj| (Sec. 2 notation).
    """
    x = np.asarray(x, dtype=np.float64)
    U = np.asarray(U, dtype=np.float64)
    if x.ndim != 2 or U.shape != x.shape:
        raise ValueError(f"x and U must both have shape (T, d), got {x.shape} and {U.shape}")
    T, d = x.shape
    n2inf = float(np.max(np.linalg.norm(x, axis=1)))
    n1inf = float(np.max(np.abs(x)))
    s = float(np.sum(np.max(np.abs(x @ U.T), axis=0)))     # sum_t ||X u_t||_inf
    g = 2 * n2inf ** 2 * s + np.sqrt(T) * n2inf
    h = 6 * d * n2inf ** 2 * n1inf ** 2 * s + 2 * np.sqrt(T * d) * n2inf ** 2 * n1inf
    return float(g), float(h)
