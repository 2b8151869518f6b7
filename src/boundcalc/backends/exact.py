"""Exact rational evaluation (``fractions.Fraction``) of the rational part of the language.

Used to decide requirements with equality exactly (``--R 1.5`` means 3/2). Anything
not exactly rational (``log``, ``pi``, an irrational root) raises :class:`NotExact`.
"""
from __future__ import annotations

import math
from fractions import Fraction

from ..expr.nodes import Add, Const, Func, Mul, Node, Num, Pow, Rel, Sym

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


def evaluate_exact(node: Node, env: dict[str, Fraction]) -> Fraction:
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Sym):
        v = env[node.name]
        if not isinstance(v, Fraction):
            raise NotExact
        return v
    if isinstance(node, Add):
        return sum((evaluate_exact(a, env) for a in node.args), Fraction(0))
    if isinstance(node, Mul):
        out = Fraction(1)
        for a in node.args:
            out *= evaluate_exact(a, env)
        return out
    if isinstance(node, Pow):
        return _pow(evaluate_exact(node.base, env), evaluate_exact(node.exp, env))
    if isinstance(node, Func):
        args = [evaluate_exact(a, env) for a in node.args]
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
        raise NotExact
    if isinstance(node, (Const, Rel)):
        raise NotExact
    raise NotExact
