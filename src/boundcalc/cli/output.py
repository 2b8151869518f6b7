"""Printing helpers: JSON for scripts, rich for people."""
from __future__ import annotations

import json
import os
import sys
from fractions import Fraction


def _default(o):
    import mpmath
    if isinstance(o, Fraction):
        return str(o)
    if isinstance(o, mpmath.mpf):
        return mpmath.nstr(o, 20)
    return str(o)


def emit_json(data) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=_default) + "\n")


def console():
    """A rich console; when output is not a terminal (a pipe, a file), a wide fixed
    width so that tables are not folded for scripts and logs."""
    from rich.console import Console
    width = None if sys.stdout.isatty() else 200
    cols = os.environ.get("COLUMNS", "")
    if cols.isdigit() and 20 <= int(cols) <= 1000:    # an explicit width wins (COLUMNS=80 ...)
        width = int(cols)
    return Console(highlight=False, soft_wrap=True, width=width)


def table(title: str, columns: list[str]):
    from rich.table import Table
    t = Table(title=title, title_justify="left", show_lines=False)
    for i, c in enumerate(columns):
        t.add_column(c, overflow="fold", no_wrap=(i == 0))
    return t
