"""The integer layer on its own (prover/integers.py): induction or a real relaxation from n0,
every integer below checked with a certified sign. The false cases go to the layer itself
(in the relation suite the counterexample search meets them first). Expected answers are
worked out by hand in the comments."""
from fractions import Fraction

import mpmath

from boundcalc.backends.exact import evaluate_exact
from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.prover.decide import _real_decider
from boundcalc.backends.mp import evaluate
from boundcalc.prover.integers import opaque_step, prove_integers, ratio_step, shift

Z1 = Domain(integer=True, lo=Fraction(1), lo_closed=True)


def _ints(g, dom, seconds=3.0):
    return prove_integers(parse(g), ">=", "n", {"n": dom}, _real_decider(500, 0), seconds=seconds)


def test_integer_layer_induction_and_exhaustive_part():
    # 3^n - n^3 >= 0: n = 1, 2, 3 give 2, 1, 0; the step holds for n >= 3
    r = _ints("3**n - n**3", Z1)
    assert r is not None and r.status == "proved" and "n\u2080 = 3" in r.how, r
    # 2^n >= n^2 from n = 4 (16 = 16)
    r = _ints("2**n - n**2", Domain(integer=True, lo=Fraction(4), lo_closed=True))
    assert r is not None and r.status == "proved", r


def test_integer_layer_finds_the_integer_where_it_fails():
    # 2^n - n^2 at n = 3 is 8 - 9 = -1: the step from n0 = 4 holds, the exhaustive part fails
    r = _ints("2**n - n**2", Z1)
    assert r is not None and r.status == "disproved" and r.point == {"n": Fraction(3)}, r
    # a bounded domain is checked value by value: 10 - n >= 0 fails at n = 11 only
    r = _ints("10 - n", Domain(integer=True, lo=Fraction(1), lo_closed=True, hi=Fraction(11), hi_closed=True))
    assert r is not None and r.status == "disproved" and r.point == {"n": Fraction(11)}, r


def test_integer_layer_does_not_prove_a_false_tail():
    # n - 50 >= 0 fails at every n < 50 and holds from 50: never "proved" on n >= 1
    r = _ints("n - 50", Z1)
    assert r is None or r.status == "disproved"
    # (log n)^2/n <= 0.5409 fails at n = 7 (0.540938...)
    r = _ints("0.5409 - log(n)**2/n", Z1)
    assert r is None or (r.status == "disproved" and r.point == {"n": Fraction(7)})


def test_shift_splits_constant_base_powers():
    s = shift(parse("3**n - n**3"), "n")
    with mpmath.workdps(30):
        # g(n + 1) at n = 2: 3^3 - 3^3 = 0; at n = 5: 729 - 216 = 513
        assert evaluate_exact(s, {"n": Fraction(2)}) == 0
        assert evaluate_exact(s, {"n": Fraction(5)}) == 513
    assert "3**(n + 1)" not in str(s)


# ---- the ratio step (issue 22, h17): g = A - B, A, B > 0, A(n+1)/A(n) >= B(n+1)/B(n)

def _ratio_by_hand(a, b, k):
    """log(A(k+1)/A(k)) - log(B(k+1)/B(k)) at the integer k, from the functions themselves
    (mpmath, 50 digits), independently of SymPy."""
    with mpmath.workdps(50):
        return (mpmath.log(a(k + 1)) - mpmath.log(a(k))) - (mpmath.log(b(k + 1)) - mpmath.log(b(k)))


def test_ratio_step_is_the_log_ratio_difference():
    cases = [
        ("factorial(n) - 2**(n-1)", mpmath.factorial, lambda k: mpmath.mpf(2) ** (k - 1)),
        ("n**n - factorial(n)", lambda k: mpmath.mpf(k) ** k, mpmath.factorial),
        ("E*sqrt(n)*(n/E)**n - factorial(n)", lambda k: mpmath.e * mpmath.sqrt(k) * (k / mpmath.e) ** k,
         mpmath.factorial),
    ]
    for g, a, b in cases:
        d = ratio_step(parse(g), "n")
        assert d is not None, g
        for k in (2, 3, 10):                   # (at n = 1 the first case's is exactly 0)
            with mpmath.workdps(50):
                got = evaluate(d, {"n": Fraction(k)}, digits=40)
                assert abs(got - _ratio_by_hand(a, b, k)) < mpmath.mpf(10) ** -35, (g, k)
    # n! vs 2^(n-1): log((n+1)!/n!) - log 2 = log(n + 1) - log 2, e.g. log 2 at n = 3
    d = ratio_step(parse("factorial(n) - 2**(n-1)"), "n")
    with mpmath.workdps(50):
        assert abs(evaluate(d, {"n": Fraction(3)}, digits=40) - mpmath.log(2)) < mpmath.mpf(10) ** -35


def test_ratio_step_refuses_what_it_cannot_justify():
    # A = (n - 3) 2^n is not positive for n >= 1: no ratio step
    assert ratio_step(parse("(n - 3)*2**n - n"), "n") is None
    # three terms: not of the form A - B
    assert ratio_step(parse("factorial(n) - 2**n - n"), "n") is None


def test_factorial_relations_by_induction():
    # the first two by the opaque step (n! as F > 0), the third needs the ratio step
    for g in ("factorial(n) - 2**(n-1)",       # 1! = 2^0; (n+1) >= 2 for n >= 1
              "n**n - factorial(n)",            # 1 = 1; (n+1)^(n+1)/n^n = (n+1)(1+1/n)^n >= n + 1
              "factorial(n) - (n/E)**n"):       # 1 >= 1/e; n + 1 >= (n+1)(1+1/n)^n/e as (1+1/n)^n <= e
        r = _ints(g, Z1)
        assert r is not None and r.status == "proved", (g, r)
        assert r.how.startswith("integers: induction from n\u2080 = 1"), r.how
    assert "ratio step" in r.how, r.how


def test_factorial_near_misses_fail_where_the_hand_says():
    # (g, op, the first integer n >= 1 where g op 0 fails, by hand)
    cases = [("factorial(n) - 2**n", ">=", 1, lambda k: mpmath.factorial(k) - 2 ** k),             # 1 < 2
             ("factorial(n) - 3**(n-1)", ">=", 2, lambda k: mpmath.factorial(k) - 3 ** (k - 1)),   # 2 < 3
             ("n**n - factorial(n)", ">", 1, lambda k: mpmath.mpf(k) ** k - mpmath.factorial(k)),  # 1 = 1
             ("factorial(n) - 2.75*(n/E)**n", ">=", 1,                                             # 1 < 1.0117
              lambda k: mpmath.factorial(k) - mpmath.mpf("2.75") * (k / mpmath.e) ** k)]
    for g, op, k, f in cases:
        r = prove_integers(parse(g), op, "n", {"n": Z1}, _real_decider(500, 0), seconds=3.0)
        assert r is not None and r.status == "disproved" and r.point == {"n": Fraction(k)}, (g, r)
        with mpmath.workdps(50):
            v = f(mpmath.mpf(k))
            assert v < 0 or (op == ">" and v == 0), (g, v)
            assert all(f(mpmath.mpf(j)) > 0 or (op == ">=" and f(mpmath.mpf(j)) == 0)
                       for j in range(1, k)), g                                  # the first failure


def test_stirling_bounds_stay_unknown_not_wrong():
    # both true; their ratio steps tend to 0 at infinity (the upper bound's is
    # (n + 1/2) log(1 + 1/n) - 1 >= 0, the lower bound's the negative of it, false):
    # the layer answers nothing rather than something wrong
    for g in ("factorial(n) - sqrt(2*pi*n)*(n/E)**n", "E*sqrt(n)*(n/E)**n - factorial(n)"):
        r = _ints(g, Z1)
        assert r is None or r.status == "proved", (g, r)


# ---- the inductive step with n! as an opaque positive symbol (issue 22, h17)

def test_opaque_step_states_the_step_on_the_integers():
    # at an integer k with F = (k + c)!, the hypothesis is g(k) and the goal g(k + 1),
    # compared with mpmath's factorial / gamma at 50 digits
    cases = [("factorial(n) - 2**n - n", lambda k: mpmath.factorial(k) - 2 ** k - k, lambda k: mpmath.factorial(k), 0),
             ("gamma(n + 1) - n**2", lambda k: mpmath.gamma(k + 1) - k ** 2, lambda k: mpmath.gamma(k + 1), 0),
             ("factorial(n - 1) - 2**(n - 2)", lambda k: mpmath.factorial(k - 1) - mpmath.mpf(2) ** (k - 2),
              lambda k: mpmath.factorial(k - 1), 1)]
    for g, f, fact, n_min in cases:
        hyp, goal, doms, low = opaque_step(parse(g), "n")
        assert low == n_min, (g, low)
        (name,) = doms
        assert doms[name].lo == 0 and not doms[name].lo_closed
        for k in (3, 7):
            env = {"n": Fraction(k), name: Fraction(int(fact(mpmath.mpf(k))))}
            with mpmath.workdps(50):
                assert abs(evaluate(hyp, env, digits=40) - f(mpmath.mpf(k))) < mpmath.mpf(10) ** -30, (g, k)
                assert abs(evaluate(goal, env, digits=40) - f(mpmath.mpf(k + 1))) < mpmath.mpf(10) ** -30, (g, k)
    # another argument (2n): no opaque step
    assert opaque_step(parse("factorial(2*n) - 4**n"), "n") is None


def test_opaque_step_proves_and_the_base_decides():
    Z4 = Domain(integer=True, lo=Fraction(4), lo_closed=True)
    # n! >= 2^n + n from n = 4 (24 >= 20); step (n+1) F >= (n+1)(2^n + n) >= 2^(n+1) + n + 1
    r = _ints("factorial(n) - 2**n - n", Z4)
    assert r is not None and r.status == "proved" and "induction from n\u2080 = 4" in r.how, r
    # on n >= 1 it fails at n = 1, 2, 3 (1 - 3, 2 - 6, 6 - 11): the first is reported
    r = _ints("factorial(n) - 2**n - n", Z1)
    assert r is not None and r.status == "disproved" and r.point == {"n": Fraction(1)}, r
    with mpmath.workdps(50):
        assert [mpmath.factorial(k) - 2 ** k - k for k in (1, 2, 3, 4)] == [-2, -4, -5, 4]
