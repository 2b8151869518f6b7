"""reports.plots: valid PNG and PDF files."""
from __future__ import annotations

import mpmath
import numpy as np
import pytest

from boundcalc.errors import BoundcalcError
from boundcalc.reports import plots
from boundcalc.reports.fit import loglog_slope
from boundcalc.reports.table import Row, Table

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
    out = plots.scaling({"measured": dict(x=x, y=np.mean(ys, axis=0), yerr=np.std(ys, axis=0), fit=fit),
                         "bound": dict(x=x, y=[2 * v ** -0.5 for v in x])},
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
        plots.scaling({"a": dict(x=[1, 2], y=[1, 2])}, tmp_path / "a.svg", title="", xlabel="", ylabel="")


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
    plots.scaling({"a": dict(x=[1, 2, 4], y=[1, 0.7, 0.5])}, tmp_path / "scale-a", title="t",
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
