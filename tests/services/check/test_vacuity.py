"""Vacuity checks (services/check/vacuity.py): where a hidden constant turns the verdict.

Expected values by hand: the bound C y at y = 2 against the trivial value 1 is vacuous
iff C >= 1/2; the bound y + D at y = 2 is above 1 for every D > 0."""
import pytest

from boundcalc.services.check import run_checks

PAPER = '''[paper]
key = "vac"
title = "test paper"
results = ["Thm. 1"]

[symbols.y]
description = "a size"
domain = "positive"

[symbols.C]
description = "hidden constant of Thm. 1"
domain = "positive"
default = "1"
role = "constant"

[symbols.D]
description = "another hidden constant of Thm. 1"
domain = "positive"
default = "1"
role = "constant"

[formulas.scaled]
name = "a bound with a hidden factor"
kind = "bound"
expr = "C*y"
source = "Thm. 1"
direction = "upper"

[formulas.shifted]
name = "a bound with a hidden shift"
kind = "bound"
expr = "y + D"
source = "Thm. 1"
direction = "upper"

[[checks]]
id = "vac_scaled"
kind = "vacuity"
location = "Thm. 1"
description = "C y at y = 2 against 1"
formula = "scaled"
at = { y = "2" }
trivial = "1"
direction = "upper"

[[checks]]
id = "vac_shifted"
kind = "vacuity"
location = "Thm. 1"
description = "y + D at y = 2 against 1"
formula = "shifted"
at = { y = "2" }
trivial = "1"
direction = "upper"
'''


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    p = tmp_path_factory.mktemp("vac") / "vac.toml"
    p.write_text(PAPER, encoding="utf-8")
    return {r.check: r for r in run_checks("vac", formulas_path=[str(p)]).results}


def test_the_value_of_a_hidden_constant_that_turns_the_verdict_is_printed(results):
    r = results["vac_scaled"]
    assert (r.severity.value, r.reason) == ("warning", "vacuous")
    (turn,) = r.evidence["hidden_constant_turns"]
    assert turn["constant"] == "C"
    assert float(turn["turns_at"][0]) == pytest.approx(0.5, rel=1e-6)      # C y = 1 at y = 2
    assert "non-vacuous below C = 0.5, vacuous above" in r.message, r.message
    assert "not certified" in r.message


def test_a_constant_that_turns_nothing_in_its_range_says_so_as_sampled(results):
    r = results["vac_shifted"]
    assert r.severity.value == "warning"
    (turn,) = r.evidence["hidden_constant_turns"]
    assert turn["turns_at"] is None                                        # 2 + D > 1 for all D > 0
    assert "vacuous for every D in" in r.message and "sampled" in r.message, r.message
