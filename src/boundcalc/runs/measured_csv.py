"""Reading a CSV file of your own runs (``boundcalc compare PAPER --measured runs.csv``): the
file and the ``--map`` renamings, checked; :func:`boundcalc.reports.measured.measured_table`
turns what is read into a comparison table (the format: that module's docstring)."""
from __future__ import annotations

from pathlib import Path

from ..errors import BoundcalcError

__all__ = ["LABEL", "SEED", "parse_map", "read_csv"]

LABEL = "run"          # the optional column that names each run
SEED = "seed"          # the optional column that marks repeated runs of one setting


def parse_map(items) -> dict[str, str]:
    """``["col=name", ...]`` (the CLI's ``--map``) as a dict; one-line errors for a bad item."""
    out: dict[str, str] = {}
    for item in items or ():
        col, eq, name = str(item).partition("=")
        if not eq or not col.strip() or not name.strip():
            raise BoundcalcError(f"--map {item!r}: write COLUMN=NAME (a column of the CSV = a symbol or formula)")
        if col.strip() in out:
            raise BoundcalcError(f"--map: column {col.strip()!r} is mapped twice")
        out[col.strip()] = name.strip()
    return out


def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    """The header (stripped) and the non-empty rows of the CSV file ``path``; one-line
    errors for a file that is missing, unreadable or empty."""
    import csv
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise BoundcalcError(f"--measured {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as e:
        raise BoundcalcError(f"--measured {str(path)!r} cannot be read: {e}") from None
    rows = [r for r in csv.reader(text.splitlines()) if any(c.strip() for c in r)]
    if not rows:
        raise BoundcalcError(f"{path.name}: empty file; the first line names the columns")
    head = [c.strip() for c in rows[0]]
    return head, rows[1:]
