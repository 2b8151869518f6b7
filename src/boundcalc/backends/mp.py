"""mpmath back end: point values at any precision and certified interval enclosures.

:func:`evaluate` returns a value correct to the requested number of significant
digits: it encloses the exact value in an interval (``mpmath.iv``) and raises the
working precision until the enclosure is narrow enough. Values far beyond the double
range (10^400, 10^100000) are ordinary here; nothing overflows to ``inf``.
"""
from __future__ import annotations

from fractions import Fraction

import mpmath
from mpmath import iv, mp

from ..errors import ExpressionError
from ..expr.nodes import Add, Const, Func, Mul, Node, Num, Pow, Rel, Sym
from .exact import NotExact, evaluate_exact

MAX_PREC = 20000  # bits


class _Undefined(Exception):
    """The expression is undefined at this point (log of a negative number, 0**-1 ...)."""


# ---------------------------------------------------------------- point evaluation
def _mpf(x) -> mpmath.mpf:
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(x)


def _point(node: Node, env) -> mpmath.mpf:
    if isinstance(node, Num):
        return _mpf(node.value)
    if isinstance(node, Sym):
        return _mpf(env[node.name])
    if isinstance(node, Const):
        return +mp.pi if node.name == "pi" else mp.e
    if isinstance(node, Add):
        return mpmath.fsum(_point(a, env) for a in node.args)
    if isinstance(node, Mul):
        out = mpmath.mpf(1)
        for a in node.args:
            out *= _point(a, env)
        return out
    if isinstance(node, Pow):
        b = _point(node.base, env)
        if isinstance(node.exp, Num) and node.exp.value.denominator == 1:
            k = node.exp.value.numerator
            if b == 0 and k < 0:
                raise _Undefined("division by zero")
            return b ** k
        e = _point(node.exp, env)
        if b < 0:
            raise _Undefined("a negative number to a non-integer power")
        if b == 0 and e <= 0:
            raise _Undefined("0 to a non-positive power")
        return b ** e
    if isinstance(node, Func):
        args = [_point(a, env) for a in node.args]
        return _apply_point(node.name, args)
    if isinstance(node, Rel):
        raise ExpressionError("a relation has no numeric value; evaluate its sides")
    raise ExpressionError(f"cannot evaluate node {node!r}")


def _apply_point(name: str, args):
    x = args[0]
    if name == "sqrt":
        if x < 0:
            raise _Undefined("square root of a negative number")
        return mpmath.sqrt(x)
    if name == "log":
        if x <= 0:
            raise _Undefined("logarithm of a non-positive number")
        if len(args) == 2:
            if args[1] <= 0 or args[1] == 1:
                raise _Undefined("logarithm to a base <= 0 or 1")
            return mpmath.log(x) / mpmath.log(args[1])
        return mpmath.log(x)
    if name == "min":
        return min(args)
    if name == "max":
        return max(args)
    table = {"exp": mpmath.exp, "abs": abs, "floor": mpmath.floor, "ceil": mpmath.ceil,
             "sin": mpmath.sin, "cos": mpmath.cos, "tan": mpmath.tan, "tanh": mpmath.tanh,
             "atan": mpmath.atan, "erf": mpmath.erf}
    return table[name](x)


def evaluate_point(node: Node, env, *, prec: int = 113) -> mpmath.mpf | None:
    """Uncertified value at ``prec`` bits; None where undefined. For sampling."""
    with mpmath.workprec(prec):
        try:
            return +_point(node, env)
        except (_Undefined, ZeroDivisionError, ValueError):
            return None


# ---------------------------------------------------------------- interval evaluation
def _ivf(x):
    if isinstance(x, Fraction):
        return iv.mpf(x.numerator) / x.denominator
    if isinstance(x, iv.mpf):
        return x
    if isinstance(x, tuple):
        return iv.mpf([_mpf(x[0]), _mpf(x[1])])
    return iv.mpf(x)


def _ends(x) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The exact endpoints of an interval as mpfs (no rounding to the ambient precision)."""
    return mp.make_mpf(x._mpi_[0]), mp.make_mpf(x._mpi_[1])


def _monotone_iv(f, x):
    """Enclosure of an increasing function on an interval: endpoint values at 20 extra
    bits, widened outward by more than their rounding error."""
    a, b = _ends(x)
    with mpmath.workprec(iv.prec + 20):
        lo, hi = f(a), f(b)
        eps = mpmath.mpf(2) ** (-iv.prec + 4)
        tiny = mpmath.mpf(2) ** (-4 * iv.prec)
        lo, hi = lo - abs(lo) * eps - tiny, hi + abs(hi) * eps + tiny
    return iv.mpf([lo, hi])


def _enclose(node: Node, env):
    if not isinstance(env, _MemoEnv):
        return _enclose_raw(node, env)
    key = id(node)
    if key in env.memo:
        return env.memo[key]
    if env.keep is not None and key in env.keep:
        return env.keep[key]
    out = _enclose_raw(node, env)
    env.memo[key] = out
    if env.keep is not None and env.constant(node):
        env.keep[key] = out
    return out


class _MemoEnv(dict):
    """Symbol values plus a per-evaluation memo of shared subtrees (keyed by node id), and
    optionally ``keep``: enclosures of subtrees free of ``var``, reused across calls that
    differ only in ``var`` (a requirement certified at H and at H - 1)."""
    def __init__(self, env, keep=None, var=None):
        super().__init__(env)
        self.memo = {}
        self.keep = keep
        self.var = var
        self._has: dict[int, bool] = {}

    def constant(self, n: Node) -> bool:
        k = id(n)
        if k not in self._has:
            self._has[k] = (n.name != self.var) if isinstance(n, Sym) else all(
                self.constant(c) for c in n.children())
        return self._has[k]


def _enclose_raw(node: Node, env):
    if isinstance(node, Num):
        return _ivf(node.value)
    if isinstance(node, Sym):
        return _ivf(env[node.name])
    if isinstance(node, Const):
        return iv.pi if node.name == "pi" else iv.e
    if isinstance(node, Add):
        out = iv.mpf(0)
        for a in node.args:
            out = out + _enclose(a, env)
        return out
    if isinstance(node, Mul):
        out = iv.mpf(1)
        for a in node.args:
            out = out * _enclose(a, env)
        return out
    if isinstance(node, Pow):
        b = _enclose(node.base, env)
        if isinstance(node.exp, Num) and node.exp.value.denominator == 1:
            k = node.exp.value.numerator
            if k < 0 and b.a <= 0 <= b.b:
                raise _Undefined("division by an interval containing zero")
            return b ** k
        e = _enclose(node.exp, env)
        if b.a < 0:
            raise _Undefined("a possibly negative number to a non-integer power")
        if b.a == 0 and e.a <= 0:
            raise _Undefined("0 to a non-positive power")
        if b.a == 0:
            return iv.mpf([0, (iv.mpf(b.b) ** e).b])
        return iv.exp(e * iv.log(b))
    if isinstance(node, Func):
        args = [_enclose(a, env) for a in node.args]
        x = args[0]
        n = node.name
        if n in ("sqrt", "log") and x.a <= 0:
            if n == "sqrt" and x.a == 0:
                return iv.mpf([0, iv.sqrt(iv.mpf(x.b)).b])
            raise _Undefined(f"{n} of a possibly non-positive number")
        if n == "sqrt":
            return iv.sqrt(x)
        if n == "log":
            if len(args) == 2:
                base = args[1]
                if base.a <= 0 or (base.a <= 1 <= base.b):
                    raise _Undefined("logarithm to a base <= 0 or near 1")
                return iv.log(x) / iv.log(base)
            return iv.log(x)
        if n == "exp":
            return iv.exp(x)
        if n == "min":
            return iv.mpf([min(a.a for a in args), min(a.b for a in args)])
        if n == "max":
            return iv.mpf([max(a.a for a in args), max(a.b for a in args)])
        if n == "abs":
            return abs(x)
        if n in ("floor", "ceil"):
            f = mpmath.floor if n == "floor" else mpmath.ceil
            a, b = _ends(x)
            with mpmath.workprec(max(iv.prec, a.context.prec) + 20):
                return iv.mpf([f(a), f(b)])
        if n in ("sin", "cos", "tan"):
            return getattr(iv, n)(x)
        if n in ("tanh", "atan", "erf"):
            return _monotone_iv(getattr(mpmath, n), x)
    if isinstance(node, Rel):
        raise ExpressionError("a relation has no numeric value; evaluate its sides")
    raise ExpressionError(f"cannot evaluate node {node!r}")


def enclose(node: Node, env, *, prec: int, keep: dict | None = None, var: str | None = None):
    """An interval enclosing the exact value, at ``prec`` bits; raises _Undefined.
    ``keep`` (a dict the caller holds per precision) caches the subtrees free of ``var``."""
    old = iv.prec
    iv.prec = prec
    try:
        return _enclose(node, _MemoEnv(env, keep, var))
    finally:
        iv.prec = old


def try_enclose(node: Node, env, *, prec: int, keep: dict | None = None, var: str | None = None):
    try:
        return enclose(node, env, prec=prec, keep=keep, var=var)
    except (_Undefined, ZeroDivisionError, ValueError, mpmath.libmp.ComplexResult):
        return None


# ---------------------------------------------------------------- certified values
def evaluate(node: Node, env, *, digits: int = 15, what: str = "expression") -> mpmath.mpf:
    """The value of ``node`` correct to ``digits`` significant digits (as an mpf at
    ``digits`` + guard precision). ``env`` maps symbol names to Fractions or mpfs."""
    try:
        exact = evaluate_exact(node, env)
    except NotExact:
        exact = None
    except ZeroDivisionError:
        raise ExpressionError(f"{what}: division by zero at these values") from None
    target_bits = int(digits * 3.33) + 16
    if exact is not None:
        with mpmath.workprec(target_bits):
            return _mpf(exact)
    prec = target_bits + 32
    last_reason = None
    while prec <= MAX_PREC:
        try:
            box = enclose(node, env, prec=prec)
        except (_Undefined, ValueError, mpmath.libmp.ComplexResult) as e:
            # may be an artefact of a wide enclosure; decide with a point value
            with mpmath.workprec(prec):
                try:
                    _point(node, env)
                except _Undefined as pe:
                    raise ExpressionError(f"{what} is undefined at these values: {pe}") from None
                except ZeroDivisionError:
                    raise ExpressionError(f"{what}: division by zero at these values") from None
            last_reason = str(e)
            prec *= 2
            continue
        except ZeroDivisionError:
            raise ExpressionError(f"{what}: division by zero at these values") from None
        with mpmath.workprec(prec):
            a, b = _ends(box)
            mid = (a + b) / 2
            width = b - a
            narrow = width == 0 or (mid != 0 and width <= abs(mid) * mpmath.mpf(2) ** (-target_bits))
            if narrow and _agrees_with_point(node, env, mid, width, prec):
                with mpmath.workprec(target_bits):
                    return +mid
            if a <= 0 <= b and width < mpmath.mpf(2) ** (-target_bits):
                return mpmath.mpf(0)
        prec *= 2
    raise ExpressionError(f"{what}: could not evaluate to {digits} digits "
                          f"(precision limit reached{'; ' + last_reason if last_reason else ''})")


def _agrees_with_point(node: Node, env, mid, width, prec: int) -> bool:
    """Guard against a wrong enclosure (mpmath's iv.exp has returned zero-width wrong
    intervals for arguments near 1e400): the point value at a higher precision must lie
    within the enclosure's width (plus rounding slack)."""
    with mpmath.workprec(prec + 64):
        try:
            p = _point(node, env)
        except (_Undefined, ZeroDivisionError, ValueError):
            return True
        slack = abs(mid) * mpmath.mpf(2) ** (-prec + 8) + mpmath.mpf(2) ** (-prec * 4)
        return abs(p - mid) <= width + slack


def decide_sign(node: Node, env, *, max_prec: int = MAX_PREC, keep: dict | None = None,
                var: str | None = None) -> int | None:
    """Certified sign of ``node`` at ``env`` (+1, -1 or 0), or None if undecidable here."""
    try:
        v = evaluate_exact(node, env)
        return (v > 0) - (v < 0)
    except (NotExact, ZeroDivisionError):
        pass
    prec = 128
    while prec <= max_prec:
        box = try_enclose(node, env, prec=prec, keep=None if keep is None else keep.setdefault(prec, {}),
                          var=var)
        if box is not None:
            if box.a > 0:
                return 1
            if box.b < 0:
                return -1
            if box.a == 0 and box.b == 0:
                return 0
        prec *= 2
    return None


# ---------------------------------------------------------------- fast point functions
def compile_point(node: Node, env, var: str, *, prec: int):
    """``f(x) -> mpf``: the value of ``node`` with ``var = x``, every subtree free of
    ``var`` folded to a constant once (shared subtrees evaluated once). Uncertified;
    used by searches, whose answers are then certified. Undefined points give None."""
    memo: dict[int, object] = {}
    has: dict[int, bool] = {}

    def has_var(n: Node) -> bool:
        k = id(n)
        if k not in has:
            has[k] = (n.name == var) if isinstance(n, Sym) else any(has_var(c) for c in n.children())
        return has[k]

    with mpmath.workprec(prec):
        def build(n: Node):
            key = id(n)
            if key in memo:
                return memo[key]
            if not has_var(n):
                try:
                    c = +_point(n, env)
                    out = lambda x, c=c: c  # noqa: E731
                except (_Undefined, ZeroDivisionError, ValueError) as e:
                    msg = str(e)

                    def out(x, msg=msg):
                        raise _Undefined(msg)
            elif isinstance(n, Sym):
                out = lambda x: x  # noqa: E731
            elif isinstance(n, Add):
                parts = [build(a) for a in n.args]
                out = lambda x, parts=parts: mpmath.fsum(p(x) for p in parts)  # noqa: E731
            elif isinstance(n, Mul):
                parts = [build(a) for a in n.args]

                def out(x, parts=parts):
                    r = parts[0](x)
                    for p in parts[1:]:
                        r = r * p(x)
                    return r
            elif isinstance(n, Pow):
                b, e = build(n.base), build(n.exp)
                int_exp = n.exp.value.numerator if isinstance(n.exp, Num) and n.exp.value.denominator == 1 else None

                def out(x, b=b, e=e, k=int_exp):
                    bv = b(x)
                    if k is not None:
                        if bv == 0 and k < 0:
                            raise _Undefined("division by zero")
                        return bv ** k
                    ev = e(x)
                    if bv < 0 or (bv == 0 and ev <= 0):
                        raise _Undefined("invalid power")
                    return bv ** ev
            elif isinstance(n, Func):
                parts = [build(a) for a in n.args]
                out = lambda x, parts=parts, name=n.name: _apply_point(name, [p(x) for p in parts])  # noqa: E731
            else:
                raise ExpressionError(f"cannot evaluate node {n!r}")
            memo[key] = out
            return out
        f = build(node)

    def call(x):
        with mpmath.workprec(prec):
            try:
                return f(_mpf(x))
            except (_Undefined, ZeroDivisionError, ValueError):
                return None
    return call
