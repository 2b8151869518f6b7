"""The state of one command-line invocation, shared by the command modules.

The top-level callback (:func:`boundcalc.cli.app._main`) records the global options here
before a command runs; the commands of :mod:`.app` and :mod:`.docs` read them. Both import
this module and neither imports the other for it.
"""
from __future__ import annotations

__all__ = ["formula_paths", "set_formula_paths"]

_STATE: dict[str, list[str] | None] = {"formulas": None}


def set_formula_paths(paths: list[str] | None) -> None:
    """Record the ``--formulas`` files and folders of this invocation (None: none given)."""
    _STATE["formulas"] = paths or None


def formula_paths() -> list[str] | None:
    """The ``--formulas`` files and folders given to this invocation, or None."""
    return _STATE["formulas"]
