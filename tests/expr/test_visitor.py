"""The one tree dispatcher (boundcalc.expr.visitor): every visitor handles every node
class, dispatch along the MRO and through @handles, iterative walks of deep trees,
memoised shared subtrees, top-down handlers that stop early, and the hooks."""
from __future__ import annotations

import gc
import importlib
import pkgutil
import re
from fractions import Fraction
from pathlib import Path

import pytest

import boundcalc
from boundcalc.expr.nodes import Add, Const, Func, Mul, Node, Num, Pow, Ref, Rel, Sym, _Fields
from boundcalc.expr.visitor import DESCEND, MissingHandler, Visitor, handles, node_classes, top_down, visitor_classes

SRC = Path(boundcalc.__file__).parent
PACKAGES = ("boundcalc.expr", "boundcalc.backends", "boundcalc.services", "boundcalc.prover", "boundcalc.registry")


def _import_walkers() -> None:
    for pkg in PACKAGES:
        mod = importlib.import_module(pkg)
        for info in pkgutil.walk_packages(mod.__path__, pkg + "."):
            importlib.import_module(info.name)


def _project_visitors() -> list[type[Visitor]]:
    _import_walkers()
    return [v for v in visitor_classes() if v.__module__.startswith("boundcalc.")]


def test_every_visitor_of_the_source_is_enumerated():
    """The enumeration below is not vacuous: every ``class X(Visitor...)`` written in the
    source (found by reading the files, a second method) is among the classes tested."""
    declared = set()
    for path in SRC.rglob("*.py"):
        for m in re.finditer(r"^class (\w+)\(Visitor\b", path.read_text(), re.MULTILINE):
            declared.add(m.group(1))
    found = {v.__name__ for v in _project_visitors()}
    assert len(declared) >= 15
    assert declared <= found, f"visitors not imported by this test: {declared - found}"


def test_node_classes_are_the_language():
    assert {c.__name__ for c in node_classes()} == {"Num", "Const", "Sym", "Ref", "Add", "Mul", "Pow", "Func", "Rel",
                                                   "Indexed", "BigOp"}


@pytest.mark.parametrize("visitor", _project_visitors(), ids=lambda v: f"{v.__module__}.{v.__qualname__}")
def test_every_node_class_has_a_handler_in_every_visitor(visitor):
    missing = []
    for cls in node_classes():
        try:
            visitor.handler_for(cls)
        except MissingHandler:
            missing.append(cls.__name__)
    assert not missing, f"{visitor.__qualname__} has no handler for {', '.join(missing)}"
    # no catch-all on the abstract bases: a new node class must get handlers of its own
    assert not hasattr(visitor, "visit_Node") and not hasattr(visitor, "visit__Fields")
    assert Node not in visitor._by_class and _Fields not in visitor._by_class


def test_a_node_class_without_handlers_is_caught():
    """A new node type fails the enumeration for every project visitor (then it is removed
    again, so the rest of the session does not see it)."""
    visitors = _project_visitors()

    class Probe(_Fields):
        __slots__ = ("value",)
    try:
        assert Probe in node_classes()
        for v in visitors:
            with pytest.raises(MissingHandler, match="Probe"):
                v.handler_for(Probe)
    finally:
        del Probe
        gc.collect()
    assert "Probe" not in {c.__name__ for c in node_classes()}


def test_missing_handler_raises_during_a_walk():
    class OnlyLeaves(Visitor):
        abstract = True

        @handles(Num, Sym)
        def leaf(self, node, args):
            return 1

    with pytest.raises(MissingHandler, match="OnlyLeaves has no handler for Add"):
        OnlyLeaves().walk(Add((Num(Fraction(1)), Sym("x"))))


class Count(Visitor):
    """Number of leaves counted with multiplicity (a fold), and how often handlers ran."""
    abstract = True

    def __init__(self):
        super().__init__()
        self.calls = 0

    @handles(Num, Sym, Const, Ref)
    def leaf(self, node, args):
        self.calls += 1
        return 1

    @handles(Add, Mul, Pow, Func, Rel)
    def inner(self, node, args):
        self.calls += 1
        return sum(args)


def test_shared_subtrees_are_visited_once():
    # x_{i+1} = x_i + x_i: 2**300 leaves along paths, 301 distinct nodes
    n = Sym("x")
    for _ in range(300):
        n = Add((n, n))
    v = Count()
    assert v.walk(n) == 2 ** 300
    assert v.calls == 301
    assert v.walk(n) == 2 ** 300 and v.calls == 301      # the memo lives with the instance


def test_memo_by_value_merges_equal_subtrees():
    class CountByValue(Count):
        abstract = True
        memo_by_value = True

    a = Add((Sym("x"), Num(Fraction(2))))
    b = Add((Sym("x"), Num(Fraction(2))))                 # equal, not the same object
    tree = Mul((a, b))
    by_id, by_value = Count(), CountByValue()
    assert by_id.walk(tree) == by_value.walk(tree) == 4
    assert by_id.calls == 7 and by_value.calls == 4      # x, 2, a, x, 2, b, Mul vs x, 2, a, Mul


def test_deep_trees_need_no_python_stack():
    depth = 20_000                                        # far beyond the recursion limit
    n = Sym("x")
    for _ in range(depth):
        n = Func("exp", (Add((n, Num(Fraction(1)))),))
    v = Count()
    assert v.walk(n) == depth + 1
    assert v.calls == 3 * depth + 1                       # Func, Add, Num(1) per level, and x


def test_dispatch_along_the_mro_and_subclass_overrides():
    class Base(Visitor):
        abstract = True

        @handles(Num, Sym, Const, Ref)
        def leaf(self, node, args):
            return "leaf"

        @handles(Add, Mul)
        def assoc(self, node, args):
            return "assoc(" + ",".join(args) + ")"

        @handles(Pow, Func, Rel)
        def other(self, node, args):
            return "other"

    class Sub(Base):
        abstract = True

        def visit_Mul(self, node, args):                  # a name handler in a subclass wins
            return "mul"

    t = Add((Sym("x"), Mul((Sym("y"), Num(Fraction(3))))))
    assert Base().walk(t) == "assoc(leaf,assoc(leaf,leaf))"
    assert Sub().walk(t) == "assoc(leaf,mul)"


def test_top_down_handlers_choose_what_to_visit_and_stop_early():
    class Product(Visitor):
        """Value of a product; a zero factor stops the walk of the later factors."""
        abstract = True

        def __init__(self):
            super().__init__()
            self.seen = []

        def visit_Num(self, node, args):
            self.seen.append(node.value)
            return node.value

        def visit_Mul(self, node):
            out = Fraction(1)
            for a in node.args:
                v = yield a
                if v == 0:
                    return Fraction(0)
                out *= v
            return out

        def visit_Pow(self, node):                        # asks for a node it builds
            e = yield node.exp
            if e == -1:
                return 1 / (yield node.base)
            return (yield Mul((node.base,) * int(e)))

        @top_down
        def visit_Ref(self, node):
            raise AssertionError("never visited")

        @handles(Sym, Const, Add, Func, Rel)
        def no(self, node, args):
            raise AssertionError("not in these trees")

    v = Product()
    t = Mul((Num(Fraction(3)), Num(Fraction(0)), Ref(None, "boom")))
    assert v.walk(t) == 0 and v.seen == [3, 0]
    assert Product().walk(Pow(Num(Fraction(2)), Num(Fraction(10)))) == 1024
    assert Product().walk(Pow(Num(Fraction(4)), Num(Fraction(-1)))) == Fraction(1, 4)


def test_enter_and_leave_hooks():
    class Hooked(Count):
        abstract = True

        def __init__(self):
            super().__init__()
            self.left = []

        def enter(self, node):
            return 100 if isinstance(node, Func) else DESCEND   # a Func counts 100, children unseen

        def leave(self, node, result):
            self.left.append(type(node).__name__)
            return result

    t = Add((Func("exp", (Sym("x"),)), Sym("y")))
    v = Hooked()
    assert v.walk(t) == 101
    assert v.left == ["Sym", "Add"]                       # not for the Func (entered) nor its child


def test_exceptions_propagate_from_handlers():
    from boundcalc.expr.exact import NotExact, evaluate_exact
    with pytest.raises(NotExact):
        evaluate_exact(Add((Num(Fraction(1)), Const("pi"))), {})
    with pytest.raises(KeyError):
        evaluate_exact(Add((Num(Fraction(1)), Sym("x"))), {})


def test_ported_walkers_on_a_deep_tree():
    """Exact and ball evaluation, SymPy-free signs and constant folding of a 20000-level
    tree (each walker was recursive before): values computed by hand."""
    from boundcalc.backends import arb as A
    from boundcalc.expr.exact import evaluate_exact
    from boundcalc.prover.decide import fold_constants, structural_sign
    depth = 5_000
    n = Sym("x")
    for _ in range(depth):
        n = Add((n, Num(Fraction(1, 2))))                 # x + depth/2
    assert evaluate_exact(n, {"x": Fraction(3)}) == 3 + Fraction(depth, 2)
    lo, hi = A.enclose_interval(n, {"x": Fraction(3)}, prec=64)
    assert A.to_fraction(lo) == A.to_fraction(hi) == 3 + Fraction(depth, 2)
    assert structural_sign(n, {}) is None                 # x has no domain here
    from boundcalc.expr.domains import Domain
    assert structural_sign(n, {"x": Domain(lo=Fraction(0))}) == "positive"
    c = Num(Fraction(0))
    for _ in range(depth):
        c = Add((c, Num(Fraction(1, 2))))
    assert fold_constants(c) == Num(Fraction(depth, 2))


def test_trend_does_not_look_inside_a_relation():
    """A relation has no direction: trend says so without evaluating its sides (one of
    which is an unresolved reference that cannot be evaluated)."""
    from boundcalc.expr.domains import Domain
    from boundcalc.services.solve import trend
    rel = Rel("<=", Add((Sym("x"), Ref(None, "f"))), Num(Fraction(1)))
    assert trend(rel, "x", {}, Domain(lo=Fraction(1))) is None
    assert trend(Add((Sym("x"), Num(Fraction(2)))), "x", {}, Domain(lo=Fraction(1))) == 1
    assert trend(Mul((Num(Fraction(-1)), Sym("x"))), "x", {}, Domain(lo=Fraction(1))) == -1
