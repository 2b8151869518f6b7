"""Scaling exponents: the slope of log y against log x, with a confidence interval over seeds.

For each seed the least-squares line ``log y = a + b log x`` is fitted (natural logs;
the slope does not depend on the base); the reported slope is the mean of the per-seed
slopes ``b_s`` and the interval is the two-sided 95% Student-t interval of that mean
over the ``n_seeds`` seeds: ``mean +- t_{0.975, n-1} * sd / sqrt(n)`` (computed by
``runs.intervals.mean_interval``, the one interval function; the fit names its method). With a single
seed there is no spread to estimate and the interval is ``(nan, nan)``.

``intercept`` is the mean of the per-seed intercepts (natural log of y at x = 1) and
``r2`` the mean of the per-seed coefficients of determination.
"""
from __future__ import annotations

from ..errors import BoundcalcError


def loglog_slope(x, y_by_seed, *, confidence: float = 0.95, method: str = "t") -> dict:
    """Slope of log y vs log x per seed, mean slope and its t-interval over seeds.

    ``x``: the sizes (positive); ``y_by_seed``: one list of positive y per seed, each as
    long as ``x``. Returns ``dict(slope, ci_low, ci_high, intercept, r2, n_seeds)`` plus
    ``slopes`` (the per-seed slopes), ``confidence`` and ``method`` (the sentence naming how
    the interval was computed: ``runs.intervals.mean_interval`` over the per-seed slopes,
    Student-t by default, ``method="bootstrap"`` for the percentile bootstrap)."""
    import numpy as np

    from .intervals import mean_interval

    xs = np.asarray(x, dtype=float)
    if xs.ndim != 1 or len(xs) < 2:
        raise BoundcalcError(f"loglog_slope: x needs at least 2 values, got {list(np.atleast_1d(xs))}")
    if not np.all(np.isfinite(xs)) or np.any(xs <= 0):
        raise BoundcalcError(f"loglog_slope: x must be positive and finite, got {xs.tolist()}")
    if len(np.unique(xs)) < 2:
        raise BoundcalcError("loglog_slope: x needs at least 2 distinct values")
    if isinstance(y_by_seed, (str, bytes)) or len(y_by_seed) == 0:
        raise BoundcalcError("loglog_slope: y_by_seed must be a non-empty list of lists (one per seed)")
    if not 0 < confidence < 1:
        raise BoundcalcError(f"loglog_slope: confidence must lie in (0, 1), got {confidence}")
    lx = np.log(xs)
    slopes, intercepts, r2s = [], [], []
    for s, ys in enumerate(y_by_seed):
        ya = np.asarray(ys, dtype=float)
        if ya.shape != xs.shape:
            raise BoundcalcError(f"loglog_slope: seed #{s} has {ya.size} values of y for {xs.size} values of x")
        if not np.all(np.isfinite(ya)) or np.any(ya <= 0):
            raise BoundcalcError(f"loglog_slope: y of seed #{s} must be positive and finite "
                                 f"(a log-log fit), got {ya.tolist()}")
        ly = np.log(ya)
        xm, ym = lx.mean(), ly.mean()
        sxx = float(np.sum((lx - xm) ** 2))
        b = float(np.sum((lx - xm) * (ly - ym)) / sxx)
        a = float(ym - b * xm)
        ss_tot = float(np.sum((ly - ym) ** 2))
        ss_res = float(np.sum((ly - (a + b * lx)) ** 2))
        slopes.append(b)
        intercepts.append(a)
        r2s.append(1.0 - ss_res / ss_tot if ss_tot > 0 else 1.0)
    n = len(slopes)
    iv = mean_interval(slopes, confidence=confidence, method=method)
    lo = iv["low"] if iv["low"] is not None else float("nan")
    hi = iv["high"] if iv["high"] is not None else float("nan")
    return {"slope": iv["mean"], "ci_low": lo, "ci_high": hi, "intercept": float(np.mean(intercepts)),
            "r2": float(np.mean(r2s)), "n_seeds": n, "slopes": slopes, "confidence": confidence,
            "method": "least-squares slope of log y on log x per seed; interval of their mean: "
                      + iv["method"]}


def describe(fit: dict) -> str:
    """``slope 0.512 [0.498, 0.526] (95% Student-t over 5 seeds)``."""
    if fit["n_seeds"] >= 2:
        kind = "bootstrap" if "bootstrap" in fit.get("method", "") else "Student-t"
        return (f"slope {fit['slope']:.3g} [{fit['ci_low']:.3g}, {fit['ci_high']:.3g}] "
                f"({fit['confidence']:.0%} {kind} over {fit['n_seeds']} seeds)")
    return f"slope {fit['slope']:.3g} (1 seed, no interval)"
