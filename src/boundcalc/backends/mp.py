"""Certified values, signs and enclosures for the services, computed in ball arithmetic.

All certified work happens in :mod:`.arb` (python-flint's rigorous ball arithmetic, under
its thread-safe precision context):

- :func:`evaluate` — the value of an expression correct to ``digits`` significant digits:
  exact rationals where the expression is rational, otherwise arb balls at increasing
  precision until the ball is narrow enough. Values far beyond the double range (10^400,
  10^100000) are ordinary here; nothing overflows to ``inf``.
- :func:`decide_sign`, :func:`enclose` / :func:`try_enclose` — certified signs and
  enclosures (used by the solver's certificates, monotonicity and verification).
- :func:`evaluate_point`, :func:`compile_point` — *uncertified* values for searches and
  sampling (the midpoint of a ball; ``None`` where undefined); whatever a search finds with
  them is certified afterwards with :func:`decide_sign`.

mpmath is kept for what it serves best here: the ``mpf`` type of the values ``evaluate``
returns and their printing (``nstr``). It is imported only by the functions that return
mpfs: requirement solving (exact Fractions, :func:`point_fraction`, :func:`compile_point`,
:func:`fmt_sig`) never imports it. Results are converted from arb exactly (or rounded by
mpmath's pure ``libmp`` functions); no function in this module reads or changes mpmath's
process-wide precision, so certified evaluation is safe to run in threads.
"""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from ..errors import ExpressionError
from ..expr.exact import NotExact, evaluate_exact
from ..expr.nodes import Node
from .limits import MAX_DIGITS, MAX_PREC, SIGN_MAX_PREC, digits_error  # noqa: F401

if TYPE_CHECKING:          # annotations only; mpmath is imported by the functions that use it
    from ..mpmath_import import mpmath


class _LazyArb:
    """The :mod:`.arb` module, imported on first use: python-flint's import is paid only by
    commands that compute something not exactly rational."""
    def __getattr__(self, name):
        from . import arb
        return getattr(arb, name)


A = _LazyArb()


def _mpf(x) -> mpmath.mpf:
    """A Fraction (or number) as an mpf at mpmath's current precision (for callers that
    then compute with mpmath themselves)."""
    from ..mpmath_import import mpmath
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(x)


def _fraction_mpf(x: Fraction, bits: int) -> mpmath.mpf:
    from ..mpmath_import import mpmath
    # isort: split
    from mpmath.libmp import from_rational, round_nearest
    return mpmath.mp.make_mpf(from_rational(x.numerator, x.denominator, bits, round_nearest))


# ---------------------------------------------------------------- certified values
def evaluate(node: Node, env, *, digits: int = 15, what: str = "expression") -> mpmath.mpf:
    """The value of ``node`` correct to ``digits`` significant digits (an mpf rounded to
    ``digits`` + guard bits). ``env`` maps symbol names to Fractions, ints or mpfs.

    A value whose enclosure keeps straddling 0 up to the precision limit cannot be
    certified (it may be exactly 0, or too small to separate from 0): that is an error
    saying so, never a silent 0."""
    why = digits_error(int(digits))
    if why:
        raise ExpressionError(f"{what}: {why}")
    try:
        exact = evaluate_exact(node, env)
    except NotExact:
        exact = None
    except ZeroDivisionError:
        raise ExpressionError(f"{what}: division by zero at these values") from None
    target_bits = int(digits * 3.33) + 16
    if exact is not None:
        return _fraction_mpf(exact, target_bits)
    prec = target_bits + 32
    reason = None
    while prec <= MAX_PREC:
        try:
            with A.precision(prec):
                x = A.enclose(node, env, prec=prec)
                mid, rad = x.mid(), x.rad()
                if rad.is_zero() or (not mid.is_zero() and rad * 2 ** target_bits <= abs(mid)):
                    return A.to_mpf(x, target_bits)
                if x.lower() <= 0 <= x.upper():
                    reason = f"|value| <= {rad.upper().str(3, radius=False)}, its sign is not separated from 0"
        except A.Undefined as e:
            raise ExpressionError(f"{what} is undefined at these values: {e}") from None
        except A.TooLarge as e:
            raise ExpressionError(f"{what}: {e} — beyond the range boundcalc evaluates") from None
        except A.Unresolved as e:
            reason = str(e)
        prec *= 2 if prec < 4096 else 4
    raise ExpressionError(f"{what}: could not certify {digits} digits within {MAX_PREC} bits"
                          f"{' (' + reason + ')' if reason else ''}")


def decide_sign(node: Node, env, *, max_prec: int = SIGN_MAX_PREC, keep: dict | None = None,
                var: str | None = None) -> int | None:
    """Certified sign of ``node`` at ``env`` (+1, -1 or 0), or None if undecidable here
    (undefined, beyond range, or not separated from 0 within ``max_prec`` bits).
    ``keep`` (a dict the caller holds) caches, per precision, the balls of subtrees free of
    ``var``: a requirement certified at H and at H - 1 evaluates them once."""
    try:
        v = evaluate_exact(node, env)
        return (v > 0) - (v < 0)
    except (NotExact, ZeroDivisionError):
        pass
    prec = 128
    while prec <= max_prec:
        try:
            x = A.enclose(node, env, prec=prec, var=var,
                          keep=None if keep is None else keep.setdefault(prec, {}))
        except (A.Undefined, A.TooLarge):
            return None
        except A.Unresolved:
            x = None
        if x is not None:
            with A.precision(prec):
                if x.lower() > 0:
                    return 1
                if x.upper() < 0:
                    return -1
                if x.is_zero():
                    return 0
        prec *= 2
    return None


class Interval:
    """A certified enclosure [a, b] with exact mpf endpoints (``lo``, ``hi``: the arbs)."""
    __slots__ = ("a", "b", "lo", "hi")

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi
        self.a, self.b = A.to_mpf(lo), A.to_mpf(hi)

    def __repr__(self) -> str:
        return f"Interval([{fmt_sig(self.lo, 10)}, {fmt_sig(self.hi, 10)}])"


def enclose(node: Node, env, *, prec: int, keep: dict | None = None, var: str | None = None) -> Interval:
    """An :class:`Interval` enclosing the exact value (or every value over a box: ``env``
    values may be ``(lo, hi)`` ranges), computed at ``prec`` bits; raises
    :class:`.arb.Undefined`, :class:`.arb.Unresolved` or :class:`.arb.TooLarge`."""
    return Interval(*A.enclose_interval(node, env, prec=prec, keep=keep, var=var))


def try_enclose(node: Node, env, *, prec: int, keep: dict | None = None, var: str | None = None):
    """:func:`enclose`, or None where the enclosure cannot be computed at ``prec``."""
    try:
        return enclose(node, env, prec=prec, keep=keep, var=var)
    except (A.Undefined, A.Unresolved, A.TooLarge):
        return None


# ---------------------------------------------------------------- uncertified point values
def evaluate_point(node: Node, env, *, prec: int = 113) -> mpmath.mpf | None:
    """Uncertified value at ``prec`` bits (a ball's midpoint); None where undefined or not
    computable at this precision. For sampling and searches."""
    try:
        return A.to_mpf(A.enclose(node, env, prec=prec), prec)
    except (A.Undefined, A.Unresolved, A.TooLarge):
        return None


def point_fraction(node: Node, env, *, prec: int = 128) -> Fraction | None:
    """Uncertified value as an exact Fraction (the midpoint of a ball computed at ``prec``
    bits); None where undefined or not computable at this precision."""
    try:
        return A.to_fraction(A.enclose(node, env, prec=prec))
    except (A.Undefined, A.Unresolved, A.TooLarge):
        return None


def compile_point(node: Node, env, var: str, *, prec: int):
    """``f(x) -> Fraction | None``: the uncertified value of ``node`` with ``var = x`` (a
    ball's midpoint, exactly); every subtree free of ``var`` is enclosed once and reused
    across calls. Used by searches, whose answers are then certified."""
    keep: dict = {}

    def call(x):
        e = dict(env)
        e[var] = x
        try:
            return A.to_fraction(A.enclose(node, e, prec=prec, keep=keep, var=var))
        except (A.Undefined, A.Unresolved, A.TooLarge):
            return None
    return call


def compile_sign_point(node: Node, env, var: str, *, prec: int):
    """Like :func:`compile_point`, returning ``(value, resolved)``: the midpoint and whether
    the ball excludes 0 (its sign is then right), so a search can add bits where
    cancellation leaves the sign unresolved."""
    keep: dict = {}

    def call(x):
        e = dict(env)
        e[var] = x
        try:
            b = A.enclose(node, e, prec=prec, keep=keep, var=var)
        except (A.Undefined, A.Unresolved, A.TooLarge):
            return None, False
        with A.precision(prec):
            resolved = b.lower() > 0 or b.upper() < 0 or b.is_zero()
        return A.to_fraction(b), resolved
    return call


def fmt_sig(x, digits: int = 15) -> str:
    """``x`` (Fraction, int, float, mpf or arb) to ``digits`` significant digits with trailing
    zeros stripped, like mpmath's ``nstr`` (``0.5``, ``1.83e+19``), without importing mpmath."""
    if isinstance(x, int) or (isinstance(x, Fraction) and x.denominator == 1):
        x = Fraction(x)
        if abs(x.numerator) < 10 ** digits:
            return str(x.numerator)
    with A.precision(int(digits * 3.33) + 32):
        b = A.ball(x)
        if b.is_zero():
            return "0.0"
        text = b.mid().str(digits, radius=False)
    mant, _, exp = text.partition("e")
    if "." in mant:
        mant = mant.rstrip("0")
        mant = mant + "0" if mant.endswith(".") else mant
    if exp:
        exp = exp if exp.startswith(("+", "-")) else "+" + exp
        return f"{mant}e{exp}"
    return mant
