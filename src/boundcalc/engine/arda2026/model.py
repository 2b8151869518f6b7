"""The model, its loss and gradient, and its Jacobian-vector product.
"""
from __future__ import annotations

import numpy as np

from .. import ops
from .activation import Activation, activation
from .heads import head_MU, head_terms
from .params import Array, ShallowParams, _check_same, _check_X, _check_y, _query


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


def _auto_chunk(n: int, T: int, m: int, itemsize: int = 8) -> int:
    """Samples per block so one (block, T, m) array is about 512 KiB (the step's two such
    buffers, reused from block to block, fill a 1 MiB L2): in bytes, so a float32 block
    holds twice the samples of a float64 one (issue 37: at m = 256, blocks of 512 KiB ran
    the step ~10 % faster than 256 KiB, as fewer blocks make fewer NumPy calls)."""
    return int(max(1, min(n, (1 << 19) // max(1, T * m * itemsize))))


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
      (block, m) arrays;
    * the two contractions with X are taken *before* the head weights are known (issue 37):
      X E and X (E s) (one (d, T) x (T, m) product per sample each, s = X^T U). The
      backward weight of head i, w = gpre / sum_t E, is constant over t, so
      grad_U = sum_j w (X E) and gpre (M U) = X (alpha gpre (s - pre)) = w (X (E s) - pre X E)
      are formed on the (block, d, m) results: the (block, T, m) arrays see only exp and
      one product (no pass for the weights, none for the centring s - pre);
    * pre = U_i^T a_i = (sum_t E s) / (sum_t E), both sums from the same two products with
      X given a row of ones, [X; 1] E and [X; 1] (E s) (no reduction pass; issue 37);
    * w = r_j sm c_i sigma'_ji / sum_t E: the head's factor sm c_i is applied once after the
      blocks and the sample's r_j is folded into q_j (grad_W) or into one GEMV (grad_U), so
      the (block, d + 1, m) arrays see only sigma' / sum_t E and pre, each pass over the
      whole C-contiguous buffer (the block buffers are reused from block to block);
    * the maximum is subtracted from the logits only when :func:`logit_bound` exceeds
      :data:`ops.LOGIT_LIMIT` (a bound, not a test on the values: safe by construction);
    * sigma and sigma' come from one evaluation (``Activation.f_d1``: tanh once);
    * a(X; W_i) is never formed.

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
    chunk = max(1, min(n, _auto_chunk(n, T, m, dt.itemsize) if chunk is None else int(chunk)))
    X, Xt, q, y = (a if a.dtype == dt else a.astype(dt) for a in (X, Xt, q, y))
    c = params.c.astype(dt)
    UT = np.ascontiguousarray(params.U.T, dtype=dt)                 # (d, m)
    Wp = np.ascontiguousarray(params.W.transpose(2, 1, 0), dtype=dt).reshape(d, d * m)
    # per-block buffers; Xa = [X; 1 ... 1]: its last row gives sum_t E and sum_t E s from
    # the same products as X E and X (E s)
    Xa = np.ones((chunk, d + 1, T), dtype=dt)
    Eb, Sb = np.empty((2, chunk, T, m), dtype=dt)
    XEb, Gb = np.empty((2, chunk, d + 1, m), dtype=dt)
    gc = np.zeros(m, dtype=dt)
    gUt = np.zeros((d + 1) * m, dtype=dt)
    gWp = np.zeros(((d + 1) * m, d), dtype=dt)
    total = 0.0
    with ops.single_threaded_blas():     # tiny GEMMs: threads only add sync cost
        for i0 in range(0, n, chunk):
            Xtc, qc = Xt[i0:i0 + chunk], q[i0:i0 + chunk]
            nc = Xtc.shape[0]
            E, S, XE, G, Xac = Eb[:nc], Sb[:nc], XEb[:nc], Gb[:nc], Xa[:nc]
            np.matmul(Xtc, (qc @ Wp).reshape(nc, d, m), out=E)         # (nc,T,m): X_t^T W_i q   (2)
            if shift:
                E -= E.max(axis=1, keepdims=True)
            np.exp(E, out=E)
            np.matmul(Xtc.reshape(nc * T, d), UT, out=S.reshape(nc * T, m))   # X_t^T U_i
            S *= E                                                  # E s
            Xac[:, :d] = X[i0:i0 + nc]
            np.matmul(Xac, E, out=XE)                               # (nc,d+1,m): X E; sum_t E
            np.matmul(Xac, S, out=G)                                # X (E s); sum_t E s
            inv = np.reciprocal(XE[:, d])                           # (nc,m): 1 / sum_t E
            pre = G[:, d] * inv                                     # U_i^T a_i
            h, v = A.f_d1(pre)                                      # (3)
            res = h @ c
            res *= sm
            res -= y[i0:i0 + nc]                                    # f - y   (4)
            total += float(res @ res)
            res *= 2.0 / n                                          # r = dL/df
            gc += res @ h                                           # (5), times sm at the end
            v *= inv                                                # sigma' / sum_t E
            vb = v[:, None, :]
            # on all d + 1 rows (C-contiguous passes; the sums' row is not used below)
            XE *= vb                                                # X (alpha sigma')
            gUt += res @ XE.reshape(nc, (d + 1) * m)                # (6), times sm c at the end
            G *= vb
            XE *= pre[:, None, :]
            G -= XE                                                 # sigma' (M U)
            gWp += G.reshape(nc, (d + 1) * m).T @ (qc * res[:, None])    # (7): r sigma' (M U) q^T
    # the factors common to every sample: sm for c, sm c_i for head i's U_i and W_i
    gc *= sm
    hc = sm * c
    gU = (gUt[:d * m].reshape(d, m) * hc).T
    gW = (gWp[:d * m].reshape(d, m, d) * hc[None, :, None]).transpose(1, 0, 2)
    return (total / n, ShallowParams(gc.astype(np.float64), np.ascontiguousarray(gU, dtype=np.float64),
                                     np.ascontiguousarray(gW, dtype=np.float64)))


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
