"""How a result record prints itself without importing the layer that prints it.

The records of :mod:`boundcalc.services` (the check report and its findings, the results of
``verify``, ``monotone``, ``asymptotic`` and ``require``) keep their convenience methods --
``to_json()``, ``describe()``, ``to_markdown()``, ``to_frame()`` -- but the printers live two
layers up, in :mod:`boundcalc.reports`, which a service may not import (the layers contract in
``pyproject.toml``). So the printers are passed down: :mod:`boundcalc.reports.printers`
registers them here when it is imported (:mod:`boundcalc.api` imports it, and every
``import boundcalc...`` runs ``boundcalc/__init__`` and so the API first), and a record calls
its printer by name through :func:`call`. This module imports nothing.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

_PRINTERS: dict[str, Callable[..., Any]] = {}


def register(name: str, fn: Callable[..., Any]) -> None:
    """Make ``fn`` the printer ``name`` (``"json"``, ``"text"``, ``"markdown"``, ``"html"``,
    ``"frame"``)."""
    _PRINTERS[name] = fn


def call(name: str, obj, **settings):
    """``obj`` printed by the printer registered as ``name``."""
    fn = _PRINTERS.get(name)
    if fn is None:        # a bug, not bad input: boundcalc/__init__ imports the printers
        raise RuntimeError(f"no printer {name!r} is registered (boundcalc.reports.printers was not imported)")
    return fn(obj, **settings)
