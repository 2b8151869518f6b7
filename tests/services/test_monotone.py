"""services/monotone/: evidence levels (proved, certified, sampled) and counterexamples."""
import mpmath
import pytest

import boundcalc


def test_beta1_increasing_in_R_is_proved():
    r = boundcalc.formula("deora2023.beta1").monotone("R")
    assert (r.verdict, r.evidence) == ("increasing", "proved")


@pytest.mark.parametrize("fid,var,verdict", [
    ("deora2023.beta2", "H", "decreasing"),
    ("deora2023.gamma_attn", "eps", "decreasing"),
    ("deora2023.beta3", "theta_2inf", "increasing"),
    ("deora2023.train_loss_thm1", "K", "decreasing"),
])
def test_proved_verdicts(fid, var, verdict):
    r = boundcalc.formula(fid).monotone(var)
    assert (r.verdict, r.evidence) == (verdict, "proved")


def _frac(s):
    num, _, den = s.partition("/")
    return mpmath.mpf(num) / mpmath.mpf(den or 1)


def test_non_monotone_has_a_certified_counterexample():
    """'neither' is shown by two certified pairs: one where f rises, one where it falls."""
    f = boundcalc.formula("deora2023.gamma_star")
    r = f.monotone("zeta")
    assert r.verdict == "neither" and r.evidence == "counterexample"
    for key, rises in (("increasing_pair", True), ("decreasing_pair", False)):
        ce = r.counterexample[key]
        pt = dict(ce["point"])
        with mpmath.workdps(30):
            f1 = f.evaluate(zeta=ce["zeta_1"], **pt, digits=20).mpf
            f2 = f.evaluate(zeta=ce["zeta_2"], **pt, digits=20).mpf
            assert _frac(ce["zeta_1"]) < _frac(ce["zeta_2"])
        assert (f2 > f1) if rises else (f2 < f1)


def test_sampled_is_never_called_proved(write_formula_file):
    # sin(x)+2x is increasing (derivative cos x + 2 > 0) but SymPy's assumptions cannot prove it
    p = write_formula_file("mono", '''
[symbols.x]
description = "x"
domain = "positive"

[formulas.f]
name = "f"
kind = "definition"
expr = "sin(x) + 2*x"
source = "test"
''')
    r = boundcalc.formula("mono.f", formulas_path=[str(p)]).monotone("x")
    assert r.verdict == "increasing"
    # SymPy's sign rules cannot prove it; the SMT layer can (cos(x) >= -1), and says so
    if r.evidence == "proved":
        assert "SMT" in r.detail or "interval" in r.detail
    if r.evidence == "sampled":
        assert "NOT a proof" in r.describe()


def test_certified_on_a_box():
    r = boundcalc.formula("deora2023.B_Phi").monotone("n", box={"n": ("2", "1000")})
    assert r.verdict == "increasing" and r.evidence in ("proved", "certified")


# ----------------------------------------------------------------- issue 31: sampling names no direction
from fractions import Fraction
from types import SimpleNamespace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.services.monotone import monotone
from boundcalc.verdicts import Direction

_PAIRS = (("increasing_pair", True), ("decreasing_pair", False))


def _check_pairs(text, var, r):
    """Every pair a verdict prints is re-evaluated at 40 digits with mpmath (the formula's
    text read by SymPy and evaluated by mpmath, not by boundcalc's evaluator): it moves as stated."""
    import sympy
    expr = sympy.sympify(text)
    names = sorted(str(s) for s in expr.free_symbols)
    fn = sympy.lambdify([sympy.Symbol(n) for n in names], expr, modules="mpmath")
    for key, rises in _PAIRS:
        p = (r.counterexample or {}).get(key)
        if not p:
            continue
        with mpmath.workdps(40):
            at = {k: _frac(v) for k, v in p["point"].items()}
            f1, f2 = (fn(*({**at, var: _frac(p[f"{var}_{i}"])}[n] for n in names)) for i in (1, 2))
            assert _frac(p[f"{var}_1"]) < _frac(p[f"{var}_2"])
            assert (f2 > f1) if rises else (f2 < f1), (text, key, p, f1, f2)


@st.composite
def bumps(draw):
    """A positive sum of Gaussian bumps in x with centres inside [-3, 3] (so f rises on the
    left of the box [-6, 6] and falls on its right: non-monotone in x for every y, z),
    each bump times a positive factor of the other free symbols y, z."""
    k = draw(st.integers(1, 3))
    factors = ["1", "y", "(1 + z**2)", "exp(y/4)", "y*z", "(z + 1/y)"]
    terms = []
    for _ in range(k):
        c = draw(st.sampled_from(["1", "3", "1/2", "40"]))
        a = draw(st.sampled_from(["-3", "-1", "0", "1/2", "2", "3"]))
        w = draw(st.sampled_from(["1", "4", "1/4", "9"]))
        g = draw(st.sampled_from(factors))
        terms.append(f"{c}*{g}*exp(-{w}*(x - ({a}))**2)")
    return " + ".join(terms)


@settings(max_examples=8, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(bumps(), st.integers(0, 1000))
def test_a_sum_of_bumps_is_never_given_a_direction(text, seed):
    node = parse(text, allow_relation=False)
    pos = Domain(lo=Fraction(0), lo_closed=False)
    table = {"x": SimpleNamespace(domain=Domain(), default=None),
             "y": SimpleNamespace(domain=pos, default=None), "z": SimpleNamespace(domain=pos, default=None)}
    f = SimpleNamespace(id="bumps.f", expr=node, symbol_table=table)
    r = monotone(f, "x", box={"x": ("-6", "6")}, seed=seed)
    assert r.direction in (Direction.NEITHER, Direction.UNKNOWN), (text, r.verdict, r.evidence, r.detail)
    out = r.describe()
    assert " is increasing" not in out and " is decreasing" not in out, out
    _check_pairs(text, "x", r)
    if r.direction is Direction.NEITHER:
        assert r.evidence == "counterexample" and set(r.counterexample) == {"increasing_pair", "decreasing_pair"}


def test_a_narrow_bump_among_free_symbols_is_neither(write_formula_file):
    """The issue's shape: a bound that rises and then falls in d, but only where another
    free symbol T sits in a narrow window (exp(-100 (T - 50)^2)); f(5) = 1422.9 and
    f(20) = 14.59 at T = 50, m = 1 (computed by hand below)."""
    text = "d/10 + 1000*d**2*exp(-d/2)*exp(-100*(T - 50)**2)*log(1 + m)"
    with mpmath.workdps(30):
        v = lambda d: d / 10 + 1000 * d ** 2 * mpmath.exp(-mpmath.mpf(d) / 2) * mpmath.log(2)
        assert abs(v(5) - mpmath.mpf("1422.92463406056")) < 1e-9 and abs(v(20) - mpmath.mpf("14.5875333249944")) < 1e-9
    p = write_formula_file("bump", f'''
[symbols.d]
description = "depth"
domain = "integer >= 1"

[symbols.m]
description = "width"
domain = "integer >= 1"

[symbols.T]
description = "steps"
domain = "positive"

[formulas.f]
name = "f"
kind = "definition"
expr = "{text}"
source = "test"
''')
    r = boundcalc.formula("bump.f", formulas_path=[str(p)]).monotone("d")
    assert r.direction is Direction.NEITHER and r.evidence == "counterexample", r.describe()
    assert "certified pair: f falls from d =" in r.describe()
    _check_pairs(text, "d", r)


def test_a_sampled_verdict_names_no_direction(monkeypatch):
    """With every proof layer out of the way (monkeypatched to 'not proved'), an increasing
    function gets 'no decrease found in N samples on BOX', never 'increasing'."""
    import boundcalc.services.monotone.sign as M
    from boundcalc.prover import decide
    from boundcalc.prover.decide import Decision
    monkeypatch.setattr(M, "prove_sign", lambda e: None)
    monkeypatch.setattr(M, "_sign_by_monotone_factors", lambda *a: None)
    monkeypatch.setattr(decide, "decide_relation", lambda *a, **k: Decision("unknown", "none", "unknown (test)"))
    table = {"x": SimpleNamespace(domain=Domain(), default=None),
             "y": SimpleNamespace(domain=Domain(lo=Fraction(0), lo_closed=False), default=None)}
    f = SimpleNamespace(id="t.f", expr=parse("y*x + x**3"), symbol_table=table)
    r = monotone(f, "x", box={"x": ("-2", "2"), "y": ("1", "3")})
    assert r.direction is Direction.NO_DECREASE_FOUND and r.direction.leans is Direction.INCREASING
    assert r.evidence == "sampled" and r.samples > 1000
    out = r.describe()
    assert out.startswith(f"t.f: no decrease found in x in {r.samples} samples on ") and "increasing" not in out.split("\n")[0]
    assert r.to_json()["direction"] == "no decrease found"
    _check_pairs("y*x + x**3", "x", r)        # the certified rising pair it prints


def test_the_result_keeps_direction_and_region_apart_and_prints_the_old_verdict():
    """The record holds a Direction member and the scope; the printed verdict (the JSON key
    'verdict', written by hand here) adds 'on the default box only' exactly for a direction
    on the default box, and the JSON keeps its key order."""
    import json

    from boundcalc.services.monotone import MonotoneResult
    from boundcalc.verdicts import MonotoneEvidence
    r = MonotoneResult("p.f", "x", "decreasing", "certified", "-1", "d", {"x": ("0.0", "1.0")},
                       scope="default box")
    assert r.direction is Direction.DECREASING and r.evidence is MonotoneEvidence.CERTIFIED
    assert r.verdict == "decreasing on the default box only"
    assert MonotoneResult("p.f", "x", "no decrease found", "sampled", "1", "d", scope="default box",
                          samples=9).verdict == "no decrease found"
    assert MonotoneResult("p.f", "x", "increasing", "proved", "1", "d").verdict == "increasing"
    assert MonotoneResult("p.f", "x", "increasing", "certified", "1", "d", scope="box").verdict == "increasing"
    got = json.loads(json.dumps(r.to_json(), default=str))
    assert list(got) == ["id", "var", "verdict", "evidence", "derivative", "detail", "box", "counterexample",
                         "scope", "asked", "samples", "setting", "direction"]
    assert got["verdict"] == "decreasing on the default box only" and got["direction"] == "decreasing"
    with pytest.raises(ValueError):
        MonotoneResult("p.f", "x", "decreasing on the default box only", "certified", "-1", "d")
