"""Issue 36's held-out suite (tests/prover/classical_cases.py) checked independently of
boundcalc's prover: every theorem holds at 50 digits (mpmath) on a dense grid of its domain,
every false twin fails at its recorded counterexample point (in the domain, under the
assumptions, by a relative margin beyond 1e-30), and every side is an expression that
``boundcalc verify`` accepts. The prover's verdicts on the suite are bench/relations.py's
business (``--only classical``); no verdict is pinned here."""
from __future__ import annotations

import json

import mpmath
import pytest
from prover.classical_cases import CASES, WITNESSES, C, grid, margin, mp_eval, prover_input, satisfies

from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse

FAMILIES = {"tan", "sin", "cos", "sin/cos", "exp", "log", "atan", "tanh", "sqrt", "abs", "error", "two-variable"}
TOL = mpmath.mpf(10) ** -40          # rounding at 50 digits (relative, see margin below)
_W = json.loads(WITNESSES.read_text())


def _rel_margin(c: C, triple, env):
    lhs, rel, rhs = triple
    a, b = mp_eval(lhs, env), mp_eval(rhs, env)
    assert not (mpmath.im(a) or mpmath.im(b)), (c.key, env)
    return margin(rel, a, b) / (1 + abs(a) + abs(b))


def test_the_suite_covers_the_issue():
    assert len(CASES) >= 150
    assert {c.family for c in CASES} == FAMILIES
    assert all(sum(c.family == f for c in CASES) >= 10 for f in FAMILIES)
    assert len({c.key for c in CASES}) == len(CASES)
    assert len({c.twin_rel() for c in CASES}) == len(CASES)
    assert all(c.source and c.twin_rel() != (c.lhs, c.rel, c.rhs) for c in CASES)
    assert sum(len(c.dom.split()) == 2 for c in CASES) >= 40     # two variables
    assert set(_W) == {c.key for c in CASES}                       # every twin's point recorded


@pytest.mark.parametrize("c", CASES, ids=[c.key[:70] for c in CASES])
def test_sides_are_what_verify_accepts(c):
    for text in (c.lhs, c.rhs, *c.twin_rel()[::2], *c.assume):
        parse(text, allow_relation=text in c.assume)
    doms, extra = prover_input(c.dom, c.assume)
    for n, kw in doms.items():
        d = Domain(**kw)
        for env in grid(c.dom, 20, 6):                      # the prover's domain contains the case's
            if satisfies(c, env):
                assert d.contains(env[n]), (n, env[n])
    for a in extra:
        parse(a)


@pytest.mark.parametrize("c", CASES, ids=[c.key[:70] for c in CASES])
def test_theorem_holds_on_a_dense_grid_at_50_digits(c):
    n = 0
    with mpmath.workdps(50):
        for env in grid(c.dom):
            if not satisfies(c, env):
                continue
            try:
                m = _rel_margin(c, (c.lhs, c.rel, c.rhs), env)
            except ZeroDivisionError:
                continue                                   # a removable point (x = 0 in sin(x)/x)
            assert m >= -TOL, (c.key, {k: mpmath.nstr(v, 20) for k, v in env.items()}, mpmath.nstr(m, 5))
            n += 1
    assert n >= (300 if len(c.dom.split()) == 1 else 400)


@pytest.mark.parametrize("c", CASES, ids=[c.key[:70] for c in CASES])
def test_twin_fails_at_its_recorded_point_at_50_digits(c):
    with mpmath.workdps(50):
        env = {k: mpmath.mpf(v) for k, v in _W[c.key].items()}
        assert satisfies(c, env), (c.key, env)
        assert _rel_margin(c, c.twin_rel(), env) < -mpmath.mpf(10) ** -30, (c.key, env)
        assert _rel_margin(c, (c.lhs, c.rel, c.rhs), env) >= -TOL       # and the theorem holds there


def test_a_planted_false_theorem_is_caught():
    """The grid check can fail: a theorem moved by 1e-3 (Jordan's constant 2/pi -> 2.002/pi) fails it."""
    bad = C("sin", "planted", "sin(x)", ">", "2.002*x/pi", "x:(0,pi/2)", "x")
    with mpmath.workdps(50):
        assert min(_rel_margin(bad, (bad.lhs, bad.rel, bad.rhs), e) for e in grid(bad.dom)) < -TOL
