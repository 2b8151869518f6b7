"""The SMT layer's facts about factorial, gamma and binomial, each checked with mpmath at
50 digits (a wrong fact would let z3 prove false things), and the layer's handling of
indexed symbols and sums over numeric ranges."""
from fractions import Fraction as F

import mpmath
import pytest

from boundcalc.expr.domains import parse_domain
from boundcalc.expr.parser import parse
from boundcalc.prover.facts import MP_KIT
from boundcalc.prover.smt import (
    BINOMIAL_INTEGER_FACTS,
    FACTORIAL_INTEGER_FACTS,
    GAMMA_FACTS,
    _integer_valued,
    decide_smt,
)


@pytest.fixture(autouse=True)
def _fifty_digits():
    """50 digits for this module's tests, in a local precision (a module-level setting would
    change every other module's precision from collection on)."""
    with mpmath.workdps(50):
        yield


def _reals():
    pts = [mpmath.mpf(k) / 64 for k in range(-320, 1281) if k % 64]            # non-integers in (-5, 20)
    pts += [mpmath.mpf(k) for k in range(1, 60)]
    pts += [mpmath.mpf("1.4616321449683623412626595423"), mpmath.mpf("1e-30"), mpmath.mpf("1e6")]
    pts += [mpmath.mpf(1) + mpmath.mpf(10) ** -k for k in range(1, 30)] + [mpmath.mpf(2) - mpmath.mpf(10) ** -k for k in range(1, 30)]
    return pts


@pytest.mark.parametrize("label,fact", GAMMA_FACTS, ids=[lb for lb, _ in GAMMA_FACTS])
def test_gamma_fact(label, fact):
    for g in _reals():
        assert fact(g, mpmath.gamma(g), MP_KIT), (label, g)


@pytest.mark.parametrize("label,fact", FACTORIAL_INTEGER_FACTS, ids=[lb for lb, _ in FACTORIAL_INTEGER_FACTS])
def test_factorial_integer_fact(label, fact):
    for n in range(200):
        assert fact(mpmath.mpf(n), mpmath.factorial(n), MP_KIT), (label, n)


@pytest.mark.parametrize("label,fact", BINOMIAL_INTEGER_FACTS, ids=[lb for lb, _ in BINOMIAL_INTEGER_FACTS])
def test_binomial_integer_fact(label, fact):
    for n in range(40):
        for k in range(45):
            assert fact(mpmath.mpf(n), mpmath.mpf(k), mpmath.binomial(n, k), MP_KIT), (label, n, k)


def test_the_facts_can_fail():
    """A wrong fact of the same shape is caught by the same loops (the checks above are not
    vacuous): n! >= 2n for integers fails at n = 1, gamma(g) >= 0.89 fails at 1.5."""
    assert not all(mpmath.factorial(n) >= 2 * n for n in range(10))
    assert not all(mpmath.gamma(g) >= mpmath.mpf("0.89") for g in _reals() if g > 0)


def test_integer_valued():
    doms = {"n": parse_domain("integer >= 1"), "x": parse_domain("positive")}
    assert _integer_valued(parse("n + 1"), doms) and _integer_valued(parse("2*n**2 - n"), doms)
    assert _integer_valued(parse("factorial(n) + floor(x)"), doms)
    assert not _integer_valued(parse("n/2"), doms) and not _integer_valued(parse("x + n"), doms)


def test_real_argument_gets_no_integer_fact():
    """For a real x, x! >= 1 is false (Gamma(3/2) = 0.886): the layer must not prove it."""
    doms = {"x": parse_domain("positive")}
    r = decide_smt(parse("factorial(x) - 1"), ">=", doms)
    assert r.status != "proved"
    doms = {"n": parse_domain("integer >= 0")}
    assert decide_smt(parse("factorial(n) - 1"), ">=", doms).status == "proved"


def test_sums_over_numeric_ranges_and_components():
    doms = {"s": parse_domain("positive"), "x": parse_domain("positive")}
    assert decide_smt(parse("sum(s[i], i, 1, 3) - s[2]"), ">", doms).status == "proved"
    assert decide_smt(parse("sum(x**i, i, 0, 3) - 1 - x"), ">", doms).status == "proved"
    r = decide_smt(parse("sum(s[i], i, 1, 3) - 3*s[1]"), ">=", doms)
    assert r.status != "proved" and r.model is None        # no symbol model: components are not symbols
    assert decide_smt(parse("sum(x, i, 1, 40)"), ">", doms).status == "unknown"     # beyond the expansion


def test_components_are_independent_variables_in_every_layer():
    """s[1] - s[2] <= 1/2 on (0, 1]^2 is false (s = (1, 0+)). With one interval for every
    component, branch-and-bound would split s[1] and s[2] together and 'prove' it; the
    components are separated first (expr.indexed.separate), so it is disproved, and the
    counterexample is re-checked here by hand at 50 digits."""
    from boundcalc.services.verify import verify
    r = verify("s[1] - s[2]", "<=", "1/2", ["s[1] <= 1", "s[2] <= 1"])
    assert r.verdict == "disproved"
    with mpmath.workdps(50):
        s1, s2 = (mpmath.mpf(F(r.counterexample[k]).numerator) / F(r.counterexample[k]).denominator
                  for k in ("s[1]", "s[2]"))
        assert 0 < s1 <= 1 and 0 < s2 <= 1 and s1 - s2 > mpmath.mpf(1) / 2
    assert verify("s[1] - s[2]", "<=", "1", ["s[1] <= 1", "s[2] <= 1"]).verdict == "proved"
    # AM <= max over three components (true), and a sum against one component (false)
    assert verify("max(s[i], i, 1, 3)", ">=", "sum(s[i], i, 1, 3)/3", []).verdict == "proved"
    r = verify("sum(s[i], i, 1, 3)", ">=", "3*s[1]", [])
    assert r.verdict == "disproved"
    s = [F(r.counterexample[f"s[{k}]"]) for k in (1, 2, 3)]
    assert sum(s) < 3 * s[0] and all(x > 0 for x in s)


def test_a_sum_over_a_symbolic_range_of_components_goes_to_the_big_operator_layer():
    # each term s_i^2 >= 0 at a generic layer, so the sum over 1 .. n is >= 0 (an empty one is 0),
    # even with n a real (the undeclared default): no count of layers is used
    from boundcalc.services.verify import verify
    r = verify("sum(s[i]**2, i, 1, n)", ">=", "0", [])
    assert r.verdict == "proved" and "big operators, termwise" in r.describe()
    # with x a real (the undeclared default), 1 .. x has floor(x) layers, not x: not proved
    assert verify("sum(1 + 0*s[i], i, 1, x)", "==", "x", []).verdict != "proved"


def test_big_operators_over_a_symbolic_range_are_equal_term_by_term():
    """Congruence (prover/bigops.py, _congruence): sides that agree outside their
    sums/products and whose bodies are equal for a generic component are equal, whatever L.
    (b/s)^(2/3) = b^(2/3)/s^(2/3) for s > 0, b >= 0 (the power of a quotient of nonnegative
    reals; s and b get the default domain, x >= 0). The false variants must never be proved:
    bodies that differ (at b = 1, s = 8: (1/8)^(2/3) = 1/4 but 1/8^(1/3) = 1/2), a different
    range, a body that uses its index as a number, an extra term outside the sums."""
    from boundcalc.services.verify import verify
    prod = "prod(rho[i]*s[i], i, 1, L)"
    a = f"{prod}*sum((b[i]/s[i])**(2/3), i, 1, L)**(3/2)"
    b = f"{prod}*sum(b[i]**(2/3)/s[i]**(2/3), i, 1, L)**(3/2)"
    r = verify(a, "==", b, [])
    assert r.verdict == "proved" and "term by term" in r.describe()
    assert verify("sum(s[i], i, 1, L)", "==", "sum(s[i], i, 1, L)", []).verdict == "proved"
    with mpmath.workdps(50):      # the false body pair, by hand: (1/8)^(2/3) = 1/4 but 1/8^(1/3) = 1/2
        assert mpmath.almosteq((mpmath.mpf(1) / 8) ** (mpmath.mpf(2) / 3), mpmath.mpf(1) / 4, 1e-45)
        assert mpmath.almosteq(1 / mpmath.cbrt(8), mpmath.mpf(1) / 2, 1e-45)
    for x, y in [(a, f"{prod}*sum(b[i]**(2/3)/s[i]**(1/3), i, 1, L)**(3/2)"),
                 ("sum(s[i], i, 1, L)", "sum(s[i], i, 2, L)"),
                 ("sum(i*s[i], i, 1, L)", "sum(s[i]*i, i, 1, L + 1)"),
                 ("sum(s[i], i, 1, L)", "sum(s[i], i, 1, L) + 1")]:
        assert verify(x, "==", y, []).verdict != "proved", (x, y)


@pytest.mark.parametrize("goal, op", [("(-1)**n", ">"), ("(-1)**n - 1", "=="), ("(-2)**n - 2**n", ">="),
                                      ("(-1)**(2*n + 1)", ">")])
def test_a_negative_base_to_an_integer_power_is_no_vacuous_hypothesis(goal, op):
    """With n an integer, b ** n is defined for b < 0 (issue 30): the SMT layer must not take
    b >= 0 as a hypothesis there (it would make these false goals "proved", vacuously)."""
    doms = {"n": parse_domain("integer >= 1")}
    assert decide_smt(parse(goal), op, doms).status != "proved"


def test_minus_one_to_an_integer_power_is_plus_or_minus_one():
    doms = {"n": parse_domain("integer >= 1")}
    assert decide_smt(parse("1 - (-1)**n"), ">=", doms).status == "proved"
    assert decide_smt(parse("(-1)**n + 1"), ">=", doms).status == "proved"


def test_a_base_of_modulus_at_most_one_to_an_integer_power():
    """|b| <= 1, n >= 0 an integer: |b**n| <= 1 (b = -1/2 allowed: defined at integers)."""
    doms = {"n": parse_domain("integer >= 0"), "b": parse_domain("[-1, 1]")}
    assert decide_smt(parse("1 - b**n"), ">=", doms).status == "proved"
    assert decide_smt(parse("b**n - 1/2"), ">=", doms).status != "proved"


def test_a_generalized_term_is_named_where_its_name_is_used():
    # the proof text used the internal name _g0 ("after naming ... sqrt(_g0/n)") without saying what
    # it stands for; now "after generalizing log(1/delta) as _g0"
    from boundcalc.services.verify import verify
    r = verify("sqrt(log(1/delta)/(2*n))", "<=", "sqrt(log(1/delta)/n)", assume=["n >= 1", "delta > 0", "delta < 1"])
    text = str(r.text if hasattr(r, "text") else r)
    assert "proved" in text.lower(), text
    assert "after generalizing log(1/delta) as _g0" in text, text
