"""Plots for reports, written as PNG and PDF, sized and styled for a paper.

Every plot names both axes (with the symbol or unit). File names use hyphens
(``deora2023-dm1-losses``, ``tarzanagh2023-fig1a``), as do the reproductions' names.
Every function takes ``path`` either without a suffix (``out/fig1``) or ending in ``.png``
or ``.pdf``; both ``out/fig1.png`` and ``out/fig1.pdf`` (vector) are written (folders
created) and their paths returned. Existing files are replaced: callers that write where a
user pointed (the CLI) check first. matplotlib is used through its object API with the Agg
canvas (imported inside the functions; no pyplot state, no display needed).

The look, in one place (:func:`styled`, :data:`PALETTE`, :data:`LINESTYLES`, :data:`MARKERS`):

* width :data:`FIGSIZES` -- ``column`` 3.25 in (one column of a two-column paper) or ``page``
  6.75 in -- chosen by :func:`paper_style` (``compare --figsize``, ``reproduce --figsize``);
  fonts at the paper's size for that width (:data:`FONT_PT`), in STIX (Times-like, as most
  ML venues' text) with mathtext in STIX too;
* the Okabe-Ito colour-blind-safe palette; line styles and markers cycle with it, so two
  series never differ by colour alone; every encoding is in a legend (holds/violated is a
  colour *and* says so);
* labels are matplotlib mathtext built from the LaTeX of the formula files or of the row
  (:func:`boundcalc.reports.latex.mathtext_label`), never ASCII stand-ins.
"""
from __future__ import annotations

import contextvars
import functools
import math
import re
from contextlib import contextmanager
from pathlib import Path

from ..errors import BoundcalcError
from ..paths import user_path

_SUFFIXES = (".png", ".pdf")

# Okabe & Ito (2008), "Color Universal Design": distinguishable with every common colour-vision
# deficiency; black last
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
# cycled with the palette: solid, dashed, dotted, dash-dot, then long dash and dash-dot-dot
LINESTYLES = ("-", "--", ":", "-.", (0, (8, 2)), (0, (5, 1.5, 1, 1.5, 1, 1.5)))
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<")
# the colour of a bound by whether it holds, and the words the legend says for it
HOLDS_COLOURS = {True: "#009E73", False: "#D55E00", None: "#7F7F7F"}
HOLDS_LABELS = {True: "bound (holds)", False: "bound (violated)", None: "bound (not decided)"}
MEASURED_COLOUR = "#000000"
PANEL_MAX = 2.6          # inches: the tallest panel of a figure (more rows: another panel)
FIGSIZES = {"column": 3.25, "page": 6.75}       # inches: one column / the text width of a paper
FONT_PT = {"column": 7.5, "page": 9.0}           # body of the figure; a 10-pt paper's captions are 9 pt
DPI = 300

_SIZE = contextvars.ContextVar("boundcalc_figsize", default="page")


def check_figsize(figsize: str) -> None:
    """A ``--figsize`` the figures know (:data:`FIGSIZES`), or one line saying which are."""
    if figsize not in FIGSIZES:
        raise BoundcalcError(f"--figsize must be one of {', '.join(FIGSIZES)}, not {figsize!r}")


@contextmanager
def paper_style(figsize: str = "page"):
    """Figures drawn inside are ``figsize`` wide (:data:`FIGSIZES`) with fonts to match."""
    check_figsize(figsize)
    token = _SIZE.set(figsize)
    try:
        yield
    finally:
        _SIZE.reset(token)


def width() -> float:
    """The width of a figure drawn now, in inches."""
    return FIGSIZES[_SIZE.get()]


def rc() -> dict:
    """matplotlib settings of the current size (:func:`paper_style`)."""
    from cycler import cycler
    pt = FONT_PT[_SIZE.get()]
    n = len(LINESTYLES)
    return {"font.size": pt, "axes.titlesize": pt, "axes.labelsize": pt, "figure.titlesize": pt + 0.5,
            "legend.fontsize": pt - 0.5, "xtick.labelsize": pt - 0.5, "ytick.labelsize": pt - 0.5,
            "font.family": "serif", "font.serif": ["STIXGeneral", "DejaVu Serif"], "mathtext.fontset": "stix",
            "axes.prop_cycle": cycler(color=list(PALETTE[:n])) + cycler(linestyle=list(LINESTYLES[:n])),
            "lines.linewidth": 1.0 if _SIZE.get() == "column" else 1.2,
            "lines.markersize": 3.5 if _SIZE.get() == "column" else 5.0,
            "axes.linewidth": 0.6, "grid.linewidth": 0.4, "legend.frameon": False,
            "pdf.fonttype": 42, "axes.unicode_minus": True, "errorbar.capsize": 2}


def styled(fn):
    """Run a plotting function under :func:`rc` (fonts, palette, line styles of the size);
    it then also takes ``figsize=`` (``column`` or ``page``, as :func:`paper_style`)."""
    @functools.wraps(fn)
    def run(*args, figsize: str | None = None, **kwargs):
        import matplotlib as mpl
        if figsize is not None:
            with paper_style(figsize), mpl.rc_context(rc()):
                return fn(*args, **kwargs)
        with mpl.rc_context(rc()):
            return fn(*args, **kwargs)
    return run


def series_style(i: int) -> dict:
    """The i-th series' colour, line style and marker (cycled together)."""
    return {"color": PALETTE[i % len(PALETTE)], "ls": LINESTYLES[i % len(LINESTYLES)],
            "marker": MARKERS[i % len(MARKERS)]}


def mathtext_ok(s: str) -> bool:
    """Whether matplotlib's mathtext parses ``s`` (a label with ``$...$``)."""
    if "$" not in s.replace(r"\$", ""):
        return True
    from matplotlib.mathtext import MathTextParser
    try:
        MathTextParser("path").parse(s)
        return True
    except ValueError:
        return False


def targets(path) -> list[Path]:
    """The two files a plot function writes for ``path``."""
    p = user_path(path)
    if p.suffix.lower() in _SUFFIXES:
        p = p.with_suffix("")
    elif p.suffix and not p.name.startswith("."):
        raise BoundcalcError(f"plot path {str(path)!r}: use no suffix, .png or .pdf "
                             f"(both PNG and PDF are written), not {p.suffix!r}")
    return [p.with_name(p.name + s) for s in _SUFFIXES]


def figure(height: float | None = None, *, ratio: float = 0.65):
    """A new figure of the current width (:func:`paper_style`), ``height`` inches tall
    (default ``ratio`` times the width)."""
    from matplotlib.figure import Figure
    w = width()
    return Figure(figsize=(w, height if height is not None else w * ratio), layout="constrained")


def save(fig, path) -> list[Path]:
    """Write ``fig`` as PNG and (vector) PDF beside it; the two paths."""
    outs = targets(path)
    outs[0].parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(outs[0], dpi=DPI)
    fig.savefig(outs[1], metadata={"CreationDate": None})
    return outs



@styled
def scaling(series: dict, path, *, title: str, xlabel: str, ylabel: str) -> list[Path]:
    """Log-log plot of several series ``name -> dict(x, y, yerr=None, fit=None)``; a fit
    (from :func:`boundcalc.runs.fit.loglog_slope`) is drawn as a line and its slope
    with its interval is written in the legend. Each series gets its own colour, marker and
    line style (:func:`series_style`); optional ``color`` and ``marker`` (an open marker
    with ``open=True``) pair series that belong together, e.g. ours and the paper's. Names,
    title and axis labels may hold mathtext (``$\\epsilon_{\\mathrm{lin}}$``)."""
    import numpy as np
    if not series:
        raise BoundcalcError("scaling plot: no series to plot")
    w = width()
    fig = figure(w * 0.62 + (0.17 if w < 4 else 0.16) * len(series) + 0.3)   # room for the legend below
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
        st = series_style(i)
        colour = s.get("color", st["color"])
        marker = s.get("marker", st["marker"])
        fit = s.get("fit")
        style = {"marker": marker, "color": colour, "mfc": "none" if s.get("open") else colour,
                     "ls": "none" if fit else st["ls"]}
        yerr = s.get("yerr")
        label = str(name)
        if fit:
            from ..runs.fit import describe
            label += " (" + re.sub(r"(?<![\w$])-(?=\d)", "\N{MINUS SIGN}", describe(fit)) + ")"   # a true minus
        if yerr is not None:
            ax.errorbar(x, y, yerr=np.asarray(yerr, dtype=float), label=label, **style)
        else:
            ax.plot(x, y, label=label, **style)
        if fit:
            xx = np.geomspace(x.min(), x.max(), 50)
            ax.plot(xx, np.exp(fit["intercept"]) * xx ** fit["slope"], color=colour, ls=st["ls"], lw=0.9)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="major", alpha=0.3)
    _ticks_at(ax, xs_all)
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=1)   # never over the data
    return save(fig, path)


def _ticks_at(ax, xs) -> None:
    """On a log x axis with few distinct sizes, label exactly the sizes run (8, 16, 32, ...)
    instead of powers of ten with crowded minor labels."""
    if not 2 <= len(xs) <= 12:
        return
    from matplotlib.ticker import FixedLocator, NullFormatter
    ax.xaxis.set_major_locator(FixedLocator(sorted(xs)))
    ax.xaxis.set_major_formatter(lambda v, _: f"{v:g}")
    ax.xaxis.set_minor_formatter(NullFormatter())


# ---------------------------------------------------------------------------- bound vs measured
# The panels of a comparison figure, one per kind of quantity, each with its own axis; a row's
# kind is read from its words (:func:`quantity_group`), in this order of precedence
GROUPS = ("losses", "norms and margins", "head counts", "step sizes", "other quantities")
_GROUP_WORDS = (("head counts", ("heads", "head count", "number of heads")),
                ("step sizes", ("step size", "learning rate")),
                ("norms and margins", ("||", "norm", "margin", "radius", "distance")),
                ("losses", ("loss", "gap", "error", "risk")))


def quantity_group(row) -> str:
    """The panel of a comparison row (:data:`GROUPS`): a head count, a step size, a norm or
    margin (``||...||``, norm, margin, radius, distance), a loss (loss, gap, error, risk),
    else another quantity. Checked in that order: "first-phase error ||p||" is a norm."""
    q = row.quantity.lower()
    for group, words in _GROUP_WORDS:
        if any(w in q for w in words):
            return group
    return "other quantities"


# LaTeX that mathtext reads only in another spelling: a font command's unbraced argument
# (\mathcal L -> \mathcal{L}; mathtext refuses \widehat{\mathcal L})
_MATHTEXT_REWRITE = ((re.compile(r"\\(mathcal|mathbb|mathrm|mathbf|mathit|mathsf|boldsymbol)\s*([A-Za-z0-9])"),
                      r"\\\1{\2}"),)


def to_mathtext(s: str) -> str:
    """A label with LaTeX math in the spelling matplotlib's mathtext reads."""
    for pat, rep in _MATHTEXT_REWRITE:
        s = pat.sub(rep, s)
    return s


def _label(row) -> str:
    """The row's quantity as mathtext; its plain words if that does not parse."""
    from .latex import mathtext_label
    s = to_mathtext(mathtext_label(row))
    return s if mathtext_ok(s) else row.quantity.replace("$", r"\$")


def num(x, integer: bool = False) -> str:
    """A plotted value as mathtext: 3 digits (``fmt_human``), a power of ten written as one
    (``3.26e7`` -> 3.26×10⁷), an integral head count below 10⁵ as an integer (``32``)."""
    from ..mpmath_import import mpmath
    from .numfmt import fmt_human
    v = mpmath.mpf(x)
    if integer and mpmath.isint(v) and abs(v) < 10 ** 5:
        return str(int(v))
    text = fmt_human(x)
    m = re.fullmatch(r"(-?[\d.]+)e([+-]?\d+)", text)
    if m:
        return f"${m.group(1)}{{\\times}}10^{{{int(m.group(2))}}}$"
    return text.replace("-", "\N{MINUS SIGN}")


@styled
def bound_vs_measured(table, path) -> list[Path]:
    """Each row's bound beside its measured value, one panel per kind of quantity
    (:func:`quantity_group`: losses, norms and margins, head counts, step sizes, others),
    each panel with its own log axis. A bound is a diamond coloured by whether it holds
    (green holds, vermillion violated, grey not decided), the measured value a black dot;
    one legend says all of it. ``figsize=``: ``column`` or ``page`` (:func:`paper_style`).

    Positions are powers of ten computed with mpmath, so a bound of 1e400 is drawn at its
    true place, not clipped to the double range. Rows without a positive bound and a
    positive measured value are listed under the plot as not plotted. No panel is taller than
    :data:`PANEL_MAX` (a kind with more rows takes several panels), and no title is drawn in
    (the caption belongs to the paper)."""
    from matplotlib.lines import Line2D

    from ..mpmath_import import mpmath
    groups: dict = {g: [] for g in GROUPS}
    skipped = []
    for r in table.rows:
        if r.bound is None or r.measured is None:
            continue
        b, m = mpmath.mpf(r.bound), mpmath.mpf(r.measured)
        if mpmath.isfinite(b) and mpmath.isfinite(m) and b > 0 and m > 0:
            groups[quantity_group(r)].append((r, float(mpmath.log10(b)), float(mpmath.log10(m)), b, m))
        else:
            skipped.append(r)
    w = width()
    row_h = 0.36 if w < 4 else 0.32
    per_panel = int((PANEL_MAX - 0.5) / row_h)         # rows of one panel at most PANEL_MAX tall
    panels = [(g, rows[k:k + per_panel]) for g, rows in groups.items() for k in range(0, len(rows), per_panel)]
    if not panels:
        raise BoundcalcError(f"bound-vs-measured plot of {table.paper}: no row has a positive bound "
                             "and a positive measured value")
    heights = [0.5 + row_h * len(rows) for _, rows in panels]
    fig = figure(sum(heights) + 0.9 + (0.25 if skipped else 0))
    axes = fig.subplots(len(panels), 1, height_ratios=heights, squeeze=False)[:, 0]
    seen: set = set()
    for ax, (group, rows) in zip(axes, panels):
        _panel(ax, group, rows, w, seen)
    handles = [Line2D([], [], marker="D", color=HOLDS_COLOURS[h], ls="none", label=HOLDS_LABELS[h])
               for h in (True, False, None) if h in seen]
    handles.append(Line2D([], [], marker="o", color=MEASURED_COLOUR, mfc="none", ls="none", label="measured"))
    fig.legend(handles=handles, loc="outside lower center", ncols=len(handles) if w > 4 else 2)
    if skipped:                       # one line each: a mathtext label is not cut by wrapping
        axes[-1].set_xlabel(axes[-1].get_xlabel() + "\n\nnot plotted (no positive bound and measured value):\n"
                            + "\n".join(_label(r) for r in skipped), fontsize="small")
    # no title drawn into the figure: the caption belongs to the paper
    return save(fig, path)


def _panel(ax, group: str, rows: list, w: float, seen: set) -> None:
    """One panel of :func:`bound_vs_measured`: each row's bound (a diamond coloured by whether
    it holds) and measured value (a dot) on one log axis, the values beside their markers."""
    import textwrap

    from matplotlib.ticker import FuncFormatter, MaxNLocator
    from matplotlib.transforms import blended_transform_factory
    lo = math.floor(min(min(lb, lm) for _, lb, lm, _, _ in rows))
    hi = math.ceil(max(max(lb, lm) for _, lb, lm, _, _ in rows))
    if hi - lo < 1:
        hi = lo + 1
    span = hi - lo
    n = len(rows)
    label_at = blended_transform_factory(ax.transAxes, ax.transData)
    integer = group == "head counts"
    for i, (r, lb, lm, b, m) in enumerate(rows):
        y = n - 1 - i
        colour = HOLDS_COLOURS[r.holds]
        seen.add(r.holds)
        yy = y - 0.12
        ax.plot([lb, lm], [yy, yy], color="0.75", lw=0.6, ls="-", zorder=1)
        ax.plot([lb], [yy], marker="D", color=colour, ls="none", zorder=3)
        ax.plot([lm], [yy], marker="o", color=MEASURED_COLOUR, mfc="none", ls="none", zorder=4)
        # the values beside their markers, outwards: the larger to the right, the smaller to
        # the left (the bound to the right when they are equal), never over the label above
        right = lb >= lm
        for x_, v_, c_, r_ in ((lb, b, colour, right), (lm, m, MEASURED_COLOUR, not right)):
            ax.annotate(num(v_, integer), (x_, yy), xytext=(5 if r_ else -5, 0),
                        textcoords="offset points", ha="left" if r_ else "right", va="center",
                        fontsize="x-small", color=c_)
        ax.text(0.005, y + 0.5, textwrap.shorten(_label(r), 400), transform=label_at, ha="left",
                va="top", fontsize="small")
    ax.set_ylim(-0.65, n - 0.45)
    ax.set_yticks([])
    ax.set_xlim(lo - 0.2 * span, hi + 0.2 * span)          # room for the values beside the markers
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=6 if w < 4 else 10))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda t, _: f"$10^{{{round(t)}}}$"))
    ax.grid(True, axis="x", alpha=0.3)
    ax.set_ylabel(group, fontweight="bold")
    ax.set_xlabel("bound and measured value (log scale)", fontsize="small")


@styled
def trajectories(paths: dict, directions: dict, path, *, title: str, xlabel: str = "first coordinate",
                 ylabel: str = "second coordinate") -> list[Path]:
    """2-D trajectories (``name -> array (steps, 2)``) with a start marker, beside
    directions (``name -> array (2,)``, e.g. SVM solutions) drawn as rays from the origin
    scaled to the extent of the trajectories. Trajectories take the palette's colours with
    solid lines; each direction is black or grey with its own dash pattern and end marker,
    so directions are told apart in print and in the legend; they are drawn above the
    paths (which are wide and translucent) since a path often runs along one. Name the axes
    (``xlabel="$p_1$ (first coordinate of p)"``); names may hold mathtext."""
    import numpy as np
    if not paths:
        raise BoundcalcError("trajectory plot: no trajectories")
    w = width()
    fig = figure(w * (0.9 if w < 4 else 0.7) + 0.09 * (len(paths) + len(directions) + 2))
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
        colour = PALETTE[i % len(PALETTE)]
        ax.plot(a[:, 0], a[:, 1], "-", color=colour, lw=2.2, alpha=0.55, label=str(name), zorder=2)
        ax.plot(a[0, 0], a[0, 1], "o", color=colour, mfc="none", zorder=2)
        ax.plot(a[-1, 0], a[-1, 1], ">", color=colour, zorder=2)
    extent = extent or 1.0
    dash = ("--", ":", "-.", (0, (8, 2)), (0, (5, 1.5, 1, 1.5, 1, 1.5)))
    greys = ("0.0", "0.45", "0.0", "0.45", "0.0")
    ends = ("s", "^", "D", "v", "P")
    for j, (name, d) in enumerate(directions.items()):
        v = np.asarray(d, dtype=float).reshape(-1)
        if v.shape != (2,) or not np.all(np.isfinite(v)) or not np.any(v):
            raise BoundcalcError(f"trajectory plot: direction {name!r} must be a non-zero 2-vector")
        v = v / np.linalg.norm(v) * extent * 1.1
        k = j % len(dash)
        ax.plot([0, v[0]], [0, v[1]], ls=dash[k], color=greys[k], lw=1.0, marker=ends[k], markevery=[1],
                label=f"{name} (direction)", zorder=3)         # above the paths that run along it
    ax.axhline(0, color="0.85", lw=0.6, zorder=0)
    ax.axvline(0, color="0.85", lw=0.6, zorder=0)
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    from matplotlib.lines import Line2D
    handles, labels = ax.get_legend_handles_labels()
    handles += [Line2D([], [], marker="o", color="0.3", mfc="none", ls="none"),
                Line2D([], [], marker=">", color="0.3", ls="none")]
    labels += ["start", "last step"]
    fig.legend(handles, labels, loc="outside lower center", ncols=2)
    return save(fig, path)
