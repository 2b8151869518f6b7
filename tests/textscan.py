"""The text a reader sees in boundcalc's outputs, and the ASCII stand-ins for math in it
(issue 34, "What it must show"): a helper of the scan tests (importable: conftest puts
tests/ on sys.path).

Each ``visible_*`` function returns the text of one format as a reader sees it, with the
math, the code and the markup taken out: LaTeX outside ``$...$``/``\\ensuremath``/``\\num``/
``\\texttt`` (:func:`latex_prose`), Markdown outside ``$...$``, code spans and fenced blocks,
its backslash escapes read as the characters they show (:func:`visible_markdown`), HTML
outside ``<math>``, ``<code>``, ``<pre>``, ``<script>`` and ``<style>`` (:func:`visible_html`).
:func:`stand_ins` finds the identifier-like ASCII that stands in for math in such text;
:func:`rounded_ids` the arXiv identifiers that are not as the formula files write them."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------- LaTeX
def _balanced(tex: str, i: int) -> int:
    """Index after the brace group opening at ``tex[i]`` (``\\{`` is not a brace)."""
    depth = 0
    while i < len(tex):
        if tex[i] == "\\":
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(tex[i], 0)
        i += 1
        if depth == 0:
            return i
    return i


_DROP = re.compile(r"\\(ensuremath|num|texttt|label|ref|cite|url|begin|end|usepackage|documentclass|sisetup)"
                   r"(?:\[[^\]]*\])?\{")


def latex_prose(tex: str) -> str:
    """``tex`` without what is not text a reader sees as text: comments, math (``$..$``,
    ``\\ensuremath``, ``\\num``, displays), code (``\\texttt``), labels, references,
    column specifications, and the numbers of ``S`` cells (siunitx sets those)."""
    tex = re.sub(r"(?m)(?<!\\)%.*$", "", tex)
    # a sheet's display, \bcdisplay{math}{breakable math}: both arguments are math
    while (m := re.search(r"\\bcdisplay(?=\{)", tex)) is not None:
        j = _balanced(tex, _balanced(tex, m.end()))
        tex = tex[:m.start()] + " " + tex[j:]
    tex = re.sub(r"(?m)^\\begin\{(?:tabularx|xltabular|longtable|tabular\*)\}.*$", "", tex)
    out, i = [], 0
    while i < len(tex):
        m = _DROP.match(tex, i)
        if m:
            i = _balanced(tex, m.end() - 1)
            out.append(" ")
            continue
        if tex.startswith("$", i) and not tex.startswith("\\$", i - 1):
            j = tex.find("$", i + 1)
            while j > 0 and tex[j - 1] == "\\":
                j = tex.find("$", j + 1)
            i = j + 1 if j > 0 else len(tex)
            out.append(" ")
            continue
        if tex[i] == "\\":
            out.append(tex[i:i + 2])
            i += 2
            continue
        out.append(tex[i])
        i += 1
    text = "".join(out)
    # S cells (siunitx sets those), after a & or opening a row (the column table's stacked rows)
    return re.sub(r"(?m)(&|^)\s*-?\d[\d.]*(?:e-?\d+)?\s*(?=&|\\\\)", r"\1 ", text)


LATEX_STAND_INS = {
    "\\textasciicircum": re.compile(r"\\textasciicircum"),
    "\\textasciitilde": re.compile(r"\\textasciitilde"),
    "sqrt": re.compile(r"sqrt"),
    "X-bar / X_bar": re.compile(r"[-_]bar\b|(?<![\\\w])[A-Za-z]{1,2}bar\b"),
    "^( or ^ in text": re.compile(r"\^"),
    "_ in text (\\_)": re.compile(r"\\_"),
    # a Python boolean; not the English adjective ("True loss", "True-loss bound")
    "True/False": re.compile(r"\b(?:True|False)\b(?!-\w)(?!\s+[A-Za-z])"),
    "hyphen as minus": re.compile(r"(?:^|(?<=[\s(\[=,:]))-(?=[\d.(\\])|(?<=\s)-(?=\s)"),
    "ASCII relation or norm": re.compile(r"<=|>=|!=|==|\*\*|\|\||\\textless|\\textgreater|\\textbar"),
    "raw exponent (1e-5)": re.compile(r"\d[eE][-+]?\d"),
    "unknown character": re.compile(r"\[U\+[0-9A-F]{4}"),
}

# inside math: an ASCII word set upright where the math should be (R-bar read as \mathrm{bar})
MATH_STAND_INS = re.compile(r"\\mathrm\{(?:bar|hat|tilde|sqrt|infty|eps)\}")


def latex_stand_ins(tex: str) -> list[tuple[str, str]]:
    """Every ASCII stand-in for math in the prose of ``tex``, and every ASCII word set as
    upright math in place of a symbol: ``(kind, context)``."""
    text = latex_prose(tex)
    out = [("ASCII word in math", tex[max(0, m.start() - 30):m.end() + 30]) for m in MATH_STAND_INS.finditer(tex)]
    for kind, rx in LATEX_STAND_INS.items():
        for m in rx.finditer(text):
            out.append((kind, text[max(0, m.start() - 30):m.end() + 30].replace("\n", " ")))
    return out


# ---------------------------------------------------------------------------- Markdown
_FENCE = re.compile(r"(?ms)^(`{3,})[^\n]*\n.*?^\1\s*$")
_CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")
_MD_MATH = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$(?!\s)(.+?)(?<![\s\\])\$", re.DOTALL)
_MD_RULE = re.compile(r"(?m)^\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$")


def visible_markdown(md: str) -> str:
    """The text of a Markdown document as its reader sees it: fenced blocks, code spans and
    math (``$...$``, ``$$...$$``) out; emphasis markers, heading and list marks and the pipes
    of table cells out; a backslash escape read as the character it shows (``\\_`` is ``_``);
    ``&lt;`` and ``&amp;`` read as ``<`` and ``&``."""
    md = _FENCE.sub(" ", md)
    md = _CODE_SPAN.sub(" ", md)
    md = _MD_MATH.sub(" ", md)
    md = _MD_RULE.sub(" ", md)
    out, i = [], 0
    while i < len(md):
        ch = md[i]
        if ch == "\\" and i + 1 < len(md) and not md[i + 1].isalnum() and not md[i + 1].isspace():
            out.append("\x00" + md[i + 1])          # a character shown as it is
            i += 2
            continue
        inside = ch == "_" and i and md[i - 1].isalnum() and md[i + 1:i + 2].isalnum()
        if ch in "*_|" and not inside:               # markup: emphasis, a cell's edge (L_p is text)
            out.append(" " if ch == "|" else "")
            i += 1
            continue
        out.append(ch)
        i += 1
    text = "".join(out)
    text = re.sub(r"(?m)^\s*(?:#{1,6}|[-+]|\d+\.)\s", " ", text)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").replace("\x00", "")


# ---------------------------------------------------------------------------- HTML
class _Visible(HTMLParser):
    HIDDEN = frozenset({"math", "code", "pre", "script", "style", "kbd", "samp", "title", "head"})
    BLOCK = frozenset({"p", "li", "td", "th", "tr", "div", "br", "h1", "h2", "h3", "h4", "dt", "dd", "summary",
                       "caption", "section", "article", "table", "ul", "ol", "dl", "figcaption"})

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.depth += 1
        elif tag in self.BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in self.HIDDEN:
            self.depth = max(0, self.depth - 1)
        elif tag in self.BLOCK:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.depth:
            self.parts.append(data)


def visible_html(page: str) -> str:
    """The text of an HTML page as its reader sees it: outside ``<math>`` (MathML), code,
    scripts and styles; entities decoded; block elements on lines of their own."""
    p = _Visible()
    p.feed(page)
    p.close()
    return "".join(p.parts)


# ---------------------------------------------------------------------------- the scan
TEXT_STAND_INS = {
    "_ outside math": re.compile(r"(?<=[A-Za-z0-9)\]}])_|_(?=[A-Za-z0-9({])"),
    "^ outside math": re.compile(r"\^"),
    "**": re.compile(r"\*\*"),
    "==": re.compile(r"=="),
    "<=, >=, !=": re.compile(r"<=|>=|!="),
    "||": re.compile(r"\|\|"),
    "sqrt(": re.compile(r"\bsqrt\s*\("),
}


def stand_ins(text: str) -> list[tuple[str, str]]:
    """Every identifier-like ASCII stand-in for math in ``text`` (already the visible text of
    an output): ``(kind, context)``."""
    out = []
    for kind, rx in TEXT_STAND_INS.items():
        for m in rx.finditer(text):
            out.append((kind, text[max(0, m.start() - 40):m.end() + 40].replace("\n", " ")))
    return out


def known_arxiv_ids() -> set[str]:
    """The arXiv identifiers the packaged formula files write (read as text, not through the
    registry)."""
    ids = set()
    for f in (ROOT / "formulas").glob("*.toml"):
        ids |= set(re.findall(r"(?<![\d.])(\d{4}\.\d{4,5})(?![\d.])", f.read_text(encoding="utf-8")))
    return ids


_ARXIV = re.compile(r"(?i)(?:arXiv(?:\s*(?:id|identifier|preprint|e-print))?[:\s~]*(?:\\,|\\ )?|arxiv\.org/(?:abs|pdf)/)"
                    r"(\d{4}\.\d+|\d+(?:\.\d+)?(?:e\d+)?)")


def rounded_ids(text: str, known: set[str]) -> list[str]:
    """Each arXiv identifier in ``text`` that is not one the formula files write (a rounded
    ``2310.13`` for 2310.12680, ``2.31e3``)."""
    return [m.group(0) for m in _ARXIV.finditer(text) if m.group(1) not in known]
