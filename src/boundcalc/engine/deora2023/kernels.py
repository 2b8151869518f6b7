"""The core kernels: forward and backward passes, vectorised over samples and heads.

Layout: K = T_q * H "query rows" indexed k = t*H + h; attention tensors are key-major
(n, T, K) so that the softmax reductions run over a non-contiguous axis (fast, vectorised
along K) and P = X U_eff^T is a single GEMM.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import ops
from .params import Array, MHAParams


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


def _softmax_keys_inplace(Z: Array, shift=True, reciprocal: bool = False) -> Array:
    """Softmax over the key axis (-2) of an (n, T, K) array, or of a batch (B, n, T, K), in
    place; ``shift=False`` skips the max subtraction (only for logits proved bounded:
    :func:`logit_bound`). For a batch, ``shift`` may be one flag per problem (B,).
    ``reciprocal``: multiply by 1 / sum instead of dividing (one rounding more, a faster pass)."""
    shift = np.asarray(shift, dtype=bool)
    if shift.ndim == 0 or shift.all():
        if shift.all():
            Z -= Z.max(axis=-2, keepdims=True)
    elif shift.any():                        # only the problems whose bound needs it
        idx = np.flatnonzero(shift)
        Z[idx] -= Z[idx].max(axis=-2, keepdims=True)
    np.exp(Z, out=Z)
    if reciprocal:
        Z *= np.reciprocal(Z.sum(axis=-2, keepdims=True))
    else:
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
    n, _T, d = f.X.shape
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
    """Samples per block so one (block, T, K) float64 array is about 1 MiB (stays in cache):
    the forward and tangent passes; the fused step uses :func:`_step_chunk`."""
    return int(max(1, min(n, (1 << 17) // max(1, T * K))))


def _step_chunk(n: int, T: int, K: int, itemsize: int) -> int:
    """Samples per block of the fused step: one (block, T, K) array of about 256 KiB, in
    bytes (a float32 block holds twice the samples), so that the step's half-dozen
    temporaries of that size or twice it stay within a 2 MiB L2 (issue 37: on the 2-core
    machine at load ~11, the float64 step at 1 MiB blocks ran at 0.22 of the GEMM rate, at
    128-512 KiB blocks at 0.26-0.28)."""
    return int(max(1, min(n, (1 << 18) // max(1, T * K * itemsize))))


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
    grad U_eff (B, K d), grad W_rows (B, d, H d)), float64.

    Every token is a query for the 'full' and 'pooling' decoders (:func:`_batch_all_queries`);
    the 'last' decoder has one query per sample (:func:`_batch_one_query`)."""
    dt = ops.check_dtype(dtype)
    shift = np.array([ops.softmax_needs_shift(logit_bound(p, x), dt) for p, x in zip(plist, X)])
    nb, n, T, _d = X.shape
    Tq = 1 if plist[0].decoder == "last" else T
    chunk = max(1, _step_chunk(n, T, Tq * plist[0].H, dt.itemsize) // nb) if chunk is None else int(chunk)
    X = X if X.dtype == dt else X.astype(dt)
    kernel = _batch_one_query if Tq == 1 else _batch_all_queries
    L, gU, gWr = kernel(plist, X, y.astype(dt), ops.margin_loss(loss_name), chunk, dt, shift)
    return L, gU.astype(np.float64), gWr.astype(np.float64)


def _batch_all_queries(plist: list, X: Array, y: Array, loss, chunk: int, dt, shift) -> tuple[Array, Array, Array]:
    """The fused step when every token is a query (Q = X), around few large products
    (issue 37). With Y[s, h] = W_h x_s (one GEMM over the block's n T tokens, inner d) the
    logits are z[s, (h, t)] = q_t^T W_h x_s = Y[s, h] . x_t, one product per sample of the
    C-contiguous (T H, d) x (d, T); the query rows k' = (h, t) are head-major here (the
    caller's layout is t-major, converted once at the end). Then, each exact in real
    arithmetic:

    * r_k' = sum_s S_sk' P_sk' (P = X U_eff^T) is both the centring of the logit adjoint and
      U_k' . O_k', so the output is phi = H^{-1/2} sum_k' r_k' and O = S^T X is never formed;
    * grad U_eff = H^{-1/2} sum_i c_i O_i = (c X)^T S, one GEMM over the block's tokens;
    * grad W through Y: dY[s, h] = sum_t D[s, (h, t)] q_t, one (T H, T) x (T, d) product per
      sample of the logit adjoint D = S * (P - r), then grad W_h^T = sum_i c_i sum_s
      dY[s, h] x_s^T, one GEMM over the block's tokens (c in the X factor);
    * the softmax's normaliser is applied as a product with its reciprocal.
    """
    lf, l1, _ = loss
    nb, n, T, d = X.shape
    H = plist[0].H
    K = T * H
    s = 1.0 / np.sqrt(H)
    # WY[b, h d + a] = W_h[a, b], so (x @ WY)[h d + a] = (W_h x)_a
    WY = np.stack([np.ascontiguousarray(p.W.transpose(2, 0, 1)).reshape(d, H * d) for p in plist]).astype(dt)
    UkT = np.stack([_u_eff(p.decoder, p.U, T).transpose(2, 1, 0).reshape(d, K) for p in plist]).astype(dt)
    ys = (s * y).astype(dt)                                    # margin m = ys * sum_k' r_k'
    yc_w = ((s / n) * y).astype(dt)                            # loss weight c = l'(m) yc_w
    gUT = np.zeros((nb, d, K), dtype=dt)
    gWY = np.zeros((nb, d, H * d), dtype=dt)
    XT = np.ascontiguousarray(X.transpose(0, 1, 3, 2))        # X_i^T, C-contiguous: a fast product
    margins = np.empty((nb, n), dtype=dt)
    chunk = max(1, min(chunk, n))
    Yb = np.empty((nb, chunk, T * H, d), dtype=dt)            # Y, then dY: reused block to block
    Sb, Pb = np.empty((2, nb, chunk, T, K), dtype=dt)
    rb = np.empty((nb, chunk, K), dtype=dt)
    with ops.single_threaded_blas():     # tiny GEMMs: threads only add sync cost
        for i0 in range(0, n, chunk):
            Xc = X[:, i0:i0 + chunk]
            nc = Xc.shape[1]
            X2 = Xc.reshape(nb, nc * T, d)
            Y, S, P, r = Yb[:, :nc], Sb[:, :nc], Pb[:, :nc], rb[:, :nc]
            np.matmul(X2, WY, out=Y.reshape(nb, nc * T, H * d))           # Y[s, h] = W_h x_s
            np.matmul(Y, XT[:, i0:i0 + nc], out=S.reshape(nb, nc, T * H, T))   # z[s, (h, t)]
            _softmax_keys_inplace(S, shift, reciprocal=True)
            np.matmul(X2, UkT, out=P.reshape(nb, nc * T, K))              # x_s . U_eff[t, h]
            np.einsum("...sk,...sk->...k", S, P, out=r)                   # (nb, nc, K)
            P -= r[:, :, None, :]
            P *= S                                                        # logit adjoint D
            m = margins[:, i0:i0 + nc]
            np.sum(r, axis=-1, out=m)
            m *= ys[:, i0:i0 + nc]
            c = l1(m)
            c *= yc_w[:, i0:i0 + nc]
            Xw = (Xc * c[:, :, None, None]).reshape(nb, nc * T, d)
            gUT += Xw.transpose(0, 2, 1) @ S.reshape(nb, nc * T, K)
            dY = np.matmul(P.reshape(nb, nc, T * H, T), Xc, out=Y)        # (nb, nc, T H, d), unweighted
            gWY += Xw.transpose(0, 2, 1) @ dY.reshape(nb, nc * T, H * d)
    # to the caller's layouts: U_eff's t-major rows, W_rows[a, h d + b] = dW_h[a, b]
    gU = gUT.reshape(nb, d, H, T).transpose(0, 3, 2, 1).reshape(nb, K * d)
    gWr = gWY.reshape(nb, d, H, d).transpose(0, 3, 2, 1).reshape(nb, d, H * d)
    return np.sum(lf(margins), axis=1, dtype=np.float64) / n, gU, gWr


def _batch_one_query(plist: list, X: Array, y: Array, loss, chunk: int, dt, shift) -> tuple[Array, Array, Array]:
    """The fused step with one query per sample (the 'last' decoder, K = H query rows)."""
    lf, l1, _ = loss
    nb, n, T, d = X.shape
    p0 = plist[0]
    H = p0.H
    Tq = 1
    K = Tq * H
    s = 1.0 / np.sqrt(H)
    Wr = np.stack([_w_rows(p.W) for p in plist]).astype(dt)                     # (B, d, H d)
    Uk = np.stack([_u_eff(p.decoder, p.U, T).reshape(K, d) for p in plist]).astype(dt)   # (B, K, d)
    UkT = np.ascontiguousarray(Uk.transpose(0, 2, 1))
    u_col = Uk.reshape(nb, K * d, 1)
    gU = np.zeros((nb, 1, K * d), dtype=dt)
    gWr = np.zeros((nb, d, H * d), dtype=dt)
    total = np.zeros(nb)
    with ops.single_threaded_blas():     # tiny GEMMs: threads only add sync cost
        for i0 in range(0, n, chunk):
            Xc = X[:, i0:i0 + chunk]
            yc = y[:, i0:i0 + chunk]
            nc = Xc.shape[1]
            Qc = Xc[:, :, -1:, :]
            A = (Qc.reshape(nb, nc * Tq, d) @ Wr).reshape(nb, nc, K, d)
            S = np.matmul(Xc, A.transpose(0, 1, 3, 2))
            _softmax_keys_inplace(S, shift)
            O = np.matmul(S.transpose(0, 1, 3, 2), Xc)
            Of = O.reshape(nb, nc, K * d)
            m = yc * (s * (Of @ u_col)[..., 0])
            total += np.sum(lf(m), axis=1)
            c = ((s / n) * l1(m) * yc).astype(dt, copy=False)     # float64 (m is): back to dt,
            #   else the two products below run in float64 on float64 copies (issue 37)
            gU += c[:, None, :] @ Of
            P = (Xc.reshape(nb, nc * T, d) @ UkT).reshape(nb, nc, T, K)
            P -= _rowdot(S, P)[:, :, None, :]
            P *= S
            B = np.matmul(P.transpose(0, 1, 3, 2), Xc)
            Qw = (Qc * c[:, :, None, None]).reshape(nb, nc * Tq, d)
            gWr += Qw.transpose(0, 2, 1) @ B.reshape(nb, nc * Tq, H * d)
    return total / n, gU[:, 0], gWr


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
