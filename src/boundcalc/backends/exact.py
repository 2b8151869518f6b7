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


def _radical(node: Node, env) -> tuple[int, int, Fraction] | None:
    """``(s, k, v)`` with node = s v^(1/k) exactly (s in -1, 0, 1; v >= 0 rational), for
    products and rational powers of exact rationals (sqrt(H), 16 sqrt(8) (3/2)^5 ...);
    None if the node is not of this form or the powers grow beyond ~1M bits."""
    try:
        x = evaluate_exact(node, env)
        return (x > 0) - (x < 0), 1, abs(x)
    except NotExact:
        pass
    except (ZeroDivisionError, KeyError):
        return None
    if isinstance(node, Mul):
        s, k, v = 1, 1, Fraction(1)
        for a in node.args:
            r = _radical(a, env)
            if r is None:
                return None
            sa, ka, va = r
            K = k * ka // math.gcd(k, ka)
            if (K // k) * _bits(v) + (K // ka) * _bits(va) > _MAX_BITS:
                return None
            s, k, v = s * sa, K, v ** (K // k) * va ** (K // ka)
        return s, k, v
    if isinstance(node, Func) and node.name == "sqrt" and len(node.args) == 1:
        return _radical(Pow(node.args[0], Num(Fraction(1, 2))), env)
    if isinstance(node, Pow):
        try:
            e = evaluate_exact(node.exp, env)
        except (NotExact, ZeroDivisionError, KeyError):
            return None
        r = _radical(node.base, env)
        if r is None:
            return None
        s, kb, vb = r
        p, q = e.numerator, e.denominator
        if (s < 0 and q != 1) or (s == 0 and p <= 0) or abs(p) * _bits(vb) > _MAX_BITS:
            return None
        if s == 0:
            return 0, 1, Fraction(0)
        return (s ** (p % 2 + 2) if s < 0 else 1), kb * q, vb ** p
    return None


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
