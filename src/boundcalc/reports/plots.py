"""Plots for reports, written as PNG and PDF.

Every plot names both axes (with the symbol or unit). File names use hyphens
(``deora2023-dm1-losses``, ``tarzanagh2023-fig1a``), as do the reproductions' names.
Every function takes ``path`` either without a suffix (``out/fig1``) or ending in ``.png``
or ``.pdf``; both ``out/fig1.png`` and ``out/fig1.pdf`` are written (folders created) and
their paths returned. Existing files are replaced: callers that write where a user
pointed (the CLI) check first. matplotlib is used through its object API with the Agg
canvas (imported inside the functions; no pyplot state, no display needed).
"""
from __future__ import annotations

from ..paths import user_path
import math
from pathlib import Path

from ..errors import BoundcalcError

_SUFFIXES = (".png", ".pdf")


def targets(path) -> list[Path]:
    """The two files a plot function writes for ``path``."""
    p = user_path(path)
    if p.suffix.lower() in _SUFFIXES:
        p = p.with_suffix("")
    elif p.suffix and not p.name.startswith("."):
        raise BoundcalcError(f"plot path {str(path)!r}: use no suffix, .png or .pdf "
                             f"(both PNG and PDF are written), not {p.suffix!r}")
    return [p.with_name(p.name + s) for s in _SUFFIXES]


def _figure(w=6.4, h=4.2):
    from matplotlib.figure import Figure
    return Figure(figsize=(w, h), layout="constrained")


def _save(fig, path) -> list[Path]:
    outs = targets(path)
    outs[0].parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(outs[0], dpi=150)
    fig.savefig(outs[1], metadata={"CreationDate": None})
    return outs


def scaling(series: dict, path, *, title: str, xlabel: str, ylabel: str) -> list[Path]:
    """Log-log plot of several series ``name -> dict(x, y, yerr=None, fit=None)``; a fit
    (from :func:`boundcalc.reports.fit.loglog_slope`) is drawn as a line and its slope
    with its interval is written in the legend.  Optional ``color`` and ``marker`` (an open
    marker with ``open=True``) pair series that belong together, e.g. ours and the paper's."""
    import numpy as np
    if not series:
        raise BoundcalcError("scaling plot: no series to plot")
    fig = _figure(7.2, 4.2 + 0.25 * len(series))     # room for the legend under the axes
    ax = fig.add_subplot()
    xs_all = set()
    for i, (name, s) in enumerate(series.items()):
        if "x" not in s or "y" not in s:
            raise BoundcalcError(f"scaling plot: series {name!r} needs x and y")
        x = np.asarray(s["x"], dtype=float)
        y = np.asarray(s["y"], dtype=float)
        if x.shape != y.shape or x.ndim != 1:
            raise BoundcalcError(f"scaling plot: series {name!r} has {x.size} x for {y.size} y")
        if np.any(x <= 0) or np.any(y <= 0):
            raise BoundcalcError(f"scaling plot: series {name!r} has values <= 0 (log-log axes)")
        xs_all.update(x.tolist())
        colour = s.get("color", f"C{i % 10}")
        style = dict(marker=s.get("marker", "o"), ls="none", color=colour,
                     mfc="none" if s.get("open") else colour, ms=8 if s.get("open") else 6)
        yerr = s.get("yerr")
        fit = s.get("fit")
        label = str(name)
        if fit:
            from .fit import describe
            label += f" ({describe(fit)})"
        if yerr is not None:
            ax.errorbar(x, y, yerr=np.asarray(yerr, dtype=float), capsize=3, label=label, **style)
        else:
            ax.plot(x, y, label=label, **style)
        if fit:
            xx = np.geomspace(x.min(), x.max(), 50)
            ax.plot(xx, np.exp(fit["intercept"]) * xx ** fit["slope"], "-", color=colour, lw=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)
    _ticks_at(ax, xs_all)
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.16))   # never over the data
    return _save(fig, path)


def _ticks_at(ax, xs) -> None:
    """On a log x axis with few distinct sizes, label exactly the sizes run (8, 16, 32, ...)
    instead of powers of ten with crowded minor labels."""
    if not 2 <= len(xs) <= 12:
        return
    from matplotlib.ticker import FixedLocator, NullFormatter
    ax.xaxis.set_major_locator(FixedLocator(sorted(xs)))
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:g}")
    ax.xaxis.set_minor_formatter(NullFormatter())


def bound_vs_measured(table, path) -> list[Path]:
    """Horizontal bars (log scale) of each row's bound beside its measured value.

    The axis is drawn in powers of ten computed with mpmath, so a bound of 1e400 is drawn
    at its true place, not clipped to the double range. Rows without a positive bound and
    a positive measured value are listed under the plot as not plotted."""
    import mpmath
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    from .table import fmt_human
    plot, skipped = [], []
    for r in table.rows:
        if r.bound is None or r.measured is None:
            continue
        b, m = mpmath.mpf(r.bound), mpmath.mpf(r.measured)
        if mpmath.isfinite(b) and mpmath.isfinite(m) and b > 0 and m > 0:
            plot.append((r, float(mpmath.log10(b)), float(mpmath.log10(m)), b, m))
        else:
            skipped.append(r.quantity)
    if not plot:
        raise BoundcalcError(f"bound-vs-measured plot of {table.paper}: no row has a positive bound "
                             "and a positive measured value")
    lo = math.floor(min(min(lb, lm) for _, lb, lm, _, _ in plot)) - 1
    hi = math.ceil(max(max(lb, lm) for _, lb, lm, _, _ in plot))
    import textwrap
    n = len(plot)
    longest = max(len(p[0].quantity) for p in plot)
    fig = _figure(min(6.0 + 0.075 * longest, 16.0), 1.8 + 0.55 * n)
    ax = fig.add_subplot()
    for i, (r, lb, lm, b, m) in enumerate(plot):
        y = n - 1 - i
        colour = {True: "tab:green", False: "tab:red", None: "tab:blue"}[r.holds]
        ax.barh(y + 0.2, lb - lo, left=lo, height=0.38, color=colour, label="bound" if i == 0 else None)
        ax.barh(y - 0.2, lm - lo, left=lo, height=0.38, color="0.55", label="measured" if i == 0 else None)
        ax.text(lb, y + 0.2, " " + fmt_human(b), va="center", fontsize="x-small")
        ax.text(lm, y - 0.2, " " + fmt_human(m), va="center", fontsize="x-small")
    ax.set_xlim(lo, hi + 1 + 0.25 * (hi - lo))          # room for the value labels
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=8))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda t, _: f"$10^{{{int(round(t))}}}$"))
    ax.set_yticks(range(n), [p[0].quantity for p in reversed(plot)], fontsize="small")
    ax.set_ylabel("quantity (bound above, measured below)", fontsize="small")
    xlabel = "value (log scale)\nbound: green = holds, red = violated, blue = not decided"
    if skipped:
        xlabel += "\n" + textwrap.fill("not plotted (no positive bound/measured value): " + "; ".join(skipped), 90)
    ax.set_xlabel(xlabel, fontsize="small")
    ax.set_title(textwrap.fill(f"{table.paper}: {table.title} (seed {table.seed})", 70), fontsize="medium")
    ax.legend(fontsize="small", loc="lower right")
    return _save(fig, path)


def trajectories(paths: dict, directions: dict, path, *, title: str, xlabel: str = "first coordinate",
                 ylabel: str = "second coordinate") -> list[Path]:
    """2-D trajectories (``name -> array (steps, 2)``) with a start marker, beside
    directions (``name -> array (2,)``, e.g. SVM solutions) drawn as rays from the origin
    scaled to the extent of the trajectories. Name the axes (``xlabel="$p_1$ (first
    coordinate of p)"``)."""
    import numpy as np
    if not paths:
        raise BoundcalcError("trajectory plot: no trajectories")
    fig = _figure(5.5, 5.0)
    ax = fig.add_subplot()
    extent = 0.0
    for i, (name, p) in enumerate(paths.items()):
        a = np.asarray(p, dtype=float)
        if a.ndim != 2 or a.shape[1] != 2 or len(a) == 0:
            raise BoundcalcError(f"trajectory plot: {name!r} must be an array of shape (steps, 2), "
                                 f"got {a.shape}")
        if not np.all(np.isfinite(a)):
            raise BoundcalcError(f"trajectory plot: {name!r} has non-finite points")
        extent = max(extent, float(np.abs(a).max()))
        ax.plot(a[:, 0], a[:, 1], "-", color=f"C{i % 10}", lw=1.2, label=str(name))
        ax.plot(a[0, 0], a[0, 1], "o", color=f"C{i % 10}", ms=4)
        ax.plot(a[-1, 0], a[-1, 1], ">", color=f"C{i % 10}", ms=5)
    extent = extent or 1.0
    for j, (name, d) in enumerate(directions.items()):
        v = np.asarray(d, dtype=float).reshape(-1)
        if v.shape != (2,) or not np.all(np.isfinite(v)) or not np.any(v):
            raise BoundcalcError(f"trajectory plot: direction {name!r} must be a non-zero 2-vector")
        v = v / np.linalg.norm(v) * extent * 1.1
        ax.plot([0, v[0]], [0, v[1]], "--", color="k", lw=1, alpha=0.5 + 0.5 / (j + 1),
                label=f"{name} (direction)")
    ax.axhline(0, color="0.85", lw=0.8, zorder=0)
    ax.axvline(0, color="0.85", lw=0.8, zorder=0)
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize="small")
    return _save(fig, path)
