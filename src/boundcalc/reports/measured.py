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
* an optional column ``seed`` marks repeated runs: lines with the same ``run`` label (or,
  without one, the same inputs) and different seeds are one run, and each measured value
  becomes the mean over its seeds with its two-sided 95% Student-t interval
  (:func:`boundcalc.runs.intervals.mean_interval`), printed in the row's note; whether
  the bound holds is decided at the mean, and a note says when the interval reaches past
  the bound. Lines of one run must give the same inputs, and a seed appears once per run;
* ``mapping`` (``--map column=name``, repeatable) renames a column to a symbol or formula
  of the paper (or to ``run``/``seed``) before it is read, so a file written by your own
  code need not be edited;
* an empty measured cell leaves that (run, formula) out; an empty input cell takes the
  ``--setting``'s value or the symbol's default.

Inputs a run does not give come from ``setting`` (its values, derived quantities inlined
exactly, as ``eval --setting``) and then from the symbols' defaults; a hidden constant at
its default is said in the row's ``constant`` column. Any other column, a duplicate
column, a cell that is not a number, a run missing an input a formula needs, or a file
without a measured column is refused in one line naming the file, the row and the column.
"""
from __future__ import annotations

import math
from pathlib import Path

from ..errors import BoundcalcError
from ..runs.measured_csv import LABEL, SEED, read_csv

__all__ = ["measured_table"]

def measured_table(paper: str, csv_path, *, formula, setting: str | None = None, formulas_path=None,
                   mapping: dict[str, str] | None = None):
    """The :class:`~boundcalc.reports.table.Table` of ``paper``'s formulas beside the values
    measured in the runs of the CSV file ``csv_path`` (format: the module docstring),
    inputs missing from a run taken from ``setting`` and the symbols' defaults. ``formula``
    turns an id into a formula that evaluates (:func:`boundcalc.api.formula`, passed in by
    :func:`boundcalc.api.compare_measured`: reports/ does not import the API layer). Bad
    input raises :class:`~boundcalc.errors.BoundcalcError` in one line naming the culprit."""
    from ..registry import get_registry
    from .table import Table
    path = Path(csv_path)
    reg = get_registry(formulas_path)
    p = reg.paper(paper)
    st = reg.setting(paper, setting) if setting is not None else None
    head, body = read_csv(path)
    mapping = dict(mapping or {})
    unknown = [c for c in mapping if c not in head]
    if unknown:
        raise BoundcalcError(f"--map {unknown[0]}=...: {path.name} has no column {unknown[0]!r} "
                             f"(its columns: {', '.join(head)})")
    head = [mapping.get(c, c) for c in head]
    inputs, measured = _columns(head, p, paper, path)
    if not body:
        raise BoundcalcError(f"{path.name}: no runs below the header line")
    seed_at = head.index(SEED) if SEED in head else None
    runs = _group_runs(path, head, body, inputs, measured)
    rows: list = []
    for run in runs.values():
        rows += _run_rows(run, measured, paper, p, st, formula, formulas_path, path, seed_at is not None)
    settings = {"measured": path.name}
    if mapping:
        settings["map"] = ", ".join(f"{c}={n}" for c, n in mapping.items())
    if st is not None:
        settings["setting"] = st.name
    return Table(paper, f"{p.title}: bounds beside the measurements of {path.name}", settings, None, rows,
                 notes=[f"measured values from {path.name}; bounds certified at each run's inputs"],
                 input_symbols={name: (p.symbols[name].latex or "", p.symbols[name].description or "")
                                for _, name in inputs})


def _columns(head: list[str], p, paper: str, path: Path):
    """The columns of the (renamed) header ``head``: the inputs and the measured ones, each
    a list of (index, name); a column without a name, a repeated one, one that is neither a
    symbol nor a bound or definition of ``p``, or a header without a measured column is
    refused."""
    from ..suggest import did_you_mean
    seen: set[str] = set()
    inputs, measured = [], []
    for i, c in enumerate(head):
        where = f"{path.name}: column {i + 1} {c!r}"
        if not c:
            raise BoundcalcError(f"{path.name}: column {i + 1} has no name")
        if c in seen:
            raise BoundcalcError(f"{where} appears twice")
        seen.add(c)
        if c in (LABEL, SEED):
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
                                 f"{did_you_mean(c, [*p.symbols, *p.formulas, LABEL, SEED])}; columns are symbols "
                                 f"(inputs), formulas (measured values), '{LABEL}' and '{SEED}' "
                                 "(--map COLUMN=NAME renames a column)")
    if not measured:
        raise BoundcalcError(f"{path.name}: no measured column; name a column after a bound of {paper} "
                             f"({', '.join(n for n, s in p.formulas.items() if s.kind == 'bound')})")
    return inputs, measured


def _group_runs(path: Path, head: list[str], body, inputs, measured) -> dict[object, dict]:
    """The lines of ``body``, grouped into runs: a run is one label (or, without labels, one
    set of inputs), a dict with its label, inputs, first line, seeds (seed -> line) and
    measured values (formula -> list, one per seed). Lines of one run with other inputs,
    a bad or repeated seed, a repeated run without seeds, or a measured cell that is not a
    finite double are refused."""
    label_at = head.index(LABEL) if LABEL in head else None
    seed_at = head.index(SEED) if SEED in head else None
    runs: dict[object, dict] = {}
    for r, cells in enumerate(body, start=2):
        if len(cells) != len(head):
            raise BoundcalcError(f"{path.name}: line {r} has {len(cells)} cells, the header {len(head)}")
        values = _line_inputs(path, r, cells, inputs)
        label = cells[label_at].strip() if label_at is not None and cells[label_at].strip() else None
        key = label if label is not None else (tuple(sorted(values.items())) if seed_at is not None else r)
        run = runs.setdefault(key, {"label": label or f"row {r - 1}", "values": values, "line": r,
                                    "seeds": {}, "measured": {}})
        if run["values"] != values:
            raise BoundcalcError(f"{path.name}: line {r} ({run['label']}) gives other inputs than line "
                                 f"{run['line']} of the same run; give each setting its own '{LABEL}'")
        if seed_at is not None:
            _add_seed(path, r, cells[seed_at], run)
        elif key in runs and run["line"] != r:
            raise BoundcalcError(f"{path.name}: line {r} repeats run {run['label']} (line {run['line']}); "
                                 f"add a '{SEED}' column for repeated runs")
        _add_measured(path, r, cells, measured, run)
    return runs


def _line_inputs(path: Path, r: int, cells, inputs) -> dict[str, str]:
    """The non-empty input cells of line ``r`` (symbol -> its text), each checked to be a
    number."""
    from ..expr.parser import parse_number
    values = {}
    for i, name in inputs:
        if cells[i].strip():
            parse_number(cells[i], where=f"{path.name}: line {r}, column {name!r}")
            values[name] = cells[i].strip()
    return values


def _add_seed(path: Path, r: int, cell: str, run: dict) -> None:
    """Record the seed ``cell`` of line ``r`` in ``run``; an empty, non-integer or
    repeated seed is refused."""
    sd = cell.strip()
    if not sd:
        raise BoundcalcError(f"{path.name}: line {r}, column '{SEED}' is empty")
    if not sd.isascii() or not sd.isdigit():
        raise BoundcalcError(f"{path.name}: line {r}, column '{SEED}': {sd!r} is not a seed "
                             "(a non-negative integer)")
    sd = str(int(sd))                      # 007 and 7 are one seed
    if sd in run["seeds"]:
        raise BoundcalcError(f"{path.name}: line {r} repeats seed {sd} of run {run['label']} "
                             f"(line {run['seeds'][sd]})")
    run["seeds"][sd] = r


def _add_measured(path: Path, r: int, cells, measured, run: dict) -> None:
    """Append the non-empty measured cells of line ``r`` to ``run``'s measured values; a
    cell that is not a finite double-precision number is refused."""
    from ..expr.parser import parse_number
    from .numfmt import float_or_mpf
    for i, name in measured:
        if cells[i].strip():
            m = float_or_mpf(parse_number(cells[i], where=f"{path.name}: line {r}, column {name!r}"))
            if not isinstance(m, (int, float)) or (isinstance(m, float) and not math.isfinite(m)):
                raise BoundcalcError(f"{path.name}: line {r}, column {name!r}: {cells[i].strip()!r} is not "
                                     "a finite double-precision number, which a measured value is")
            run["measured"].setdefault(name, []).append(m)


def _run_rows(run: dict, measured, paper: str, p, st, formula, formulas_path, path: Path, seeded: bool):
    """The table rows of one run: each measured formula evaluated (certified) at the run's
    inputs (``st``'s values and the defaults filling in), beside the measured value (with
    seeds, their mean and its 95% interval in the note); a run missing an input a formula
    needs is refused."""
    from ..expr.latex_tokens import quantity_latex
    from ..runs.intervals import describe, mean_interval, short_method
    from .escape import latex_escape
    from .table import Row
    rows: list[Row] = []
    r, values, label = run["line"], run["values"], run["label"]
    for _, name in measured:
        ms = run["measured"].get(name)
        if not ms:
            continue
        f = formula(f"{paper}.{name}", formulas_path=formulas_path)
        vals = {k: v for k, v in values.items() if k in f.symbol_table}
        if st is not None:
            f, vals = f.at_setting(st.name, vals)
        missing = [s for s in f.symbol_table if s not in vals and f.symbol_table[s].default is None]
        if missing:
            raise BoundcalcError(f"{path.name}: line {r} ({label}): {name} needs {', '.join(missing)}; "
                                 f"add a column {missing[0]!r} (or give --setting)")
        try:
            v = f.evaluate(vals, digits=15)
        except BoundcalcError as e:
            raise BoundcalcError(f"{path.name}: line {r} ({label}), {name}: {e}") from None
        spec = p.formulas[name]
        kind = {"upper": "upper", "lower": "lower"}.get(getattr(spec, "direction", None) or "", "info")
        consts = [f"{k} = {x}" for k, x in v.defaults_used.items()
                  if k in p.symbols and p.symbols[k].is_constant]
        note = ", ".join(f"{k} = {x}" for k, x in vals.items())
        measured_value = ms[0]
        spread: dict = {}
        if seeded:
            iv = mean_interval([float(x) for x in ms])
            measured_value = iv["mean"]
            spread = {"measured_low": iv["low"], "measured_high": iv["high"], "seeds": iv["n"],
                      "interval": short_method(iv) if iv["low"] is None else
                      f"{iv['confidence']:.0%} two-sided Student-t, {iv['n'] - 1} degree"
                      f"{'s' if iv['n'] > 2 else ''} of freedom"}
            note = (note + "; " if note else "") + "mean " + describe(iv)
            b = float(v.mpf)
            if iv["low"] is not None and iv["low"] <= b <= iv["high"]:
                note += "; the interval reaches past the bound"
        q = quantity_latex(spec.latex)
        rows.append(Row(f"{name} ({label})", spec.source, v, measured_value, kind=kind,
                        formula=f"{paper}.{name}",
                        constant=("with " + ", ".join(consts) + " (default)") if consts
                        else v.qualifier,
                        note=note, latex=f"${q}$ ({latex_escape(label)})" if q else "",
                        inputs=dict(values), **spread))
    return rows
