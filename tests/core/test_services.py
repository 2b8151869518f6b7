"""Symbolic services: monotone (evidence levels), asymptotic, verify, simplify, require."""
import mpmath
import pytest

import boundcalc
from boundcalc.errors import BoundcalcError, UnsatisfiableError
from boundcalc.services.require import require
from boundcalc.services.verify import verify


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


def test_asymptotic_cor2_needs_log6_heads():
    r = boundcalc.formula("deora2023.heads_cor2").asymptotic("K")
    assert r.exponent == "0" and r.log_power == "6"
    assert r.order == "Theta(log(K)**6)"


def test_asymptotic_together():
    r = boundcalc.formula("deora2023.gen_gap_cor2").asymptotic("n", together={"K": "n"})
    assert (r.exponent, r.log_power) == ("-1", "2")


def test_asymptotic_refuses_a_variable_bounded_above():
    with pytest.raises(BoundcalcError) as e:
        boundcalc.formula("deora2023.gamma_lin_order").asymptotic("zeta")
    assert str(e.value) == ("zeta must be real in (0, 1): its domain is bounded above, so zeta cannot tend "
                            "to infinity; asymptotic gives the order as zeta -> oo")
    assert boundcalc.formula("deora2023.gamma_lin_order").asymptotic("S").order == "Theta(S)"   # S > 0


@pytest.mark.parametrize("with_, message", [
    ("-n", "--with K=-n: K must be an integer >= 1, but -n < 1 for every value of n in its domain"),
    ("1-1/n", "--with K=1-1/n: K must be an integer >= 1, but 1-1/n < 1 for every value of n in its domain"),
    ("2-n", "--with K=2-n: K must be an integer >= 1, but 2-n tends to -oo as n -> oo"),
    ("0", "--with K=0: K = 0 is outside its domain: K must be an integer >= 1"),
    ("1/2", "--with K=1/2: K = 1/2 is outside its domain: K must be an integer >= 1"),
    ("sqrt(2)", "--with K=sqrt(2): K must be an integer >= 1, and sqrt(2) is not an integer"),
])
def test_asymptotic_with_values_outside_the_domain_are_refused(with_, message):
    f = boundcalc.formula("deora2023.gen_gap_cor2")
    with pytest.raises(BoundcalcError) as e:
        f.asymptotic("n", together={"K": with_})
    assert str(e.value) == message


def test_asymptotic_with_values_inside_the_domain_are_kept():
    """gen_gap_cor2 is 17 (2 B_Phi + log K)^2 / (eta gamma^2 n) (the file's expression): K = n
    gives log(n)^2/n, K = 3 and K = 1 + 1/n (which tends to 1 from above) give 1/n."""
    f = boundcalc.formula("deora2023.gen_gap_cor2")
    assert (f.asymptotic("n", together={"K": "n**2"}).exponent,
            f.asymptotic("n", together={"K": "n**2"}).log_power) == ("-1", "2")
    assert f.asymptotic("n", together={"K": "3"}).order == "Theta(1/n)"
    assert f.asymptotic("n", together={"K": "1 + 1/n"}).order == "Theta(1/n)"
    with pytest.raises(BoundcalcError) as e:
        f.asymptotic("n", fixed={"K": "0"})
    assert str(e.value) == "K = 0 is outside its domain: K must be an integer >= 1"


def test_verify_verdicts():
    assert verify("deora2023.beta2", ">=", "deora2023.beta1**2/4", []).verdict == "proved"
    assert verify("x**2", ">=", "x", ["x>=1"]).verdict == "proved"
    r = verify("x**2", ">=", "x", [])
    assert r.verdict == "disproved"
    x = mpmath.mpf(eval_fraction(r.counterexample["x"]))
    assert x ** 2 < x
    assert verify("(a+b)**2", "==", "a**2 + 2*a*b + b**2", []).verdict == "proved"
    assert verify("a + b", "==", "a*b", []).verdict == "disproved"
    with pytest.raises(BoundcalcError, match="REL must be"):
        verify("a", "=<", "b", [])


def eval_fraction(s):
    from fractions import Fraction
    f = Fraction(s)
    return mpmath.mpf(f.numerator) / f.denominator


def test_simplify_returns_equivalent_form():
    s = boundcalc.formula("deora2023.beta2").simplify()
    assert "H" in s.simplified and s.latex


def test_require_heads_defaults_match_hand_computation():
    with mpmath.workdps(60):
        _check_require_defaults()


def _check_require_defaults():
    res = require("deora2023", None, {"d": "16", "T": "8"})
    mp = mpmath
    S, zeta, M, Z, Zmu, Znu, n1, n, delta, K, T, d = (mp.mpf(x) for x in
                                                      ("1", "0.5", "2", "0.1", "0.01", "0.01", "1e8", "1000", "0.01", "1000", "8", "16"))
    R = mp.sqrt(S ** 2 + Z ** 2 + 2 * Znu / M)
    P = (2 * S + Z) * (mp.sqrt(d / n1) + mp.sqrt(mp.log(1 / delta) / n1))
    Zb = max(Zmu, Znu)
    gs = (T * (1 - zeta) * zeta * (zeta * S ** 4 - 7 * Zb * S ** 2 - 12 * Zb ** 2 - 16 * Zb ** 3 / S ** 2)
          / (4 * mp.sqrt(2 * (M + 1))) - P * T ** 2.5 * (S + Z) ** 3 + S * mp.sqrt(T) * (zeta - 2 * (1 - zeta) * Zmu / S ** 2) / mp.sqrt(2))
    B2 = mp.sqrt(T) * (S + P)
    BP = T * R * (S + P) * mp.sqrt(2 * mp.log(n / delta))
    g0 = (2 * BP + mp.log(K)) / (gs / 2)
    cor2 = mp.ceil((d * mp.sqrt(T) * R ** 5 * B2 ** 2 * g0 ** 3) ** 2)
    prop2 = mp.ceil((R ** 4 * T * (S + P) / gs * mp.sqrt(2 * mp.log(n / delta))) ** 2)
    th = B2 + g0
    b3 = 2 * mp.sqrt(T) * d * R ** 3 * (3 * mp.sqrt(d) * R ** 2 * (th + 3 * g0) + 1)
    sketch = mp.ceil((2 * b3 * (3 * g0) ** 2) ** 2)
    got = {r.id.split(".")[1]: r.solution.value for r in res.results}
    assert got == {"heads_cor2": int(cor2), "heads_prop2": int(prop2), "heads_thm1_sketch": int(sketch)}
    assert res.binding.id == "deora2023.heads_thm1_sketch"
    assert {k for k, (_, src) in res.inputs.items() if src == "default"} >= {"S", "zeta", "M", "n", "delta", "K", "C"}


def test_require_no_h_can_work_when_margin_is_not_positive():
    with pytest.raises(UnsatisfiableError, match="no H can work.*gamma_star"):
        require("deora2023", None, {"d": "16", "T": "8", "Z_mu": "0.4", "Z_nu": "0.4"})


def test_require_thm1_and_unknown_input():
    res = require("deora2023", "thm1", {"d": "16", "T": "8", "theta_2inf": "1", "dist0": "1", "R": "1.5"})
    assert {r.id: r.solution.value for r in res.results}["deora2023.heads_thm1"] == 118098
    with pytest.raises(BoundcalcError, match="unknown input --bogus"):
        require("deora2023", "thm1", {"bogus": "1"})
    with pytest.raises(BoundcalcError, match="missing input.*theta_2inf"):
        require("deora2023", "thm1", {"d": "16", "T": "8", "dist0": "1"})
    with pytest.raises(BoundcalcError, match="constraint d >= M \\+ 2"):
        require("deora2023", None, {"d": "3", "T": "8"})
    with pytest.raises(BoundcalcError, match="outside its domain"):
        require("deora2023", None, {"d": "16", "T": "8", "zeta": "1.5"})


def test_order_gap_separates_polylog_from_wrong_power():
    from boundcalc.services.asymptotic import order_gap
    # arda2026 lemma3_rate_m: exact log(m)/sqrt(m) = m^(-1/2) log(m)^1, stated m^(-1/2)
    g = order_gap(("-1/2", "1"), ("-1/2", "0"), "O")
    assert (g["kind"], g["severity"], g["factor"]) == ("polylog", "warning", "1")
    # a wrong power: exact m^(-1/4) against a stated m^(-1/2)
    g = order_gap(("-1/4", "0"), ("-1/2", "0"), "O")
    assert (g["kind"], g["severity"]) == ("power", "error")
    # the stated O holds when the exact order is smaller
    assert order_gap(("-1", "3"), ("-1/2", "0"), "O")["kind"] == "none"
    assert order_gap(("1", "0"), ("1", "0"), "Theta")["kind"] == "none"
    assert order_gap(("1", "-1"), ("1", "0"), "Omega")["kind"] == "polylog"
