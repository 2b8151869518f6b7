"""check --fail-on undecided and a formula file's [paper] fail_on (issue 31), end to end
through the CLI in process: an undecided check fails the gate, the expected vacuity warning
does not, and the summary line counts the undecided checks by why."""
import json

import pytest
from typer.testing import CliRunner

from boundcalc.cli.app import app, hoist_global_options
from boundcalc.errors import BoundcalcError

HEAD = '''
[symbols.x]
description = "x"
domain = "real"

[symbols.n]
description = "n"
domain = "integer >= 1"

[formulas.bound]
name = "a bound"
kind = "bound"
bounds = "a loss"
direction = "upper"
expr = "10/sqrt(n)"
source = "test"

# 10/sqrt(4) = 5 > 1 (by hand): vacuous at n = 4, an expected warning
[[checks]]
id = "vacuous_at_setting"
kind = "vacuity"
location = "Sec. 1"
description = "vacuous at n = 4"
formula = "bound"
at = { n = "4" }
trivial = "1"
direction = "upper"
'''
# sin x + sin(sqrt 2 x) > -2 is true (both sines = -1 would need x = -pi/2 + 2 pi k and
# sqrt(2) x = -pi/2 + 2 pi j, so sqrt(2) rational) but comes arbitrarily close to -2: no
# interval proof closes and no counterexample exists, so it is undecided
HARD = '''
[[checks]]
id = "hard_true"
kind = "compare"
location = "eq. (2)"
description = "true, but approaches its bound arbitrarily closely"
lhs = "sin(x) + sin(sqrt(2)*x)"
rel = ">"
rhs = "-2"
'''


def cli(path, *args):
    return CliRunner().invoke(app, hoist_global_options(["check", "--formulas", str(path), *args]),
                              catch_exceptions=True)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("gate")
    out = {}
    for key, paper, body in (("gate", "", HEAD + HARD), ("gatefile", 'fail_on = "undecided"\n', HEAD + HARD),
                             ("vaconly", 'fail_on = "undecided"\n', HEAD)):
        p = d / f"{key}.toml"
        p.write_text(f'[paper]\nkey = "{key}"\ntitle = "t"\n{paper}' + body, encoding="utf-8")
        out[key] = p
    return out


def test_fail_on_undecided_fails_on_an_undecided_check_and_names_why(files):
    r = cli(files["gate"], "gate")
    assert r.exit_code == 0, r.output                    # default gate: errors only
    first = r.output.splitlines()[0]
    assert "checks left undecided: 1 (a time budget ran out: 1)" in first or \
        "checks left undecided: 1 (no layer decided" in first, first
    r = cli(files["gate"], "gate", "--fail-on", "undecided")
    assert r.exit_code == 1, r.output
    r = cli(files["gate"], "gate", "--fail-on", "undecided", "--json")
    data = json.loads(r.output)
    assert r.exit_code == 1 and sum(data["undecided"].values()) == 1
    assert data["counts_by_reason"] == {"undecided": 1, "vacuous": 1}


def test_the_vacuity_warning_alone_does_not_trip_the_gate(files):
    r = cli(files["vaconly"], "vaconly")                   # fail_on = "undecided" in the file
    assert r.exit_code == 0, r.output
    assert "1 warning(s)" in r.output and "left undecided" not in r.output
    assert cli(files["vaconly"], "vaconly", "--fail-on", "warning").exit_code == 1


def test_the_file_sets_the_gate_and_the_command_line_wins(files):
    assert cli(files["gatefile"], "gatefile").exit_code == 1
    assert cli(files["gatefile"], "gatefile", "--fail-on", "error").exit_code == 0


def test_a_bad_fail_on_is_a_load_error(tmp_path):
    p = tmp_path / "badgate.toml"
    p.write_text('[paper]\nkey = "badgate"\ntitle = "t"\nfail_on = "undecidable"\n', encoding="utf-8")
    r = cli(p, "badgate")
    assert isinstance(r.exception, BoundcalcError)
    assert "fail_on = 'undecidable'" in str(r.exception) and "badgate.toml" in str(r.exception)
    r = cli(p, "badgate", "--fail-on", "sometimes")
    assert isinstance(r.exception, BoundcalcError)
