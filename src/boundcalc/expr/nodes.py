"""Expression tree nodes (immutable, hashable).

Numbers are exact rationals (:class:`fractions.Fraction`); subtraction is ``Add`` of a
``Mul`` by -1 and division is ``Mul`` by ``Pow(., -1)``, as in SymPy, so every back end
handles only these few node types.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Callable, Iterator


class Node:
    __slots__ = ()

    def children(self) -> tuple["Node", ...]:
        return ()

    def walk(self) -> Iterator["Node"]:
        yield self
        for c in self.children():
            yield from c.walk()

    def unique_nodes(self) -> Iterator["Node"]:
        """Each distinct node object once (inlined formulas share subtrees: a DAG)."""
        seen: set[int] = set()
        stack = [self]
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            yield n
            stack.extend(n.children())

    def symbols(self) -> set[str]:
        return {n.name for n in self.unique_nodes() if isinstance(n, Sym)}

    def refs(self) -> set[tuple[str | None, str]]:
        return {(n.paper, n.name) for n in self.unique_nodes() if isinstance(n, Ref)}

    def map(self, f: Callable[["Node"], "Node | None"], _memo: dict | None = None) -> "Node":
        """Rebuild bottom-up; ``f`` may return a replacement for a node or None to keep it.
        Shared subtrees are rebuilt once and stay shared."""
        memo = {} if _memo is None else _memo
        key = id(self)
        if key in memo:
            return memo[key]
        rep = f(self)
        if rep is None:
            kids = self.children()
            new = tuple(c.map(f, memo) for c in kids)
            rep = self if all(a is b for a, b in zip(new, kids)) else self._rebuild(new)
        memo[key] = rep
        return rep

    def _rebuild(self, kids: tuple["Node", ...]) -> "Node":
        return self


class _Fields(Node):
    """Immutable, hashable node whose fields are its ``__slots__`` (plain classes: much
    cheaper to define at import time than dataclasses, which matters for start-up)."""
    __slots__ = ()

    def __init__(self, *args):
        if len(args) != len(self.__slots__):
            raise TypeError(f"{type(self).__name__} takes {len(self.__slots__)} arguments")
        for f, a in zip(self.__slots__, args):
            object.__setattr__(self, f, a)

    def __setattr__(self, k, v):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other):
        return type(other) is type(self) and all(getattr(self, f) == getattr(other, f) for f in self.__slots__)

    def __hash__(self):
        return hash((type(self).__name__,) + tuple(getattr(self, f) for f in self.__slots__))

    def __repr__(self):
        return f"{type(self).__name__}(" + ", ".join(repr(getattr(self, f)) for f in self.__slots__) + ")"


class Num(_Fields):
    """An exact rational number."""
    __slots__ = ("value",)


class Const(_Fields):
    """``pi`` or ``E``."""
    __slots__ = ("name",)


class Sym(_Fields):
    __slots__ = ("name",)


class Ref(_Fields):
    """A reference to another formula: bare (``paper`` None) or qualified."""
    __slots__ = ("paper", "name")


class Add(_Fields):
    __slots__ = ("args",)

    def children(self):
        return self.args

    def _rebuild(self, kids):
        return Add(kids)


class Mul(_Fields):
    __slots__ = ("args",)

    def children(self):
        return self.args

    def _rebuild(self, kids):
        return Mul(kids)


class Pow(_Fields):
    __slots__ = ("base", "exp")

    def children(self):
        return (self.base, self.exp)

    def _rebuild(self, kids):
        return Pow(*kids)


class Func(_Fields):
    __slots__ = ("name", "args")

    def children(self):
        return self.args

    def _rebuild(self, kids):
        return Func(self.name, kids)


REL_OPS = ("<=", ">=", "<", ">", "==")


class Rel(_Fields):
    """``lhs OP rhs`` with OP in REL_OPS."""
    __slots__ = ("op", "lhs", "rhs")

    def children(self):
        return (self.lhs, self.rhs)

    def _rebuild(self, kids):
        return Rel(self.op, *kids)


def sub(a: Node, b: Node) -> Node:
    return Add((a, Mul((Num(Fraction(-1)), b))))


def substitute(node: Node, mapping: dict[str, Node]) -> Node:
    """Replace symbols by expressions."""
    return node.map(lambda n: mapping.get(n.name) if isinstance(n, Sym) else None)
