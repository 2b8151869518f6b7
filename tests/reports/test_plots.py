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
