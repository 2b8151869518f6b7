"""Cheap sign rules for the decision procedure's layers: the sign of a tree from its shape
and the domains (:func:`structural_sign`), a lower bound from the domains
(:func:`lower_bound`), and SymPy's sign rules after them (:func:`sympy_sign`).

Soundness contract: "positive" / "nonnegative" only where the rule holds at every point of
the domains where the tree is defined; None (no rule) otherwise.
"""
from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction

from ..expr.nodes import Add, BigOp, Const, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym
from ..expr.visitor import Visitor, handles, top_down
from .budget import sympy_safe


class _StructuralSign(Visitor["str | None"]):
    """'positive' / 'nonnegative' / None from the shape of the tree (see
    :func:`structural_sign`)."""

    def __init__(self, domains) -> None:
        super().__init__()
        self.domains = domains

    def visit_Num(self, n: Num, args: list) -> str | None:
        return "positive" if n.value > 0 else ("nonnegative" if n.value == 0 else None)

    def visit_Const(self, n: Const, args: list) -> str | None:
        return "positive"

    def visit_Sym(self, n: Sym, args: list) -> str | None:
        d = self.domains.get(n.name)
        return None if d is None else ("positive" if d.positive else ("nonnegative" if d.nonnegative else None))

    @handles(Add, Mul)
    def _assoc(self, n: Node, signs: list) -> str | None:
        if all(x == "positive" for x in signs):
            return "positive"
        if isinstance(n, Add) and all(x in ("positive", "nonnegative") for x in signs) and "positive" in signs:
            return "positive"
        return "nonnegative" if all(x in ("positive", "nonnegative") for x in signs) else None

    def visit_Pow(self, n: Pow) -> Generator[Node, str | None, str | None]:
        sb = yield n.base
        if sb == "positive":
            return "positive"
        if isinstance(n.exp, Num):
            e = n.exp.value
            if e.denominator == 1 and e.numerator % 2 == 0 and e > 0:
                return "nonnegative"
            if sb == "nonnegative" and e > 0:
                return "nonnegative"
        return None

    def visit_Func(self, n: Func) -> Generator[Node, str | None, str | None]:
        if n.name == "exp":
            return "positive"
        if n.name == "abs":
            return "nonnegative"
        signs = []
        for c in n.args:
            signs.append((yield c))
        if n.name in ("sqrt", "tanh", "atan", "erf", "min") and all(x is not None for x in signs):
            return "positive" if all(x == "positive" for x in signs) else "nonnegative"
        if n.name == "max" and any(x is not None for x in signs):
            return "positive" if "positive" in signs else "nonnegative"
        if n.name == "log" and len(n.args) == 1:
            lb = lower_bound(n.args[0], self.domains)
            if lb is not None and lb > 1:
                return "positive"
            if lb is not None and lb == 1:
                return "nonnegative"
        if n.name in ("gamma", "factorial") and signs[0] == "positive":
            return "positive"               # gamma(x) > 0 for x > 0; x! = gamma(x + 1)
        if n.name == "factorial" and signs[0] == "nonnegative":
            return "positive"
        # binomial(n, k) may be negative for real n, k >= 0 (binomial(5/2, 4) = -5/128): no rule
        return None

    def visit_Indexed(self, n: Indexed, args: list) -> str | None:
        d = self.domains.get(n.name)         # the domain of every component
        return None if d is None else ("positive" if d.positive else ("nonnegative" if d.nonnegative else None))

    def visit_BigOp(self, n: BigOp) -> Generator[Node, str | None, str | None]:
        """From the body's sign (the index itself has no domain here): a sum of positive
        terms is only nonnegative (an empty range gives 0), a product of positive terms is
        positive (an empty one is 1), a max or min has the sign of its terms."""
        sb = yield n.body
        if sb is None:
            return None
        if n.op == "sum":
            return "nonnegative"
        return sb

    @handles(Rel, Ref)
    @top_down
    def _none(self, n: Node) -> None:
        return None


def structural_sign(n: Node, domains) -> str | None:
    """'positive' / 'nonnegative' from the shape of the tree alone (cheap), or None."""
    return _StructuralSign(domains).walk(n)


class _LowerBound(Visitor["Fraction | None"]):
    """A lower bound from the domains (see :func:`lower_bound`)."""

    def __init__(self, domains) -> None:
        super().__init__()
        self.domains = domains

    def visit_Num(self, n: Num, args: list) -> Fraction | None:
        return n.value

    def visit_Sym(self, n: Sym, args: list) -> Fraction | None:
        d = self.domains.get(n.name)
        return None if d is None else d.lo

    @handles(Add, Mul)
    def _assoc(self, n: Node, lbs: list) -> Fraction | None:
        if any(v is None for v in lbs):
            return None
        if isinstance(n, Add):
            return sum(lbs, Fraction(0))
        if any(v < 0 for v in lbs):
            return None
        out = Fraction(1)
        for v in lbs:
            out *= v
        return out

    def visit_Pow(self, n: Pow) -> Generator[Node, Fraction | None, Fraction | None]:
        if isinstance(n.exp, Num) and n.exp.value.denominator == 1 and 0 < n.exp.value <= 64:
            lb = yield n.base
            return None if lb is None or lb < 0 else lb ** n.exp.value.numerator
        return None

    def visit_Indexed(self, n: Indexed, args: list) -> Fraction | None:
        d = self.domains.get(n.name)
        return None if d is None else d.lo

    @handles(Const, Func, Rel, Ref, BigOp)
    @top_down
    def _none(self, n: Node) -> None:
        return None


def lower_bound(n: Node, domains) -> Fraction | None:
    """A lower bound from the domains for sums and products of nonnegative parts, or None."""
    return _LowerBound(domains).walk(n)


def sympy_sign(n: Node, domains) -> str | None:
    """The sign of ``n`` on the domains from its shape, else from SymPy's sign rules (where
    SymPy is safe on it), or None."""
    from .symbolic import prove_sign_on, to_sympy_with_domains
    quick = structural_sign(n, domains)
    if quick is not None:
        return quick
    if sympy_safe(n):
        return None
    e, syms = to_sympy_with_domains(n, {}, domains)
    return prove_sign_on(e, syms, domains)

