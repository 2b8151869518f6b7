"""The ends layer on its own (prover/ends.py) and through the decision procedure.

True relations whose sides meet at an end of the domain (at infinity, at an open end, or
touching to some order at a finite end) are proved; near misses — each false, with a
counterexample computed here with mpmath at 50 digits — are never proved, by the layer
alone (which sees them without the counterexample search in front of it) nor by the whole
procedure. A wrong limit from SymPy is caught by the layer's cross-check.
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

P = Domain(lo=Fraction(0))                                         # (0, oo)
UNIT = Domain(lo=Fraction(0), lo_closed=True, hi=Fraction(1), hi_closed=True)
ONE_UP = Domain(lo=Fraction(1), lo_closed=True)


def _goal(lhs, rel, rhs):
    a, b = parse(lhs, allow_relation=False), parse(rhs, allow_relation=False)
    return fold_constants(sub(b, a) if rel in ("<=", "<") else sub(a, b)), {"<=": ">=", "<": ">"}.get(rel, rel)


def _layer(lhs, rel, rhs, dom, seconds=8.0):
    g, op = _goal(lhs, rel, rhs)
    return ends.prove_ends(g, op, {"x": dom}, [], _real_decider(500, 0), seconds=seconds)


def _decide(lhs, rel, rhs, dom):
    return decide_relation(parse(lhs, allow_relation=False), rel, parse(rhs, allow_relation=False),
                           {"x": dom}, [], seconds=8.0)


# Each: lhs, rel, rhs, domain, the argument expected in the proof, justification.
PROVED = [
    ("atan(x)", "<=", "pi*x/(1 + 2*sqrt(1 + x**2))", P, "limit 0 at ∞",
     "Shafer-Fink upper bound (Zhu 2005): both sides tend to pi/2 at infinity"),
    ("erf(x)**2", ">=", "1 - exp(-x**2)", P, "limit 0 at ∞",
     "Polya's lower bound erf x >= sqrt(1 - exp(-x^2)), squared (both sides >= 0); both -> 1"),
    ("erf(x)**2", "<=", "1 - exp(-4*x**2/pi)", P, "Taylor at x = 0: g and its derivatives up to order 3 = 0",
     "Polya 1949, squared; at 0 the difference is (8/pi)(1/3 - 1/pi) x^4 + O(x^6): order 4"),
    ("(1 + 1/x)**x", ">=", "E*2*x/(2*x + 1)", P, "after taking logarithms",
     "x log(1 + 1/x) >= 1 + log(2x/(2x+1)); both sides -> e at infinity (difference ~ 5/(24 x^2))"),
    ("(1 + 1/x)**x", "<=", "E*(2*x + 1)/(2*x + 2)", P, "after taking logarithms",
     "the companion upper bound; both sides -> e at infinity"),
    ("sin(x) - x + x**3/6", ">=", "0", UNIT, "Taylor at x = 0: g and its derivatives up to order 4 = 0",
     "the first nonzero Taylor term at 0 is x^5/120, and the 5th derivative cos x > 0 on [0, 1]"),
    ("log(1 + x)/x", "<=", "1", P, "limit 0 at 0",
     "log(1 + x) <= x; at the open end 0 both sides -> 1 (a limit: the LHS is 0/0 there)"),
]


def _ids(cases):
    return [c[0] + c[1] + c[2] for c in cases]


@pytest.mark.parametrize("lhs,rel,rhs,dom,argument,why", PROVED, ids=_ids(PROVED))
def test_decision_proves_relations_tight_at_an_end(lhs, rel, rhs, dom, argument, why):
    d = _decide(lhs, rel, rhs, dom)
    assert d.verdict is Verdict.PROVED, (d.text, why)
    if d.layer.value == "ends":
        assert argument in d.text, d.text


@pytest.mark.parametrize("lhs,rel,rhs,dom,argument,why", PROVED[:5] + PROVED[6:], ids=_ids(PROVED[:5] + PROVED[6:]))
def test_the_layer_alone_proves_them(lhs, rel, rhs, dom, argument, why):
    if argument == "after taking logarithms":
        # the layer meets these after the exact layer took logarithms of both sides
        lhs, rhs = {">=": ("x*log(1 + 1/x)", "1 + log(2*x/(2*x + 1))"),
                    "<=": ("x*log(1 + 1/x)", "1 + log((2*x + 1)/(2*x + 2))")}[rel]
        argument = "limit 0 at ∞"
    how = _layer(lhs, rel, rhs, dom)
    assert how is not None and argument in how, (how, why)


# False near misses: (lhs, rel, rhs, domain, a point where the relation fails).
NEAR_MISSES = [
    ("atan(x)", "<=", "3.14*x/(1 + 2*sqrt(1 + x**2))", P, "10000"),    # limit 1.57 < pi/2
    ("atan(x)", "<=", "1.5707", P, "1000000"),                        # the limit pi/2 > 1.5707
    ("erf(x)**2", ">=", "1 - exp(-1.3*x**2)", P, "0.1"),              # 4/pi = 1.273 < 1.3 at 0
    ("(1 + 1/x)**x", ">=", "1.0001*E*2*x/(2*x + 1)", P, "10000"),    # the ratio -> 1 < 1.0001
    ("x**3", ">=", "10**(-40)*x", UNIT, "1e-25"),                     # g'(0) < 0: no Taylor, no run
    ("sin(x) - x + x**3/6.001", ">=", "0", UNIT, "0.01"),            # x^3 coefficient < 1/6
    ("log(1 + x)/x", "<=", "0.9999", P, "0.00001"),                   # the limit 1 at 0 > 0.9999
]

_MP = {"atan": mpmath.atan, "sqrt": mpmath.sqrt, "erf": mpmath.erf, "exp": mpmath.exp, "log": mpmath.log,
       "sin": mpmath.sin, "E": mpmath.e, "pi": mpmath.pi}


def _mp(expr, x):
    """The test's own evaluation of its own literals: numbers as exact mpf, mpmath's functions."""
    text = re.sub(r"(?<![\w.])(\d+(?:\.\d+)?)", r'mpf("\1")', expr)
    return eval(text, {"__builtins__": {}}, {**_MP, "mpf": mpmath.mpf, "x": x})


def _fails(lhs, rel, rhs, x):
    a, b = _mp(lhs, x), _mp(rhs, x)
    return not {"<=": a <= b, ">=": a >= b}[rel]


@pytest.mark.parametrize("lhs,rel,rhs,dom,point", NEAR_MISSES, ids=_ids(NEAR_MISSES))
def test_near_misses_are_false_and_never_proved(lhs, rel, rhs, dom, point):
    with mpmath.workdps(50):
        x = mpmath.mpf(point)
        assert dom.contains(x) and _fails(lhs, rel, rhs, x), "the near miss must be false at the point"
    assert _layer(lhs, rel, rhs, dom, seconds=4.0) is None
    assert _decide(lhs, rel, rhs, dom).verdict is not Verdict.PROVED


def test_a_wrong_limit_is_caught_by_the_cross_check(monkeypatch):
    """1/x decreases to 0 on [1, oo), so 1/x >= 0 holds; with SymPy's limit replaced by a
    wrong value 1/2 (1/x >= 1/2 is false at x = 4), the layer must refuse: the values of
    1/x far out lie below the claimed limit."""
    import sympy
    g = fold_constants(parse("1/x - 1/2"))
    assert ends.prove_ends(g, ">=", {"x": ONE_UP}, [], _real_decider(500, 0), seconds=4.0) is None
    monkeypatch.setattr(sympy, "limit", lambda *a, **k: sympy.Integer(1) / 2)
    g = fold_constants(parse("1/x"))
    assert ends.prove_ends(g, ">=", {"x": ONE_UP}, [], _real_decider(500, 0), seconds=4.0) is None


def test_the_layer_applies_only_to_smooth_one_variable_goals():
    one = {"x": P}
    assert ends.applies(parse("atan(x) - x/2"), ">=", one, []) == "x"
    assert ends.applies(parse("abs(x - 1)"), ">=", one, []) is None        # a kink
    assert ends.applies(parse("x - floor(x)"), ">=", one, []) is None      # a jump
    assert ends.applies(parse("x*y"), ">=", {"x": P, "y": P}, []) is None  # two symbols
    assert ends.applies(parse("x"), "==", one, []) is None                 # equalities: not this layer
    assert ends.applies(parse("x"), ">=", one, [parse("x >= 1")]) is None  # assumptions


def test_the_depth_guard_stops_nesting():
    token = ends._depth.set(ends.MAX_DEPTH)
    try:
        assert ends.applies(parse("atan(x) - x/2"), ">=", {"x": P}, []) is None
    finally:
        ends._depth.reset(token)


def test_a_limit_not_seen_approached_is_refused(monkeypatch):
    """1 + 1/x decreases to 1 on [1, oo): proved with SymPy's limit. A claimed limit 1/2
    lies below every value (the first cross-check passes) but g is not seen approaching it
    (its distance to 1/2 stays about 1/2 out to x = 2^60): refused."""
    import sympy
    g = fold_constants(parse("1 + 1/x"))
    how = ends.prove_ends(g, ">=", {"x": ONE_UP}, [], _real_decider(500, 0), seconds=4.0)
    assert how is not None and "limit 1 at ∞" in how, how
    monkeypatch.setattr(sympy, "limit", lambda *a, **k: sympy.Integer(1) / 2)
    assert ends.prove_ends(g, ">=", {"x": ONE_UP}, [], _real_decider(500, 0), seconds=4.0) is None


def test_a_closed_end_where_the_derivative_is_undefined():
    """sqrt(x) >= x on [0, 1]: both sides meet at 0, where g' = 1/(2 sqrt x) - 1 has no value
    (g' > 0 is needed on the open piece only, g being continuous at 0), and at 1, where g is
    smooth (Taylor: g(1) = 0 and g' = -1/2 < 0 near 1)."""
    how = _layer("sqrt(x)", ">=", "x", UNIT)
    assert how is not None and "so g >= g(0) = 0" in how and "Taylor at x = 1" in how, how


def test_no_sympy_limit_where_no_timer_can_stop_it():
    """Outside the main thread the CPU-time limit cannot interrupt SymPy, and a limit has no
    size bound: an argument that needs one is not made there (the same goal is proved in
    the main thread, by the limit 1 at infinity)."""
    from concurrent.futures import ThreadPoolExecutor
    g = fold_constants(parse("1 + 1/x"))

    def run():
        return ends.prove_ends(g, ">=", {"x": ONE_UP}, [], _real_decider(500, 0), seconds=4.0)
    assert "limit 1 at ∞" in (run() or "")
    with ThreadPoolExecutor(max_workers=1) as ex:
        assert ex.submit(run).result() is None
