"""A hostile campaign against the ends layer (prover/ends.py), issue 22.

FALSE relations built to make the layer — and the whole decision procedure — say "proved":
equality with ``>`` at a closed end, failures only very near an open end or only far out
(beyond the layer's grid of 2^60), derivatives that vanish only approximately at a
touching end (a coefficient 1/6 - 10^-12, pi against a 20- or 36-digit decimal, Ramanujan's
near-integer e^(pi sqrt 163), so that ball arithmetic at the layer's 96 bits cannot
separate them from 0), slowly converging limits (log log x, x^(1/100)), oscillating terms,
exp(-x^2) cancellations, poles and removable singularities inside the middle piece, both
ends touching, integer domains, limits approached from the wrong side. Each case names a
point inside the domain where the relation fails, computed here with mpmath at 50 digits
(each point was also confirmed at 200 digits when the campaign was built); each must be
"not proved" by the layer alone (which sees it without the counterexample search in front
of it) and by ``decide_relation``.

TRUE relations of the same shapes: never disproved; those the layer proves quickly are
asserted to stay proved.

Found and fixed on the way (each reproducer below failed before its fix):
* the first block of FALSE cases (``>`` with ``g = 0`` at a closed end) fooled the layer
  alone: the monotone argument towards an end value ``g(e) = 0`` claimed ``g > 0`` on a
  piece that contains ``e`` (``ends._monotone``);
* a wrong SymPy limit (planted) of a slowly converging ``g`` passed the cross-check, whose
  points stopped at the grid (2^60, 2^-24): now also balls far beyond it (``ends._far_points``);
* the exact layer alone proved relations that fail at a closed end of a bounded domain
  (``x > 0`` on [0, 1], ``ceil(x) >= 1`` on [0, 1]): its substitution reaches only the
  interior (``symbolic.prove_sign_on`` now proves each closed end too).
"""
import re
from fractions import Fraction

import mpmath
import pytest

from boundcalc.expr.domains import Domain
from boundcalc.expr.nodes import sub
from boundcalc.expr.parser import parse
from boundcalc.prover import ends
from boundcalc.prover.decide import _real_decider, decide_relation, fold_constants
from boundcalc.verdicts import Verdict


def _d(lo=None, hi=None, lc=False, hc=False, integer=False):
    return Domain(integer=integer, lo=None if lo is None else Fraction(lo), lo_closed=lc,
                  hi=None if hi is None else Fraction(hi), hi_closed=hc)


P = _d(0)                                   # (0, oo)
P0 = _d(0, lc=True)                         # [0, oo)
UNIT = _d(0, 1, True, True)                 # [0, 1]
OPEN = _d(0, 1)                             # (0, 1)
ONE_UP = _d(1, lc=True)                     # [1, oo)
THREE_UP = _d(3, lc=True)                   # [3, oo)
NAT1 = _d(1, lc=True, integer=True)         # integers >= 1
NAT4 = _d(4, lc=True, integer=True)         # integers >= 4
NEG = _d(hi=0)                              # (-oo, 0)
PI20 = "3.14159265358979323847"                 # pi + 7.4e-21
PI35 = "3.14159265358979323846264338327950289"  # pi + 5.8e-36
PI36 = "3.14159265358979323846264338327950288"  # pi - 4.2e-37

# (lhs, rel, rhs, domain, a point where it fails, why it fails there)
STRICT_AT_A_CLOSED_END = [   # each fooled the layer alone before the fix
    ("x", ">", "0", UNIT, "0", "g(0) = 0"),
    ("4*atan(x)", ">", "pi", _d(1, 2, True, True), "1", "atan(1) = pi/4"),
    ("log(x)", ">", "0", _d(1, 3, True, True), "1", "log(1) = 0"),
    ("1 - x", ">", "0", UNIT, "1", "g(1) = 0 at the upper end"),
    ("x*(1 - x)", ">", "0", UNIT, "0", "zero at both ends"),
    ("atan(x)", ">", "pi/4", ONE_UP, "1", "atan(1) = pi/4; the limit at oo is pi/4 > 0"),
    ("log(x)", ">", "0", NAT1, "1", "an integer domain: log(1) = 0"),
    ("sin(x)", ">", "0", _d(0, 3, True, True), "0", "sin(0) = 0"),
]
FALSE = STRICT_AT_A_CLOSED_END + [
    ("exp(x - 1)", ">", "x", ONE_UP, "1", "equal at 1, g'(1) = 0"),
    ("sqrt(x)", ">", "0", P0, "0", "sqrt, not differentiable at the end 0"),
    ("atan(x)", ">", "atan(1/2) + atan(1/3)", _d(1, 2, True, True), "1",
     "atan(1/2) + atan(1/3) = pi/4 (the addition formula): equal at 1, not seen by SymPy"),
    ("tanh(x)", "<", "x", UNIT, "0", "equal at 0, touching to order 3"),
    # failing only very near an open end
    ("x", ">=", "1e-30", OPEN, "1e-31", "below 1e-30"),
    ("x**2", ">=", "1e-30*x", P, "1e-31", "g'(0) = -1e-30"),
    ("log(1 + x)/x", "<=", "1 - 1e-12", P, "1e-13", "the limit 1 at 0 exceeds 1 - 1e-12"),
    ("exp(-1/x)", ">=", "1e-30*x", P, "1e-35", "exp(-1/x) is flat at 0"),
    ("x*log(x)", ">=", "-1e-30", OPEN, "1e-20", "x log x < 0 on (0, 1)"),
    ("sqrt(x)", ">=", "x**(1/3)", OPEN, "0.5", "x^(1/2) < x^(1/3) on (0, 1)"),
    ("(1 - x)*log(1 - x) + x", ">=", "1e-10*x", OPEN, "1e-11", "g ~ x^2/2 - 1e-10 x near 0"),
    ("x**(1/3)", ">=", "0.01", P, "1e-7", "a fractional power at the open end"),
    ("x**x", ">=", "1", OPEN, "0.5", "the limit 1 at 0, approached from below"),
    ("sin(x)/x", ">=", "1 - x**2/6 + 1e-12*x**2", P, "1e-6", "a removable singularity at 0: x^4/120 < 1e-12 x^2"),
    # derivatives vanishing only approximately at a touching end
    ("sin(x) - x + (1/6 - 1e-12)*x**3", ">=", "0", UNIT, "1e-6", "g ~ -1e-12 x^3 + x^5/120"),
    ("sin(x) - x + x**3/6 + (pi - " + PI20 + ")*x**3", ">=", "0", UNIT, "1e-10", "the x^3 coefficient is -7.4e-21"),
    ("x**2 + (pi - " + PI35 + ")*x", ">=", "0", UNIT, "1e-36", "g'(0) = -5.8e-36: 96-bit balls straddle 0"),
    ("x**2 + (exp(pi*sqrt(163)) - 262537412640768744)*x", ">=", "0", UNIT, "1e-13",
     "g'(0) = -7.5e-13, Ramanujan's constant: 96-bit balls straddle 0"),
    ("sin(x)", ">=", "x*(pi - " + PI36 + ") + x - x**3/6", UNIT, "1e-9", "g'(0) = -4.2e-37"),
    ("exp(x) - 1 - x - (1/2 - 1e-12)*x**2", "<=", "x**3", UNIT, "1e-13", "g ~ -1e-12 x^2 + 5x^3/6"),
    ("cos(x)", "<=", "1 - x**2/2 + (1/24 - 1e-12)*x**4", UNIT, "1e-5", "g ~ -1e-12 x^4 + x^6/720"),
    ("log(1 + x)", ">=", "x - x**2/2 + (1/3 + 1e-12)*x**3 - x**4", UNIT, "5e-13", "g ~ -1e-12 x^3 + 3x^4/4"),
    ("atan(x)", "<=", "x - x**3/3 + (1/5 - 1e-12)*x**5", UNIT, "1e-6", "g ~ -1e-12 x^5 + x^7/7"),
    ("tanh(x)", ">=", "x - (1/3 - 1e-12)*x**3", UNIT, "1e-6", "g ~ -1e-12 x^3 + 2x^5/15"),
    ("exp(x)", ">=", "1 + x + x**2/2 + x**3/6 + (1/24 + 1e-8)*x**4", UNIT, "1e-7", "g ~ -1e-8 x^4 + x^5/120"),
    ("erf(x)", "<=", "2/sqrt(pi)*(x - x**3/3) + 1e-30*x**2", UNIT, "0.001", "the x^5 term beats 1e-30 x^2"),
    ("log(x)", "<=", "(x - 1) - (1/2 + 1e-12)*(x - 1)**2", _d(Fraction(1, 2), 1, True, True),
     "0.9999999999999", "at the upper end 1: g ~ -1e-12 t^2 + |t|^3/3, t = x - 1"),
    # at infinity: slow convergence, far-out failures, oscillation, exp(-x^2) cancellation
    ("atan(x)", "<=", "pi/2 - 1/(x + 1e-10)", P, "1e4", "atan(1/x) < 1/x - 1e-10/x^2 for 1 << x < 3e9"),
    ("1/log(log(x))", ">=", "0.01", THREE_UP, "exp(exp(101))", "fails only beyond exp(exp(100))"),
    ("x**(1/100)", "<=", "100*log(x) + 1", ONE_UP, "exp(1500)", "fails only beyond about e^1400"),
    ("x**(1/100)", ">=", "log(x)", ONE_UP, "1e10", "x^(1/100) wins only beyond e^1000"),
    ("log(x)", "<=", "x**(1/100)", ONE_UP, "1e100", "fails from 1.3 to e^1000ish"),
    ("exp(-x)", "<=", "x**(-40)", ONE_UP, "10", "the exponential wins only far out"),
    ("x**(-40)", "<=", "exp(-x)", ONE_UP, "1000", "and the other way round"),
    ("sin(x)/x", ">=", "-1/(10*x)", P, "4.5", "oscillating, the limit 0 at oo"),
    ("log(x + sin(x))", "<=", "log(x) + 1/(2*x)", ONE_UP, "2000000*pi + pi/2",
     "log(1 + sin(x)/x) ~ sin(x)/x > 1/(2x) where sin(x) = 1"),
    ("exp(-x**2) - exp(-x**2 - 1e-30)", ">=", "exp(-x**2)*1e-29", P0, "3", "the difference is e^(-x^2) 1e-30"),
    ("x*(pi/2 - atan(x))", ">=", "1", P, "10", "the limit 1 at oo, approached from below"),
    ("(1 + 1/x)**x", ">=", "E - 1/(2*x + 3)", P, "1000000", "e - (1 + 1/x)^x ~ e/(2x) > 1/(2x)"),
    ("(1 + 1/x)**x", "<=", "E - E/(2*x + 1)", P, "1000", "Zhu's upper bound reversed"),
    ("x*log(1 + 1/x)", ">=", "1 - 1/(2*x) + 1/(2*x**2)", ONE_UP, "10", "the 1/(3x^2) term"),
    ("tanh(x)", ">=", "1 - 2*exp(-2*x) + 1e-40", P, "100", "1 - tanh x = 2e^(-2x) - 2e^(-4x) + ..."),
    ("sqrt(x + 1) - sqrt(x)", ">=", "1/(2*sqrt(x) + 1e-20)", P, "1e10", "sqrt(x+1) - sqrt(x) < 1/(2 sqrt x)"),
    ("erf(x)**exp(x**2)", ">=", "1 - 1/(2*x)", ONE_UP, "5", "the limit 1 at oo, approached as 1 - 1/(x sqrt pi)"),
    ("(2*atan(x)/pi)**x", ">=", "exp(-2/pi)", P, "10", "the limit exp(-2/pi) at oo, from below"),
    ("x**10", "<=", "1.5**x", ONE_UP, "10", "the power wins on a long middle piece"),
    ("x**100", "<=", "exp(x)", ONE_UP, "100", ""),
    ("log(x)**2", "<=", "sqrt(x)", ONE_UP, "100", ""),
    ("x", "<=", "1e30", ONE_UP, "1e31", "fails only beyond 1e30"),
    ("log(x)", "<=", "70", ONE_UP, "1e31", "fails only beyond e^70 = 2.5e30"),
    ("cos(1/x)", "<=", "1 - 1/(2*x**2) + 1/(25*x**4)", ONE_UP, "1000", "the x^-4 coefficient is 1/24 > 1/25"),
    # decreasing to a negative limit (or a positive one below the bound)
    ("exp(-x)", ">=", "1e-20", P, "100", "the limit 0 < 1e-20"),
    ("1/x - 1e-40", ">=", "0", ONE_UP, "1e41", "the limit -1e-40, reached beyond 1e40"),
    ("atan(x)", ">=", "pi/2 - 1e-30", ONE_UP, "1e29", "fails below 1e30"),
    ("exp(1/x)", ">=", "1 + 1e-30", ONE_UP, "1e31", "the limit 1 < 1 + 1e-30"),
    ("atan(x) - pi/2", ">=", "-1/x + 1/x**2 - 1/(2*x**3)", ONE_UP, "2", ""),
    # poles, undefined points and removable singularities inside the middle piece
    ("1/(x - 1/3)", ">=", "-5", P, "0.3", "a pole at 1/3"),
    ("1/(3*x - 1)**2", "<=", "1000", P, "0.3334", "a double pole at 1/3"),
    ("sin(3*x - 1)/(3*x - 1)", ">=", "0.99", P, "0.1", "removable at 1/3"),
    ("log((x - 1)**2)", ">=", "-20", P, "1.00001", "log of 0 at 1"),
    ("1/(x**2 - 2)", "<=", "100", P, "1.4143", "a pole at sqrt 2"),
    ("tanh(1/(x - 1/3))", ">=", "-0.99", P, "0.3", "a jump of tanh(1/t) at 1/3"),
    # both ends touching
    ("sin(pi*x)", ">=", "x*(1 - x)*3.2", UNIT, "0.01", "pi < 3.2 at the ends"),
    ("x*(1 - x)", ">=", "(1/4 + 1e-30)*sin(pi*x)**2", UNIT, "0.5", "1/4 < 1/4 + 1e-30 in the middle"),
    ("x**2*(1 - x)**2", ">=", "1e-30*x*(1 - x)", UNIT, "1e-31", "g'(0) = -1e-30"),
    # integer domains
    ("2**x", ">=", "x**2", NAT1, "3", "8 < 9"),
    ("3**x", ">=", "x**3 + 1", NAT1, "3", "27 < 28"),
    ("log(x)**2/x", "<=", "0.54", NAT1, "7", "log(7)^2/7 = 0.5409"),
    # at the upper end of a negative domain, a tiny domain, a flat function, a removable
    # singularity at an open end
    ("x - sin(x)", ">=", "0", _d(-1, 0, True, True), "-0.5", "sin x > x on [-1, 0)"),
    ("sin(x) - x + (1/6 - 1e-12)*x**3", "<=", "0", _d(-1, 0, True, True), "-1e-6",
     "g ~ -1e-12 x^3 + x^5/120 at the upper end 0"),
    ("exp(x) - 1 - x", ">=", "(1/2 + 1e-12)*x**2", _d(-1, 0, True, False), "-1e-13", "g ~ -1e-12 x^2 + x^3/6"),
    ("x", ">=", "1/2 + 1e-31", _d(Fraction(1, 2), Fraction(1, 2) + Fraction(1, 10**30)),
     "0.5000000000000000000000000000000001", "a domain 1e-30 wide"),
    ("exp(-1/x**2)", ">=", "1e-30*x**7", P, "0.01", "every derivative vanishes at 0"),
    ("atan(1/x)", "<=", "pi/2 - x + 1e-12", P, "0.01", "atan(1/x) = pi/2 - x + x^3/3 - ..."),
    ("(1 + x)**(1/x)", ">=", "E - E*x/2 + 1e-12", P, "1e-13", "the limit e at 0, approached as e - ex/2"),
    ("log(x)/(x - 1)", "<=", "1 - 1e-12", _d(1, 2, hc=True), "1.0000000000001", "removable at the open end 1"),
    # the negative half-line
    ("exp(x)", ">=", "1e-30", NEG, "-100", "the limit 0 at -oo"),
    ("x*exp(x)", ">=", "-0.36", NEG, "-1", "-1/e < -0.36"),
]

# (lhs, rel, rhs, domain, the layer alone proves it: asserted; why it holds)
TRUE = [
    ("x", ">=", "0", UNIT, True, ""),
    ("4*atan(x)", ">=", "pi", _d(1, 2, True, True), True, "atan increasing, 4 atan(1) = pi"),
    ("x*(1 - x)", ">=", "0", UNIT, True, "Taylor at both ends"),
    ("x", ">", "0", _d(0, 1, False, True), True, "the end 0 is open"),
    ("atan(x)", ">", "atan(1/2) + atan(1/3)", _d(1, 2, False, True), False, "equality only at the open end 1"),
    ("sin(x) - x + x**3/6", ">", "0", _d(0, 1, False, True), True, "g' = x^2/2 - (1 - cos x) > 0"),
    ("log(1 + x)/x", "<", "1", P, True, "log(1 + x) < x"),
    ("atan(x)", "<=", "pi/2 - 1/(x + 1)", P0, True, "atan(1/x) >= 1/(x + 1)"),
    ("atan(x)", "<=", "pi/2 - 1/(x + 1e10)", P, True, "atan(1/x) >= 1/(x + 1) >= 1/(x + 1e10)"),
    ("x*(pi/2 - atan(x))", "<=", "1", P, True, "atan(1/x) <= 1/x"),
    ("(1 + 1/x)**x", "<", "E", P, True, "x log(1 + 1/x) < 1"),
    ("erf(x)", ">=", "1 - exp(-x**2)/(x*sqrt(pi))", P, True, "erfc x <= e^(-x^2)/(x sqrt pi)"),
    ("exp(1/x)", ">", "1", ONE_UP, True, ""),
    ("tanh(x)", "<=", "x - x**3/3 + 2*x**5/15", P0, True, "the alternating Taylor bound"),
    ("log(x)", "<=", "x - 1", P, True, "tangent at 1, touching in the middle"),
    ("log(log(x))", ">=", "log(log(log(x))) + 1", THREE_UP, False, "u >= 1 + log u, equality at x = e^e"),
    ("log(1 + x)", ">=", "x - x**2/2 + (1/3 - 1e-30)*x**3 - x**4", UNIT, True, "g ~ 1e-30 x^3 + 3x^4/4"),
    ("log(x)", "<=", "(x - 1) - (1/2 - 1e-30)*(x - 1)**2", _d(Fraction(1, 2), 1, True, True), True,
     "g ~ 1e-30 t^2 + |t|^3/3, t = x - 1 <= 0"),
    ("x**2 + (4*atan(1) - pi)*x", ">=", "0", UNIT, False, "the coefficient is exactly 0"),
    ("sqrt(x + 1) - sqrt(x)", "<=", "1/(2*sqrt(x))", P, True, "concavity of sqrt"),
    ("x**2", "<=", "2**x", NAT4, False, "induction"),
    ("tanh(x)", ">=", "1 - 2*exp(-2*x)", P0, False, "1 - tanh x = 2/(e^(2x) + 1) <= 2e^(-2x)"),
]

_MP = {"atan": mpmath.atan, "sqrt": mpmath.sqrt, "erf": mpmath.erf, "exp": mpmath.exp, "log": mpmath.log,
       "sin": mpmath.sin, "cos": mpmath.cos, "tanh": mpmath.tanh, "E": mpmath.e, "pi": mpmath.pi}


def _mp(expr, x=None):
    """The test's own evaluation of its own literals: numbers as exact mpf (decimal and
    exponent notation), mpmath's functions (mpmath's precision set by the caller)."""
    text = re.sub(r"(?<![\w.])(\d+(?:\.\d+)?(?:e-?\d+)?)", r'mpf("\1")', expr)
    return eval(text, {"__builtins__": {}}, {**_MP, "mpf": mpmath.mpf, "x": x})


def _holds(lhs, rel, rhs, x) -> bool:
    """Whether the relation holds at x (50 digits). For a strict relation whose two sides
    agree to 45 digits, the case's own note gives the exact identity: it counts as failing."""
    a, b = _mp(lhs, x), _mp(rhs, x)
    if rel in ("<", ">") and abs(a - b) <= mpmath.mpf(10) ** -45 * max(1, abs(a), abs(b)):
        return False
    return {"<=": a <= b, ">=": a >= b, "<": a < b, ">": a > b, "==": a == b}[rel]


def _goal(lhs, rel, rhs):
    a, b = parse(lhs, allow_relation=False), parse(rhs, allow_relation=False)
    return fold_constants(sub(b, a) if rel in ("<=", "<") else sub(a, b)), {"<=": ">=", "<": ">"}.get(rel, rel)


def _layer(lhs, rel, rhs, dom, seconds):
    g, op = _goal(lhs, rel, rhs)
    return ends.prove_ends(g, op, {"x": dom}, [], _real_decider(500, 0), seconds=seconds)


def _decide(lhs, rel, rhs, dom, seconds=8.0):
    return decide_relation(parse(lhs, allow_relation=False), rel, parse(rhs, allow_relation=False),
                           {"x": dom}, [], seconds=seconds)


def _id(c):
    return f"{c[0]} {c[1]} {c[2]}"[:70]


def test_the_campaign_is_large_enough():
    assert len(FALSE) >= 40 and len(TRUE) >= 15
    assert len({_id(c) + str(c[3]) for c in FALSE}) == len(FALSE)


@pytest.mark.parametrize("lhs,rel,rhs,dom,point,why", FALSE, ids=[_id(c) for c in FALSE])
def test_false_relations_fail_at_their_point_and_are_never_proved(lhs, rel, rhs, dom, point, why):
    with mpmath.workdps(50):
        x = _mp(point)
        assert dom.contains(x), (point, dom)
        assert not _holds(lhs, rel, rhs, x), f"the case must fail at x = {point} ({why})"
    how = _layer(lhs, rel, rhs, dom, seconds=1.5)
    assert how is None, how
    d = _decide(lhs, rel, rhs, dom, seconds=4.0)
    assert d.verdict is not Verdict.PROVED, d.text


@pytest.mark.parametrize("lhs,rel,rhs,dom,point,why", STRICT_AT_A_CLOSED_END,
                         ids=[_id(c) for c in STRICT_AT_A_CLOSED_END])
def test_a_zero_at_a_closed_end_never_proves_a_strict_goal(lhs, rel, rhs, dom, point, why):
    """The regression: g' strictly signed towards g(e) = 0 proves g > 0 only off e; with e
    in the domain the layer must refuse (before the fix it said 'g > g(e) = 0 there')."""
    g, op = _goal(lhs, rel, rhs)
    assert ends.prove_ends(g, op, {"x": dom}, [], _real_decider(500, 0), seconds=4.0) is None
    # the same goal with >= is true and still proved (the refusal is about the end point only)
    how = ends.prove_ends(g, ">=", {"x": dom}, [], _real_decider(500, 0), seconds=4.0)
    assert how is not None, (lhs, rhs)


@pytest.mark.parametrize("lhs,rel,rhs,dom,layer_proves,why", TRUE, ids=[_id(c) for c in TRUE])
def test_true_relations_are_never_disproved_and_the_layer_keeps_its_proofs(lhs, rel, rhs, dom, layer_proves, why):
    with mpmath.workdps(50):
        pts = [p for p in (mpmath.mpf(k) / 7 for k in (1, 3, 7, 8, 20, 70, 7000)) if dom.contains(p)]
        if dom.integer:
            pts = [mpmath.mpf(k) for k in (4, 5, 9, 30) if dom.contains(k)]
        assert pts and all(_holds(lhs, rel, rhs, x) for x in pts), "a true case must hold where sampled"
    how = _layer(lhs, rel, rhs, dom, seconds=4.0)
    if layer_proves:
        assert how is not None, why
    d = _decide(lhs, rel, rhs, dom, seconds=4.0)
    assert d.verdict is not Verdict.DISPROVED, d.text


@pytest.mark.parametrize("lhs,dom,point", [
    ("1/log(x)", THREE_UP, "exp(101)"),                        # the true limit at oo is -1/100
    ("-1/log(x)", _d(0, Fraction(1, 2), hc=True), "exp(-101)"),  # the true limit at 0 is -1/100
])
def test_a_wrong_limit_of_a_slowly_converging_g_is_caught(monkeypatch, lhs, dom, point):
    """g = lhs - 1/100 decreases towards the end to -1/100; with SymPy's limit replaced by a
    wrong 0, g at every grid point (up to 2^60, down to 2^-24) lies above 0, so the grid
    cross-check passed and the layer claimed g >= 0 (false beyond e^100 / below e^-100).
    The far points of the cross-check (exp(+-2^k)) refuse it."""
    import sympy
    with mpmath.workdps(50):
        x = _mp(point)
        assert dom.contains(x) and not _holds(lhs, ">=", "1/100", x)
    g, op = _goal(lhs, ">=", "1/100")
    monkeypatch.setattr(sympy, "limit", lambda *a, **k: sympy.Integer(0))
    assert ends.prove_ends(g, op, {"x": dom}, [], _real_decider(500, 0), seconds=4.0) is None


HALF = _d(0, 1, hc=True)                    # (0, 1]
# false at a closed end of a bounded domain, true inside: (lhs, rel, rhs, domain, the end)
EXACT_AT_AN_END = [
    ("x", ">", "0", UNIT, "0"),
    ("2**x", ">", "1", UNIT, "0"),
    ("ceil(x)", ">=", "1", UNIT, "0"),          # ceil jumps at 0: continuity does not help
    ("floor(x)", "<=", "0", UNIT, "1"),
    ("ceil(x)", "==", "1", UNIT, "0"),
    ("1/x", ">", "1", HALF, "1"),
    ("log(x)", "<", "0", HALF, "1"),
    ("x*log(x)", "<", "0", HALF, "1"),
]


@pytest.mark.parametrize("lhs,rel,rhs,dom,end", EXACT_AT_AN_END, ids=[_id(c) for c in EXACT_AT_AN_END])
def test_the_exact_layer_alone_proves_nothing_false_at_a_closed_end(lhs, rel, rhs, dom, end):
    """The exact layer's substitution for a bounded domain reaches only its interior
    (x = t/(1 + t), t > 0); it said 'proved' for each of these (each fails at a closed end)
    until symbolic.prove_sign_on proved each closed end too. decide_relation disproves them
    (its search tries the closed ends)."""
    from boundcalc.prover.exact_layer import prove_exact
    with mpmath.workdps(50):
        x = mpmath.mpf(end)
        assert dom.contains(x) and not _holds_any(lhs, rel, rhs, x)
        assert _holds_any(lhs, rel, rhs, mpmath.mpf(1) / 2)          # true inside
    g, op = _goal(lhs, rel, rhs)
    assert prove_exact(g, op, {"x": dom}, [])[0] is None
    assert decide_relation(parse(lhs, allow_relation=False), rel, parse(rhs, allow_relation=False),
                           {"x": dom}, [], seconds=4.0).verdict is Verdict.DISPROVED


@pytest.mark.parametrize("lhs,rel,rhs,dom", [
    ("x", ">=", "0", UNIT), ("x**2 + 1", ">", "0", UNIT), ("x*log(x)", "<=", "0", HALF),
    ("1/x", ">=", "1", HALF), ("ceil(x)", "==", "1", HALF), ("x*log(x)", "<", "0", OPEN)])
def test_the_exact_layer_still_proves_them_where_they_hold(lhs, rel, rhs, dom):
    from boundcalc.prover.exact_layer import prove_exact
    g, op = _goal(lhs, rel, rhs)
    assert prove_exact(g, op, {"x": dom}, [])[0] is not None


def _holds_any(lhs, rel, rhs, x) -> bool:
    fl = {"ceil": mpmath.ceil, "floor": mpmath.floor}
    a = eval(lhs, {"__builtins__": {}}, {**_MP, **fl, "x": x})
    b = eval(rhs, {"__builtins__": {}}, {**_MP, **fl, "x": x})
    return {"<=": a <= b, ">=": a >= b, "<": a < b, ">": a > b, "==": a == b}[rel]
