"""The model and its loss: keys, attention, predictions, the loss with its gradients in p, W
and v, and Hessian-vector products in p.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boundcalc.engine import ops

Array = np.ndarray


def _arrays(X, Y, v, W, p):
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 3:
        raise ValueError(f"X must have shape (n, T, d), got {X.shape}")
    n, _T, d = X.shape
    Y = np.asarray(Y, dtype=np.float64)
    if Y.shape != (n,) or not np.all(np.isin(Y, (-1.0, 1.0))):
        raise ValueError(f"Y must be a ({n},) array of -1/+1 labels")
    v = np.asarray(v, dtype=np.float64)
    if v.shape != (d,):
        raise ValueError(f"v must have shape ({d},), got {v.shape}")
    W = np.asarray(W, dtype=np.float64)
    if W.shape != (d, d):
        raise ValueError(f"W must have shape ({d}, {d}), got {W.shape}")
    p = np.asarray(p, dtype=np.float64)
    if p.shape != (d,):
        raise ValueError(f"p must have shape ({d},), got {p.shape}")
    return X, Y, v, W, p


def _contract(A: Array, c: Array) -> Array:
    """sum_{n,t} c_nt A_ntd as one GEMV (A: (n, T, d), c: (n, T))."""
    return c.reshape(-1) @ A.reshape(-1, A.shape[2])


def keys(X, W) -> Array:
    """K_i = X_i W^T for every input: (n, T, d)."""
    return np.asarray(X, dtype=np.float64) @ np.asarray(W, dtype=np.float64).T


def attention(X, W, p) -> Array:
    """Softmax attention s_i = S(K_i p): (n, T)."""
    return ops.softmax(keys(X, W) @ np.asarray(p, dtype=np.float64), axis=1)


def attention_features(X, W, p) -> Array:
    """x^p_i = X_i^T S(K_i p) (Sec. 3): (n, d)."""
    s = attention(X, W, p)
    return np.einsum("nt,ntd->nd", s, np.asarray(X, dtype=np.float64))


def predict(X, v, W, p) -> Array:
    """f(X_i) = v^T X_i^T S(K_i p): (n,)."""
    return attention_features(X, W, p) @ np.asarray(v, dtype=np.float64)


def _centred(z: Array, s: Array) -> Array:
    """z_t - s^T z along the last axis, without cancellation when s is nearly one-hot: with
    t* = argmax_t s_t, z_t - s^T z = (z_t - z_t*) + sum_tau s_tau (z_t* - z_tau), whose
    second term only involves the small weights s_tau, tau != t*."""
    star = np.argmax(s, axis=-1)
    zs = np.take_along_axis(z, star[..., None], axis=-1)
    return (z - zs) + np.sum(s * (zs - z), axis=-1, keepdims=True)


def _grad_p_keys(keys: Array, gamma: Array, p: Array, d1) -> tuple[Array, Array]:
    """(15a) grad_p L = (1/n) sum_i l'_i K_i^T S'(K_i p) gamma_i from precomputed keys
    K_i = X_i W^T and scores gamma_it = Y_i v^T x_it, and the softmax s.

    Unbatched: keys (n, T, d), gamma (n, T), p (d,). Batched (independent problems along a
    leading axis B): keys (B, n, T, d), gamma (B, n, T), p (B, d); every problem gets the
    same arithmetic as alone except that its two contractions run as one batched GEMM
    (one matrix-vector product per problem, over its n T keys).
    """
    batched = keys.ndim == 4
    n = keys.shape[-3]
    T, d = keys.shape[-2:]
    if batched:                                  # one matrix-vector product per problem
        B = keys.shape[0]
        z = (keys.reshape(B, n * T, d) @ p[:, :, None]).reshape(B, n, T)
    else:
        z = (keys.reshape(n * T, d) @ p).reshape(n, T)
    z -= np.max(z, axis=-1, keepdims=True)       # the softmax (ops.softmax), in place
    s = np.exp(z, out=z)
    s /= np.sum(s, axis=-1, keepdims=True)
    # _centred(gamma, s), with its t* and its value there reused for the margin:
    # c_t* = (gamma_t* - gamma_t*) + sc = sc exactly, so m = gamma_t* - sc
    star = np.argmax(s, axis=-1)[..., None]
    gs = np.take_along_axis(gamma, star, axis=-1)
    sc = np.sum(s * (gs - gamma), axis=-1, keepdims=True)
    c = (gamma - gs) + sc
    m = (gs - sc)[..., 0]
    ga = (d1(m) / n)[..., None] * s * c
    if batched:
        return (ga.reshape(B, 1, n * T) @ keys.reshape(B, n * T, d))[:, 0, :], s
    return ga.reshape(-1) @ keys.reshape(-1, d), s


@dataclass(frozen=True)
class _Pass:
    K: Array       # (n, T, d) keys
    s: Array       # (n, T) attention
    gamma: Array   # (n, T) scores Y_i x_it^T v
    c: Array       # (n, T) gamma_it - m_i (computed by _centred)
    m: Array       # (n,) margins Y_i f(X_i)
    dl: Array      # (n,) l'(m_i)
    ga: Array      # (n, T) dL/d(K_i p) = (1/n) l'_i S'(a_i) gamma_i


def _pass(X, Y, v, W, p, loss: str, dtype=np.float64) -> tuple[float, _Pass]:
    lf, d1, _ = ops.margin_loss(loss)
    X, Y, v, W, p = _arrays(X, Y, v, W, p)
    if dtype != np.float64:                 # the arithmetic of one step in single precision
        X, Y, v, W, p = (a.astype(dtype) for a in (X, Y, v, W, p))
    n, T, d = X.shape
    K = (X.reshape(n * T, d) @ W.T).reshape(n, T, d)
    s = ops.softmax(K @ p, axis=1)
    gamma = Y[:, None] * (X @ v)
    c = _centred(gamma, s)
    star = np.argmax(s, axis=1)
    m = gamma[np.arange(X.shape[0]), star] - c[np.arange(X.shape[0]), star]
    dl = d1(m)
    n = X.shape[0]
    ga = (dl / n)[:, None] * s * c                      # S'(a) gamma = s * (gamma - s^T gamma)
    return float(np.mean(lf(m))), _Pass(K, s, gamma, c, m, dl, ga)


def loss_value(X, Y, v, W, p, loss: str = "logistic") -> float:
    """L(v, p, W) of (1)."""
    return _pass(X, Y, v, W, p, loss)[0]


def grad_p(X, Y, v, W, p, loss: str = "logistic") -> Array:
    """(15a): grad_p L = (1/n) sum_i l'_i K_i^T S'(K_i p) gamma_i."""
    _, P = _pass(X, Y, v, W, p, loss)
    return _contract(P.K, P.ga)


def grad_W(X, Y, v, W, p, loss: str = "logistic") -> Array:
    """(15b): grad_W L = (1/n) sum_i l'_i p gamma_i^T S'(K_i p) X_i  (d x d)."""
    _, P = _pass(X, Y, v, W, p, loss)
    return np.outer(np.asarray(p, dtype=np.float64), _contract(np.asarray(X, dtype=np.float64), P.ga))


def grad_v(X, Y, v, W, p, loss: str = "logistic") -> Array:
    """grad_v L = (1/n) sum_i l'_i Y_i X_i^T S(K_i p)."""
    _, P = _pass(X, Y, v, W, p, loss)
    n = P.s.shape[0]
    Y = np.asarray(Y, dtype=np.float64)
    return _contract(np.asarray(X, dtype=np.float64), (P.dl * Y / n)[:, None] * P.s)


def value_and_grads(X, Y, v, W, p, loss: str = "logistic",
                    dtype="float64") -> tuple[float, Array, Array, Array]:
    """(L, grad_v, grad_p, grad_W) from one forward pass (``dtype`` 'float32': computed in
    single precision, returned as float64)."""
    dt = ops.check_dtype(dtype)
    val, P = _pass(X, Y, v, W, p, loss, dt)
    X = np.asarray(X, dtype=dt)
    n = X.shape[0]
    gv = _contract(X, (P.dl * np.asarray(Y, dtype=dt) / n)[:, None] * P.s)
    gp = _contract(P.K, P.ga)
    gW = np.outer(np.asarray(p, dtype=dt), _contract(X, P.ga))
    f64 = np.float64
    return val, np.asarray(gv, dtype=f64), np.asarray(gp, dtype=f64), np.asarray(gW, dtype=f64)


def hvp_p_operator(X, Y, v, W, p, loss: str = "logistic"):
    """u -> nabla_p^2 L(p) u, with the forward pass at p computed once.

    With a_i = K_i p, delta a_i = K_i u, delta s_i = S'(a_i) delta a_i and
    delta m_i = s_i^T((gamma_i - m_i) * delta a_i) (centred sums by ``_centred``):
    H u = (1/n) sum_i K_i^T [ l''_i delta m_i s_i*(gamma_i - m_i)
                              + l'_i (delta s_i*(gamma_i - m_i) - s_i delta m_i) ].
    """
    _, _, d2 = ops.margin_loss(loss)
    _, P = _pass(X, Y, v, W, p, loss)
    n, _, d = P.K.shape
    w2 = d2(P.m) / n
    w1 = P.dl / n

    def hvp(u) -> Array:
        u = np.asarray(u, dtype=np.float64)
        if u.shape != (d,):
            raise ValueError(f"u must have shape ({d},), got {u.shape}")
        da = P.K @ u
        ds = P.s * _centred(da, P.s)
        dm = np.sum(P.s * P.c * da, axis=1)
        dga = (w2 * dm)[:, None] * P.s * P.c + w1[:, None] * (ds * P.c - P.s * dm[:, None])
        return _contract(P.K, dga)

    return hvp


def hvp_p(X, Y, v, W, p, u, loss: str = "logistic") -> Array:
    """Hessian-vector product nabla_p^2 L(p) u (see ``hvp_p_operator``)."""
    return hvp_p_operator(X, Y, v, W, p, loss)(u)


def hessian_extremes_p(X, Y, v, W, p, loss: str = "logistic", **kw) -> tuple[float, float]:
    """(lambda_min, lambda_max) of nabla_p^2 L(p) by HVP + Lanczos (``ops.extreme_eigenvalues``);
    max(|lambda_min|, |lambda_max|) is the local smoothness to compare with L_p of (24)."""
    d = np.asarray(p).shape[0]
    return ops.extreme_eigenvalues(hvp_p_operator(X, Y, v, W, p, loss), d, **kw)
