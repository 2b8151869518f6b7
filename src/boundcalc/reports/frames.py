"""pandas DataFrames of boundcalc's results, for notebooks and scripts.

pandas is imported inside each function (the numeric commands never pay for it).

* :func:`formulas_frame` -- ``boundcalc.formulas(...).to_frame()``;
* :func:`papers_frame` -- ``boundcalc.papers().to_frame()``;
* :func:`symbols_frame` -- ``boundcalc.symbols(...).to_frame()``;

Tidy: one row per item, one value per cell; a list (a formula's symbols, a paper's
results) stays a Python list in its cell, never a comma-joined string.
* :func:`report_frame` -- the check report as a frame (``Report.to_frame()``; its HTML is
  :mod:`boundcalc.reports.printers.html`).

What :func:`boundcalc.runs.sweep.run` returns, :class:`boundcalc.runs.sweep.SweepResults`,
has its own ``to_frame`` (one row per configuration, config and result side by side).

A comparison :class:`~.table.Table` has its own ``to_frame`` (numeric columns with the
exact values beside them).
"""
from __future__ import annotations

FORMULA_COLUMNS = ("id", "paper", "name", "kind", "source", "status", "expression", "latex",
                   "symbols", "constants", "note")
PAPER_COLUMNS = ("key", "title", "authors", "year", "venue", "arxiv", "doi", "url", "cite_key",
                 "formulas", "symbols", "settings", "checks", "results", "setting_names")
SYMBOL_COLUMNS = ("paper", "name", "description", "domain", "default", "default_exact", "role", "latex")
FINDING_COLUMNS = ("paper", "check", "kind", "severity", "location", "message")


def formulas_frame(formulas):
    """One row per formula: id, paper, name, kind, source, status, the expression as
    written in the formula file, the LaTeX as printed in the paper, its symbols and the
    absolute constants it depends on (each a list of names, sorted), and the note."""
    import pandas as pd
    rows = [{"id": f.id, "paper": f.paper, "name": f.name, "kind": f.kind, "source": f.source,
             "status": f.status, "expression": f.spec.text, "latex": f.latex_printed,
             "symbols": list(f.symbols), "constants": sorted(f.constants), "note": f.note}
            for f in formulas]
    return pd.DataFrame(rows, columns=list(FORMULA_COLUMNS))


def papers_frame(papers):
    """One row per paper: its reference fields, how much of it is encoded (counts of
    formulas, symbols, settings, checks as int64), its numbered ``results`` and the names
    of its settings (``setting_names``), each a list."""
    import pandas as pd
    rows = []
    for p in papers:
        refs = p.refs
        rows.append({"key": p.key, "title": p.title, "authors": p.authors, "year": refs.get("year"),
                     "venue": refs.get("venue"), "arxiv": refs.get("arxiv"), "doi": refs.get("doi"),
                     "url": refs.get("url"), "cite_key": refs.get("cite_key"),
                     "formulas": len(p.formulas), "symbols": len(p.symbols),
                     "settings": len(p.settings), "checks": len(p.checks),
                     "results": list(p.results), "setting_names": list(p.settings)})
    df = pd.DataFrame(rows, columns=list(PAPER_COLUMNS))
    for c in ("formulas", "symbols", "settings", "checks"):
        df[c] = df[c].astype("int64")
    return df


def symbols_frame(symbols):
    """One row per symbol (:class:`~boundcalc.registry.model.Symbol`): the paper that
    declares it, its name, description, domain (as written, e.g. ``integer >= 1``),
    default (float64, NaN when none) and ``default_exact`` (the exact value as a string,
    ``1/3``; None when none), role (input / constant / measured) and LaTeX."""
    import pandas as pd
    rows = [{"paper": s.paper, "name": s.name, "description": s.description, "domain": str(s.domain),
             "default": float("nan") if s.default is None else float(s.default),
             "default_exact": None if s.default is None else str(s.default),
             "role": s.role, "latex": s.latex} for s in symbols]
    df = pd.DataFrame(rows, columns=list(SYMBOL_COLUMNS))
    df["default"] = df["default"].astype("float64")
    return df


def report_frame(report, *, passed: bool = True):
    """One row per check run (``passed=False``: only the findings): paper, check, kind,
    severity (error / warning / note / ok), location in the paper, message; any other
    plain field a finding carries (e.g. ``reading``) is kept as a column."""
    import pandas as pd
    results = report.results if passed else report.findings
    rows = []
    for r in results:
        d = {c: getattr(r, c, None) for c in FINDING_COLUMNS}
        for k, v in vars(r).items():
            if k not in d and isinstance(v, (str, int, float, bool, type(None))):
                d[k] = v
        rows.append(d)
    df = pd.DataFrame(rows)
    if df.empty:
        df = pd.DataFrame(columns=list(FINDING_COLUMNS))
    from ..verdicts import GRADES
    df["severity"] = pd.Categorical(df["severity"], categories=list(GRADES), ordered=True)
    df.attrs.update(papers=list(report.papers), seconds=report.seconds)
    return df
