"""The number budget: every number a user or a formula file writes goes through here.

A decimal such as ``1e999999999`` is cheap to write and ruinous to turn into an exact
rational (Python builds the integer ``10**999999999``), and a 5000-digit string trips
Python's 4300-digit int/str limit. So the text is checked *before* it is converted:

- at most :data:`MAX_DIGITS` digits in the mantissa;
- an exponent of at most :data:`MAX_EXPONENT_CHARS` characters;
- a magnitude ``10**-MAX_MAGNITUDE <= |x| <= 10**MAX_MAGNITUDE`` (or ``x = 0``),
  which is far outside anything a formula in boundcalc can use (the largest
  requirement the papers produce at absurd inputs is about ``10**4400``).

Exact integers of any size are printed by :func:`fmt_int` in scientific form with their
digit count (never through the 4300-digit limit); exact digits only on request
(:func:`exact_digits`).
"""
from __future__ import annotations

import re
from fractions import Fraction

from ..errors import ExpressionError

MAX_DIGITS = 4000            # digits of a mantissa (below Python's 4300-digit int/str limit)
MAX_EXPONENT_CHARS = 6       # 'e+123456' at most
MAX_MAGNITUDE = 4000         # |x| in [1e-4000, 1e4000]: exact values of inputs print within the int/str limit
BIG_INT_DIGITS = 40          # integers longer than this print as m.mmme+E (D digits)
_LOG10_2 = 0.30102999566398120

DECIMAL = re.compile(r"^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$")


def budget_text() -> str:
    return (f"at most {MAX_DIGITS} digits, |x| between 1e-{MAX_MAGNITUDE} and 1e{MAX_MAGNITUDE} "
            f"(or 0)")


def decimal(text: str, *, where: str = "value") -> Fraction | None:
    """``text`` as an exact rational if it is a decimal literal (``-1.5e-3``), checked
    against the budget before conversion; None if it is not a decimal literal."""
    s = text.strip()
    m = DECIMAL.match(s)
    if not m:
        return None
    sign, ip, fp, ex = m.groups()
    fp = fp or ""
    if not ip and not fp:
        return None
    if len(ip) + len(fp) > MAX_DIGITS:
        raise ExpressionError(f"{where}: {_short(s)} has {len(ip) + len(fp)} digits; "
                              f"the limit is {MAX_DIGITS}")
    e = 0
    if ex is not None:
        if len(ex.lstrip("+-").lstrip("0")) > MAX_EXPONENT_CHARS:
            raise ExpressionError(f"{where}: exponent of {_short(s)} is far too large "
                                  f"(numbers must satisfy {budget_text()})")
        e = int(ex)
    digits = (ip + fp).lstrip("0")
    if not digits:
        return Fraction(0)
    # value = 0.digits * 10**(position of the first significant digit)
    mag = len(ip.lstrip("0")) - 1 + e if ip.lstrip("0") else e - (len(fp) - len(fp.lstrip("0"))) - 1
    check_exponent(mag, s, where)
    num = int(digits)
    scale = e - len(fp)
    x = Fraction(num * 10 ** scale) if scale >= 0 else Fraction(num, 10 ** -scale)
    return -x if sign == "-" else x


def decimal_exponent(x: Fraction) -> int:
    """About log10(|x|) for x != 0 (within one: digits of the numerator minus digits of
    the denominator)."""
    return int_digits(x.numerator) - int_digits(x.denominator)


def check_exponent(mag: int, text: str, where: str) -> None:
    if abs(mag) > MAX_MAGNITUDE:
        raise ExpressionError(f"{where}: {_short(text)} is about 1e{mag}, far outside what a formula "
                              f"can use (numbers must satisfy {budget_text()})")


def check_budget(x: Fraction, *, where: str = "value", text: str | None = None) -> Fraction:
    """Refuse a rational whose magnitude is outside the budget (or with huge parts)."""
    if x != 0:
        check_exponent(decimal_exponent(x), text if text is not None else fmt_exact(x), where)
        if x.denominator.bit_length() > 4 * MAX_MAGNITUDE:
            raise ExpressionError(f"{where}: {_short(text or fmt_exact(x))} has a denominator of "
                                  f"{int(x.denominator.bit_length() * _LOG10_2) + 1} digits; "
                                  f"numbers must satisfy {budget_text()}")
    return x


def _short(s: str) -> str:
    s = str(s)
    return repr(s) if len(s) <= 40 else repr(s[:20] + "..." + s[-12:]) + f" ({len(s)} characters)"


def int_digits(n: int) -> int:
    """The number of decimal digits of |n| (exact, without str())."""
    a = abs(n)
    if a < 10:
        return 1
    e = int(a.bit_length() * _LOG10_2) - 1
    while 10 ** (e + 1) <= a:
        e += 1
    while 10 ** e > a:
        e -= 1
    return e + 1


def fmt_int(n: int, *, sig: int = 15) -> str:
    """An integer of any size: exact when at most BIG_INT_DIGITS digits, else
    ``m.mmmmmmmmmmmmmme+E (D digits)`` (the leading digits truncated, never rounded up)."""
    a = abs(n)
    if a.bit_length() <= 4 * BIG_INT_DIGITS and len(str(a)) <= BIG_INT_DIGITS:
        return str(n)
    D = int_digits(a)
    lead = str(a // 10 ** (D - sig))
    return f"{'-' if n < 0 else ''}{lead[0]}.{lead[1:]}e+{D - 1} ({D} digits)"


def fmt_exact(x: Fraction) -> str:
    """A rational of any size: integers via :func:`fmt_int`, small fractions as p/q,
    others as a 15-digit decimal approximation marked with '~'."""
    if x.denominator == 1:
        return fmt_int(x.numerator)
    if x.numerator.bit_length() <= 4 * BIG_INT_DIGITS and x.denominator.bit_length() <= 4 * BIG_INT_DIGITS:
        return f"{x.numerator}/{x.denominator}"
    from ..mpctx import context
    mp = context(prec=80)                  # this thread's own precision, not the global one
    return "~" + mp.nstr(mp.mpf(x.numerator) / x.denominator, 15)


def exact_digits(n: int) -> str:
    """All decimal digits of ``n`` (on request only): chunked, so any size works without
    touching the interpreter's int/str limit."""
    a = abs(n)
    chunk = 10 ** 1000
    parts = []
    while a >= chunk:
        a, r = divmod(a, chunk)
        parts.append(str(r).rjust(1000, "0"))
    parts.append(str(a))
    return ("-" if n < 0 else "") + "".join(reversed(parts))


def fmt_decimal(x: Fraction, *, max_digits: int = 400) -> str:
    """A rational exactly: a terminating decimal (every binary fraction is one) as its full
    digits (``0.9999999999999999``, ``1e-25``, ``-1.8446744073709551616e+19``), positional
    for exponents -6..20 and scientific beyond; integers and other rationals, or decimals
    longer than ``max_digits``, as :func:`fmt_exact` (never a value rounded onto another)."""
    x = Fraction(x)
    if x.denominator == 1 and int_digits(x.numerator) > BIG_INT_DIGITS:
        n = abs(x.numerator)
        lo, hi = 0, int_digits(n)                 # trailing zeros, without str() of n
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if n % 10 ** mid == 0 else (lo, mid - 1)
        if int_digits(n) - lo > max_digits:
            return fmt_int(x.numerator)
        mant = str(n // 10 ** lo)                    # at most max_digits digits
        e = len(mant) - 1 + lo
        return ("-" if x < 0 else "") + mant[0] + ("." + mant[1:] if len(mant) > 1 else "") + f"e+{e}"
    d = x.denominator
    a = b = 0
    while d % 2 == 0:
        d //= 2
        a += 1
    while d % 5 == 0:
        d //= 5
        b += 1
    k = max(a, b)
    if d != 1 or k > 100 * max_digits:
        return fmt_exact(x)
    m = abs(x.numerator) * 10 ** k // x.denominator           # |x| = m 10^-k exactly
    if m == 0:
        return "0"
    if int_digits(m) > max_digits:
        return fmt_exact(x)
    s = str(m)
    while s.endswith("0") and len(s) > 1:                      # trailing zeros into the exponent
        s, k = s[:-1], k - 1
    sign = "-" if x < 0 else ""
    e = len(s) - 1 - k                                         # exponent of the leading digit
    if -6 <= e <= 20:
        if k <= 0:
            return sign + s + "0" * (-k)
        if e < 0:
            return sign + "0." + "0" * (-e - 1) + s
        return sign + s[:e + 1] + "." + s[e + 1:]
    return sign + s[0] + ("." + s[1:] if len(s) > 1 else "") + f"e{'+' if e > 0 else ''}{e}"


class ExactValue(Fraction):
    """An exact answer (a rational) that prints exactly (:func:`fmt_decimal`) and converts
    to mpmath at any working precision (``mpmath.mpf(v)``)."""
    __slots__ = ()

    def __str__(self) -> str:
        return fmt_decimal(self)

    def __repr__(self) -> str:
        return f"ExactValue('{fmt_decimal(self)}')"

    def _mpmath_(self, prec, rounding):
        from ..mpmath_import import mpmath
        # isort: split
        from mpmath.libmp import from_rational
        return mpmath.mp.make_mpf(from_rational(self.numerator, self.denominator, prec, rounding))


def shortest_decimal(a: Fraction, b: Fraction, *, open_left: bool = True) -> Fraction:
    """A decimal with the coarsest last digit in (a, b] (``open_left``) or [a, b]: the least
    multiple of the largest power of ten that has one there. Every binary fraction is a
    decimal, so b itself ends the search."""
    if a > b:
        raise ValueError("empty interval")
    if b == 0 or (a < 0 < b) or (a == 0 and not open_left):
        return Fraction(0)
    import math
    big = max(abs(a), abs(b))
    e = decimal_exponent(big) + 1
    n = 0
    while True:
        q = Fraction(10) ** (e - n)
        c = math.ceil(a / q) * q
        if open_left and c == a:
            c += q
        if c <= b:
            return c
        n += 1
