"""Transcription checks (services/check/transcription.py): the printed LaTeX against the
expression.

A slip inside a ``\\sum``/``\\prod`` is graded like one outside it: the bound index ``i``
is no name of the paper's that the expression fails to use (it counted as one, and every
such slip became a "names differ" note that passed CI). Expected by hand: at d = 1 and
s_1 = 1/2, sum s_i^3 = 1/8 against sum s_i^2 = 1/4; x^3 against x^2 at x = 2 is 8 against 4."""
from fractions import Fraction

import pytest

from boundcalc.services.check import run_checks

PAPER = r'''[paper]
key = "tr"
title = "test paper"
results = ["Thm. 1"]

[symbols.d]
description = "depth"
domain = "integer >= 1"

[symbols.x]
description = "a size"
domain = "positive"

[symbols.s]
description = "a layer's norm"
domain = "positive"
index = "i"
range = [1, "d"]

[formulas.plain]
name = "no sum"
kind = "definition"
expr = "x**2"
latex = 'Q = x^3'
source = "Thm. 1"

[formulas.withsum]
name = "a slip inside a sum"
kind = "definition"
expr = "sum(s[i]**2, i, 1, d)"
latex = 'R = \sum_{i=1}^{d} s_i^3'
source = "Thm. 1"

[formulas.sum_ok]
name = "a sum as printed"
kind = "definition"
expr = "sum(s[i]**2, i, 1, d)"
latex = 'S = \sum_{i=1}^{d} s_i^2'
source = "Thm. 1"

[formulas.prods]
name = "two products"
kind = "definition"
expr = "prod(s[i], i, 1, d)*prod(s[j], j, 1, d)"
latex = 'T = \prod_{i=1}^{d} s_i \cdot \prod_{j=1}^{d} s_j'
source = "Thm. 1"
'''
CHECKS = "".join(f'''
[[checks]]
id = "t_{f}"
kind = "transcription"
location = "Thm. 1"
description = "the LaTeX of {f}"
formula = "{f}"
''' for f in ("plain", "withsum", "sum_ok", "prods"))


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    p = tmp_path_factory.mktemp("tr") / "tr.toml"
    p.write_text(PAPER + CHECKS, encoding="utf-8")
    return {r.check: r for r in run_checks("tr", formulas_path=[str(p)]).results}


@pytest.mark.parametrize("check", ["t_plain", "t_withsum"])
def test_a_slip_is_an_error_inside_a_sum_as_outside(results, check):
    r = results[check]
    assert (r.severity.value, r.reason) == ("error", "transcription"), (r.severity, r.reason, r.message)
    assert "names differ" not in r.message


def test_the_counterexample_of_the_slip_in_the_sum_is_the_hand_value(results):
    cx = results["t_withsum"].evidence["counterexample"]
    # whatever point is printed, the two sides are sum s_i^3 and sum s_i^2 there, and differ
    pts = {k: v for k, v in cx.items() if k not in ("lhs", "rhs")}
    d = int(pts["d"])
    s = [float(Fraction(pts[f"s[{k}]"])) for k in range(1, d + 1)]
    assert float(cx["lhs"]) == pytest.approx(sum(v ** 3 for v in s), rel=1e-9)
    assert float(cx["rhs"]) == pytest.approx(sum(v ** 2 for v in s), rel=1e-9)
    assert float(cx["lhs"]) != pytest.approx(float(cx["rhs"]), rel=1e-6)


@pytest.mark.parametrize("check", ["t_sum_ok", "t_prods"])
def test_a_sum_or_two_products_as_printed_pass(results, check):
    r = results[check]
    assert r.severity.value in ("ok", "identity"), (r.severity, r.reason, r.message)
