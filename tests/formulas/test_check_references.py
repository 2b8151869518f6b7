"""Every check a formula file's prose names as a check exists (issue 35, fifth referee reading:
taylor_eq16_direction and taylor_lower_eq14 cited "taylor_eq14_direction", which never existed;
the finding is taylor_eq14_as_printed).

A name counts as a check's when the text calls it one: "the finding X", "check X",
"checks X", "checked by X" (X an identifier with an underscore). Each must be a check id of
the same paper (or a formula, symbol, setting, measurement or step id, which prose may also
call so)."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

FILES = sorted((Path(__file__).resolve().parents[2] / "formulas").glob("*.toml"))
PROSE = ("description", "source", "note", "location", "because", "reason", "quote")
NAMED = re.compile(r"\b(?:findings?|checks?|checked by)\s+`?([a-z][a-z0-9]*(?:_[A-Za-z0-9]+)+)")


def _prose(x, key=""):
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _prose(v, k)
    elif isinstance(x, list):
        for v in x:
            yield from _prose(v, key)
    elif isinstance(x, str) and key in PROSE:
        yield x


def dangling(data: dict) -> set[str]:
    known = {c["id"] for c in data.get("checks", [])} | {s.get("id") for s in data.get("steps", [])}
    for k in ("symbols", "formulas", "settings", "measurements"):
        known |= set(data.get(k, {}))
    return {m.group(1) for t in _prose(data) for m in NAMED.finditer(t)} - known


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_check_named_in_prose_exists(path):
    assert FILES
    assert dangling(tomllib.loads(path.read_text(encoding="utf-8"))) == set()


def test_a_dangling_check_name_is_caught():
    data = {"checks": [{"id": "taylor_eq14_as_printed", "description": "x"},
                       {"id": "b", "note": "The direction of (14) is checked by taylor_eq14_direction."}],
            "formulas": {"f": {"source": "eq. (14) (the printed '<=' is the finding taylor_eq14_direction)"}}}
    assert dangling(data) == {"taylor_eq14_direction"}
    data["checks"][1]["note"] = "checked by taylor_eq14_as_printed"
    data["formulas"]["f"]["source"] = "the finding taylor_eq14_as_printed"
    assert dangling(data) == set()
