"""Rich renderings of command results (people-facing; JSON is the stable interface): thin
calls to :mod:`boundcalc.reports.printers.rich`, printing on the CLI's console."""
from __future__ import annotations

from .output import console, table


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


def print_coverage(paper: str, rows: list[dict]) -> None:
    """Every numbered result of a paper with the checks covering it (none: unaudited)."""
    from ..reports.printers.rich import print_coverage as _print
    _print(paper, rows, console())


def print_steps(paper: str, sc: dict) -> None:
    """A paper's displayed proof steps with their place and the checks covering each."""
    from ..reports.escape import terminal as _x
    c = console()
    if not sc["displayed"]:
        c.print(f"{_x(paper)} lists no displayed proof steps ({_x('[[steps]]')} in its formula file)")
        return
    t = table(f"steps of {paper}: {sum(r['status'] != 'unchecked' for r in sc['steps'])}/{sc['displayed']} "
              f"displayed proof steps have a check", ["step", "result", "place", "checks"])
    for r in sc["steps"]:
        t.add_row(_x(r["id"]), _x(r["result"]), _x(r["place"]),
                  _x(", ".join(ch["id"] for ch in r["checks"])) if r["checks"] else "[red]unchecked[/red]")
    c.print(t)
