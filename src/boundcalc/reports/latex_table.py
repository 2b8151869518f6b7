"""Moved: the LaTeX table is :mod:`boundcalc.reports.printers.latex` (the LaTeX printer);
its number cells are in :mod:`boundcalc.reports.numfmt`. These names stay importable here."""
from __future__ import annotations

from .numfmt import s_cell, table_format  # noqa: F401
from .printers.latex import ENVS, NOTES, table_latex  # noqa: F401
