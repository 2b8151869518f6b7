"""Token-sequence data of Tarzanagh et al. 2023 (*Max-Margin Token Selection in Attention*).

An instance is a ``TokenDataset``: inputs X (n, T, d) with X[i, t] = x_it, labels
Y (n,) in {-1, +1}, key-query matrix W (d, d) (keys k_it = W x_it, i.e. K_i = X_i W^T as
in eq. (5)) and, when the paper fixes it, the prediction head v (d,).

* ``appendix_e``: the random instances of App. E (Figs. 9-10): x_it and v uniform on the
  unit sphere S^{d-1}, Y_i uniform on {-1, +1}, W = I (paper: n = 4, T = 6).
* ``fig1a``, ``fig1b``, ``fig1c``: the worked examples of Fig. 1 (fixed v = e_3,
  W = diag(1, 1, 0), so a token (a, b, c) has key (a, b, 0) and score Y c).
* ``fig3a``, ``fig3b``: the joint (v, p) examples of Fig. 3 (W = I, v trained).
* ``fig5``: the two-input example of Fig. 5 with the score parameter C.

Set-ups follow the formula sheet ``notes/tarzanagh2023.md`` §8 (read from the authors'
repository ``ucr-optml/max_margin_attention``); ``inits`` holds the initialisations p(0)
(and v(0)) that the repository uses for the figure.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from boundcalc.engine import ops

Array = np.ndarray


@dataclass(frozen=True)
class TokenDataset:
    """n inputs of T tokens in R^d, labels in {-1, +1}, key-query W, optional head v."""

    X: Array
    Y: Array
    W: Array
    v: Array | None = None
    name: str = ""
    inits: dict = field(default_factory=dict)

    def __post_init__(self):
        X = np.asarray(self.X, dtype=np.float64)
        Y = np.asarray(self.Y, dtype=np.float64)
        W = np.asarray(self.W, dtype=np.float64)
        if X.ndim != 3:
            raise ValueError(f"X must have shape (n, T, d), got {X.shape}")
        n, _T, d = X.shape
        if Y.shape != (n,) or not np.all(np.isin(Y, (-1.0, 1.0))):
            raise ValueError(f"Y must be a ({n},) array of -1/+1 labels")
        if W.shape != (d, d):
            raise ValueError(f"W must have shape ({d}, {d}), got {W.shape}")
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "Y", Y)
        object.__setattr__(self, "W", W)
        if self.v is not None:
            v = np.asarray(self.v, dtype=np.float64)
            if v.shape != (d,):
                raise ValueError(f"v must have shape ({d},), got {v.shape}")
            object.__setattr__(self, "v", v)

    @functools.cached_property
    def keys(self) -> Array:
        """K_i = X_i W^T, i.e. k_it = W x_it (eq. (5)); shape (n, T, d). Computed once (the
        data set is frozen) as one GEMM over all n T tokens, and read-only."""
        n, T, d = self.X.shape
        K = (self.X.reshape(n * T, d) @ self.W.T).reshape(n, T, d)
        K.flags.writeable = False
        return K

    @property
    def shape(self) -> tuple[int, int, int]:
        return self.X.shape


def unit_sphere(generator: np.random.Generator, shape: tuple[int, ...]) -> Array:
    """Points uniform on the unit sphere of the last axis (normalised standard Gaussians)."""
    if shape[-1] < 1:
        raise ValueError("the sphere dimension (last axis) must be >= 1")
    z = generator.standard_normal(shape)
    return z / np.linalg.norm(z, axis=-1, keepdims=True)


def appendix_e(n: int = 4, T: int = 6, d: int = 10, seed: int = 0) -> TokenDataset:
    """App. E / Fig. 9 instance: x_it, v ~ Unif(S^{d-1}), Y_i ~ Unif{-1, +1}, W = I.

    Draw order from ``ops.rng(seed)``: X (n, T, d), then v (d,), then Y (n,).
    """
    for name, val in (("n", n), ("T", T), ("d", d)):
        if int(val) != val or val < 1:
            raise ValueError(f"{name} must be a positive integer, got {val!r}")
    if T < 2:
        raise ValueError("T must be >= 2 tokens")
    g = ops.rng(seed)
    X = unit_sphere(g, (n, T, d))
    v = unit_sphere(g, (d,))
    Y = g.choice(np.array([-1.0, 1.0]), size=n)
    return TokenDataset(X, Y, np.eye(d), v, name=f"appendix_e(n={n},T={T},d={d},seed={seed})")


_W_FIG1 = np.diag([1.0, 1.0, 0.0])
_V_FIG1 = np.array([0.0, 0.0, 1.0])


def _fig1_inits() -> dict:
    return {"p0": [np.array([0.0, y, 0.0]) for y in (1.0, 0.5, 0.0, -0.5, -1.0, -1.5)]}


def fig1a() -> TokenDataset:
    """Fig. 1(a): n = 1, T = 3; keys (-0.1, 1) [score 1, optimal], (1, 0) [0.9], (0, 0) [0.9]."""
    X = np.array([[[-0.1, 1.0, 1.0], [1.0, 0.0, 0.9], [0.0, 0.0, 0.9]]])
    return TokenDataset(X, np.array([1.0]), _W_FIG1, _V_FIG1, "fig1a", _fig1_inits())


def fig1b() -> TokenDataset:
    """Fig. 1(b): as 1(a) but the token with key (0, 0) has score 0; (1, 0) is then
    locally optimal with SVM-neighbour (0, 0)."""
    X = np.array([[[-0.1, 1.0, 1.0], [1.0, 0.0, 0.9], [0.0, 0.0, 0.0]]])
    return TokenDataset(X, np.array([1.0]), _W_FIG1, _V_FIG1, "fig1b", _fig1_inits())


def fig1c(seed: int = 0) -> TokenDataset:
    """Fig. 1(c): n = 3, T = 7, Y_i = 1; key of token t = 0.2 N(0, I_2) + shift, with shift
    (1, 0) for t = 0 (score 1), (-1, 1) for t = 1..3 and (-0.5, -0.5) for t = 4..6 (score 0.5).

    The repository draws the noise with torch seed 0; here it comes from ``ops.rng(seed)``,
    so the keys differ from the published figure while following the same recipe.
    """
    g = ops.rng(seed)
    shift = np.array([[1.0, 0.0]] + [[-1.0, 1.0]] * 3 + [[-0.5, -0.5]] * 3)
    keys2 = 0.2 * g.standard_normal((3, 7, 2)) + shift
    score = np.array([1.0] + [0.5] * 6)
    X = np.concatenate([keys2, np.broadcast_to(score[None, :, None], (3, 7, 1))], axis=2)
    inits = {"p0": [np.array([x, 0.0, 0.0]) for x in (1.0, 0.5, 0.0, -0.5, -1.0, -1.5)]}
    return TokenDataset(X, np.ones(3), _W_FIG1, _V_FIG1, f"fig1c(seed={seed})", inits)


def _fig3(x3: tuple[float, float], name: str) -> TokenDataset:
    X = np.array([[[0.0, 0.0], [1.0, 1.0]],
                  [[0.0, 0.0], [1.0, -1.0]],
                  [[0.0, 0.0], list(x3)]])
    inits = {"p0": np.array([0.0, -1.0]), "v0": np.array([-1.0, 0.0])}
    return TokenDataset(X, np.array([1.0, -1.0, 1.0]), np.eye(2), None, name, inits)


def fig3a() -> TokenDataset:
    """Fig. 3(a) (Thm 5): X_1 = [(0,0),(1,1)], Y_1 = 1; X_2 = [(0,0),(1,-1)], Y_2 = -1;
    X_3 = [(0,0),(0.5,1)], Y_3 = 1; W = I; optimal token = second; v is trained."""
    return _fig3((0.5, 1.0), "fig3a")


def fig3b() -> TokenDataset:
    """Fig. 3(b) (Thm 6): as 3(a) but X_3 = [(0,0),(0.5,1.5)] (not a support vector)."""
    return _fig3((0.5, 1.5), "fig3b")


def fig5(C: float) -> TokenDataset:
    """Fig. 5: n = T = 2, d = 3, Y = (1, 1), v = e_3, W = diag(1, 1, 0);
    X_1 = [(0,0,0),(1,1,C)], X_2 = [(0,0,0),(1,-1,1)] (optimal scores C and 1); p(0) = 0."""
    C = float(C)
    if not np.isfinite(C):
        raise ValueError(f"C must be finite, got {C}")
    X = np.array([[[0.0, 0.0, 0.0], [1.0, 1.0, C]],
                  [[0.0, 0.0, 0.0], [1.0, -1.0, 1.0]]])
    return TokenDataset(X, np.ones(2), _W_FIG1, _V_FIG1, f"fig5(C={C:g})", {"p0": np.zeros(3)})
