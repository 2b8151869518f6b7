"""Hard-margin SVM problems: the generic max-margin classifier and those of Tarzanagh et al. 2023.

Every problem here is a *least-distance program* (LDP)

    min_x ||x||   subject to   G x >= h                                   (LDP)

(G: (m, p) constraint rows, h: (m,) right-hand sides). It is solved exactly by the
Lawson-Hanson reduction to non-negative least squares (Lawson & Hanson, *Solving Least
Squares Problems*, SIAM 1995, Ch. 23, Alg. LDP): with E = [G^T; h^T] and f = e_{p+1},

    u = argmin_{u >= 0} ||E u - f||,      r = E u - f.

If r = 0 the constraints are infeasible and u is a Farkas certificate (u >= 0,
G^T u = 0, h^T u = 1); otherwise x = -r[:p] / r[p] and the Lagrange multipliers of
(LDP) (so that x = G^T lambda, lambda >= 0, lambda_j (G x - h)_j = 0) are
lambda = u / (1 - h^T u). The NNLS problem is the Lagrange dual of (LDP) up to this
rescaling; it is solved by ``scipy.optimize.nnls`` (active set, finite termination).

Problems provided
-----------------
* ``max_margin`` / ``max_margin_gram``: hard-margin SVM without bias,
  min ||w|| s.t. y_i <w, f_i> >= 1, from features or from a Gram matrix.
* ``att_svm``: (ATT-SVM) of Tarzanagh et al. 2023: p^mm(alpha) = argmin ||p|| s.t.
  (k_{i alpha_i} - k_{it})^T p >= 1 for all i and t != alpha_i.
* ``att_svm_relaxed``: the relaxed problem (10): right-hand side 1 for inputs i in the
  support set S of (SVM), 0 for the others.
* ``v_mm``: (SVM), v^mm = argmin ||v|| s.t. Y_i v^T r_i >= 1.
* Definition 2 (SVM-neighbours ``svm_neighbours``, ``is_locally_optimal``) and
  Definition 3 (``selected_tokens`` (59), ``directional_margin`` (60),
  ``directional_neighbours`` (61), ``is_neighbour_optimal``).

Keys are passed as an array ``keys`` of shape (n, T, d) with ``keys[i, t] = k_it``;
for the model of the paper k_it = W x_it, i.e. ``keys = X @ W.T`` (eq. (5), K = X W^T).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import nnls

Array = np.ndarray

#: relative tolerance on ||r|| below which (LDP) is declared infeasible (margin < this,
#: in units of the largest constraint row norm)
INFEASIBLE_TOL = 1e-9
#: tolerance for "active" constraints (gap within this of its right-hand side)
ACTIVE_TOL = 1e-7


# --- the solver ----------------------------------------------------------------------

@dataclass(frozen=True)
class LDPResult:
    """Solution of min ||x|| s.t. G x >= h.

    ``x``: minimiser (zeros if infeasible); ``multipliers``: lambda >= 0 with
    x = G^T lambda (a Farkas certificate u >= 0, G^T u = 0, h^T u = 1 if infeasible);
    ``status``: 'optimal' | 'infeasible' | solver message; ``kkt_residual``: largest
    violation of the KKT conditions (see ``kkt_residual``), or ||G^T u|| / ||G|| for the
    certificate when infeasible.
    """

    x: Array
    multipliers: Array
    status: str
    kkt_residual: float


def _check_matrix(name: str, a, ndim: int) -> Array:
    a = np.asarray(a, dtype=np.float64)
    if a.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-d array, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or inf")
    return a


def kkt_residual(G: Array, h: Array, x: Array, lam: Array) -> float:
    """Largest KKT violation of (LDP) at (x, lambda), in relative units.

    max of: primal feasibility max_j (h_j - G_j x)_+ / s, dual feasibility
    max_j (-lambda_j)_+ / max(1, ||lambda||_inf), complementary slackness
    max_j |lambda_j (G_j x - h_j)| / (s * max(1, ||lambda||_1)) and stationarity
    ||x - G^T lambda|| / max(1e-300, ||x||), where s = max(1, max_j |h_j|).
    """
    g = G @ x - h
    s = max(1.0, float(np.max(np.abs(h))) if h.size else 1.0)
    lam_scale = max(1.0, float(np.max(np.abs(lam))) if lam.size else 1.0)
    parts = [
        float(np.max(np.maximum(-g, 0.0))) / s if g.size else 0.0,
        float(np.max(np.maximum(-lam, 0.0))) / lam_scale if lam.size else 0.0,
        float(np.max(np.abs(lam * g))) / (s * max(1.0, float(np.sum(np.abs(lam)))))
        if lam.size else 0.0,
        float(np.linalg.norm(x - G.T @ lam)) / max(1e-300, float(np.linalg.norm(x)))
        if np.any(x) else float(np.linalg.norm(G.T @ lam)),
    ]
    return max(parts)


def min_norm_point(G, h) -> LDPResult:
    """Solve (LDP) min ||x|| s.t. G x >= h by the Lawson-Hanson NNLS reduction.

    G: (m, p) rows of the constraints, h: (m,) right-hand sides (any sign).
    """
    G = _check_matrix("G", G, 2)
    h = _check_matrix("h", h, 1)
    m, p = G.shape
    if h.shape != (m,):
        raise ValueError(f"h must have shape ({m},) to match G {G.shape}, got {h.shape}")
    if m == 0 or np.all(h <= 0):
        # x = 0 is feasible and has the least norm; multipliers 0 satisfy every condition
        return LDPResult(np.zeros(p), np.zeros(m), "optimal", 0.0)
    scale = float(np.max(np.linalg.norm(G, axis=1)))
    if scale == 0.0:  # every row zero while some h_j > 0: infeasible
        u = np.zeros(m)
        j = int(np.argmax(h))
        u[j] = 1.0 / h[j]
        return LDPResult(np.zeros(p), u, "infeasible", 0.0)
    hmax = float(np.max(h))
    Gs, hs = G / scale, h / hmax
    E = np.vstack([Gs.T, hs[None, :]])
    f = np.zeros(p + 1)
    f[p] = 1.0
    try:
        u, rnorm = nnls(E, f, maxiter=50 * (m + p + 1))
    except RuntimeError as exc:  # iteration limit
        return LDPResult(np.zeros(p), np.zeros(m), f"nnls failed: {exc}", float("inf"))
    r = E @ u - f
    if rnorm <= INFEASIBLE_TOL or -r[p] <= INFEASIBLE_TOL ** 2:
        # ||r||^2 = 1/(1 + ||x_s||^2): the scaled margin 1/||x_s|| ~ ||r|| vanished
        hu = float(h @ u)
        cert = u / hu if hu > 0 else u  # h^T cert = 1
        res = float(np.linalg.norm(Gs.T @ cert))
        return LDPResult(np.zeros(p), cert, "infeasible", res)
    xs = -r[:p] / r[p]
    lam_s = u / (-r[p])
    x = xs * (hmax / scale)
    lam = lam_s * (hmax / scale ** 2)
    res = kkt_residual(G, h, x, lam)
    return LDPResult(x, lam, "optimal", res)


# --- hard-margin SVM without bias -----------------------------------------------------

@dataclass(frozen=True)
class MarginResult:
    """Hard-margin SVM without bias, min ||w|| s.t. y_i <w, f_i> >= 1.

    ``alpha``: dual variables (w* = sum_i alpha_i y_i f_i is the minimum-norm solution);
    for inseparable data a Farkas certificate (alpha >= 0, sum alpha_i y_i f_i = 0,
    sum alpha_i = 1). ``margin``: geometric margin min_i y_i <w, f_i> / ||w|| =
    1/||w*|| = dist(0, conv{y_i f_i}); 0.0 when the data are not strictly separable
    (status 'inseparable'). ``kkt_residual``: see ``svm.kkt_residual``.
    ``w``: unit normal w*/||w*|| (``max_margin`` only; zeros if inseparable).
    """

    alpha: Array
    margin: float
    status: str
    kkt_residual: float
    w: Array | None = field(default=None)

    @property
    def solution(self) -> Array:
        """The minimum-norm solution w* = w / margin of min ||w|| s.t. y_i<w,f_i> >= 1."""
        if self.w is None:
            raise ValueError("solution needs features: use max_margin, not max_margin_gram")
        if self.status != "optimal":
            raise ValueError(f"no solution: status {self.status!r}")
        return self.w / self.margin


def _check_labels(y, n: int) -> Array:
    y = np.asarray(y, dtype=np.float64)
    if y.shape != (n,):
        raise ValueError(f"y must have shape ({n},), got {y.shape}")
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("y must contain only -1 and +1")
    return y


def max_margin(F, y) -> MarginResult:
    """Hard-margin SVM without bias on features F (n, p) with labels y (n,) in {-1, +1}."""
    F = _check_matrix("F", F, 2)
    y = _check_labels(y, F.shape[0])
    Z = y[:, None] * F
    sol = min_norm_point(Z, np.ones(F.shape[0]))
    if sol.status != "optimal":
        status = "inseparable" if sol.status == "infeasible" else sol.status
        return MarginResult(sol.multipliers, 0.0, status, sol.kkt_residual, np.zeros(F.shape[1]))
    norm = float(np.linalg.norm(sol.x))
    return MarginResult(sol.multipliers, 1.0 / norm, "optimal", sol.kkt_residual, sol.x / norm)


def max_margin_gram(K, y, *, psd_tol: float = 1e-10) -> MarginResult:
    """Hard-margin SVM without bias from the Gram matrix K_ij = <f_i, f_j> (n, n).

    Solved in the dual max_{alpha >= 0} 1^T alpha - 1/2 alpha^T Q alpha,
    Q = diag(y) K diag(y), through a factor K = L L^T (eigendecomposition; eigenvalues
    below -psd_tol * ||K|| raise ValueError, smaller negative ones are clipped) and the
    NNLS reduction of ``min_norm_point``. The KKT residual is evaluated with K itself:
    margins m = Q alpha must satisfy m >= 1, alpha >= 0, alpha_i (m_i - 1) = 0.
    """
    K = _check_matrix("K", K, 2)
    n = K.shape[0]
    if K.shape != (n, n):
        raise ValueError(f"K must be square, got shape {K.shape}")
    y = _check_labels(y, n)
    scale = max(float(np.max(np.abs(K))), 1e-300)
    if np.max(np.abs(K - K.T)) > 1e-10 * scale:
        raise ValueError("K must be symmetric")
    Ks = 0.5 * (K + K.T)
    evals, evecs = np.linalg.eigh(Ks)
    if evals[0] < -psd_tol * scale * n:
        raise ValueError(f"K is not positive semidefinite (smallest eigenvalue {evals[0]:.3g})")
    F = evecs * np.sqrt(np.clip(evals, 0.0, None))
    res = max_margin(F, y)
    if res.status != "optimal":
        return MarginResult(res.alpha, res.margin, res.status, res.kkt_residual)
    a = res.alpha
    Q = (y[:, None] * Ks) * y[None, :]
    m = Q @ a
    wnorm2 = float(a @ m)
    kkt = max(
        float(np.max(np.maximum(1.0 - m, 0.0))),
        float(np.max(np.maximum(-a, 0.0))) / max(1.0, float(np.max(np.abs(a)))),
        float(np.max(np.abs(a * (m - 1.0)))) / max(1.0, float(np.sum(a))),
    )
    return MarginResult(a, float(1.0 / np.sqrt(wnorm2)), "optimal", kkt)


def support_vectors(F, y, result: MarginResult, tol: float = ACTIVE_TOL) -> Array:
    """Indices i on the margin, y_i <w*, f_i> <= 1 + tol (geometric support vectors)."""
    F = _check_matrix("F", F, 2)
    y = _check_labels(y, F.shape[0])
    m = y * (F @ result.solution)
    return np.flatnonzero(m <= 1.0 + tol)


# --- Tarzanagh et al. 2023: (ATT-SVM), (SVM), relaxed (10) ---------------------------

def _check_keys_alpha(keys, alpha) -> tuple[Array, Array]:
    keys = _check_matrix("keys", keys, 3)
    n, T, _ = keys.shape
    alpha = np.asarray(alpha)
    if alpha.shape != (n,) or not np.issubdtype(alpha.dtype, np.integer):
        raise ValueError(f"alpha must be an integer array of shape ({n},), got {alpha.shape} "
                         f"{alpha.dtype}")
    if np.any(alpha < 0) or np.any(alpha >= T):
        raise ValueError(f"alpha entries must lie in [0, {T}), got {alpha}")
    return keys, alpha.astype(np.int64)


def _difference_rows(keys: Array, alpha: Array) -> tuple[Array, Array, Array]:
    """Rows k_{i alpha_i} - k_it for t != alpha_i, and their (i, t) indices."""
    n, T, _d = keys.shape
    sel = keys[np.arange(n), alpha]                      # (n, d)
    diff = sel[:, None, :] - keys                          # (n, T, d)
    mask = np.ones((n, T), dtype=bool)
    mask[np.arange(n), alpha] = False
    ii, tt = np.nonzero(mask)
    return diff[ii, tt], ii, tt


@dataclass(frozen=True)
class AttSVMResult:
    """Solution of (ATT-SVM) or of the relaxed problem (10).

    ``p``: the minimiser p^mm (not normalised; zeros if infeasible); ``margin``:
    1/||p^mm|| (0.0 if infeasible); ``gaps`` (n, T): (k_{i alpha_i} - k_it)^T p^mm, NaN at
    t = alpha_i; ``dual`` (n, T): multipliers of the constraints (p^mm = sum dual_it
    (k_{i alpha_i} - k_it)), 0 at t = alpha_i (a Farkas certificate if infeasible);
    ``rhs`` (n,): right-hand side per input (1 in (ATT-SVM)); ``status``: 'optimal' |
    'infeasible' | solver message; ``kkt_residual``: see ``svm.kkt_residual``.
    """

    p: Array
    margin: float
    gaps: Array
    dual: Array
    rhs: Array
    alpha: Array
    status: str
    kkt_residual: float

    @property
    def feasible(self) -> bool:
        return self.status == "optimal"


def _solve_att(keys: Array, alpha: Array, rhs: Array) -> AttSVMResult:
    n, T, _d = keys.shape
    G, ii, tt = _difference_rows(keys, alpha)
    h = rhs[ii]
    sol = min_norm_point(G, h)
    dual = np.zeros((n, T))
    dual[ii, tt] = sol.multipliers
    gaps = np.einsum("itd,d->it", keys[np.arange(n), alpha][:, None, :] - keys, sol.x)
    gaps[np.arange(n), alpha] = np.nan
    norm = float(np.linalg.norm(sol.x))
    margin = 1.0 / norm if (sol.status == "optimal" and norm > 0) else 0.0
    return AttSVMResult(sol.x, margin, gaps, dual, rhs, alpha, sol.status, sol.kkt_residual)


def att_svm(keys, alpha) -> AttSVMResult:
    """(ATT-SVM): p^mm(alpha) = argmin ||p|| s.t. min_{t != alpha_i} p^T(k_{i alpha_i} - k_it) >= 1.

    keys: (n, T, d) with keys[i, t] = k_it; alpha: (n,) integer token indices.
    """
    keys, alpha = _check_keys_alpha(keys, alpha)
    return _solve_att(keys, alpha, np.ones(keys.shape[0]))


def att_svm_relaxed(keys, alpha, support) -> AttSVMResult:
    """Relaxed problem (10): right-hand side 1 for inputs i in ``support`` (the set S of
    inputs whose x_{i alpha_i} is a support vector of (SVM)) and 0 for the others."""
    keys, alpha = _check_keys_alpha(keys, alpha)
    n = keys.shape[0]
    support = np.asarray(support, dtype=np.int64).reshape(-1)
    if np.any(support < 0) or np.any(support >= n):
        raise ValueError(f"support indices must lie in [0, {n}), got {support}")
    rhs = np.zeros(n)
    rhs[support] = 1.0
    return _solve_att(keys, alpha, rhs)


def selected_features(X, alpha) -> Array:
    """Rows r_i = x_{i alpha_i} (n, d) of X (n, T, d)."""
    X, alpha = _check_keys_alpha(X, alpha)
    return X[np.arange(X.shape[0]), alpha]


def v_mm(R, Y) -> MarginResult:
    """(SVM): v^mm = argmin ||v|| s.t. Y_i v^T r_i >= 1 (R: (n, d) rows r_i).

    ``result.solution`` is v^mm; ``result.margin`` = 1/||v^mm|| is the label margin.
    """
    return max_margin(R, Y)


def svm_support_set(R, Y, tol: float = ACTIVE_TOL) -> Array:
    """The set S of (10): inputs i with Y_i r_i^T v^mm = 1 (within tol)."""
    res = v_mm(R, Y)
    if res.status != "optimal":
        raise ValueError(f"(SVM) has no solution: {res.status}")
    return support_vectors(R, Y, res, tol)


# --- Definitions 1-3 ----------------------------------------------------------------

def token_scores(X, Y, v) -> Array:
    """Definition 1: gamma_it = Y_i v^T x_it, shape (n, T)."""
    X = _check_matrix("X", X, 3)
    v = _check_matrix("v", v, 1)
    Y = _check_labels(Y, X.shape[0])
    if v.shape[0] != X.shape[2]:
        raise ValueError(f"v has dimension {v.shape[0]} but tokens have {X.shape[2]}")
    return Y[:, None] * (X @ v)


def optimal_tokens(scores) -> Array:
    """Definition 1: opt_i = argmax_t gamma_it (first index on ties)."""
    scores = _check_matrix("scores", scores, 2)
    return np.argmax(scores, axis=1)


def svm_neighbours(result: AttSVMResult, tol: float = ACTIVE_TOL) -> list[Array]:
    """Definition 2: T_i = {t != alpha_i : (k_{i alpha_i} - k_it)^T p^mm = 1} (within tol)."""
    if not result.feasible:
        raise ValueError(f"(ATT-SVM) is {result.status}: no SVM-neighbours")
    out = []
    for i in range(result.gaps.shape[0]):
        g = result.gaps[i]
        out.append(np.flatnonzero(np.abs(g - 1.0) <= tol))  # NaN at alpha_i never matches
    return out


def is_locally_optimal(scores, result: AttSVMResult, tol: float = ACTIVE_TOL) -> bool:
    """Definition 2: alpha is locally optimal iff gamma_{i alpha_i} > gamma_it for all
    i and all SVM-neighbours t in T_i (requires (ATT-SVM) feasible)."""
    scores = _check_matrix("scores", scores, 2)
    if scores.shape != result.gaps.shape:
        raise ValueError(f"scores shape {scores.shape} != keys shape {result.gaps.shape}")
    for i, Ti in enumerate(svm_neighbours(result, tol)):
        if Ti.size and not np.all(scores[i, result.alpha[i]] > scores[i, Ti]):
            return False
    return True


def min_neighbour_score_gap(scores, result: AttSVMResult, tol: float = ACTIVE_TOL) -> float:
    """Fig. 9(b) of Tarzanagh et al.: min over i and t in T_i of gamma_{i alpha_i} - gamma_it
    (+inf if no input has an SVM-neighbour)."""
    scores = _check_matrix("scores", scores, 2)
    gaps = [scores[i, result.alpha[i]] - scores[i, Ti]
            for i, Ti in enumerate(svm_neighbours(result, tol)) if Ti.size]
    return float(min(np.min(g) for g in gaps)) if gaps else float("inf")


def selected_tokens(keys, q) -> Array:
    """(59): alpha_i in argmax_t k_it^T q (first index on ties)."""
    keys = _check_matrix("keys", keys, 3)
    q = _check_matrix("q", q, 1)
    return np.argmax(keys @ q, axis=1)


def directional_margin(keys, q) -> float:
    """(60): Gamma_q = min_{i, t != alpha_i} (k_{i alpha_i} - k_it)^T q."""
    keys = _check_matrix("keys", keys, 3)
    alpha = selected_tokens(keys, q)
    G, _, _ = _difference_rows(keys, alpha)
    if G.shape[0] == 0:
        raise ValueError("directional margin needs T >= 2 tokens")
    return float(np.min(G @ q))


def directional_neighbours(keys, q, tol: float = ACTIVE_TOL) -> list[tuple[int, int]]:
    """(61): M_q = {(i, t) : (k_{i alpha_i} - k_it)^T q = Gamma_q} (within tol * max(1, |Gamma_q|))."""
    keys = _check_matrix("keys", keys, 3)
    alpha = selected_tokens(keys, q)
    G, ii, tt = _difference_rows(keys, alpha)
    g = G @ q
    gam = float(np.min(g))
    hit = np.abs(g - gam) <= tol * max(1.0, abs(gam))
    return [(int(i), int(t)) for i, t in zip(ii[hit], tt[hit])]


def is_neighbour_optimal(keys, q, scores, tol: float = ACTIVE_TOL) -> bool:
    """Definition 3: gamma_it < gamma_{i alpha_i} for all (i, t) in M_q."""
    scores = _check_matrix("scores", scores, 2)
    alpha = selected_tokens(keys, q)
    return all(scores[i, t] < scores[i, alpha[i]] for i, t in directional_neighbours(keys, q, tol))
