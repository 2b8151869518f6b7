"""services/check/order.py: exponential orders c a^x x^b log(x)^c (issue 31), decided by the
mechanism of `asymptotic` (services/asymptotic.leading_order), so that the two agree.

The formula is E = 3 * 4^L * L^3 + L^2 * 2^L: by hand, E / (4^L L^3) -> 3 as L -> oo (the
second term is (1/2)^L / L times the first), so E = Theta(4^L L^3)."""
import math
from fractions import Fraction

import pytest

import boundcalc
from boundcalc.services.check import run_checks

BODY = '''
[symbols.L]
description = "depth"
domain = "integer >= 1"

[formulas.cover]
name = "a covering exponent over L layers"
kind = "definition"
expr = "3*4**L*L**3 + L**2*2**L"
source = "test"
'''


def _check(cid, relation, order):
    return f'''
[[checks]]
id = "{cid}"
kind = "order"
location = "test"
description = "{relation}({order})"
formula = "cover"
var = "L"
order = "{order}"
relation = "{relation}"
'''


CASES = [("right", "Theta", "4**L*L**3", "ok"),
         ("slip", "Theta", "4**L*L**2", "error"),          # the slip: L^2 where L^3 is right
         ("loose", "O", "5**L", "ok"),
         ("too_small", "O", "4**L*L**2", "error"),
         ("big_omega", "Omega", "2**L*L**9", "ok"),
         ("polylog", "Theta", "4**L*L**3*log(L)", "warning"),
         ("polynomial", "Theta", "L**3", "error")]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    p = tmp_path_factory.mktemp("order") / "exporder.toml"
    p.write_text('[paper]\nkey = "exporder"\ntitle = "t"\n' + BODY
                 + "".join(_check(c, r, o) for c, r, o, _ in CASES), encoding="utf-8")
    return p, {f.check: f for f in run_checks("exporder", formulas_path=[str(p)], jobs=1).results}


@pytest.mark.parametrize("cid,relation,order,grade", CASES)
def test_exponential_orders_are_decided(report, cid, relation, order, grade):
    f = report[1][cid]
    assert f.severity == grade, (f.message, f.evidence)
    row = f.evidence["per_variable"][0]
    assert row["exact"] == "Theta((4)**L*L**3)", row


def test_check_agrees_with_asymptotic(report):
    r = boundcalc.formula("exporder.cover", formulas_path=[str(report[0])]).asymptotic("L")
    assert (r.base, r.exponent, r.log_power, r.coefficient) == ("4", "3", "0", "3")


@pytest.mark.parametrize(("key", "limit", "x", "expected"), [
    ((Fraction(1, 2), 0), "oo", 16, 4.0),                 # d^(1/2), not d**1/2 = d/2 = 8
    ((Fraction(3, 2), 0), "oo", 4, 8.0),
    ((Fraction(-1), 0), "oo", 4, 0.25),
    ((Fraction(1), Fraction(1, 2)), "oo", 4, 4 * math.log(4) ** 0.5),
    ((Fraction(1), 0), "0", 4, 0.25),                     # as v -> 0 the growth is in 1/v
])
def test_a_growth_prints_as_text_that_reads_back_as_that_power(key, limit, x, expected):
    """The exact growth in an order finding (order._core) must parse back to the power it
    names: "Theta(d**1/2)" was printed for d^(1/2), which reads as d/2."""
    from boundcalc.backends import mp
    from boundcalc.expr.parser import parse
    from boundcalc.services.check.order import _core
    node = parse(_core(key, "v", limit), allow_relation=False, where="test")
    assert float(mp.evaluate(node, {"v": Fraction(x)}, digits=20)) == pytest.approx(expected, rel=1e-12)
