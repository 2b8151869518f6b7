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
