"""CSV: a comparison table as its tidy frame (floats that round-trip, the exact values in
the ``*_exact`` columns); a check report as one row per check. Every text cell goes through
:func:`boundcalc.reports.escape.csv_cell` (no cell a spreadsheet runs as a formula)."""
from __future__ import annotations

from ..escape import csv_frame
from .base import Printer


class CsvPrinter(Printer):
    format = "csv"

    def _print_Table(self, t) -> str:
        return csv_frame(t.to_frame()).to_csv(index=False, lineterminator="\n")

    def _print_Report(self, report) -> str:
        return csv_frame(report.to_frame()).to_csv(index=False, lineterminator="\n")


def to_csv(obj, **settings) -> str:
    """``obj`` as CSV text."""
    return CsvPrinter(**settings).doprint(obj)
