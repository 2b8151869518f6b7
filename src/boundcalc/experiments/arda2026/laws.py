"""Scaling laws: log-log slopes over widths with Student-t intervals over seeds, and their
verdict against the predicted -1/2.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

METRICS = (("eps_lin_sup", "linearization error sup_j |f - f_lin| (Lemma 3)"),
           ("eps_lin_mean", "linearization error mean_j |f - f_lin| (authors' code metric)"),
           ("eps_app_sup", "approximation error sup_j |f_lin(phi~) - y~| (Lemma 5)"),
           ("min_train_loss", "min_(s<tau) training loss of ProjGD (Thm. 1)"))


PAPER_SOURCE = ("Sec. 6.1: 'the fitted slopes are in close agreement with the predicted m^(-1/2) rate' "
                "(numerical slopes only inside Fig. 1, not in the text)")
SLOPE_TOLERANCE = 0.1


def scaling_laws(widths, seeds, pts, metrics=METRICS) -> dict:
    """Per metric: values per seed, mean/median per width, Student-t intervals per width and the
    log-log slope with its interval over seeds (``runs.fit``), beside the predicted -1/2."""
    from ...runs import fit
    from ...runs.intervals import mean_interval

    by = {(p["m"], p["seed"]): p for p in pts}
    laws = {}
    for key, label in metrics:
        ys = [[by[(m, s)][key] for m in widths] for s in seeds]
        cols = [[y[i] for y in ys] for i in range(len(widths))]
        law: dict[str, Any] = {"label": label, "per_seed": ys,
                               "mean": [float(np.mean(c)) for c in cols],
                               "median": [float(np.median(c)) for c in cols],
                               "intervals": [mean_interval(c) for c in cols],
                               "predicted_slope": -0.5}
        if all(v > 0 for y in ys for v in y):
            f = fit.loglog_slope(widths, ys)
            law["fit"] = {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in f.items()}
            lo, hi = law["fit"]["ci_low"], law["fit"]["ci_high"]
            law["contains_predicted"] = None if lo is None else bool(lo <= -0.5 <= hi)
        else:
            law["fit"] = None
            law["contains_predicted"] = None
        laws[key] = law
    return laws


def _slope_txt(f) -> str:
    if f is None:
        return "-"
    if f["ci_low"] is None:
        return f"{f['slope']:.3f} (1 seed, no interval)"
    return f"{f['slope']:.3f} [{f['ci_low']:.3f}, {f['ci_high']:.3f}]"


def slope_verdict(f) -> tuple[str, str]:
    """(verdict, why) for a fitted slope against the predicted -1/2."""
    if f is None:
        return "not comparable", "no fit (a value was <= 0)"
    s, lo, hi = f["slope"], f["ci_low"], f["ci_high"]
    if lo is None:
        if abs(s + 0.5) <= SLOPE_TOLERANCE:
            return "reproduced", f"slope within {SLOPE_TOLERANCE} of -1/2 (1 seed, no interval)"
        return "not reproduced", f"slope {s:.3f} differs from -1/2 by more than {SLOPE_TOLERANCE} (1 seed)"
    if (hi - lo) / 2 > 2 * SLOPE_TOLERANCE:
        return "not comparable", (f"interval half-width {(hi - lo) / 2:.2f} is too wide to decide "
                                  f"({f['n_seeds']} seeds)")
    if lo <= -0.5 <= hi:
        return "reproduced", "the 95% interval of the slope contains -1/2"
    if abs(s + 0.5) <= SLOPE_TOLERANCE:
        return "reproduced", (f"slope within {SLOPE_TOLERANCE} of -1/2 ('close agreement'; the interval "
                              "excludes -1/2 exactly)")
    return "not reproduced", (f"slope {s:.3f} differs from -1/2 by more than {SLOPE_TOLERANCE} and its "
                              "interval excludes -1/2")


def _yerr(law) -> list[list[float]]:
    lo, hi = [], []
    for m, iv in zip(law["mean"], law["intervals"]):
        if iv["low"] is None:
            lo.append(0.0)
            hi.append(0.0)
        else:      # clipped below at half the mean (log axes)
            lo.append(min(m - iv["low"], 0.5 * m))
            hi.append(iv["high"] - m)
    return [lo, hi]
