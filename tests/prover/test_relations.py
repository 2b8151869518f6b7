"""Known answers for the decision procedure (prover/decide.py through verify).

Each case is (lhs, rel, rhs, assumptions, expected). The bar: every true relation is
proved, every false one disproved with a counterexample that this test re-checks
independently (mpmath at 50 digits, on the test's own copy of the expressions), no wrong
verdict, each case within 10 s. Symbols are positive reals (verify's convention for
undeclared symbols) narrowed by the assumptions, except names the papers declare, which
keep their declared domains (u: any real; n, T, M, d: integers; R >= 1; ...).
"""
import re
import time
from fractions import Fraction

import mpmath
import pytest
from prover.relation_cases import NEW_CASES  # issue 22's categories (tests/prover/relation_cases.py)

from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.services.verify import decide, verify

TRUE, FALSE = "proved", "disproved"

CASES = [
    # ---- mean inequalities
    ("sqrt(x*y)", "<=", "(x+y)/2", [], TRUE),
    ("2*x*y/(x+y)", "<=", "sqrt(x*y)", [], TRUE),
    ("(x+y)/2", "<=", "sqrt((x**2+y**2)/2)", [], TRUE),
    ("(x*y*z)**(1/3)", "<=", "(x+y+z)/3", [], TRUE),
    ("3/(1/x+1/y+1/z)", "<=", "(x+y+z)/3", [], TRUE),
    ("(x+y)/2", "<=", "((x**3+y**3)/2)**(1/3)", [], TRUE),
    ("x/y + y/x", ">=", "2", [], TRUE),
    ("(x+y)*(1/x+1/y)", ">=", "4", [], TRUE),
    ("x**2 + y**2", ">=", "2*x*y", [], TRUE),
    ("x*y", "<=", "x**3/3 + 2*y**(3/2)/3", [], TRUE),                 # Young, p = 3, q = 3/2
    ("log((x+y)/2)", ">=", "(log(x)+log(y))/2", [], TRUE),            # concavity of log
    ("exp((x+y)/2)", "<=", "(exp(x)+exp(y))/2", [], TRUE),            # convexity of exp
    ("sqrt(x)+sqrt(y)", ">=", "sqrt(x+y)", [], TRUE),
    ("(1+x)**w", ">=", "1+w*x", ["w >= 1"], TRUE),                      # Bernoulli, real w >= 1
    ("(1+x)**w", ">=", "1+w*x", ["w <= 1"], FALSE),                     # fails for 0 < w < 1
    ("sqrt(x*y)", ">=", "(x+y)/2", [], FALSE),
    ("(x+y)/2", "<=", "2*x*y/(x+y)", [], FALSE),
    # ---- classic bounds on the functions of the formula language
    ("exp(x)", ">=", "1 + x", ["x >= -100"], TRUE),
    ("exp(x)", ">=", "1 + x + x**2/2", [], TRUE),
    ("log(x)", "<=", "x - 1", [], TRUE),
    ("log(x)", ">=", "1 - 1/x", [], TRUE),
    ("log(1 + x)", "<=", "x", [], TRUE),
    ("log(1 + x)", ">=", "x/(1 + x)", [], TRUE),
    ("log(1 + x)", ">=", "x - x**2/2", [], TRUE),
    ("1 - exp(-x)", "<=", "x", [], TRUE),
    ("2**x", ">=", "1 + x*log(2)", [], TRUE),
    ("abs(tanh(u))", "<=", "1", ["u >= -50"], TRUE),
    ("tanh(x)", "<=", "x", [], TRUE),
    ("abs(2*tanh(u)*(1 - tanh(u)**2))", "<=", "4/(3*sqrt(3))", ["u >= -50"], TRUE),
    ("atan(x)", "<=", "x", [], TRUE),
    ("atan(x)", ">=", "x/(1 + x**2)", [], TRUE),
    ("erf(x)", "<=", "1", [], TRUE),
    ("erf(x)", "<=", "2*x/sqrt(pi)", [], TRUE),
    ("sin(x)", "<=", "x", [], TRUE),
    ("cos(x)", ">=", "1 - x**2/2", [], TRUE),
    ("sin(x)**2 + cos(x)**2", "<=", "1", [], TRUE),
    ("exp(-x)", "<=", "1/(1 + x)", [], TRUE),
    ("exp(-x)", ">=", "1/(1 + x)", [], FALSE),
    ("log(x)", ">=", "x - 1", [], FALSE),
    ("tanh(x)", ">=", "x", [], FALSE),
    ("atan(x)", ">=", "x", [], FALSE),
    ("sin(x)", ">=", "x - x**3/7", [], FALSE),
    ("erf(x)", ">=", "x", [], FALSE),
    # ---- tight maxima (equality inside the domain)
    ("x*(1 - x)", "<=", "1/4", ["x <= 1"], TRUE),
    ("x*(2 - x)", "<=", "1", [], TRUE),
    ("x*y*(1 - x - y)", "<=", "1/27", ["x + y <= 1"], TRUE),
    ("4*x*y", "<=", "(x + y)**2", [], TRUE),
    ("x*(1 - x)", "<", "1/4", ["x <= 1"], FALSE),
    ("x*exp(-x)", "<=", "exp(-1)", [], TRUE),
    ("x*exp(-x)", "<", "exp(-1)", [], FALSE),          # equality at x = 1 (irrational value)
    ("x*(1 - x)", "<=", "0.2499", ["x <= 1"], FALSE),
    ("x*exp(-x)", "<=", "0.3679", [], TRUE),            # max exp(-1) = 0.367879..., margin 2e-5
    ("x**x", ">=", "0.69", [], TRUE),                   # min exp(-1/e) = 0.692200...
    ("log(x)", "<=", "sqrt(x)", [], TRUE),
    ("atan(x)", "<=", "pi/2", [], TRUE),
    ("sin(x)/x", "<=", "1", [], TRUE),
    # ---- false only in a narrow window or at a domain boundary
    ("x**x", ">=", "0.7", [], FALSE),
    ("x**2 - x + 0.2501", ">", "0", [], TRUE),
    ("x**2 - x + 0.2499", ">=", "0", [], FALSE),
    ("(x - 1/3)**2", ">", "0", [], FALSE),
    ("x", ">", "1", ["x >= 1"], FALSE),
    ("(x - 2)**2 + 1/1000", ">=", "1/500", [], FALSE),
    ("y/x", ">", "1", ["y >= x"], FALSE),
    ("x + 1/x", ">", "2", [], FALSE),
    ("n", ">=", "2", ["n >= 1"], FALSE),
    # ---- identities
    ("(x + 1)**2", "==", "x**2 + 2*x + 1", [], TRUE),
    ("exp(log(x))", "==", "x", [], TRUE),
    ("log(x*y)", "==", "log(x) + log(y)", [], TRUE),
    ("sqrt(x**2)", "==", "x", [], TRUE),
    ("(x**2 - 1)/(x - 1)", "==", "x + 1", ["x >= 2"], TRUE),
    ("sqrt(x + y)", "==", "sqrt(x) + sqrt(y)", [], FALSE),
    ("log(x + y)", "==", "log(x)*log(y)", [], FALSE),
    # ---- budgets
    ("(x + 1)**100000", ">=", "x**100000", [], TRUE),
    ("10**10**10", ">=", "0", [], TRUE),
    # ---- from the four papers
    ("abs(tanh(u))", "<=", "1", ["u <= 50", "u >= -50"], TRUE),
    ("abs(1 - tanh(u)**2)", "<=", "1", ["u >= -50"], TRUE),
    ("abs(a*b - c*d)", "<=", "abs(d)*abs(a - c) + abs(a)*abs(b - d)", [], TRUE),
    ("(nu/T)*exp(-(1 - g)*X*R)", ">=", "M*T*exp(-X*R)", ["R*g*X >= log(M*T**2/nu)", "g <= 1"], TRUE),
    ("exp(g*r/3)/(2*n)", ">", "1", ["r > 3*log(2*n)/g"], TRUE),
    ("C*c*sqrt(P/N)*(1 + log(A*sqrt(N/P)))", "<=", "C*c*(d + sqrt(P/N)*log(A/d))", [], TRUE),
    ("B*(C + m)*n/(A*e*v)", ">", "1", ["B >= A", "m >= v", "C >= (e - 1)*v", "n >= 1"], FALSE),
    ("deora2023.beta2", ">=", "deora2023.beta1**2/4", [], TRUE),
]



_NAMES = {"sqrt": mpmath.sqrt, "exp": mpmath.exp, "log": mpmath.log, "tanh": mpmath.tanh,
          "atan": mpmath.atan, "erf": mpmath.erf, "sin": mpmath.sin, "cos": mpmath.cos,
          "abs": abs, "max": max, "pi": mpmath.pi, "E": mpmath.e, "mpf": mpmath.mpf}


def _mp(expr: str, env: dict):
    """Independent evaluation: the test's own text, numbers as exact mpf, at 50 digits."""
    text = re.sub(r"(?<![\w.])(\d+(?:\.\d+)?)", r'mpf("\1")', expr)
    return eval(text, {"__builtins__": {}}, {**_NAMES, **env})   # the test's own literals only


def _point(ce: dict) -> dict:
    out = {}
    for k, v in ce.items():
        if k in ("lhs", "rhs"):
            continue
        num, _, den = v.partition("/")
        out[k] = mpmath.mpf(num) / mpmath.mpf(den or 1)
    return out


def _holds(op, a, b):
    return {"<=": a <= b, ">=": a >= b, "<": a < b, ">": a > b, "==": a == b}[op]


@pytest.mark.parametrize("lhs,rel,rhs,assume,expected", CASES,
                         ids=[f"{c[0]} {c[1]} {c[2]}"[:60] for c in CASES])
def test_relation(lhs, rel, rhs, assume, expected):
    t = time.process_time()                   # CPU seconds: steady on a busy machine
    r = verify(lhs, rel, rhs, list(assume))
    took = time.process_time() - t
    assert took < 10, f"{took:.1f} s of CPU"
    assert r.verdict == expected, r.describe()
    assert r.layer in ("exact", "SMT", "ends", "case split", "monotonicity", "interval", "counterexample")
    if expected == FALSE:
        if lhs.startswith("deora"):
            return
        with mpmath.workdps(50):
            env = _point(r.counterexample)
            for a in assume:
                m = re.match(r"(.+?)\s*(<=|>=|<|>)\s*(.+)", a)
                assert _holds(m.group(2), _mp(m.group(1), env), _mp(m.group(3), env)), a
            assert not _holds(rel, _mp(lhs, env), _mp(rhs, env)), (env, r.counterexample)


# ---- factorial, gamma, binomial, sums and products over an index (issue 22, h11-nodes).
# Each case: (lhs, rel, rhs, assumptions, truth, verdict today, justification). n and d are
# integers >= 1 (declared so by the papers), x and other names positive reals. The verdict
# is pinned (a change either way shows up here); it must never contradict the truth, and a
# disproof's counterexample is re-checked at 50 digits with mpmath on the test's own text.
UNKNOWN = "unknown"
NODE_CASES = [
    ("factorial(n)", ">=", "1", [], True, TRUE, "n! is a product of integers >= 1"),
    ("factorial(n)", ">=", "n", [], True, TRUE, "n! = n (n-1)! and (n-1)! >= 1"),
    ("factorial(n)", ">=", "2**(n-1)", [], True, TRUE,
     "induction: 1! = 2^0, and n! = n (n-1)! >= 2 * 2^(n-2) for n >= 2 (integers only: needs induction)"),
    ("factorial(n)", ">=", "2**n", [], False, FALSE, "n = 1: 1 < 2"),
    ("factorial(n)", ">=", "2**(n-1) + 1", [], False, FALSE, "near miss: n = 1: 1 < 2"),
    ("factorial(n + 1)", "==", "(n + 1)*factorial(n)", [], True, TRUE, "definition of the factorial"),
    ("factorial(n + 1)", "==", "n*factorial(n)", [], False, FALSE, "n = 1: 2 != 1"),
    ("factorial(n)", "<=", "n**n", [], True, TRUE, "each of the n factors is <= n"),
    ("factorial(n)", "<", "n**n", [], False, FALSE, "near miss: n = 1: 1 = 1"),
    ("factorial(n)", ">=", "3**(n-1)", [], False, FALSE, "near miss: n = 2: 2 < 3"),
    ("factorial(n)", ">=", "(n/E)**n", [], True, TRUE, "e^n = sum n^k/k! >= n^n/n!"),
    ("factorial(n)", ">=", "2.75*(n/E)**n", [], False, FALSE, "near miss: n = 1: 1 < 2.75/e = 1.0117"),
    ("factorial(n)", ">=", "sqrt(2*pi*n)*(n/E)**n", [], True, TRUE,
     "Stirling with Robbins' remainder: n! = sqrt(2 pi n)(n/e)^n e^(r_n), r_n > 1/(12n+1) > 0"),
    ("factorial(n)", "<=", "E*sqrt(n)*(n/E)**n", [], True, TRUE,
     "n! <= e n^(n+1/2) e^(-n) (log n! <= integral of log over [1, n] + log(n)/2 + 1)"),
    ("factorial(n)", "<=", "sqrt(2*pi*n)*(n/E)**n", [], False, FALSE,
     "near miss: the Stirling lower bound is not an upper bound: n = 1: 1 > 0.922"),
    ("binomial(n, d)", "<=", "(E*n/d)**d", ["d <= n"], True, TRUE,
     "C(n,k) <= n^k/k! and k! >= (k/e)^k (e^k >= k^k/k!)"),
    ("binomial(n, d)", ">=", "(n/d)**d", ["d <= n"], True, TRUE,
     "C(n,k) = prod_{i<k} (n-i)/(k-i) and (n-i)/(k-i) >= n/k for 0 <= i < k <= n"),
    ("binomial(n, d)", "<=", "(n/d)**d", ["d <= n"], False, FALSE, "near miss: n = 4, k = 2: 6 > 4"),
    ("binomial(n, d)", "<", "n**d", ["d <= n"], False, FALSE, "near miss: n = k = 1: 1 = 1"),
    ("binomial(n, d)", "<=", "n**d/factorial(d)", ["d <= n"], True, TRUE,
     "C(n,k) = n (n-1) ... (n-k+1)/k! and each of the k factors is <= n"),
    ("binomial(n, d)", "<=", "2**n", ["d <= n"], True, UNKNOWN,
     ("C(n,k) is one term of sum_j C(n,j) = 2^n (no ratio induction: C(n+1,k)/C(n,k) = (n+1)/(n+1-k) > 2 "
     "at k = n, C(n,k+1)/C(n,k) = (n-k)/(k+1) against 1)")),
    ("factorial(n)*factorial(d)", "<=", "factorial(n + d)", [], True, TRUE, "(n+d)!/(n! d!) = C(n+d, n) >= 1"),
    ("factorial(n)*factorial(d)", "<=", "factorial(n + d - 2)", [], False, FALSE, "near miss: n = 1, d = 2: 2 > 1"),
    ("binomial(n, 2)", "==", "n*(n - 1)/2", [], True, TRUE, "n!/(2 (n-2)!) = n (n-1)/2"),
    ("gamma(x + 1)", "==", "x*gamma(x)", [], True, TRUE, "the functional equation of Gamma (x > 0)"),
    ("gamma(x + 1)", "==", "(x + 1)*gamma(x)", [], False, FALSE, "x = 1: 1 != 2"),
    ("gamma(x)", ">=", "0.88", [], True, TRUE, "min of Gamma on (0, oo) is 0.885603... at x = 1.4616..."),
    ("gamma(x)", ">=", "0.89", [], False, FALSE, "near miss: Gamma(3/2) = sqrt(pi)/2 = 0.8862..."),
    ("sum(1/i**2, i, 1, 4)", "<=", "2", [], True, TRUE, "1 + 1/4 + 1/9 + 1/16 = 205/144"),
    ("sum(1/i**2, i, 1, 4)", ">=", "1.43", [], False, FALSE, "205/144 = 1.4236... < 1.43"),
    ("prod(1 + 1/i, i, 1, 5)", "==", "6", [], True, TRUE, "telescopes: prod (i+1)/i = 6"),
    ("sum(x**i, i, 0, 3)", ">=", "4*x**(3/2)", [], True, TRUE, "AM-GM on 1, x, x^2, x^3"),
    ("sum(x**i, i, 0, 3)", ">=", "1 + 3*x", [], False, FALSE, "x = 2/5: 1.624 < 2.2"),
]

_NAMES.update({"factorial": mpmath.factorial, "gamma": mpmath.gamma, "binomial": mpmath.binomial, "E": mpmath.e})


def _mp_big(expr: str, env: dict):
    """sum(body, i, lo, hi) of the test's own numeric-range cases, evaluated by the test's
    own loop (mpmath, 50 digits); anything else as _mp."""
    m = re.fullmatch(r"(sum|prod)\((.+), (\w), (\d+), (\d+)\)", expr)
    if not m:
        return _mp(expr, env)
    op, body, var, lo, hi = m.groups()
    vals = [_mp(body, {**env, var: mpmath.mpf(i)}) for i in range(int(lo), int(hi) + 1)]
    return mpmath.fsum(vals) if op == "sum" else mpmath.fprod(vals)


@pytest.mark.parametrize("lhs,rel,rhs,assume,truth,expected,why", NODE_CASES,
                         ids=[f"{c[0]} {c[1]} {c[2]}"[:60] for c in NODE_CASES])
def test_node_relation(lhs, rel, rhs, assume, truth, expected, why):
    t = time.process_time()
    r = verify(lhs, rel, rhs, list(assume))
    took = time.process_time() - t
    assert took < 10, f"{took:.1f} CPU s"
    assert r.verdict != (FALSE if truth else TRUE), f"WRONG: {r.describe()} ({why})"
    assert r.verdict == expected, r.describe()
    if r.verdict == FALSE:
        with mpmath.workdps(50):
            env = _point(r.counterexample)
            for a in assume:
                m = re.match(r"(.+?)\s*(<=|>=|<|>)\s*(.+)", a)
                assert _holds(m.group(2), _mp(m.group(1), env), _mp(m.group(3), env)), a
            assert not _holds(rel, _mp_big(lhs, env), _mp_big(rhs, env)), (env, r.counterexample)


def test_node_relation_counts():
    """The tally this suite documents: decided (proved / disproved) and unknown."""
    proved = sum(c[5] == TRUE for c in NODE_CASES)
    disproved = sum(c[5] == FALSE for c in NODE_CASES)
    unknown = sum(c[5] == UNKNOWN for c in NODE_CASES)
    assert (len(NODE_CASES), proved, disproved, unknown) == (33, 18, 14, 1)
    assert all(c[4] for c in NODE_CASES if c[5] == UNKNOWN)      # every unknown is a true relation


_KINDS = {"P": {"lo": Fraction(0)}, "R": {}, "Z1": {"integer": True, "lo": Fraction(1), "lo_closed": True}}


def new_case_domains(spec: str) -> dict[str, Domain]:
    """"x:P y:R n:Z1" -> {name: Domain}."""
    return {n: Domain(**_KINDS[k]) for n, k in (s.split(":") for s in spec.split())}


def decide_new_case(lhs, rel, rhs, assume, spec):
    """One NEW_CASES relation through verify's decision (services.verify.decide), on the
    case's own domains."""
    a, b = parse(lhs, allow_relation=False), parse(rhs, allow_relation=False)
    return decide(a, rel, b, new_case_domains(spec), [parse(x) for x in assume],
                  statement=f"{lhs} {rel} {rhs}", assumptions=list(assume))


def test_new_cases_cover_the_issue():
    assert len(NEW_CASES) >= 45
    assert sum(c[4] == FALSE for c in NEW_CASES) >= 20         # near-misses: "proved" to all fails
    assert len({(c[0], c[1], c[2], tuple(c[3]), c[5]) for c in NEW_CASES}) == len(NEW_CASES)


@pytest.mark.parametrize("lhs,rel,rhs,assume,expected,spec,needs", NEW_CASES,
                         ids=[f"{c[0]} {c[1]} {c[2]} {c[3]}"[:70] for c in NEW_CASES])
def test_new_relation(lhs, rel, rhs, assume, expected, spec, needs):
    c0 = time.process_time()
    r = decide_new_case(lhs, rel, rhs, assume, spec)
    took = time.process_time() - c0
    # CPU seconds, what the budget counts (8 s): on a loaded machine the wall time grows
    assert took < 10, f"{took:.1f} CPU s"
    if needs and r.verdict == "unknown":
        return                                   # tolerated until the function-bound table lands
    assert r.verdict == expected, r.describe()
    if expected == FALSE:
        with mpmath.workdps(50):
            env = _point(r.counterexample)
            for n, d in new_case_domains(spec).items():
                if n in env:
                    assert d.contains(env[n]), (n, env[n])
            for a in assume:
                m = re.match(r"(.+?)\s*(<=|>=|<|>)\s*(.+)", a)
                assert _holds(m.group(2), _mp(m.group(1), env), _mp(m.group(3), env)), a
            assert not _holds(rel, _mp(lhs, env), _mp(rhs, env)), (env, r.counterexample)
