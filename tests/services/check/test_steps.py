"""Step coverage: ``[[steps]]`` in formula files (registry/steps.py) and checked/displayed
steps in the check report (services/check/steps.py).

Expected counts are computed by hand from the small files below, or read independently
from the packaged TOML with tomllib (not through the loader under test)."""
import json
import tomllib
from pathlib import Path

import pytest
from support import cli  # the real entry point, in this process

from boundcalc.errors import FormulaFileError
from boundcalc.registry.loader import load_file
from boundcalc.services.check import run_checks
from boundcalc.services.check.common import Finding
from boundcalc.services.check.steps import step_coverage

HEAD = '''
[paper]
key = "KEY"
title = "toy"
results = ["Lemma 1", "Thm. 1"]

[symbols.x]
description = "x"
domain = "(0, 1)"

[[checks]]
id = "holds"
kind = "compare"
location = "Lemma 1"
description = "x(1 - x) <= 1/4"
lhs = "x*(1 - x)"
rel = "<="
rhs = "1/4"

[[checks]]
id = "false_step"
kind = "compare"
location = "Thm. 1"
description = "x <= 1/2, false for x in (1/2, 1)"
lhs = "x"
rel = "<="
rhs = "1/2"
'''

STEPS = '''
[[steps]]
id = "amgm"
result = "Lemma 1"
place = "proof of Lemma 1, eq. (3)"
step = "x(1 - x) <= 1/4"
checks = ["holds"]

[[steps]]
id = "half"
result = "Thm. 1"
place = "proof of Thm. 1, second display"
step = "x <= 1/2"
checks = ["false_step", "holds"]

[[steps]]
id = "limit"
result = "Thm. 1"
place = "proof of Thm. 1, last display"
step = "a limit no check states"
note = "no check kind for it"
'''


def _write(tmp_path, text, key="toystep"):
    p = tmp_path / f"{key}.toml"
    p.write_text(text.replace("KEY", key))
    return p


def test_steps_load_and_coverage_counts_decided_checks(tmp_path):
    p = _write(tmp_path, HEAD + STEPS)
    paper = load_file(p)
    assert [s.id for s in paper.steps] == ["amgm", "half", "limit"]
    assert paper.steps[1].checks == ("false_step", "holds")
    rep = run_checks("toystep", formulas_path=[p])
    grades = {r.check: r.severity for r in rep.results}
    assert grades == {"holds": "ok", "false_step": "error"}      # x = 3/4 refutes x <= 1/2
    sc = rep.to_json()["step_coverage"]["toystep"]
    # by hand: amgm checked (passes), half checked (an error is a decided check), limit unchecked
    assert (sc["displayed"], sc["checked"], sc["coverage"]) == (3, 2, round(2 / 3, 4))
    assert [s["status"] for s in sc["steps"]] == ["checked", "checked", "unchecked"]
    assert sc["by_result"] == {"Lemma 1": {"displayed": 1, "checked": 1}, "Thm. 1": {"displayed": 2, "checked": 1}}
    assert sc["steps"][2]["note"] == "no check kind for it"
    md = rep.to_markdown()
    assert "Step coverage: 2/3 displayed proof steps checked (67%)" in md
    assert "| limit | Thm. 1 | proof of Thm. 1, last display | unchecked | — |" in md


def test_undecided_identity_and_cannot_fail_are_not_checked(tmp_path):
    paper = load_file(_write(tmp_path, HEAD + STEPS))

    def f(check, severity, reason=""):
        return Finding("toystep", check, "compare", severity, "", "", reason=reason)
    for grades, want in [({"holds": ("warning", "undecided"), "false_step": ("identity", "identity")},
                          ["undecided", "undecided", "unchecked"]),
                         ({"holds": ("cannot fail", "cannot fail"), "false_step": ("identity", "identity")},
                          ["no evidence", "no evidence", "unchecked"]),
                         ({"holds": ("warning", "looser constant"), "false_step": ("note", "reading: garbled")},
                          ["checked", "checked", "unchecked"])]:
        res = [f(c, *g) for c, g in grades.items()]
        sc = step_coverage(paper, res)
        assert [s["status"] for s in sc["steps"]] == want
        assert sc["checked"] == want.count("checked")
    assert [s["status"] for s in step_coverage(paper)["steps"]] == ["declared", "declared", "unchecked"]


@pytest.mark.parametrize("bad, msg", [
    (STEPS.replace('checks = ["holds"]', 'checks = ["hodls"]'), "step 'amgm': checks names unknown check 'hodls'; did you mean holds?"),
    (STEPS.replace('id = "half"', 'id = "amgm"'), "step 'amgm': duplicate step id"),
    (STEPS.replace('result = "Lemma 1"', 'result = "Lemma 9"'), "step 'amgm': result 'Lemma 9' is not listed in [paper] results"),
    (STEPS.replace('place = "proof of Lemma 1, eq. (3)"', 'plase = "eq. (3)"'), "step 'amgm': missing field(s) place"),
    (STEPS.replace('step = "x <= 1/2"', 'step = "x <= 1/2"\nchecked = true'), "step 'half': unknown field(s) checked"),
    (STEPS.replace('id = "limit"', 'id = "no limit"'), "step 'no limit': id 'no limit' must be an identifier"),
    (STEPS.replace('place = "proof of Thm. 1, second display"', 'place = " "'), "step 'half': place must not be empty"),
    ('\n[steps]\nid = "x"\n', "[[steps]]: steps must be an array of tables [[steps]]"),
])
def test_a_malformed_step_is_one_error_line(tmp_path, bad, msg):
    p = _write(tmp_path, HEAD + bad)
    with pytest.raises(FormulaFileError) as e:
        load_file(p)
    assert msg in str(e.value) and "\n" not in str(e.value) and str(e.value).startswith("toystep.toml: ")


def test_cli_names_the_misspelled_check_in_one_line(tmp_path):
    p = _write(tmp_path, HEAD + STEPS.replace('"false_step", "holds"', '"false_stp", "holds"'))
    r = cli(["--formulas", str(p), "check", "toystep", "--coverage"])
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().count("\n") == 0 and "checks names unknown check 'false_stp'" in r.stderr


def test_packaged_papers_declare_their_steps():
    """Every packaged paper lists displayed proof steps; the counts the coverage reports
    (declared, without a run) equal those read straight from the TOML."""
    from boundcalc.registry import get_registry
    reg = get_registry()
    root = Path(__file__).resolve().parents[3] / "formulas"
    for key in ("anon2025", "deora2023", "tarzanagh2023", "arda2026"):
        raw = tomllib.loads((root / f"{key}.toml").read_text())["steps"]
        sc = step_coverage(reg.paper(key))
        assert sc["displayed"] == len(raw) >= 10
        assert sum(s["status"] == "declared" for s in sc["steps"]) == sum(bool(s.get("checks")) for s in raw)
        # an unchecked step says why
        assert all(s.get("note") for s in raw if not s.get("checks"))


def test_check_coverage_json_has_step_coverage(tmp_path):
    p = _write(tmp_path, HEAD + STEPS)
    r = cli(["--formulas", str(p), "check", "toystep", "--coverage",
                        "--json"])
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)["step_coverage"]["toystep"]
    assert (d["displayed"], [s["status"] for s in d["steps"]]) == (3, ["declared", "declared", "unchecked"])


def test_cli_text_shows_steps_and_step_coverage(tmp_path):
    p = _write(tmp_path, HEAD + STEPS)
    env_cols = {"COLUMNS": "200"}
    import os
    env = {**os.environ, **env_cols}
    r = cli(["--formulas", str(p), "check", "toystep", "--coverage"], env=env)
    assert r.returncode == 0, r.stderr
    assert "steps of toystep: 2/3 displayed proof steps have a check" in r.stdout and "unchecked" in r.stdout
    r = cli(["--formulas", str(p), "check", "toystep",
                        "--fail-on", "never", "--jobs", "1"], env=env)
    assert r.returncode == 0, r.stderr
    assert "step coverage toystep: 2/3 displayed proof steps checked (67%); not checked: limit" in r.stdout
