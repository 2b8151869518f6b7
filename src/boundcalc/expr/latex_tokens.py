"""The one whitelist of LaTeX math a formula file may hold, and TeX's own structural rules.

Every ``latex`` (and ``printed``) field of a formula or a symbol is math that boundcalc
reads (:mod:`.latex_in`) or typesets into a sheet. :func:`math_error` says why a text is
not safe, well-formed math (``""`` when it is), before anything else looks at it:

* every control sequence is one of :data:`MATH_COMMANDS` (math only: letters, accents,
  fonts, operators, relations, delimiters, spacing); anything else -- ``\\input``,
  ``\\include``, ``\\openin``, ``\\openout``, ``\\write``, ``\\immediate``, ``\\catcode``,
  ``\\def``, ``\\csname``, ``\\read``, ``\\special``, ``\\let``, ``\\newcommand``,
  ``\\usepackage``, ``\\loop``, ``\\begin`` ... -- is refused by name;
* no character TeX reads as anything but math: ``%`` (a comment), ``#``, ``&``, ``$``,
  ``@``, TeX's ``^^`` character notation, ``\\\\``, control or non-ASCII characters;
* TeX's own errors: unbalanced braces ("Missing } inserted" / "Extra }"), ``\\left``
  without ``\\right`` (or the reverse), a double superscript or subscript (``2^3^4``,
  ``x^{y}^{2}``, ``x^2'``), a ``^`` or ``_`` without its argument.

The reader (:mod:`.latex_in`) accepts a subset of these commands (:data:`READ_COMMANDS`
there); both live on this list, which is the only one. This module imports nothing
heavy: the loader checks every file's LaTeX with it without importing SymPy.
"""
from __future__ import annotations

import functools
import re

__all__ = ["CONTROL_SYMBOLS", "MATH_COMMANDS", "latex_balance_error", "latex_text_error", "math_error", "quantity_latex",
           "raw_tokens", "split_relation"]

_GREEK = ("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa varkappa lambda mu nu "
          "xi omicron pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega "
          "Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega "
          "varGamma varDelta varTheta varLambda varXi varPi varSigma varUpsilon varPhi varPsi varOmega")
_WORDS = (
    # structure
    "frac tfrac dfrac cfrac sqrt binom tbinom dbinom left right middle big Big bigg Bigg bigl bigr Bigl Bigr "
    "biggl biggr Biggl Biggr "
    # fonts, text and accents (their argument is checked like the rest)
    "text textrm textit textbf textsf texttt mathrm mathit mathbf mathsf mathtt mathcal mathbb mathfrak mathscr "
    "boldsymbol bm operatorname hat widehat tilde widetilde bar overline underline vec dot ddot breve check "
    "acute grave mathring overbrace underbrace overset underset stackrel prime not "
    # operators and symbols
    "cdot times div pm mp circ otimes oplus odot ast star dagger ddagger top bot perp wedge vee cap cup "
    "setminus nabla partial infty forall exists nexists neg lnot ell hbar imath jmath emptyset varnothing "
    "aleph Re Im bullet cdotp "
    # relations
    "le leq ge geq leqslant geqslant ne neq lesssim gtrsim approx sim simeq cong equiv propto ll gg in notin "
    "ni subset subseteq supset supseteq to mapsto gets coloneqq eqqcolon triangleq mid colon parallel "
    "Rightarrow Leftarrow Leftrightarrow rightarrow leftarrow leftrightarrow implies iff "
    # big operators and named functions
    "sum prod coprod int iint oint lim limsup liminf sup inf max min bigcup bigcap bigoplus bigotimes "
    "log ln lg exp sin cos tan cot sec csc sinh cosh tanh coth arcsin arccos arctan det dim ker Pr deg arg "
    "gcd "
    # delimiters
    "langle rangle lfloor rfloor lceil rceil lvert rvert lVert rVert vert Vert lbrace rbrace "
    # dots and spacing
    "ldots cdots dots vdots ddots quad qquad displaystyle textstyle scriptstyle scriptscriptstyle limits "
    "nolimits allowbreak enspace thinspace")
#: the control words a ``latex`` field may hold (without the backslash)
MATH_COMMANDS: frozenset[str] = frozenset(_GREEK.split() + _WORDS.split())
#: the control symbols (a backslash and one non-letter) a ``latex`` field may hold
CONTROL_SYMBOLS: frozenset[str] = frozenset([r"\,", r"\;", r"\:", r"\!", "\\ ", r"\|", r"\{", r"\}", r"\%",
                                             r"\_", r"\#", r"\&", r"\$"])

_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\s+|.", re.DOTALL)
_CHARS = {"%": "'%' (a TeX comment: the rest of the line would be dropped)",
          "#": "'#' (a macro parameter)", "&": "'&' (an alignment tab)", "$": "'$' (it would end the math)",
          "@": "'@' (a letter only inside package code)"}
# an unescaped % # & $, @, a control character or a non-ASCII one (\\\\ is blanked out first)
_BAD_CHAR = re.compile(r"(?:^|[^\\])[%#&$]|[@\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\U0010ffff]")
_DELIMS = {"(", ")", "[", "]", "|", ".", "/", "<", ">", r"\|", r"\{", r"\}", r"\langle", r"\rangle",
           r"\lfloor", r"\rfloor", r"\lceil", r"\rceil", r"\lvert", r"\rvert", r"\lVert", r"\rVert",
           r"\vert", r"\Vert", r"\lbrace", r"\rbrace", r"\uparrow", r"\downarrow"}


def raw_tokens(tex: str) -> list[str]:
    """The text's TeX tokens: control words (``\\frac``), control symbols (``\\,``), single
    characters; white space dropped (TeX ignores it in math)."""
    return [t for t in _TOKEN.findall(tex) if not t.isspace()]


@functools.lru_cache(maxsize=512)
def math_error(tex: str) -> str:
    """Why ``tex`` is not safe, well-formed LaTeX math (``""`` if it is); one line, the
    culprit named, TeX's own message where TeX would refuse it."""
    if "^^" in re.sub(r"\s+", "", tex):
        return "'^^' (TeX's character-code notation) is not math"
    toks = raw_tokens(tex)
    for t in toks:
        if t == "\\\\":
            return "'\\\\' (a line break) is not one formula"
        if t.startswith("\\") and len(t) > 1 and t[1:].isalpha():
            if t[1:] not in MATH_COMMANDS:
                return f"the command {t} is not LaTeX math this tool accepts (only math commands are allowed)"
        elif t.startswith("\\") and t not in CONTROL_SYMBOLS:
            return f"the control symbol {t!r} is not LaTeX math this tool accepts"
    m = _BAD_CHAR.search(tex.replace("\\\\", "  "))
    if m:
        ch = m.group(0)[-1]
        if ch in _CHARS:
            return f"{_CHARS[ch]} is not allowed in LaTeX math here"
        if ord(ch) < 32 or 127 <= ord(ch) <= 0x9f:
            return f"the control character U+{ord(ch):04X} is not allowed in LaTeX math"
        return f"the character {ch!r} (U+{ord(ch):04X}) is not ASCII: write it as a LaTeX command"
    return _structure_error(toks)


def _structure_error(toks: list[str]) -> str:
    """TeX's rules on braces, ``\\left``/``\\right`` and scripts, in TeX's words."""
    # one frame per open group: [kind, superscript state of the current nucleus, subscript seen];
    # the superscript state is "" | "prime" | "explicit"
    frames: list[list] = [["top", "", False]]
    i, n = 0, len(toks)
    while i < n:
        t = toks[i]
        f = frames[-1]
        if t == "{":
            f[1], f[2] = "", False               # the group is the next nucleus
            frames.append(["{", "", False])
        elif t == "}":
            if f[0] != "{":
                return ("TeX: 'Extra }, or forgotten $' (a '}' closes no '{')" if f[0] == "top"
                        else "TeX: 'Extra }, or forgotten \\right' (a '}' inside \\left...\\right)")
            frames.pop()                         # the group (or a script's group) is done
        elif t == r"\left":
            if i + 1 >= n or toks[i + 1] not in _DELIMS:
                return "TeX: 'Missing delimiter (. inserted)' after \\left"
            i += 1
            f[1], f[2] = "", False
            frames.append([r"\left", "", False])
        elif t == r"\right":
            if i + 1 >= n or toks[i + 1] not in _DELIMS:
                return "TeX: 'Missing delimiter (. inserted)' after \\right"
            if f[0] != r"\left":
                return ("TeX: 'Extra \\right' (a \\right without its \\left)" if f[0] == "top"
                        else "TeX: 'Missing } inserted' (a \\right inside a group its \\left is outside of)")
            i += 1
            frames.pop()
        elif t in ("^", "_"):
            if t == "^":
                if f[1] == "explicit":
                    return "TeX: 'Double superscript' (write x^{a b} or {x^a}^b)"
                f[1] = "explicit"
            else:
                if f[2]:
                    return "TeX: 'Double subscript' (write x_{a b} or {x_a}_b)"
                f[2] = True
            if i + 1 >= n or toks[i + 1] in ("}", "^", "_", r"\right"):
                return f"TeX: 'Missing {{ inserted' ({t!r} without its argument)"
            if toks[i + 1] == "{":
                frames.append(["{", "", False])  # the script's group: the nucleus keeps its scripts
            i += 2
            continue
        elif t == "'":
            if f[1] == "explicit":
                return "TeX: 'Double superscript' (a prime after a superscript)"
            f[1] = "prime"
        else:
            f[1], f[2] = "", False               # a new nucleus
        i += 1
    if len(frames) > 1:
        if any(fr[0] == r"\left" for fr in frames):
            return "TeX: 'Missing \\right. inserted' (a \\left without its \\right)"
        return f"TeX: 'Missing }} inserted' ({len(frames) - 1} unclosed '{{')"
    return ""


# ---------------------------------------------------------------------------- LaTeX checks
def _tokens(tex: str):
    """``(position, token)``: a command (``\\le``, ``\\{``) or one character."""
    i = 0
    while i < len(tex):
        if tex[i] == "\\":
            m = re.compile(r"\\(?:[A-Za-z]+|.)", re.DOTALL).match(tex, i)
            if m is None:                 # a backslash that ends the text
                yield i, tex[i]
                i += 1
                continue
            yield i, m.group(0)
            i = m.end()
        else:
            yield i, tex[i]
            i += 1


_ENV = re.compile(r"\\(begin|end)\s*\{([^{}]*)\}")


def latex_balance_error(tex: str) -> str:
    """Why ``tex`` is not balanced math (``""`` if it is): an unmatched brace (``\\{``
    and ``\\}`` are text, not braces), ``\\left`` without ``\\right`` or the reverse, a
    ``\\begin{env}`` not closed by its own ``\\end{env}``, or a ``$`` (which would end
    the surrounding math)."""
    depth, lr, envs = 0, 0, []
    for i, tok in _tokens(tex):
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
            if depth < 0:
                return f"unmatched '}}' at position {i}"
        elif tok == "$":
            return f"'$' at position {i} inside math"
        elif tok == "\\left":
            lr += 1
        elif tok == "\\right":
            lr -= 1
            if lr < 0:
                return f"\\right without \\left at position {i}"
        elif tok in ("\\begin", "\\end"):
            m = _ENV.match(tex, i)
            if not m:
                return f"{tok} without an environment name at position {i}"
            if tok == "\\begin":
                envs.append(m.group(2))
            elif not envs or envs.pop() != m.group(2):
                return f"\\end{{{m.group(2)}}} does not close the open environment at position {i}"
    if depth:
        return f"{depth} unclosed '{{'"
    if lr:
        return f"{lr} \\left without \\right"
    if envs:
        return f"\\begin{{{envs[-1]}}} not closed"
    return ""



# commands a formula file's LaTeX text may not hold: they read or write files, or redefine
#: text commands a LaTeX-text field may hold besides the math whitelist
#: (:data:`boundcalc.expr.latex_tokens.MATH_COMMANDS`): emphasis and the text accents
_TEXT_COMMANDS = frozenset(("emph", "textsc", "textup", "textsl", "textnormal", "ss", "ae", "oe", "aa", "o", "l",
                            "i", "j"))
_TEXT_SYMBOLS = frozenset(["\\'", '\\"', "\\`", "\\^", "\\~", "\\=", "\\.", "\\-"])
_TEXT_ACCENT_WORDS = frozenset(("u", "v", "H", "c", "k", "r", "b", "d", "t"))
_CONTROL_SEQ = re.compile(r"\\(?:[A-Za-z]+|.)", re.DOTALL)
_TEXT_BAD_CHAR = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\^\^")


def _text_command_error(text: str) -> str:
    """The first control sequence or character of ``text`` that is not on the whitelist (the
    math commands, the text emphasis and accents), as a reason; ``""`` when there is none.
    A whitelist, not a list of dangerous commands: TeX has too many ways to read a file
    (``\\input``, ``\\pdffiledump``, ``\\scantokens``, ``^^5cinput`` ...) to list them."""
    bad = _TEXT_BAD_CHAR.search(text)
    if bad:
        what = "TeX's ^^ character notation" if bad.group(0) == "^^" else f"the control character {bad.group(0)!r}"
        return f"{what} is not allowed"
    for m in _CONTROL_SEQ.finditer(text):
        cs = m.group(0)
        word = cs[1:]
        if (word in MATH_COMMANDS or word in _TEXT_COMMANDS or word in _TEXT_ACCENT_WORDS
                or cs in CONTROL_SYMBOLS or cs in _TEXT_SYMBOLS or cs == "\\\\"):
            continue
        return f"the command {cs} is not allowed (not math, nor text emphasis or an accent)"
    return ""


def latex_text_error(text: str) -> str:
    """Why ``text`` is not usable LaTeX text (``""`` if it is): text with inline math
    ``$...$`` (a ``latex`` field of a description, note or title in a formula file). Each
    math segment must be balanced (:func:`latex_balance_error`), the ``$`` must pair up,
    the braces of the text must balance, and no command may read or write a file or
    redefine anything."""
    why = _text_command_error(text)
    if why:
        return why
    parts = re.split(r"(?<!\\)\$", text)
    if len(parts) % 2 == 0:
        return "an unpaired '$'"
    for k, part in enumerate(parts):
        why = latex_balance_error(part) if k % 2 else latex_balance_error(part.replace("$", ""))
        if why:
            return ("in math " if k % 2 else "") + f"'{part.strip()[:40]}': {why}"
    return ""


# ---------------------------------------------------------------------------- quantities
_REL = re.compile(r":=|=:|\\coloneqq|\\triangleq|\\(?:leq?|geq?|lesssim|gtrsim|approx)(?![A-Za-z])"
                  r"|(?<![<>!])=|<|>")


_OPENERS = {"left", "langle", "lceil", "lfloor", "{"}
_CLOSERS = {"right", "rangle", "rceil", "rfloor", "}"}


def _depth_step(tok: str) -> int:
    """+1 for anything that opens a group -- ``{``, ``(``, ``[``, ``\\{``, ``\\left``,
    ``\\langle`` ... --, -1 for what closes one, 0 otherwise."""
    if tok in "{([" and len(tok) == 1:
        return 1
    if tok in "})]" and len(tok) == 1:
        return -1
    if tok.startswith("\\"):
        name = tok[1:]
        if name in _OPENERS:
            return 1
        if name in _CLOSERS:
            return -1
    return 0


def split_relation(tex: str) -> list[tuple[str, str]]:
    """``[(part, relation_after_it), ...]``: ``tex`` cut at its top-level relations only --
    outside every brace, parenthesis, bracket, ``\\{...\\}``, ``\\left...\\right`` and
    ``\\langle...\\rangle`` (the ``\\le`` of ``\\Pr[yf(X)\\le 0] \\le B`` inside the
    brackets is not one); the last relation is ``""``."""
    parts, depth, start = [], 0, 0
    skip_to = 0
    for i, tok in _tokens(tex):
        if i < skip_to:
            continue
        if depth == 0:
            m = _REL.match(tex, i)
            if m and (tok.startswith("\\") or len(tok) == 1) and m.start() == i:
                parts.append((tex[start:i].strip(), m.group(0)))
                start = skip_to = m.end()
                continue
        depth += _depth_step(tok)
    parts.append((tex[start:].strip(), ""))
    return parts


def quantity_latex(printed: str) -> str:
    """The quantity a formula's printed LaTeX defines or bounds: the side named by ``=:``,
    else the left side of the first top-level relation (:func:`split_relation`); ``""``
    when ``printed`` has no relation or that side is not balanced LaTeX on its own."""
    parts = split_relation(printed or "")
    if len(parts) < 2:
        return ""
    q = parts[0][0]
    for k, (_, rel) in enumerate(parts):
        if rel == "=:":
            q = parts[k + 1][0]
            break
    return q if q and not latex_balance_error(q) else ""
