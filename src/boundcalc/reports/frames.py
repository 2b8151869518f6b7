"""pandas DataFrames of boundcalc's results, for notebooks and scripts.

pandas is imported inside each function (the numeric commands never pay for it).

* :func:`formulas_frame` -- ``boundcalc.formulas(...).to_frame()``;
* :func:`papers_frame` -- ``boundcalc.papers().to_frame()``;
* :func:`symbols_frame` -- ``boundcalc.symbols(...).to_frame()``;

Tidy: one row per item, one value per cell; a list (a formula's symbols, a paper's
results) stays a Python list in its cell, never a comma-joined string.
* :func:`report_frame` -- the check report as a frame (``Report.to_frame()``; its HTML is
  :mod:`boundcalc.reports.printers.html`).
* :func:`frame_latex` -- any of these frames as a LaTeX table that compiles
  (``boundcalc.to_latex(df)``; pandas' ``df.to_latex()`` gives pdflatex errors on their
  Unicode and underscores, and lines wider than the page).

What :func:`boundcalc.runs.sweep.run` returns, :class:`boundcalc.runs.sweep.SweepResults`,
has its own ``to_frame`` (one row per configuration, config and result side by side).

A comparison :class:`~.table.Table` has its own ``to_frame`` (numeric columns with the
exact values beside them).
"""
from __future__ import annotations

import math
import re

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


# ---------------------------------------------------------------------------- LaTeX
FRAME_REQUIRES = ("% requires \\usepackage[T1]{fontenc}, amsmath, amssymb (not with acmart: it has these symbols), "
                  "booktabs, siunitx, xltabular; a longtable (it breaks across pages): two pdflatex passes, the "
                  "first settles its column widths")
# columns of boundcalc's frames that are words with math in the ASCII convention (the one reading
# typesets them, as in the sheets and the tables); every other text column is printed as written
WIDE_CHARS = 75     # characters of footnotesize text a line of a one-column page holds (about)
SHORT = 14          # characters: a text column whose values are all this short is not wrapped
MATH_COLUMNS = ("description", "note", "message", "location", "title", "quantity", "hypotheses",
                "constant", "domain")


def frame_latex(df, *, caption: str | None = None, label: str | None = None, index: bool = False,
                digits: int = 3, math_columns=MATH_COLUMNS, layout: str = "auto") -> str:
    """A DataFrame as a LaTeX table that compiles with pdflatex (``boundcalc.to_latex(df)``; what
    pandas' own ``df.to_latex()`` does not: its Unicode, underscores and long texts are errors and
    overfull lines). An ``xltabular`` of the line's width that breaks across pages:

    * a numeric column (int, float, nullable ``Int64``/``Float64``) is a siunitx ``S`` column,
      decimal-aligned, its ``table-format`` from the data, each number in the one number style
      (:func:`.numfmt.num_text`, ``digits`` significant digits; ``--`` when missing);
    * a boolean column prints yes/no (``--`` when missing);
    * every other column is text that wraps in its share of the width: the columns in
      ``math_columns`` (words and math in the ASCII convention: a description, a note) read by
      the one reading (:func:`.latex.ascii_math`), any other (an id, an expression as written, a
      LaTeX source) as written, escaped by the one escaper and breakable after ``_``, ``.`` and
      ``/``; a list is its items joined by commas, a mapping ``k = v`` pairs;
    * the header is the column names as code; ``index=True`` adds the index as a first column;
    * ``layout``: ``wide`` (a column per column), ``stacked`` (a block per row, a line per
      field: column name, value), or ``auto`` (default): stacked when the columns' narrowest
      widths (a short column whole, a wrapping one its longest word) add up to more than a
      line holds (:data:`WIDE_CHARS`), as the terminal folds a table too wide for it.

    The first line says which packages it needs (:data:`FRAME_REQUIRES`)."""
    import pandas as pd

    from .escape import latex_code, latex_escape
    from .latex import ascii_math
    from .numfmt import num_text, table_format, yesno

    if layout not in ("auto", "wide", "stacked"):
        from ..errors import BoundcalcError
        raise BoundcalcError(f"to_latex: layout must be auto, wide or stacked, not {layout!r}")
    frame = df.reset_index() if index else df
    names = [str(c) for c in frame.columns]
    if not names:
        from ..errors import BoundcalcError
        raise BoundcalcError("to_latex: the frame has no columns")

    def missing(v) -> bool:
        return v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))

    def number(x) -> str:
        if missing(x):
            return "{--}"
        t = num_text(x, digits)
        if t is None:
            return "{--}"
        if t in ("nan", "inf", "-inf"):
            return {"nan": "{n/a}", "inf": "{$\\infty$}", "-inf": "{$-\\infty$}"}[t]
        return t

    def words(x) -> str:
        if isinstance(x, dict):
            return ", ".join(f"{k} = {words(v)}" for k, v in x.items())
        if isinstance(x, (list, tuple, set, frozenset)):
            return ", ".join(words(v) for v in x)
        return str(x)

    def breakable(s: str) -> str:
        # an identifier or a LaTeX source is one long word: a line may break after _ . / and
        # before a backslash (\\Phi(\\boldsymbol\\theta^0))
        s = re.sub(r"(\\_|[./,=])(?=\S)", r"\1\\allowbreak{}", latex_escape(s))
        return re.sub(r"(?<=\S)(\\textbackslash\{\})", r"\\allowbreak{}\1", s)

    specs, columns, need = [], [], 0
    for name in names:
        col = frame[name]
        kind = col.dtype.kind
        if kind == "b" or str(col.dtype) == "boolean":
            cells = ["--" if missing(v) else yesno(bool(v)) for v in col]
            specs.append("l")
            need += 3
        elif kind in "iuf":
            cells = [number(v) for v in col]
            specs.append(f"S[table-format={table_format(cells)}]")
            need += max(len(c) for c in cells) if cells else 2
        else:
            read = ascii_math if name in math_columns else breakable
            raw = [None if missing(v) else words(v) for v in col]
            cells = ["--" if c is None else read(c) for c in raw]
            longest = max((len(c or "--") for c in raw), default=2)
            # a column of short values (a paper's key, a kind, a status) at its natural width;
            # the others share what is left of the line and wrap (at least its longest word)
            if longest <= SHORT:
                specs.append("l")
                need += longest
            else:
                specs.append(">{\\raggedright\\arraybackslash}X")
                need += max(SHORT, max((len(w) for c in raw if c for w in re.split(r"[\s_./,=\\]", c)),
                                       default=0))
        columns.append(cells)
        need += 2                                        # the space between columns
    head = [FRAME_REQUIRES, "\\begingroup\\footnotesize\\setlength{\\tabcolsep}{3pt}"]
    cap = [] if caption is None else [
        "\\caption{" + latex_escape(caption) + "}"
        + ("\\label{" + re.sub(r"[^\w:.-]", "-", label) + "}" if label else "") + "\\\\"]
    code = [latex_code(n, breaks=True).replace(".", ".\\allowbreak{}") for n in names]
    stacked = layout == "stacked" or (layout == "auto" and need > WIDE_CHARS)
    if stacked:
        # too many or too wide columns for a line: a block per row, a field per line (column
        # name, then its value wrapping in the rest of the line), as the terminal folds a table
        lines = head + ["\\begin{xltabular}{\\linewidth}{@{}l>{\\raggedright\\arraybackslash}X@{}}", *cap,
                        "\\toprule", "\\endhead", "\\bottomrule", "\\endfoot"]
        for k, row in enumerate(zip(*columns)):
            if k:
                lines.append("\\midrule")
            for spec, n, c in zip(specs, code, row):
                if spec.startswith("S"):           # a number in running text; {--} is text
                    c = c[1:-1] if c.startswith("{") else "\\num{" + c + "}"
                lines.append(n + " & " + c + " \\\\*")
        lines += ["\\end{xltabular}", "\\endgroup"]
        return "\n".join(lines) + "\n"
    if not any(s.endswith("X") for s in specs):        # xltabular needs one X column
        specs = [s if s.startswith("S") else ">{\\raggedright\\arraybackslash}X" for s in specs]
    lines = head + ["\\begin{xltabular}{\\linewidth}{@{}" + "".join(specs) + "@{}}", *cap,
                    "\\toprule", " & ".join("{" + n + "}" for n in code) + " \\\\", "\\midrule", "\\endhead",
                    "\\bottomrule", "\\endfoot"]
    for row in zip(*columns):
        lines.append(" & ".join(row) + " \\\\")
    lines += ["\\end{xltabular}", "\\endgroup"]
    return "\n".join(lines) + "\n"
