"""services/asymptotic.py: asymptotic statements, their domain checks, and order gaps."""
import pytest

import boundcalc
from boundcalc.errors import BoundcalcError


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


# ----------------------------------------------------------------- issue 31: multi-layer bounds
NBS = '''
[symbols.d]
description = "depth"
domain = "integer >= 1"
[symbols.h]
description = "width"
domain = "integer >= 1"
[symbols.m]
description = "samples"
domain = "integer >= 1"
[symbols.B]
description = "input norm"
domain = "positive"
[symbols.gamma]
description = "margin"
domain = "positive"
[symbols.delta]
description = "confidence"
domain = "(0, 1)"
[symbols.s]
description = "spectral norm per layer"
domain = "positive"
[symbols.f]
description = "Frobenius/spectral ratio per layer"
domain = "positive"
[symbols.N]
description = "a covering number"
domain = "positive"

# Neyshabur-Bhojanapalli-Srebro 2018, Thm. 1, every layer with spectral norm s and stable rank f
[formulas.margin]
name = "PAC-Bayes margin bound"
kind = "definition"
expr = "sqrt((B**2 * d**2 * h * log(d*h) * s**(2*d) * d * f + log(d*m/delta)) / (gamma**2 * m))"
source = "Thm. 1"

# a covering-number term in the style of Edelman-Goel-Kakade-Zhang 2022
[formulas.cover]
name = "covering term"
kind = "definition"
expr = "sqrt(s**(2*d) * d**3 * B**2 * log(m*h) * log(N) / m) + sqrt(log(N**(d*m*h))/m)"
source = "Thm. 4.2"
'''


@pytest.fixture
def nbs(write_formula_file):
    p = write_formula_file("nbs", NBS)
    return lambda fid: boundcalc.formula(f"nbs.{fid}", formulas_path=[str(p)])


def test_the_pac_bayes_bound_at_s_1_2_answers_in_the_depth(nbs):
    """Was 'the input is nested too deeply' (SymPy's limit recursed). By hand: the first
    term under the root dominates, B^2 d^3 h f (log d + log h) (36/25)^d, so the bound is
    Theta((6/5)^d d^(3/2) sqrt(log d)) with coefficient B sqrt(f h)/(gamma sqrt(m))."""
    r = nbs("margin").asymptotic("d", fixed={"s": "1.2"})
    assert (r.base, r.exponent, r.log_power) == ("6/5", "3/2", "1/2")
    assert r.order == "Theta((6/5)**d*d**(3/2)*sqrt(log(d)))"
    assert r.coefficient == "B*sqrt(f)*sqrt(h)/(gamma*sqrt(m))"
    assert "held as constant(s) of the limit" in r.method and "log(h)" in r.method


def test_which_term_leads_depending_on_a_free_symbol_is_said(nbs):
    """With s free, s^(2d) against the log(d) term depends on s > 1: a refusal naming it."""
    with pytest.raises(BoundcalcError) as e:
        nbs("margin").asymptotic("d")
    assert "depends on the other symbols" in str(e.value) and "s**2" in str(e.value)


def test_logs_of_powers_are_split_before_numbers_enter(nbs):
    """log(N^(d m h)) at N = 10, m = 1000, h = 512 is 512000 d log(10), not the log of a
    512001-digit integer; as m -> oo the first term is Theta(sqrt(log m / m)) and the second
    is sqrt(d h log N) (m-free), so by hand the order is Theta(1) with coefficient
    sqrt(512 d log 10)."""
    import sympy as sp
    r = nbs("cover").asymptotic("m", fixed={"N": "10", "h": "512"})
    assert r.order == "Theta(1)"
    d = sp.Symbol("d", positive=True)
    got = sp.sympify(r.coefficient, locals={"d": d})
    assert sp.simplify(got - sp.sqrt(512 * d * sp.log(10))) == 0
    assert len(r.leading) < 200 and "10**" not in r.leading
    r = nbs("cover").asymptotic("d", fixed={"N": "10", "h": "512", "m": "1000", "s": "1.2"})
    assert r.order == "Theta((6/5)**d*d**(3/2))" and len(r.leading) < 200
