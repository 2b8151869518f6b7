"""What the layers work on (prover/goal.py): the Goal's integer symbols, the Budget counted
on the work clock, the sub-goal kinds a layer may open."""
from __future__ import annotations

from fractions import Fraction

import pytest

from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.prover import budget
from boundcalc.prover.goal import Budget, Goal, SubGoalNotDeclared, SubGoals


def _goal(**doms):
    x = parse("x", allow_relation=False)
    return Goal(x, ">=", x, x, ">=", doms, [])


def test_the_integer_symbols_are_those_of_integer_domain():
    g = _goal(x=Domain(lo=Fraction(0)), n=Domain(integer=True, lo=Fraction(1), lo_closed=True))
    assert g.integers == frozenset({"n"})


def test_a_budget_runs_out_on_the_work_clock_not_a_clock():
    b = Budget.starting_now(0.5, 100, 0)
    assert b.total == 0.5 and b.left() == pytest.approx(0.5) and not b.expired()
    budget.charge(0.25)                           # work, in nominal seconds
    assert b.left() == pytest.approx(0.25) and not b.expired()
    budget.charge(0.5)
    assert b.expired() and b.left() < 0
    assert b.with_share(0.1).seconds == 0.1 and b.seconds is None    # a row's share, the budget unchanged


def test_a_goal_opens_only_the_declared_sub_goals():
    g = _goal(x=Domain())
    assert g.subgoals == SubGoals()
    with pytest.raises(SubGoalNotDeclared):
        g.subgoals.open("real")
    full = SubGoals(real=lambda *a: "r", relation=lambda *a: "q")
    only = full.only({"relation"})
    assert only.real is None and only.open("relation")() == "q"
