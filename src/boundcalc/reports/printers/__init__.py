"""Printers: one module per output format, each rendering boundcalc's result records.

The records (:class:`~boundcalc.reports.table.Table`, the check
:class:`~boundcalc.services.check.Report`, :class:`~boundcalc.services.verify.VerifyResult`,
:class:`~boundcalc.services.monotone.MonotoneResult`,
:class:`~boundcalc.services.require.RequireResult`, ...) know no format. Each module here
is a printer class that dispatches on the record's class (``_print_<Class>`` along the
MRO, :class:`.base.Printer`, as SymPy's printers do) and a thin public function:

============  =====================  ==============================================
format        function               gives
============  =====================  ==============================================
``text``      ``text.to_text``       plain text for a terminal or a file
``rich``      ``rich.to_rich``       a rich renderable (``rich.print_rich`` prints)
``markdown``  ``markdown.to_markdown``  Markdown
``latex``     ``latex.to_latex``     LaTeX (siunitx, threeparttable)
``csv``       ``csv.to_csv``         CSV
``json``      ``json.to_json``       JSON-ready data (``json.dumps``: the text)
``html``      ``html.to_html``       an HTML fragment (notebooks)
============  =====================  ==============================================

:func:`render` is the format -> printer table (like pint's formatter dict). Each printer
module is imported only when its format is asked for: this package imports nothing
heavy, and the numeric commands import only :mod:`.json`.
"""
from __future__ import annotations

from importlib import import_module

from ... import formats

# format -> (module, public function)
PRINTERS = {"text": ("text", "to_text"), "rich": ("rich", "to_rich"), "markdown": ("markdown", "to_markdown"),
            "latex": ("latex", "to_latex"), "csv": ("csv", "to_csv"), "json": ("json", "dumps"),
            "html": ("html", "to_html")}
FORMATS = tuple(PRINTERS)


def printer(fmt: str):
    """The public function of format ``fmt`` (:data:`PRINTERS`)."""
    from ...errors import BoundcalcError
    if fmt not in PRINTERS:
        raise BoundcalcError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    module, name = PRINTERS[fmt]
    return getattr(import_module(f"{__name__}.{module}"), name)


def render(obj, fmt: str, **settings):
    """``obj`` in format ``fmt`` (settings go to that format's printer)."""
    return printer(fmt)(obj, **settings)



# the printers the services' records print themselves through (boundcalc.formats: passed down,
# since a service may not import this layer); each imports its module on first use
def _json(obj, **settings):
    from .json import to_json
    return to_json(obj, **settings)


def _text(obj, **settings):
    from .text import to_text
    return to_text(obj, **settings)


def _markdown(obj, **settings):
    from .markdown import to_markdown
    return to_markdown(obj, **settings)


def _html(obj, **settings):
    from .html import to_html
    return to_html(obj, **settings)


def _frame(obj, **settings):
    from ..frames import report_frame
    return report_frame(obj, **settings)


for _name, _fn in (("json", _json), ("text", _text), ("markdown", _markdown), ("html", _html), ("frame", _frame)):
    formats.register(_name, _fn)

__all__ = ["FORMATS", "PRINTERS", "printer", "render"]
