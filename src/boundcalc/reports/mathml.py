"""LaTeX -> MathML for the HTML report (``check --html``, ``compare --html``), offline.

The conversion is done by ``latex2mathml`` (a maintained pure-Python library; the page
then needs no script or font fetched at view time: browsers render MathML Core natively).
It is imported here, on use only: the numeric commands never load it (a test says so).

latex2mathml leaves a command it does not know as the text of an ``<mi>`` (``\\foo`` ->
``<mi>\\foo</mi>``) instead of failing. :func:`math` therefore checks its output: MathML
whose text still holds a backslash, or a conversion that raised, becomes an ``<merror>``
holding the LaTeX, so that a failure shows on the page and the browser test
(tests/reports/printers/test_html_browser.py) finds it; nothing is silently dropped.
"""
from __future__ import annotations

import re

from .escape import html_text

__all__ = ["FAILED", "math", "text_with_math"]

FAILED = "merror"      # the element a failed conversion becomes

# LaTeX that SymPy or the formula files write and latex2mathml misreads: rewritten to an
# equivalent it reads before converting (each pattern says what it stands for)
_REWRITE: tuple = ()
_TEXT = re.compile(r">([^<]*)<")


def _prepare(tex: str) -> str:
    for pat, rep in _REWRITE:
        tex = pat.sub(rep, tex)
    return tex


def math(tex: str, *, block: bool = False) -> str:
    """``tex`` as a ``<math>`` element (``display="block"`` when ``block``); an ``<merror>``
    with the LaTeX as text when it cannot be converted."""
    from latex2mathml.converter import convert
    display = "block" if block else "inline"
    try:
        out = convert(_prepare(tex), display=display)
    except Exception:           # latex2mathml raises its own errors and plain ones alike
        out = None
    if out is None or any("\\" in t for t in _TEXT.findall(out)):
        return (f'<math display="{display}"><{FAILED}><mtext>{html_text(tex)}</mtext>'
                f'</{FAILED}></math>')
    return out


_DOLLARS = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.DOTALL)


def text_with_math(s: str) -> str:
    """Text with ``$...$`` (and ``$$...$$``) math, as HTML: the text escaped, the math as
    MathML (the hypotheses' quotes from the papers are written this way)."""
    out, pos = [], 0
    for m in _DOLLARS.finditer(s):
        out.append(html_text(s[pos:m.start()]))
        out.append(math(m.group(1) if m.group(1) is not None else m.group(2), block=m.group(1) is not None))
        pos = m.end()
    out.append(html_text(s[pos:]))
    return "".join(out)
