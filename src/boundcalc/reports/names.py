"""Which paper's notation a text is read in: :func:`names_of`, the context that
:mod:`boundcalc.reports.latex` reads when it typesets text in the ASCII convention.

It lives apart from :mod:`.latex` so that a printer can enter it for every record
(:meth:`~.printers.base.Printer.doprint`) without importing the LaTeX reader: the context
holds the paper itself, and the reader works out the paper's names (:func:`.latex.known_names`)
when it first reads a text inside it. A numeric command that prints no typeset text (its
JSON, its table of values) never loads the reader (issue 37: start-up)."""
from __future__ import annotations

import contextlib
import contextvars

# the paper (a registry Paper) whose names the text inside names_of is read with; None: the convention alone
NAMES_OF: contextvars.ContextVar = contextvars.ContextVar("boundcalc_names", default=None)


@contextlib.contextmanager
def names_of(paper):
    """While inside, text read in the ASCII convention names ``paper``'s identifiers as what
    they are (:func:`~.latex.known_names`); ``paper``: a :class:`~boundcalc.registry.model.Paper`,
    a paper key of the shipped registry, or None (the convention alone)."""
    if isinstance(paper, str):
        try:
            from ..registry import get_registry
            paper = get_registry().paper(paper)
        except Exception:          # a key the shipped registry does not know (a user's CSV)
            paper = None
    if paper is None:              # no paper named here: whatever an enclosing call set
        yield
        return
    token = NAMES_OF.set(paper)
    try:
        yield
    finally:
        NAMES_OF.reset(token)
