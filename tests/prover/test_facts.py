"""Every fact of prover/facts.py holds at many points, checked at 300 digits.

A wrong fact would let the SMT layer prove false relations, so each fact of the one table
is evaluated (with mpmath's own functions, independent of the arb back end) on a grid of
arguments spanning tiny, moderate and large magnitudes of both signs."""
import mpmath
import pytest

from boundcalc.prover.facts import FACTS, MP_KIT, PAIR_FACTS, monotone_pair

FUNCS = {"exp": mpmath.exp, "log": mpmath.log, "tanh": mpmath.tanh, "atan": mpmath.atan,
         "erf": mpmath.erf, "sin": mpmath.sin, "cos": mpmath.cos, "tan": mpmath.tan}


def _points(func):
    base = [mpmath.mpf(k) / 16 for k in range(1, 161)] + [mpmath.mpf(10) ** e for e in range(-20, 4)]
    base += [-x for x in base] + [mpmath.mpf(0), mpmath.mpf("1.5707"), mpmath.mpf("-1.5707"), mpmath.mpf("3.14159")]
    if func in ("tanh", "erf"):            # beyond 10 the value is 1 to more than 150 digits
        return [x for x in base if abs(x) <= 10]
    if func == "log":
        return [x for x in base if x > 0]
    if func == "exp":
        return [x for x in base if abs(x) < 700]
    if func == "tan":
        return [x for x in base if abs(x) < mpmath.pi / 2]
    return base


@pytest.mark.parametrize("func,label,fact", [(f, lb, fa) for f, facts in FACTS.items() for lb, fa in facts],
                         ids=[lb for facts in FACTS.values() for lb, _ in facts])
def test_fact_holds(func, label, fact):
    # 300 digits: the Maclaurin facts of sin/cos of degree 8 and 9 hold with equality at 0, and
    # their margin at u = 1e-20 (u^8/8!, relative u^10/10!) is beyond 150 digits
    with mpmath.workdps(300):
        for u in _points(func):
            F = FUNCS[func](u)
            assert fact(u, F, MP_KIT), (label, u, F)


@pytest.mark.parametrize("func", sorted(set(PAIR_FACTS) | {"exp", "log", "tanh", "atan", "erf"}))
def test_pair_facts_hold(func):
    pts = [p for p in _points(func)][::17]
    with mpmath.workdps(60):
        for u1 in pts:
            for u2 in pts:
                F1, F2 = FUNCS[func](u1), FUNCS[func](u2)
                assert monotone_pair(u1, F1, u2, F2, MP_KIT)
                for label, fact in PAIR_FACTS.get(func, ()):
                    assert fact(u1, F1, u2, F2, MP_KIT), (label, u1, u2)


def test_tan_facts_hold_up_to_the_pole_and_can_fail():
    """tan's facts through pi (issue 36) at 150 digits at pi/2 - 10^-k (k = 1..25; beyond, t = pi/2 - u
    loses the digits that the margin t^4/45 needs) and their
    mirror images; F moved by 1e-6 relative breaks the pole bounds there (the check can fail)."""
    facts = [fa for lb, fa in FACTS["tan"] if "pi/2" in lb]
    assert len(facts) == 3
    with mpmath.workdps(150):
        pts = [mpmath.pi / 2 - mpmath.mpf(10) ** -k for k in range(1, 26)]
        pts += [mpmath.pi / 2 * k / 64 for k in range(1, 64)]
        for u in pts + [-x for x in pts]:
            for fa in facts:
                assert fa(u, mpmath.tan(u), MP_KIT), u
        u = mpmath.pi / 2 - mpmath.mpf(10) ** -8
        low, up = facts[1], facts[2]
        assert not low(u, mpmath.tan(u) * (1 - mpmath.mpf(10) ** -6), MP_KIT)
        assert not up(u, mpmath.tan(u) * (1 + mpmath.mpf(10) ** -6), MP_KIT)
