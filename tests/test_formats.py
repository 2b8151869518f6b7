"""boundcalc.formats: the printers the services' records print through, registered from above."""
from __future__ import annotations

import json

import pytest

from boundcalc import formats


def test_the_reports_layer_registers_every_printer_a_record_asks_for():
    import boundcalc  # noqa: F401  (boundcalc/__init__ imports the API, which imports the printers)
    assert {"json", "text", "markdown", "html", "frame"} <= set(formats._PRINTERS)


def test_a_record_prints_through_the_registered_printer():
    from boundcalc.reports.printers.json import to_json
    from boundcalc.services.verify import verify
    r = verify("x", "<=", "x + 1", ["x > 0"])
    assert formats.call("json", r) == to_json(r) == r.to_json()
    assert json.loads(json.dumps(r.to_json()))["verdict"] == "proved"


def test_an_unregistered_printer_is_a_bug_not_a_silent_fallback():
    with pytest.raises(RuntimeError, match="no printer 'nope'"):
        formats.call("nope", object())
