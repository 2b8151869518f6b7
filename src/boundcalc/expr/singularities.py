"""Where an expression is undefined, and where it may fail to be continuous: ONE rule.

:func:`definedness` lists, for a tree, the conditions under which it has a value — the
single definedness rule of boundcalc:

* ``b ** k``, k a negative integer: ``b != 0`` (division by zero); ``b ** 0``: ``b != 0``
  (0^0 is undefined);
* ``b ** q``, q a non-integer rational: ``b >= 0`` if q > 0, ``b > 0`` if q < 0 (a negative
  base to a fractional power; 0 to a negative power);
* ``b ** e``, e not a number but integer-valued (:func:`is_integer_valued`: an integer
  symbol, a big operator's index, integer literals, and sums, products, non-negative integer
  powers, floor/ceil and sums/products over integer ranges of these): as for an integer
  number, defined unless ``b = 0`` and ``e <= 0``, written exactly as ``|b| + max(e, 0) > 0``
  (so ``(-1)**n`` is defined for every integer n, as ``eval`` computes it, and ``0**0`` is
  not, in both);
* ``b ** e``, e not a number and not integer-valued: ``b > 0``;
* ``sqrt(a)``: ``a >= 0``; ``log(a)``: ``a > 0``; ``log(a, b)``: ``a > 0``, ``b > 0`` and
  ``b != 1``; ``tan(a)``: ``cos(a) != 0`` (its poles);
* ``gamma(a)``: ``a`` is no pole (not 0, -1, -2, ...), written exactly as
  ``max(a, 0) + a - floor(a) > 0``; ``factorial(a)`` is ``gamma(a + 1)`` (the same with
  ``a + 1``); ``binomial(n, k)``: ``n >= 0`` and ``k >= 0`` (then it is
  ``gamma(n+1) / (gamma(k+1) gamma(n-k+1))`` with 1/gamma = 0 at the poles: 0 for an
  integer k > n);
* a big operator ``op(body, i, lo, hi)``: every condition of ``body`` that involves the
  index ``i`` must hold for every ``i`` in range: ``min(expr, i, lo, hi) > 0`` (or ``>= 0``)
  and ``prod(expr, i, lo, hi) != 0``; ``max``/``min`` over an empty range have no value.

The ball-arithmetic back end (:mod:`boundcalc.backends.arb`) refuses exactly these cases with
the messages of :data:`REASONS`; the decision procedure (:mod:`boundcalc.prover.decide`)
reads the conditions from here, so a relation with a side that is undefined everywhere (a
condition that is false as a constant, e.g. ``log(x, 1)``) is refused.

Every function of the expression language is continuous where all conditions hold, except
``floor`` and ``ceil`` (jumps where the argument crosses an integer). :func:`breaks` returns,
for one variable, the conditions whose failure or boundary may break continuity (poles of
``1/g`` and ``tan``, the ends of the definedness of ``log``/``sqrt``/fractional powers,
``floor``/``ceil`` jumps); :func:`kinks` the points where the function is continuous but
not differentiable (``abs``, ``min``, ``max``). Pure tree code, no SymPy.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .nodes import Add, BigOp, Const, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym, sub
from .visitor import Visitor, handles, top_down

#: the functions that are analytic wherever :func:`definedness` holds strictly (the layers
#: that differentiate a goal — convexity, identity, ends — accept only these and powers)
SMOOTH_FUNCTIONS = frozenset({"exp", "log", "sqrt", "tanh", "atan", "erf", "sin", "cos"})

REASONS = {
    "division": "division by zero",
    "zero_pow_zero": "0 to the power 0",
    "fractional": "a negative number to a non-integer power",
    "zero_negative": "0 to a non-positive power",
    "sqrt": "square root of a negative number",
    "log": "logarithm of a non-positive number",
    "log_base": "logarithm to a base <= 0 or equal to 1",
    "tan": "tan at a pole (cos = 0)",
    "gamma": "gamma or factorial at a pole (a non-positive integer)",
    "binomial": "binomial(n, k) with n < 0 or k < 0",
    "range": "a sum, product, max or min over a range with a non-integer or empty end",
}


@dataclass(frozen=True)
class Condition:
    """``expr OP 0`` must hold (OP one of ``>``, ``>=``, ``!=``) for ``where`` to be defined;
    ``kind`` is a key of :data:`REASONS`, or ``"jump"`` (``floor``/``ceil``: continuity needs
    ``expr`` to stay strictly between two integers)."""
    expr: Node
    op: str
    kind: str
    where: Node

    @property
    def reason(self) -> str:
        return REASONS.get(self.kind, "a jump of floor/ceil")


_ONE = Num(Fraction(1))


def is_integer_valued(e: Node, integers=frozenset()) -> bool:
    """True when ``e`` takes an integer value wherever it is defined, the symbols named in
    ``integers`` being integers: integer literals, those symbols, sums and products of
    integer-valued terms, their non-negative integer powers, floor/ceil of anything,
    factorial/binomial/abs/min/max of integer-valued arguments, and sums/products/max/min over
    a range of integer-valued bodies (the index is an integer). The one such test: the SMT
    layer's integer facts use it too."""
    if isinstance(e, Num):
        return e.value.denominator == 1
    if isinstance(e, (Sym, Indexed)):
        return e.name in integers
    if isinstance(e, (Add, Mul)):
        return all(is_integer_valued(t, integers) for t in e.children())
    if isinstance(e, Pow):
        return (isinstance(e.exp, Num) and e.exp.value.denominator == 1 and e.exp.value >= 0
                and is_integer_valued(e.base, integers))
    if isinstance(e, Func):
        if e.name in ("floor", "ceil"):
            return True
        return (e.name in ("factorial", "binomial", "abs", "min", "max")
                and all(is_integer_valued(a, integers) for a in e.args))
    if isinstance(e, BigOp):
        return e.op in ("sum", "prod", "max", "min") and is_integer_valued(e.body, set(integers) | {e.var})
    return False


class _Own(Visitor[list]):
    """The conditions a node itself imposes (not those of its children): every handler is
    top-down and visits no child; :func:`definedness` asks for each distinct node.
    ``integers``: the names of integer-valued symbols (integer domains, bound indices)."""

    def __init__(self, integers=frozenset()):
        super().__init__()
        self.integers = integers

    @top_down
    def visit_Pow(self, n: Pow) -> list[Condition]:
        b, e = n.base, n.exp
        if isinstance(e, Num):
            q = e.value
            if q.denominator == 1:
                if q < 0:
                    return [Condition(b, "!=", "division", n)]
                if q == 0:
                    return [Condition(b, "!=", "zero_pow_zero", n)]
                return []
            return [Condition(b, ">=" if q > 0 else ">", "fractional" if q > 0 else "zero_negative", n)]
        if isinstance(b, Num) and b.value > 0:
            return []
        if is_integer_valued(e, self.integers):        # an integer power: b = 0 with e <= 0 only
            if isinstance(b, Num) and b.value != 0:
                return []
            gap = Add((Func("abs", (b,)), Func("max", (e, Num(Fraction(0))))))
            return [Condition(gap, ">", "zero_negative", n)]
        return [Condition(b, ">", "fractional", n)]

    @top_down
    def visit_Func(self, n: Func) -> list[Condition]:
        if n.name == "sqrt":
            return [Condition(n.args[0], ">=", "sqrt", n)]
        if n.name == "log":
            out = [Condition(n.args[0], ">", "log", n)]
            if len(n.args) == 2:
                out += [Condition(n.args[1], ">", "log_base", n),
                        Condition(sub(n.args[1], _ONE), "!=", "log_base", n)]
            return out
        if n.name == "tan":
            return [Condition(Func("cos", n.args), "!=", "tan", n)]
        if n.name in ("gamma", "factorial"):
            a = n.args[0] if n.name == "gamma" else Add((n.args[0], _ONE))
            return [Condition(gamma_pole_gap(a), ">", "gamma", n)]
        if n.name == "binomial":
            return [Condition(n.args[0], ">=", "binomial", n), Condition(n.args[1], ">=", "binomial", n)]
        return []

    @handles(Num, Sym, Const, Ref, Add, Mul, Rel, Indexed, BigOp)
    @top_down
    def _none(self, n: Node) -> list[Condition]:
        return []


def gamma_pole_gap(a: Node) -> Node:
    """``max(a, 0) + a - floor(a)``: > 0 exactly where gamma(a) is defined (a > 0, or a not
    an integer), 0 at its poles 0, -1, -2, ..."""
    return Add((Func("max", (a, Num(Fraction(0)))), a, Mul((Num(Fraction(-1)), Func("floor", (a,))))))


def definedness(node: Node, integers=frozenset()) -> list[Condition]:
    """Every condition under which ``node`` has a value (each distinct subtree once). A
    condition inside a big operator's body that involves its index holds for every index
    in range (see the module docstring); no bound index is ever free in a condition.
    ``integers``: the symbols whose domain is integer (an integer-valued exponent makes a
    power with a negative base defined)."""
    out: list[Condition] = []
    seen: set = set()
    own = _Own(frozenset(integers))

    def add(c: Condition) -> None:
        if (c.expr, c.op) not in seen:
            seen.add((c.expr, c.op))
            out.append(c)

    done: set[int] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in done:
            continue
        done.add(id(n))
        if isinstance(n, BigOp):
            for c in definedness(n.body, set(integers) | {n.var}):
                if n.var not in c.expr.symbols():
                    add(c)
                elif c.op in (">", ">="):
                    add(Condition(BigOp("min", c.expr, n.var, n.lo, n.hi), c.op, c.kind, c.where))
                else:
                    add(Condition(BigOp("prod", c.expr, n.var, n.lo, n.hi), c.op, c.kind, c.where))
            stack.extend((n.lo, n.hi))
            continue
        for c in own.walk(n):
            add(c)
        stack.extend(n.children())
    return out


def breaks(node: Node, var: str, integers=frozenset()) -> list[Condition]:
    """Conditions on ``var`` that continuity of ``node`` in ``var`` needs on an interval:
    every definedness condition involving ``var`` (poles, ends of definedness) and, for
    ``floor``/``ceil`` of an argument involving ``var``, a ``jump`` condition."""
    out = [c for c in definedness(node, integers) if var in c.expr.symbols()]
    for n in node.unique_nodes():
        if isinstance(n, Func) and n.name in ("floor", "ceil") and var in n.args[0].symbols():
            out.append(Condition(n.args[0], "jump", "jump", n))
    return out


def kinks(node: Node, var: str) -> list[Node]:
    """Subtrees where ``node`` is continuous but may not be differentiable in ``var``:
    ``abs``, ``min``, ``max`` of arguments involving ``var``."""
    return [n for n in node.unique_nodes()
            if ((isinstance(n, Func) and n.name in ("abs", "min", "max"))
                or (isinstance(n, BigOp) and n.op in ("min", "max"))) and var in n.symbols()]


def is_smooth_language(node: Node) -> bool:
    """True if no ``abs``/``min``/``max``/``floor``/``ceil`` occurs (SymPy differentiates
    the tree into the expression language)."""
    return not any((isinstance(n, Func) and n.name in ("abs", "min", "max", "floor", "ceil"))
                   or (isinstance(n, BigOp) and n.op in ("min", "max"))
                   for n in node.unique_nodes())


def first_undefined_constant(node: Node, sign, integers=frozenset()) -> Condition | None:
    """A condition without symbols that certainly fails (``sign(expr)`` is the certified
    sign of a constant tree, or None when unknown): the tree is undefined everywhere
    (``integers``: as for :func:`definedness`)."""
    for c in definedness(node, integers):
        if c.expr.symbols():
            continue
        s = sign(c.expr)
        if s is None:
            continue
        if (c.op == ">" and s <= 0) or (c.op == ">=" and s < 0) or (c.op == "!=" and s == 0):
            return c
    return None

