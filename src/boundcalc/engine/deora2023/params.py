"""The parameters of the multi-head model (``MHAParams``), their initialisations and the
checks of inputs, labels and options.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import ops

Array = np.ndarray
DECODERS = ("full", "pooling", "last")


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

    def copy(self) -> MHAParams:
        return MHAParams(self.U.copy(), self.W.copy(), self.decoder)

    def flat(self) -> Array:
        """theta~ = concat_h (vec U_h, vec W_h) as one vector of length H * per_head_size."""
        H = self.H
        return np.concatenate([self.U.reshape(H, -1), self.W.reshape(H, -1)], axis=1).ravel()

    def like(self, vec: Array) -> MHAParams:
        """Parameters with this shape filled from a flat vector (inverse of :meth:`flat`)."""
        vec = np.asarray(vec, dtype=np.float64)
        if vec.shape != (self.size,):
            raise ValueError(f"flat vector must have shape ({self.size},), got {vec.shape}")
        per = vec.reshape(self.H, self.per_head_size)
        nu = self.U[0].size
        return MHAParams(per[:, :nu].reshape(self.U.shape).copy(),
                         per[:, nu:].reshape(self.W.shape).copy(), self.decoder)

    def heads(self, idx) -> MHAParams:
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


def _check_chunk(chunk):
    if chunk is not None and (int(chunk) != chunk or chunk < 1):
        raise ValueError(f"chunk must be a positive integer, got {chunk!r}")


def _check_same(a: MHAParams, b: MHAParams):
    if a.decoder != b.decoder or a.U.shape != b.U.shape or a.W.shape != b.W.shape:
        raise ValueError("parameter sets have different shapes or decoders")
