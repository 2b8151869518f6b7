"""The figures shipped in examples/ and docs/ are drawn in the plotting code's current style
(issue 34 (7)): every PNG or PDF there that our plotting code produced records the figure
style it was drawn in (``reports.plots.STYLE_VERSION``, in a PNG text chunk or the PDF's
Creator), and that is the code's. Raising STYLE_VERSION without redrawing them fails here:
``python -m boundcalc.experiments.record NAME --replot [--full] [--out DIR]`` redraws a
recording's figures from its JSON; the compare figures are redrawn by the commands their
pages show."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from boundcalc.reports import plots

ROOT = Path(__file__).resolve().parents[1]
# images that are not figures of the plotting code, each with what it is
NOT_PLOTS = {
    "examples/check/report.png": "a screenshot of the check report's web page (headless chromium)",
    "examples/latex/deora2023-table.png": "a page of the LaTeX table, compiled by pdflatex and rasterised",
}


def shipped() -> list[Path]:
    out = []
    for top in ("examples", "docs"):
        for p in sorted((ROOT / top).rglob("*")):
            rel = p.relative_to(ROOT).as_posix()
            if p.suffix.lower() in (".png", ".pdf") and "_build" not in p.parts and rel not in NOT_PLOTS:
                out.append(p)
    return out


def test_there_are_shipped_figures_and_the_exceptions_exist():
    assert len(shipped()) >= 30
    for rel in NOT_PLOTS:
        assert (ROOT / rel).is_file(), rel


@pytest.mark.parametrize("path", shipped(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_shipped_figure_is_in_the_current_style(path):
    style = plots.recorded_style(path)
    assert style is not None, (f"{path.relative_to(ROOT)} records no figure style: drawn before "
                               f"STYLE_VERSION, or not by reports.plots (then list it in NOT_PLOTS)")
    assert style == plots.STYLE_VERSION, (f"{path.relative_to(ROOT)} was drawn in figure style {style}, the code "
                                          f"draws style {plots.STYLE_VERSION}: redraw it")


def test_a_recording_lists_the_figures_it_ships():
    for js in sorted(ROOT.glob("examples/*/*/*.json")):
        data = json.loads(js.read_text(encoding="utf-8"))
        for name in data.get("plots", []):
            if name.endswith(".png"):
                assert (js.parent / name).is_file(), (js, name)


def test_recorded_style_reads_png_and_pdf_and_says_none_for_others(tmp_path):
    from matplotlib.figure import Figure
    fig = plots.figure(2.0)
    fig.add_subplot().plot([1, 2], [1, 2])
    png, pdf = plots.save(fig, tmp_path / "f")
    assert plots.recorded_style(png) == plots.recorded_style(pdf) == plots.STYLE_VERSION
    other = Figure()
    other.add_subplot()
    other.savefig(tmp_path / "o.png")
    other.savefig(tmp_path / "o.pdf")
    assert plots.recorded_style(tmp_path / "o.png") is None and plots.recorded_style(tmp_path / "o.pdf") is None


def test_dm1_bounds_figure_is_drawn_in_the_style_fonts(tmp_path, monkeypatch):
    """The shipped deora2023-dm1-bounds figure mixed DejaVu Sans (titles, ticks, its second
    legend) with STIX: it was built outside the style's settings. Every text of it is STIX now."""
    from matplotlib.figure import Figure

    from boundcalc.experiments.deora2023.dm1 import plot_dm1
    saved = []
    real = Figure.savefig
    monkeypatch.setattr(Figure, "savefig", lambda self, *a, **k: (saved.append(self), real(self, *a, **k))[1])
    data = json.loads((ROOT / "examples/deora2023-dm1-K-eq-n/reduced/deora2023-dm1.json").read_text())
    plot_dm1(data, tmp_path)
    assert saved
    import matplotlib as mpl
    with mpl.rc_context(plots.rc()):            # "serif" resolved as the style resolves it
        for fig in saved:
            fig.canvas.draw()
            fonts = {t.get_fontname() for t in fig.findobj(lambda a: hasattr(a, "get_fontname")) if t.get_text()}
            assert fonts == {"STIXGeneral"}, fonts
