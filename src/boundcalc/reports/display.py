"""Displays that break over lines instead of shrinking (issue 34, item 1).

A display too wide for the line is never scaled down: :data:`MACROS` defines
``\\bcdisplay{math}{breakable math}``, which sets the math centred when it fits the line and
otherwise sets the breakable form as a paragraph of display-style math (first line flush
left, the others indented), where TeX breaks it after a top-level relation or binary
operator as it breaks inline math. :func:`breakable` makes those break points reachable:
a ``\\left( ... \\right)`` group that is not inside braces (a fraction, a root, a script)
becomes ``\\biggl( ... \\biggr)`` (``\\bigl``/``\\Bigl``/``\\biggl`` by what it holds), whose
inside is on the outer line and may break at its own ``+``; a fraction with a long numerator
over a short denominator is set as ``\\frac{1}{D}`` times the numerator, which may then break
(a short numerator over a long denominator as ``N (D)^{-1}``);
a comma of a ``\\max(a, b, c)`` list allows a break after it; a small parenthesised factor
``(a + b)`` is one unit, never broken; between factors a break shows a times sign (``\\*``).
A piece that still cannot fit
(one fraction wider than the line) is left overfull, which the tests count: never shrunk.
"""
from __future__ import annotations

import re

from ..expr.latex_tokens import raw_tokens

# \bcdisplay{math}{breakable math}: centred when it fits, broken over lines when it does not
# (\bcbroken); a width TeX's 32-bit arithmetic wrapped round to a negative one is "too wide" too
MACROS = (r"\newsavebox\bcbox" "\n"
          r"\newcommand\bcbroken[1]{{\noindent\hangindent=2em\hangafter=1\relax$\displaystyle #1$\par}"
          r"\typeout{BOUNDCALC broken=1}}" "\n"
          r"\newcommand\bcdisplay[2]{\par\sbox\bcbox{$\displaystyle #1$}"
          r"\ifdim\wd\bcbox<0pt\bcbroken{#2}\else\ifdim\wd\bcbox>\linewidth\bcbroken{#2}"
          r"\else\noindent\makebox[\linewidth]{\usebox\bcbox}\par\fi\fi}")
# LaTeX longer than this is set broken without being measured: its width could pass the
# 32768 pt at which TeX's box arithmetic wraps round (a sum of 1500 terms measured -10900 pt
# and was set in one box off the page, silently); no display of 1500 characters fits a line
LONG = 1500

_SIZES = (r"\bigl", r"\Bigl", r"\biggl")
# after these no product break (a relation, an operator, an opening, a function name)
_NO_TIMES = {"+", "-", "=", "<", ">", "(", "[", ",", "{", r"\leq", r"\geq", r"\le", r"\ge", r"\lesssim",
             r"\gtrsim", r"\cdot", r"\times", r"\log", r"\exp", r"\max", r"\min", r"\sup", r"\inf", r"\sqrt",
             r"\allowbreak", r"\bigl", r"\Bigl", r"\biggl", r"\left", "^", "_"}
_FUNCTIONS = {r"\log", r"\exp", r"\max", r"\min", r"\sin", r"\cos", r"\ln"}
_TALL = {r"\frac", r"\dfrac", r"\tfrac", r"\cfrac", r"\sum", r"\prod", r"\int", r"\binom", r"\dbinom"}
_OPENERS = {"(", "[", r"\{", "|", r"\|", r"\langle", r"\lVert", r"\lvert", r"\lbrace", r"\lfloor", r"\lceil"}


def _join(toks: list[str]) -> str:
    out = []
    for k, t in enumerate(toks):
        if k and re.fullmatch(r"\\[A-Za-z]+", toks[k - 1]) and re.match(r"[A-Za-z]", t):
            out.append(" ")
        out.append(t)
    return "".join(out)


def _match_right(toks: list[str], i: int) -> int:
    """The index of the ``\\right`` that closes the ``\\left`` at ``toks[i]`` (-1 if none)."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] == r"\left":
            depth += 1
        elif toks[j] == r"\right":
            depth -= 1
            if depth == 0:
                return j
    return -1


SMALL = 30          # tokens of a parenthesised factor kept as one unit


def _match_paren(toks: list[str], i: int) -> int:
    """The index of the ``)`` that closes the plain ``(`` at ``toks[i]``, outside braces and
    ``\\left``/``\\right`` delimiters (-1 if none)."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j]
        if toks[j - 1] in (r"\left", r"\right", r"\bigl", r"\bigr", r"\Bigl", r"\Bigr") and j > i:
            continue
        depth += {"{": 1, "}": -1, "(": 1, ")": -1}.get(t, 0)
        if depth == 0:
            return j if t == ")" else -1
    return -1


def _group(toks: list[str], i: int) -> int:
    """The index after the brace group opening at ``toks[i]`` (-1 if ``toks[i]`` is not ``{``
    or the group does not close)."""
    if i >= len(toks) or toks[i] != "{":
        return -1
    depth = 0
    for j in range(i, len(toks)):
        depth += {"{": 1, "}": -1}.get(toks[j], 0)
        if depth == 0:
            return j + 1
    return -1


def _has_top_sum(toks: list[str]) -> bool:
    depth = 0
    for k, t in enumerate(toks):
        depth += {"{": 1, "}": -1, r"\left": 1, r"\right": -1}.get(t, 0)
        if depth == 0 and t in ("+", "-") and k:
            return True
    return False


def _open_fraction(toks: list[str], i: int) -> tuple[list[str], int, int] | None:
    """A ``\frac{N}{D}`` at ``toks[i]`` with a long numerator and a short denominator as
    ``\frac{1}{D} N`` (N in parentheses when it is a sum), whose N may break: ``(tokens,
    level, end)``; None for any other fraction."""
    a = _group(toks, i + 1)
    b = _group(toks, a) if a > 0 else -1
    if b < 0:
        return None
    num, den = toks[i + 2:a - 1], toks[a + 1:b - 1]
    if len(den) >= 40 and len(num) <= 16:             # N over a long D: N (D)^{-1}, D may break
        body, own = _open_groups(den)
        size = _SIZES[max(own, 1) - 1]
        head = [] if num == ["1"] else (["(", *num, ")"] if _has_top_sum(num) else ["{", *num, "}"]) + [r"\*"]
        return [*head, size, "(", *body, size[:-1] + "r", ")", "^", "{", "-", "1", "}"], max(own, 3), b
    if len(num) < 40 or len(den) > 30:
        return None
    body, own = _open_groups(num)
    if _has_top_sum(num):
        size = _SIZES[max(own, 1) - 1]
        body = [r"\*", size, "(", *body, size[:-1] + "r", ")"]
    return [toks[i], "{", "1", "}", "{", *den, "}", *body], max(own, 3), b


class _Opener:
    """One walk over a token list at one level (see :func:`_open_groups`)."""

    def __init__(self, toks: list[str]):
        self.toks, self.level = toks, 0
        self.out: list[str] = []
        self.op = False
        self.parens: list[bool] = []     # the plain parentheses open here: whether of a max/min list

    def paren(self, i: int) -> int | None:
        """A plain ``(``: a small factor kept as one unit (after a factor, a product break)."""
        out = self.out
        listed = bool(out) and out[-1] in (r"\max", r"\min", r"\sup", r"\inf")
        j = _match_paren(self.toks, i)
        if not listed and 0 < j - i <= SMALL:
            if out and out[-1] in ("}", ")"):
                out.append(r"\*")
            out += ["{", *self.toks[i:j + 1], "}"]
            return j + 1
        self.parens.append(listed)
        return None

    def fraction(self, i: int) -> int | None:
        frac = _open_fraction(self.toks, i)
        if frac is None:
            return None
        self.out += frac[0]
        self.level = max(self.level, frac[1])
        return frac[2]

    def left(self, i: int) -> int | None:
        """A ``\\left`` group: sized by hand, its inside opened too."""
        toks = self.toks
        if i + 1 >= len(toks) or toks[i + 1] not in _OPENERS:
            return None
        j = _match_right(toks, i)
        inner = toks[i + 2:j] if j > 0 else []
        if not (j > 0 and j + 1 < len(toks) and toks[j + 1] != "." and r"\middle" not in inner):
            return None
        body, own = _open_groups(inner)
        size = _SIZES[max(own, 1) - 1]
        if self.out and self.out[-1] not in _NO_TIMES:      # a product: may break here, shown as x
            self.out.append(r"\*")
        self.out += [size, toks[i + 1], *body, size[:-1] + "r", toks[j + 1]]
        self.level = max(self.level, own)
        return j + 2

    def function(self, i: int) -> int | None:
        """A function of a braced ``\\left`` group (SymPy's ``\\log{\\left(x\\right)}``): the
        braces dropped so the group may open; after a factor, a product break."""
        toks = self.toks
        if self.out and self.out[-1] not in _NO_TIMES:
            self.out.append(r"\*")
        j = _group(toks, i + 1)
        if j > 0 and toks[i + 2:i + 3] == [r"\left"] and _match_right(toks, i + 2) == j - 3:
            body, own = _open_groups(toks[i + 2:j - 1])
            self.out += [toks[i], *body]
            self.level = max(self.level, own)
            return j
        self.out.append(toks[i])
        return i + 1

    def step(self, i: int, t: str) -> int | None:
        """The index after what starts at ``toks[i]`` (outside braces) when it is rewritten."""
        if t in (r"\underbrace", r"\overbrace"):
            self.op = True
        elif t in ("+", "-") and self.op:    # after an underbrace (an Op) a + is no binary
            self.out.append("{}")             # operator, and no break, unless an Ord comes between
            self.op = False
        if t in _FUNCTIONS:
            return self.function(i)
        if t == ")" and self.parens:
            self.parens.pop()
        if t in _TALL:
            self.level = max(self.level, 3)
        elif t in (r"\sqrt", "^", "_"):
            self.level = max(self.level, 2)
        if t == "(":
            return self.paren(i)
        if t in (r"\frac", r"\dfrac"):
            return self.fraction(i)
        if t == "," and self.parens and self.parens[-1]:     # max(a, b, c): a break after each comma
            self.out += [",", r"\allowbreak"]
            return i + 1
        if t == r"\left":
            return self.left(i)
        return None


def _open_groups(toks: list[str]) -> tuple[list[str], int]:
    """``toks`` with every ``\\left``/``\\right`` pair outside braces sized by hand, and the
    size level (0 none, 1 \\bigl ... 3 \\biggl) of the tallest thing at this level."""
    w = _Opener(toks)
    i, braces = 0, 0
    while i < len(toks):
        t = toks[i]
        braces += {"{": 1, "}": -1}.get(t, 0)
        if braces == 0 and t not in "{}":
            nxt = w.step(i, t)
            if nxt is not None:
                i = nxt
                continue
        w.out.append(t)
        i += 1
    return w.out, w.level


def breakable(tex: str) -> str:
    """``tex`` with its top-level ``\\left``/``\\right`` groups sized by hand so that TeX may
    break inside them (the same math; only the delimiters' sizing changes)."""
    return _join(_open_groups(raw_tokens(tex))[0])


def display(tex: str) -> str:
    """The display of ``tex`` (balanced math) for a document that defines :data:`MACROS`."""
    if len(tex) > LONG:
        return f"\\par\\bcbroken{{{breakable(tex)}}}"
    return f"\\bcdisplay{{{tex}}}{{{breakable(tex)}}}"
