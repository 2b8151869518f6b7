"""The one escaper of each format boundcalc writes. A user's string (a title, a name, a
description, a note, a source, a check id, a measured CSV cell) reaches no output except
through its format's function here; no printer writes its own.

========== ======================================================================
terminal   :func:`terminal` -- control characters (C0, DEL, C1, ESC, bidi overrides)
           shown as visible escapes (``\\x1b``), rich markup escaped
Markdown   :func:`md_cell` (text in a cell, a list item or a line: HTML and Markdown
           link/code syntax escaped), :func:`md_code` (a code span), :func:`md_fence`
           (a fenced block), :func:`md_link` (a link, only to http(s)), :func:`md_math`
           (LaTeX inside ``$...$``)
HTML       :func:`html_text`
LaTeX      :func:`latex_escape` (text: specials escaped, Unicode math mapped to macros,
           control characters shown), :func:`latex_url` (an ``\\url``)
BibTeX     :func:`bibtex_field` (a field value: braces balanced, every command braced
           and harmless), :func:`bibtex_entry_error` (a hand-written entry: commands
           from an allow-list only)
CSV        :func:`csv_cell` (a text cell that a spreadsheet would run as a formula --
           leading ``= + - @``, tab or CR -- gets a leading ``'``, as OWASP advises;
           numbers stay numbers), :func:`csv_frame`
========== ======================================================================

Every escaper also neutralises control characters: a Markdown or CSV file is ``cat`` to a
terminal too. The LaTeX *math* a user writes (a ``latex`` field) is not text: it is checked
when the file loads and printed as math, never through :func:`latex_escape`.
"""
from __future__ import annotations

import re
import unicodedata

# ---------------------------------------------------------------------------- control characters
# C0 (but newline and tab, which a format may keep), DEL, C1, and the invisible characters that
# reorder or hide text (bidi embeddings/overrides/isolates, line/paragraph separators)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _visible(ch: str) -> str:
    return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"


def visible_controls(s, keep: str = "\n\t") -> str:
    """``s`` with every control character not in ``keep`` written as a visible escape
    (ESC -> ``\\x1b``, U+202E -> ``\\u202e``)."""
    return _CONTROL.sub(lambda m: m.group(0) if m.group(0) in keep else _visible(m.group(0)), str(s))


# ---------------------------------------------------------------------------- terminal
def terminal(s, markup: bool = True) -> str:
    """Text for a terminal: control characters shown (:func:`visible_controls`, newline and
    tab kept), and with ``markup`` rich markup escaped (``[bold]`` prints as written)."""
    s = visible_controls(s)
    if not markup:
        return s
    from rich.markup import escape
    return escape(s)


# ---------------------------------------------------------------------------- HTML
def html_text(s) -> str:
    """Text for HTML (an element's content or an attribute's value)."""
    import html  # here, not at the top: html imports html.entities (2000 entries), which the terminal never needs
    return html.escape(visible_controls(s), quote=True)


# ---------------------------------------------------------------------------- Markdown
_MD_SPECIAL = re.compile(r"([\\`\[\]|*$~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")   # $ math, ~~ strikethrough
_MD_TAG = re.compile(r"<(?=[A-Za-z/!?])")       # what opens a tag, a comment or an autolink
_MD_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
_MD_BLOCK = re.compile(r"^(\s*)(>|#{1,6}(?=\s|$)|[-+=](?=\s|$))")     # a quote, heading, list, rule
_MD_ORDERED = re.compile(r"^(\s*\d{1,9})([.)])(?=\s|$)")              # an ordered list item


def md_cell(s, inline: bool = False) -> str:
    """Text for Markdown (a table cell, a list item, a line of a paragraph), on one line:
    control characters shown, a ``<`` that opens a tag and an entity's ``&`` escaped (no tag, no entity
    survives: ``<script>`` is text), the characters that make links, images, code spans,
    emphasis, math, strikethrough and cells (``\\ ` [ ] | * $ ~``, and ``_`` at a word's edge;
    ``_`` inside a word, ``L_p``, makes none and is kept)
    backslash-escaped, and a leading ``#``, ``>``, ``-``, ``+``, ``=`` or ``1.`` escaped
    so the text starts no heading, quote or list (``inline``: a piece inside a line, which
    starts none)."""
    s = visible_controls(re.sub(r"[\n\t]", " ", str(s)), keep="")
    s = _MD_TAG.sub("&lt;", _MD_ENTITY.sub("&amp;", s))      # no tag, no entity (<=, a lone > or & is text)
    s = _MD_SPECIAL.sub(r"\\\1", s)
    return s if inline else md_line_start(s)


def md_line_start(s: str) -> str:
    """Markdown text whose leading ``#``, ``>``, ``-``, ``+``, ``=`` or ``1.`` is escaped, so
    that it starts no heading, quote or list."""
    s = _MD_BLOCK.sub(lambda m: m.group(1) + "\\" + m.group(2), s)
    return _MD_ORDERED.sub(lambda m: m.group(1) + "\\" + m.group(2), s)


def md_code(s, table: bool = False) -> str:
    """``s`` as a Markdown code span, on one line: fenced by more backticks than any run in
    ``s``, control characters shown; ``table``: ``|`` escaped (a code span in a table cell)."""
    s = visible_controls(re.sub(r"[\n\t]", " ", str(s)), keep="")
    if table:
        s = s.replace("|", "\\|")
    run = max((len(m) for m in re.findall(r"`+", s)), default=0)
    fence = "`" * (run + 1)
    pad = " " if s.startswith("`") or s.endswith("`") or not s.strip() else ""
    return fence + pad + s + pad + fence


def md_fence(s, info: str = "") -> str:
    """``s`` as a fenced code block (lines kept): the fence longer than any run of
    backticks in ``s``, control characters shown."""
    s = visible_controls(str(s))
    run = max((len(m) for m in re.findall(r"`+", s)), default=0)
    fence = "`" * max(3, run + 1)
    return f"{fence}{info}\n{s.rstrip()}\n{fence}"


_HTTP_URL = re.compile(r"https?://[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")


def safe_url(url) -> str:
    """``url`` if it is an http(s) URL of plain URL characters (no space, quote, brace,
    backslash, angle bracket or control character), else ``""``."""
    url = str(url).strip()
    return url if _HTTP_URL.fullmatch(url) else ""


def md_link(text, url) -> str:
    """A Markdown link to ``url`` when it is http(s) (:func:`safe_url`); any other URL
    (``javascript:``, ``data:``) is shown as escaped text, never linked."""
    ok = safe_url(url)
    if not ok:
        return md_cell(f"{text} ({url})" if str(text) != str(url) else str(url))
    return f"[{md_cell(text)}](<{ok.replace('>', '%3E').replace('<', '%3C')}>)"


def md_math(tex: str, display: bool = False) -> str:
    """LaTeX as Markdown math, ``$...$`` on one line (``display``: ``$$...$$``): ``\\|``
    as ``\\Vert`` and ``|`` as ``\\vert`` (a bare ``|`` would end a table cell), ``<``
    and ``>`` as ``\\lt``/``\\gt`` (a Markdown viewer that does not render math reads
    no tag), control characters as spaces."""
    tex = _CONTROL.sub(" ", re.sub(r"\s*\n\s*", " ", str(tex))).replace("\\|", "\\Vert ")
    tex = tex.replace("<", "\\lt ").replace(">", "\\gt ")
    tex = re.sub(r"(\\(?:lt|gt|Vert|vert)) +", r"\1 ", tex.replace("|", "\\vert "))   # one space after
    d = "$$" if display else "$"
    return d + tex.strip() + d


# ---------------------------------------------------------------------------- CSV
_CSV_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:inf|nan|Infinity)", re.IGNORECASE)


def csv_cell(v):
    """A CSV cell: a number (or a text that is exactly a number, ``-0.5``, ``-inf``) as it
    is; a text with control characters shown (newline kept: the cell is quoted) and, when
    it starts with ``=``, ``+``, ``-``, ``@``, a tab or a CR (a spreadsheet would run it as
    a formula), a leading ``'`` (OWASP, "CSV Injection")."""
    if not isinstance(v, str):
        return v
    if _CSV_NUMBER.fullmatch(v):
        return v
    s = visible_controls(v, keep="\n\t")
    return "'" + s if s[:1] in ("=", "+", "-", "@", "\t", "\r") else s


def csv_frame(df):
    """A DataFrame with :func:`csv_cell` applied to its text cells (and column names)."""
    df = df.copy()
    for c in df.columns:
        if df[c].dtype.kind in "OSU" or str(df[c].dtype) in ("string", "category"):
            df[c] = df[c].astype(object).map(csv_cell)
    df.columns = [csv_cell(c) if isinstance(c, str) else c for c in df.columns]
    return df


# ---------------------------------------------------------------------------- LaTeX
_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
                  "|": r"\textbar{}"}
_GREEK = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
          "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "varsigma", "sigma", "tau", "upsilon",
          "phi", "chi", "psi", "omega"]
UNICODE_MATH = {chr(0x3B1 + i): "\\" + n for i, n in enumerate(_GREEK) if n != "omicron"}
UNICODE_MATH.update({
    "Γ": r"\Gamma", "Δ": r"\Delta", "Θ": r"\Theta", "Λ": r"\Lambda", "Ξ": r"\Xi", "Π": r"\Pi",
    "Σ": r"\Sigma", "Φ": r"\Phi", "Ψ": r"\Psi", "Ω": r"\Omega", "ϵ": r"\epsilon", "ε": r"\varepsilon",
    "φ": r"\varphi", "ϑ": r"\vartheta", "≥": r"\geq", "≤": r"\leq", "≲": r"\lesssim", "≳": r"\gtrsim",
    "≪": r"\ll", "≫": r"\gg", "≠": r"\neq", "≈": r"\approx", "≡": r"\equiv", "∼": r"\sim",
    "≃": r"\simeq", "∝": r"\propto", "×": r"\times", "·": r"\cdot", "∘": r"\circ", "⊗": r"\otimes",
    "⊙": r"\odot", "−": "-", "±": r"\pm", "∓": r"\mp", "÷": r"\div", "∞": r"\infty", "‖": r"\|",
    "∥": r"\|", "→": r"\to", "←": r"\leftarrow", "↦": r"\mapsto", "⇒": r"\Rightarrow",
    "⇔": r"\Leftrightarrow", "√": r"\surd", "∈": r"\in", "∉": r"\notin", "⊂": r"\subset",
    "⊆": r"\subseteq", "∪": r"\cup", "∩": r"\cap", "∅": r"\emptyset", "∀": r"\forall",
    "∃": r"\exists", "∂": r"\partial", "∇": r"\nabla", "∑": r"\sum", "∏": r"\prod", "∫": r"\int",
    "⊤": r"\top", "⊥": r"\perp", "∧": r"\wedge", "∨": r"\vee", "¬": r"\neg", "⟨": r"\langle",
    "⟩": r"\rangle", "⌈": r"\lceil", "⌉": r"\rceil", "⌊": r"\lfloor", "⌋": r"\rfloor",
    "ℝ": r"\mathbb{R}", "ℕ": r"\mathbb{N}", "ℤ": r"\mathbb{Z}", "ℚ": r"\mathbb{Q}", "ℓ": r"\ell",
    "★": r"\star", "⋆": r"\star", "†": r"\dagger", "°": r"^{\circ}", "′": r"'", "…": r"\ldots",
    "⋯": r"\cdots", "²": "^{2}", "³": "^{3}", "¹": "^{1}", "⁴": "^{4}", "⁻": "^{-}", "⁺": "^{+}",
    "ᵀ": r"^{\top}", "₀": "_{0}", "₁": "_{1}", "₂": "_{2}", "₃": "_{3}", "₄": "_{4}", "ₖ": "_{k}",
    "ₙ": "_{n}", "ₜ": "_{t}"})
_UNICODE_TEXT = {"—": "---", "–": "--", "“": "``", "”": "''", "’": "'", "‘": "`", "\u00a0": "~",
                 "§": r"\S{}", "•": r"\textbullet{}", "€": "EUR", "\u200b": "", "\ufeff": ""}
# combining marks: applied to the character before them (Z̄ -> \bar{Z})
_COMBINING = {"\u0304": r"\bar", "\u0305": r"\bar", "\u0303": r"\tilde", "\u0302": r"\hat",
              "\u0307": r"\dot", "\u0308": r"\ddot", "\u20d7": r"\vec"}


def _is_latin_t1(ch: str) -> bool:
    """Accented Latin letters that pdflatex typesets from UTF-8 with [T1]{fontenc}."""
    return ("\u00c0" <= ch <= "\u017f") and ch not in "×÷"


def _latex_pieces(s) -> list[str]:
    """``s`` as LaTeX text, one piece per character (a combining accent merged into the
    piece before it): what :func:`latex_escape` joins and :func:`bibtex_field` braces."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", str(s)):
        if ch in _LATEX_SPECIAL:
            out.append(_LATEX_SPECIAL[ch])
        elif ch in "\n\t\r":
            out.append(" ")               # a blank line would end a paragraph inside a command
        elif _CONTROL.match(ch):
            out.append(f"[U+{ord(ch):04X}]")
        elif ord(ch) < 128:
            out.append(ch)
        elif ch in _COMBINING and out:
            prev = out.pop()
            inner = prev[len("\\ensuremath{"):-1] if prev.startswith("\\ensuremath{") else prev
            out.append("\\ensuremath{" + _COMBINING[ch] + "{" + inner + "}}")
        elif ch in UNICODE_MATH:
            out.append("\\ensuremath{" + UNICODE_MATH[ch] + "}")
        elif ch in _UNICODE_TEXT:
            out.append(_UNICODE_TEXT[ch])
        elif _is_latin_t1(ch):
            out.append(ch)
        else:
            base = unicodedata.normalize("NFKD", ch)
            if base != ch and all(ord(c) < 128 or c in UNICODE_MATH or _is_latin_t1(c) for c in base) \
                    and not _CONTROL.search(base):
                out.append(latex_escape(base))
            else:
                name = unicodedata.name(ch, "")
                out.append(f"[U+{ord(ch):04X}{' ' + name if name else ''}]")
    return out


def latex_escape(s: str) -> str:
    """Escape text for LaTeX. Unicode math becomes ``\\ensuremath{...}``, accented Latin
    letters are kept (``[T1]{fontenc}``), a combining accent applies to the letter before
    it, newline and tab are spaces, and any other character -- a control character
    included -- is written as its code point and Unicode name (``[U+2603 SNOWMAN]``,
    ``[U+001B]``): never dropped, never ``?``, never raw."""
    return "".join(_latex_pieces(s))


def latex_code(s: str, breaks: bool = False) -> str:
    """``s`` as code: ``\\texttt`` of :func:`latex_escape`'s text, with TeX's ligatures of
    the T1 typewriter font broken (``--notes`` would print as an en dash and ``notes``:
    ``-{}-notes``; ``<<``, ``>>``, ``,,`` likewise); ``breaks``: a line may break after an
    underscore."""
    text = re.sub(r"([-<>,`'])(?=[-<>,`'])", r"\1{}", latex_escape(s))
    if breaks:
        text = text.replace("\\_", "\\_\\allowbreak{}")
    return "\\texttt{" + text + "}"


def latex_url(url) -> str:
    """An ``\\url{...}`` for an http(s) URL of plain URL characters (:func:`safe_url`);
    anything else is escaped text in ``\\texttt`` (never a brace or a backslash inside
    ``\\url``)."""
    ok = safe_url(url)
    return f"\\url{{{ok}}}" if ok else f"\\texttt{{{latex_escape(url)}}}"


# ---------------------------------------------------------------------------- BibTeX
def bibtex_field(s) -> str:
    """A BibTeX field value (for ``field = {...}``), on one line: the text escaped as by
    :func:`latex_escape`, each command in its own braces (``{\\textbackslash}``,
    ``{\\&}``: BibTeX keeps a braced command as it is, and counts every brace, so the
    braces balance; ``\\{`` is ``{\\textbraceleft}``). A backslash, ``^^`` or a brace
    the user wrote is printed as a character, never read as TeX."""
    out = []
    for piece in _latex_pieces(" ".join(str(s).split())):
        if piece in ("\\{", "\\}"):
            out.append("{\\textbraceleft}" if piece == "\\{" else "{\\textbraceright}")
        elif piece.startswith("\\"):
            out.append("{" + piece.removesuffix("{}") + "}")
        else:
            out.append(piece)
    return "".join(out)


# the commands a hand-written BibTeX entry may use: accents, letters, text styles, \url and the
# math macros of UNICODE_MATH; nothing that reads, writes, defines or expands
_BIB_ACCENTS = set("\"'`^~=.") | {"&", "%", "$", "#", "_", "{", "}", " ", ",", "-", "/", "@", "\\"}
_BIB_COMMANDS = {"u", "v", "H", "c", "d", "b", "t", "r", "k", "o", "O", "ss", "ae", "AE", "oe", "OE", "aa",
                 "AA", "l", "L", "i", "j", "textit", "textbf", "emph", "textsc", "texttt", "textrm", "textsf",
                 "textup", "textsl", "textnormal", "mathrm", "mathit", "mathbf", "mathcal", "mathbb", "mathsf",
                 "mathfrak", "boldsymbol", "url", "ensuremath", "textbackslash", "textbraceleft", "textbraceright",
                 "textasciitilde", "textasciicircum", "textless", "textgreater", "textbar", "textbullet",
                 "textendash", "textemdash", "S", "P", "ldots", "dots", "sqrt", "frac", "log", "exp", "min",
                 "max", "sup", "inf", "lim", "ell", "top", "mid", "star", "prime", "tilde", "hat", "bar", "vec",
                 "dot", "ddot", "operatorname", "relax", "space", "tt", "it", "bf", "em", "sc", "rm",
                 "sf", "and", "quad", "qquad", "lt", "gt", "vert", "Vert", "infty", "cdot", "times", "le", "ge"}
_BIB_COMMANDS |= {v.lstrip("\\").split("{")[0] for v in UNICODE_MATH.values() if v.startswith("\\")}
_BIB_COMMANDS |= {g for g in _GREEK} | {g.capitalize() for g in _GREEK}


def bibtex_entry_error(entry: str) -> str:
    """Why a hand-written BibTeX entry cannot be printed (``""`` if it can): a command that
    is not an accent, a letter, a text style, ``\\url`` or a math macro (``\\input``,
    ``\\write``, ``\\csname`` ... would read or write a file when the bibliography is
    typeset), TeX's ``^^`` character notation, a control character, or braces that do not
    balance."""
    m = _CONTROL.search(entry.replace("\n", " ").replace("\t", " ").replace("\r", " "))
    if m:
        return f"the control character U+{ord(m.group(0)):04X}"
    if "^^" in entry:
        return "TeX's '^^' character notation"
    from ..expr.latex_tokens import _tokens  # here: the terminal escaper's users need no LaTeX reader
    depth = 0
    for i, tok in _tokens(entry):
        if tok.startswith("\\") and len(tok) > 1:
            name = tok[1:]
            if not (name in _BIB_ACCENTS if len(name) == 1 and not name.isalpha() else name in _BIB_COMMANDS):
                return f"the command {tok}"
        elif tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
            if depth < 0:
                return f"an unmatched '}}' at position {i}"
    return f"{depth} unclosed '{{'" if depth else ""


