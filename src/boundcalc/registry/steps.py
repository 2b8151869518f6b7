"""``[[steps]]``: the displayed steps of the proofs a paper's results rest on (main text and
appendices), each with its place and the checks that cover it. Step coverage, checked steps
over displayed steps, is computed from them by :mod:`boundcalc.services.check.steps`.

Validated with the checks (they name check ids): a misspelled field, step id, result or
check id is one error line naming the file and the step.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .._record import Record


class Step(Record, frozen=True):
    """One displayed step of a proof: where it is (``place``: equation number or the
    display's position), what it states (``step``: the paper's words or display), the
    result whose proof it belongs to and the checks that cover it (empty: unchecked)."""
    paper: str
    id: str
    result: str
    place: str
    step: str
    checks: tuple[str, ...] = ()
    note: str = ""


def load_steps(path: Path, paper, items: Any, check_ids: set[str]) -> tuple[Step, ...]:
    from .loader import _IDENT, _fail, _fields, _str, _str_list
    if not isinstance(items, list):
        raise _fail(path, "[[steps]]", "steps must be an array of tables [[steps]]")
    out: list[Step] = []
    seen: set[str] = set()
    for i, t in enumerate(items):
        where = f"[[steps]] #{i + 1}"
        if isinstance(t, dict) and isinstance(t.get("id"), str):
            where = f"step {t['id']!r}"
        _fields(path, where, t, {"id", "result", "place", "step"}, {"checks", "note"})
        sid = _str(path, where, t["id"], "id")
        if not _IDENT.match(sid):
            raise _fail(path, where, f"id {sid!r} must be an identifier")
        if sid in seen:
            raise _fail(path, where, "duplicate step id")
        seen.add(sid)
        result = _str(path, where, t["result"], "result")
        if result not in paper.results:
            raise _fail(path, where, f"result {result!r} is not listed in [paper] results")
        for f in ("place", "step"):
            if not _str(path, where, t[f], f).strip():
                raise _fail(path, where, f"{f} must not be empty (say where the step is displayed and what it states)")
        checks = _str_list(path, where, t.get("checks", []), "checks")
        unknown = [c for c in checks if c not in check_ids]
        if unknown:
            from ..suggest import did_you_mean
            raise _fail(path, where, f"checks names unknown check {unknown[0]!r}{did_you_mean(unknown[0], check_ids)}")
        out.append(Step(paper.key, sid, result, t["place"], t["step"], checks,
                        _str(path, where, t.get("note", ""), "note")))
    return tuple(out)
