"""Your own measurements beside your own bounds: a CSV of runs -> a comparison
:class:`~boundcalc.reports.table.Table` (``boundcalc compare PAPER --measured runs.csv``,
:func:`boundcalc.api.compare_measured`).

The CSV format (a header row, then one row per run; comma-separated, UTF-8):

* a column named after a **symbol** of the paper is an input of that run (an exact
  decimal such as ``1000``, ``0.05``, ``1e-3`` or ``1/3``);
* a column named after a **formula** of the paper (a ``bound``, or a ``definition``) is
  the measured value of that quantity in that run; each (run, formula) cell gives one row
  of the table: the formula evaluated at the run's inputs (certified), the measured value,
  their ratio and whether the bound holds (an upper bound holds iff bound >= measured, a
  lower bound iff bound <= measured, a definition is only shown beside it);
* an optional column ``run`` labels the runs (default ``row 1``, ``row 2`` ...);
* an empty measured cell leaves that (run, formula) out; an empty input cell takes the
  ``--setting``'s value or the symbol's default.

Inputs a run does not give come from ``setting`` (its values, derived quantities inlined
exactly, as ``eval --setting``) and then from the symbols' defaults; a hidden constant at
its default is said in the row's ``constant`` column. Any other column, a duplicate
column, a cell that is not a number, a run missing an input a formula needs, or a file
without a measured column is refused in one line naming the file, the row and the column.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import BoundcalcError

__all__ = ["LABEL", "measured_table"]

LABEL = "run"          # the optional column that names each run


def _read(path: Path) -> tuple[list[str], list[list[str]]]:
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


def measured_table(paper: str, csv_path, *, formula, setting: str | None = None, formulas_path=None):
    """The :class:`~boundcalc.reports.table.Table` of ``paper``'s formulas beside the values
    measured in the runs of the CSV file ``csv_path`` (format: the module docstring),
    inputs missing from a run taken from ``setting`` and the symbols' defaults. ``formula``
    turns an id into a formula that evaluates (:func:`boundcalc.api.formula`, passed in by
    :func:`boundcalc.api.compare_measured`: reports/ does not import the API layer). Bad
    input raises :class:`~boundcalc.errors.BoundcalcError` in one line naming the culprit."""
    from ..expr.parser import parse_number
    from ..registry import get_registry
    from ..suggest import did_you_mean
    from .numfmt import float_or_mpf
    from .table import Row, Table
    path = Path(csv_path)
    reg = get_registry(formulas_path)
    p = reg.paper(paper)
    st = reg.setting(paper, setting) if setting is not None else None
    head, body = _read(path)
    seen: set[str] = set()
    inputs, measured = [], []
    for i, c in enumerate(head):
        where = f"{path.name}: column {i + 1} {c!r}"
        if not c:
            raise BoundcalcError(f"{path.name}: column {i + 1} has no name")
        if c in seen:
            raise BoundcalcError(f"{where} appears twice")
        seen.add(c)
        if c == LABEL:
            continue
        if c in p.symbols:
            inputs.append((i, c))
        elif c in p.formulas and p.formulas[c].kind in ("bound", "definition"):
            measured.append((i, c))
        elif c in p.formulas:
            raise BoundcalcError(f"{where} is a {p.formulas[c].kind}; a measured column names a bound or a "
                                 "definition")
        else:
            raise BoundcalcError(f"{where} is neither a symbol nor a formula of {paper}"
                                 f"{did_you_mean(c, [*p.symbols, *p.formulas, LABEL])}; columns are symbols "
                                 f"(inputs), formulas (measured values) and '{LABEL}'")
    if not measured:
        raise BoundcalcError(f"{path.name}: no measured column; name a column after a bound of {paper} "
                             f"({', '.join(n for n, s in p.formulas.items() if s.kind == 'bound')})")
    if not body:
        raise BoundcalcError(f"{path.name}: no runs below the header line")
    label_at = head.index(LABEL) if LABEL in head else None
    rows: list[Row] = []
    for r, cells in enumerate(body, start=2):
        if len(cells) != len(head):
            raise BoundcalcError(f"{path.name}: line {r} has {len(cells)} cells, the header {len(head)}")
        run = cells[label_at].strip() if label_at is not None and cells[label_at].strip() else f"row {r - 1}"
        values = {}
        for i, name in inputs:
            if cells[i].strip():
                parse_number(cells[i], where=f"{path.name}: line {r}, column {name!r}")
                values[name] = cells[i].strip()
        for i, name in measured:
            if not cells[i].strip():
                continue
            m = parse_number(cells[i], where=f"{path.name}: line {r}, column {name!r}")
            f = formula(f"{paper}.{name}", formulas_path=formulas_path)
            vals = {k: v for k, v in values.items() if k in f.symbol_table}
            if st is not None:
                f, vals = f.at_setting(st.name, vals)
            missing = [s for s in f.symbol_table if s not in vals and f.symbol_table[s].default is None]
            if missing:
                raise BoundcalcError(f"{path.name}: line {r} ({run}): {name} needs {', '.join(missing)}; "
                                     f"add a column {missing[0]!r} (or give --setting)")
            try:
                v = f.evaluate(vals, digits=15)
            except BoundcalcError as e:
                raise BoundcalcError(f"{path.name}: line {r} ({run}), {name}: {e}") from None
            spec = p.formulas[name]
            kind = {"upper": "upper", "lower": "lower"}.get(getattr(spec, "direction", None) or "", "info")
            consts = [f"{k} = {x}" for k, x in v.defaults_used.items()
                      if k in p.symbols and p.symbols[k].is_constant]
            rows.append(Row(f"{name} ({run})", spec.source, v, float_or_mpf(m), kind=kind, formula=f"{paper}.{name}",
                            constant=("with " + ", ".join(consts) + " (default)") if consts
                            else v.qualifier,
                            note=", ".join(f"{k} = {x}" for k, x in vals.items())))
    settings = {"measured": path.name}
    if st is not None:
        settings["setting"] = st.name
    return Table(paper, f"{p.title}: bounds beside the measurements of {path.name}", settings, 0, rows,
                 notes=[f"measured values from {path.name}; bounds certified at each run's inputs"])
