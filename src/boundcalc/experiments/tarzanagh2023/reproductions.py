"""The reproductions of the paper, by name.
"""
from __future__ import annotations

from boundcalc.experiments import Reproduction

from .fig1 import FIG1_DESCRIPTION, plot_fig1, run_fig1
from .fig3 import FIG3_DESCRIPTION, plot_fig3, run_fig3
from .fig9 import FIG9_DESCRIPTION, plot_fig9, run_fig9
from .render import render_fig1, render_fig3, render_fig9

REPRODUCTIONS: dict[str, Reproduction] = {
    "tarzanagh2023-fig9": Reproduction(
        "tarzanagh2023-fig9",
        FIG9_DESCRIPTION,
        run_fig9, render_fig9, settings=("trials", "steps", "dims", "dtype"), plot=plot_fig9),
    "tarzanagh2023-fig1": Reproduction(
        "tarzanagh2023-fig1",
        FIG1_DESCRIPTION,
        run_fig1, render_fig1, settings=("steps", "dtype"), plot=plot_fig1,
        sweeps=False),
    "tarzanagh2023-fig3": Reproduction(
        "tarzanagh2023-fig3",
        FIG3_DESCRIPTION,
        run_fig3, render_fig3, settings=("steps", "dtype"), plot=plot_fig3,
        sweeps=False),
}
