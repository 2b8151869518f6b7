"""The strategy table (prover/pipeline.py): the order of the layers as data, the shares of
the budget, and the sub-goals a row may open. The expected orders are the prose rule of
decide.py's docstring (the rewrites before the ends layer where a side has a root, after it
otherwise); the shares are worked by hand from max(floor, min(cap, fraction * total))."""
from __future__ import annotations

from fractions import Fraction

from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse


def test_the_strategy_table_orders_the_rewrites_around_the_ends_layer():
    """The prose rule as data: the rewrites before the ends layer where a side has a root,
    after it otherwise (two rows of one layer in :data:`pipeline.STRATEGY`)."""
    from boundcalc.prover import decide as D
    from boundcalc.prover import pipeline as P
    from boundcalc.prover.goal import Budget, Goal
    names = [r.layer.name for r in P.STRATEGY]
    assert names.count("rewrites") == 2 and names.index("rewrites") < names.index("ends") < \
        len(names) - 1 - names[::-1].index("rewrites")

    def applying(lhs, rhs):
        a, b = parse(lhs, allow_relation=False), parse(rhs, allow_relation=False)
        goal = Goal(a, "<=", b, D.sub(b, a), ">=", {"x": Domain(lo=Fraction(0))}, [])
        budget = Budget.starting_now(1.0, 100, 0)
        return [r.layer.name for r in P.STRATEGY if r.layer.name in ("rewrites", "ends") and r.admits(goal, budget)]
    assert applying("sqrt(x)", "1 + x") == ["rewrites", "ends"]
    assert applying("x", "1 + x**2") == ["ends", "rewrites"]
    assert P.Share(0.3, cap=3.0).of(20.0) == 3.0 and P.Share(0.3, cap=3.0).of(1.0) == 0.3
    assert P.Share(0.1, cap=1.0, floor=0.3).of(1.0) == 0.3


def test_a_row_opens_only_the_sub_goals_it_names():
    """The table's ``opens`` column is enforced: a layer's goal reaches only the sub-goal
    kinds of its row (the convexity row: real relaxations; the rewrites: relations)."""
    import pytest

    from boundcalc.prover import pipeline as P
    from boundcalc.prover.goal import Goal, SubGoalNotDeclared, SubGoals
    rows = {type(r.layer).__name__: r for r in P.STRATEGY}
    assert rows["Convexity"].opens == {"real"} and rows["Rewrites"].opens == {"relation"}
    assert rows["Interval"].opens == frozenset() and rows["Smt"].opens == frozenset()
    x = parse("x", allow_relation=False)
    goal = Goal(x, ">=", x, x, ">=", {"x": Domain(lo=Fraction(0))}, [],
                subgoals=SubGoals(real=lambda *a: "real", relation=lambda *a: "relation"))
    seen = goal.opening(rows["Convexity"].opens)
    assert seen.subgoals.open("real")() == "real"
    with pytest.raises(SubGoalNotDeclared):
        seen.subgoals.open("relation")
    assert seen.found is goal.found           # one goal's findings, whichever row reads them
