"""Per-head quantities: the terms of one attention head and the random features.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .activation import Activation, activation
from .params import Array, _check_X, _query


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
    n, d, _T = X.shape
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
