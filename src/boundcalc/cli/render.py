"""Rich renderings of command results (people-facing; JSON is the stable interface): thin
calls to :mod:`boundcalc.reports.printers.rich`, printing on the CLI's console."""
from __future__ import annotations

from .output import console


def print_require(data: dict, explain: bool = False) -> None:
    """The answer first: one headline (value, binding condition, status, qualifier), then a
    compact requirements table that fits 80 columns; ``explain`` adds every input, derived
    value, certificate and the monotonicity evidence."""
    from ..reports.printers.rich import print_rich
    print_rich(data, console=console(), explain=explain)


def print_check(report) -> None:
    """Counts per grade and per paper, then each finding: grade, check, location, message,
    its evidence (typeset as readable text) and the command that re-runs it; then the
    coverage of each paper."""
    from ..reports.printers.rich import print_rich
    print_rich(report, console=console())
