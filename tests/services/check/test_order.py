"""services/check/order.py: exponential orders c a^x x^b log(x)^c (issue 31), decided by the
mechanism of `asymptotic` (services/asymptotic.leading_order), so that the two agree.

The formula is E = 3 * 4^L * L^3 + L^2 * 2^L: by hand, E / (4^L L^3) -> 3 as L -> oo (the
second term is (1/2)^L / L times the first), so E = Theta(4^L L^3)."""
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
