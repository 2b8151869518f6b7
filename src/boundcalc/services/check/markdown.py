"""Moved: the check report as Markdown is :mod:`boundcalc.reports.printers.markdown`, its
evidence helpers :mod:`boundcalc.reports.printers.evidence`. These names stay importable."""
from __future__ import annotations

from ...reports.printers.evidence import evidence_text  # noqa: F401
from ...reports.printers.markdown import to_markdown  # noqa: F401
