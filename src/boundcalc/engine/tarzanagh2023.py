"""The attention model of Tarzanagh, Li, Zhang, Oymak (NeurIPS 2023), *Max-Margin Token
Selection in Attention Mechanism*: analytic gradients, Hessian-vector products, (normalised)
gradient descent and the measurements of its theorems and experiments.

Model (eq. (1)/(5), with the transpose convention of ``notes/tarzanagh2023.md`` §1):

    f(X) = v^T X^T S(K p),   K = X W^T  (k_t = W x_t),   S = softmax,
    L(v, p, W) = (1/n) sum_i l(Y_i f(X_i))                                      (1)/(ERM)

X_i in R^{T x d} (array X of shape (n, T, d)), Y_i in {-1, +1}, loss l in
{'logistic', 'exponential', 'correlation'} (``ops.margin_loss``).
Token scores (Def. 1): gamma_it = Y_i v^T x_it, so Y_i f(X_i) = gamma_i^T s_i.

Gradients (App. A, (15a)-(15b)), with s_i = S(K_i p), S'(a) = diag(S(a)) - S(a)S(a)^T
and l'_i = l'(Y_i f(X_i)):

    grad_p L = (1/n) sum_i l'_i K_i^T S'(K_i p) gamma_i                          (15a)
    grad_W L = (1/n) sum_i l'_i p gamma_i^T S'(K_i p) X_i                        (15b)
    grad_v L = (1/n) sum_i l'_i Y_i X_i^T s_i

Everything is float64 and vectorised over the n inputs (no Python loop over samples),
except that GD (:func:`gd_p`, :func:`train`) takes ``dtype='float32'``: each step's
forward/backward arithmetic then runs in single precision while the iterates, their updates
and every recorded number stay float64 (as in the other engines, ``ops.check_dtype``).
The SVM problems ((ATT-SVM), (SVM), (10), Defs. 2-3) live in ``engine.svm``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boundcalc.engine import ops, svm
from boundcalc.engine.data.tokens import TokenDataset

Array = np.ndarray


# --- forward pass ---------------------------------------------------------------------

def _arrays(X, Y, v, W, p):
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 3:
        raise ValueError(f"X must have shape (n, T, d), got {X.shape}")
    n, T, d = X.shape
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
    same arithmetic as alone except that its two contractions run as one batched GEMM.
    """
    batched = keys.ndim == 4
    n = keys.shape[-3]
    z = (keys @ p[:, None, :, None])[..., 0] if batched else keys @ p
    s = ops.softmax(z, axis=-1)
    c = _centred(gamma, s)
    star = np.argmax(s, axis=-1)[..., None]
    m = (np.take_along_axis(gamma, star, axis=-1) - np.take_along_axis(c, star, axis=-1))[..., 0]
    ga = (d1(m) / n)[..., None] * s * c
    if batched:
        B, _, T, d = keys.shape
        return (ga.reshape(B, 1, n * T) @ keys.reshape(B, n * T, d))[:, 0, :], s
    return ga.reshape(-1) @ keys.reshape(-1, keys.shape[2]), s


def gd_p(keys: Array, gamma: Array, p0: Array, *, lr: float, steps: int, loss: str,
         normalized: bool, record=(), dtype="float64") -> dict:
    """GD (3) on p alone (W, v fixed, through the keys and scores) from p0:
    p <- p - lr g, or p <- p - lr g/||g|| (``normalized``). Returns the final p, the
    gradient norm at every iterate 0..steps and the iterates at the steps in ``record``.

    With a leading batch axis (see :func:`_grad_p_keys`) B independent problems advance in
    lock-step: p0 (B, d), the results (B, d), (B, steps + 1) and {step: (B, d)}. A
    non-finite gradient or iterate raises :class:`~boundcalc.engine.budget.Divergence`
    (batched: naming the first problem that diverged, ``where="problem b"``).
    ``dtype`` 'float32' evaluates each gradient (15a) in single precision (keys and scores
    cast once); p, its update and the recorded norms stay float64.
    """
    from .budget import Divergence

    _, d1, _ = ops.margin_loss(loss)
    dt = ops.check_dtype(dtype)
    keys = np.asarray(keys, dtype=dt)
    gamma = np.asarray(gamma, dtype=dt)
    p = np.array(p0, dtype=np.float64)
    batched = keys.ndim == 4
    gnorm = np.empty(p.shape[:-1] + (steps + 1,))
    rec = {}
    want = set(int(r) for r in record)
    for t in range(steps + 1):
        g, _ = _grad_p_keys(keys, gamma, p if dt == np.float64 else p.astype(dt), d1)
        g = np.asarray(g, dtype=np.float64)
        norm = (lambda a: np.linalg.norm(a, axis=-1)) if batched else np.linalg.norm
        gn = norm(g)
        ok = np.isfinite(gn) & np.isfinite(norm(p))
        if not np.all(ok):
            raise Divergence(t, "gradient or iterate",
                             f"problem {int(np.flatnonzero(~ok)[0])}" if batched else "")
        gnorm[..., t] = gn
        if t in want:
            rec[t] = p.copy()
        if t == steps:
            break
        if not normalized:
            p = p - lr * g
        elif batched:
            pos = gn > 0
            p = p - np.where(pos, lr / np.where(pos, gn, 1.0), 0.0)[:, None] * g
        elif gn > 0:
            p = p - (lr / float(gn)) * g
    return {"p": p, "grad_norm": gnorm, "record": rec}


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
    return val, *(np.asarray(g, dtype=np.float64) for g in (gv, gp, gW))


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


# --- the smoothness constant (6)/(24) --------------------------------------------------

def loss_constants(loss: str, lo: float, hi: float) -> tuple[float, float]:
    """Assumption A on the interval [lo, hi]: (M0, M1) with M0 = sup |l''| (the Lipschitz
    constant of l') and M1 = sup |l'| over [lo, hi], in closed form:
    logistic M1 = 1/(1+e^{lo}), M0 = 1/4 if 0 in [lo, hi] else max l''(lo), l''(hi);
    exponential M1 = M0 = e^{-lo}; correlation M1 = 1, M0 = 0."""
    lo, hi = float(lo), float(hi)
    if not (lo <= hi) or not np.isfinite(lo) or not np.isfinite(hi):
        raise ValueError(f"need a finite interval lo <= hi, got [{lo}, {hi}]")
    _, d1, d2 = ops.margin_loss(loss)
    if loss == "logistic":
        M0 = 0.25 if lo <= 0.0 <= hi else float(max(d2(np.array(lo)), d2(np.array(hi))))
        return M0, float(-d1(np.array(lo)))
    if loss == "exponential":
        return float(np.exp(-lo)), float(np.exp(-lo))
    return 0.0, 1.0  # correlation


def smoothness_bound(X, Y, v, W, loss: str = "logistic", M0: float | None = None,
                     M1: float | None = None) -> float:
    """L_p of (6)/(24): (1/n) sum_i (M0 ||v||^2 ||W||^2 ||X_i||^4 + 3 M1 ||v|| ||W||^2 ||X_i||^3),
    spectral norms. By default (M0, M1) = ``loss_constants`` on the range
    [min gamma_it, max gamma_it] of the margins Y_i f(X_i) (a convex combination of scores)."""
    X, Y, v, W, _ = _arrays(X, Y, v, W, np.zeros(np.asarray(v).shape))
    if M0 is None or M1 is None:
        g = Y[:, None] * (X @ v)
        c0, c1 = loss_constants(loss, float(g.min()), float(g.max()))
        M0 = c0 if M0 is None else M0
        M1 = c1 if M1 is None else M1
    xs = np.linalg.norm(X, ord=2, axis=(1, 2))
    nv, nW = np.linalg.norm(v), np.linalg.norm(W, 2)
    return float(np.mean(M0 * nv**2 * nW**2 * xs**4 + 3 * M1 * nv * nW**2 * xs**3))


# --- measurements -------------------------------------------------------------------

def correlation(p, q) -> float:
    """<p/||p||, q/||q||> (the cone condition (7) reads correlation >= 1 - mu)."""
    p, q = np.asarray(p, dtype=np.float64), np.asarray(q, dtype=np.float64)
    npn, nq = np.linalg.norm(p), np.linalg.norm(q)
    if npn == 0 or nq == 0:
        raise ValueError("correlation of a zero vector is undefined")
    return float(p @ q / (npn * nq))


def saturation(X, W, p, alpha) -> float:
    """Mean attention mass on the tokens alpha: (1/n) sum_i S(K_i p)_{alpha_i} (Fig. 9's s-bar)."""
    s = attention(X, W, p)
    alpha = np.asarray(alpha)
    if alpha.shape != (s.shape[0],):
        raise ValueError(f"alpha must have shape ({s.shape[0]},), got {alpha.shape}")
    return float(np.mean(s[np.arange(s.shape[0]), alpha]))


def max_attention(X, W, p) -> float:
    """(1/n) sum_i max_t S(K_i p)_t (Fig. 3(c) red, Fig. 4(a))."""
    return float(np.mean(np.max(attention(X, W, p), axis=1)))


def logistic_probability(X, Y, v, W, p) -> float:
    """(1/n) sum_i 1/(1 + exp(-Y_i f(X_i))) (Fig. 3(c) blue)."""
    m = np.asarray(Y, dtype=np.float64) * predict(X, v, W, p)
    return float(np.mean(0.5 * (1.0 + np.tanh(0.5 * m))))


def soft_nnz(s) -> Array:
    """Sec. 4 soft sparsity nnz-hat(s) = ||s||_1 / ||s||_2^2 in [1, T], row-wise."""
    s = np.asarray(s, dtype=np.float64)
    return np.sum(np.abs(s), axis=-1) / np.sum(s * s, axis=-1)


def gmm(data: TokenDataset) -> svm.AttSVMResult:
    """The GMM direction p^mm* (Def. 1): (ATT-SVM) with alpha_i = opt_i = argmax_t gamma_it."""
    if data.v is None:
        raise ValueError("the GMM needs a fixed head v")
    scores = svm.token_scores(data.X, data.Y, data.v)
    return svm.att_svm(data.keys, svm.optimal_tokens(scores))


@dataclass(frozen=True)
class SelectionReport:
    """Fig. 9 classification of a GD solution p (App. E).

    ``alpha``: selected tokens argmax_t S(K_i p)_t; ``saturation``: s-bar; ``saturated``:
    s-bar >= 1 - sat_tol; ``svm``: (ATT-SVM) for alpha; ``locally_optimal``: Def. 2 (so
    p^mm(alpha) is an LMM); ``globally_optimal``: alpha_i maximises gamma_i for all i (so
    p^mm(alpha) is the GMM); ``correlation``: <p/||p||, p^mm/||p^mm||>; ``score_gap``:
    gamma-bar = min_{i, t in T_i} gamma_{i alpha_i} - gamma_it (Fig. 9(b)).
    """

    alpha: Array
    saturation: float
    saturated: bool
    svm: svm.AttSVMResult
    locally_optimal: bool
    globally_optimal: bool
    correlation: float
    score_gap: float


def selection_report(data: TokenDataset, p, sat_tol: float = 1e-5,
                     tol: float = svm.ACTIVE_TOL) -> SelectionReport:
    """Classify the limit of GD as in App. E / Fig. 9 (requires a fixed head v)."""
    if data.v is None:
        raise ValueError("selection_report needs a fixed head v")
    p = np.asarray(p, dtype=np.float64)
    s = ops.softmax(data.keys @ p, axis=1)            # attention(X, W, p) from the data set's keys
    alpha = np.argmax(s, axis=1)
    sbar = float(np.mean(s[np.arange(s.shape[0]), alpha]))
    res = svm.att_svm(data.keys, alpha)
    scores = svm.token_scores(data.X, data.Y, data.v)
    if not res.feasible:
        return SelectionReport(alpha, sbar, sbar >= 1 - sat_tol, res, False, False,
                               float("nan"), float("nan"))
    lo = svm.is_locally_optimal(scores, res, tol)
    best = scores[np.arange(scores.shape[0]), alpha] >= np.max(scores, axis=1) - tol
    corr = correlation(p, res.p) if np.any(p) else float("nan")
    return SelectionReport(alpha, sbar, sbar >= 1 - sat_tol, res, lo, bool(lo and np.all(best)),
                           corr, svm.min_neighbour_score_gap(scores, res, tol))


@dataclass(frozen=True)
class JointMaxMargin:
    """Sec. 3 targets for selected tokens alpha: (SVM) with r_i = x_{i alpha_i} (``v``,
    v^mm = v.solution), its support set S, (ATT-SVM) ``p_mm`` and relaxed (10) ``p_relax``."""

    v: svm.MarginResult
    support: Array
    p_mm: svm.AttSVMResult
    p_relax: svm.AttSVMResult


def joint_max_margin(data: TokenDataset, alpha, tol: float = svm.ACTIVE_TOL) -> JointMaxMargin:
    """Theorems 5-6: v^mm, S, p^mm(alpha) and p^relax (10)."""
    R = svm.selected_features(data.X, alpha)
    vres = svm.v_mm(R, data.Y)
    if vres.status != "optimal":
        raise ValueError(f"(SVM) with r_i = x_(i alpha_i) has no solution: {vres.status}")
    S = svm.support_vectors(R, data.Y, vres, tol)
    return JointMaxMargin(vres, S, svm.att_svm(data.keys, alpha),
                          svm.att_svm_relaxed(data.keys, alpha, S))


# --- gradient descent -----------------------------------------------------------------

@dataclass(frozen=True)
class Trajectory:
    """Recorded iterates of ``train``: index ``step`` (k,), parameters ``p`` (k, d), ``v``
    (k, d), ``W`` (k, d, d), ``loss`` (k,), ``grad_norm`` (k,) (Euclidean/Frobenius norm of
    the gradient of the trained block(s) at that iterate), ``max_attention`` (k,) and, if a
    reference direction was given, ``correlation`` (k,) = <p/||p||, ref/||ref||> (NaN at p = 0)."""

    step: Array
    p: Array
    v: Array
    W: Array
    loss: Array
    grad_norm: Array
    max_attention: Array
    correlation: Array | None


_PARAMS = ("p", "W", "vp")


def _unit(g: Array) -> Array:
    n = np.linalg.norm(g)
    return g / n if n > 0 else np.zeros_like(g)


def train(data: TokenDataset, *, params: str = "p", lr: float, steps: int,
          loss: str = "logistic", normalized: bool = False, p0=None, v0=None, W0=None,
          reference=None, record_every: int = 1, dtype="float64") -> Trajectory:
    """Full-batch gradient descent (3) on (1).

    params: 'p' (v, W fixed), 'W' (v, p fixed; Lemma 1's GD on W with p = u) or 'vp'
    (joint, W fixed). Update x <- x - lr * g, or with ``normalized`` x <- x - lr * g/||g||
    (App. E; for 'vp' each block's gradient is normalised separately; a zero gradient
    gives a zero step). Defaults: p0 = data.inits['p0'] if it is a single vector else 0,
    v0 = data.v (or data.inits['v0']), W0 = data.W. Records steps 0, r, 2r, ... and the last.
    ``dtype`` 'float32': each step's loss and gradients in single precision
    (:func:`value_and_grads`); the iterates and the recorded values stay float64.
    """
    dt = ops.check_dtype(dtype)
    if params not in _PARAMS:
        raise ValueError(f"params must be one of {_PARAMS}, got {params!r}")
    ops.check_schedule(lr, steps, record_every)
    ops.margin_loss(loss)
    d = data.X.shape[2]

    def pick(val, key, fallback):
        if val is not None:
            return np.array(val, dtype=np.float64)
        init = data.inits.get(key)
        if isinstance(init, np.ndarray):
            return init.astype(np.float64).copy()
        return fallback

    p = pick(p0, "p0", np.zeros(d))
    v = pick(v0, "v0", None if data.v is None else data.v.copy())
    if v is None:
        raise ValueError("no head v: pass v0 (the data set does not fix one)")
    W = np.array(data.W if W0 is None else W0, dtype=np.float64)
    ref = None if reference is None else np.asarray(reference, dtype=np.float64)
    X, Y = data.X, data.Y
    rec = {k: [] for k in ("step", "p", "v", "W", "loss", "gn", "att", "corr")}

    def record(t, val, g):
        rec["step"].append(t)
        rec["p"].append(p.copy())
        rec["v"].append(v.copy())
        rec["W"].append(W.copy())
        rec["loss"].append(val)
        rec["gn"].append(g)
        rec["att"].append(max_attention(X, W, p))
        if ref is not None:
            rec["corr"].append(correlation(p, ref) if np.any(p) else np.nan)

    for t in range(steps + 1):
        val, gv, gp, gW = value_and_grads(X, Y, v, W, p, loss, dt)
        if params == "p":
            gnorm = float(np.linalg.norm(gp))
        elif params == "W":
            gnorm = float(np.linalg.norm(gW))
        else:
            gnorm = float(np.sqrt(gv @ gv + gp @ gp))
        if t % record_every == 0 or t == steps:
            record(t, val, gnorm)
        if t == steps:
            break
        if params == "p":
            p = p - lr * (_unit(gp) if normalized else gp)
        elif params == "W":
            W = W - lr * (_unit(gW) if normalized else gW)
        else:
            v, p = (v - lr * (_unit(gv) if normalized else gv),
                    p - lr * (_unit(gp) if normalized else gp))
    return Trajectory(np.array(rec["step"]), np.array(rec["p"]), np.array(rec["v"]),
                      np.array(rec["W"]), np.array(rec["loss"]), np.array(rec["gn"]),
                      np.array(rec["att"]), np.array(rec["corr"]) if ref is not None else None)


def memory_estimate(s: dict) -> float:
    """Bytes a compare configuration needs before anything is allocated (see
    :mod:`boundcalc.engine.budget`): the per-step gradient-norm record, the token arrays,
    d x d Hessians and the recorded iterates."""
    n, T, d = s.get("n", 4), s.get("T", 2), s.get("d", 10)
    pts = s.get("hessian_points", 20) + s.get("random_points", 20) + 1
    return 8.0 * ((s["steps"] + 1) + 4 * n * T * d + 6 * d * d + pts * d)


def trajectory_bytes(steps: int, d: int, record_every: int = 1) -> float:
    """Bytes :func:`train` needs for its :class:`Trajectory` (checked against the budget of
    :mod:`boundcalc.engine.budget` before a run): per recorded step, Python lists of the
    copies of p, v and W and five scalars, then the arrays they become.  Measured with
    tracemalloc at d = 2: ~680 bytes per step at the peak; this charges 600 + 16 (d^2 + 2d + 5)."""
    records = steps // max(1, int(record_every)) + 2
    return float(records) * (600.0 + 16.0 * (d * d + 2 * d + 5))

