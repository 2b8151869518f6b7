"""``[[steps]]``: the displayed steps of the proofs a paper's results rest on (main text and
appendices), each with its place and the checks that cover it. Step coverage, checked steps
over displayed steps, is computed from them by :mod:`boundcalc.services.check.steps`.

Validated with the checks (they name check ids) by :func:`boundcalc.registry.loader.load_steps`:
a misspelled field, step id, result or check id is one error line naming the file and the step.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..expr._record import record_repr


@dataclass(frozen=True)
class Step:
    """One displayed step of a proof: where it is (``place``: equation number or the
    display's position), what it states (``step``: the paper's words or display), the
    result whose proof it belongs to and the checks that cover it (empty: unchecked)."""
    __repr__ = record_repr       # integers of any size (boundcalc.expr._record)
    paper: str
    id: str
    result: str
    place: str
    step: str
    checks: tuple[str, ...] = ()
    note: str = ""
