"""reports.plots: valid PNG and PDF files; figures ready for a paper."""
from __future__ import annotations

import re

import mpmath
import numpy as np
import pytest

from boundcalc.errors import BoundcalcError
from boundcalc.reports import plots
from boundcalc.reports.table import Row, Table
from boundcalc.runs.fit import loglog_slope

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def check_files(paths, stem):
    assert [p.name for p in paths] == [stem + ".png", stem + ".pdf"]
    png, pdf = paths
    assert png.read_bytes()[:8] == PNG_MAGIC
    data = pdf.read_bytes()
    assert data[:5] == b"%PDF-" and b"%%EOF" in data[-32:]
    from matplotlib.image import imread
    img = imread(png)
    assert img.ndim == 3 and img.shape[0] > 100 and img.shape[1] > 100
    assert img.std() > 0          # not a blank image


def test_scaling(tmp_path):
    x = [8, 16, 32, 64]
    ys = [[v ** -0.5 * (1 + 0.01 * s) for v in x] for s in range(3)]
    fit = loglog_slope(x, ys)
    out = plots.scaling({"measured": {"x": x, "y": np.mean(ys, axis=0), "yerr": np.std(ys, axis=0), "fit": fit},
                         "bound": {"x": x, "y": [2 * v ** -0.5 for v in x]}},
                        tmp_path / "sub" / "scale.png", title="test error", xlabel="n", ylabel="error")
    check_files(out, "scale")


def test_bound_vs_measured_with_huge_bound(tmp_path):
    t = Table("deora2023", "demo", {"H": 4}, 3, [
        Row("huge", "Thm 1", bound=mpmath.mpf(10) ** 400, measured=0.3),
        Row("violated", "Prop 2", bound=0.1, measured=0.3),
        Row("no measurement", "eq. 3", bound=2.0),
        Row("zero", "eq. 4", bound=0.0, measured=1.0, kind="lower"),
    ])
    check_files(plots.bound_vs_measured(t, tmp_path / "bars"), "bars")
    empty = Table("x", "y", {}, 0, [Row("a", "b", bound=None, measured=1.0)])
    with pytest.raises(BoundcalcError, match="no row"):
        plots.bound_vs_measured(empty, tmp_path / "e")


def test_trajectories(tmp_path):
    t = np.linspace(0, 1, 50)[:, None]
    out = plots.trajectories({"GD": np.hstack([t, t ** 2]), "RP": np.hstack([t, 0.5 * t])},
                             {"W_mm": np.array([1.0, 1.0])}, tmp_path / "traj.pdf", title="paths")
    check_files(out, "traj")
    with pytest.raises(BoundcalcError, match="shape"):
        plots.trajectories({"bad": np.zeros((3, 3))}, {}, tmp_path / "x", title="t")


def test_bad_suffix(tmp_path):
    with pytest.raises(BoundcalcError, match=r"\.svg"):
        plots.scaling({"a": {"x": [1, 2], "y": [1, 2]}}, tmp_path / "a.svg", title="", xlabel="", ylabel="")


@pytest.fixture
def saved_figures(monkeypatch):
    """Every figure saved during a test, with the file names it was saved under."""
    from matplotlib.figure import Figure
    saved = []
    real = Figure.savefig

    def spy(self, fname, *a, **kw):
        saved.append((self, str(fname)))
        return real(self, fname, *a, **kw)
    monkeypatch.setattr(Figure, "savefig", spy)
    return saved


def assert_labelled(saved):
    assert saved
    for fig, name in saved:
        from pathlib import Path
        assert "_" not in Path(name).name, f"{name}: file names use hyphens"
        for ax in fig.axes:
            assert ax.get_xlabel().strip() and ax.get_ylabel().strip(), (name, ax.get_title())


def test_every_plot_names_its_axes(tmp_path, saved_figures):
    t = np.linspace(0, 1, 20)[:, None]
    plots.scaling({"a": {"x": [1, 2, 4], "y": [1, 0.7, 0.5]}}, tmp_path / "scale-a", title="t",
                  xlabel="width m", ylabel="error")
    plots.bound_vs_measured(Table("p", "demo", {}, 0, [Row("q", "s", bound=2.0, measured=1.0)]),
                            tmp_path / "bars-a")
    plots.trajectories({"GD": np.hstack([t, t])}, {}, tmp_path / "traj-a", title="paths")
    plots.trajectories({"GD": np.hstack([t, t])}, {}, tmp_path / "traj-b", title="paths",
                       xlabel="$p_1$", ylabel="$p_2$")
    assert saved_figures[-1][0].axes[0].get_xlabel() == "$p_1$"
    assert_labelled(saved_figures)


def test_tarzanagh_fig9_plot_is_labelled_and_hyphenated(tmp_path, saved_figures):
    from boundcalc.experiments import tarzanagh2023 as tz
    per_d = {str(d): {"pct_not_saturated": 10.0, "pct_lmm": 90.0, "pct_gmm": 50.0} for d in (2, 4)}
    out = tz._plot_fig9(per_d, [2, 4], tmp_path)
    assert [p.rsplit("/", 1)[1] for p in out] == ["tarzanagh2023-fig9.png", "tarzanagh2023-fig9.pdf"]
    assert_labelled(saved_figures)


# ---------------------------------------------------------------------------- figures for a paper
# the width a paper uses, vector PDF beside the PNG, a colour-blind-safe palette, one panel per
# kind of quantity each with its own axis, a legend for every encoding, mathtext labels
# Okabe & Ito (2008), Color Universal Design, Table: the eight colours as published
OKABE_ITO = {"#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}


def table():
    return Table("deora2023", "demo", {"H": 32}, 0, [
        Row("train loss L^(theta^(K))", "Cor. 2", bound=0.315, measured=0.00954),
        Row("B_2 = max_h ||theta_h^(1)||", "Prop. 2", bound=2.90, measured=0.504),
        Row("heads: Cor. 2 (good initialization)", "Cor. 2", bound=3.26e7, measured=32.0, kind="condition"),
        Row("step size: Cor. 2 (required max eta vs eta used)", "Cor. 2", bound=9.64e-7, measured=1.0,
            kind="condition"),
        Row("noise: Prop. 3 (Zbar <= S^2/8)", "Prop. 3", bound=0.125, measured=0.05),
        Row("NTK margin of theta^(1): gamma_*/2 <= gamma_NTK", "Prop. 2", bound=-2.72, measured=1.36),
    ])


@pytest.fixture
def figures(monkeypatch):
    from matplotlib.figure import Figure
    saved = []
    real = Figure.savefig

    def spy(self, fname, *a, **kw):
        saved.append(self)
        return real(self, fname, *a, **kw)
    monkeypatch.setattr(Figure, "savefig", spy)
    return saved


def texts(fig) -> list[str]:
    """Every piece of text drawn: titles, labels, tick labels, legend entries, annotations."""
    fig.canvas.draw()
    return [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text")) if t.get_text()]


def pdf_width_pt(path) -> float:
    m = re.search(rb"/MediaBox \[ *0 0 ([\d.]+) ([\d.]+) *\]", path.read_bytes())
    return float(m.group(1))


@pytest.mark.parametrize(("size", "inches"), [("column", 3.25), ("page", 6.75)])
def test_widths_a_paper_uses_png_and_vector_pdf(tmp_path, size, inches):
    from matplotlib.image import imread
    png, pdf = plots.bound_vs_measured(table(), tmp_path / f"bars-{size}", figsize=size)[:2]
    assert imread(png).shape[1] == round(inches * plots.DPI)
    assert pdf_width_pt(pdf) == pytest.approx(inches * 72, abs=0.01)
    data = pdf.read_bytes()
    assert b"/Subtype /Image" not in data            # vector: no raster inside the PDF
    assert b"STIX" in data                            # the paper-like font, embedded
    with pytest.raises(BoundcalcError, match="--figsize must be one of column, page"):
        plots.bound_vs_measured(table(), tmp_path / "x", figsize="a4")


def test_one_panel_per_kind_with_its_own_axis(tmp_path, figures):
    out = plots.bound_vs_measured(table(), tmp_path / "bars")
    # one figure (one file) per kind, named after it
    assert [p.name for p in out[::2]] == ["bars-losses.png", "bars-norms-and-margins.png", "bars-head-counts.png",
                                          "bars-step-sizes.png", "bars-other-quantities.png"]
    assert [len(fig.axes) for fig in figures[::2]] == [1] * 5
    assert [fig.axes[0].get_ylabel() for fig in figures[::2]] == ["losses", "norms and margins", "head counts",
                                                                  "step sizes", "other quantities"]
    # each panel's axis spans its own values (log10), not one axis for all
    lims = [fig.axes[0].get_xlim() for fig in figures[::2]]
    heads, steps = lims[2], lims[3]
    assert heads[0] < np.log10(32) and heads[1] > np.log10(3.26e7)
    assert steps[0] < np.log10(9.64e-7) and steps[1] < np.log10(3.26e7)
    assert len(set(lims)) == len(lims)


def test_legend_says_every_encoding_and_head_counts_are_integers(tmp_path, figures):
    plots.bound_vs_measured(table(), tmp_path / "bars")
    legend = [t.get_text() for fig in figures for leg in fig.legends for t in leg.get_texts()]
    assert "bound (holds)" in legend and "bound (violated)" in legend and "measured" in legend
    # the colour a legend entry says is the colour the bound markers are drawn in
    handles = {t.get_text(): h for fig in figures for leg in fig.legends
               for t, h in zip(leg.get_texts(), leg.legend_handles)}
    assert handles["bound (holds)"].get_color() == plots.HOLDS_COLOURS[True]
    assert handles["bound (violated)"].get_color() == plots.HOLDS_COLOURS[False]
    drawn = [t for fig in figures for t in texts(fig)]
    assert "32" in drawn and "32.0" not in drawn
    assert r"$3.26{\times}10^{7}$" in drawn
    assert not any(re.fullmatch(r"[-\u2212]0(\.0+)?", t) for t in drawn)        # no -0.0


def test_labels_are_mathtext_not_ascii(tmp_path, figures):
    plots.bound_vs_measured(table(), tmp_path / "bars")
    drawn = [t for fig in figures for t in texts(fig)]
    assert r"$B_{2} = \operatorname{max}_{h} \| \theta_{h}^{(1)} \|$" in drawn    # one piece of math
    for t in drawn:
        plain = re.sub(r"(?<!\\)\$.*?(?<!\\)\$", "", t)        # the text outside the math
        assert not re.search(r"\^\(|_\{|\|\||\bsqrt\b|theta|gamma_|p\^mm", plain), t
        assert plots.mathtext_ok(t), t
    # the row that cannot be plotted (negative bound) stays in its panel, typeset, and says why
    margins = texts(figures[2])
    assert any(r"\gamma" in t for t in margins)
    assert "not on the log axis: bound \u22122.72, measured 1.36" in margins


def test_palette_is_okabe_ito_and_series_differ_by_more_than_colour():
    assert set(plots.PALETTE) == OKABE_ITO
    styles = [plots.series_style(i) for i in range(len(plots.LINESTYLES))]
    assert len({s["ls"] for s in styles}) == len(styles) and len({s["marker"] for s in styles}) == len(styles)
    assert plots.HOLDS_COLOURS[True] in OKABE_ITO and plots.HOLDS_COLOURS[False] in OKABE_ITO


def test_directions_are_told_apart(tmp_path, figures):
    """tarzanagh2023 Fig. 3(b) drew three dashed black/grey rays alike: each now has its own
    dash pattern and end marker, in the legend too."""
    t = np.linspace(0, 1, 20)[:, None]
    plots.trajectories({"$p(t)$": np.hstack([t, 0 * t]), "$v(t)$": np.hstack([0 * t, t])},
                       {"$p^{mm}$": [1, 0.2], "$p^{relax}$": [1, 0], "$v^{mm}$": [0, 1]},
                       tmp_path / "traj", title="t", xlabel="x", ylabel="y")
    rays = [ln for ln in figures[0].axes[0].get_lines() if str(ln.get_label()).endswith("(direction)")]
    assert len(rays) == 3
    assert len({(str(r.get_linestyle()), r.get_marker()) for r in rays}) == 3
    assert all(r.get_zorder() > 2 for r in rays)             # above the paths that run along them


def drawn_titles(fig) -> list[str]:
    """Every title drawn into a figure: its suptitle and each axis' titles (left, centre, right)."""
    out = [fig._suptitle.get_text()] if fig._suptitle is not None else []
    return [t for t in out + [ax.get_title(loc) for ax in fig.axes for loc in ("left", "center", "right")] if t]


def test_compare_figure_at_column_width_has_short_panels_and_no_title(tmp_path, figures):
    """Issue 34 (6): the figures were 4.7-13 in tall at 3.25 in wide, with a title baked in.
    At column width every file is 3.25 in wide and at most 2.6 in tall (read back from the PNG
    at its dpi and from the PDF's MediaBox), one panel each, no title."""
    from PIL import Image
    rows = [Row(f"loss of run {i}", "Thm. 1", bound=2.0 + i, measured=1.0 + i) for i in range(14)]
    out = plots.bound_vs_measured(Table("demo", "many losses", {}, 0, rows), tmp_path / "many", figsize="column")
    assert out == plots.bound_vs_measured_targets(Table("demo", "many losses", {}, 0, rows), tmp_path / "many",
                                                  "column")
    pngs = [p for p in out if p.suffix == ".png"]
    assert len(pngs) >= 4                         # 14 rows do not fit one 2.6 in panel
    for png in pngs:
        with Image.open(png) as im:
            dpi = im.info["dpi"][0]
            assert im.size[0] / dpi == pytest.approx(3.25, abs=0.01)
            assert im.size[1] / dpi <= 2.6
    for pdf in (p for p in out if p.suffix == ".pdf"):
        m = re.search(rb"/MediaBox \[ *0 0 ([\d.]+) ([\d.]+) *\]", pdf.read_bytes())
        assert float(m.group(1)) == pytest.approx(3.25 * 72, abs=0.01) and float(m.group(2)) <= 2.6 * 72
    assert all(len(fig.axes) == 1 and not drawn_titles(fig) for fig in figures)
    assert {fig.axes[0].get_ylabel() for fig in figures} == {"losses"}
    # every row is in one panel, once
    labels = [t for fig in figures[::2] for t in texts(fig) if t.startswith("loss of run")]
    assert sorted(labels) == sorted(r.quantity for r in rows)


@pytest.mark.parametrize("paper", ["deora2023", "arda2026", "anon2025", "tarzanagh2023"])
def test_formula_quantities_of_each_paper_at_column_width(tmp_path, paper, figures):
    """Rows labelled with the quantities of each paper's formulas (their LaTeX, as the formula
    files give it; made-up positive values: the engine is not run) at column width: every file
    3.25 in x at most 2.6 in, no title, every label parses as mathtext."""
    from PIL import Image

    from boundcalc.expr.latex_tokens import quantity_latex
    from boundcalc.registry import get_registry
    specs = get_registry().paper(paper).formulas
    rows = [Row(fid, "s", bound=2.0, measured=1.0, latex=q)
            for fid, spec in specs.items() if (q := quantity_latex(spec.latex))][:12]
    assert rows
    out = plots.bound_vs_measured(Table(paper, "t", {}, 0, rows), tmp_path / paper, figsize="column")
    for png in (p for p in out if p.suffix == ".png"):
        with Image.open(png) as im:
            assert im.size[0] == round(3.25 * plots.DPI) and im.size[1] <= 2.6 * plots.DPI
    for fig in figures:
        assert not drawn_titles(fig)
        assert all(plots.mathtext_ok(t) for t in texts(fig))


def test_labels_read_as_the_paper_prints_them():
    """Issue 34 (6): "m = 8:sup" (the prefix glued to an operator whose subscript sat under it)
    and "(0, \u2212 1)" (a sign spaced as a binary minus)."""
    from boundcalc.reports.latex import mathtext_label
    arda = Row("q", "s", bound=2.0, measured=1.0, latex=r"m=8\colon \sup_j \epsilon_{\mathrm{lin}} \text{ on } \partial\Omega_\rho")
    lab = plots.to_mathtext(mathtext_label(arda))
    assert lab == r"$m = 8$: $\operatorname{sup}_j \epsilon_{\mathrm{lin}} \text{ on } \partial\Omega_\rho$"
    assert plots.mathtext_ok(lab)
    assert plots.to_mathtext(r"$p(0) = (0, -1)$") == r"$p(0) = (0, {-}1)$"
    assert plots.to_mathtext(r"$a - b$") == r"$a - b$"              # a difference keeps its spacing
    assert plots.to_mathtext(r"$\max_i \|U_i\|$") == r"$\operatorname{max}_i \|U_i\|$"
    assert plots.to_mathtext(r"$\maxi$") == r"$\maxi$"
    # in the text between: a sign is a true minus, a hyphen stays, nothing else is touched
    assert plots.to_mathtext("p(0) = (0, -1), first-phase, $x$") == "p(0) = (0, \u22121), first-phase, $x$"
    assert plots.to_mathtext("a $ b") == "a $ b"
