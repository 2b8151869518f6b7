"""Exact rational evaluation (``fractions.Fraction``) of the rational part of the language.

Used to decide requirements with equality exactly (``--R 1.5`` means 3/2). Anything
not exactly rational (``log``, ``pi``, an irrational root) raises :class:`NotExact`.
"""
from __future__ import annotations

import math
from collections.abc import Generator
from fractions import Fraction

from .indexed import component
from .nodes import Add, BigOp, Const, EmptyRange, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym, expand
from .visitor import DESCEND, Visitor, handles, top_down

_MAX_FACTORIAL = 20000  # n! exactly up to n = 20000 (~ 250k bits); beyond, the arb back end
_MAX_BITS = 1 << 20  # refuse to build exact powers beyond ~1M bits; the arb back end handles those


class NotExact(Exception):
    """The expression has no exact rational value by this evaluator."""


def _iroot(n: int, k: int) -> int | None:
    """Exact integer k-th root of n >= 0, or None."""
    if n < 0:
        return None
    if n < 2:
        return n
    if k >= n.bit_length():        # 1 < n^(1/k) < 2: no integer root (and r**(k-1) would be huge)
        return None
    # integer Newton iteration from above: converges to floor(n^(1/k))
    r = 1 << (n.bit_length() // k + 1)
    while True:
        nr = ((k - 1) * r + n // r ** (k - 1)) // k
        if nr >= r:
            break
        r = nr
    for c in (r - 1, r, r + 1):
        if c >= 0 and c ** k == n:
            return c
    return None


def _pow(b: Fraction, e: Fraction) -> Fraction:
    if e.denominator == 1:
        k = e.numerator
        if abs(k) * max(abs(b.numerator).bit_length(), b.denominator.bit_length(), 1) > _MAX_BITS:
            raise NotExact
        if b == 0 and k < 0:
            raise ZeroDivisionError
        if b == 0 and k == 0:
            raise NotExact              # 0**0 is undefined (expr.singularities): arb says so
        return b ** k
    if b < 0:
        raise NotExact
    q = e.denominator
    rn, rd = _iroot(b.numerator, q), _iroot(b.denominator, q)
    if rn is None or rd is None:
        raise NotExact
    return _pow(Fraction(rn, rd), Fraction(e.numerator))


class _Exact(Visitor[Fraction]):
    """The exact rational value (see :func:`evaluate_exact`)."""

    def __init__(self, env: dict[str, Fraction]) -> None:
        super().__init__()
        self.env = env

    def visit_Num(self, node: Num, args: list) -> Fraction:
        return node.value

    def visit_Sym(self, node: Sym, args: list) -> Fraction:
        v = self.env[node.name]
        if not isinstance(v, Fraction):
            raise NotExact
        return v

    def visit_Add(self, node: Add, args: list[Fraction]) -> Fraction:
        return sum(args, Fraction(0))

    def visit_Mul(self, node: Mul, args: list[Fraction]) -> Fraction:
        out = Fraction(1)
        for a in args:
            out *= a
        return out

    def visit_Pow(self, node: Pow, args: list[Fraction]) -> Fraction:
        return _pow(args[0], args[1])

    def visit_Func(self, node: Func, args: list[Fraction]) -> Fraction:
        n = node.name
        if n == "sqrt":
            return _pow(args[0], Fraction(1, 2))
        if n == "min":
            return min(args)
        if n == "max":
            return max(args)
        if n == "abs":
            return abs(args[0])
        if n == "floor":
            return Fraction(math.floor(args[0]))
        if n == "ceil":
            return Fraction(math.ceil(args[0]))
        if n == "exp" and args[0] == 0:
            return Fraction(1)
        if n == "log" and len(args) == 1 and args[0] == 1:
            return Fraction(0)
        if n in ("factorial", "gamma"):
            k = args[0] + (0 if n == "factorial" else -1)       # gamma(x) = (x - 1)!
            if k.denominator != 1 or not 0 <= k <= _MAX_FACTORIAL:
                raise NotExact          # poles and non-integers: arb says which
            return Fraction(math.factorial(int(k)))
        if n == "binomial":
            a, b = args
            if a.denominator != 1 or b.denominator != 1 or a < 0 or b < 0 or a > _MAX_FACTORIAL:
                raise NotExact
            return Fraction(math.comb(int(a), int(b)))       # 0 for b > a
        raise NotExact

    def visit_Indexed(self, node: Indexed) -> Generator[Node, Fraction, Fraction]:
        k = yield node.index
        v = component(self.env[node.name], k, node.name)
        if not isinstance(v, Fraction):
            raise NotExact
        return v

    def visit_BigOp(self, node: BigOp) -> Generator[Node, Fraction, Fraction]:
        lo = yield node.lo
        hi = yield node.hi
        if lo.denominator != 1 or hi.denominator != 1:
            raise NotExact              # a non-integer range end: arb says it is undefined
        try:
            return (yield expand(node, int(lo), int(hi)))
        except (EmptyRange, OverflowError):
            raise NotExact from None

    @handles(Const, Rel, Ref)
    @top_down
    def _not_rational(self, node: Node) -> Fraction:
        raise NotExact


def evaluate_exact(node: Node, env: dict[str, Fraction]) -> Fraction:
    """The exact rational value of ``node`` at ``env``; raises :class:`NotExact` (not
    exactly rational by these rules), ``ZeroDivisionError`` or ``KeyError`` (a symbol
    without a value)."""
    return _Exact(env).walk(node)


Radical = tuple[int, int, Fraction]


class _Radical(Visitor["Radical | None"]):
    """``(s, k, v)`` with node = s v^(1/k) exactly (see :func:`_radical`), or None."""

    def __init__(self, env) -> None:
        super().__init__()
        self.env = env

    def enter(self, node: Node):
        try:
            x = evaluate_exact(node, self.env)
            return (x > 0) - (x < 0), 1, abs(x)
        except NotExact:
            return DESCEND
        except (ZeroDivisionError, KeyError):
            return None

    def visit_Mul(self, node: Mul) -> Generator[Node, Radical | None, Radical | None]:
        s, k, v = 1, 1, Fraction(1)
        for a in node.args:
            r = yield a
            if r is None:
                return None
            sa, ka, va = r
            K = k * ka // math.gcd(k, ka)
            if (K // k) * _bits(v) + (K // ka) * _bits(va) > _MAX_BITS:
                return None
            s, k, v = s * sa, K, v ** (K // k) * va ** (K // ka)
        return s, k, v

    def visit_Func(self, node: Func) -> Generator[Node, Radical | None, Radical | None]:
        if node.name == "sqrt" and len(node.args) == 1:
            return (yield Pow(node.args[0], Num(Fraction(1, 2))))
        return None

    def visit_Pow(self, node: Pow) -> Generator[Node, Radical | None, Radical | None]:
        try:
            e = evaluate_exact(node.exp, self.env)
        except (NotExact, ZeroDivisionError, KeyError):
            return None
        r = yield node.base
        if r is None:
            return None
        s, kb, vb = r
        p, q = e.numerator, e.denominator
        if (s < 0 and q != 1) or (s == 0 and p <= 0) or abs(p) * _bits(vb) > _MAX_BITS:
            return None
        if s == 0:
            return 0, 1, Fraction(0)
        return (s ** (p % 2 + 2) if s < 0 else 1), kb * q, vb ** p

    @handles(Num, Sym, Const, Ref, Add, Rel, Indexed, BigOp)
    @top_down
    def _other(self, node: Node) -> None:
        return None


def _radical(node: Node, env) -> Radical | None:
    """``(s, k, v)`` with node = s v^(1/k) exactly (s in -1, 0, 1; v >= 0 rational), for
    products and rational powers of exact rationals (sqrt(H), 16 sqrt(8) (3/2)^5 ...);
    None if the node is not of this form or the powers grow beyond ~1M bits."""
    return _Radical(env).walk(node)


def _bits(x: Fraction) -> int:
    return max(abs(x.numerator).bit_length(), x.denominator.bit_length(), 1)


def exact_zero(node: Node, env) -> bool | None:
    """Whether ``node`` is exactly 0 at the rational point ``env``, decided without SymPy
    for a rational part plus at most two radical terms (``sqrt(H) - 16 sqrt(8) (3/2)^5``
    at H = 118098): ``s1 v1^(1/k1) = -s2 v2^(1/k2)`` iff the signs agree and
    ``v1^(K/k1) = v2^(K/k2)``; None when the node is not of this form."""
    terms = node.args if isinstance(node, Add) else (node,)
    r0, rads = Fraction(0), []
    for t in terms:
        r = _radical(t, env)
        if r is None:
            return None
        if r[1] == 1:
            r0 += r[0] * r[2]
        else:
            rads.append(r)
    if r0 != 0:
        rads.append(((r0 > 0) - (r0 < 0), 1, abs(r0)))
    rads = [r for r in rads if r[0] != 0 and r[2] != 0]
    if not rads:
        return True
    if len(rads) == 1:
        return False
    if len(rads) > 2:
        return None
    (s1, k1, v1), (s2, k2, v2) = rads
    if s1 == s2:
        return False
    K = k1 * k2 // math.gcd(k1, k2)
    if (K // k1) * _bits(v1) > _MAX_BITS or (K // k2) * _bits(v2) > _MAX_BITS:
        return None
    return v1 ** (K // k1) == v2 ** (K // k2)
