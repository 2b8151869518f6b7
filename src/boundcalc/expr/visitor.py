"""One dispatcher for every walk over the expression tree.

A :class:`Visitor` subclass declares one handler per node class; :meth:`Visitor.walk`
finds it along the node class's MRO (as SymPy's ``Printer._print`` finds
``_print_<Class>``): a method named ``visit_<Class>``, or any method decorated with
:func:`handles` (as pysmt's ``@handles``: one handler may serve several classes). A node
class without a handler is an error (:class:`MissingHandler`), never a silent
fall-through; ``tests/expr/test_visitor.py`` enumerates every node class against every
visitor subclass, so a new node type without a handler in some visitor fails the suite.

Two kinds of handler:

* **post-order** (the default): ``handler(self, node, args)``, where ``args`` is the list of
  the results for ``node.children()``, in order — a fold;
* **top-down** (a generator function, or a plain function marked :func:`top_down`):
  ``handler(self, node)`` runs *before* the children and asks for the result of any node it
  needs with ``r = yield some_node`` (a child, or a node it builds), in the order it
  chooses; it may stop early (short-circuit) and it ``return``\\ s its result. A plain
  ``@top_down`` function visits no child at all.

The walk is **iterative** (an explicit stack: trees thousands of levels deep cost no Python
stack) and **memoised**: a visitor instance remembers each node's result, keyed by the
node's identity (inlined formulas share subtrees: a DAG is walked once per distinct node),
or by equality with ``memo_by_value = True`` (equal subtrees share one result). The memo
lives as long as the visitor instance: make one instance per evaluation. Nodes whose
results are memoised by identity are kept alive by the instance, so an id is never reused
for a different node within its lifetime.

Two optional hooks, called only when a subclass defines them: ``enter(self, node)`` runs
before a node's handler and may return its result (then neither the handler, nor the
children, nor ``leave`` run), or :data:`DESCEND` to go on; ``leave(self, node, result)``
runs after the handler and returns the result to memoise (a check, a cache of the
caller's).
"""
from __future__ import annotations

from collections.abc import Callable
from types import GeneratorType
from typing import Any, ClassVar, Generic, TypeVar

from .nodes import Node

R = TypeVar("R")

#: ``enter`` returns this to let the node's handler run.
DESCEND: Any = object()
_START: Any = object()
_CO_GENERATOR = 0x20          # inspect.CO_GENERATOR (inspect itself is slow to import)


class MissingHandler(TypeError):
    """A visitor has no handler for a node class (along its MRO)."""


def handles(*classes: type[Node]) -> Callable:
    """Declare the decorated method the handler of ``classes`` (and their subclasses,
    unless a subclass has a handler of its own)."""
    def deco(fn: Callable) -> Callable:
        fn._handles = tuple(getattr(fn, "_handles", ())) + classes  # type: ignore[attr-defined]
        return fn
    return deco


def top_down(fn: Callable) -> Callable:
    """Mark a plain (non-generator) handler ``fn(self, node)`` that runs before, and
    instead of, the walk of the node's children."""
    fn._top_down = True  # type: ignore[attr-defined]
    return fn


class Visitor(Generic[R]):
    """Base of every tree walker; see the module docstring."""
    #: key the memo by node equality instead of identity
    memo_by_value: ClassVar[bool] = False
    _by_class: ClassVar[dict[type, str]] = {}
    _resolved: ClassVar[dict[type, tuple[Callable, bool]]] = {}
    _hooks: ClassVar[tuple[bool, bool]] = (False, False)

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        table: dict[type, str] = {}
        for klass in reversed(cls.__mro__):          # a subclass's declarations win
            for name, fn in vars(klass).items():
                for c in getattr(fn, "_handles", ()):
                    table[c] = name
        cls._by_class = table
        cls._resolved = {}
        cls._hooks = (cls.enter is not Visitor.enter, cls.leave is not Visitor.leave)

    def __init__(self) -> None:
        self.memo: dict[Any, Any] = {}
        self._alive: list[Node] = []

    # -- dispatch
    @classmethod
    def handler_for(cls, node_class: type[Node]) -> tuple[Callable, bool]:
        """``(function, top_down)`` handling ``node_class``: along its MRO, the first class
        with a ``visit_<Class>`` method or a :func:`handles` declaration. Raises
        :class:`MissingHandler`."""
        got = cls._resolved.get(node_class)
        if got is not None:
            return got
        for k in node_class.__mro__:
            if k is object:
                break
            name = "visit_" + k.__name__
            fn = getattr(cls, name, None)
            if fn is None and k in cls._by_class:
                fn = getattr(cls, cls._by_class[k])
            if fn is not None:
                gen = bool(getattr(fn, "__code__", None) and fn.__code__.co_flags & _CO_GENERATOR)
                got = (fn, gen or getattr(fn, "_top_down", False))
                cls._resolved[node_class] = got
                return got
        raise MissingHandler(f"{cls.__name__} has no handler for {node_class.__name__}")

    # -- optional hooks (called only when a subclass overrides them)
    def enter(self, node: Node) -> Any:
        return DESCEND

    def leave(self, node: Node, result: Any) -> Any:
        return result

    # -- the walk
    def walk(self, root: Node) -> R:
        """The result for ``root``: every node's handler run once (memoised), no recursion."""
        memo = self.memo
        by_value = self.memo_by_value
        keyof: Any = _itself if by_value else id     # a node's memo key: itself, or its id
        k0: Any = keyof(root)
        if k0 in memo:
            return memo[k0]
        has_enter, has_leave = self._hooks
        cls = type(self)
        table = cls._resolved
        keep = None if by_value else self._alive.append
        stack: list[list] = []
        node, key = root, k0
        frame: list | None = None
        value: Any = _START
        while True:
            if frame is None:
                # open ``node`` (not memoised): the enter hook, then a frame for its handler
                out = self.enter(node) if has_enter else DESCEND
                entered = out is not DESCEND
                if not entered:
                    t = type(node)
                    fn, td = table[t] if t in table else cls.handler_for(t)
                    if td:
                        gen = fn(self, node)
                        if type(gen) is GeneratorType:
                            frame = [node, key, gen, None, None, None]
                        else:
                            out = gen
                    else:
                        kids = node.children()
                        if kids:
                            frame = [node, key, None, kids, [], fn]
                        else:
                            out = fn(self, node, [])
                if frame is None:
                    if has_leave and not entered:
                        out = self.leave(node, out)
                    memo[key] = out
                    if keep is not None:
                        keep(node)
                    if not stack:
                        return out
                    frame, value = stack.pop(), out
                    continue
                value = _START
            # advance ``frame`` with ``value`` (the result it asked for, or _START)
            n, key, gen, kids, res, fn = frame
            need = None
            if gen is None:
                if value is not _START:
                    res.append(value)
                i = len(res)
                while i < len(kids):
                    c = kids[i]
                    ck = keyof(c)
                    if ck in memo:
                        res.append(memo[ck])
                        i += 1
                        continue
                    need, need_key = c, ck
                    break
                if need is None:
                    out = fn(self, n, res)
            else:
                send = None if value is _START else value
                try:
                    while True:
                        c = gen.send(send)
                        ck = keyof(c)
                        if ck in memo:
                            send = memo[ck]
                            continue
                        need, need_key = c, ck
                        break
                except StopIteration as stop:
                    out = stop.value
            if need is not None:
                stack.append(frame)
                frame, node, key = None, need, need_key
                continue
            if has_leave:
                out = self.leave(n, out)
            memo[key] = out
            if keep is not None:
                keep(n)
            if not stack:
                return out
            frame, value = stack.pop(), out

    __call__ = walk


def _itself(node: Node) -> Node:
    """The memo key of a node under ``memo_by_value``: the node itself (equal subtrees share it)."""
    return node


def visitor_classes() -> list[type[Visitor]]:
    """Every concrete subclass of :class:`Visitor` defined so far (those whose class
    attribute ``abstract`` is not True in their own body)."""
    out, todo = [], list(Visitor.__subclasses__())
    while todo:
        c = todo.pop()
        todo.extend(c.__subclasses__())
        if not vars(c).get("abstract", False):
            out.append(c)
    return sorted(set(out), key=lambda c: (c.__module__, c.__qualname__))


def node_classes() -> list[type[Node]]:
    """Every concrete node class (subclasses of :class:`Node` not named with a leading
    underscore)."""
    out, todo = [], list(Node.__subclasses__())
    while todo:
        c = todo.pop()
        todo.extend(c.__subclasses__())
        if not c.__name__.startswith("_"):
            out.append(c)
    return sorted(set(out), key=lambda c: c.__name__)
