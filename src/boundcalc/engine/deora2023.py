"""Multi-head attention of Deora, Ghaderi, Taheri & Thrampoulidis (2023), NumPy engine.

Model (eq. (2)), for a token matrix X = [x_1 .. x_T]^T in R^{T x d}:

    Phi(X; U_h, W_h)  = < U_h , softmax(X W_h X^T) X >          (eq. (1); row-wise softmax)
    Phi~(X; theta)    = H^{-1/2} sum_h Phi(X; U_h, W_h)          (eq. (2))

with per-head parameters theta_h = (U_h, W_h), W_h in R^{d x d} and the decoder U_h in
one of three forms (Sec. 2, footnote *):

* ``'full'``    U_h in R^{T x d} trainable              (parameter array U: (H, T, d))
* ``'pooling'`` U_h = 1_T u_h^T, u_h in R^d trainable   (parameter array U: (H, d))
* ``'last'``    U_h = [0 .. 0 u_h]^T, u_h in R^d        (parameter array U: (H, d))

Empirical risk  L^(theta) = (1/n) sum_i l(y_i Phi~(X_i; theta)), l = logistic (Sec. 2),
minimised by full-batch GD  theta <- theta - eta grad L^(theta).

Flat vectors follow the paper's ordering theta~ = concat_h theta_h, theta_h = concat(U_h, W_h)
(each block row-major).  All arrays are float64; batches are X: (n, T, d), y: (n,) in {-1,+1}.

Implementation: every training step is vectorised over samples *and* heads.  Internally the
decoder is expanded to U_eff in layout (T_q, H, d) and the attention tensors are kept
key-major, (n, T, T_q*H) (key token; query token, head), so every contraction is one GEMM
or a stack of per-sample GEMMs, and the softmax reductions run along a strided axis.
For ``'last'`` only the last query row is ever computed (T_q = 1).  A training step is
fused (forward + backward) and processed in cache-sized blocks of samples with
single-threaded BLAS (see :func:`_loss_grad_blocks`).
Gradients are analytic (Lemma 1); Hessian-vector products are the exact directional
derivative of that analytic gradient (forward-over-reverse written by hand, no dense Hessian).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import ops

Array = np.ndarray
DECODERS = ("full", "pooling", "last")


# ---------------------------------------------------------------------------------------
# parameters
# ---------------------------------------------------------------------------------------

@dataclass
class MHAParams:
    """Parameters of the H-head model: ``U`` (H,T,d) for 'full' else (H,d); ``W`` (H,d,d)."""

    U: Array
    W: Array
    decoder: str = "full"

    def __post_init__(self):
        if self.decoder not in DECODERS:
            raise ValueError(f"decoder must be one of {DECODERS}, got {self.decoder!r}")
        self.U = np.asarray(self.U, dtype=np.float64)
        self.W = np.asarray(self.W, dtype=np.float64)
        if self.W.ndim != 3 or self.W.shape[1] != self.W.shape[2]:
            raise ValueError(f"W must have shape (H, d, d), got {self.W.shape}")
        H, d = self.W.shape[0], self.W.shape[1]
        want = 3 if self.decoder == "full" else 2
        if self.U.ndim != want or self.U.shape[0] != H or self.U.shape[-1] != d:
            shape = "(H, T, d)" if self.decoder == "full" else "(H, d)"
            raise ValueError(f"U must have shape {shape} = ({H}, .., {d}) for decoder "
                             f"{self.decoder!r}, got {self.U.shape}")

    @property
    def H(self) -> int:
        return self.W.shape[0]

    @property
    def d(self) -> int:
        return self.W.shape[1]

    @property
    def per_head_size(self) -> int:
        """dim theta_h = |U_h| + d^2 (dT + d^2 for 'full', d + d^2 otherwise)."""
        return self.U[0].size + self.d * self.d

    @property
    def size(self) -> int:
        return self.H * self.per_head_size

    def copy(self) -> "MHAParams":
        return MHAParams(self.U.copy(), self.W.copy(), self.decoder)

    def flat(self) -> Array:
        """theta~ = concat_h (vec U_h, vec W_h) as one vector of length H * per_head_size."""
        H = self.H
        return np.concatenate([self.U.reshape(H, -1), self.W.reshape(H, -1)], axis=1).ravel()

    def like(self, vec: Array) -> "MHAParams":
        """Parameters with this shape filled from a flat vector (inverse of :meth:`flat`)."""
        vec = np.asarray(vec, dtype=np.float64)
        if vec.shape != (self.size,):
            raise ValueError(f"flat vector must have shape ({self.size},), got {vec.shape}")
        per = vec.reshape(self.H, self.per_head_size)
        nu = self.U[0].size
        return MHAParams(per[:, :nu].reshape(self.U.shape).copy(),
                         per[:, nu:].reshape(self.W.shape).copy(), self.decoder)

    def heads(self, idx) -> "MHAParams":
        """Sub-model made of the heads ``idx`` (a slice or index array)."""
        return MHAParams(self.U[idx], self.W[idx], self.decoder)


def init_zero(H: int, T: int, d: int, decoder: str = "full") -> MHAParams:
    """theta^(0) = 0 (the starting point of the first phase, Sec. 5.1)."""
    _check_dims(H=H, T=T, d=d)
    ushape = (H, T, d) if decoder == "full" else (H, d)
    return MHAParams(np.zeros(ushape), np.zeros((H, d, d)), decoder)


def init_gaussian(H: int, T: int, d: int, decoder: str = "full", *, std_U: float = 1.0,
                  std_W: float = 0.0, seed: int | None = None) -> MHAParams:
    """IID Gaussian initialisation U_h ~ N(0, std_U^2), W_h ~ N(0, std_W^2) entrywise."""
    _check_dims(H=H, T=T, d=d)
    if std_U < 0 or std_W < 0:
        raise ValueError(f"std_U and std_W must be >= 0, got {std_U}, {std_W}")
    g = ops.rng(seed)
    ushape = (H, T, d) if decoder == "full" else (H, d)
    U = std_U * g.standard_normal(ushape)
    W = std_W * g.standard_normal((H, d, d))
    return MHAParams(U, W, decoder)


# ---------------------------------------------------------------------------------------
# validation helpers
# ---------------------------------------------------------------------------------------

def _check_dims(**dims):
    for k, v in dims.items():
        if int(v) != v or v < 1:
            raise ValueError(f"{k} must be a positive integer, got {v!r}")


def _check_X(params: MHAParams, X: Array) -> Array:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 3:
        raise ValueError(f"X must have shape (n, T, d), got {X.shape}")
    if X.shape[2] != params.d:
        raise ValueError(f"X has token dimension {X.shape[2]} but W is {params.d} x {params.d}")
    if params.decoder == "full" and X.shape[1] != params.U.shape[1]:
        raise ValueError(f"X has T={X.shape[1]} tokens but the 'full' decoder U has "
                         f"T={params.U.shape[1]}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains non-finite values")
    return np.ascontiguousarray(X)


def _check_y(y: Array, n: int) -> Array:
    y = np.asarray(y, dtype=np.float64)
    if y.shape != (n,):
        raise ValueError(f"y must have shape ({n},), got {y.shape}")
    if not np.all(np.abs(y) == 1.0):
        raise ValueError("y must take values in {-1, +1}")
    return y


# ---------------------------------------------------------------------------------------
# core kernels.  Layout: K = T_q * H "query rows" indexed k = t*H + h; attention tensors
# are key-major (n, T, K) so that the softmax reductions run over a non-contiguous axis
# (fast, vectorised along K) and P = X U_eff^T is a single GEMM.
# ---------------------------------------------------------------------------------------

def _queries(decoder: str, X: Array) -> Array:
    """Query tokens whose attention rows enter the output: all, or the last one."""
    return X[:, -1:, :] if decoder == "last" else X


def _u_eff(decoder: str, U: Array, T: int) -> Array:
    """Decoder rows actually used, layout (T_q, H, d)."""
    if decoder == "full":
        return np.ascontiguousarray(U.transpose(1, 0, 2))
    if decoder == "pooling":
        return np.ascontiguousarray(np.broadcast_to(U, (T,) + U.shape))
    return U[None]


def _u_grad(decoder: str, G: Array) -> Array:
    """Adjoint of :func:`_u_eff`: map a gradient w.r.t. U_eff (T_q,H,d) to the parameter."""
    if decoder == "full":
        return np.ascontiguousarray(G.transpose(1, 0, 2))
    if decoder == "pooling":
        return G.sum(axis=0)
    return G[0].copy()


def _w_rows(W: Array) -> Array:
    """(H,d,d) -> (d, H*d) with [a, h*d + b] = W_h[a, b]."""
    H, d, _ = W.shape
    return np.ascontiguousarray(W.transpose(1, 0, 2)).reshape(d, H * d)


def _softmax_keys_inplace(Z: Array, shift=True) -> Array:
    """Softmax over the key axis (-2) of an (n, T, K) array, or of a batch (B, n, T, K), in
    place; ``shift=False`` skips the max subtraction (only for logits proved bounded:
    :func:`logit_bound`). For a batch, ``shift`` may be one flag per problem (B,)."""
    shift = np.asarray(shift, dtype=bool)
    if shift.ndim == 0 or shift.all():
        if shift.all():
            Z -= Z.max(axis=-2, keepdims=True)
    elif shift.any():                        # only the problems whose bound needs it
        idx = np.flatnonzero(shift)
        Z[idx] -= Z[idx].max(axis=-2, keepdims=True)
    np.exp(Z, out=Z)
    Z /= Z.sum(axis=-2, keepdims=True)
    return Z


def _rowdot(A: Array, B: Array) -> Array:
    """sum_s A[..., s, k] B[..., s, k] -> (..., K): (n, T, K) -> (n, K), (B, n, T, K) -> (B, n, K)."""
    return np.einsum("...sk,...sk->...k", A, B)


@dataclass
class _Fwd:
    X: Array          # (n, T, d)
    Q: Array          # (n, Tq, d) query tokens
    Ueff: Array       # (Tq, H, d)
    S: Array          # (n, T, K) attention weights, S[n, s, t*H+h] = softmax_s(q_t^T W_h x_s)
    O: Array          # (n, K, d) attention outputs (S X rows)
    phi: Array        # (n,) model output (scaled)
    scale: float


def _forward(params: MHAParams, X: Array, scale: float | None = None) -> _Fwd:
    n, T, d = X.shape
    H = params.H
    scale = 1.0 / np.sqrt(H) if scale is None else scale
    Q = _queries(params.decoder, X)
    Tq = Q.shape[1]
    Ueff = _u_eff(params.decoder, params.U, T)
    A = (Q.reshape(n * Tq, d) @ _w_rows(params.W)).reshape(n, Tq * H, d)
    S = np.matmul(X, A.transpose(0, 2, 1))          # logits x_s^T W_h^T q_t = q_t^T W_h x_s
    del A
    _softmax_keys_inplace(S)
    O = np.matmul(S.transpose(0, 2, 1), X)
    phi = scale * (O.reshape(n, -1) @ Ueff.reshape(-1))
    return _Fwd(X, Q, Ueff, S, O, phi, scale)


def _attn_adjoint(f: _Fwd, Ueff: Array) -> Array:
    """D = S * (P - sum_s S P) with P[n,s,k] = x_s . U_eff[k]: the logit adjoint, unit weights."""
    n, T, d = f.X.shape
    P = (f.X.reshape(n * T, d) @ Ueff.reshape(-1, d).T).reshape(n, T, -1)
    P -= _rowdot(f.S, P)[:, None, :]
    P *= f.S
    return P


def _backward(params: MHAParams, f: _Fwd, c: Array) -> tuple[Array, Array]:
    """(grad U_eff, grad W_rows) of sum_i c_i Phi~(X_i), in internal layouts."""
    n, T, d = f.X.shape
    Tq = f.Q.shape[1]
    gUeff = f.scale * (c @ f.O.reshape(n, -1))
    B = np.matmul(_attn_adjoint(f, f.Ueff).transpose(0, 2, 1), f.X)      # (n, K, d)
    Qc = (f.Q * (f.scale * c)[:, None, None]).reshape(n * Tq, d)
    gWr = Qc.T @ B.reshape(n * Tq, -1)
    return gUeff, gWr


def _to_params(params: MHAParams, gUeff: Array, gWr: Array) -> MHAParams:
    d, H = params.d, params.H
    gU = _u_grad(params.decoder, gUeff.reshape(-1, H, d))
    gW = np.ascontiguousarray(gWr.reshape(d, H, d).transpose(1, 0, 2))
    return MHAParams(gU, gW, params.decoder)


def logit_bound(params: MHAParams, X: Array) -> float:
    """An upper bound on every logit |q_t^T W_h x_s| of eq. (2): by Cauchy-Schwarz and
    ||W_h||_2 <= ||W_h||_F, |q^T W x| <= ||q|| ||W_h||_F ||x||, and every query (a token of
    X) has norm at most max_s ||x_s||. Used to skip the softmax's max subtraction
    (:data:`ops.LOGIT_LIMIT`)."""
    return ops.max_norm(X, axis=-1) ** 2 * ops.max_norm(params.W.reshape(params.H, -1))


def _auto_chunk(n: int, T: int, K: int) -> int:
    """Samples per block so one (block, T, K) float64 array is about 1 MiB (stays in cache)."""
    return int(max(1, min(n, (1 << 17) // max(1, T * K))))


def _loss_grad_blocks(params: MHAParams, X: Array, y: Array, loss_name: str,
                      chunk: int | None = None, dtype=np.float64) -> tuple[float, Array, Array]:
    """Fused forward + backward of the empirical risk, block of samples by block of samples.

    The loss weight c_i = l'(y_i Phi~_i) y_i / n of a sample depends on that sample only, so
    the full-batch gradient is an exact sum over blocks; each block is vectorised over its
    samples and all heads, and is small enough for its (block, T, K) temporaries to stay in
    cache (this is the whole performance trick).  Returns (L^, grad U_eff, grad W_rows).
    The softmax skips its max subtraction when :func:`logit_bound` allows it, and
    P - sum_s S P is computed as one rowdot. ``dtype`` float32 runs the block arithmetic in
    single precision (the loss is accumulated and the gradient returned in float64).
    One problem is a batch of one of :func:`_loss_grad_batch` (one kernel for both).
    """
    L, gU, gWr = _loss_grad_batch([params], X[None], y[None], loss_name, chunk, dtype)
    return float(L[0]), gU[0], gWr[0]


def _loss_grad_batch(plist: list, X: Array, y: Array, loss_name: str, chunk: int | None = None,
                     dtype=np.float64) -> tuple[Array, Array, Array]:
    """:func:`_loss_grad_blocks` for B independent problems of one shape advanced together:
    parameters ``plist`` (B :class:`MHAParams`, one decoder), X (B, n, T, d), y (B, n).  The
    problem axis is a leading batch axis of every array and GEMM (NumPy's stacked matmul:
    the same per-problem products as alone); each problem keeps its own block size, softmax
    shift (its own :func:`logit_bound`) and summation order.  Returns (L^ (B,),
    grad U_eff (B, K d), grad W_rows (B, d, H d)), float64."""
    lf, l1, _ = ops.margin_loss(loss_name)
    dt = ops.check_dtype(dtype)
    p0 = plist[0]
    shift = np.array([ops.softmax_needs_shift(logit_bound(p, x), dt) for p, x in zip(plist, X)])
    nb, n, T, d = X.shape
    H = p0.H
    Tq = 1 if p0.decoder == "last" else T
    K = Tq * H
    s = 1.0 / np.sqrt(H)
    chunk = max(1, _auto_chunk(n, T, K) // nb) if chunk is None else int(chunk)
    Wr = np.stack([_w_rows(p.W) for p in plist]).astype(dt)                     # (B, d, H d)
    Uk = np.stack([_u_eff(p.decoder, p.U, T).reshape(K, d) for p in plist]).astype(dt)   # (B, K, d)
    UkT = np.ascontiguousarray(Uk.transpose(0, 2, 1))
    u_col = Uk.reshape(nb, K * d, 1)
    X = X if X.dtype == dt else X.astype(dt)
    y = y.astype(dt)
    gU = np.zeros((nb, 1, K * d), dtype=dt)
    gWr = np.zeros((nb, d, H * d), dtype=dt)
    total = np.zeros(nb)
    with ops.single_threaded_blas():     # tiny GEMMs: threads only add sync cost
        for i0 in range(0, n, chunk):
            Xc = X[:, i0:i0 + chunk]
            yc = y[:, i0:i0 + chunk]
            nc = Xc.shape[1]
            Qc = Xc[:, :, -1:, :] if p0.decoder == "last" else Xc
            A = (Qc.reshape(nb, nc * Tq, d) @ Wr).reshape(nb, nc, K, d)
            S = np.matmul(Xc, A.transpose(0, 1, 3, 2))
            _softmax_keys_inplace(S, shift)
            O = np.matmul(S.transpose(0, 1, 3, 2), Xc)
            Of = O.reshape(nb, nc, K * d)
            m = yc * (s * (Of @ u_col)[..., 0])
            total += np.sum(lf(m), axis=1)
            c = (s / n) * l1(m) * yc
            gU += c[:, None, :] @ Of
            P = (Xc.reshape(nb, nc * T, d) @ UkT).reshape(nb, nc, T, K)
            P -= _rowdot(S, P)[:, :, None, :]
            P *= S
            B = np.matmul(P.transpose(0, 1, 3, 2), Xc)
            Qw = (Qc * c[:, :, None, None]).reshape(nb, nc * Tq, d)
            gWr += Qw.transpose(0, 2, 1) @ B.reshape(nb, nc * Tq, H * d)
    return total / n, gU[:, 0].astype(np.float64), gWr.astype(np.float64)


def _tangent_and_hvp(params: MHAParams, f: _Fwd, c: Array, V: MHAParams,
                     cdot_of: Callable[[Array], Array] | None) -> tuple[Array, MHAParams]:
    """Directional derivative, along V, of g(theta) = sum_i c_i(theta) grad Phi~(X_i; theta).

    ``cdot_of(phidot)`` gives dc/dt from the output tangent (None: c is constant).
    Returns (phidot, d/dt g) -- the exact forward-over-reverse derivative of :func:`_backward`.
    """
    X, Q, S, O, s = f.X, f.Q, f.S, f.O, f.scale
    n, T, d = X.shape
    H = params.H
    Tq = Q.shape[1]
    K = Tq * H
    Ue, Ued = f.Ueff, _u_eff(params.decoder, V.U, T)
    # forward tangent: Zd, Sd = J_softmax Zd, Od = Sd^T X, phid
    Ad = (Q.reshape(n * Tq, d) @ _w_rows(V.W)).reshape(n, K, d)
    Zd = np.matmul(X, Ad.transpose(0, 2, 1))
    Sd = S * (Zd - _rowdot(S, Zd)[:, None, :])
    Od = np.matmul(Sd.transpose(0, 2, 1), X)
    phid = s * (O.reshape(n, -1) @ Ued.reshape(-1) + Od.reshape(n, -1) @ Ue.reshape(-1))
    cd = np.zeros(n) if cdot_of is None else cdot_of(phid)
    # reverse pass, differentiated
    gUd = s * (cd @ O.reshape(n, -1) + c @ Od.reshape(n, -1))
    P = (X.reshape(n * T, d) @ Ue.reshape(K, d).T).reshape(n, T, K)
    Pd = (X.reshape(n * T, d) @ Ued.reshape(K, d).T).reshape(n, T, K)
    dS = (s * c)[:, None, None] * P
    dSd = (s * cd)[:, None, None] * P + (s * c)[:, None, None] * Pd
    r = _rowdot(S, dS)
    rd = _rowdot(Sd, dS) + _rowdot(S, dSd)
    dZd = Sd * (dS - r[:, None, :]) + S * (dSd - rd[:, None, :])
    B = np.matmul(dZd.transpose(0, 2, 1), X)
    gWd = Q.reshape(n * Tq, d).T @ B.reshape(n * Tq, H * d)
    return phid, _to_params(params, gUd, gWd)


# ---------------------------------------------------------------------------------------
# model and loss
# ---------------------------------------------------------------------------------------

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


def _check_chunk(chunk):
    if chunk is not None and (int(chunk) != chunk or chunk < 1):
        raise ValueError(f"chunk must be a positive integer, got {chunk!r}")


def _tangent_blocks(params: MHAParams, X: Array, V: MHAParams | None, coeffs,
                    chunk: int | None) -> tuple[Array, MHAParams]:
    """Run :func:`_tangent_and_hvp` (or, with V None, :func:`_backward`) block by block.

    ``coeffs(sl, phi_block) -> (c_block, cdot_of or None)`` gives each block's weights; all
    weights are per-sample, so summing the blocks is exact.  Returns (phidot (n,), sum).
    """
    n, T, d = X.shape
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


# ---------------------------------------------------------------------------------------
# training
# ---------------------------------------------------------------------------------------

def gd_step(params: MHAParams, X: Array, y: Array, eta: float, loss: str = "logistic",
            chunk: int | None = None, dtype=np.float64) -> tuple[MHAParams, float, float]:
    """One full-batch GD step theta <- theta - eta grad L^(theta), in place.

    Returns (params, L^(theta) before the step, ||grad L^(theta)||).  ``X`` (C-contiguous
    float64, or already of ``dtype``) and ``y`` are assumed validated (use :func:`train` for
    checked input). ``dtype`` 'float32' runs the forward/backward pass in single precision;
    the parameters stay float64.
    """
    L, gUe, gWr = _loss_grad_blocks(params, X, y, loss, chunk, dtype)
    return params, L, _descend(params, gUe, gWr, eta)


def _descend(params: MHAParams, gUe: Array, gWr: Array, eta: float) -> float:
    """theta <- theta - eta g in place, g from the internal layouts; returns ||g||."""
    g = _to_params(params, gUe, gWr)
    gn = float(np.sqrt(np.sum(g.U ** 2) + np.sum(g.W ** 2)))
    params.U -= eta * g.U
    params.W -= eta * g.W
    return gn


@dataclass
class TrainResult:
    """Final parameters and the per-step history (values *before* each update)."""

    params: MHAParams
    train_loss: Array
    grad_norm: Array
    dist_init: Array                      # ||theta^(k) - theta_start||
    test_loss: Array = field(default_factory=lambda: np.empty(0))
    test_steps: Array = field(default_factory=lambda: np.empty(0, dtype=int))


def train(params: MHAParams, X: Array, y: Array, *, eta: float, steps: int,
          loss: str = "logistic", X_test: Array | None = None, y_test: Array | None = None,
          eval_every: int = 0, dtype="float64") -> TrainResult:
    """Full-batch GD for ``steps`` iterations from a copy of ``params`` (Sec. 2, "Training").

    With test data and ``eval_every > 0`` the test loss is recorded every ``eval_every``
    steps and after the last one. ``dtype`` 'float32' runs each forward/backward pass in
    single precision (iterates, distances and test losses stay float64).
    """
    dt = ops.check_dtype(dtype)
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be a positive number, got {eta!r}")
    if int(steps) != steps or steps < 0:
        raise ValueError(f"steps must be a non-negative integer, got {steps!r}")
    ops.margin_loss(loss)
    X = _check_X(params, X)
    y = _check_y(y, X.shape[0])
    if (X_test is None) != (y_test is None):
        raise ValueError("give both X_test and y_test, or neither")
    if X_test is not None:
        X_test = _check_X(params, X_test)
        y_test = _check_y(y_test, X_test.shape[0])
    start = params.copy()
    p = params.copy()
    Xs = X.astype(dt)                                   # cast once, not per step
    tl, gn, dist = np.empty(steps), np.empty(steps), np.empty(steps)
    test_loss, test_steps = [], []
    for k in range(steps):
        if X_test is not None and eval_every and k % eval_every == 0:
            test_loss.append(_risk(p, X_test, y_test, loss))
            test_steps.append(k)
        dist[k] = distance(p, start).total
        _, tl[k], gn[k] = gd_step(p, Xs, y, eta, loss, dtype=dt)
        if not (np.isfinite(tl[k]) and np.isfinite(gn[k]) and np.isfinite(dist[k])):
            from .budget import Divergence        # non-finite loss, gradient or iterate norm
            raise Divergence(k, "loss or iterate")
    if steps and not np.isfinite(distance(p, start).total):
        from .budget import Divergence
        raise Divergence(steps, "iterate")
    if X_test is not None and eval_every:
        test_loss.append(_risk(p, X_test, y_test, loss))
        test_steps.append(steps)
    return TrainResult(p, tl, gn, dist, np.asarray(test_loss), np.asarray(test_steps, dtype=int))


def train_batch(plist: list, X: Array, y: Array, *, eta: float, steps: int, loss: str = "logistic",
                dtype="float64") -> list[TrainResult]:
    """:func:`train` (without test data) of B independent problems of one shape in lock-step:
    ``plist`` B :class:`MHAParams` (one decoder and size), X (B, n, T, d), y (B, n).  Every
    step is one call of the batched kernel (:func:`_loss_grad_batch`, the problem axis a
    leading batch axis); each problem gets the arithmetic it gets alone, so the results
    equal B calls of :func:`train` (to rounding of the stacked products, tested to 1e-12).
    A non-finite loss, gradient or iterate raises :class:`~boundcalc.engine.budget.Divergence`
    naming the first problem that diverged (``where="problem b"``)."""
    dt = ops.check_dtype(dtype)
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be a positive number, got {eta!r}")
    if int(steps) != steps or steps < 0:
        raise ValueError(f"steps must be a non-negative integer, got {steps!r}")
    ops.margin_loss(loss)
    plist = list(plist)
    X = np.asarray(X, dtype=np.float64)
    if not plist or X.ndim != 4 or X.shape[0] != len(plist):
        raise ValueError(f"X must have shape (B, n, T, d) with B = {len(plist)} problems, got {X.shape}")
    for p in plist[1:]:
        _check_same(plist[0], p)
    X = np.stack([_check_X(p, x) for p, x in zip(plist, X)])
    y = np.stack([_check_y(v, X.shape[1]) for v in np.asarray(y, dtype=np.float64)]) \
        if np.ndim(y) == 2 and len(y) == len(plist) else None
    if y is None:
        raise ValueError(f"y must have shape ({len(plist)}, {X.shape[1]})")
    starts = [p.copy() for p in plist]
    ps = [p.copy() for p in plist]
    Xs = X.astype(dt)
    nb = len(ps)
    tl, gn, dist = np.empty((nb, steps)), np.empty((nb, steps)), np.empty((nb, steps))
    for k in range(steps):
        dist[:, k] = [distance(p, q).total for p, q in zip(ps, starts)]
        tl[:, k], gUe, gWr = _loss_grad_batch(ps, Xs, y, loss, None, dt)
        gn[:, k] = [_descend(p, gUe[b], gWr[b], eta) for b, p in enumerate(ps)]
        ok = np.isfinite(tl[:, k]) & np.isfinite(gn[:, k]) & np.isfinite(dist[:, k])
        if not ok.all():
            from .budget import Divergence
            raise Divergence(k, "loss or iterate", f"problem {int(np.flatnonzero(~ok)[0])}")
    if steps:
        bad = [b for b, (p, q) in enumerate(zip(ps, starts)) if not np.isfinite(distance(p, q).total)]
        if bad:
            from .budget import Divergence
            raise Divergence(steps, "iterate", f"problem {bad[0]}")
    return [TrainResult(p, tl[b], gn[b], dist[b]) for b, p in enumerate(ps)]


def first_phase(X1: Array, y1: Array, H: int, decoder: str = "full", *,
                alphas: Array | None = None, seed: int | None = None,
                loss: str = "logistic") -> tuple[MHAParams, Array]:
    """First phase of Sec. 5.1: one GD step from zero with per-head step alpha_h sqrt(H).

        theta_h^(1) = theta_h^(0) - alpha_h sqrt(H) grad_{theta_h} L^_{n1}(theta^(0)),  theta^(0) = 0,

    alpha_h IID Unif{-1, +1} (Prop. 2) drawn from ``seed`` unless ``alphas`` is given.
    Returns (theta^(1), alphas).  At theta = 0 the attention is uniform and the decoder
    gradient vanishes, so (Lemma 2) W_h^(1) = 0 and, for the 'full' decoder, every row of
    U_h^(1) is alpha_h v with v = (1/n1) sum_i (-l'(0)) y_i xbar_i (xbar_i the mean token;
    -l'(0) = 1/2 for the logistic loss).  ('pooling': u_h^(1) = alpha_h T v; 'last': alpha_h v.)
    Note: on DM1 with equiprobable labels v = (zeta/4) u_* + O(n1^{-1/2}); Lemma 2 prints the
    leading term as (zeta/2) u_* (a factor 2 apart, see the engine notes).
    """
    X1 = np.asarray(X1, dtype=np.float64)
    if X1.ndim != 3:
        raise ValueError(f"X1 must have shape (n1, T, d), got {X1.shape}")
    _, T, d = X1.shape
    theta0 = init_zero(H, T, d, decoder)
    if alphas is None:
        alphas = ops.rng(seed).choice(np.array([-1.0, 1.0]), size=H)
    alphas = np.asarray(alphas, dtype=np.float64)
    if alphas.shape != (H,):
        raise ValueError(f"alphas must have shape ({H},), got {alphas.shape}")
    _, g = loss_and_grad(theta0, X1, y1, loss)
    k = -alphas * np.sqrt(H)
    U1 = k.reshape((H,) + (1,) * (g.U.ndim - 1)) * g.U
    W1 = k[:, None, None] * g.W
    return MHAParams(U1, W1, decoder), alphas


@dataclass
class TwoPhaseResult:
    """Sec. 5.1: theta^(1) from the first phase, its step signs alpha_h, and the second-phase run."""

    theta1: MHAParams
    alphas: Array
    run: TrainResult


def two_phase(X1: Array, y1: Array, X: Array, y: Array, H: int, decoder: str = "full", *,
              eta: float, steps: int, seed: int | None = None, loss: str = "logistic",
              X_test: Array | None = None, y_test: Array | None = None,
              eval_every: int = 0) -> TwoPhaseResult:
    """The two-phase scheme of Sec. 5.1: :func:`first_phase` on (X1, y1) (n1 samples), then
    K = ``steps`` GD steps of size eta on the n fresh samples (X, y), starting at theta^(1)."""
    theta1, alphas = first_phase(X1, y1, H, decoder, seed=seed, loss=loss)
    run = train(theta1, X, y, eta=eta, steps=steps, loss=loss, X_test=X_test, y_test=y_test,
                eval_every=eval_every)
    return TwoPhaseResult(theta1, alphas, run)


# ---------------------------------------------------------------------------------------
# measurements (each a function of a state)
# ---------------------------------------------------------------------------------------

@dataclass
class Distances:
    """||theta - theta_0|| in total, per head, and per block (U, W), per head and in total."""

    total: float
    per_head: Array
    U_per_head: Array
    W_per_head: Array
    U_total: float
    W_total: float


def distance(params: MHAParams, params0: MHAParams) -> Distances:
    """Distances of theta from a reference theta_0 (Thm. 1 bounds ||theta^(K) - theta^(0)||)."""
    _check_same(params, params0)
    H = params.H
    du = np.sqrt(np.sum((params.U - params0.U).reshape(H, -1) ** 2, axis=1))
    dw = np.sqrt(np.sum((params.W - params0.W).reshape(H, -1) ** 2, axis=1))
    ph = np.sqrt(du ** 2 + dw ** 2)
    return Distances(float(np.sqrt(np.sum(ph ** 2))), ph, du, dw,
                     float(np.sqrt(np.sum(du ** 2))), float(np.sqrt(np.sum(dw ** 2))))


def _check_same(a: MHAParams, b: MHAParams):
    if a.decoder != b.decoder or a.U.shape != b.U.shape or a.W.shape != b.W.shape:
        raise ValueError("parameter sets have different shapes or decoders")


def norm_2inf(params: MHAParams) -> float:
    """||theta~||_{2,inf} := max_h ||theta_h|| (Sec. 2)."""
    H = params.H
    return float(np.max(np.sqrt(np.sum(params.U.reshape(H, -1) ** 2, axis=1)
                                + np.sum(params.W.reshape(H, -1) ** 2, axis=1))))


def B2(params0: MHAParams) -> float:
    """P1 of Definition 1: the smallest B_2 with ||theta_h^(0)|| <= B_2 for all h (max_h ||theta_h^(0)||)."""
    return norm_2inf(params0)


def B_Phi(params0: MHAParams, X: Array) -> float:
    """P2 of Definition 1: max_i |Phi~(X_i; theta^(0))|."""
    return float(np.max(np.abs(forward(params0, X))))


def margins(params: MHAParams, X: Array, y: Array) -> Array:
    """Per-sample margins y_i Phi~(X_i; theta)."""
    X = _check_X(params, X)
    return _check_y(y, X.shape[0]) * _forward(params, X).phi


def grad_norm(params: MHAParams, X: Array, y: Array, loss: str = "logistic") -> float:
    """||grad L^(theta)||."""
    _, g = loss_and_grad(params, X, y, loss)
    return float(np.linalg.norm(g.flat()))


def hessian_extreme_eigenvalues(params: MHAParams, X: Array, y: Array,
                                loss: str = "logistic", tol: float = 1e-8, seed: int = 0,
                                dense_below: int = 200) -> tuple[float, float]:
    """(lambda_min, lambda_max) of grad^2 L^(theta) by Lanczos on exact HVPs (Cor. 1 (2)-(3)).

    Below ``dense_below`` parameters the Hessian is assembled from HVP columns instead.
    """
    X = _check_X(params, X)
    y = _check_y(y, X.shape[0])
    return ops.extreme_eigenvalues(lambda v: hvp(params, X, y, v, loss).flat(), params.size,
                                   tol=tol, seed=seed, dense_below=dense_below)


# --- per-sample Jacobians, NTK ---------------------------------------------------------

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
    from .svm import max_margin_gram

    X = _check_X(params0, X)
    y = _check_y(y, X.shape[0])
    res = max_margin_gram(ntk_gram(params0, X, max_bytes=max_bytes), y)
    gm = float(res.margin)
    theta = None
    if res.status == "optimal":
        w = model_vjp(params0, X, np.asarray(res.alpha) * y)
        theta = w.like(np.sqrt(2.0) * w.flat() / np.linalg.norm(w.flat()))
    return NTKMargin(np.sqrt(2.0) * gm, gm, str(res.status), theta, res)


# --- single-head quantities of Prop. 1 --------------------------------------------------

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


def memory_estimate(c: dict) -> float:
    """Bytes a compare/measure configuration of this model needs, before anything is
    allocated (checked against the budget of :mod:`boundcalc.engine.budget`): the token
    arrays of the three sample sets, the parameters and their gradients, per-head
    attention scores, the n x n NTK Gram matrix (its Jacobians are chunked to 2e8 bytes)
    and the per-step records."""
    n_all = c["n1"] + c["n"] + c["n_test"]
    T, d, H = c["T"], c["d"], c["H"]
    return 8.0 * (2 * n_all * T * d + 6 * H * (T * d + d * d) + c["n"] ** 2 + 3 * c["K"]
                  + 3 * max(c["n1"], c["n"], c["n_test"]) * H * T * T) + 2e8
