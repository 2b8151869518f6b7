"""boundcalc.verdicts: str enums that keep the JSON's strings and fail on a misspelt word."""
import json

import pytest

from boundcalc.prover.decide import Decision
from boundcalc.services.solve import Solution
from boundcalc.services.check.common import Finding
from boundcalc.verdicts import GRADES, Grade, Layer, RequireOutcome, Verdict


def test_members_are_their_strings():
    assert Verdict.PROVED == "proved" and f"{Layer.SMT}" == "SMT"
    assert json.dumps({"v": Verdict.DISPROVED, "g": Grade.CANNOT_FAIL}) == '{"v": "disproved", "g": "cannot fail"}'
    assert repr({"g": Grade.OK}) == "{'g': 'ok'}"          # evidence printed with str(dict) reads as before
    assert [g.value for g in GRADES] == ["error", "warning", "note", "cannot fail", "identity", "ok"]
    assert Grade.ERROR.rank < Grade.NOTE.rank < Grade.OK.rank


def test_records_coerce_and_refuse_misspelt_words():
    d = Decision("proved", "interval", "proved (interval, 4 boxes)")
    assert d.verdict is Verdict.PROVED and d.layer is Layer.INTERVAL
    with pytest.raises(ValueError):
        Decision("prooved", "interval", "")
    with pytest.raises(ValueError):
        Decision("proved", "intervals", "")
    f = Finding("p", "c", "derivation", "ok", "", "")
    f.grade("warning", "undecided")
    assert f.severity is Grade.WARNING
    with pytest.raises(ValueError):
        f.grade("warn", "undecided")
    s = Solution("x", None, "least", False, {}, "", "not monotone")
    assert s.status is RequireOutcome.NOT_MONOTONE
    with pytest.raises(ValueError):
        Solution("x", None, "least", False, {}, "", "no monotone")
