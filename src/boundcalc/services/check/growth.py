"""Growth of an expression in one variable: ``e ~ s K x^a log(x)^b`` as x -> oo (K > 0).

A structural pass over the expression tree (sums take the dominant term, products add
exponents, powers scale them, log/exp/min/max/tanh by their rules). Factors free of x are
signed by evaluating them at fixed generic values of the other symbols. Where the rules
cannot decide — two dominant terms of opposite signs (cancellation), exp of a growing
argument, log of something tending to a constant — the pass gives up (``None``) and the
caller falls back to SymPy limits. Fast: no SymPy.
"""
from __future__ import annotations

from fractions import Fraction

from ...expr.nodes import Add, BigOp, Const, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym
from ...expr.visitor import DESCEND, Visitor, handles, top_down

ZERO = "zero"
TINY = "tiny"      # tends to 0 faster than every power of x (exp of -x^a): dropped from sums


class Growth(tuple):
    """(sign, a, b): sign in {+1, -1}, exponents a of x and b of log x (Fractions)."""
    __slots__ = ()

    def __new__(cls, s, a, b):
        return tuple.__new__(cls, (s, Fraction(a), Fraction(b)))

    @property
    def sign(self):
        return self[0]

    @property
    def ab(self):
        return (self[1], self[2])


class _GiveUp(Exception):
    pass


def growth(node: Node, x: str, env: dict) -> Growth | None:
    """Growth of ``node`` as ``x`` -> oo; ``env`` holds generic values of the other
    symbols (to sign the x-free factors). None: the rules cannot decide."""
    g = _Growth(x, env).walk(node)
    return None if g in (ZERO, TINY) else g


def _free_value(node: Node, env):
    from ...backends import mp as mpb
    from ...mpmath_import import mpmath
    try:
        v = mpb.evaluate(node, env, digits=20)
    except Exception:                     # undefined at the generic point
        raise _GiveUp from None
    if not mpmath.isfinite(v):
        raise _GiveUp
    return v


def _need(t, tiny_ok: bool = False):
    """A child's growth, or give up: its rules gave up (None), or it is TINY where that
    cannot be dropped."""
    if t is None or (t == TINY and not tiny_ok):
        raise _GiveUp
    return t


def _gives_up(handler):
    """A top-down handler whose _GiveUp means: this node's growth is unknown (None)."""
    def run(self, node):
        try:
            return (yield from handler(self, node))
        except _GiveUp:
            return None
    run.__name__ = handler.__name__
    return run


class _Growth(Visitor):
    """The growth of each subtree (a Growth, ZERO, TINY, or None: the rules gave up)."""

    def __init__(self, x: str, env) -> None:
        super().__init__()
        self.x, self.env = x, env

    def enter(self, node: Node):
        if self.x in node.symbols():
            return DESCEND
        if isinstance(node, Num):
            return ZERO if node.value == 0 else Growth(1 if node.value > 0 else -1, 0, 0)
        if isinstance(node, Const):
            return Growth(1, 0, 0)
        try:
            return _free_sign(node, self.env)
        except _GiveUp:
            return None

    @top_down
    def visit_Sym(self, node: Sym):
        return Growth(1, 1, 0)

    @_gives_up
    def visit_Add(self, node: Add):
        terms = []
        for c in node.args:
            t = _need((yield c), tiny_ok=True)
            if t != ZERO:
                terms.append(t)
        if any(t != TINY for t in terms):
            terms = [t for t in terms if t != TINY]
        elif terms:
            raise _GiveUp
        if not terms:
            return ZERO
        top = max(t.ab for t in terms)
        lead = [t for t in terms if t.ab == top]
        if len({t.sign for t in lead}) > 1:
            raise _GiveUp                  # leading terms may cancel
        return Growth(lead[0].sign, *top)

    @_gives_up
    def visit_Mul(self, node: Mul):
        s, a, b = 1, Fraction(0), Fraction(0)
        for c in node.args:
            t = _need((yield c))
            if t == ZERO:
                return ZERO
            s, a, b = s * t.sign, a + t[1], b + t[2]
        return Growth(s, a, b)

    @_gives_up
    def visit_Pow(self, node: Pow):
        if self.x in node.exp.symbols():
            raise _GiveUp
        q = _exponent(node.exp, self.env)
        base = _need((yield node.base))
        if base == ZERO:
            if q <= 0:
                raise _GiveUp              # 0 to a non-positive power
            return ZERO
        if base.sign < 0:
            if q.denominator != 1:
                raise _GiveUp
            s = -1 if q.numerator % 2 else 1
        else:
            s = 1
        return Growth(s, base[1] * q, base[2] * q)

    @_gives_up
    def visit_Func(self, node: Func):
        return (yield from _func(node))

    @handles(Num, Const, Ref, Rel, Indexed, BigOp)     # a sum over 1 .. x: the rules give up
    @top_down
    def _unknown(self, node: Node):
        return None


def _free_sign(node: Node, env):
    """Certified sign of an x-free factor at the generic point (exact when rational)."""
    from ...backends import mp as mpb
    try:
        s = mpb.decide_sign(node, env)
    except Exception:                     # undefined at the generic point
        raise _GiveUp from None
    if s is None:
        raise _GiveUp
    return ZERO if s == 0 else Growth(s, 0, 0)


def _exponent(node: Node, env) -> Fraction:
    if isinstance(node, Num):
        return node.value
    v = _free_value(node, env)
    q = Fraction(str(v)).limit_denominator(10_000)
    if abs(float(q) - float(v)) > 1e-12:
        raise _GiveUp
    return q


def _func(node: Func):
    """The growth of a function node: a generator of _Growth's handler (it yields the
    nodes whose growth it needs)."""
    name, args = node.name, node.args
    if name == "sqrt":
        return (yield Pow(args[0], Num(Fraction(1, 2))))
    if name in ("max", "min"):
        gs = []
        for a in args:
            gs.append(_need((yield a)))
        return _extremum(name, gs)
    if name == "abs":
        g = _need((yield args[0]))
        return ZERO if g == ZERO else Growth(1, g[1], g[2])
    g = _need((yield args[0]))
    if name == "log":
        return _log(args, g)
    if name == "exp":
        return _exp(g)
    if name in ("tanh", "atan", "erf", "sin", "tan"):
        return _saturating(name, g)
    if name in ("floor", "ceil"):
        if g != ZERO and g[1] > 0:
            return g
        raise _GiveUp
    raise _GiveUp


def _extremum(name: str, gs):
    """The growth of max(...) or min(...) (``name``) of arguments of growths ``gs``; only
    non-negative arguments are decided."""
    if any(g != ZERO and g.sign < 0 for g in gs):
        raise _GiveUp
    pos = [g for g in gs if g != ZERO]
    if name == "min" and len(pos) < len(gs):
        return ZERO                    # min(0, positive things) = 0
    if not pos:
        return ZERO
    pick = max if name == "max" else min
    return Growth(1, *pick(g.ab for g in pos))


def _log(args, g):
    """The growth of log(u), u of growth ``g`` (one argument, positive, a power of x)."""
    if len(args) != 1 or g == ZERO or g.sign < 0:
        raise _GiveUp
    if g[1] > 0:
        return Growth(1, 0, 1)
    if g[1] < 0:
        return Growth(-1, 0, 1)
    raise _GiveUp                      # log of a polylog or of a constant limit


def _exp(g):
    """The growth of exp(u), u of growth ``g``."""
    if g == ZERO or g[1] < 0 or (g[1] == 0 and g[2] <= 0):
        return Growth(1, 0, 0)         # exp(tends to a constant) -> a positive constant
    if g.sign < 0 and g[1] > 0:
        return TINY                    # exp(-c x^a), a > 0: below every power of x
    raise _GiveUp


def _saturating(name: str, g):
    """The growth of tanh/atan/erf/sin/tan (``name``) of u, u of growth ``g``: ~ c u as
    u -> 0; tanh, atan and erf tend to a nonzero constant as u grows."""
    if g == ZERO:
        return ZERO
    if g[1] < 0 or (g[1] == 0 and g[2] < 0):
        return g                       # f(u) ~ c u as u -> 0 (c = 2/sqrt(pi) for erf)
    if name in ("tanh", "atan", "erf"):
        return Growth(g.sign, 0, 0)    # tends to a nonzero constant
    raise _GiveUp
