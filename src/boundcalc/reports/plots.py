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
# the look of the figures, as a number: raise it whenever a change to this module (or to a
# figure drawn with it) changes what a figure looks like, and redraw the shipped figures
# (``python -m boundcalc.experiments.record NAME --replot``; tests/test_figures_shipped.py
# fails on a shipped figure whose recorded style is older). Recorded in every file written
# by :func:`save`: a PNG text chunk :data:`STYLE_KEY`, and the PDF's Creator.
# 1: the figures before this number; 2: column width with panels <= 2.6 in (one file each),
# no titles in compare figures, math labels (m = 8: as text, sup_j beside, true minus),
# compare --measured against a numeric input with seed error bars
STYLE_VERSION = 2
STYLE_KEY = "boundcalc-figure-style"

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
    fig.savefig(outs[0], dpi=DPI, metadata={STYLE_KEY: str(STYLE_VERSION)})
    fig.savefig(outs[1], metadata={"CreationDate": None, "Creator": f"boundcalc, {STYLE_KEY} {STYLE_VERSION}"})
    return outs


def recorded_style(path) -> int | None:
    """The figure style a PNG or PDF written by :func:`save` records (:data:`STYLE_VERSION`
    when it was written); None for a file without one (older, or not drawn by boundcalc)."""
    p = Path(path)
    if p.suffix.lower() == ".png":
        from PIL import Image
        with Image.open(p) as im:
            text = str(im.info.get(STYLE_KEY, ""))
    else:
        m = re.search(rb"/Creator \(boundcalc, " + STYLE_KEY.encode() + rb" (\d+)\)", p.read_bytes())
        text = m.group(1).decode() if m else ""
    return int(text) if text.isdigit() else None



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
        label = to_mathtext(str(name))
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
    ax.set_xlabel(to_mathtext(xlabel))
    ax.set_ylabel(to_mathtext(ylabel))
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
_MATHTEXT_REWRITE = (
    (re.compile(r"\\(mathcal|mathbb|mathrm|mathbf|mathit|mathsf|boldsymbol)\s*([A-Za-z0-9])"), r"\\\1{\2}"),
    # an operator's subscript beside it, as LaTeX sets it in running text (mathtext sets
    # \sup_j with j under it, which reads as "sup" glued to the next label)
    (re.compile(r"\\(sup|inf|max|min|lim)(?![A-Za-z])\s*(?=_)"), r"\\operatorname{\1}"),
    # a minus after an opening bracket, a comma or a relation is a sign: no binary-minus
    # spacing ("(0, -1)", not "(0, - 1)")
    (re.compile(r"(?<=[(\[,=<>])(\s*)-"), r"\1{-}"),
)
# "m=8\colon X" in one math piece: the label's prefix as text ("m = 8: X"), mathtext's
# \colon has no space after it
_COLON = re.compile(r"\\colon\s*")


def _rewrite_math(m: str) -> str:
    for pat, rep in _MATHTEXT_REWRITE:
        m = pat.sub(rep, m)
    return m


def to_mathtext(s: str) -> str:
    """A label with LaTeX math in the spelling matplotlib's mathtext reads (the rewrites
    apply inside ``$...$`` only; the text between is left as it is)."""
    parts = re.split(r"(?<!\\)\$", s)
    if len(parts) % 2 == 0:                 # an odd number of $: not math, left alone
        return s
    # in the text between, a sign before a digit is a true minus ("(0, \N{MINUS SIGN}1)"), a
    # hyphen between words stays one
    s = "$".join(_rewrite_math(p) if k % 2 else re.sub(r"(?<![\w\-])-(?=\d)", "\N{MINUS SIGN}", p)
                 for k, p in enumerate(parts))
    if "\\colon" in s and s.count("$") % 2 == 0:
        s = _COLON.sub("$: $", s).replace("$$", "")
    return re.sub(r"\$([^$=]*?)=([^$]*?)\$", lambda m: f"${m.group(1).strip()} = {m.group(2).strip()}$"
                  if m.group(1).strip().isalpha() and m.group(2).strip().isdigit() else m.group(0), s)


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


def _positive_log10(r):
    """(log10 bound, log10 measured, bound, measured) of a row whose two values are finite and
    positive (a point on a log axis); None for any other row."""
    from ..mpmath_import import mpmath
    b, m = mpmath.mpf(r.bound), mpmath.mpf(r.measured)
    if mpmath.isfinite(b) and mpmath.isfinite(m) and b > 0 and m > 0:
        return float(mpmath.log10(b)), float(mpmath.log10(m)), b, m
    return None


def _row_height() -> float:
    return 0.36 if width() < 4 else 0.32


# inches of a bound-vs-measured figure outside its rows: the axis with its label, the legend
_FRAME_H = 1.0


def bvm_panels(table) -> list[tuple[str, list]]:
    """The panels of :func:`bound_vs_measured`: ``(group, rows)`` in the order of
    :data:`GROUPS`, each with at most as many rows as fit a figure :data:`PANEL_MAX` tall
    (a kind with more rows takes several panels). A row enters when it has a bound and a
    measured value; one of them not positive (or beyond every float) is still listed in its
    panel, as not plotted on the log axis."""
    groups: dict = {g: [] for g in GROUPS}
    for r in table.rows:
        if r.bound is not None and r.measured is not None:
            groups[quantity_group(r)].append(r)
    per_panel = max(1, int((PANEL_MAX - _FRAME_H) / _row_height()))
    panels = []
    for g, rows in groups.items():       # as few panels as fit, of equal sizes (5 rows: 3 and 2)
        size = math.ceil(len(rows) / math.ceil(len(rows) / per_panel)) if rows else 0
        panels += [(g, rows[k:k + size]) for k in range(0, len(rows), size or 1)]
    if not any(_positive_log10(r) for _, rows in panels for r in rows):
        raise BoundcalcError(f"bound-vs-measured plot of {table.paper}: no row has a positive bound "
                             "and a positive measured value")
    return panels


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def panel_stems(path, panels: list[tuple[str, list]]) -> list[Path]:
    """The file stem of each panel: ``path`` itself for one panel, else ``path-GROUP`` and
    ``path-GROUP-2`` ... (``out/fig-losses``, ``out/fig-norms-and-margins-2``)."""
    stem = targets(path)[0].with_suffix("")
    if len(panels) == 1:
        return [stem]
    out: list[Path] = []
    seen: dict[str, int] = {}
    for group, _ in panels:
        k = seen[group] = seen.get(group, 0) + 1
        out.append(stem.with_name(f"{stem.name}-{_slug(group)}" + (f"-{k}" if k > 1 else "")))
    return out


def bound_vs_measured_targets(table, path, figsize: str | None = None) -> list[Path]:
    """The files :func:`bound_vs_measured` writes for ``table`` at ``figsize`` (default: the
    current size, :func:`paper_style`): PNG and PDF of each panel."""
    if figsize is not None:
        with paper_style(figsize):
            return bound_vs_measured_targets(table, path)
    return [t for st in panel_stems(path, bvm_panels(table)) for t in targets(st)]


@styled
def bound_vs_measured(table, path) -> list[Path]:
    """Each row's bound beside its measured value, one figure per kind of quantity
    (:func:`quantity_group`: losses, norms and margins, head counts, step sizes, others),
    each with its own log axis. A bound is a diamond coloured by whether it holds (green
    holds, vermillion violated, grey not decided), the measured value a black circle; each
    figure's legend says all of it. ``figsize=``: ``column`` or ``page`` (:func:`paper_style`).

    Every figure is one panel at most :data:`PANEL_MAX` inches tall (a kind with more rows
    takes several figures), written as :func:`panel_stems` names them (``path`` itself when
    there is one panel), and no title is drawn in (the caption belongs to the paper).
    Positions are powers of ten computed with mpmath, so a bound of 1e400 is drawn at its
    true place, not clipped to the double range. A row whose bound or measured value is not
    positive is listed in its panel with its values, as not plotted on the log axis."""
    from matplotlib.lines import Line2D
    panels = bvm_panels(table)
    w = width()
    written: list[Path] = []
    for stem, (group, rows) in zip(panel_stems(path, panels), panels):
        fig = figure(_FRAME_H + _row_height() * len(rows))
        ax = fig.add_subplot()
        seen: set = set()
        _panel(ax, group, rows, w, seen)
        handles = [Line2D([], [], marker="D", color=HOLDS_COLOURS[h], ls="none", label=HOLDS_LABELS[h])
                   for h in (True, False, None) if h in seen]
        handles.append(Line2D([], [], marker="o", color=MEASURED_COLOUR, mfc="none", ls="none",
                              label="measured"))
        fig.legend(handles=handles, loc="outside lower center", ncols=len(handles) if w > 4 else min(len(handles), 3),
                   handletextpad=0.2, columnspacing=0.8)
        written += save(fig, stem)
    return written


def _panel(ax, group: str, rows: list, w: float, seen: set) -> None:
    """One panel of :func:`bound_vs_measured`: each row's bound (a diamond coloured by whether
    it holds) and measured value (a dot) on one log axis, the values beside their markers; a
    row with a value that is not positive says so in words where its markers would be."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator
    from matplotlib.transforms import blended_transform_factory
    points = [_positive_log10(r) for r in rows]
    logs = [x for pt in points if pt for x in pt[:2]]
    lo, hi = (math.floor(min(logs)), math.ceil(max(logs))) if logs else (0, 1)
    if hi - lo < 1:
        hi = lo + 1
    span = hi - lo
    n = len(rows)
    label_at = blended_transform_factory(ax.transAxes, ax.transData)
    integer = group == "head counts"
    for i, (r, pt) in enumerate(zip(rows, points)):
        y = n - 1 - i
        yy = y - 0.12
        ax.text(0.005, y + 0.5, _label(r), transform=label_at, ha="left", va="top", fontsize="small")
        if pt is None:
            ax.text(0.5, yy, f"not on the log axis: bound {num(r.bound, integer)}, measured "
                    f"{num(r.measured, integer)}", transform=label_at, ha="center", va="center",
                    fontsize="x-small", color="0.35")
            continue
        lb, lm, b, m = pt
        colour = HOLDS_COLOURS[r.holds]
        seen.add(r.holds)
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
    ax.set_ylim(-0.65, n - 0.3)
    ax.set_yticks([])
    ax.set_xlim(lo - 0.2 * span, hi + 0.2 * span)          # room for the values beside the markers
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=6 if w < 4 else 10))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda t, _: f"$10^{{{round(t)}}}$"))
    ax.grid(True, axis="x", alpha=0.3)
    ax.set_ylabel(group)
    ax.set_xlabel("bound and measured value (log scale)")


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


# ---------------------------------------------------------------------------- your runs vs a bound
def _input_number(text: str) -> float:
    from ..expr.parser import parse_number
    return float(parse_number(str(text), where="run input"))


def versus_column(table, versus: str | None = None) -> str | None:
    """The input column a ``compare --measured`` figure plots against: ``versus`` when given
    (refused in one line unless it is an input of the runs), else the one input that varies
    across the runs; None when no input varies (the runs are one setting: the
    bound-vs-measured figure is drawn instead). Several varying inputs without ``versus`` are
    refused, naming them."""
    rows = [r for r in table.rows if r.inputs]
    cols: list[str] = []
    for r in rows:
        cols += [c for c in r.inputs if c not in cols]
    if versus is not None:
        if versus not in cols:
            raise BoundcalcError(f"--versus {versus!r}: not an input column of the runs"
                                 + (f" (their inputs: {', '.join(cols)})" if cols else
                                    " (the table has no run inputs; --versus needs --measured)"))
        return versus
    varying = [c for c in cols if len({_input_number(r.inputs[c]) for r in rows if c in r.inputs}) > 1]
    if len(varying) > 1:
        raise BoundcalcError(f"the runs vary {', '.join(varying)}: name the one to plot against with "
                             f"--versus {varying[0]}")
    return varying[0] if varying else None


def measured_versus_targets(table, path, versus: str | None = None, figsize: str | None = None) -> list[Path]:
    """The files :func:`measured_versus` writes (:func:`bound_vs_measured_targets` when no
    input varies)."""
    x = versus_column(table, versus)
    if x is None:
        return bound_vs_measured_targets(table, path, figsize)
    return [t for st in _formula_stems(path, _by_formula(table)) for t in targets(st)]


def _by_formula(table) -> dict[str, list]:
    out: dict[str, list] = {}
    for r in table.rows:
        if r.inputs and r.bound is not None and r.measured is not None:
            out.setdefault(r.formula or r.quantity, []).append(r)
    return out


def _formula_stems(path, groups: dict) -> list[Path]:
    stem = targets(path)[0].with_suffix("")
    if len(groups) == 1:
        return [stem]
    return [stem.with_name(f"{stem.name}-{_slug(f.rsplit('.', 1)[-1])}") for f in groups]


def _series_of(rows: list, x: str) -> dict[tuple, list]:
    """The rows of one formula as series: one per combination of the inputs other than
    ``x`` (runs that differ in more than ``x`` are not one curve), each sorted by ``x``."""
    series: dict[tuple, list] = {}
    for r in rows:
        if x not in r.inputs:
            continue
        key = tuple(sorted((k, v) for k, v in r.inputs.items() if k != x))
        series.setdefault(key, []).append(r)
    for rs in series.values():
        rs.sort(key=lambda r: _input_number(r.inputs[x]))
    others = [k for k in {kv[0] for key in series for kv in key}
              if len({dict(key).get(k) for key in series}) > 1]
    out = {tuple(kv for kv in key if kv[0] in others): rs for key, rs in series.items()}
    return dict(sorted(out.items(), key=lambda kv: [(k, _input_number(v)) for k, v in kv[0]]))


def _quantity_math(r) -> str:
    """The measured quantity's math (the first ``$...$`` of the row's LaTeX), as mathtext."""
    m = re.match(r"\$(.+?)(?<!\\)\$", r.latex or "")
    q = to_mathtext(f"${m.group(1)}$") if m else ""
    return q if q and mathtext_ok(q) else ""


def _symbol(x: str, symbols: dict) -> str:
    """An input symbol as mathtext (its LaTeX), else its name as text."""
    tex = symbols.get(x, ("", ""))[0]
    sym = to_mathtext(f"${tex}$") if tex else ""
    return sym if sym and mathtext_ok(sym) else x.replace("$", r"\$")


def _axis_label(x: str, symbols: dict) -> str:
    """The x axis: the symbol's description (when short) and the symbol."""
    desc = symbols.get(x, ("", ""))[1]
    sym = _symbol(x, symbols)
    return f"{desc} {sym}" if desc and len(desc) <= 40 else sym


def _certified(r) -> str:
    """What a plotted bound is: certified at each run's inputs, and its constants (a
    one-letter constant as math: "with $C = 1$ (default)")."""
    c = r.constant if r.constant and r.constant != "exact constant" else ""
    c = re.sub(r"(?<![\w$])([A-Za-z])(\d*) = (\d[\d./]*)\b",
               lambda m: f"${m.group(1)}{'_{' + m.group(2) + '}' if m.group(2) else ''} = {m.group(3)}$", c)
    return "certified at each run" + (f"; {c.replace('$', '') if not mathtext_ok(c) else c}" if c else "")


def _value_label(kind: str, quantity: str, source: str) -> str:
    what = {"upper": "upper bound", "lower": "lower bound"}.get(kind, "formula value")
    return f"{quantity} ({what})" if quantity else what


def _bars_say(rows: list) -> str:
    """The legend line saying what the error bars are (and which points have none)."""
    n = sorted({r.seeds for r in rows if r.measured_low is not None})
    if not n:
        return "one run per point, no interval"
    seeds = f"{n[0]} seeds" if len(n) == 1 else f"{n[0]}\N{EN DASH}{n[-1]} seeds"
    single = any(r.measured_low is None for r in rows)
    return (f"bars: 95% Student-$t$ interval of the mean ({seeds})"
            + ("; no bar: one run" if single else ""))


@styled
def measured_versus(table, path, *, versus: str | None = None) -> list[Path]:
    """Your runs (``compare --measured``) against one numeric input (``versus``, default the
    one input that varies, :func:`versus_column`): for each measured formula a figure with the
    bound evaluated (certified) at each run's inputs and the measured value, a mean over seeds
    with its interval as error bars (the interval the CSV's ``measured_low``/``measured_high``
    hold: two-sided 95% Student-t over the seeds; a run without seeds has no bar). Runs that
    differ in another input too are separate curves, named in the legend. A bound the run
    violates is ringed in vermillion. Each figure is :func:`width` wide and at most
    :data:`PANEL_MAX` tall, one per formula (``path-FORMULA`` when several), no title drawn
    in; axes are logarithmic where the values are positive and span a factor of 10 or more.
    With no varying input this is :func:`bound_vs_measured`."""
    import numpy as np
    from matplotlib.lines import Line2D
    x = versus_column(table, versus)
    if x is None:
        return bound_vs_measured.__wrapped__(table, path)
    groups = _by_formula(table)
    if not groups:
        raise BoundcalcError("measured plot: no run has both a bound and a measured value")
    w = width()
    written: list[Path] = []
    for stem, (fid, rows) in zip(_formula_stems(path, groups), groups.items()):
        series = _series_of(rows, x)
        fig = figure(min(PANEL_MAX, w * 0.62 + 0.12 * len(series) + 0.35))
        ax = fig.add_subplot()
        xs_all: set = set()
        ys_all: list[float] = []
        violated = False
        for i, (key, rs) in enumerate(series.items()):
            st = series_style(i)
            xv = np.array([_input_number(r.inputs[x]) for r in rs])
            b = np.array([float(r.bound) for r in rs])
            m = np.array([float(r.measured) for r in rs])
            lo = np.array([m_ - r.measured_low if r.measured_low is not None else 0.0 for r, m_ in zip(rs, m)])
            hi = np.array([r.measured_high - m_ if r.measured_high is not None else 0.0 for r, m_ in zip(rs, m)])
            tag = ", ".join(f"{_symbol(k, table.input_symbols)} = {v}" for k, v in key)
            what = "bound" if rs[0].kind in ("upper", "lower") else "formula"
            ax.plot(xv, b, color=st["color"], ls=st["ls"], marker="D", mfc="none", zorder=2,
                    label=(f"{what}, {tag}" if tag else f"{what} ({_certified(rs[0])})"))
            ax.errorbar(xv, m, yerr=[lo, hi], color=st["color"] if tag else MEASURED_COLOUR, ls="none",
                        marker="o", zorder=3, label=(f"measured, {tag}" if tag else "measured"))
            bad = [j for j, r in enumerate(rs) if r.holds is False]
            if bad:
                violated = True
                ax.plot(xv[bad], b[bad], ls="none", marker="o", ms=rc()["lines.markersize"] * 2.2,
                        mfc="none", color=HOLDS_COLOURS[False], zorder=4)
            xs_all.update(xv.tolist())
            ys_all += [*b.tolist(), *(m - lo).tolist(), *(m + hi).tolist()]
        xs = sorted(xs_all)
        if xs[0] > 0 and xs[-1] / xs[0] >= 10:
            ax.set_xscale("log")
            _ticks_at(ax, xs_all)
        if min(ys_all) > 0 and max(ys_all) / min(ys_all) >= 10:
            ax.set_yscale("log")
        r0 = rows[0]
        q = _quantity_math(r0)
        ax.set_xlabel(_axis_label(x, table.input_symbols))
        ax.set_ylabel(_value_label(r0.kind, q, r0.source) if q else fid.rsplit(".", 1)[-1].replace("$", r"\$"))
        ax.grid(True, which="major", alpha=0.3)
        handles, labels = ax.get_legend_handles_labels()
        if violated:
            handles.append(Line2D([], [], ls="none", marker="o", mfc="none", color=HOLDS_COLOURS[False]))
            labels.append("bound violated")
        if any(series):                   # the curves are named by their inputs: say what a bound is once
            handles.append(Line2D([], [], ls="none"))
            labels.append(f"{'bounds' if r0.kind in ('upper', 'lower') else 'formula values'}: "
                          f"{_certified(r0)}")
        handles.append(Line2D([], [], ls="none"))
        labels.append(_bars_say(rows))
        fig.legend(handles, labels, loc="outside lower center", ncols=1, handletextpad=0.3)
        written += save(fig, stem)
    return written
