"""boundcalc.verdicts: str enums that keep the JSON's strings and fail on a misspelt word."""
import json

import pytest

from boundcalc.prover.decide import Decision
from boundcalc.services.check.common import Finding
from boundcalc.services.solve import Solution
from boundcalc.verdicts import GRADES, Grade, Layer, RequireOutcome, Verdict


def test_members_are_their_strings():
    assert Verdict.PROVED == "proved" and f"{Layer.SMT}" == "SMT"
    assert json.dumps({"v": Verdict.DISPROVED, "g": Grade.CANNOT_FAIL}) == '{"v": "disproved", "g": "cannot fail"}'
    assert repr({"g": Grade.OK}) == "{'g': 'ok'}"          # evidence printed with str(dict) reads as before
    assert [g.value for g in GRADES] == ["error", "warning", "note", "cannot fail", "identity", "conditional", "ok"]
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
    assert s.outcome is RequireOutcome.NOT_MONOTONE
    with pytest.raises(ValueError):
        Solution("x", None, "least", False, {}, "", "no monotone")


def test_the_smt_and_interval_layers_answer_with_their_enums():
    from fractions import Fraction

    from boundcalc.expr.domains import Domain
    from boundcalc.expr.parser import parse
    from boundcalc.prover.interval import IntervalOutcome, prove_interval
    from boundcalc.prover.smt import SmtOutcome, decide_smt
    from boundcalc.verdicts import IntervalStatus, SmtStatus
    unit = {"x": Domain(lo=Fraction(0), lo_closed=True, hi=Fraction(1), hi_closed=True)}
    # x**2 + 1 >= 1 holds everywhere (by hand); x - 2 >= 0 fails at every x of [0, 1]
    assert decide_smt(parse("x**2 + 1 - 1"), ">=", unit).status is SmtStatus.PROVED
    assert decide_smt(parse("x - 2"), ">=", unit).status is SmtStatus.SAT
    assert prove_interval(parse("x**2 + 1"), ">=", unit).status is IntervalStatus.PROVED
    assert prove_interval(parse("x - 2"), ">=", unit).status is IntervalStatus.DISPROVED
    assert SmtOutcome("sat").status is SmtStatus.SAT and IntervalOutcome("budget").status is IntervalStatus.BUDGET
    with pytest.raises(ValueError):      # the layer says 'proved' when the negated goal is unsat
        SmtOutcome("unsat")
    with pytest.raises(ValueError):
        IntervalOutcome("timeout")


def test_a_formulas_status_is_an_enum_and_a_target_is_as_given():
    import boundcalc
    from boundcalc.services.require import require
    from boundcalc.verdicts import FORMULA_STATUSES, FormulaStatus
    assert [s.value for s in FORMULA_STATUSES] == ["as printed", "corrected", "derived"]
    assert boundcalc.formula("anon2025.theorem5_corrected").status is FormulaStatus.CORRECTED
    assert boundcalc.formula("anon2025.true_loss_union").status is FormulaStatus.DERIVED
    with pytest.raises(ValueError):
        FormulaStatus("as-printed")
    res = require("arda2026", "fig1", {"delta": "0.05", "epsilon": "0.1"})
    assert res.results and all(type(r.status) is FormulaStatus for r in res.results)
    res = require("deora2023", "dm1", {"d": "16", "T": "8", "eta": "0.5"}, var="n", target="gen_gap_cor2 <= 0.05")
    assert [r.status for r in res.results] == [FormulaStatus.AS_GIVEN]
    assert res.to_json()["requirements"][0]["status"] == "as given"
