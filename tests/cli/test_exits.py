"""Search ranges (require --from/--to, monotone --box with inf) and the documented exit
statuses of require, monotone and verify, end to end (issue 18). Expected values are
computed here with mpmath at 50 digits, not taken from boundcalc."""
from __future__ import annotations

import json
import os

import mpmath
import pytest

from boundcalc.cli.exits import Exit

ENV = {k: v for k, v in os.environ.items() if not k.startswith("BOUNDCALC") or k == "BOUNDCALC_REGISTRY_CACHE"}

FILE = '''[paper]
key = "logn"
title = "log n / sqrt n"
authors = "a"
reference = "template: none"
text = "none"

[symbols.n]
description = "samples"
latex = "n"
domain = "integer >= 1"

[symbols.x]
description = "a real size"
latex = "x"
domain = "positive"

[symbols.u]
description = "a real"
latex = "u"
domain = "real"

[formulas.gap]
name = "log n / sqrt n (rises up to n = e^2, falls after)"
kind = "bound"
direction = "upper"
expr = "log(n)/sqrt(n)"
source = "test"
status = "as printed"

[formulas.gapx]
name = "log x / sqrt x"
kind = "bound"
direction = "upper"
expr = "log(x)/sqrt(x)"
source = "test"
status = "as printed"

[formulas.sq]
name = "(u - 3)^2"
kind = "definition"
expr = "(u - 3)**2"
source = "test"
status = "as printed"

[settings.s]
name = "s"
source = "test"
default = true
solve_for = "n"
values = {}
requirements = []
'''


@pytest.fixture(scope="module")
def ffile(tmp_path_factory):
    p = tmp_path_factory.mktemp("exits") / "logn.toml"
    p.write_text(FILE)
    return str(p)


@pytest.fixture(autouse=True)
def _fifty_digits():
    """Hand values at 50 digits, in a local precision (the global mpmath context is left alone)."""
    with mpmath.workdps(50):
        yield


def run(ffile, *args):
    from support import cli  # the real entry point, in this process
    return cli(["--formulas", ffile, *args], env=ENV)


def g(n):
    return mpmath.log(n) / mpmath.sqrt(n)


def test_require_not_monotone_over_the_domain_exits_3(ffile):
    p = run(ffile, "require", "n", "--setting", "s", "--target", "gap <= 0.1")
    assert p.returncode == Exit.NOT_MONOTONE == 3, p.stderr
    assert "not monotone in n" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    # the counterexample in the formula's own terms: values of log(n)/sqrt(n), checked by hand
    import re
    pairs = re.findall(r"(-?[0-9.e+-]+) at n = (\d+)", p.stderr)
    assert len(pairs) == 4 and "log(n)/sqrt(n) is" in p.stderr, p.stderr
    for v, n in pairs:
        assert abs(float(v) - float(g(int(n)))) <= 1e-5 * max(1.0, abs(float(v))), (v, n)
    assert "(it rises)" in p.stderr and "(it falls)" in p.stderr


def test_require_from_answers_on_the_range(ffile):
    p = run(ffile, "require", "n", "--setting", "s", "--target", "gap <= 0.1", "--from", "8", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    n = d["n"]
    assert g(n) <= mpmath.mpf("0.1") < g(n - 1) and n - 1 >= 8          # the least n >= 8, by hand
    assert d["range"] == "n in [8, +inf) (integers)"
    # VAR=VALUE and an explicit inf give the same; a real variable: the root of log x/sqrt x = 0.1
    p = run(ffile, "require", "x", "--setting", "s", "--target", "gapx <= 0.1", "--from", "x=8", "--to", "inf",
            "--json")
    assert p.returncode == 0, p.stderr
    root = mpmath.findroot(lambda x: g(x) - mpmath.mpf("0.1"), 8100)
    assert abs(mpmath.mpf(json.loads(p.stdout)["x"]) - root) < mpmath.mpf(10) ** -40 * root


def test_require_no_value_in_the_range_exits_4(ffile):
    # on [8, 100] log n/sqrt n >= log(100)/10 = 0.46 > 0.1: no n
    assert g(100) > mpmath.mpf("0.1")
    p = run(ffile, "require", "n", "--setting", "s", "--target", "gap <= 0.1", "--from", "8", "--to", "100")
    assert p.returncode == Exit.NO_ANSWER == 4
    assert "no n in the range n in [8, 100]" in p.stderr and len(p.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args,needle", [
    (("--from", "0"), "outside the domain of n"),
    (("--from", "inf"), "cannot be the lower end"),
    (("--from", "100", "--to", "8"), "reversed range"),
    (("--from", "m=8"), "not m"),
    (("--from", "8.5"), "outside the domain of n"),
])
def test_require_bad_range_is_one_line_exit_2(ffile, args, needle):
    p = run(ffile, "require", "n", "--setting", "s", "--target", "gap <= 0.1", *args)
    assert p.returncode == 2 and needle in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_monotone_exit_statuses_and_unbounded_box(ffile):
    # (u - 3)^2: neither over the real line (3), increasing on [3, inf) proved (0)
    p = run(ffile, "monotone", "logn.sq", "--var", "u", "--json")
    assert p.returncode == 3 and json.loads(p.stdout)["direction"] == "neither"
    p = run(ffile, "monotone", "logn.sq", "--var", "u", "--box", "u=3:inf", "--json")
    d = json.loads(p.stdout)
    assert p.returncode == 0 and (d["direction"], d["evidence"], d["scope"]) == ("increasing", "proved", "box")
    assert d["box"]["u"] == ["3", "inf"] and d["asked"] == "u in [3, +inf)"
    # on (-inf, 3]: decreasing
    p = run(ffile, "monotone", "logn.sq", "--var", "u", "--box", "u=-inf:3", "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["direction"] == "decreasing"
    # log n/sqrt n on [8, inf) is decreasing: d/dn = (2 - log n)/(2 n^{3/2}) and e^2 < 8, so the
    # factor 2 - log n is < 0 at 8 and falls: proved on the whole unbounded range
    assert mpmath.e ** 2 < 8 and 2 - mpmath.log(8) < 0
    p = run(ffile, "monotone", "logn.gap", "--var", "n", "--box", "n=8:inf", "--json")
    d = json.loads(p.stdout)
    assert p.returncode == 0 and (d["direction"], d["evidence"], d["scope"]) == ("decreasing", "proved", "box")
    # a near miss: on [7.3, inf) log x/sqrt x still rises up to e^2 = 7.389...: never 'proved'
    assert g(mpmath.mpf("7.3")) < g(mpmath.e ** 2)
    p = run(ffile, "monotone", "logn.gapx", "--var", "x", "--box", "x=7.3:inf", "--json")
    d = json.loads(p.stdout)
    assert p.returncode == 3 and d["direction"] == "neither" and d["evidence"] == "counterexample"
    # on [1, inf) it rises (1 -> 2) and falls (101 -> 102): neither, exit 3
    p = run(ffile, "monotone", "logn.gap", "--var", "n", "--box", "n=1:inf", "--json")
    assert p.returncode == 3 and json.loads(p.stdout)["direction"] == "neither"
    assert g(1) < g(2) and g(101) > g(102)


def test_verify_exit_statuses(ffile):
    assert run(ffile, "verify", "x**2", ">=", "x", "--assume", "x>=1").returncode == 0      # proved
    assert run(ffile, "verify", "x**2", ">=", "x").returncode == 4                         # x = 1/2
    p = run(ffile, "verify", "x", ">=", "5", "--assume", "x + y >= 2", "--assume", "x + y <= 1")
    assert p.returncode == 5 and "VACUOUS" in p.stdout


def test_help_states_the_exit_statuses(ffile):
    for cmd, words in ((["require"], ("3 not monotone", "4 no value", "5 undecided")),
                       (["monotone"], ("3 for 'neither'", "5 for anything less")),
                       (["verify"], ("Exit 0 proved, 4 disproved, 5 unknown",))):
        out = " ".join(run(ffile, *cmd, "--help").stdout.split())
        for w in words:
            assert w in out, (cmd, w, out)
    out = " ".join(run(ffile, "--help").stdout.split())
    for words in ("3 not monotone", "4 no answer", "5 unknown"):
        assert words in out, out


def test_python_api_ranges():
    """The same ranges from Python: Formula.solve(within=...), require(within=...), and
    Formula.monotone with an infinite box end. Least n by hand from Cor. 1 as the template
    states it: (2 C^2 B^2 d + log(1/delta))/epsilon^2 = (200 + log 20)/0.01 = 20299.57..., so 20300."""
    from pathlib import Path

    import boundcalc
    from boundcalc.errors import UnsatisfiableError
    from boundcalc.services.require import require
    toml = [str(Path(__file__).resolve().parents[2] / "examples" / "my_paper.toml")]
    least = int(mpmath.ceil((200 + mpmath.log(20)) / mpmath.mpf("0.01")))
    assert least == 20300
    f = boundcalc.formula("my_paper.samples_cor1", formulas_path=toml)
    vals = {"d": 100, "B": 1, "delta": "0.05", "C": 1, "epsilon": "0.1"}
    assert f.solve("n", within=(1, "inf"), **vals).value == least
    assert f.solve("n", within=(21000, None), **vals).value == 21000         # holds at the range's end
    with pytest.raises(UnsatisfiableError, match="range n in \\[1, 100\\]"):
        f.solve("n", within=(1, 100), **vals)
    r = require("my_paper", "toy", {"epsilon": "0.1"}, var="n", formulas_path=toml, within=(50, None))
    assert r.binding.solution.value == least and r.search_range == "n in [50, +inf) (integers)"
    m = boundcalc.formula("my_paper.gen_gap", formulas_path=toml).monotone("n", box={"n": (8, "inf")})
    assert (m.direction, m.evidence, m.scope, m.box["n"]) == ("decreasing", "proved", "box", ("8", "inf"))
