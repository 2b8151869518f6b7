"""The reproductions of the paper, by name.
"""
from __future__ import annotations

from .. import Reproduction
from .dm1 import DM1_DESCRIPTION, plot_dm1, rows_dm1, run_dm1
from .render import render_dm1
from .settings import SETTINGS

REPRODUCTIONS = {"deora2023-dm1": Reproduction(
    name="deora2023-dm1",
    description=DM1_DESCRIPTION,
    run=run_dm1, render=render_dm1, plot=plot_dm1, rows=rows_dm1, settings=("ns", "seeds", "k_equals_n", *(k for k in SETTINGS if k != "n")))}
