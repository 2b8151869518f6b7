"""Rigorous ball arithmetic (python-flint's ``arb``): enclosures of expression trees.

Every function the expression language offers — ``exp log sqrt`` and powers, ``sin cos
tan tanh atan erf``, ``abs min max floor ceil``, ``gamma factorial binomial`` — has a rigorous arb implementation, so an
enclosure computed here contains the exact value, whatever the magnitudes (arb's exponents
are unbounded: 10^100000 is an ordinary ball).

Precision.  python-flint keeps ONE process-wide working precision (``flint.ctx.prec``).
:func:`precision` is the only place in boundcalc that sets it: it holds a re-entrant lock
for the whole block and restores the previous value on exit, so concurrent callers in
threads (the Dask back end runs tasks in threads) each compute at their own precision and
leave the global state as they found it.  Code that computes with arb balls must do so
inside ``with precision(bits):``.

Intervals of balls.  A value is enclosed by a pair of balls (lo, hi): the exact value (or,
for a box of inputs, every value over the box) lies in [lower(lo), upper(hi)]. At a point,
lo and hi are one ball and this is plain ball arithmetic. Over a box it is interval
arithmetic whose endpoints are rigorous balls: products take the extreme endpoint products
and monotone functions map endpoints, which stays tight where midpoint-radius arithmetic
((m1 ± r1)(m2 ± r2)) would blur a positive box across 0.

Definedness.  :class:`Undefined` means the exact value is certainly undefined by the one
rule of :mod:`boundcalc.expr.singularities` (log of a number <= 0 or to a base <= 0 or 1,
a negative base to a non-integer power, division by exactly zero, 0^0), with its message;
:class:`Unresolved` means the enclosure is too wide to tell at this precision (a ball that
straddles 0 under a log or a division) — the caller may retry at a higher precision.
:class:`TooLarge` means a magnitude beyond the range boundcalc evaluates, |log2 |value|| >
2^4096 (about 10^(10^1233), whose decimal exponent still prints); exp(1e400) is
fine, exp(exp(exp(10))) is refused at once.

Indexed symbols and big operators.  ``s[i]`` takes its component from the environment's
value of ``s`` (:func:`boundcalc.expr.indexed.component`: a vector, or one value for every
index); ``sum/prod/max/min(body, i, lo, hi)`` is written out (:func:`boundcalc.expr.nodes.expand`)
once ``lo`` and ``hi`` are exact integers at a point. Over a box whose range ends are not
one integer the enclosure is :class:`Unresolved` (an honest "unknown" for the callers); a
non-integer end, or a max/min over an empty range, is :class:`Undefined`.
"""
from __future__ import annotations

import threading
from collections.abc import Generator
from contextlib import contextmanager
from fractions import Fraction

import flint
from flint import arb, arf, fmpq, fmpz

from ..errors import ExpressionError
from ..expr.indexed import component
from ..expr.nodes import Add, BigOp, Const, EmptyRange, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym, expand
from ..expr.singularities import REASONS
from ..expr.visitor import DESCEND, Visitor, handles, top_down
from .limits import LOG2_LIMIT, MAX_DIGITS, MAX_PREC  # noqa: F401  (re-exported)

_LOCK = threading.RLock()


class Undefined(Exception):
    """The exact value is undefined (log of a non-positive number, 1/0, ...)."""


class Unresolved(Exception):
    """The enclosure is too wide to decide definedness at this precision."""


class TooLarge(Exception):
    """The value's magnitude is beyond what boundcalc evaluates."""


@contextmanager
def precision(bits: int):
    """Compute with arb at ``bits`` bits of working precision (thread-safe, see module doc)."""
    with _LOCK:
        old = flint.ctx.prec
        flint.ctx.prec = int(bits)
        try:
            yield
        finally:
            flint.ctx.prec = old


# ---------------------------------------------------------------- conversions
def ball(x) -> arb:
    """An arb ball containing ``x``: a Fraction/int/float (exact up to rounding at the
    current precision), an mpmath mpf (exactly), an arb, or a ``(lo, hi)`` pair (the hull)."""
    if isinstance(x, arb):
        return x
    if isinstance(x, Fraction):
        if x.denominator == 1:
            return arb(fmpz(x.numerator))
        return arb(fmpq(x.numerator, x.denominator))
    if isinstance(x, bool):
        return arb(int(x))
    if isinstance(x, int):
        return arb(fmpz(x))
    if isinstance(x, float):
        return ball(Fraction(x))
    if isinstance(x, tuple):
        lo, hi = ball(x[0]), ball(x[1])
        return lo.union(hi)
    if hasattr(x, "_mpf_"):                     # mpmath.mpf, converted exactly
        from ..mpmath_import import mpmath
        if not mpmath.isfinite(x):
            raise ExpressionError(f"cannot enclose the non-finite value {x}")
        sign, man, exp, _ = x._mpf_
        return arb(arf((fmpz(-int(man) if sign else int(man)), fmpz(int(exp)))))
    raise ExpressionError(f"cannot enclose value {x!r} of type {type(x).__name__}")


def to_fraction(x: arb) -> Fraction:
    """The exact value of an exact arb (an endpoint or a midpoint) as a Fraction."""
    m, e = x.mid().man_exp()
    man, exp = int(m), int(e)
    return Fraction(man * 2 ** exp) if exp >= 0 else Fraction(man, 2 ** -exp)


def to_mpf(x: arb, bits: int | None = None):
    """The midpoint of ``x`` as an mpmath mpf, exactly, or rounded to ``bits`` (no global
    precision is read or changed)."""
    from ..mpmath_import import mpmath
    # isort: split
    from mpmath.libmp import from_man_exp, round_nearest
    man, exp = x.mid().man_exp()
    raw = from_man_exp(int(man), int(exp)) if bits is None else from_man_exp(int(man), int(exp), bits,
                                                                              round_nearest)
    return mpmath.mp.make_mpf(raw)


def endpoints(x: arb) -> tuple[arb, arb]:
    """Exact lower and upper endpoints of a ball."""
    return x.lower(), x.upper()


# ---------------------------------------------------------------- enclosure
class Iv:
    """An enclosure [lower(lo), upper(hi)] given by two arb balls (one ball at a point)."""
    __slots__ = ("lo", "hi")

    def __init__(self, lo: arb, hi: arb | None = None):
        self.lo = lo
        self.hi = lo if hi is None else hi

    @property
    def point(self) -> bool:
        return self.lo is self.hi

    def lower(self) -> arb:
        return self.lo.lower()

    def upper(self) -> arb:
        return self.hi.upper()

    def ball(self) -> arb:
        """One ball containing the whole enclosure."""
        return self.lo if self.point else self.lo.lower().union(self.hi.upper())

    def __repr__(self) -> str:
        return f"Iv({self.lo}, {self.hi})" if not self.point else f"Iv({self.lo})"


def _iv(x) -> Iv:
    if isinstance(x, Iv):
        return x
    if isinstance(x, tuple):
        lo, hi = ball(x[0]), ball(x[1])
        if lo.upper() > hi.lower():
            lo, hi = hi, lo
        return Iv(lo, hi)
    return Iv(ball(x))


class _FreeOf(Visitor[bool]):
    """Whether a subtree is free of the symbol ``var``."""

    def __init__(self, var: str | None) -> None:
        super().__init__()
        self.var = var

    def visit_Sym(self, n: Sym, args: list) -> bool:
        return n.name != self.var

    @handles(Num, Const, Ref, Add, Mul, Pow, Func, Rel)
    def _all(self, n: Node, args: list[bool]) -> bool:
        return all(args)

    def visit_Indexed(self, n: Indexed, args: list[bool]) -> bool:
        return n.name != self.var and all(args)

    def visit_BigOp(self, n: BigOp, args: list[bool]) -> bool:
        return (n.var == self.var or args[0]) and args[1] and args[2]


class _Enclose(Visitor[Iv]):
    """The enclosure of each node at ``env`` (symbol values or ``(lo, hi)`` ranges), each
    shared subtree once per evaluation; optionally ``keep``: enclosures of subtrees free of
    ``var``, reused across calls that differ only in ``var`` (a requirement certified at H
    and at H - 1). Callers keep one ``keep`` per precision. Entries hold the node itself,
    so a keep shared across calls with nodes built and dropped in between can never serve
    one node's value for another whose id was reused."""

    def __init__(self, env, keep: dict | None = None, var: str | None = None) -> None:
        super().__init__()
        self.env = env
        self.keep = keep
        free = None
        if keep is not None:        # one _FreeOf per keep and var: its memo (nodes kept alive) outlives the call
            free = keep.get(("free of", var))
            if free is None:
                free = keep[("free of", var)] = _FreeOf(var)
        self.free = free if free is not None else _FreeOf(var)

    def enter(self, node: Node):
        if self.keep is not None:
            hit = self.keep.get(id(node))
            if hit is not None and hit[0] is node:    # the node itself is stored: ids are never reused
                return hit[1]
        return DESCEND

    def walk(self, root: Node) -> Iv:
        """The enclosure of ``root``; with ``keep``, whether each node is free of ``var`` is
        found first, in one walk of the whole tree (not one walk per node from :meth:`leave`)."""
        if self.keep is not None:
            self.free.walk(root)
        return super().walk(root)

    def leave(self, node: Node, out: Iv) -> Iv:
        _check_magnitude(out.lo)
        if not out.point:
            _check_magnitude(out.hi)
        if self.keep is not None:
            free = self.free.memo.get(id(node))       # memoised by identity (the node is kept alive)
            if free is None:                          # a node built during the walk (a big operator expanded)
                free = self.free.walk(node)
            if free:
                self.keep[id(node)] = (node, out)     # keeps the node alive, so its id stays its own
        return out

    def visit_Num(self, node: Num, args: list) -> Iv:
        return Iv(ball(node.value))

    def visit_Sym(self, node: Sym, args: list) -> Iv:
        return _iv(self.env[node.name])

    def visit_Const(self, node: Const, args: list) -> Iv:
        return Iv(arb.pi() if node.name == "pi" else arb.const_e())

    def visit_Add(self, node: Add, args: list[Iv]) -> Iv:
        out = args[0]
        for x in args[1:]:
            out = _add(out, x)
        return out

    def visit_Mul(self, node: Mul, args: list[Iv]) -> Iv:
        out = args[0]
        for x in args[1:]:
            out = _mul(out, x)
        return out

    def visit_Pow(self, node: Pow) -> Generator[Node, Iv, Iv]:
        b = yield node.base
        k = _int_exponent(node.exp)
        if k is not None:
            return _finite(_int_pow(b, k), "power")
        e = yield node.exp
        return _real_pow(b, e)

    def visit_Func(self, node: Func, args: list[Iv]) -> Iv:
        return _func(node.name, args)

    @top_down
    def visit_Rel(self, node: Rel) -> Iv:
        raise ExpressionError("a relation has no numeric value; evaluate its sides")

    def visit_Indexed(self, node: Indexed) -> Generator[Node, Iv, Iv]:
        k = _exact_integer(node.name + "[.]", (yield node.index))
        return _iv(component(self.env[node.name], k, node.name))

    def visit_BigOp(self, node: BigOp) -> Generator[Node, Iv, Iv]:
        lo = _exact_integer(f"{node.op} over {node.var}", (yield node.lo))
        hi = _exact_integer(f"{node.op} over {node.var}", (yield node.hi))
        try:
            terms = expand(node, lo, hi)
        except EmptyRange:
            raise Undefined(REASONS["range"]) from None
        except OverflowError as e:
            raise TooLarge(str(e)) from None
        return (yield terms)

    @top_down
    def visit_Ref(self, node: Ref) -> Iv:
        raise ExpressionError(f"cannot evaluate node {node!r}")


def _exact_integer(what: str, x: Iv) -> int:
    """The integer a range end or an index encloses: it must be one exact integer (a point);
    a non-integer is :class:`Undefined`, a range over a box :class:`Unresolved`."""
    if not x.point or not x.lo.is_exact():
        raise Unresolved(f"{what}: a range end or index that is not one number on this box")
    q = to_fraction(x.lo)
    if q.denominator != 1:
        raise Undefined(REASONS["range"])
    return int(q)


def _int_exponent(node: Node) -> int | None:
    if isinstance(node, Num) and node.value.denominator == 1:
        return node.value.numerator
    return None


# ---------------------------------------------------------------- operations on Iv
def _min(*xs: arb) -> arb:
    out = xs[0]
    for x in xs[1:]:
        out = out.min(x)
    return out


def _max(*xs: arb) -> arb:
    out = xs[0]
    for x in xs[1:]:
        out = out.max(x)
    return out


def _add(a: Iv, b: Iv) -> Iv:
    if a.point and b.point:
        return Iv(a.lo + b.lo)
    return Iv(a.lo + b.lo, a.hi + b.hi)


def _mul(a: Iv, b: Iv) -> Iv:
    if a.point and b.point:
        return Iv(a.lo * b.lo)
    ps = (a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi)
    return Iv(_min(*ps), _max(*ps))


def _increasing(f, x: Iv) -> Iv:
    if x.point:
        return Iv(f(x.lo))
    return Iv(f(x.lo), f(x.hi))


def _straddles_zero(x: Iv) -> bool:
    return x.lower() <= 0 <= x.upper()


def _finite(x: Iv, why: str) -> Iv:
    if not (x.lo.is_finite() and x.hi.is_finite()):
        raise Unresolved(why)
    return x


def _log2_mag(x: arb) -> arb:
    """An upper bound on log2|x| (from the exponent of |x|'s upper endpoint)."""
    man, exp = abs(x).upper().mid().man_exp()
    return arb(int(exp) + int(man).bit_length())


def _check_magnitude(x: arb) -> None:
    if x.is_finite() and not x.is_zero() and abs(x).upper() > 1 and _log2_mag(x) > LOG2_LIMIT:
        raise TooLarge("a magnitude beyond 2^(2^4096)")


def _exp_guard(x: Iv) -> Iv:
    if not x.hi.is_finite():
        raise Unresolved("exponent not finite")
    if x.upper() > LOG2_LIMIT:
        raise TooLarge("exp of an argument above 2^4096 (a value beyond 10^(10^1233))")
    return x


def _int_pow(b: Iv, k: int) -> Iv:
    if k <= 0 and _straddles_zero(b):
        if b.point and b.lo.is_exact() and b.lo.is_zero():
            raise Undefined(REASONS["division" if k < 0 else "zero_pow_zero"])
        raise Unresolved("division by a value that may be zero" if k < 0 else "0 to the power 0 possible")
    if k == 0:
        return Iv(arb(1))
    total = abs(k) * _log2_mag(b.hi if abs(b.hi).upper() >= abs(b.lo).upper() else b.lo)
    if total.upper() > LOG2_LIMIT:
        raise TooLarge("a power beyond 2^(2^4096)")
    if b.point:
        return Iv(b.lo ** k)
    if k % 2 == 0 and b.lower() < 0 < b.upper():     # even power over a range straddling 0
        return Iv(arb(0), _max(-b.lo, b.hi) ** k)
    u, v = b.lo ** k, b.hi ** k                     # monotone on a range free of 0 (or k odd)
    return Iv(_min(u, v), _max(u, v))


def _real_pow(b: Iv, e: Iv) -> Iv:
    """``b ** e`` for an exponent that is not an integer number."""
    if b.upper() < 0:
        raise Undefined(REASONS["fractional"])
    if b.lower() < 0:
        if b.point and b.lo.is_exact():
            raise Undefined(REASONS["fractional"])
        raise Unresolved("a possibly negative number to a non-integer power")
    if b.lower() == 0:
        if b.upper() == 0:                            # exactly 0
            if e.lower() > 0:
                return Iv(arb(0))
            if e.upper() <= 0:
                raise Undefined(REASONS["zero_negative"])
            raise Unresolved("0 to a power of undecided sign")
        if e.lower() <= 0:
            raise Unresolved("a possibly zero base to a possibly non-positive power")
        hi = b.upper()                                # x^e over x in [0, hi], e > 0
        top = _increasing(arb.exp, _exp_guard(_mul(e, Iv(hi.log())))).hi if hi > 1 else hi ** e.lower()
        return _finite(Iv(arb(0), top), "power")
    return _finite(_increasing(arb.exp, _exp_guard(_mul(e, _increasing(arb.log, b)))), "power")


def _func(name: str, args: list[Iv]) -> Iv:
    """The enclosure of ``name(*args)`` (:data:`_FUNCS`: one rule per function)."""
    rule = _FUNCS.get(name)
    if rule is None:
        raise ExpressionError(f"unknown function {name!r}")
    return rule(name, args)


def _sqrt(name: str, args: list[Iv]) -> Iv:
    x = args[0]
    if x.upper() < 0:
        raise Undefined(REASONS["sqrt"])
    if x.lower() < 0:
        if x.point and x.lo.is_exact():
            raise Undefined(REASONS["sqrt"])
        raise Unresolved("square root of a possibly negative number")
    if x.point:
        return Iv(x.lo.nonnegative_part().sqrt())
    return Iv(x.lo.nonnegative_part().sqrt(), x.hi.sqrt())


def _log(name: str, args: list[Iv]) -> Iv:
    x = args[0]
    if x.upper() <= 0:
        raise Undefined(REASONS["log"])
    if x.lower() <= 0:
        raise Unresolved("logarithm of a possibly non-positive number")
    out = _increasing(arb.log, x)
    if len(args) == 2:
        base = args[1]
        if base.upper() <= 0 or (base.point and base.lo.is_exact() and base.lo == 1):
            raise Undefined(REASONS["log_base"])
        if base.lower() <= 0 or base.lower() <= 1 <= base.upper():
            raise Unresolved("logarithm to a base possibly <= 0 or 1")
        return _finite(_mul(out, _int_pow(_increasing(arb.log, base), -1)), "log")
    return out


def _min_max(name: str, args: list[Iv]) -> Iv:
    pick = _min if name == "min" else _max
    return Iv(pick(*(a.lo for a in args)), pick(*(a.hi for a in args))) \
        if not all(a.point for a in args) else Iv(pick(*(a.lo for a in args)))


def _abs(name: str, args: list[Iv]) -> Iv:
    x = args[0]
    if x.point:
        return Iv(abs(x.lo))
    if x.lower() < 0 < x.upper():
        return Iv(arb(0), _max(-x.lo, x.hi))
    return x if x.lower() >= 0 else Iv(-x.hi, -x.lo)


def _binomial(name: str, args: list[Iv]) -> Iv:
    n, k = args
    for a in (n, k):
        if a.upper() < 0:
            raise Undefined(REASONS["binomial"])
        if a.lower() < 0:
            raise Unresolved("binomial of a possibly negative argument")
    one = Iv(arb(1))
    top = _gamma(_add(n, one))
    den = _mul(_ball_fn(arb.rgamma, _add(k, one)),
               _ball_fn(arb.rgamma, _add(_add(n, _mul(Iv(arb(-1)), k)), one)))
    return _finite(_mul(top, den), "binomial")


#: one enclosure rule per function of the language
_FUNCS: dict = {
    "sqrt": _sqrt,
    "log": _log,
    "exp": lambda name, args: _finite(_increasing(arb.exp, _exp_guard(args[0])), "exp"),
    "min": _min_max,
    "max": _min_max,
    "abs": _abs,
    "floor": lambda name, args: _finite(_increasing(arb.floor, args[0]), "floor"),
    "ceil": lambda name, args: _finite(_increasing(arb.ceil, args[0]), "ceil"),
    "tanh": lambda name, args: _increasing(arb.tanh, args[0]),
    "atan": lambda name, args: _increasing(arb.atan, args[0]),
    "erf": lambda name, args: _increasing(arb.erf, args[0]),
    "sin": lambda name, args: Iv(args[0].ball().sin()),
    "cos": lambda name, args: Iv(args[0].ball().cos()),
    "tan": lambda name, args: _finite(Iv(args[0].ball().tan()), "tan near a pole"),
    "gamma": lambda name, args: _gamma(args[0]),
    "factorial": lambda name, args: _gamma(_add(args[0], Iv(arb(1)))),
    "binomial": _binomial,
}


#: where gamma has its minimum on (0, oo) (gamma is increasing to its right, decreasing
#: between 0 and it); a rational just above the true 1.46163214496836...
_GAMMA_MIN = Fraction(146163214496837, 10 ** 14)


def _ball_fn(f, x: Iv) -> Iv:
    """``f`` of a whole enclosure as one ball (rigorous for any arb function)."""
    return Iv(f(x.ball()))


def _gamma(x: Iv) -> Iv:
    """gamma of an enclosure: undefined at an exact pole (0, -1, ...), unresolved where the
    enclosure meets one; monotone endpoints right of gamma's minimum."""
    if x.point and x.lo.is_exact():
        q = to_fraction(x.lo)
        if q <= 0 and q.denominator == 1:
            raise Undefined(REASONS["gamma"])
    if x.lower() <= 0:
        lo_i, hi_i = x.lower().floor(), x.upper().floor()
        if x.upper() >= 0 or lo_i != hi_i or x.lower() == lo_i:
            raise Unresolved("gamma near a pole")
    if not x.point and x.lower() >= ball(_GAMMA_MIN):
        return _finite(_increasing(arb.gamma, x), "gamma")
    if x.point:
        return _finite(Iv(x.lo.gamma()), "gamma")
    return _finite(_ball_fn(arb.gamma, x), "gamma")


def enclose_interval(node: Node, env, *, prec: int, keep: dict | None = None,
                     var: str | None = None) -> tuple[arb, arb]:
    """Exact endpoints (lower, upper) of an enclosure of ``node`` over ``env`` — whose values
    may be numbers or ``(lo, hi)`` ranges (a box) — computed at ``prec`` bits.

    Raises :class:`Undefined`, :class:`Unresolved` or :class:`TooLarge`."""
    with precision(prec):
        x = _Enclose(env, keep, var).walk(node)
        return x.lower(), x.upper()


def enclose(node: Node, env, *, prec: int, keep: dict | None = None, var: str | None = None) -> arb:
    """A ball containing the exact value of ``node`` at ``env`` (or every value over a box),
    computed at ``prec`` bits; raises :class:`Undefined`, :class:`Unresolved` or
    :class:`TooLarge`. ``keep`` (a dict the caller holds per precision) caches the
    enclosures of subtrees free of ``var``. For boxes, :func:`enclose_interval` is tighter."""
    with precision(prec):
        return _Enclose(env, keep, var).walk(node).ball()
