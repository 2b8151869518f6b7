"""Shallow multi-head transformer of Arda, Cayci & Eryilmaz (2026), NumPy engine.

Formulas from ``shared/papers/notes/arda2026.md`` (v1 numbering; v2 keeps (2)-(4)).
Inputs X in R^{d x T} (tokens are *columns*), batches X: (n, d, T); query q_X (not trained),
by default the last token q_X = X_T as in the experiments (Sec. 6.1).

    a(X; W_i) = X softmax(X^T W_i q_X)            in R^d   (2)  softmax over the T tokens
    h(X; theta_i) = sigma(U_i^T a(X; W_i))        in R     (3)  theta_i = (U_i, vec W_i)
    f(X; phi) = m^{-1/2} sum_i c_i h(X; theta_i)  in R     (4)  phi_i = (c_i, U_i, vec W_i)

with m heads (= width), W_i in R^{d x d}, U_i in R^d, c_i in R.  Squared loss
L^_n(phi) = (1/n) sum_j (f(X_j; phi) - y_j)^2 (Sec. 3.3).  Symmetric paired initialisation
(Sec. 5.2): heads i and i + m/2 share (U, W) and have opposite c, so f(.; phi^(0)) = 0.
ProjGD / ProjSGD project after every step onto Omega_rho (Definition 2): per head,
|c_i - c_i^(0)| <= rho_c/sqrt m, ||U_i - U_i^(0)|| <= rho_u/sqrt m, ||W_i - W_i^(0)||_F <= rho_w/sqrt m,
i.e. each block is radially rescaled onto its own ball around its initial value.

Flat vectors order the parameters per head: (c_i, U_i, W_i row-major) -- a fixed
permutation of the paper's (c_i, U_i, vec W_i) (vec stacks columns); norms are unaffected.

Everything is vectorised over samples and heads: the per-head logits are one GEMM
(q W^T) and stacks of n small GEMMs with layout (n, m, .).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import ops

Array = np.ndarray


# ---------------------------------------------------------------------------------------
# activation
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Activation:
    """sigma with its first two derivatives and the bounds sigma_bar = (sigma_0, sigma_1, sigma_2)
    of eq. (3): |sigma| <= sigma_0, |sigma'| <= sigma_1, |sigma''| <= sigma_2."""

    name: str
    f: Callable[[Array], Array]
    d1: Callable[[Array], Array]
    d2: Callable[[Array], Array]
    sigma_bar: tuple[float, float, float]
    fd1: Callable[[Array], tuple[Array, Array]] | None = None

    def f_d1(self, u: Array) -> tuple[Array, Array]:
        """(sigma(u), sigma'(u)) from one evaluation where the activation allows it."""
        return self.fd1(u) if self.fd1 is not None else (self.f(u), self.d1(u))


def _tanh_f_d1(u):
    t = np.tanh(u)
    return t, 1.0 - t * t


def _tanh_d1(u):
    t = np.tanh(u)
    return 1.0 - t * t


def _tanh_d2(u):
    t = np.tanh(u)
    return -2.0 * t * (1.0 - t * t)


TANH = Activation("tanh", np.tanh, _tanh_d1, _tanh_d2, (1.0, 1.0, 4.0 / (3.0 * np.sqrt(3.0))), _tanh_f_d1)


def activation(act: str | Activation = "tanh",
               sigma_bar: tuple[float, float, float] | None = None) -> Activation:
    """The activation to use; ``sigma_bar`` overrides the bound triple (all must be > 0)."""
    if isinstance(act, Activation):
        a = act
    elif act == "tanh":
        a = TANH
    else:
        raise ValueError(f"unknown activation {act!r}; pass 'tanh' or an Activation")
    if sigma_bar is not None:
        sb = tuple(float(s) for s in sigma_bar)
        if len(sb) != 3 or not all(np.isfinite(s) and s > 0 for s in sb):
            raise ValueError(f"sigma_bar must be three positive numbers, got {sigma_bar!r}")
        a = Activation(a.name, a.f, a.d1, a.d2, sb, a.fd1)
    return a


# ---------------------------------------------------------------------------------------
# parameters
# ---------------------------------------------------------------------------------------

@dataclass
class ShallowParams:
    """phi = (c (m,), U (m, d), W (m, d, d))."""

    c: Array
    U: Array
    W: Array

    def __post_init__(self):
        self.c = np.asarray(self.c, dtype=np.float64)
        self.U = np.asarray(self.U, dtype=np.float64)
        self.W = np.asarray(self.W, dtype=np.float64)
        m = self.c.shape[0] if self.c.ndim == 1 else -1
        if self.c.ndim != 1 or self.U.ndim != 2 or self.U.shape[0] != m:
            raise ValueError(f"c must be (m,) and U (m, d); got {self.c.shape}, {self.U.shape}")
        d = self.U.shape[1]
        if self.W.shape != (m, d, d):
            raise ValueError(f"W must have shape (m, d, d) = ({m}, {d}, {d}), got {self.W.shape}")

    @property
    def m(self) -> int:
        return self.c.shape[0]

    @property
    def d(self) -> int:
        return self.U.shape[1]

    @property
    def size(self) -> int:
        return self.m * (1 + self.d + self.d * self.d)

    def copy(self) -> "ShallowParams":
        return ShallowParams(self.c.copy(), self.U.copy(), self.W.copy())

    def flat(self) -> Array:
        m = self.m
        return np.concatenate([self.c[:, None], self.U, self.W.reshape(m, -1)], axis=1).ravel()

    def like(self, vec: Array) -> "ShallowParams":
        vec = np.asarray(vec, dtype=np.float64)
        if vec.shape != (self.size,):
            raise ValueError(f"flat vector must have shape ({self.size},), got {vec.shape}")
        m, d = self.m, self.d
        per = vec.reshape(m, 1 + d + d * d)
        return ShallowParams(per[:, 0].copy(), per[:, 1:1 + d].copy(),
                             per[:, 1 + d:].reshape(m, d, d).copy())

    def __sub__(self, other: "ShallowParams") -> "ShallowParams":
        _check_same(self, other)
        return ShallowParams(self.c - other.c, self.U - other.U, self.W - other.W)

    def __add__(self, other: "ShallowParams") -> "ShallowParams":
        _check_same(self, other)
        return ShallowParams(self.c + other.c, self.U + other.U, self.W + other.W)


def _check_same(a: ShallowParams, b: ShallowParams):
    if a.c.shape != b.c.shape or a.U.shape != b.U.shape:
        raise ValueError(f"parameter sets differ in shape: m,d = ({a.m},{a.d}) vs ({b.m},{b.d})")


def paired_init(m: int, d: int, seed: int | None = None) -> ShallowParams:
    """Symmetric initialisation (Sec. 5.2): for i <= m/2, W_i ~ N(0,1) entries, U_i ~ N(0, I_d),
    c_i ~ Rad(1); then (W, U, c)_{i+m/2} = (W_i, U_i, -c_i).  Needs m even."""
    if int(m) != m or m < 2 or m % 2:
        raise ValueError(f"m must be a positive even integer (paired heads), got {m!r}")
    if int(d) != d or d < 1:
        raise ValueError(f"d must be a positive integer, got {d!r}")
    g = ops.rng(seed)
    k = m // 2
    W = g.standard_normal((k, d, d))
    U = g.standard_normal((k, d))
    c = g.choice(np.array([-1.0, 1.0]), size=k)
    return ShallowParams(np.concatenate([c, -c]), np.concatenate([U, U]), np.concatenate([W, W]))


# ---------------------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------------------

def _check_X(X: Array, d: int) -> Array:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 3:
        raise ValueError(f"X must have shape (n, d, T) (tokens as columns), got {X.shape}")
    if X.shape[1] != d:
        raise ValueError(f"X has token dimension {X.shape[1]} but the model has d = {d}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains non-finite values")
    return np.ascontiguousarray(X)


def _query(X: Array, query) -> Array:
    """q_X for every sample, shape (n, d): 'last' -> X_T; an array (d,) fixed or (n, d)."""
    n, d, _ = X.shape
    if isinstance(query, str):
        if query != "last":
            raise ValueError(f"query must be 'last' or an array, got {query!r}")
        return np.ascontiguousarray(X[:, :, -1])
    q = np.asarray(query, dtype=np.float64)
    if q.shape == (d,):
        return np.ascontiguousarray(np.broadcast_to(q, (n, d)))
    if q.shape == (n, d):
        return np.ascontiguousarray(q)
    raise ValueError(f"query array must have shape ({d},) or ({n}, {d}), got {q.shape}")


def _check_y(y: Array, n: int) -> Array:
    y = np.asarray(y, dtype=np.float64)
    if y.shape != (n,):
        raise ValueError(f"y must have shape ({n},), got {y.shape}")
    if not np.all(np.isfinite(y)):
        raise ValueError("y contains non-finite values")
    return y


# ---------------------------------------------------------------------------------------
# per-head quantities
# ---------------------------------------------------------------------------------------

@dataclass
class HeadTerms:
    """Per-sample, per-head quantities of eqs. (2)-(3) and Lemma 1 for heads (U, W).

    alpha (n,k,T) softmax weights; a (n,k,d) = X alpha; s (n,k,T) = X^T U; pre (n,k) = U^T a;
    q (n,d) the queries.  M(X;W) U is :func:`head_MU`.
    """

    alpha: Array
    a: Array
    s: Array
    pre: Array
    q: Array


def head_terms(U: Array, W: Array, X: Array, q: Array) -> HeadTerms:
    """Attention weights, outputs and pre-activations of heads (U (k,d), W (k,d,d)) on X (n,d,T)."""
    n, d, T = X.shape
    k = U.shape[0]
    Wq = (q @ W.reshape(k * d, d).T).reshape(n, k, d)         # W_i q_X
    alpha = np.matmul(Wq, X)                                   # z_t = X_t^T W_i q_X
    alpha -= alpha.max(axis=2, keepdims=True)
    np.exp(alpha, out=alpha)
    alpha /= alpha.sum(axis=2, keepdims=True)
    a = np.matmul(alpha, X.transpose(0, 2, 1))                 # (n,k,d)
    s = np.matmul(U, X)                                        # (n,k,T): X_t^T U_i
    pre = np.einsum("nkt,nkt->nk", alpha, s)                   # U_i^T a_i
    return HeadTerms(alpha, a, s, pre, q)


def head_MU(t: HeadTerms, X: Array) -> Array:
    """M(X; W_i) U_i = X (alpha * (X^T U_i - U_i^T a_i)), shape (n, k, d) (eqs. (7)-(8))."""
    return np.matmul(t.alpha * (t.s - t.pre[..., None]), X.transpose(0, 2, 1))


def random_features(U: Array, W: Array, X: Array, query="last",
                    act: str | Activation = "tanh") -> dict:
    """Random features of Sec. 5.4 for heads (U_i, W_i) on inputs X (n, d, T):

        phi_c = sigma(U^T a)            (n, k)
        phi_u = sigma'(U^T a) a         (n, k, d)
        phi_w = sigma'(U^T a) (M U) q^T (n, k, d, d)   returned factored: ``phi_w_left`` =
                sigma'(U^T a) M U (n, k, d) and ``q`` (n, d), phi_w = left outer q.
    """
    A = activation(act)
    X = _check_X(X, U.shape[1])
    q = _query(X, query)
    t = head_terms(U, W, X, q)
    s1 = A.d1(t.pre)
    return {"phi_c": A.f(t.pre), "phi_u": s1[..., None] * t.a,
            "phi_w_left": s1[..., None] * head_MU(t, X), "q": q}


# ---------------------------------------------------------------------------------------
# model, loss, gradient
# ---------------------------------------------------------------------------------------

def forward(params: ShallowParams, X: Array, query="last", act: str | Activation = "tanh") -> Array:
    """f(X_j; phi) for every sample, eq. (4).  Shape (n,)."""
    A = activation(act)
    X = _check_X(X, params.d)
    t = head_terms(params.U, params.W, X, _query(X, query))
    return (A.f(t.pre) @ params.c) / np.sqrt(params.m)


def loss(params: ShallowParams, X: Array, y: Array, query="last",
         act: str | Activation = "tanh") -> float:
    """L^_n(phi) = (1/n) sum_j (f(X_j; phi) - y_j)^2 (Sec. 3.3)."""
    f = forward(params, X, query, act)
    y = _check_y(y, f.shape[0])
    return float(np.mean((f - y) ** 2))


def _auto_chunk(n: int, T: int, m: int) -> int:
    """Samples per block so one (block, T, m) float64 array is about 256 KiB (cache-resident)."""
    return int(max(1, min(n, (1 << 15) // max(1, T * m))))


def input_scale(X: Array, q: Array) -> float:
    """(max_jt ||X_jt||) (max_j ||q_j||): the data's factor of :func:`logit_bound`."""
    return ops.max_norm(X, axis=1) * ops.max_norm(q, axis=-1)


def logit_bound(W: Array, scale: float) -> float:
    """An upper bound on every logit |z_jit| = |X_jt^T W_i q_j| of eq. (2), given
    ``scale`` = :func:`input_scale` (X, q).

    Proof: by Cauchy-Schwarz |x^T W q| <= ||x|| ||W q|| <= ||x|| ||W||_2 ||q||, and the
    spectral norm is at most the Frobenius norm, so |z_jit| <= (max_jt ||X_jt||)
    (max_i ||W_i||_F) (max_j ||q_j||). The maxima are computed in float64 from squared
    norms (relative rounding error below 1e-13, far inside the margin between
    :data:`ops.LOGIT_LIMIT` and the overflow threshold).
    """
    W = np.asarray(W)
    return scale * ops.max_norm(W.reshape(W.shape[0], -1))


def _loss_and_grad(params: ShallowParams, X: Array, q: Array, y: Array, A: Activation,
                   Xt: Array | None = None, chunk: int | None = None, *,
                   dtype=np.float64, scale: float | None = None) -> tuple[float, ShallowParams]:
    """Fused forward + backward of L^_n, block of samples by block of samples.

    The residual weight 2 (f_j - y_j)/n of a sample depends on that sample only, so the
    gradient is an exact sum over blocks; each block is vectorised over its samples and all
    heads and small enough to stay in cache. Token-major layout (n, T, m) inside a block.
    ``Xt`` = X^T per sample, (n, T, d) C-contiguous (computed if not given).

    Fusions, each exact in real arithmetic:

    * the softmax is left unnormalised, E = exp(z), and 1/sum_t E is applied on the small
      (block, m) arrays: pre = (E . s) / sum E, and the backward weight alpha * gpre is
      E * (gpre / sum E);
    * the maximum is subtracted from the logits only when :func:`logit_bound` exceeds
      :data:`ops.LOGIT_LIMIT` (a bound, not a test on the values: safe by construction);
    * sigma and sigma' come from one evaluation (``Activation.f_d1``: tanh once);
    * a(X; W_i) is never formed: grad_U = sum_jt X_jt (alpha gpre)_jt is one GEMM.

    ``dtype`` float32 runs the block arithmetic in single precision (parameters and the
    gradient returned stay float64; the loss is accumulated in float64).
    """
    n, d, T = X.shape
    m = params.m
    dt = np.dtype(dtype)
    sm = 1.0 / np.sqrt(m)
    if Xt is None:
        Xt = np.ascontiguousarray(X.transpose(0, 2, 1))
    if scale is None:
        scale = input_scale(X, q)
    shift = ops.softmax_needs_shift(logit_bound(params.W, scale), dt)
    chunk = _auto_chunk(n, T, m) if chunk is None else int(chunk)
    X, Xt, q, y = (a if a.dtype == dt else a.astype(dt) for a in (X, Xt, q, y))
    c, U = params.c.astype(dt), params.U.astype(dt)
    Wp = np.ascontiguousarray(params.W.transpose(2, 1, 0), dtype=dt).reshape(d, d * m)
    gc = np.zeros(m, dtype=dt)
    gUt = np.zeros((d, m), dtype=dt)
    gWp = np.zeros((d * m, d), dtype=dt)
    total = 0.0
    with ops.single_threaded_blas():     # tiny GEMMs: threads only add sync cost
        for i0 in range(0, n, chunk):
            Xc, Xtc = X[i0:i0 + chunk], Xt[i0:i0 + chunk]
            qc, yc = q[i0:i0 + chunk], y[i0:i0 + chunk]
            nc = Xc.shape[0]
            E = np.matmul(Xtc, (qc @ Wp).reshape(nc, d, m))        # (nc,T,m): X_t^T W_i q   (2)
            if shift:
                E -= E.max(axis=1, keepdims=True)
            np.exp(E, out=E)
            inv = 1.0 / E.sum(axis=1)                               # (nc,m)
            s = (Xtc.reshape(nc * T, d) @ U.T).reshape(nc, T, m)    # X_t^T U_i
            pre = np.einsum("ntm,ntm->nm", E, s)
            pre *= inv                                              # U_i^T a_i
            h, d1 = A.f_d1(pre)                                     # (3)
            res = sm * (h @ c) - yc                                 # f - y   (4)
            total += float(res @ res)
            r = (2.0 / n) * res
            gc += sm * (r @ h)                                      # (5)
            d1 *= c[None, :]
            d1 *= (sm * r)[:, None]
            d1 *= inv                                               # gpre / sum_t E
            E *= d1[:, None, :]                                     # alpha * gpre
            gUt += Xtc.reshape(nc * T, d).T @ E.reshape(nc * T, m)  # (6)
            s -= pre[:, None, :]
            s *= E                                                  # gpre * J_s(z) X^T U
            gWp += np.matmul(Xc, s).reshape(nc, d * m).T @ qc       # (7): gpre (M U) q^T
    gW = np.ascontiguousarray(gWp.reshape(d, m, d).transpose(1, 0, 2), dtype=np.float64)
    return total / n, ShallowParams(gc.astype(np.float64), np.ascontiguousarray(gUt.T, dtype=np.float64), gW)


def loss_and_grad(params: ShallowParams, X: Array, y: Array, query="last",
                  act: str | Activation = "tanh") -> tuple[float, ShallowParams]:
    """(L^_n(phi), grad L^_n(phi)) with the analytic gradients of Lemma 1, eqs. (5)-(8)."""
    A = activation(act)
    X = _check_X(X, params.d)
    y = _check_y(y, X.shape[0])
    return _loss_and_grad(params, X, _query(X, query), y, A)


def model_jvp(params: ShallowParams, X: Array, v: ShallowParams, query="last",
              act: str | Activation = "tanh") -> Array:
    """<grad_phi f(X_j; phi), v> for every sample, from Lemma 1:

    m^{-1/2} sum_i [ v_c,i h_i + c_i sigma'(pre_i) ( <v_U,i, a_i> + (M_i U_i)^T v_W,i q ) ].
    """
    A = activation(act)
    X = _check_X(X, params.d)
    _check_same(params, v)
    q = _query(X, query)
    n, d, _ = X.shape
    t = head_terms(params.U, params.W, X, q)
    vWq = (q @ v.W.reshape(params.m * d, d).T).reshape(n, params.m, d)
    inner = np.einsum("kd,nkd->nk", v.U, t.a) + np.einsum("nkd,nkd->nk", head_MU(t, X), vWq)
    out = A.f(t.pre) @ v.c + (A.d1(t.pre) * inner) @ params.c
    return out / np.sqrt(params.m)


# ---------------------------------------------------------------------------------------
# projection and training
# ---------------------------------------------------------------------------------------

def _check_rho(rho) -> Array:
    r = np.asarray(rho, dtype=np.float64)
    if r.shape != (3,) or not np.all(r > 0) or np.any(np.isnan(r)):
        raise ValueError(f"rho must be (rho_c, rho_u, rho_w), all > 0 (np.inf disables a block), got {rho!r}")
    return r


def _radial(x: Array, x0: Array, radius: float, axes: tuple) -> Array:
    if np.isinf(radius):
        return x
    diff = x - x0
    nrm = np.sqrt(np.sum(diff * diff, axis=axes, keepdims=True))
    fac = np.minimum(1.0, radius / np.maximum(nrm, 1e-300))
    return x0 + fac * diff


def project(params: ShallowParams, params0: ShallowParams, rho) -> ShallowParams:
    """Euclidean projection Pi_Omega_rho onto Omega_rho (Definition 2): each head's c_i, U_i,
    W_i is radially rescaled onto its ball of radius rho_(c,u,w)/sqrt(m) around its initial
    value (the product of balls makes the projection separable).  Returns a new object."""
    _check_same(params, params0)
    r = _check_rho(rho) / np.sqrt(params.m)
    return ShallowParams(_radial(params.c[:, None], params0.c[:, None], r[0], (1,))[:, 0],
                         _radial(params.U, params0.U, r[1], (1,)),
                         _radial(params.W, params0.W, r[2], (1, 2)))


def _mse(p: ShallowParams, X: Array, q: Array, y: Array, A: Activation) -> float:
    t = head_terms(p.U, p.W, X, q)
    return float(np.mean((A.f(t.pre) @ p.c / np.sqrt(p.m) - y) ** 2))


def _norm(g: ShallowParams) -> float:
    return float(np.sqrt(g.c @ g.c + np.sum(g.U * g.U) + np.sum(g.W * g.W)))


def _descend_project(p: ShallowParams, g: ShallowParams, params0: ShallowParams, eta: float,
                     rho: Array) -> ShallowParams:
    p.c -= eta * g.c
    p.U -= eta * g.U
    p.W -= eta * g.W
    return project(p, params0, rho)


def proj_gd_step(params: ShallowParams, params0: ShallowParams, X: Array, y: Array, *,
                 eta: float, rho, query="last", act: str | Activation = "tanh",
                 chunk: int | None = None, dtype="float64") -> tuple[ShallowParams, float, float]:
    """One ProjGD step Pi_Omega_rho(phi - eta grad L^_n(phi)) (Sec. 3.3), phi0 = ``params0``.

    Returns (new parameters, L^_n(phi) before the step, ||grad L^_n(phi)||); ``params`` is
    updated in place before the projection.  ``chunk``: samples per fused block (None: auto);
    ``dtype``: 'float64' or 'float32' for the forward/backward arithmetic (:func:`check_dtype`).
    """
    A = activation(act)
    rho = _check_rho(rho)
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be a positive number, got {eta!r}")
    _check_same(params, params0)
    X = _check_X(X, params.d)
    y = _check_y(y, X.shape[0])
    L, g = _loss_and_grad(params, X, _query(X, query), y, A, chunk=chunk, dtype=check_dtype(dtype))
    return _descend_project(params, g, params0, eta, rho), L, _norm(g)


@dataclass
class ProjResult:
    """Outcome of ProjGD / ProjSGD.  Histories hold the value at phi^(s) *before* step s."""

    params: ShallowParams              # phi^(tau)
    average: ShallowParams             # bar phi^(tau) = (1/tau) sum_{s<tau} phi^(s)
    train_loss: Array                  # L^_n(phi^(s)) (ProjGD) / full-batch loss (ProjSGD, if tracked)
    grad_norm: Array                   # ||grad L^_{B_s}(phi^(s))||
    test_loss: Array = field(default_factory=lambda: np.empty(0))
    test_steps: Array = field(default_factory=lambda: np.empty(0, dtype=int))

    @property
    def min_train_loss(self) -> float:
        """min_{s < tau} L^_n(phi^(s)) (Theorem 1, left-hand side)."""
        return float(np.min(self.train_loss))


check_dtype = ops.check_dtype


def _train(params0, X, y, *, eta, steps, rho, query, act, batch, seed, X_test, y_test,
           eval_every, track_full_loss, dtype="float64"):
    A = activation(act)
    dt = check_dtype(dtype)
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be a positive number, got {eta!r}")
    if int(steps) != steps or steps < 1:
        raise ValueError(f"steps must be a positive integer, got {steps!r}")
    rho = _check_rho(rho)
    X = _check_X(X, params0.d)
    y = _check_y(y, X.shape[0])
    q = _query(X, query)
    scale = input_scale(X, q)
    Xt = np.ascontiguousarray(X.transpose(0, 2, 1))
    Xl, Xtl, ql, yl = (a.astype(dt) for a in (X, Xt, q, y))    # cast once, not per step
    if (X_test is None) != (y_test is None):
        raise ValueError("give both X_test and y_test, or neither")
    if X_test is not None:
        X_test = _check_X(X_test, params0.d)
        y_test = _check_y(y_test, X_test.shape[0])
        q_test = _query(X_test, query)
    n = X.shape[0]
    g = ops.rng(seed) if batch is not None else None
    p = params0.copy()
    acc = ShallowParams(np.zeros_like(p.c), np.zeros_like(p.U), np.zeros_like(p.W))
    tl = np.full(steps, np.nan)
    gn = np.empty(steps)
    test_loss, test_steps = [], []
    for s in range(steps):
        if X_test is not None and eval_every and s % eval_every == 0:
            test_loss.append(_mse(p, X_test, q_test, y_test, A))
            test_steps.append(s)
        acc.c += p.c
        acc.U += p.U
        acc.W += p.W
        if batch is None:
            tl[s], gr = _loss_and_grad(p, Xl, ql, yl, A, Xtl, dtype=dt, scale=scale)
        else:
            idx = g.integers(0, n, size=batch)                  # J_s iid Unif([n])
            if track_full_loss:
                tl[s] = _mse(p, X, q, y, A)
            _, gr = _loss_and_grad(p, Xl[idx], ql[idx], yl[idx], A, dtype=dt, scale=scale)
        gn[s] = _norm(gr)
        p = _descend_project(p, gr, params0, eta, rho)
    if X_test is not None and eval_every:
        test_loss.append(_mse(p, X_test, q_test, y_test, A))
        test_steps.append(steps)
    avg = ShallowParams(acc.c / steps, acc.U / steps, acc.W / steps)
    return ProjResult(p, avg, tl, gn, np.asarray(test_loss), np.asarray(test_steps, dtype=int))


def proj_gd(params0: ShallowParams, X: Array, y: Array, *, eta: float, steps: int, rho,
            query="last", act: str | Activation = "tanh", X_test=None, y_test=None,
            eval_every: int = 0, dtype="float64") -> ProjResult:
    """ProjGD (Sec. 3.3): phi^(s+1) = Pi_Omega_rho(phi^(s) - eta grad L^_n(phi^(s))), s < steps,
    from phi^(0) = ``params0`` (also the centre of Omega_rho).  rho = (inf, inf, inf) is plain GD.
    ``dtype`` 'float32' runs each forward/backward pass in single precision; the iterates,
    their average and the projection stay float64."""
    return _train(params0, X, y, eta=eta, steps=steps, rho=rho, query=query, act=act,
                  batch=None, seed=None, X_test=X_test, y_test=y_test, eval_every=eval_every,
                  track_full_loss=True, dtype=dtype)


def proj_sgd(params0: ShallowParams, X: Array, y: Array, *, eta: float, steps: int, rho,
             seed: int | None = None, batch_size: int = 1, query="last",
             act: str | Activation = "tanh", track_full_loss: bool = False, X_test=None,
             y_test=None, eval_every: int = 0, dtype="float64") -> ProjResult:
    """ProjSGD (Sec. 3.3): as ProjGD with the gradient of L^_{B_s}, B_s = {J_s}, J_s iid
    Unif([n]) (``batch_size`` > 1 draws that many iid indices).  With ``track_full_loss``
    the full-batch L^_n(phi^(s)) is recorded each step (costly); otherwise train_loss is NaN."""
    if int(batch_size) != batch_size or batch_size < 1:
        raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
    return _train(params0, X, y, eta=eta, steps=steps, rho=rho, query=query, act=act,
                  batch=int(batch_size), seed=seed, X_test=X_test, y_test=y_test,
                  eval_every=eval_every, track_full_loss=track_full_loss, dtype=dtype)


# ---------------------------------------------------------------------------------------
# linearisation, transport, measurements
# ---------------------------------------------------------------------------------------

def f_lin(params: ShallowParams, params0: ShallowParams, X: Array, query="last",
          act: str | Activation = "tanh") -> Array:
    """Linear model of Definition 3: f(X; phi0) + <grad f(X; phi0), phi - phi0>."""
    return forward(params0, X, query, act) + model_jvp(params0, X, params - params0, query, act)


def linearization_error(params: ShallowParams, params0: ShallowParams, X: Array, query="last",
                        act: str | Activation = "tanh") -> tuple[float, float]:
    """(sup_j, mean_j) of |f(X_j; phi) - f_lin(X_j; phi)|.  The sup is eps_lin of Lemma 3;
    the mean is what the authors' code reports (notes Sec. 6.1)."""
    e = np.abs(forward(params, X, query, act) - f_lin(params, params0, X, query, act))
    return float(np.max(e)), float(np.mean(e))


def _unit_rows(G: Array, axes: tuple) -> Array:
    nrm = np.sqrt(np.sum(G * G, axis=axes, keepdims=True))
    if np.any(nrm == 0):
        raise ValueError("a head's direction has zero norm; cannot place it on the sphere")
    return G / nrm


def boundary_point(params0: ShallowParams, rho, *, kind: str = "random", X: Array | None = None,
                   seed: int | None = None, query="last",
                   act: str | Activation = "tanh") -> ShallowParams:
    """A point of Omega_rho with every block on its sphere of radius rho_(c,u,w)/sqrt(m).

    ``kind='random'``: c_i +- rho_c/sqrt m with random signs, U_i and W_i in uniformly random
    directions.  ``kind='adversarial'`` (the authors' code, notes Sec. 6.1): Delta c_i = +rho_c/sqrt m,
    Delta U_i, Delta W_i along the gradient at phi0 of sum_j h(X_j; theta_i) (needs ``X``).
    """
    r = _check_rho(rho)
    if not np.all(np.isfinite(r)):
        raise ValueError("boundary points need finite radii")
    r = r / np.sqrt(params0.m)
    m, d = params0.m, params0.d
    if kind == "random":
        g = ops.rng(seed)
        dc = g.choice(np.array([-1.0, 1.0]), size=m)
        dU = _unit_rows(g.standard_normal((m, d)), (1,))
        dW = _unit_rows(g.standard_normal((m, d, d)), (1, 2))
    elif kind == "adversarial":
        if X is None:
            raise ValueError("kind='adversarial' needs the inputs X")
        A = activation(act)
        X = _check_X(X, d)
        q = _query(X, query)
        t = head_terms(params0.U, params0.W, X, q)
        s1 = A.d1(t.pre)                                    # d h / d pre
        dU = _unit_rows(np.einsum("nk,nkd->kd", s1, t.a), (1,))
        gWq = s1[..., None] * head_MU(t, X)
        dW = _unit_rows((gWq.reshape(X.shape[0], m * d).T @ q).reshape(m, d, d), (1, 2))
        dc = np.ones(m)
    else:
        raise ValueError(f"kind must be 'random' or 'adversarial', got {kind!r}")
    return ShallowParams(params0.c + r[0] * dc, params0.U + r[1] * dU, params0.W + r[2] * dW)


TransportMap = Callable[[Array, Array, Array], tuple[Array, Array, Array]]


def transported_params(params0: ShallowParams, v: TransportMap | tuple) -> ShallowParams:
    """phi~ of eq. (11) (v2; (10) in v1), for a transportation mapping v:

        c~_i = c_i^(0) + m^{-1/2} v_c(phi_i^(0)),  U~_i = U_i^(0) + c_i^(0) m^{-1/2} v_u(phi_i^(0)),
        W~_i = W_i^(0) + c_i^(0) m^{-1/2} v_w(phi_i^(0)).

    ``v`` is a callable (c (k,), U (k,d), W (k,d,d)) -> (v_c (k,), v_u (k,d), v_w (k,d,d)), or
    that triple already evaluated at the m initial heads.
    """
    m, d = params0.m, params0.d
    vc, vu, vw = v(params0.c, params0.U, params0.W) if callable(v) else v
    vc, vu, vw = (np.asarray(a, dtype=np.float64) for a in (vc, vu, vw))
    if vc.shape != (m,) or vu.shape != (m, d) or vw.shape != (m, d, d):
        raise ValueError(f"v must give shapes ({m},), ({m},{d}), ({m},{d},{d}); "
                         f"got {vc.shape}, {vu.shape}, {vw.shape}")
    s = 1.0 / np.sqrt(m)
    c0 = params0.c
    return ShallowParams(c0 + s * vc, params0.U + (s * c0)[:, None] * vu,
                         params0.W + (s * c0)[:, None, None] * vw)


def approximation_error(params0: ShallowParams, v: TransportMap | tuple, X: Array, target: Array,
                        query="last", act: str | Activation = "tanh") -> tuple[float, float]:
    """(sup_j, mean_j) of |f_lin(X_j; phi~) - target_j|, phi~ the transported parameters.

    With target = f~(X_j; v) this is eps_app of Lemma 5; the experiments (Sec. 6.1) use the
    Monte-Carlo teacher labels y~_j as target.
    """
    tilde = transported_params(params0, v)
    e = np.abs(f_lin(tilde, params0, X, query, act) - _check_y(target, np.shape(X)[0]))
    return float(np.max(e)), float(np.mean(e))


@dataclass
class Distances:
    """||phi_i - phi_i^(0)|| per head, and per block (c, U, W) per head."""

    per_head: Array
    c: Array
    U: Array
    W: Array
    total: float


def distance(params: ShallowParams, params0: ShallowParams) -> Distances:
    """Per-head distances to the initialisation (compare with rho / sqrt(m), Definition 2)."""
    D = params - params0
    dc = np.abs(D.c)
    du = np.linalg.norm(D.U, axis=1)
    dw = np.sqrt(np.sum(D.W ** 2, axis=(1, 2)))
    ph = np.sqrt(dc ** 2 + du ** 2 + dw ** 2)
    return Distances(ph, dc, du, dw, float(np.sqrt(np.sum(ph ** 2))))


def grad_norm(params: ShallowParams, X: Array, y: Array, query="last",
              act: str | Activation = "tanh") -> float:
    """||grad L^_n(phi)||."""
    return float(np.linalg.norm(loss_and_grad(params, X, y, query, act)[1].flat()))


def in_domain(X: Array, tol: float = 1e-12) -> bool:
    """Whether every token has norm <= 1, i.e. X in the input set of Sec. 3.1."""
    X = np.asarray(X, dtype=np.float64)
    return bool(np.all(np.linalg.norm(X, axis=1) <= 1.0 + tol))


def memory_estimate(c: dict, m: int) -> float:
    """Bytes one width-m run needs before anything is allocated (see
    :mod:`boundcalc.engine.budget`): parameters W (m, d, d), U (m, d) with gradients,
    accumulators and boundary directions, per-sample head features, the data and the
    teacher pool."""
    d, n, T, pool = c["d"], c["n"], c.get("T", 8), c["pool"]
    return 8.0 * (8 * m * d * d + 4 * n * m * d + 2 * n * T * d + 2 * pool * d * d)
