"""A paper's formula sheet (``boundcalc sheet PAPER``) and its reference (``boundcalc cite``).

The sheet is a complete document -- LaTeX (an ``article`` that compiles with pdflatex)
or Markdown (math as ``$...$``) -- listing the paper's reference, its symbols (LaTeX,
meaning, domain, default, role) and every formula: id, title, kind, source in the
paper's numbering, status (as printed / corrected / derived), the formula as the paper
prints it, our expression (references inlined, via SymPy), what a bound bounds, and
the note. Displays wider than the text are scaled down to the line width, never left
overfull.
"""
from __future__ import annotations

import re

from ..errors import BoundcalcError
from .latex import ascii_math, document, latex_escape

FORMATS = ("latex", "markdown")
CITE_FORMATS = ("bibtex", "text")
_STATUS_WORD = {"as printed": "as printed in the paper", "corrected": "corrected (the printed version is wrong; see the note)",
                "derived": "derived by us (not printed; see the note)"}


# ---------------------------------------------------------------------------- references
def _paper(key: str, formulas_path=None):
    from ..registry import get_registry
    return get_registry(formulas_path).paper(key)


def bibtex(paper) -> str:
    """The paper's BibTeX entry (its ``[paper] bibtex``); an error naming the paper if the
    formula file gives none."""
    entry = paper.refs.get("bibtex", "").strip()
    if not entry:
        raise BoundcalcError(f"paper {paper.key!r} has no BibTeX entry (field 'bibtex' of [paper] in "
                             f"{paper.path.name})")
    return entry + "\n"


def citation_text(paper) -> str:
    """One plain-text line: authors, title, venue, year, arXiv id / DOI / URL -- or, for a
    paper that has none, that it has none."""
    r = paper.refs
    parts = [paper.authors or "(authors not given)", f"“{paper.title}”",
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
        out += f" \\url{{{r['url']}}}"
    if not (r.get("arxiv") or r.get("doi") or r.get("url")):
        out += " No arXiv identifier, DOI or public URL."
    return out


# ---------------------------------------------------------------------------- the sheet
def _formulas(paper, formulas_path):
    from ..api import Formula
    from ..registry import get_registry
    reg = get_registry(formulas_path)
    return [Formula(s, reg) for s in reg.all_specs(paper.key)]


def _t(s: str) -> str:
    """Text for the sheet: escaped, with break points after ``/`` and ``_`` so that ASCII
    formulas in notes (``beta_3/sqrt(H)``) wrap instead of running into the margin."""
    return ascii_math(s).replace("/", "/\\allowbreak{}").replace("\\_", "\\_\\allowbreak{}")


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
    return ("\\par\\noindent\\begin{adjustbox}{max width=\\linewidth,center}"
            f"$\\displaystyle {tex}$\\end{{adjustbox}}\\par")


def sheet_latex(key: str, formulas_path=None) -> str:
    p = _paper(key, formulas_path)
    fs = _formulas(p, formulas_path)
    ck = p.refs.get("cite_key", "") or key
    out = ["\\raggedright\\emergencystretch=3em",
           f"\\noindent {latex_escape(p.authors)}~\\cite{{{ck}}}.\\par"]
    if p.text:
        out.append(f"\\noindent Numbering: {_t(p.text)}.\\par")
    if p.reference:
        out.append(f"\\noindent Reference: {_t(p.reference)}.\\par")
    note = getattr(p, "note", "")
    if note:
        out.append(f"\\noindent {_t(note)}\\par")
    out.append(f"\\noindent Generated by boundcalc from \\texttt{{{latex_escape(p.path.name)}}}: "
               f"{len(p.symbols)} symbols, {len(fs)} formulas. Status: \\emph{{as printed}} in the paper, "
               "\\emph{corrected} (the printed version is wrong) or \\emph{derived} by us; "
               "``ours'' is the expression boundcalc evaluates, references inlined.\\par")
    out += ["\\subsection*{Symbols}", "\\begingroup\\small\\setlength{\\tabcolsep}{3pt}",
            "\\begin{xltabular}{\\linewidth}{@{}l>{\\raggedright\\arraybackslash}X"
            ">{\\raggedright\\arraybackslash}p{0.2\\linewidth}l@{}}",
            "\\toprule Symbol & Meaning & Domain & Default \\\\ \\midrule \\endhead"]
    for s in p.symbols.values():
        role = "" if s.role == "input" else f" \\emph{{({latex_escape(s.role)})}}"
        out.append(f"${s.latex or latex_escape(s.name)}$ & {_t(s.description)}{role} & "
                   f"{_t(_domain(s))} & {latex_escape(_default(s))} \\\\")
    out += ["\\bottomrule", "\\end{xltabular}", "\\endgroup", "\\subsection*{Formulas}"]
    for f in fs:
        out.append(f"\\subsubsection*{{\\texttt{{{latex_escape(f.id)}}}: {_t(f.name)}}}")
        out.append(f"\\noindent\\textbf{{{latex_escape(f.kind.capitalize())}}}; source: "
                   f"{_t(f.source)}; status: \\emph{{{latex_escape(f.status)}}}.\\par")
        if f.latex_printed:
            out += ["\\noindent As printed:", _display(f.latex_printed)]
        ours = _ours(f)
        if ours:
            out += ["\\noindent Ours:", _display(ours)]
        else:
            out.append(f"\\noindent Ours: \\texttt{{{_t(f.spec.text)}}}\\par")
        if f.spec.bounds:
            kind = f" ({f.spec.direction} bound)" if f.spec.direction else ""
            out.append(f"\\noindent Bounds{kind}: {_t(f.spec.bounds)}.\\par")
        if f.note:
            out.append(f"\\noindent Note: {_t(f.note)}\\par")
    body = "\n".join(out)
    title = f"Formula sheet: {latex_escape(p.title)}"
    return document(body, title=title, bibitems=[(ck, _bibitem_latex(p))])


def _md(s: str) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def _md_math(tex: str) -> str:
    return "$" + re.sub(r"\s*\n\s*", " ", tex).replace("|", "\\vert ") + "$"


def sheet_markdown(key: str, formulas_path=None) -> str:
    import pandas as pd
    p = _paper(key, formulas_path)
    fs = _formulas(p, formulas_path)
    out = [f"# Formula sheet: {p.title}", "", citation_text(p).strip(), ""]
    if p.text:
        out += [f"Numbering: {p.text}.", ""]
    note = getattr(p, "note", "")
    if note:
        out += [note, ""]
    out += [f"Generated by boundcalc from `{p.path.name}`: {len(p.symbols)} symbols, {len(fs)} formulas. "
            "Status: *as printed* in the paper, *corrected* (the printed version is wrong) or *derived* "
            "by us; *ours* is the expression boundcalc evaluates, references inlined.", "",
            "## Symbols", ""]
    sym = pd.DataFrame([{"symbol": f"`{s.name}` " + _md_math(s.latex or s.name),
                         "meaning": _md(s.description) + ("" if s.role == "input" else f" *({s.role})*"),
                         "domain": _md(_domain(s)), "default": _default(s)} for s in p.symbols.values()])
    out += [sym.to_markdown(index=False, tablefmt="pipe", disable_numparse=True), "", "## Formulas", ""]
    for f in fs:
        out += [f"### `{f.id}`: {f.name}", "",
                f"**{f.kind.capitalize()}**; source: {f.source}; status: *{f.status}*.", ""]
        if f.latex_printed:
            out += ["As printed:", "", "$$" + f.latex_printed.strip() + "$$", ""]
        ours = _ours(f)
        out += ["Ours: `" + f.spec.text + "`" + (":" if ours else ""), ""]
        if ours:
            out += ["$$" + ours + "$$", ""]
        if f.spec.bounds:
            kind = f" ({f.spec.direction} bound)" if f.spec.direction else ""
            out += [f"Bounds{kind}: {f.spec.bounds}.", ""]
        if f.note:
            out += [f"Note: {f.note}", ""]
    out += ["## Reference", "", "```bibtex", bibtex(p).strip() if p.refs.get("bibtex") else
            "(no BibTeX entry in the formula file)", "```", ""]
    return "\n".join(out)


def sheet(key: str, fmt: str = "latex", formulas_path=None) -> str:
    if fmt not in FORMATS:
        raise BoundcalcError(f"unknown --format {fmt!r}; use one of {', '.join(FORMATS)}")
    return sheet_latex(key, formulas_path) if fmt == "latex" else sheet_markdown(key, formulas_path)
