"""Property test of `require`'s search (services.solve): random monotone and non-monotone
relations f(x) OP t over domains with open, closed and infinite ends (poles 1/(x - a),
windows (x - a)^2, jumps floor(x)). Every answer is checked independently — exact
rationals, or mpmath at 60 digits for exp/atan:

- a value holds at ``holds_at`` and fails at ``fails_at`` just beyond (or ``holds_at``
  is the domain's own end); an infimum not attained fails at the value itself;
- 'not monotone' names a certified pair that really holds and fails;
- 'no value satisfies' and 'holds everywhere' (from a direction read from the tree)
  are confirmed at sampled points of the domain.

A wrong direction hint (as a faulty monotonicity proof would give) may cost an answer,
never produce a wrong one. Examples per run: BOUNDCALC_FUZZ_EXAMPLES (default 30)."""
import os
from fractions import Fraction

import mpmath
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boundcalc.errors import BoundcalcError, UnsatisfiableError
from boundcalc.expr.domains import Domain
from boundcalc.expr.nodes import sub
from boundcalc.expr.parser import parse
from boundcalc.services.solve import solve_relation, trend

EXAMPLES = int(os.environ.get("BOUNDCALC_FUZZ_EXAMPLES", "30"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
F = Fraction


def _mp(x):
    return mpmath.mpf(x.numerator) / x.denominator


# (expression with {a}, independent value at a rational x: Fraction (exact) or mpf; None = undefined)
FAMILIES = [
    ("x", lambda x, a: x),
    ("-x", lambda x, a: -x),
    ("x**3", lambda x, a: x ** 3),
    ("exp(x)", lambda x, a: mpmath.exp(_mp(x))),
    ("atan(x)", lambda x, a: mpmath.atan(_mp(x))),
    ("1/(x - {a})", lambda x, a: None if x == a else 1 / (x - a)),
    ("-1/(x - {a})", lambda x, a: None if x == a else -1 / (x - a)),
    ("(x - {a})**2", lambda x, a: (x - a) ** 2),
    ("floor(x)", lambda x, a: F(x.numerator // x.denominator)),
]
OPS = {">=": lambda u, t: u >= t, ">": lambda u, t: u > t, "<=": lambda u, t: u <= t, "<": lambda u, t: u < t}
NUMS = [F(-3), F(-1), F(-1, 2), F(0), F(1, 2), F(1), F(2), F(10), F(1, 10 ** 6), F(-1, 10 ** 6), F(1000)]


def _holds(fam, a, op, t, x):
    """The relation at x, independently: True / False, or None (undefined, or too close to
    equality for 60 digits to tell with a transcendental value)."""
    with mpmath.workdps(60):
        u = fam[1](x, a)
        if u is None:
            return None
        if not isinstance(u, Fraction) and abs(u - _mp(t)) <= mpmath.mpf(10) ** -45 * (1 + abs(u)):
            return None
        return OPS[op](u, t if isinstance(u, Fraction) else _mp(t))


@st.composite
def problems(draw):
    integer = draw(st.booleans())
    lo = draw(st.one_of(st.none(), st.sampled_from([F(-3), F(-1), F(0), F(1, 2), F(2)])))
    hi = draw(st.one_of(st.none(), st.sampled_from([F(1), F(5, 2), F(10)])))
    if lo is not None and hi is not None:
        hi = lo + hi
    elif lo is None and hi is not None:
        hi = hi - 3
    dom = Domain(integer, lo, draw(st.booleans()), hi, draw(st.booleans()))
    if dom.is_empty():
        dom = Domain(integer, lo, True, None, False)
    fam = draw(st.sampled_from(FAMILIES))
    a = draw(st.sampled_from([F(0), F(1), F(-2), F(3, 2)]))
    op = draw(st.sampled_from(list(OPS)))
    t = draw(st.sampled_from(NUMS))
    pts = draw(st.lists(st.fractions(min_value=-10 ** 4, max_value=10 ** 4, max_denominator=64),
                        min_size=8, max_size=8))
    pts += [F(k) for k in (-1000, -10, -1, 0, 1, 10, 1000)]
    hint = draw(st.sampled_from([1, -1]))
    return dom, fam, a, op, t, [p for p in pts if dom.contains(p)], hint


def _end_of(dom, x, direction):
    """x is the domain's own end on the side where the answer would fail beyond it."""
    if direction == "least":
        return dom.lo is not None and (x == dom.lo if not dom.integer else x - 1 < dom.lo or
                                       (x - 1 == dom.lo and not dom.lo_closed))
    return dom.hi is not None and (x == dom.hi if not dom.integer else x + 1 > dom.hi or
                                   (x + 1 == dom.hi and not dom.hi_closed))


@FUZZ
@given(problems())
def test_every_require_answer_holds_at_it_and_fails_just_beyond(prob):
    dom, fam, a, op, t, pts, hint = prob
    text = fam[0].format(a=a)
    rel = parse(f"{text} {op} {t}", allow_relation=True)
    structural = trend(sub(rel.lhs, rel.rhs), "x", {}, dom)
    kw = {} if structural is not None else {"trend_hint": hint, "evidence": "a hint (maybe wrong)"}
    try:
        sol = solve_relation(rel, "x", {}, dom, what="fuzz", **kw)
    except UnsatisfiableError:
        if structural is not None:        # 'no value': it fails wherever the relation is defined
            assert not any(_holds(fam, a, op, t, p) for p in pts), (text, op, t, dom)
        return
    except BoundcalcError:
        return                            # an honest refusal
    c = sol.certificate
    if sol.outcome == "not monotone":
        ce = c["counterexample"]
        assert _holds(fam, a, op, t, F(ce["holds_at"])) is True
        assert _holds(fam, a, op, t, F(ce["fails_at"])) is False
        return
    if sol.outcome == "holds everywhere":
        if structural is not None:
            assert all(_holds(fam, a, op, t, p) is not False for p in pts), (text, op, t, dom)
        return
    if sol.value is None:
        assert sol.outcome == "undecided"
        return
    v, h = F(sol.value), F(c["holds_at"])
    assert dom.contains(v) or sol.attained is False
    assert _holds(fam, a, op, t, h) is not False, (text, op, t, dom, c)
    if c.get("fails_at") is None:
        assert _end_of(dom, h, sol.direction), (text, op, t, dom, c)
        return
    f = F(c["fails_at"])
    assert _holds(fam, a, op, t, f) is not True, (text, op, t, dom, c)
    assert (f < h) if sol.direction == "least" else (f > h)
    if sol.integer:
        assert abs(f - h) == 1
    else:
        m = max(abs(h), abs(f))            # relative width, or absolute where the boundary is 0
        assert abs(f - h) <= m * F(1, 2 ** 150) or m <= F(1, 2 ** 1000), (text, op, t, dom, c)
    if sol.attained is False:
        assert f == v                      # the infimum itself fails the strict relation


@pytest.mark.parametrize("text, op, t, dom, hint, want", [
    # greatest x, pole at the open end 1 (decreasing there: the hint a monotonicity proof gives)
    ("1/(x - 1)", ">=", F(2), Domain(False, F(1), False, None, False), -1, F(3, 2)),
    ("x", ">", F(1, 2), Domain(False, F(0), False, F(1), False), None, F(1, 2)),      # infimum, not attained
    ("x", "<=", F(10), Domain(True, F(1), True, F(10), True), None, F(10)),           # closed integer end
])
def test_known_answers(text, op, t, dom, hint, want):
    kw = {} if hint is None else {"trend_hint": hint, "evidence": "decreasing on (1, oo)"}
    sol = solve_relation(parse(f"{text} {op} {t}", allow_relation=True), "x", {}, dom, what="known", **kw)
    assert F(sol.value) == want
