"""The smoothness constant L_p of (6)/(24) and the loss constants it is built from.
"""
from __future__ import annotations

import numpy as np

from boundcalc.engine import ops

from .model import _arrays


def loss_constants(loss: str, lo: float, hi: float) -> tuple[float, float]:
    """Assumption A on the interval [lo, hi]: (M0, M1) with M0 = sup |l''| (the Lipschitz
    constant of l') and M1 = sup |l'| over [lo, hi], in closed form:
    logistic M1 = 1/(1+e^{lo}), M0 = 1/4 if 0 in [lo, hi] else max l''(lo), l''(hi);
    exponential M1 = M0 = e^{-lo}; correlation M1 = 1, M0 = 0."""
    lo, hi = float(lo), float(hi)
    if not (lo <= hi) or not np.isfinite(lo) or not np.isfinite(hi):
        raise ValueError(f"need a finite interval lo <= hi, got [{lo}, {hi}]")
    _, d1, d2 = ops.margin_loss(loss)
    if loss == "logistic":
        M0 = 0.25 if lo <= 0.0 <= hi else float(max(d2(np.array(lo)), d2(np.array(hi))))
        return M0, float(-d1(np.array(lo)))
    if loss == "exponential":
        return float(np.exp(-lo)), float(np.exp(-lo))
    return 0.0, 1.0  # correlation


def smoothness_bound(X, Y, v, W, loss: str = "logistic", M0: float | None = None,
                     M1: float | None = None) -> float:
    """L_p of (6)/(24): (1/n) sum_i (M0 ||v||^2 ||W||^2 ||X_i||^4 + 3 M1 ||v|| ||W||^2 ||X_i||^3),
    spectral norms. By default (M0, M1) = ``loss_constants`` on the range
    [min gamma_it, max gamma_it] of the margins Y_i f(X_i) (a convex combination of scores)."""
    X, Y, v, W, _ = _arrays(X, Y, v, W, np.zeros(np.asarray(v).shape))
    if M0 is None or M1 is None:
        g = Y[:, None] * (X @ v)
        c0, c1 = loss_constants(loss, float(g.min()), float(g.max()))
        M0 = c0 if M0 is None else M0
        M1 = c1 if M1 is None else M1
    xs = np.linalg.norm(X, ord=2, axis=(1, 2))
    nv, nW = np.linalg.norm(v), np.linalg.norm(W, 2)
    return float(np.mean(M0 * nv**2 * nW**2 * xs**4 + 3 * M1 * nv * nW**2 * xs**3))
