"""The reproductions of the paper, by name.
"""
from __future__ import annotations

from boundcalc.experiments import Reproduction

from .render import render_table1
from .table1 import TABLE1_DESCRIPTION, plot_table1, rows_table1, run_table1

REPRODUCTIONS: dict[str, Reproduction] = {
    "anon2025-table1": Reproduction(
        "anon2025-table1",
        TABLE1_DESCRIPTION,
        run_table1, render_table1, settings=("data", "dms", "Ns", "epochs", "n_test", "seeds", "dtype"),
        plot=plot_table1, rows=rows_table1),
}
