"""LaTeX: a comparison :class:`~boundcalc.reports.table.Table` as a table that drops into a paper.

Six columns spanning exactly ``\\linewidth``: the quantity in the row's words (its
ASCII math typeset: ``||theta_h^(1)||`` becomes :math:`\\|\\theta_h^{(1)}\\|`), with its
source beneath it and the quantity as the formula file typesets it
(``\\widehat L(\\tilde\\theta^{(K)})``) (wrapped ``X`` column); bound, measured and
their ratio in siunitx ``S`` columns (aligned on the decimal marker, ``table-format``
computed from the numbers shown); and
whether the bound holds and the theorem's hypotheses were met. Hypotheses, constants
and notes are table notes (``\\tnote{a}`` on the row), the settings and the seed the
last note; the one caption cites the paper (``\\cite{<cite_key>}`` from its ``[paper]``
table). A short table is a ``table`` float (``threeparttable`` + ``tabularx``); a long
one (many rows or much note text) a ``ThreePartTable`` (threeparttablex) around an
``xltabular`` that breaks across pages, its notes after the last row.
"""
from __future__ import annotations

from typing import ClassVar

import re

from ..escape import latex_escape
from ..latex import REQUIRES, ascii_math, formula_quantity
from ..numfmt import fmt_settings, s_cell, table_format, yesno
from .base import Printer


def _marks():
    n = 0
    while True:
        n += 1
        k, s = n, ""
        while k:
            k, r = divmod(k - 1, 26)
            s = chr(97 + r) + s
        yield s


def _quantity(row) -> str:
    """The row's own words (its ASCII math typeset), or its ``latex`` if given."""
    return f"${row.latex}$" if row.latex else ascii_math(row.quantity)


def _source(row) -> str:
    """The source, then the bounded quantity as the formula file typesets it."""
    math = formula_quantity(row.formula)
    src = latex_escape(row.source)
    if math:
        src += (": " if src else "") + f"${math}$"
    return src


def _paper_ref(paper: str) -> tuple[str, str]:
    """(cite key, short citation text) of a paper of the registry; ``("", "")`` if unknown."""
    try:
        from ...registry import get_registry
        p = get_registry().paper(paper)
    except Exception:
        return "", ""
    return p.refs.get("cite_key", ""), p.title


LONG_ROWS = 10          # more rows, or more note text, and the table breaks across pages
LONG_NOTES = 1800


def table_latex(table, label: str | None = None, long: bool | None = None) -> str:
    """The table as LaTeX: a ``table`` float (``threeparttable`` + ``tabularx``), or for
    a long table (``long=None``: decided by its size) a ``ThreePartTable`` around an
    ``xltabular`` that breaks across pages, with the notes after its last row."""
    label = label or f"tab:{table.paper}-bounds"
    label = re.sub(r"[^A-Za-z0-9:._\-]", "-", label)
    key, _ = _paper_ref(table.paper)
    cite = f"~\\cite{{{key}}}" if key else f" ({latex_escape(table.paper)})"
    caption = latex_escape(table.title.rstrip(".")) + cite + "."
    num = [[s_cell(r.bound), s_cell(r.measured), s_cell(r.ratio)] for r in table.rows]
    fmts = [table_format([n[i] for n in num]) for i in range(3)]
    marks = _marks()
    body, notes = [], []
    for r, n in zip(table.rows, num):
        parts = []
        if r.hypotheses:
            parts.append("hypotheses: " + r.hypotheses)
        if r.constant and r.constant != "exact constant":
            parts.append(r.constant)
        if r.note:
            parts.append(r.note)
        q = _quantity(r)
        if parts:
            m = next(marks)
            q += f"\\tnote{{{m}}}"
            notes.append(f"\\item[{m}] " + ascii_math("; ".join(parts)))
        src = _source(r)
        q += f"\\newline{{\\footnotesize {src}}}" if src else ""
        body.append(" & ".join([q, *n, yesno(r.holds, "--"), yesno(r.hypotheses_met, "--")]) + " \\\\")
    notes += [f"\\item[] {ascii_math(n)}" for n in table.notes]
    notes.append("\\item[] Ratio: bound/measured. Holds: the bound holds for the measured value "
                 "(for a condition: the value used meets it). Hyp.: the theorem's hypotheses "
                 "were met at the sizes used. Numbers to 3 significant digits.")
    notes.append(f"\\item[] Settings: {latex_escape(fmt_settings(table.settings)) or 'none'}; "
                 f"seed {table.seed}.")
    cols = (">{\\raggedright\\arraybackslash}X"
            + "".join(f"S[table-format={f},print-zero-exponent=false,tight-spacing=true]" for f in fmts) + "cc")
    head = "Quantity (source) & {Bound} & {Measured} & {Ratio} & Holds & Hyp. \\\\"
    if long is None:
        long = len(body) > LONG_ROWS or sum(len(n) for n in notes) > LONG_NOTES
    if not long:
        out = [REQUIRES, "\\begin{table}[tbp]", "\\centering", "\\small", "\\begin{threeparttable}",
               f"\\caption{{{caption}}}", f"\\label{{{label}}}", "\\setlength{\\tabcolsep}{3pt}",
               f"\\begin{{tabularx}}{{\\linewidth}}{{{cols}}}", "\\toprule", head, "\\midrule",
               *body, "\\bottomrule", "\\end{tabularx}",
               "\\begin{tablenotes}[flushleft]", "\\scriptsize", *notes, "\\end{tablenotes}",
               "\\end{threeparttable}", "\\end{table}"]
    else:      # breaks across pages: threeparttablex's notes under an xltabular (longtable + X)
        out = [REQUIRES + ", threeparttablex, xltabular",
               "\\begin{ThreePartTable}", "\\begin{TableNotes}[flushleft]", "\\scriptsize", *notes,
               "\\end{TableNotes}", "\\small", "\\setlength{\\tabcolsep}{3pt}",
               f"\\begin{{xltabular}}{{\\linewidth}}{{{cols}}}",
               f"\\caption{{{caption}}}\\label{{{label}}}\\\\", "\\toprule", head, "\\midrule",
               "\\endfirsthead",
               f"\\multicolumn{{6}}{{l}}{{\\footnotesize\\itshape Table~\\ref{{{label}}} (continued)}}\\\\",
               "\\toprule", head, "\\midrule", "\\endhead",
               "\\midrule", "\\multicolumn{6}{r}{\\footnotesize\\itshape continued on the next page}\\\\",
               "\\endfoot", "\\bottomrule", "\\insertTableNotes", "\\endlastfoot",
               *body, "\\end{xltabular}", "\\end{ThreePartTable}"]
    return "\n".join(out) + "\n"


class LatexPrinter(Printer):
    format = "latex"
    _default_settings: ClassVar[dict] = {"label": None, "long": None}

    def _print_Table(self, t) -> str:
        return table_latex(t, label=self._settings["label"], long=self._settings["long"])


def to_latex(obj, **settings) -> str:
    """``obj`` as LaTeX (a table: ``label``, and ``long`` to force a table that breaks
    across pages; None decides by its size)."""
    return LatexPrinter(**settings).doprint(obj)
