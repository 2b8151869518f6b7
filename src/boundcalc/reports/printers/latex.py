"""LaTeX: a comparison :class:`~boundcalc.reports.table.Table` as a table that drops into a paper.

By default a float -- ``table*`` (spans both columns of a two-column paper and is an
ordinary float in a one-column one) -- holding a
``threeparttable`` around a ``tabularx`` of exactly ``\\linewidth`` with ``siunitx`` ``S``
columns; it needs **one** pdflatex pass (no package of it writes widths to the ``.aux``).
``long=True`` gives a ``ThreePartTable`` around an ``xltabular`` (longtable) that breaks
across pages, for more than a page of rows (one-column documents only; longtable needs
more than one pass to settle its column widths).

``env="table"`` is for one column of a two-column venue (IEEEtran, ICML, AISTATS): each
row stacked -- its quantity and source on a line of the column's width, its numbers beneath
in decimal-aligned ``S`` columns (``table-format`` from the data), holds/hyp. in one column --
and the rows in as many floats as it takes for each to fit a column (its notes under it).

Six columns: the quantity (the row's ``latex`` field, else its words with their math
typeset by :func:`~boundcalc.reports.latex.ascii_math`) with its source beneath it and the
quantity as the formula file typesets it; bound, measured and their ratio in ``S``
columns in the one number style (:func:`~boundcalc.reports.numfmt.num_text`); whether the
bound holds and the theorem's hypotheses were met (yes/no). Notes (``notes=``):

* ``"short"`` (default): one line per note -- the first clauses of the row's hypotheses,
  constant and note --, identical notes given one mark (notes that differ only in their
  numbers too, the differing numbers shown as ...), no table-wide notes, and a last line
  saying where the full notes and every setting are (``--notes full``, ``--format json``);
* ``"full"``: every note in full (identical ones still share a mark), the table's notes,
  the settings and the seed;
* ``"none"``: no notes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from ...errors import BoundcalcError
from ..escape import latex_code, latex_escape
from ..latex import REQUIRES, ascii_math, formula_quantity
from ..numfmt import s_cell, table_format, yesno
from .base import Printer
from .cells import setting_options

ENVS = ("table*", "table")
NOTES = ("short", "full", "none")
# digits grouped in the integer part only (125 000, never 0.009 54); local to the float's group
GROUPING = "\\sisetup{group-digits=integer}"
SHORT_NOTE = 90          # characters of a short note (one line at \scriptsize in a table*)


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
    """The row's ``latex`` field -- LaTeX text when it holds ``$...$`` (a label with words
    wraps), else math --, or without one its words with the math typeset."""
    if row.latex:
        return row.latex if "$" in row.latex else f"${row.latex}$"
    return ascii_math(row.quantity)


def _source(row, full: bool) -> str:
    """The source; with ``full``, then the bounded quantity as the formula file typesets it."""
    math = formula_quantity(row.formula) if full else ""
    src = ascii_math(row.source)
    if math:
        src += (": " if src else "") + f"${math}$"
    return src


_NUMBER_IN_TEXT = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w.])")


def _merge_alike(notes: list[str]) -> dict[str, str]:
    """Short notes that differ only in their numbers (one per width, say) -> one note with
    the numbers that differ shown as ``...``: ``{note: the note shown}``."""
    groups: dict[str, list[str]] = {}
    for n in notes:
        groups.setdefault(_NUMBER_IN_TEXT.sub("#", n), []).append(n)
    out = {}
    for template, members in groups.items():
        if len(set(members)) == 1:
            out[members[0]] = members[0]
            continue
        nums = [_NUMBER_IN_TEXT.findall(m) for m in members]
        pieces = template.split("#")
        shown = pieces[0]
        for k, piece in enumerate(pieces[1:]):
            column = {x[k] for x in nums}
            shown += (nums[0][k] if len(column) == 1 else "…") + piece
        for m in members:
            out[m] = shown
    return out


def _paper_ref(paper: str) -> tuple[str, str]:
    """(cite key, short citation text) of a paper of the registry; ``("", "")`` if unknown."""
    try:
        from ...registry import get_registry
        p = get_registry().paper(paper)
    except Exception:
        return "", ""
    return p.refs.get("cite_key", ""), p.title


def clauses(text: str) -> list[str]:
    """``text`` cut at its top-level ``;`` and sentence ends (outside every bracket)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(ch, 0)
        if depth == 0 and (ch == ";" or (ch == "." and text[i + 1:i + 2] == " "
                                         and not re.search(r"(?:\b[A-Z][a-z]{0,4}|\be\.g|\bi\.e|\bvs)$",
                                                           text[start:i]))):
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip().rstrip("."))
    return [c for c in out if c]


def short_note(text: str, limit: int = SHORT_NOTE) -> str:
    """The first clauses of ``text`` that fit in ``limit`` characters (at least one)."""
    cs = clauses(text)
    out = cs[:1]
    for c in cs[1:]:
        if len("; ".join(out + [c])) > limit:
            break
        out.append(c)
    return "; ".join(out)


def _row_note(r, notes: str) -> str:
    parts = []
    if r.hypotheses:
        parts.append(("hypotheses: " if notes == "full" else "hyp.: ")
                     + (r.hypotheses if notes == "full" else short_note(r.hypotheses, SHORT_NOTE // 2)))
    if r.constant and r.constant != "exact constant":
        parts.append(r.constant if notes == "full" else short_note(r.constant, SHORT_NOTE // 3))
    if r.note:
        parts.append(r.note if notes == "full" else short_note(r.note, SHORT_NOTE // 2))
    return "; ".join(parts)


def _settings(table) -> str:
    """The settings as the command-line options that give them (``--eta 1.0``)."""
    return ", ".join(latex_code(o) for o in setting_options(table))


@dataclass
class _Line:
    """One row of the table as the LaTeX printers lay it out, from the Table's Row: the quantity
    and its source (LaTeX), the three numbers as ``S`` cells, holds and hyp. (yes/no/--), and
    the mark of its note ('' for none). Both layouts (side by side, stacked) print these."""
    quantity: str
    source: str
    numbers: list[str]
    holds: str
    hyp: str
    mark: str = ""


def _lines_of(table, num: list, notes: str) -> tuple[list[_Line], dict[str, str]]:
    """(the table's rows as :class:`_Line` records, ``{mark: the note's \\item}``): identical
    notes share a mark (notes that differ only in their numbers too, when short)."""
    marks = _marks()
    lines, items, seen = [], {}, {}
    row_notes = [_row_note(r, notes) if notes != "none" else "" for r in table.rows]
    shown = _merge_alike([t for t in row_notes if t]) if notes == "short" else {t: t for t in row_notes}
    for r, n, text in zip(table.rows, num, row_notes):
        mark = ""
        if text:
            text = shown[text]
            if text not in seen:
                seen[text] = next(marks)
                items[seen[text]] = f"\\item[{seen[text]}] " + ascii_math(text)
            mark = seen[text]
        lines.append(_Line(_quantity(r), _source(r, notes == "full"), list(n), yesno(r.holds, "--"),
                           yesno(r.hypotheses_met, "--"), mark))
    return lines, items


def _label(line: _Line, full: bool) -> str:
    """The quantity with its source and the mark of its note (after the source, never on the
    math, where it would read as an exponent)."""
    mark = f"\\tnote{{{line.mark}}}" if line.mark else ""
    if line.source and full:
        return line.quantity + f"\\newline{{\\footnotesize {line.source}}}{mark}"
    if line.source:
        return line.quantity + f" {{\\scriptsize ({line.source})}}{mark}"
    return line.quantity + (f"\\,{mark}" if mark else "")


def _body_rows(lines: list[_Line], full: bool) -> list[str]:
    """The rows side by side: quantity (source), bound, measured, ratio, holds, hyp."""
    return [" & ".join([_label(x, full), *x.numbers, x.holds, x.hyp]) + " \\\\" for x in lines]


def _footnotes(table, notes: str) -> list[str]:
    """The notes under the table: the table's notes, what the columns mean, the settings
    (``full``), or one line pointing to them (``short``)."""
    items: list[str] = []
    if notes == "full":
        items += [f"\\item[] {ascii_math(n)}" for n in table.notes]
        items.append("\\item[] Ratio: bound/measured. Holds: the bound holds for the measured value "
                     "(for a condition: the value used meets it). Hyp.: the theorem's hypotheses "
                     "were met at the sizes used. Numbers to 3 significant digits.")
        seed = f"; seed {table.seed}" if table.seed is not None else ""
        items.append(f"\\item[] Settings: {_settings(table) or 'none'}{seed}.")
    elif notes == "short":
        items.append("\\item[] Ratio = bound/measured; Hyp.: the theorem's hypotheses were met. "
                     + (f"Seed {table.seed}; " if table.seed is not None else "") + "all settings and full notes: "
                     + latex_code(f"boundcalc compare {table.paper} --notes full") + ".")
    return items


def table_latex(table, label: str | None = None, long: bool = False, env: str = "table*",
                notes: str = "short") -> str:
    """The table as LaTeX (see the module docstring): a ``table*``/``table`` float, or with
    ``long`` a table that breaks across pages; ``notes`` short, full or none."""
    if env not in ENVS:
        raise BoundcalcError(f"unknown --env {env!r}; use one of {', '.join(ENVS)}")
    if notes not in NOTES:
        raise BoundcalcError(f"unknown --notes {notes!r}; use one of {', '.join(NOTES)}")
    label = label or f"tab:{table.paper}-bounds"
    label = re.sub(r"[^A-Za-z0-9:._\-]", "-", label)
    key, _ = _paper_ref(table.paper)
    cite = f"~\\cite{{{key}}}" if key else f" ({latex_escape(table.paper)})"
    caption = latex_escape(table.title.rstrip(".")) + cite + "."
    num = [[s_cell(r.bound), s_cell(r.measured), s_cell(r.ratio)] for r in table.rows]
    fmts = [table_format([n[i] for n in num]) for i in range(3)]
    lines, row_items = _lines_of(table, num, notes)
    footer = _footnotes(table, notes)
    items = list(dict.fromkeys([*row_items.values(), *footer]))
    body = _body_rows(lines, notes == "full")
    cols = (">{\\raggedright\\arraybackslash}X"
            + "".join(f"S[table-format={f},table-alignment-mode=none,print-zero-exponent=false,tight-spacing=true]"
                      for f in fmts)
            + "cc")
    head = "Quantity (source) & {Bound} & {Measured} & {Ratio} & Holds & Hyp. \\\\"
    tablenotes = (["\\begin{tablenotes}[flushleft]", "\\scriptsize", *items, "\\end{tablenotes}"]
                  if items else [])
    if not long and env == "table":
        out = _column_table(caption, label, fmts, lines, row_items,
                            [x for x in footer if x not in row_items.values()], notes == "full")
    elif not long:
        out = [REQUIRES + "; compiles in one pdflatex pass (in one- and two-column documents)",
               f"\\begin{{{env}}}[tbp]", "\\centering", "\\footnotesize", GROUPING, "\\begin{threeparttable}",
               f"\\caption{{{caption}}}", f"\\label{{{label}}}", "\\setlength{\\tabcolsep}{3pt}",
               f"\\begin{{tabularx}}{{\\linewidth}}{{{cols}}}", "\\toprule", head, "\\midrule",
               *body, "\\bottomrule", "\\end{tabularx}", *tablenotes,
               "\\end{threeparttable}", f"\\end{{{env}}}"]
    else:      # breaks across pages: threeparttablex's notes under an xltabular (longtable + X)
        notes_env = (["\\begin{TableNotes}[flushleft]", "\\scriptsize", *items, "\\end{TableNotes}"]
                     if items else [])
        out = [REQUIRES + ", threeparttablex, xltabular; one-column documents only; longtable needs "
               "two or three pdflatex passes to settle its column widths",
               "\\begin{ThreePartTable}", GROUPING, *notes_env, "\\small", "\\setlength{\\tabcolsep}{3pt}",
               f"\\begin{{xltabular}}{{\\linewidth}}{{{cols}}}",
               f"\\caption{{{caption}}}\\label{{{label}}}\\\\", "\\toprule", head, "\\midrule",
               "\\endfirsthead",
               f"\\multicolumn{{6}}{{l}}{{\\footnotesize\\itshape Table~\\ref{{{label}}} (continued)}}\\\\",
               "\\toprule", head, "\\midrule", "\\endhead",
               "\\midrule", "\\multicolumn{6}{r}{\\footnotesize\\itshape continued on the next page}\\\\",
               "\\endfoot", "\\bottomrule", *(["\\insertTableNotes"] if items else []), "\\endlastfoot",
               *body, "\\end{xltabular}", "\\end{ThreePartTable}"]
    return "\n".join(out) + "\n"


COLUMN_LINES = 40        # lines of a column float (article: 7.7 in at \\footnotesize, less caption and rules)


def _lines(tex: str, per_line: int) -> int:
    """Lines ``tex`` takes in the column at ``per_line`` characters a line (markup not counted)."""
    text = re.sub(r"\\[A-Za-z]+|[{}$^_]", "", tex)
    return 1 + len(text) // per_line


def _column_parts(lines: list[_Line], items: dict[str, str], footer: list[str],
                  full: bool) -> list[tuple[list[_Line], list[str]]]:
    """The rows cut into floats that each fit a column: (rows, the notes they mark), the
    table-wide notes under the last part."""
    parts: list[tuple[list[_Line], list[str]]] = [([], [])]
    used = _lines(" ".join(footer), 70)
    for line in lines:
        new = line.mark and items[line.mark] not in parts[-1][1]
        cost = _lines(_label(line, full), 55) + 1 + (_lines(items[line.mark], 70) if new else 0)
        if parts[-1][0] and used + cost > COLUMN_LINES:
            parts.append(([], []))
            used = _lines(" ".join(footer), 70)
        parts[-1][0].append(line)
        if line.mark and items[line.mark] not in parts[-1][1]:
            parts[-1][1].append(items[line.mark])
        used += cost
    return parts


def _column_table(caption: str, label: str, fmts: list[str], lines: list[_Line], items: dict[str, str],
                  footer: list[str], full: bool) -> list[str]:
    """The floats for one column of a two-column venue (``env="table"``), from the rows' records:
    each row stacked -- its quantity (source) on a line of the column's full width, its numbers
    beneath in decimal-aligned ``S`` columns (``table-format`` from the data) and holds/hyp. in
    one column --, as many floats as it takes for each to fit a column (a part's notes under it)."""
    cols = ("@{\\extracolsep{\\fill}}" + "".join(f"S[table-format={f},tight-spacing=true]" for f in fmts)
            + "c@{}")
    head = ("\\multicolumn{4}{@{}l@{}}{Quantity (source), then its values:} \\\\",
            "{Bound} & {Measured} & {Ratio} & {\\shortstack{Holds/\\\\hyp.}} \\\\")
    parts = _column_parts(lines, items, footer, full)
    out = [REQUIRES + "; compiles in one pdflatex pass; one column of a two-column document"]
    for k, (rows, notes) in enumerate(parts):
        stacked = []
        for x in rows:
            stacked += [(f"\\multicolumn{{4}}{{@{{}}>{{\\raggedright\\arraybackslash}}p{{\\linewidth}}@{{}}}}"
                         f"{{{_label(x, full)}}} \\\\*"),
                        " & ".join([*x.numbers, f"{x.holds}/{x.hyp}"]) + " \\\\", "\\addlinespace[2pt]"]
        last = k == len(parts) - 1
        notes = notes + (footer if last else [])
        cap = caption if len(parts) == 1 else caption[:-1] + f" (part {k + 1} of {len(parts)})."
        lab = label if k == 0 else f"{label}-{k + 1}"
        out += ["\\begin{table}[tbp]", "\\centering", "\\footnotesize", GROUPING, "\\begin{threeparttable}",
                f"\\caption{{{cap}}}", f"\\label{{{lab}}}", "\\setlength{\\tabcolsep}{1pt}",
                f"\\begin{{tabular*}}{{\\linewidth}}{{{cols}}}", "\\toprule", *head, "\\midrule",
                *stacked[:-1], "\\bottomrule", "\\end{tabular*}",
                *(["\\begin{tablenotes}[flushleft]", "\\scriptsize", *notes, "\\end{tablenotes}"] if notes else []),
                "\\end{threeparttable}", "\\end{table}"]
    return out


class LatexPrinter(Printer):
    format = "latex"
    _default_settings: ClassVar[dict] = {"label": None, "long": False, "env": "table*", "notes": "short"}

    def _print_Table(self, t) -> str:
        s = self._settings
        return table_latex(t, label=s["label"], long=bool(s["long"]), env=s["env"], notes=s["notes"])


def to_latex(obj, **settings) -> str:
    """``obj`` as LaTeX (a table: ``label``; ``long`` for a table that breaks across pages;
    ``env`` ``table*`` or ``table``; ``notes`` ``short``, ``full`` or ``none``)."""
    return LatexPrinter(**settings).doprint(obj)
