"""Measurements of a state: correlation with a direction, saturation, attention, the
GMM and joint max-margin solutions, the selection report.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boundcalc.engine import ops, svm
from boundcalc.engine.data.tokens import TokenDataset

from .model import Array, attention, predict


def correlation(p, q) -> float:
    """<p/||p||, q/||q||> (the cone condition (7) reads correlation >= 1 - mu)."""
    p, q = np.asarray(p, dtype=np.float64), np.asarray(q, dtype=np.float64)
    npn, nq = np.linalg.norm(p), np.linalg.norm(q)
    if npn == 0 or nq == 0:
        raise ValueError("correlation of a zero vector is undefined")
    return float(p @ q / (npn * nq))


def saturation(X, W, p, alpha) -> float:
    """Mean attention mass on the tokens alpha: (1/n) sum_i S(K_i p)_{alpha_i} (Fig. 9's s-bar)."""
    s = attention(X, W, p)
    alpha = np.asarray(alpha)
    if alpha.shape != (s.shape[0],):
        raise ValueError(f"alpha must have shape ({s.shape[0]},), got {alpha.shape}")
    return float(np.mean(s[np.arange(s.shape[0]), alpha]))


def max_attention(X, W, p) -> float:
    """(1/n) sum_i max_t S(K_i p)_t (Fig. 3(c) red, Fig. 4(a))."""
    return float(np.mean(np.max(attention(X, W, p), axis=1)))


def logistic_probability(X, Y, v, W, p) -> float:
    """(1/n) sum_i 1/(1 + exp(-Y_i f(X_i))) (Fig. 3(c) blue)."""
    m = np.asarray(Y, dtype=np.float64) * predict(X, v, W, p)
    return float(np.mean(0.5 * (1.0 + np.tanh(0.5 * m))))


def soft_nnz(s) -> Array:
    """Sec. 4 soft sparsity nnz-hat(s) = ||s||_1 / ||s||_2^2 in [1, T], row-wise."""
    s = np.asarray(s, dtype=np.float64)
    return np.sum(np.abs(s), axis=-1) / np.sum(s * s, axis=-1)


def gmm(data: TokenDataset) -> svm.AttSVMResult:
    """The GMM direction p^mm* (Def. 1): (ATT-SVM) with alpha_i = opt_i = argmax_t gamma_it."""
    if data.v is None:
        raise ValueError("the GMM needs a fixed head v")
    scores = svm.token_scores(data.X, data.Y, data.v)
    return svm.att_svm(data.keys, svm.optimal_tokens(scores))


@dataclass(frozen=True)
class SelectionReport:
    """Fig. 9 classification of a GD solution p (App. E).

    ``alpha``: selected tokens argmax_t S(K_i p)_t; ``saturation``: s-bar; ``saturated``:
    s-bar >= 1 - sat_tol; ``svm``: (ATT-SVM) for alpha; ``locally_optimal``: Def. 2 (so
    p^mm(alpha) is an LMM); ``globally_optimal``: alpha_i maximises gamma_i for all i (so
    p^mm(alpha) is the GMM); ``correlation``: <p/||p||, p^mm/||p^mm||>; ``score_gap``:
    gamma-bar = min_{i, t in T_i} gamma_{i alpha_i} - gamma_it (Fig. 9(b)).
    """

    alpha: Array
    saturation: float
    saturated: bool
    svm: svm.AttSVMResult
    locally_optimal: bool
    globally_optimal: bool
    correlation: float
    score_gap: float


def selection_report(data: TokenDataset, p, sat_tol: float = 1e-5,
                     tol: float = svm.ACTIVE_TOL) -> SelectionReport:
    """Classify the limit of GD as in App. E / Fig. 9 (requires a fixed head v)."""
    if data.v is None:
        raise ValueError("selection_report needs a fixed head v")
    p = np.asarray(p, dtype=np.float64)
    s = ops.softmax(data.keys @ p, axis=1)            # attention(X, W, p) from the data set's keys
    alpha = np.argmax(s, axis=1)
    sbar = float(np.mean(s[np.arange(s.shape[0]), alpha]))
    res = svm.att_svm(data.keys, alpha)
    scores = svm.token_scores(data.X, data.Y, data.v)
    if not res.feasible:
        return SelectionReport(alpha, sbar, sbar >= 1 - sat_tol, res, False, False,
                               float("nan"), float("nan"))
    lo = svm.is_locally_optimal(scores, res, tol)
    best = scores[np.arange(scores.shape[0]), alpha] >= np.max(scores, axis=1) - tol
    corr = correlation(p, res.p) if np.any(p) else float("nan")
    return SelectionReport(alpha, sbar, sbar >= 1 - sat_tol, res, lo, bool(lo and np.all(best)),
                           corr, svm.min_neighbour_score_gap(scores, res, tol))


@dataclass(frozen=True)
class JointMaxMargin:
    """Sec. 3 targets for selected tokens alpha: (SVM) with r_i = x_{i alpha_i} (``v``,
    v^mm = v.solution), its support set S, (ATT-SVM) ``p_mm`` and relaxed (10) ``p_relax``."""

    v: svm.MarginResult
    support: Array
    p_mm: svm.AttSVMResult
    p_relax: svm.AttSVMResult


def joint_max_margin(data: TokenDataset, alpha, tol: float = svm.ACTIVE_TOL) -> JointMaxMargin:
    """Theorems 5-6: v^mm, S, p^mm(alpha) and p^relax (10)."""
    R = svm.selected_features(data.X, alpha)
    vres = svm.v_mm(R, data.Y)
    if vres.status != "optimal":
        raise ValueError(f"(SVM) with r_i = x_(i alpha_i) has no solution: {vres.status}")
    S = svm.support_vectors(R, data.Y, vres, tol)
    return JointMaxMargin(vres, S, svm.att_svm(data.keys, alpha),
                          svm.att_svm_relaxed(data.keys, alpha, S))
