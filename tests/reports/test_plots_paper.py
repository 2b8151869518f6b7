"""Figures ready for a paper (reports/plots.py): the width a paper uses, vector PDF beside
the PNG, a colour-blind-safe palette, one panel per kind of quantity each with its own
axis, a legend for every encoding, mathtext labels instead of ASCII stand-ins."""
from __future__ import annotations

import re

import numpy as np
import pytest

from boundcalc.errors import BoundcalcError
from boundcalc.reports import plots
from boundcalc.reports.table import Row, Table

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
    png, pdf = plots.bound_vs_measured(table(), tmp_path / f"bars-{size}", figsize=size)
    assert imread(png).shape[1] == round(inches * plots.DPI)
    assert pdf_width_pt(pdf) == pytest.approx(inches * 72, abs=0.01)
    data = pdf.read_bytes()
    assert b"/Subtype /Image" not in data            # vector: no raster inside the PDF
    assert b"STIX" in data                            # the paper-like font, embedded
    with pytest.raises(BoundcalcError, match="--figsize must be one of column, page"):
        plots.bound_vs_measured(table(), tmp_path / "x", figsize="a4")


def test_one_panel_per_kind_with_its_own_axis(tmp_path, figures):
    plots.bound_vs_measured(table(), tmp_path / "bars")
    fig = figures[0]
    assert [ax.get_ylabel() for ax in fig.axes] == ["losses", "norms and margins", "head counts", "step sizes",
                                                    "other quantities"]
    # each panel's axis spans its own values (log10), not one axis for all
    lims = [ax.get_xlim() for ax in fig.axes]
    heads, steps = lims[2], lims[3]
    assert heads[0] < np.log10(32) and heads[1] > np.log10(3.26e7)
    assert steps[0] < np.log10(9.64e-7) and steps[1] < np.log10(3.26e7)
    assert len(set(lims)) == len(lims)


def test_legend_says_every_encoding_and_head_counts_are_integers(tmp_path, figures):
    plots.bound_vs_measured(table(), tmp_path / "bars")
    fig = figures[0]
    legend = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
    assert "bound (holds)" in legend and "bound (violated)" in legend and "measured" in legend
    # the colour a legend entry says is the colour the bound markers are drawn in
    handles = {t.get_text(): h for leg in fig.legends for t, h in zip(leg.get_texts(), leg.legend_handles)}
    assert handles["bound (holds)"].get_color() == plots.HOLDS_COLOURS[True]
    assert handles["bound (violated)"].get_color() == plots.HOLDS_COLOURS[False]
    drawn = texts(fig)
    assert "32" in drawn and "32.0" not in drawn
    assert r"$3.26{\times}10^{7}$" in drawn
    assert not any(re.fullmatch(r"[-\u2212]0(\.0+)?", t) for t in drawn)        # no -0.0


def test_labels_are_mathtext_not_ascii(tmp_path, figures):
    plots.bound_vs_measured(table(), tmp_path / "bars")
    drawn = texts(figures[0])
    assert r"B_{2} = \max_{h}" in " ".join(drawn) or r"$B_{2}$" in " ".join(drawn)
    for t in drawn:
        plain = re.sub(r"(?<!\\)\$.*?(?<!\\)\$", "", t)        # the text outside the math
        assert not re.search(r"\^\(|_\{|\|\||\bsqrt\b|theta|gamma_|p\^mm", plain), t
        assert plots.mathtext_ok(t), t
    # the row that cannot be plotted (negative bound) is named, typeset, under the figure
    assert any(r"\gamma" in t and "not plotted" in t for t in drawn)


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
