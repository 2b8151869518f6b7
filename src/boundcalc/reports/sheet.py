"""A paper's formula sheet (``boundcalc sheet PAPER``) and its reference (``boundcalc cite``).

The sheet is a complete document -- LaTeX (an ``article`` that compiles with pdflatex)
or Markdown (math as ``$...$``) -- listing the paper's reference, its symbols (LaTeX,
meaning, domain, default, role) and every formula: id, title, kind, source in the
paper's numbering, status (as printed / corrected / derived), the formula as the paper
prints it, our statement (left side, relation, right side: the quantity from the printed
LaTeX's top-level relation, our expression via SymPy with references inlined; a formula
without LaTeX gets the SymPy LaTeX of its expression), what a bound bounds, and the note.
Every display is balanced LaTeX: one that is not is shown as text, with the reason.
Displays wider than the text are broken over lines (:mod:`.display`), never scaled down; our
expression, when long, is shown with named subterms defined beneath it.
"""
from __future__ import annotations

import re

from ..errors import BoundcalcError
from .display import MACROS, display
from .escape import (
    bibtex_entry_error,
    bibtex_field,
    latex_code,
    latex_escape,
    latex_url,
    md_code,
    md_fence,
    safe_url,
    terminal,
)
from .escape import md_cell as _md
from .escape import md_math as _md_math
from .latex import (
    ascii_math,
    document,
    latex_balance_error,
    latex_text_parts,
    markdown_pieces,
    markdown_text,
    names_of,
)

FORMATS = ("latex", "markdown")
CITE_FORMATS = ("bibtex", "text")
_STATUS_WORD = {"as printed": "as printed in the paper", "corrected": "corrected (the printed version is wrong; see the note)",
                "derived": "derived by us (not printed; see the note)"}


# ---------------------------------------------------------------------------- references
def _paper(key: str, formulas_path=None):
    from ..registry import get_registry
    return get_registry(formulas_path).paper(key)


def bibtex(paper) -> str:
    """The paper's BibTeX entry: its hand-written ``[paper] bibtex`` if it gives one, else
    one built from the ``[paper]`` fields by :func:`bibtex_from_fields`."""
    entry = paper.refs.get("bibtex", "").strip()
    if entry:
        bad = bibtex_entry_error(entry)
        if bad:     # typeset, it would run as TeX in the reader's document
            raise BoundcalcError(f"paper {paper.key!r}: its hand-written bibtex entry holds {bad}, which "
                                 f"is not printed (accents, text styles, \\url and math macros only) in "
                                 f"{paper.path.name}")
    return (entry or bibtex_from_fields(paper).strip()) + "\n"


# a venue that names a conference, workshop or proceedings -> @inproceedings (booktitle);
# one that says the paper is not published yet -> @unpublished (note); any other -> @article
_PROCEEDINGS = re.compile(r"\b(conference|proceedings|advances in|workshop|symposium|neurips|nips|icml|iclr|"
                          r"colt|aistats|alt|uai|aaai|ijcai|cvpr|iccv|eccv|acl|emnlp|kdd)\b", re.IGNORECASE)
_UNPUBLISHED = re.compile(r"\b(review|submitted|submission|preprint|manuscript|in preparation)\b", re.IGNORECASE)
_BIB_KEY = re.compile(r"[^\s,{}()=\"#%'~\\]+")
_NAME = re.compile(r"[^\W\d_][\w.'\- ]*(, [^\W\d_][\w.'\- ]*)?", re.UNICODE)


def _bib_value(s: str) -> str:
    """A field value for ``field = {...}`` (:func:`.escape.bibtex_field`)."""
    return bibtex_field(s)


def _bib_id(s: str) -> str:
    """An identifier field (``url``, ``doi``, ``eprint``, ``year``): as written when it is a
    plain http(s) URL or has no character BibTeX or TeX would read (``\\ { } % # ~ ^``, a
    space or a control character); otherwise escaped as text."""
    s = " ".join(str(s).split())
    return s if safe_url(s) or re.fullmatch(r"[A-Za-z0-9.:/_\-;()<>\[\]+?=@!*,']+", s) else bibtex_field(s)


def bib_authors(authors: str) -> str:
    """The ``author`` field: names joined with `` and ``. A list already in BibTeX form
    (``Arda, Enes and Cayci, Semih``: one comma in every part) is split on `` and `` only;
    otherwise on commas (``E. Arda, S. Cayci, A. Eryilmaz``), a final ``and`` included. A
    part that is not a personal name (``Anonymous authors (under review)``) is braced so
    BibTeX does not split it into first and last names."""
    text = " ".join(authors.split())
    by_and = re.split(r"\s+and\s+", text)
    if len(by_and) > 1 and all(x.count(",") == 1 for x in by_and):
        parts = by_and
    else:
        parts = [x for x in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", text) if x]
    out = []
    for x in parts:
        v = _bib_value(x)
        out.append(v if _NAME.fullmatch(x) else "{" + v + "}")
    return " and ".join(out)


def bibtex_from_fields(paper) -> str:
    """A BibTeX entry built from ``[paper]`` fields: key ``cite_key`` (else the paper key);
    type ``@inproceedings`` (``booktitle``) for a conference venue, ``@unpublished`` (``note``)
    for one under review or submitted, ``@article`` (``journal``) for any other venue, and
    ``@misc`` without a venue; ``title``, ``author`` (joined with `` and ``), ``year``,
    ``eprint`` + ``archivePrefix`` for ``arxiv``, ``doi``, ``url``; a ``@misc`` entry without
    any identifier carries ``reference`` as its ``note``."""
    r = paper.refs
    key = r.get("cite_key", "") or paper.key
    if not _BIB_KEY.fullmatch(key):
        raise BoundcalcError(f"paper {paper.key!r}: cite_key {key!r} is not a usable BibTeX key "
                             f"(no spaces, commas, braces or quotes) in {paper.path.name}")
    venue = r.get("venue", "").strip()
    fields: list[tuple[str, str | None]] = [("title", paper.title)]
    if paper.authors.strip():
        fields.append(("author", None))
    if not venue:
        kind = "misc"
    elif _UNPUBLISHED.search(venue):
        kind = "unpublished"
        fields.append(("note", venue))
    elif _PROCEEDINGS.search(venue):
        kind = "inproceedings"
        fields.append(("booktitle", venue))
    else:
        kind = "article"
        fields.append(("journal", venue))
    if r.get("year"):
        fields.append(("year", r["year"]))
    if r.get("arxiv"):
        fields += [("eprint", r["arxiv"]), ("archivePrefix", "arXiv")]
    for k in ("doi", "url"):
        if r.get(k):
            fields.append((k, r[k]))
    if kind == "misc" and not any(r.get(k) for k in ("arxiv", "doi", "url")) and paper.reference:
        fields.append(("note", paper.reference))
    width = max(len(k) for k, _ in fields)
    ids = ("year", "eprint", "archivePrefix", "doi", "url")
    lines = [f"  {k.ljust(width)} = {{{bib_authors(paper.authors) if v is None else _bib_id(v) if k in ids else _bib_value(v)}}}"
             for k, v in fields]
    return f"@{kind}{{{key},\n" + ",\n".join(lines) + "\n}\n"


def citation_text(paper) -> str:
    """One plain-text line: authors, title, venue, year, arXiv id / DOI / URL -- or, for a
    paper that has none, that it has none."""
    r = {k: terminal(v, markup=False) for k, v in paper.refs.items() if isinstance(v, str)}
    parts = [terminal(paper.authors, markup=False) or "(authors not given)",
             f"“{terminal(paper.title, markup=False)}”",
             ", ".join(x for x in (r.get("venue", ""), r.get("year", "")) if x)]
    parts = [x for x in parts if x]
    ids = []
    if r.get("arxiv"):
        ids.append(f"arXiv:{r['arxiv']}")
    if r.get("doi"):
        ids.append(f"doi:{r['doi']}")
    if r.get("url"):
        ids.append(r["url"])
    parts.append(", ".join(ids) if ids else "no arXiv identifier, DOI or public URL")
    return ". ".join(p.rstrip(".") for p in parts) + ".\n"


def cite(key: str, fmt: str = "bibtex", formulas_path=None) -> str:
    if fmt not in CITE_FORMATS:
        raise BoundcalcError(f"unknown --format {fmt!r}; use one of {', '.join(CITE_FORMATS)}")
    p = _paper(key, formulas_path)
    return bibtex(p) if fmt == "bibtex" else citation_text(p)


def reference(key: str, formulas_path=None) -> dict:
    """The paper's reference fields (``cite --json``): its key, title, authors and every
    ``[paper]`` reference field as its file gives it."""
    p = _paper(key, formulas_path)
    return {"key": p.key, "title": p.title, "authors": p.authors, **p.refs}


def _bibitem_latex(paper) -> str:
    r = paper.refs
    out = f"{latex_escape(paper.authors)}. \\emph{{{latex_escape(paper.title)}}}."
    if r.get("venue"):
        out += f" {latex_escape(r['venue'])}"
    if r.get("year"):
        out += f", {latex_escape(r['year'])}"
    out += "."
    if r.get("arxiv"):
        out += f" arXiv:{latex_escape(r['arxiv'])}."
    if r.get("doi"):
        out += f" doi:{latex_escape(r['doi'])}."
    if r.get("url"):
        out += f" {latex_url(r['url'])}"
    if not (r.get("arxiv") or r.get("doi") or r.get("url")):
        out += " No arXiv identifier, DOI or public URL."
    return out


# ---------------------------------------------------------------------------- the sheet
def _formulas(paper, formulas_path):
    from ..registry import get_registry
    from ..services.formula import Formula
    reg = get_registry(formulas_path)
    return [Formula(s, reg) for s in reg.all_specs(paper.key)]


def _t(s: str) -> str:
    """Text for the sheet: escaped, with break points after ``/`` and ``_`` so that ASCII
    formulas in notes (``beta_3/sqrt(H)``) wrap instead of running into the margin."""
    return re.sub(r"\\_(?!\\allowbreak)", r"\\_\\allowbreak{}", ascii_math(s).replace("/", "/\\allowbreak{}"))


def _domain(sym) -> str:
    return str(sym.domain)


def _default(sym) -> str:
    d = sym.default
    if d is None:
        return ""
    return str(d.numerator) if d.denominator == 1 else f"{d.numerator}/{d.denominator}"


def _ours(f) -> str:
    """Our expression as LaTeX (SymPy); ``""`` if SymPy cannot typeset it."""
    try:
        return f.definition_latex()
    except Exception:              # never let one formula's rendering lose the sheet
        return ""


def _display(tex: str) -> str:
    """A display of ``tex``, broken over lines when it is wider than the line, never scaled
    (:func:`.display.display`); LaTeX that is not balanced (:func:`latex_balance_error`) is
    shown verbatim as text with the reason, never pasted into math where it would break
    the document."""
    bad = latex_balance_error(tex)
    if bad:
        return f"\\par\\noindent\\texttt{{{_t(tex)}}} (not typeset: {latex_escape(bad)})\\par"
    return display(tex)


# our expression longer than this many characters of text gets named subterms (A, B, ...),
# each defined beneath it: a formula of 2000 characters of LaTeX is read as a few lines
NAME_LIMIT = 90


def _ours_named(f) -> list[str]:
    """Our statement as displays: one when it is short; else the statement in terms of named
    subterms (:func:`.printers.evidence.name_subterms`, as the check report names them) and
    "where" each name's definition. ``[]`` if SymPy cannot typeset it."""
    try:
        from ..backends.sym import to_sympy
        from .printers.evidence import latex as ev_latex
        from .printers.evidence import name_subterms, text
        syms: dict = {}
        expr = to_sympy(f.expr, syms)
        names = {n: s.latex for n, s in f.symbol_table.items() if s.latex}
        if len(text(expr)) <= NAME_LIMIT:
            return [_display(f.definition_latex())]
        avoid = {v for v in names.values() if re.fullmatch(r"[A-Z]", v)}
        defs, out = name_subterms({"e": expr}, NAME_LIMIT, avoid=avoid)
        body = ev_latex(out["e"], names)
        whole = f.definition_latex()
        lhs = whole[:len(whole) - len(f.latex())] if whole.endswith(f.latex()) else ""
        shown = [_display(lhs + body)]
        if defs:
            shown.append("\\noindent where")
            shown += [_display(f"{name} = {ev_latex(d, names)}") for name, d in defs]
        return shown
    except Exception:              # never let one formula's rendering lose the sheet
        ours = _ours(f)
        return [_display(ours)] if ours else []


def _md_display(tex: str) -> list[str]:
    """A Markdown display (``$$...$$``), or the text in backticks when ``tex`` is not
    balanced LaTeX."""
    bad = latex_balance_error(tex)
    if bad:
        return [md_code(tex) + f" (not typeset: {_md(bad)})", ""]
    return [_md_math(tex, display=True), ""]


def sheet_latex(key: str, formulas_path=None) -> str:
    p = _paper(key, formulas_path)
    with names_of(p):              # the notes name the paper's symbols and formulas
        return _sheet_latex(p, _formulas(p, formulas_path))


def _sheet_latex(p, fs) -> str:
    # the reference in full, not a \\cite: the sheet compiles in one pdflatex pass
    out = [MACROS, "\\raggedright\\emergencystretch=3em", f"\\noindent {_bibitem_latex(p)}\\par"]
    if p.text:
        out.append(f"\\noindent Numbering: {_t(p.text)}.\\par")
    if p.reference:
        out.append(f"\\noindent Reference: {_t(p.reference)}.\\par")
    note = getattr(p, "note", "")
    if note:
        out.append(f"\\noindent {_t(note)}\\par")
    out.append(f"\\noindent Generated by boundcalc from {latex_code(p.path.name)}: "
               f"{len(p.symbols)} symbols, {len(fs)} formulas. Status: \\emph{{as printed}} in the paper, "
               "\\emph{corrected} (the printed version is wrong) or \\emph{derived} by us; "
               "``ours'' is the expression boundcalc evaluates, references inlined.\\par")
    # the symbols as a list, not a table: it breaks across pages and columns (a longtable
    # cannot sit in a two-column document) and needs no second pass to settle widths
    out += ["\\subsection*{Symbols}", "\\begingroup\\small"]
    for s in p.symbols.values():
        role = "" if s.role == "input" else f" \\emph{{({latex_escape(s.role)})}}"
        default = _default(s)
        out.append(f"\\par\\noindent\\hangindent=1.5em ${s.latex or latex_escape(s.name)}$ "
                   f"({latex_code(s.name)}): {s.description_latex or _t(s.description)}{role}. "
                   f"Domain: {_t(_domain(s))}" + (f"; default {latex_escape(default)}" if default else "") + ".")
    out += ["\\par\\endgroup", "\\subsection*{Formulas}"]
    for f in fs:
        # a long id may break after its dot and underscores (in two columns it is wider than a line)
        fid = latex_escape(f.id).replace(".", ".\\allowbreak{}").replace("\\_", "\\_\\allowbreak{}")
        out.append(f"\\subsubsection*{{\\texttt{{{fid}}}: {f.spec.title_latex or _t(f.name)}}}")
        out.append(f"\\noindent\\textbf{{{latex_escape(f.kind.capitalize())}}}; source: "
                   f"{_t(f.source)}; status: \\emph{{{latex_escape(f.status)}}}.\\par")
        if f.latex_printed:
            out += ["\\noindent As printed:", _display(f.latex_printed)]
        ours = _ours_named(f)
        if ours:
            out += ["\\noindent Ours:", *ours]
        else:
            out.append(f"\\noindent Ours: \\texttt{{{_t(f.spec.text)}}}\\par")
        if f.spec.bounds:
            kind = f" ({f.spec.direction} bound)" if f.spec.direction else ""
            out.append(f"\\noindent Bounds{kind}: {f.spec.bounds_latex or _t(f.spec.bounds)}.\\par")
        if f.note:
            out.append(f"\\noindent Note: {f.spec.note_latex or _t(f.note)}\\par")
    body = "\n".join(out)
    title = f"Formula sheet: {latex_escape(p.title)}"
    return document(body, title=title)


def sheet_markdown(key: str, formulas_path=None) -> str:
    p = _paper(key, formulas_path)
    fs = _formulas(p, formulas_path)
    with names_of(p):              # the notes name the paper's symbols and formulas
        return _sheet_markdown(p, fs)


def _m(s: str, latex: str = "", table: bool = False) -> str:
    """Text for the Markdown sheet, its math typeset as the LaTeX sheet reads it: the formula
    file's LaTeX text (``*_latex``) when it has one, else the words in the ASCII convention."""
    return markdown_pieces(latex_text_parts(latex), table=table) if latex else markdown_text(s, table=table)


def _sheet_markdown(p, fs) -> str:
    import pandas as pd
    out = [f"# Formula sheet: {_md(p.title)}", "", _md(citation_text(p).strip()), ""]
    if p.text:
        out += [f"Numbering: {_m(p.text)}.", ""]
    if p.reference:
        out += [f"Reference: {_m(p.reference)}.", ""]
    note = getattr(p, "note", "")
    if note:
        out += [_m(note), ""]
    out += [(f"Generated by boundcalc from {md_code(p.path.name)}: {len(p.symbols)} symbols, {len(fs)} formulas. "
            "Status: *as printed* in the paper, *corrected* (the printed version is wrong) or *derived* "
            "by us; *ours* is the expression boundcalc evaluates, references inlined."), "",
            "## Symbols", ""]
    sym = pd.DataFrame([{"symbol": md_code(s.name, table=True) + " " + _md_math(s.latex or s.name),
                         "meaning": _m(s.description, s.description_latex, table=True)
                         + ("" if s.role == "input" else f" *({_md(s.role)})*"),
                         "domain": _m(_domain(s), table=True), "default": _md(_default(s))} for s in p.symbols.values()])
    out += [sym.to_markdown(index=False, tablefmt="pipe", disable_numparse=True), "", "## Formulas", ""]
    for f in fs:
        out += [f"### {md_code(f.id)}: {_m(f.name, f.spec.title_latex)}", "",
                f"**{_md(f.kind.capitalize())}**; source: {_m(f.source)}; status: *{_md(f.status)}*.", ""]
        if f.latex_printed:
            out += ["As printed:", ""] + _md_display(f.latex_printed)
        ours = _ours(f)
        out += ["Ours: " + md_code(f.spec.text) + (":" if ours else ""), ""]
        if ours:
            out += _md_display(ours)
        if f.spec.bounds:
            kind = f" ({_md(f.spec.direction)} bound)" if f.spec.direction else ""
            out += [f"Bounds{kind}: {_m(f.spec.bounds, f.spec.bounds_latex)}.", ""]
        if f.note:
            out += [f"Note: {_m(f.note, f.spec.note_latex)}", ""]
    out += ["## Reference", "", md_fence(bibtex(p).strip(), "bibtex"), ""]
    return "\n".join(out)


def sheet(key: str, fmt: str = "latex", formulas_path=None) -> str:
    if fmt not in FORMATS:
        raise BoundcalcError(f"unknown --format {fmt!r}; use one of {', '.join(FORMATS)}")
    return sheet_latex(key, formulas_path) if fmt == "latex" else sheet_markdown(key, formulas_path)
