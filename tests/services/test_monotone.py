"""services/monotone.py: evidence levels (proved, certified, sampled) and counterexamples."""
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
