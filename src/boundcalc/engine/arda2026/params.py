"""The parameters of the shallow model (``ShallowParams``), the paired initialisation, and
the checks of inputs, queries, labels and radii.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import ops

Array = np.ndarray


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

    def copy(self) -> ShallowParams:
        return ShallowParams(self.c.copy(), self.U.copy(), self.W.copy())

    def flat(self) -> Array:
        m = self.m
        return np.concatenate([self.c[:, None], self.U, self.W.reshape(m, -1)], axis=1).ravel()

    def like(self, vec: Array) -> ShallowParams:
        vec = np.asarray(vec, dtype=np.float64)
        if vec.shape != (self.size,):
            raise ValueError(f"flat vector must have shape ({self.size},), got {vec.shape}")
        m, d = self.m, self.d
        per = vec.reshape(m, 1 + d + d * d)
        return ShallowParams(per[:, 0].copy(), per[:, 1:1 + d].copy(),
                             per[:, 1 + d:].reshape(m, d, d).copy())

    def __sub__(self, other: ShallowParams) -> ShallowParams:
        _check_same(self, other)
        return ShallowParams(self.c - other.c, self.U - other.U, self.W - other.W)

    def __add__(self, other: ShallowParams) -> ShallowParams:
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


def _check_rho(rho) -> Array:
    r = np.asarray(rho, dtype=np.float64)
    if r.shape != (3,) or not np.all(r > 0) or np.any(np.isnan(r)):
        raise ValueError(f"rho must be (rho_c, rho_u, rho_w), all > 0 (np.inf disables a block), got {rho!r}")
    return r
