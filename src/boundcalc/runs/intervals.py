"""Confidence intervals for a mean over seeds: one function used by every reproduction and
comparison, with the method named in its output.

``mean_interval(values)`` returns a dict with ``mean``, ``low``, ``high``, ``n``, ``sd``,
``confidence`` and ``method`` (a sentence naming the method):

* ``method="t"`` (default): the two-sided Student-t interval of the mean,
  ``mean +- t_{(1+c)/2, n-1} * sd / sqrt(n)`` with ``sd`` the sample standard deviation
  (ddof 1). With 4 seeds the 95% quantile is t_{0.975, 3} = 3.182, not 1.96;
* ``method="bootstrap"``: the percentile bootstrap (``resamples`` resamples of the n values
  with replacement, seeded: reruns are identical), which assumes no normality but is too
  narrow for very few seeds (it never reaches beyond the observed range).

With a single value there is no spread to estimate: ``low`` and ``high`` are ``None`` and
the method says "1 run, no interval". ``describe`` prints ``0.105 [0.0931, 0.117] (95%
Student-t, 4 seeds)``.

>>> iv = mean_interval([1.0, 2.0, 3.0, 4.0])
>>> round(iv["high"] - iv["mean"], 4)       # 3.182 * 1.291 / 2
2.0541
"""
from __future__ import annotations

import math
from typing import Any

from ..errors import BoundcalcError

METHODS = ("t", "bootstrap")


def _values(values) -> list[float]:
    if isinstance(values, (str, bytes)):
        raise BoundcalcError("interval: values must be a list of numbers")
    try:
        xs = [float(v) for v in values]
    except (TypeError, ValueError):
        raise BoundcalcError(f"interval: values must be numbers, got {values!r}") from None
    if not xs:
        raise BoundcalcError("interval: needs at least one value")
    if not all(math.isfinite(x) for x in xs):
        raise BoundcalcError(f"interval: values must be finite, got {xs}")
    return xs


def t_quantile(confidence: float, dof: int) -> float:
    """The two-sided Student-t quantile t_{(1+confidence)/2, dof}."""
    from scipy import stats
    return float(stats.t.ppf(0.5 + confidence / 2.0, dof))


def mean_interval(values, *, confidence: float = 0.95, method: str = "t",
                  resamples: int = 10_000, seed: int = 0) -> dict:
    """Mean of ``values`` and its two-sided ``confidence`` interval (see the module docstring)."""
    if method not in METHODS:
        raise BoundcalcError(f"interval: unknown method {method!r}; use one of {', '.join(METHODS)}")
    if not 0 < confidence < 1:
        raise BoundcalcError(f"interval: confidence must lie in (0, 1), got {confidence}")
    xs = _values(values)
    n = len(xs)
    mean = math.fsum(xs) / n
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else None
    out: dict[str, Any] = {"mean": mean, "low": None, "high": None, "n": n, "sd": sd, "confidence": confidence}
    if n == 1:
        out["method"] = "1 run, no interval"
        return out
    assert sd is not None                      # n > 1 from here on
    if method == "t":
        q = t_quantile(confidence, n - 1)
        half = q * sd / math.sqrt(n)
        out.update(low=mean - half, high=mean + half, quantile=q,
                   method=f"Student-t, {n - 1} degrees of freedom (t = {q:.4g})")
        return out
    import numpy as np
    if int(resamples) != resamples or resamples < 100:
        raise BoundcalcError(f"interval: resamples must be an integer >= 100, got {resamples!r}")
    g = np.random.default_rng(seed)
    arr = np.asarray(xs)
    means = arr[g.integers(0, n, size=(int(resamples), n))].mean(axis=1)
    a = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(means, [a, 1.0 - a])
    out.update(low=float(lo), high=float(hi),
               method=f"percentile bootstrap, {int(resamples)} resamples (seed {seed})")
    return out


def intervals(rows, **kw) -> list[dict]:
    """``mean_interval`` of each list in ``rows`` (e.g. one list of seeds per width)."""
    return [mean_interval(r, **kw) for r in rows]


def short_method(iv: dict) -> str:
    """``95% Student-t, 4 seeds`` / ``95% bootstrap, 4 seeds`` / ``1 run, no interval``."""
    if iv["low"] is None:
        return "1 run, no interval"
    kind = "Student-t" if iv["method"].startswith("Student") else "bootstrap"
    return f"{iv['confidence']:.0%} {kind}, {iv['n']} seeds"


def describe(iv: dict, digits: int = 3) -> str:
    """``0.105 [0.0931, 0.117] (95% Student-t, 4 seeds)``."""
    m = f"{iv['mean']:.{digits}g}"
    if iv["low"] is None:
        return f"{m} (1 run, no interval)"
    return f"{m} [{iv['low']:.{digits}g}, {iv['high']:.{digits}g}] ({short_method(iv)})"


def contains(iv: dict, value: float) -> bool | None:
    """Whether ``value`` lies in the interval (None without an interval)."""
    if iv["low"] is None:
        return None
    return bool(iv["low"] <= value <= iv["high"])
