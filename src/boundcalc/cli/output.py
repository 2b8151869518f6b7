"""Printing helpers: JSON for scripts, rich for people."""
from __future__ import annotations

import json
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
    from rich.console import Console
    return Console(highlight=False, soft_wrap=True)


def table(title: str, columns: list[str]):
    from rich.table import Table
    t = Table(title=title, title_justify="left", show_lines=False)
    for c in columns:
        t.add_column(c, overflow="fold")
    return t
