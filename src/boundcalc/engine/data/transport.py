"""Teacher of Arda, Cayci & Eryilmaz (2026), Sec. 6.1: a target in the NTK's RKHS given by a
transportation mapping (notes/arda2026.md Sec. 4.4 and 6.1).

Inputs (Sec. 6.1): X in R^{d x T} with IID N(0,1) entries, each token (column) rescaled by
min(1, 1/||x_t||) so that max_t ||x_t|| <= 1.  Batches are (n, d, T).

Teacher: R anchors X_R^(r) drawn once from the input distribution and weights w_r, and

    v(phi) = sum_r w_r v^(r)(phi),
    v_c^(r) = (nu_c / sigma_0) phi_c(X_R^(r)),  v_u^(r) = (nu_u / sigma_1) phi_u(X_R^(r)),
    v_w^(r) = clip_F(phi_w(X_R^(r)), nu_w),     clip_F(A, nu) = A min(1, nu / ||A||_F),

with the random features phi_c, phi_u, phi_w of Sec. 5.4 evaluated at head parameters
phi = (c, U, W) (c is unused) and query q_X = X_T.  Since |phi_c| <= sigma_0,
||phi_u|| <= sigma_1 ||a|| <= sigma_1 on the clipped inputs and sum_r |w_r| = 1, v lies in
V_nu (Sec. 4.4).  The paper uses w_r = 1/R (``weights='uniform'``); the authors' code uses
Gaussian weights normalised to sum_r |w_r| = 1 (``weights='signed'``) [code, inferred].
The code takes the anchors as a random subset of the training inputs; here they are
independent draws from the same input distribution (the paper's wording).

Labels (Monte-Carlo estimate of eq. (10) over an IID, *unpaired* pool of m~ heads,
U ~ N(0, I_d), W_kl ~ N(0, 1)):

    y~_j = (1/m~) sum_i [ phi_c(X_j) v_c + <phi_u(X_j), v_u> + <phi_w(X_j), v_w>_F ](phi_i).

Paper settings: m~ = 8192, d = 8, T = 16, n = 5000, nu = (3, 3, 3), tanh; code: R = 16.

Teacher variants (``teacher=``):

* ``"paper"`` (default): the features of Sec. 5.4 with the attention score X^T W q_X, as
  in the paper and in the model the authors train;
* ``"authors-code"``: what the authors' ``data.py`` computes for the teacher's labels,
  ``einsum("kdd,bd->bkd", W, X_T)``: a repeated index in one einsum operand takes the
  diagonal, so the score is X^T (diag(W) * q_X), i.e. W_k replaced by diag(W_k) (both at the
  inputs and at the anchors; the M(X; W) U part then uses those attention weights).  The
  model the code trains (``model.py``, ``"mdk,bk->bmd"``) uses the full W_k, so student and
  teacher features differ in that code.  Implemented here by zeroing the off-diagonal
  entries of every pool/head W before the teacher's features are computed.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import ops
from ..arda2026 import Activation, activation, random_features

Array = np.ndarray

TEACHERS = ("paper", "authors-code")


def clipped_gaussian_inputs(n: int, d: int, T: int,
                            seed: int | np.random.Generator | None = None) -> Array:
    """n inputs (n, d, T): IID N(0,1) entries, every token scaled by min(1, 1/||x_t||)."""
    for name, v in (("n", n), ("d", d), ("T", T)):
        if int(v) != v or v < 1:
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    g = seed if isinstance(seed, np.random.Generator) else ops.rng(seed)
    X = g.standard_normal((n, d, T))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1, keepdims=True))
    return X


@dataclass(frozen=True)
class TransportTeacher:
    """The transportation mapping v of Sec. 6.1 (callable on head parameters) and its labels."""

    anchors: Array          # (R, d, T)
    weights: Array          # (R,), sum |w_r| = 1
    nu: Array               # (nu_c, nu_u, nu_w)
    act: Activation
    query: str = "last"
    variant: str = "paper"

    def _W(self, W: Array) -> Array:
        """The W the teacher's features use: W itself ('paper') or its diagonal part
        ('authors-code', see the module docstring)."""
        if self.variant == "paper":
            return W
        return W * np.eye(W.shape[-1])

    @property
    def d(self) -> int:
        return self.anchors.shape[1]

    def _anchor_terms(self, U: Array, W: Array):
        """Per-head coefficients: v_c (k,), v_u (k,d), and B (R,k,d), q_R (R,d) with
        v_w(phi_i) = sum_r B[r,i] q_R[r]^T."""
        s0, s1, _ = self.act.sigma_bar
        F = random_features(U, self._W(W), self.anchors, self.query, self.act)
        w = self.weights
        vc = (self.nu[0] / s0) * (w @ F["phi_c"])
        vu = (self.nu[1] / s1) * np.einsum("r,rkd->kd", w, F["phi_u"])
        left, qR = F["phi_w_left"], F["q"]
        fro = np.linalg.norm(left, axis=2) * np.linalg.norm(qR, axis=1)[:, None]   # ||phi_w||_F
        kappa = np.minimum(1.0, self.nu[2] / np.maximum(fro, 1e-300))
        B = (w[:, None] * kappa)[..., None] * left
        return vc, vu, B, qR

    def __call__(self, c: Array, U: Array, W: Array) -> tuple[Array, Array, Array]:
        """(v_c, v_u, v_w) at heads (c (k,), U (k,d), W (k,d,d)), shapes (k,), (k,d), (k,d,d)."""
        U = np.asarray(U, dtype=np.float64)
        W = np.asarray(W, dtype=np.float64)
        if U.ndim != 2 or U.shape[1] != self.d or W.shape != (U.shape[0], self.d, self.d):
            raise ValueError(f"U must be (k, {self.d}) and W (k, {self.d}, {self.d}); "
                             f"got {U.shape}, {W.shape}")
        vc, vu, B, qR = self._anchor_terms(U, W)
        return vc, vu, np.einsum("rka,rb->kab", B, qR)

    def value(self, X: Array, U: Array, W: Array, *, max_bytes: float = 1e8) -> Array:
        """(1/k) sum_i [phi_c v_c + <phi_u, v_u> + <phi_w, v_w>_F](U_i, W_i) at every X_j.

        With an IID pool this is the Monte-Carlo label y~ of Sec. 6.1; with the m paired
        initial heads it equals f_lin(X; phi~) (eq. (11) consequence, notes Sec. 4.5).
        Computed in sample blocks; phi_w is never materialised:
        <phi_w(X_j), v_w(phi_i)> = <phi_w_left_ji, sum_r B_ri (q_r . q_j)>.
        """
        U = np.asarray(U, dtype=np.float64)
        W = np.asarray(W, dtype=np.float64)
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 3 or X.shape[1] != self.d:
            raise ValueError(f"X must have shape (n, {self.d}, T), got {X.shape}")
        k = U.shape[0]
        vc, vu, B, qR = self._anchor_terms(U, W)
        Wf = self._W(W)
        n, d, T = X.shape
        step = int(max(1, max_bytes // (8.0 * k * (3 * T + 5 * d))))
        out = np.empty(n)
        Bf = B.reshape(B.shape[0], k * d)
        for j0 in range(0, n, step):
            F = random_features(U, Wf, X[j0:j0 + step], self.query, self.act)
            nc = F["phi_c"].shape[0]
            vwq = ((F["q"] @ qR.T) @ Bf).reshape(nc, k, d)           # v_w(phi_i) q_j
            tot = (F["phi_c"] @ vc + np.einsum("nkd,kd->n", F["phi_u"], vu)
                   + np.einsum("nkd,nkd->n", F["phi_w_left"], vwq))
            out[j0:j0 + nc] = tot / k
        return out


def make_teacher(d: int, T: int, *, R: int = 16, nu=(3.0, 3.0, 3.0), weights: str = "uniform",
                 act: str | Activation = "tanh", seed: int | np.random.Generator | None = None,
                 anchors: Array | None = None, teacher: str = "paper") -> TransportTeacher:
    """Teacher of Sec. 6.1 with R anchors from the clipped-Gaussian input law (or given);
    ``teacher``: 'paper' or 'authors-code' (module docstring)."""
    if teacher not in TEACHERS:
        raise ValueError(f"teacher must be one of {', '.join(TEACHERS)}, got {teacher!r}")
    g = seed if isinstance(seed, np.random.Generator) else ops.rng(seed)
    nu = np.asarray(nu, dtype=np.float64)
    if nu.shape != (3,) or not np.all(np.isfinite(nu)) or not np.all(nu > 0):
        raise ValueError(f"nu must be three positive numbers (nu_c, nu_u, nu_w), got {nu!r}")
    if anchors is None:
        if int(R) != R or R < 1:
            raise ValueError(f"R must be a positive integer, got {R!r}")
        anchors = clipped_gaussian_inputs(R, d, T, g)
    anchors = np.asarray(anchors, dtype=np.float64)
    if anchors.ndim != 3 or anchors.shape[1:] != (d, T):
        raise ValueError(f"anchors must have shape (R, {d}, {T}), got {anchors.shape}")
    R = anchors.shape[0]
    if weights == "uniform":
        w = np.full(R, 1.0 / R)
    elif weights == "signed":
        w = g.standard_normal(R)
        w /= np.sum(np.abs(w))
    else:
        raise ValueError(f"weights must be 'uniform' (paper) or 'signed' (code), got {weights!r}")
    return TransportTeacher(anchors, w, nu, activation(act), variant=teacher)


def iid_pool(k: int, d: int, seed: int | np.random.Generator | None = None) -> tuple[Array, Array]:
    """k IID head draws (U ~ N(0, I_d), W ~ N(0,1) entries), unpaired: the teacher's MC pool."""
    if int(k) != k or k < 1:
        raise ValueError(f"pool size must be a positive integer, got {k!r}")
    g = seed if isinstance(seed, np.random.Generator) else ops.rng(seed)
    W = g.standard_normal((k, d, d))
    U = g.standard_normal((k, d))
    return U, W


@dataclass(frozen=True)
class TransportData:
    """Inputs, Monte-Carlo teacher labels, the teacher and its pool."""

    X: Array
    y: Array
    teacher: TransportTeacher
    pool_U: Array
    pool_W: Array


def teacher_student_data(n: int, d: int = 8, T: int = 16, *, R: int = 16, nu=(3.0, 3.0, 3.0),
                         pool_size: int = 8192, weights: str = "uniform",
                         act: str | Activation = "tanh",
                         seed: int | None = None, teacher: str = "paper") -> TransportData:
    """The Sec. 6.1 data set: n clipped-Gaussian inputs labelled by the MC teacher.

    One seed drives, in order, the anchors (and signed weights), the pool, and the inputs.
    """
    g = ops.rng(seed)
    t = make_teacher(d, T, R=R, nu=nu, weights=weights, act=act, seed=g, teacher=teacher)
    U, W = iid_pool(pool_size, d, g)
    X = clipped_gaussian_inputs(n, d, T, g)
    return TransportData(X, t.value(X, U, W), t, U, W)
