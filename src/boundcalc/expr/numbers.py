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
