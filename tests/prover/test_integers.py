"""The integer layer on its own (prover/integers.py): induction or a real relaxation from n0,
every integer below checked with a certified sign. The false cases go to the layer itself
(in the relation suite the counterexample search meets them first). Expected answers are
worked out by hand in the comments."""
from fractions import Fraction

import mpmath

from boundcalc.backends.mp import evaluate
from boundcalc.expr.domains import Domain
from boundcalc.expr.exact import evaluate_exact
from boundcalc.expr.nodes import Rel, Sym
from boundcalc.expr.parser import parse
from boundcalc.expr.printing import to_text
from boundcalc.prover import budget
from boundcalc.prover.decide import _real_decider
from boundcalc.prover.integers import (
    IntegerPair,
    _limit_step,
    applies,
    limit_cross_check,
    limit_steps,
    opaque_step,
    pair_ratio,
    prove_integers,
    ratio_step,
    sequence_limit,
    shift,
)

Z1 = Domain(integer=True, lo=Fraction(1), lo_closed=True)


def _ints(g, dom, seconds=3.0):
    return prove_integers(parse(g), ">=", "n", {"n": dom}, _real_decider(500, 0), seconds=seconds)


def test_integer_layer_induction_and_exhaustive_part():
    # 3^n - n^3 >= 0: n = 1, 2, 3 give 2, 1, 0; the step holds for n >= 3
    r = _ints("3**n - n**3", Z1)
    assert r is not None and r.verdict == "proved" and "n\u2080 = 3" in r.how, r
    # 2^n >= n^2 from n = 4 (16 = 16)
    r = _ints("2**n - n**2", Domain(integer=True, lo=Fraction(4), lo_closed=True))
    assert r is not None and r.verdict == "proved", r


def test_integer_layer_finds_the_integer_where_it_fails():
    # 2^n - n^2 at n = 3 is 8 - 9 = -1: the step from n0 = 4 holds, the exhaustive part fails
    r = _ints("2**n - n**2", Z1)
    assert r is not None and r.verdict == "disproved" and r.point == {"n": Fraction(3)}, r
    # a bounded domain is checked value by value: 10 - n >= 0 fails at n = 11 only
    r = _ints("10 - n", Domain(integer=True, lo=Fraction(1), lo_closed=True, hi=Fraction(11), hi_closed=True))
    assert r is not None and r.verdict == "disproved" and r.point == {"n": Fraction(11)}, r


def test_integer_layer_does_not_prove_a_false_tail():
    # n - 50 >= 0 fails at every n < 50 and holds from 50: never "proved" on n >= 1
    r = _ints("n - 50", Z1)
    assert r is None or r.verdict == "disproved"
    # (log n)^2/n <= 0.5409 fails at n = 7 (0.540938...)
    r = _ints("0.5409 - log(n)**2/n", Z1)
    assert r is None or (r.verdict == "disproved" and r.point == {"n": Fraction(7)})


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
        assert r is not None and r.verdict == "proved", (g, r)
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
        assert r is not None and r.verdict == "disproved" and r.point == {"n": Fraction(k)}, (g, r)
        with mpmath.workdps(50):
            v = f(mpmath.mpf(k))
            assert v < 0 or (op == ">" and v == 0), (g, v)
            assert all(f(mpmath.mpf(j)) > 0 or (op == ">=" and f(mpmath.mpf(j)) == 0)
                       for j in range(1, k)), g                                  # the first failure


def test_stirling_bounds():
    # r(n) = n!/(sqrt(2 pi n)(n/e)^n): r(n + 1)/r(n) = e (n/(n + 1))^(n + 1/2), so the log-ratio
    # is 1 - (n + 1/2) log(1 + 1/n) <= 0 (log(1 + y) >= 2y/(2 + y)): r decreases, to 1
    # (Stirling's formula), so r >= 1: the limit step. The upper bound's ratio e sqrt(n)
    # (n/e)^n/n! increases from 1 at n = 1 (the same log-ratio, negated): the ratio step
    r = _ints("factorial(n) - sqrt(2*pi*n)*(n/E)**n", Z1)
    assert r is not None and r.verdict == "proved", r
    assert "non-increasing from n\u2080 = 1, limit 1 at infinity (SymPy" in r.how, r.how
    r = _ints("E*sqrt(n)*(n/E)**n - factorial(n)", Z1)
    assert r is not None and r.verdict == "proved" and "induction from n\u2080 = 1, ratio step" in r.how, r
    # the log-ratio in the form the bracketing layer decides, log(n + 1) - log(n) as log(1 + 1/n)
    d = ratio_step(parse("E*sqrt(n)*(n/E)**n - factorial(n)"), "n")
    assert "log(1 + 1/n)" in to_text(d) and "log(n)" not in to_text(d), to_text(d)
    with mpmath.workdps(50):
        for k in (1, 7):
            want = (k + mpmath.mpf(1) / 2) * mpmath.log(1 + mpmath.mpf(1) / k) - 1
            assert abs(evaluate(d, {"n": Fraction(k)}, digits=40) - want) < mpmath.mpf(10) ** -35


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
    assert r is not None and r.verdict == "proved" and "induction from n\u2080 = 4" in r.how, r
    # on n >= 1 it fails at n = 1, 2, 3 (1 - 3, 2 - 6, 6 - 11): the first is reported
    r = _ints("factorial(n) - 2**n - n", Z1)
    assert r is not None and r.verdict == "disproved" and r.point == {"n": Fraction(1)}, r
    with mpmath.workdps(50):
        assert [mpmath.factorial(k) - 2 ** k - k for k in (1, 2, 3, 4)] == [-2, -4, -5, 4]


# ---- a monotone sequence and its limit (issue 22, h20)

ZR1 = Domain(False, Fraction(1), True, None, False)          # the reals x >= 1 (the step's region)


def _limit_steps(g):
    node = parse(g)
    return limit_steps(node, "n", ratio_step(node, "n"), shift(node, "n"))


def test_limit_step_ratio_form():
    # ((n + 1)/n)^2 decreases to 1 (log-ratio 2 log(n(n + 2)/(n + 1)^2) < 0): (n + 1)^2 >= n^2
    steps = _limit_steps("(n+1)**2 - n**2")
    ratio = next(s for s in steps if s.form == "ratio")
    with mpmath.workdps(50):                # the sequence is A/B: ((k + 1)/k)^2 at k = 3
        assert abs(evaluate(ratio.seq, {"n": Fraction(3)}, digits=40) - mpmath.mpf(16) / 9) < mpmath.mpf(10) ** -35
    how = _limit_step(ratio, 0, ">=", "n", 1, ZR1, _real_decider(500, 0), 1.0, budget.clock() + 5, {})
    assert how is not None and "non-increasing from n\u2080 = 1, limit 1 at infinity (SymPy" in how, how


def test_limit_step_symmetric_case_through_the_canonical_form():
    # (1 + 1/n)^n <= e reaches the layer as e - (1 + 1/n)^n >= 0: (1 + 1/n)^n increases to e
    # (a non-decreasing sequence lies below its limit), i.e. e/(1 + 1/n)^n decreases to 1
    steps = _limit_steps("E - (1 + 1/n)**n")
    ratio = next(s for s in steps if s.form == "ratio")
    with mpmath.workdps(50):
        for k in (1, 10, 1000):
            assert mpmath.e / (1 + mpmath.mpf(1) / k) ** k > mpmath.e / (1 + mpmath.mpf(1) / (k + 1)) ** (k + 1) > 1
    how = _limit_step(ratio, 0, ">=", "n", 1, ZR1, _real_decider(500, 0), 1.0, budget.clock() + 5, {})
    assert how is not None and "limit 1 at infinity" in how, how


def test_limit_step_difference_form_strict():
    # 1/n + 1/n^2 > 0: it decreases strictly (by 1/n - 1/(n + 1) + ...) to its limit 0, which
    # equals the target, so ">" needs the strict decrease
    steps = _limit_steps("1/n + 1/n**2")
    diff = next(s for s in steps if s.form == "difference")
    how = _limit_step(diff, 0, ">", "n", 1, ZR1, _real_decider(500, 0), 1.0, budget.clock() + 5, {})
    assert how is not None and "strictly non-increasing" in how and "limit 0" in how, how


def test_limit_step_refuses_a_limit_below_the_target():
    # ((n + 1)/n)^2/1.01 decreases to 1/1.01 < 1: (n + 1)^2 >= 1.01 n^2 fails first at n = 201
    # (40804 < 40805.01); 1/n - 1/100 decreases to -1/100: fails at n = 101
    for g, k, f in (("(n+1)**2 - 1.01*n**2", 201, lambda j: (j + 1) ** 2 - mpmath.mpf("1.01") * j * j),
                    ("1/n - 1/100", 101, lambda j: 1 / j - mpmath.mpf(1) / 100)):
        steps = _limit_steps(g)
        for i, st in enumerate(steps):
            assert _limit_step(st, i, ">=", "n", 1, ZR1, _real_decider(500, 0), 1.0, budget.clock() + 5,
                               {}) is None, (g, st.form)
        r = _ints(g, Z1)
        assert r is None or r.verdict == "disproved", (g, r)
        with mpmath.workdps(50):
            assert f(mpmath.mpf(k)) < 0 and f(mpmath.mpf(k - 1)) >= 0, g
            if r is not None:
                assert f(mpmath.mpf(r.point["n"])) < 0, (g, r)


def test_limit_cross_check_catches_a_limit_above_the_values():
    # n!/(sqrt(2 pi n)(n/e)^n) = 1 + 1/(12 n) + ... decreases to 1 (Stirling); SymPy's limit is
    # 1; a claimed limit 1 + 10^-6 lies above the value at n = 10^8 (1 + 8.3e-10), 1 - 10^-6
    # below every value (the check guards the side that matters)
    steps = _limit_steps("factorial(n) - sqrt(2*pi*n)*(n/E)**n")
    ratio = next(s for s in steps if s.form == "ratio")
    assert sequence_limit(ratio, 5.0) == 1
    with mpmath.workdps(50):
        k = mpmath.mpf(10) ** 8
        gap = mpmath.factorial(k) / (mpmath.sqrt(2 * mpmath.pi * k) * (k / mpmath.e) ** k) - 1
        assert mpmath.mpf("8.3e-10") < gap < mpmath.mpf("8.4e-10")
    assert limit_cross_check(ratio, "n", parse("1"), 1)
    assert not limit_cross_check(ratio, "n", parse("1 + 1/1000000"), 1)
    assert limit_cross_check(ratio, "n", parse("1 - 1/1000000"), 1)


def test_finite_limit_refuses_what_is_not_a_finite_real_constant():
    # prover/symbolic.finite_limit, shared with the ends layer: (1 + 1/x)^x -> e, exp(-x) -> 0;
    # x -> oo, sin(x) oscillates (SymPy: AccumBounds(-1, 1)): no limit
    import sympy as sp

    from boundcalc.prover.symbolic import finite_limit
    x = sp.Symbol("x", positive=True)
    assert finite_limit((1 + 1 / x) ** x, x, sp.oo, "-") == sp.E
    assert finite_limit(sp.exp(-x), x, sp.oo, "-") == 0
    assert finite_limit(x, x, sp.oo, "-") is None
    assert finite_limit(sp.sin(x), x, sp.oo, "-") is None


def test_stirling_near_misses_are_never_proved():
    # r(n) = n!/(sqrt(2 pi n)(n/e)^n) decreases to 1: r >= 1.01 fails first at n = 9
    # (r(8) = 1.01047, r(9) = 1.00930), r >= 1.0001 first at n = 834 (r(833) = 1.0001000450)
    for c, k in (("1.01", 9), ("1.0001", 834)):
        r = _ints(f"factorial(n) - {c}*sqrt(2*pi*n)*(n/E)**n", Z1)
        with mpmath.workdps(50):
            def f(j, c=c):
                return mpmath.factorial(j) - mpmath.mpf(c) * mpmath.sqrt(2 * mpmath.pi * j) * (j / mpmath.e) ** j
            assert f(mpmath.mpf(k)) < 0 and f(mpmath.mpf(k - 1)) > 0, c
            assert r is None or (r.verdict == "disproved" and f(mpmath.mpf(r.point["n"])) < 0), (c, r)


# ---- two integer symbols (issue 22, h20): a ratio step in one, the other fixed

ZZ = {"n": Z1, "d": Z1}
LINK = [Rel("<=", Sym("d"), Sym("n"))]


def _pair(g, op=">="):
    node = parse(g)
    which = applies(node, op, dict(ZZ), LINK)
    assert which == IntegerPair("d", "n", True), which
    return prove_integers(node, op, which, dict(ZZ), _real_decider(500, 0), seconds=3.0)


def test_pair_applies_only_to_two_integer_symbols_and_one_link():
    node = parse("binomial(n, d) - (n/d)**d")
    assert applies(node, ">=", dict(ZZ), []) == IntegerPair("d", "n", False)
    assert applies(node, ">=", dict(ZZ), [Rel(">=", Sym("n"), Sym("d"))]) == IntegerPair("d", "n", True)
    assert applies(node, ">=", dict(ZZ), [Rel("<", Sym("d"), Sym("n"))]) is None
    assert applies(node, ">=", {"n": Z1, "d": Domain(lo=Fraction(1), lo_closed=True)}, LINK) is None   # d real
    assert applies(node, ">=", {"n": Z1, "d": Domain(integer=True, lo=Fraction(0), lo_closed=True)}, LINK) is None


def test_pair_ratio_is_the_log_ratio_difference():
    # D at integer points against mpmath's binomial at 50 digits:
    # log(A(s + 1)/A(s)) - log(B(s + 1)/B(s)) in the induction symbol s
    cases = [("(E*n/d)**d - binomial(n, d)", "d", lambda n, d: (mpmath.e * n / d) ** d, mpmath.binomial),
             ("binomial(n, d) - (n/d)**d", "n", mpmath.binomial, lambda n, d: (mpmath.mpf(n) / d) ** d)]
    for g, s, a, b in cases:
        d_node, positive, args, gdoms = pair_ratio(parse(g), s)
        for n, d in ((5, 2), (9, 4), (12, 3)):      # (at d = 1 the second D is exactly 0)
            up = (n + 1, d) if s == "n" else (n, d + 1)
            with mpmath.workdps(50):
                want = (mpmath.log(a(*up)) - mpmath.log(a(n, d))) - (mpmath.log(b(*up)) - mpmath.log(b(n, d)))
                got = evaluate(d_node, {"n": Fraction(n), "d": Fraction(d)}, digits=40)
                assert abs(got - want) < mpmath.mpf(10) ** -35, (g, n, d)
        assert all(x.lo == 0 and not x.lo_closed for x in gdoms.values())
        assert 1 <= len(positive) <= 4 and args      # the ratio of the binomials: SymPy cannot sign it


def test_pair_binomial_bounds():
    # C(n, d) <= (e n/d)^d: induction in d (C(n, d + 1)/C(n, d) = (n - d)/(d + 1) <= e n (d/(d+1))^d
    # /(d + 1) as (1 + 1/d)^d <= e), base d = 1: n <= e n
    r = _pair("(E*n/d)**d - binomial(n, d)")
    assert r is not None and r.verdict == "proved" and "induction in d from d = 1 for each n" in r.how, r
    # C(n, d) >= (n/d)^d: induction in n from n = d (C(n + 1, d)/C(n, d) = (n + 1)/(n + 1 - d)
    # >= (1 + 1/n)^d, convex in d and equal at d = 0, 1), base C(d, d) = 1 = (d/d)^d
    r = _pair("binomial(n, d) - (n/d)**d")
    assert r is not None and r.verdict == "proved" and "induction in n from n = d for each d" in r.how, r


def test_pair_near_misses():
    # C(n, d) > (n/d)^d: the step holds, the base case n = d gives 1 > 1 (false at every d)
    r = _pair("binomial(n, d) - (n/d)**d", ">")
    assert r is None or (r.verdict == "disproved" and r.point["n"] == r.point["d"]), r
    # C(n, d) <= (n/d)^d fails at n = 4, d = 2 (6 > 4); C(n, d) <= (2n/d)^d at n = 100, d = 10
    # (1.731e13 > 1.024e13; true for small n): never proved
    with mpmath.workdps(50):
        assert mpmath.binomial(4, 2) > 2 ** 2 and mpmath.binomial(100, 10) > mpmath.mpf(20) ** 10
        assert mpmath.binomial(20, 10) <= mpmath.mpf(4) ** 10
    for g in ("(n/d)**d - binomial(n, d)", "(2*n/d)**d - binomial(n, d)"):
        r = _pair(g)
        assert r is None or r.verdict == "disproved", (g, r)
        if r is not None:
            with mpmath.workdps(50):
                n, d = (int(r.point[v]) for v in ("n", "d"))
                assert 1 <= d <= n and _mp_g(g, n, d) < 0, (g, r)


def test_pair_base_case_fails_at_an_integer():
    # C(n, d) >= (2/d) (n/d)^d: the step in n is that of C(n, d) >= (n/d)^d (2/d does not
    # change with n); the base case n = d is 1 >= 2/d: true from d = 2, false at d = 1
    r = _pair("binomial(n, d) - (2/d)*(n/d)**d")
    assert r is not None and r.verdict == "disproved" and r.point == {"n": 1, "d": 1}, r
    with mpmath.workdps(50):
        def f(n, d):
            return mpmath.binomial(n, d) - (mpmath.mpf(2) / d) * (mpmath.mpf(n) / d) ** d
        assert f(1, 1) < 0 and f(2, 2) >= 0 and f(5, 3) > 0      # (and every n at d = 1: n - 2n < 0)


def _mp_g(g, n, d):
    f = {"(n/d)**d - binomial(n, d)": lambda: (mpmath.mpf(n) / d) ** d - mpmath.binomial(n, d),
         "(2*n/d)**d - binomial(n, d)": lambda: (mpmath.mpf(2 * n) / d) ** d - mpmath.binomial(n, d)}
    return f[g]()


# --- issue 30: a proof text never names a point where the goal is undefined ----------------------

Z0 = Domain(integer=True, lo=Fraction(0), lo_closed=True)


def test_a_base_case_at_an_undefined_point_is_no_base_case():
    """n**n - 1 >= 0 for integers n >= 0: n = 0 is 0**0, undefined (as eval says); the proof
    starts at n = 1 and its text does not name n = 0 as checked (it said "n = 0…1 each
    checked"). The relation holds at every n >= 1 (n**n >= 1), so 'proved' is right."""
    import pytest

    from boundcalc.backends import arb as A
    from boundcalc.expr.nodes import Num, substitute
    with pytest.raises(A.Undefined, match="0 to the power 0"):
        A.enclose(substitute(parse("n**n - 1"), {"n": Num(Fraction(0))}), {}, prec=64)
    r = _ints("n**n - 1", Z0)
    assert r is not None and r.verdict == "proved", r
    assert "n = 0" not in r.how and "0\u2026" not in r.how, r.how


def test_undefined_points_are_skipped_not_counted_as_checked():
    # bounded: n in [0, 5]; n**n - 1 >= 0 at n = 1..5 (5 values), n = 0 undefined
    r = _ints("n**n - 1", Domain(integer=True, lo=Fraction(0), lo_closed=True, hi=Fraction(5), hi_closed=True))
    assert r is not None and r.verdict == "proved" and "the 5 values where it is defined" in r.how, r
    # false at n = 1 (1 - 2 < 0): disproved there, not at the undefined n = 0
    r = _ints("n**n - 2", Z0)
    assert r is not None and r.verdict == "disproved" and r.point == {"n": Fraction(1)}, r


def test_verify_k_pow_k_names_no_undefined_point(tmp_path):
    from boundcalc.services.verify import verify
    f = tmp_path / "kpaper.toml"
    f.write_text('[paper]\nkey = "kpaper"\ntitle = "k"\nauthors = "A"\nreference = "none"\ntext = "t"\n\n'
                 '[symbols.k]\ndescription = "an integer"\nlatex = "k"\ndomain = "integer >= 0"\n')
    r = verify("k**k", ">=", "1", [], formulas_path=[str(f)])
    assert r.verdict == "proved" and "k = 0" not in r.method and "0\u2026" not in r.method, r.method
    r = verify("k**k", ">=", "2", [], formulas_path=[str(f)])
    assert r.verdict == "disproved" and r.counterexample["k"] == "1", r.counterexample
