"""Values of indexed symbols: a :class:`Vector` (one value per index, from ``start``) or
one number for every index (broadcast). One rule, used by every back end through
:func:`component`, and by the callers that build environments through :func:`check_length`
(:func:`boundcalc.registry.indexed.check_lengths` evaluates the declared ranges).
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..errors import ExpressionError

__all__ = ["Vector", "check_length", "component", "range_start"]


class Vector:
    """The values ``s[start], s[start + 1], ...`` of an indexed symbol (entries of any
    numeric type a back end accepts: Fractions, floats, mpfs, arrays)."""
    __slots__ = ("start", "values")

    def __init__(self, values: Sequence[Any], start: int = 1) -> None:
        self.values = tuple(values)
        self.start = int(start)

    def __len__(self) -> int:
        return len(self.values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Vector) and (self.values, self.start) == (other.values, other.start)

    def __hash__(self) -> int:
        return hash((self.values, self.start))

    def __repr__(self) -> str:
        return f"Vector({list(self.values)!r}, start={self.start})"

    def __str__(self) -> str:
        """``[1, 2, 1/2]`` (entries as ``str`` prints them; ``from 0`` when not 1-based), as the
        settings and CSV notes print a value."""
        body = "[" + ", ".join(str(v) for v in self.values) + "]"
        return body if self.start == 1 else f"{body} from {self.start}"

    def map(self, f) -> Vector:
        return Vector([f(v) for v in self.values], self.start)


def component(value: Any, k: Fraction | int, name: str) -> Any:
    """``name[k]`` from ``value`` (a :class:`Vector`, or one value for every index);
    one-line :class:`ExpressionError` for a non-integer index or one outside the vector."""
    if not isinstance(value, Vector):
        return value
    if Fraction(k).denominator != 1:
        raise ExpressionError(f"{name}[{k}]: the index is not an integer")
    i = int(k) - value.start
    if not 0 <= i < len(value.values):
        raise ExpressionError(f"{name}[{int(k)}]: index outside {value.start} .. "
                              f"{value.start + len(value.values) - 1} (the value of {name} has "
                              f"{len(value.values)} entries)")
    return value.values[i]


def check_length(name: str, value: Any, lo: Fraction, hi: Fraction) -> None:
    """Refuse a vector for ``name`` whose length is not that of its declared range
    ``lo .. hi`` (both evaluated at the setting), in one line."""
    if not isinstance(value, Vector):
        return
    if lo.denominator != 1 or hi.denominator != 1:
        raise ExpressionError(f"{name}: its index range {lo} .. {hi} has non-integer ends")
    want = int(hi) - int(lo) + 1
    if len(value) != want or value.start != int(lo):
        raise ExpressionError(f"{name}: {len(value)} values given, but its index runs over "
                              f"{int(lo)} .. {int(hi)} ({max(want, 0)} values)")


def range_start(sym: Any) -> int:
    """The first index of an indexed symbol (a registry ``Symbol``) whose range starts at
    an integer number; 1 when it starts at an expression."""
    from .nodes import Num
    lo = sym.range[0] if sym.range else None
    return int(lo.value) if isinstance(lo, Num) and lo.value.denominator == 1 else 1




def _number(node: Any) -> Fraction | None:
    """The value of an index or range end built of numbers, sums and products (``2 + 1``,
    ``L - 1`` at L = 3), or None."""
    from .nodes import Add, Mul, Num
    if isinstance(node, Num):
        return node.value
    if isinstance(node, (Add, Mul)):
        vals = [_number(a) for a in node.args]
        if any(v is None for v in vals):
            return None
        out = Fraction(0 if isinstance(node, Add) else 1)
        for v in vals:
            out = out + v if isinstance(node, Add) else out * v   # type: ignore[operator]
        return out
    return None


def instantiate(node: Any, values: dict) -> Any:
    """``node`` with ``values`` put in: a number replaces a symbol, or every component of
    an indexed symbol; a :class:`Vector` replaces the components ``s[k]`` once every big
    operator whose range is then given by numbers is written out. Components at an index
    that stays symbolic (a range end without a value) stay. An index outside a vector is
    an :class:`ExpressionError` (one line)."""
    from .nodes import BigOp, Indexed, Num, expand, substitute
    scalars: dict[str, Any] = {k: Num(Fraction(v)) for k, v in values.items() if not isinstance(v, Vector)}
    vectors = {k: v for k, v in values.items() if isinstance(v, Vector)}
    out = substitute(node, scalars)
    if not vectors:
        return out

    def step(n: Any) -> Any:
        if isinstance(n, BigOp):
            lo, hi = _number(n.lo), _number(n.hi)
            if lo is not None and hi is not None and lo.denominator == 1 and hi.denominator == 1:
                return instantiate(expand(n, int(lo), int(hi)), values)
        if isinstance(n, Indexed) and n.name in vectors:
            k = _number(n.index)
            if k is not None:
                return Num(Fraction(component(vectors[n.name], k, n.name)))
        return None
    return out.map(step)


def separate(nodes: list, domains: dict) -> tuple[list, dict] | None:
    """The trees with every big operator over a range given by numbers written out and
    every component ``s[k]`` at a number index made a symbol of its own, named ``s[k]``,
    with ``s``'s domain: the decision layers then treat the components as the independent
    variables they are (one interval for every component would let branch-and-bound split
    them together, which is unsound). None when a component at a symbolic index is left (a
    sum over 1 .. L with L free): the caller does not decide such a relation."""
    from .nodes import BigOp, Indexed, Sym, expand

    def step(n: Any) -> Any:
        if isinstance(n, BigOp):
            lo, hi = _number(n.lo), _number(n.hi)
            if lo is not None and hi is not None and lo.denominator == 1 and hi.denominator == 1:
                return expand(n, int(lo), int(hi)).map(step)
        if isinstance(n, Indexed):
            k = _number(n.index)
            if k is not None and k.denominator == 1:
                return Sym(f"{n.name}[{int(k)}]")
        return None
    out = [n.map(step) for n in nodes]
    if any(isinstance(x, Indexed) for n in out for x in n.unique_nodes()):
        return None
    doms = dict(domains)
    for n in out:
        for x in n.unique_nodes():
            if isinstance(x, Sym) and "[" in x.name:
                base = x.name.split("[", 1)[0]
                if base in domains:
                    doms[x.name] = domains[base]
    return out, doms
