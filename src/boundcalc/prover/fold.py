"""Constant folding: rational constant subtrees of an expression replaced by numbers.

The decision procedure (:mod:`.decide`) folds the sides of every goal before its layers
read it, so that the layers' structural tests (a number, a unit factor, (b**p)**q) see one
form. Sizes are bounded: an integer power is folded only while its result stays below 4096
bits (10**10**10 stays a power).

Soundness contract: every rewrite here is an identity of rational arithmetic where the
subtree is defined (0**e with e <= 0 is never folded); the folded tree has the value of
the original at every point.
"""
from __future__ import annotations

from fractions import Fraction

from ..expr.nodes import Add, BigOp, Const, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym
from ..expr.visitor import Visitor, handles


class _FoldConstants(Visitor[Node]):
    """Rational constant subtrees folded to numbers (see :func:`fold_constants`)."""

    @handles(Add, Mul, Pow)
    def _arith(self, n: Node, kids: list[Node]) -> Node:
        if all(isinstance(k, Num) for k in kids):
            folded = _fold_numbers(n, [k.value for k in kids])  # type: ignore[attr-defined]
            if folded is not None:
                return folded
        return _drop_units(n, kids)

    @handles(Func, Rel, Indexed, BigOp)
    def _other(self, n: Node, kids: list[Node]) -> Node:
        return _rebuilt(n, kids)

    @handles(Num, Sym, Const, Ref)
    def _leaf(self, n: Node, kids: list[Node]) -> Node:
        return n


def _fold_numbers(n: Node, vals: list[Fraction]) -> Node | None:
    """The sum, product or power of the numbers ``vals`` (an integer power of bounded size;
    None where it is not folded)."""
    if isinstance(n, Add):
        return Num(sum(vals, Fraction(0)))
    if isinstance(n, Mul):
        out = Fraction(1)
        for v in vals:
            out *= v
        return Num(out)
    b, e = vals
    if e.denominator == 1 and not (b == 0 and e <= 0):
        bits = abs(e.numerator) * max(abs(b.numerator).bit_length(), b.denominator.bit_length(), 1)
        if bits <= 4096:
            return Num(b ** e.numerator)
    return None


def _drop_units(n: Node, kids: list[Node]) -> Node:
    """``n`` over ``kids`` without its zero terms, its unit factors, and with (b**p)**q
    written b**(p*q) for integers p, q (where defined)."""
    if isinstance(n, Add):
        kept = [k for k in kids if not (isinstance(k, Num) and k.value == 0)]
        if len(kept) < len(kids):
            return (kept[0] if len(kept) == 1 else Add(tuple(kept))) if kept else Num(Fraction(0))
    if isinstance(n, Mul):
        kept = [k for k in kids if not (isinstance(k, Num) and k.value == 1)]
        if len(kept) == 1:
            return kept[0]
        if len(kept) < len(kids):
            return Mul(tuple(kept)) if kept else Num(Fraction(1))
    if isinstance(n, Pow):
        base, ex = kids
        if (isinstance(base, Pow) and isinstance(ex, Num) and isinstance(base.exp, Num)
                and ex.value.denominator == 1 and base.exp.value.denominator == 1):
            e = base.exp.value * ex.value
            return base.base if e == 1 else Pow(base.base, Num(e))
    return _rebuilt(n, kids)


def _rebuilt(n: Node, kids: list[Node]) -> Node:
    """``n`` with its children replaced by ``kids`` (``n`` itself when none changed)."""
    return n._rebuild(tuple(kids)) if any(a is not b for a, b in zip(kids, n.children())) else n


def fold_constants(node: Node) -> Node:
    """Replace rational constant subtrees by numbers (bounded sizes: 10**10**10 stays)."""
    return _FoldConstants().walk(node)

