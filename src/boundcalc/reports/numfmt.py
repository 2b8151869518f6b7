"""The one number formatter of boundcalc's reports: every printer (text, rich, Markdown,
LaTeX, CSV, JSON, HTML) formats numbers through these helpers.

* :func:`as_number` -- any number boundcalc meets (int, float, NumPy scalar, mpf of any
  size, Fraction, Decimal, :class:`boundcalc.registry.values.Value`) as ``None``, an exact ``int``
  or an ``mpf``;
* for people: :func:`fmt_human` (``1.83e19``, ``0.125``), :func:`yesno`, :func:`fmt_settings`;
* for machines: :func:`fmt_full` (17+ significant digits), :func:`exact_str` (the exact
  value where a float is not exact), :func:`float_or_none`, :func:`json_setting`;
* for LaTeX: :func:`num_text` is the one number style of papers (fixed-point between 1e-3
  and 1e4, scientific outside, exact integers as integers), used by :func:`num_latex`
  (``\\num`` in running text), :func:`restyle_number` (a number written in a note),
  :func:`s_cell` and :func:`table_format` (siunitx ``S`` columns); :func:`fmt_latex_num`
  is the older ``\\num`` form; :func:`sci_parts` underlies them all.

Like ``sympy/printing/precedence.py``, a helper module the printers share and that imports
no printer (this breaks the old ``table`` <-> ``latex_table`` import cycle). It imports
mpmath only (never SymPy or pandas): the numeric commands use it.
"""
from __future__ import annotations

import math
import numbers
import re
from fractions import Fraction

from ..errors import BoundcalcError
from ..mpmath_import import mpmath

_JSON_DIGITS = 17


def as_number(x, *, what: str = "value"):
    """``None``, an exact ``int`` or an :class:`mpmath.mpf` (any size, possibly nan/inf).

    Accepts int, float, NumPy scalars, mpf, Fraction, Decimal and
    :class:`boundcalc.registry.values.Value`; anything else raises :class:`BoundcalcError`."""
    if x is None:
        return None
    if isinstance(x, (str, bytes)):
        raise BoundcalcError(f"{what} must be a number, got the string {x!r}")
    if isinstance(x, bool):
        raise BoundcalcError(f"{what} must be a number, got the boolean {x!r}")
    mp = getattr(x, "mpf", None)          # boundcalc.registry.values.Value
    if isinstance(mp, mpmath.mpf):
        return mp
    if isinstance(x, mpmath.mpf):
        return x
    if isinstance(x, numbers.Integral):
        return int(x)
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else mpmath.mpf(x.numerator) / x.denominator
    try:                               # float, NumPy scalars and 0-d arrays, Decimal
        return mpmath.mpf(float(x))
    except (TypeError, ValueError):
        raise BoundcalcError(f"{what} must be a number, got {type(x).__name__} {x!r}") from None


def is_finite(x) -> bool:
    return x is not None and (isinstance(x, int) or mpmath.isfinite(x))


def float_or_mpf(x):
    """A float when it fits in a double, else the mpf itself."""
    if x is None or isinstance(x, int):
        return x
    if not isinstance(x, Fraction) and not mpmath.isfinite(x):
        return float(x)
    try:
        f = float(x)
    except OverflowError:           # an exact Fraction beyond the double range (1e999)
        return mpmath.mpf(x.numerator) / x.denominator
    if math.isinf(f) or (f == 0 and x != 0):
        return x
    return f


def sci_parts(x, digits: int = 3) -> tuple[str, str, int] | None:
    """``(sign, mantissa, exponent)`` of ``x`` rounded to ``digits`` significant digits,
    e.g. ``("", "1.83", 19)``; works for mpf far outside the double range. None for 0."""
    x = as_number(x)
    if x == 0:
        return None
    from ..mpctx import context
    mp = context(dps=max(30, digits + 10))      # this thread's own precision, not the global one
    v = mp.mpf(x)
    sign = "-" if v < 0 else ""
    v = abs(v)
    e = int(mp.floor(mp.log10(v)))
    m = v / mp.power(10, e)
    if m < 1:       # guard against log10 rounding
        m, e = m * 10, e - 1
    elif m >= 10:
        m, e = m / 10, e + 1
    scaled = int(mp.nint(m * 10 ** (digits - 1)))
    if scaled >= 10 ** digits:          # 9.996 -> 10.0
        scaled //= 10
        e += 1
    s = str(scaled)
    mant = s[0] + ("." + s[1:] if digits > 1 else "")
    return sign, mant, e


def _sci(x, digits: int) -> tuple[str, str, int]:
    """:func:`sci_parts` of a number the caller has found nonzero."""
    parts = sci_parts(x, digits)
    assert parts is not None, x
    return parts


def fmt_human(x, digits: int = 3) -> str:
    """Short form for people: ``64``, ``0.125``, ``1.83e19``, ``-2.50e-07``; ``-`` for None."""
    x = as_number(x)
    if x is None:
        return "-"
    if isinstance(x, int):
        if abs(x) < 10 ** 6:
            return str(x)
        x = mpmath.mpf(x)
    if mpmath.isnan(x):
        return "nan"
    if mpmath.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "0"
    sign, mant, e = _sci(x, digits)
    if -3 <= e < 4:
        from ..mpctx import context
        mp = context(dps=30)
        v = mp.mpf(sign + mant) * mp.power(10, e)
        decimals = max(0, digits - 1 - e)
        return f"{float(v):.{decimals}f}"
    return f"{sign}{mant}e{e}"


def fmt_full(x) -> str | int | None:
    """Full precision for machines: exact ints stay ints, other numbers are strings with
    at least 17 significant digits (``repr`` of a float is exact, mpf values keep their
    working precision if higher)."""
    x = as_number(x)
    if x is None or isinstance(x, int):
        return x
    if not mpmath.isfinite(x):
        return "nan" if mpmath.isnan(x) else ("inf" if x > 0 else "-inf")
    digits = max(_JSON_DIGITS, math.ceil(int(x.man).bit_length() * math.log10(2))) \
        if isinstance(x, mpmath.mpf) else _JSON_DIGITS
    return mpmath.nstr(x, digits, strip_zeros=False).replace("e+", "e")


def fmt_latex_num(x, digits: int = 3) -> str:
    """``\\num{1.83e19}`` (siunitx), ``\\num{64}`` for small ints, ``{--}`` for None: the
    number of :func:`fmt_human` (one style), with NaN and the infinities set as text/math."""
    x = as_number(x)
    if x is None:
        return "{--}"
    if not isinstance(x, int):
        if mpmath.isnan(x):
            return "n/a"
        if mpmath.isinf(x):
            return "$\\infty$" if x > 0 else "$-\\infty$"
    return "\\num{" + fmt_human(x, digits) + "}"


def exact_str(x, digits: int | None = None) -> str | None:
    """The full-precision decimal string of ``x`` when ``float(x)`` is not exactly ``x``
    (an int beyond 2**53, an mpf with more than 53 bits, a value beyond the double range);
    ``None`` when the float says everything. ``digits``: the certified digits of a
    :class:`boundcalc.registry.values.Value` (default: all the digits the mpf carries, >= 17)."""
    x = as_number(x)
    if x is None:
        return None
    if isinstance(x, int):
        return None if abs(x) <= 2 ** 53 or int(float(x)) == x else str(x)
    if not mpmath.isfinite(x):
        return None
    f = float(x)
    if not math.isinf(f) and mpmath.mpf(f) == x:
        return None
    if digits is None:
        digits = max(_JSON_DIGITS, math.ceil(int(x.man).bit_length() * math.log10(2)))
    return mpmath.nstr(x, digits, strip_zeros=False).replace("e+", "e")


def float_or_none(x):
    if x is None:
        return None
    f = float(x)
    return None if math.isinf(f) or math.isnan(f) else f


def float_or_nan(x) -> float:
    return math.nan if x is None else float(x)


def yesno(b: bool | None, none: str = "-") -> str:
    """``yes`` / ``no``, and ``none`` (``-``; LaTeX tables use ``--``) for None."""
    return none if b is None else ("yes" if b else "no")


def fmt_settings(settings: dict) -> str:
    """``k=v, k=v``: the settings of a table on one line."""
    return ", ".join(f"{k}={v}" for k, v in settings.items())


def json_setting(v):
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v
    if isinstance(v, (list, tuple)):
        return [json_setting(x) for x in v]
    if isinstance(v, dict):
        return {str(k): json_setting(x) for k, x in v.items()}
    try:
        return fmt_full(v)
    except BoundcalcError:
        return str(v)


# ---------------------------------------------------------------------------- the number style of papers
FIXED_EXP = (-3, 3)                   # fixed-point for decimal exponents -3..3 (1e-3 <= |x| < 1e4)
INT_MAX = 10 ** 6                     # exact integers below this print as integers


def num_text(x, digits: int = 3) -> str | None:
    """The one number style of LaTeX output (table cells and notes alike), as siunitx input:
    an exact integer below :data:`INT_MAX` as itself (``32``); any other number to ``digits``
    significant digits, fixed-point when ``1e-3 <= |x| < 1e4`` (``0.0248``, ``-5.44``) and
    scientific outside (``3.26e7``, ``9.64e-7``); zero as ``0`` (never ``-0.0``). None for a
    missing value; ``nan``/``inf``/``-inf`` for the non-finite ones."""
    x = as_number(x)
    if x is None:
        return None
    if isinstance(x, int) and abs(x) < INT_MAX:
        return str(x)
    x = mpmath.mpf(x)
    if mpmath.isnan(x):
        return "nan"
    if mpmath.isinf(x):
        return "inf" if x > 0 else "-inf"
    parts = sci_parts(x, digits)
    if parts is None:                             # zero: never -0
        return "0"
    sign, mant, e = parts
    if FIXED_EXP[0] <= e <= FIXED_EXP[1]:        # 1e-3 <= |x| < 1e4 after rounding
        digs = mant.replace(".", "")
        if e >= 0:
            whole, frac = digs[:e + 1].ljust(e + 1, "0"), digs[e + 1:]
        else:
            whole, frac = "0", "0" * (-e - 1) + digs
        return sign + whole + ("." + frac if frac else "")
    return f"{sign}{mant}e{e}"


def num_latex(x, digits: int = 3) -> str:
    """:func:`num_text` for running text: ``\\num{3.26e7}`` (true minus, ``x 10^7``),
    ``--`` for a missing value, ``$\\infty$`` for infinity."""
    t = num_text(x, digits)
    if t is None:
        return "--"
    if t in ("nan", "inf", "-inf"):
        return {"nan": "n/a", "inf": "$\\infty$", "-inf": "$-\\infty$"}[t]
    return "\\num{" + t + "}"


_NUMBER = re.compile(r"^([-+]?)(\d+(?:\.\d*)?|\.\d+)(?:[eE]([-+]?\d+))?$")


def restyle_number(token: str, digits: int = 6) -> str:
    """A number written in text (``3.26e+7``, ``-5.435``, ``4.11e-06``, ``0.000158``) in
    the style of :func:`num_text`, keeping its significant digits (at most ``digits``, 6
    unless :func:`pair_digits` asks for more): ``3.26e7``, ``-5.435``, ``4.11e-6``,
    ``1.58e-4``. Integers written without a point or exponent stay."""
    m = _NUMBER.match(token)
    if not m:
        return token
    sign, body, exp = m.groups()
    if exp is None and "." not in body:
        return ("-" if sign == "-" else "") + str(int(body))
    text = num_text(mpmath.mpf(token), max(1, min(_significant(body), digits)))
    return text if text is not None else token


def _significant(body: str) -> int:
    return len(body.replace(".", "").lstrip("0")) or 1


def differing_digits(a, b, least: int = 6, most: int = 17) -> int:
    """The least number of significant digits (at least ``least``) at which ``a`` and ``b``
    print differently in the style of :func:`num_text`; ``least`` when they are equal or
    differ beyond ``most``. Two values shown side by side (a "rise" from one to the other)
    are printed to the digits that differ, never as the same number."""
    if num_text(a, most) == num_text(b, most):
        return least
    return next(d for d in range(least, most + 1) if num_text(a, d) != num_text(b, d))


_PAIR = re.compile(r"(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(\s*(?:->|→|vs\.?|to)\s*)(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)")


def pair_digits(text: str, least: int = 6) -> dict[str, int]:
    """For each pair of numbers a text shows side by side (``a -> b``, ``a → b``, ``a vs b``,
    ``from a to b``): each token -> the digits :func:`restyle_number` needs so that the two
    read differently (:func:`differing_digits`, at most the digits the token carries)."""
    out: dict[str, int] = {}
    for m in _PAIR.finditer(text):
        a, b = m.group(1), m.group(3)
        if a == b:
            continue
        d = differing_digits(mpmath.mpf(a), mpmath.mpf(b), least)
        if d > least:
            for tok in (a, b):
                out[tok] = max(out.get(tok, least), d)
    return out


# ---------------------------------------------------------------------------- LaTeX number cells
def s_cell(x) -> str:
    """A number for an ``S`` column in the style of :func:`num_text`; text cells
    (missing, not finite) are braced."""
    t = num_text(x)
    if t is None:
        return "{--}"
    if t == "nan":
        return "{n/a}"
    if t in ("inf", "-inf"):
        return "{$\\infty$}" if t == "inf" else "{$-\\infty$}"
    return t


def table_format(cells: list[str]) -> str:
    """siunitx ``table-format`` wide enough for every number in ``cells``."""
    neg = nexp = False
    ints = decs = exps = 0
    has_exp = False
    for c in cells:
        if c.startswith("{"):
            continue
        m = re.fullmatch(r"(-?)(\d+)(?:\.(\d+))?(?:e(-?)(\d+))?", c)
        if not m:
            continue
        neg |= bool(m.group(1))
        ints = max(ints, len(m.group(2)))
        decs = max(decs, len(m.group(3) or ""))
        if m.group(5):
            has_exp = True
            nexp |= bool(m.group(4))
            exps = max(exps, len(m.group(5)))
    fmt = f"{'-' if neg else ''}{max(ints, 1)}.{decs}"
    if has_exp:
        fmt += f"e{'-' if nexp else ''}{exps}"
    return fmt
