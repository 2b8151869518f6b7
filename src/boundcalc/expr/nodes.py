"""Expression tree nodes (immutable, hashable).

Numbers are exact rationals (:class:`fractions.Fraction`); subtraction is ``Add`` of a
``Mul`` by -1 and division is ``Mul`` by ``Pow(., -1)``, as in SymPy, so every back end
handles only these few node types.
"""
from __future__ import annotations

from dataclasses import dataclass
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

    def symbols(self) -> set[str]:
        return {n.name for n in self.walk() if isinstance(n, Sym)}

    def refs(self) -> set[tuple[str | None, str]]:
        return {(n.paper, n.name) for n in self.walk() if isinstance(n, Ref)}

    def map(self, f: Callable[["Node"], "Node | None"]) -> "Node":
        """Rebuild bottom-up; ``f`` may return a replacement for a node or None to keep it."""
        rep = f(self)
        if rep is not None:
            return rep
        return self._rebuild(tuple(c.map(f) for c in self.children()))

    def _rebuild(self, kids: tuple["Node", ...]) -> "Node":
        return self


@dataclass(frozen=True, slots=True)
class Num(Node):
    value: Fraction


@dataclass(frozen=True, slots=True)
class Const(Node):
    name: str  # "pi" or "E"


@dataclass(frozen=True, slots=True)
class Sym(Node):
    name: str


@dataclass(frozen=True, slots=True)
class Ref(Node):
    """A reference to another formula: bare (``paper`` None) or qualified."""
    paper: str | None
    name: str


@dataclass(frozen=True, slots=True)
class Add(Node):
    args: tuple[Node, ...]

    def children(self):
        return self.args

    def _rebuild(self, kids):
        return Add(kids)


@dataclass(frozen=True, slots=True)
class Mul(Node):
    args: tuple[Node, ...]

    def children(self):
        return self.args

    def _rebuild(self, kids):
        return Mul(kids)


@dataclass(frozen=True, slots=True)
class Pow(Node):
    base: Node
    exp: Node

    def children(self):
        return (self.base, self.exp)

    def _rebuild(self, kids):
        return Pow(*kids)


@dataclass(frozen=True, slots=True)
class Func(Node):
    name: str
    args: tuple[Node, ...]

    def children(self):
        return self.args

    def _rebuild(self, kids):
        return Func(self.name, kids)


REL_OPS = ("<=", ">=", "<", ">", "==")


@dataclass(frozen=True, slots=True)
class Rel(Node):
    op: str
    lhs: Node
    rhs: Node

    def children(self):
        return (self.lhs, self.rhs)

    def _rebuild(self, kids):
        return Rel(self.op, *kids)


def sub(a: Node, b: Node) -> Node:
    return Add((a, Mul((Num(Fraction(-1)), b))))


def substitute(node: Node, mapping: dict[str, Node]) -> Node:
    """Replace symbols by expressions."""
    return node.map(lambda n: mapping.get(n.name) if isinstance(n, Sym) else None)
