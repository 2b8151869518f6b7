"""Binding user values to symbols, and the :class:`Value` a formula evaluates to."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..errors import BoundcalcError
from ..expr._record import record_repr
from ..expr.indexed import Vector, range_start
from ..expr.parser import parse_number
from .indexed import check_lengths
from .model import Symbol

if TYPE_CHECKING:          # annotations only: the fast path does not import mpmath
    from ..mpmath_import import mpmath


@dataclass
class Binding:
    """Exact values for the symbols of an expression, and where each came from."""
    __repr__ = record_repr       # integers of any size (boundcalc.expr._record)
    env: dict[str, Any]          # exact Fractions; float64 arrays when bound for a grid
    defaults_used: dict[str, Fraction] = field(default_factory=dict)
    constants: list[str] = field(default_factory=list)


def bind(table: dict[str, Symbol], values: dict, *, what: str, allow_extra: bool = False,
         grid: bool = False) -> Binding:
    """Exact values for every symbol of ``table``: the given ``values`` (refused if unknown,
    not a number or outside the symbol's domain), else the symbol's default. With ``grid``
    the given values are float64 arrays (NumPy broadcasting) and each is held to its domain
    by the vectorised :meth:`Domain.check_array`, entry by entry, as a scalar would be."""
    if not isinstance(values, dict):
        raise BoundcalcError(f"values for {what}: expected a mapping symbol -> value, got a "
                             f"{type(values).__name__}")
    env: dict = {}
    for k, v in values.items():
        if k not in table:
            if allow_extra:
                continue
            from ..suggest import did_you_mean
            raise BoundcalcError(f"unknown symbol {k!r} for {what}{did_you_mean(str(k), table)}; its symbols are: "
                                 f"{', '.join(table) or '(none)'}")
        if table[k].is_indexed and is_vector(v):
            env[k] = vector_value(table[k], k, v, grid)
        elif grid:
            env[k] = _float_array(k, v)
        elif getattr(v, "ndim", 0) != 0 and not hasattr(v, "_mpf_"):
            raise BoundcalcError(f"value of {k}: expected a single number, got an array of shape "
                                 f"{tuple(v.shape)} (grid() evaluates on arrays)")
        else:
            env[k] = v if hasattr(v, "_mpf_") else parse_number(v, where=f"value of {k}")  # mpf: as is
    b = Binding(env)
    for name, sym in table.items():
        if name not in env:
            if sym.default is None:
                raise BoundcalcError(f"missing value for symbol {name!r} ({sym.description}) in {what}")
            env[name] = _float_array(name, sym.default) if grid else sym.default
            b.defaults_used[name] = sym.default
        elif isinstance(env[name], Vector):
            for x in env[name].values:
                sym.domain.check_array(name, x) if grid else sym.domain.check(name, x)
        elif grid:
            sym.domain.check_array(name, env[name])
        else:
            sym.domain.check(name, env[name])
        if sym.is_constant:
            b.constants.append(name)
    if not grid:
        check_lengths(table, env)
    return b


def is_vector(v) -> bool:
    """Whether ``v`` is given as the values of an indexed symbol (a list, a tuple, a
    :class:`Vector` or a text with commas)."""
    return isinstance(v, (list, tuple, Vector)) or (isinstance(v, str) and "," in v)


def vector_value(sym: Symbol, name: str, v, grid: bool = False) -> Vector:
    """The values of an indexed symbol: a list, a tuple, a :class:`Vector` or a text
    ``"1, 2, 0.5"`` (``--s 1,2,0.5``), each entry a number (as for a scalar)."""
    items = v.values if isinstance(v, Vector) else [x for x in v.split(",")] if isinstance(v, str) else list(v)
    if not items or (isinstance(v, str) and any(not x.strip() for x in items)):
        raise BoundcalcError(f"value of {name}: expected numbers separated by commas, got {v!r:.60}")
    start = v.start if isinstance(v, Vector) else range_start(sym)
    if grid:
        return Vector([_float_array(f"{name}[{start + i}]", x) for i, x in enumerate(items)], start)
    return Vector([x if hasattr(x, "_mpf_") or isinstance(x, Fraction) else parse_number(x, where=f"value of {name}[{start + i}]")
                   for i, x in enumerate(items)], start)


def _float_array(name: str, v):
    """``v`` as a float64 array, or a one-line refusal naming ``name`` (a single number
    may be given as text, as to :func:`bind`)."""
    import numpy as np
    if isinstance(v, str):
        v = parse_number(v, where=f"value of {name}")
    raw = np.asarray(v) if not isinstance(v, Fraction) else np.asarray(v, dtype=object)
    if raw.dtype == bool or raw.dtype.kind not in "iufO":
        raise BoundcalcError(f"value of {name}: expected real numbers, got {raw.dtype} values")
    if raw.dtype.kind == "O":
        import numbers
        odd = next((e for e in raw.reshape(-1) if isinstance(e, bool) or not isinstance(e, numbers.Real)), raw)
        if odd is not raw:
            raise BoundcalcError(f"value of {name}: expected real numbers, got {odd!r:.40} "
                                 f"(a {type(odd).__name__})")
    try:
        with np.errstate(all="ignore"):
            return np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as e:
        raise BoundcalcError(f"value of {name}: expected real numbers within the double range "
                             f"({type(e).__name__}: {str(e)[:80]})") from None


def fmt_fraction(x: Fraction | Vector) -> str:
    """An exact rational as text. Integers of any size: exact up to 40 digits, else
    ``m.mmme+E (D digits)`` (never through the 4300-digit int/str limit; all digits only
    on request: :func:`boundcalc.expr.numbers.exact_digits`)."""
    from ..expr.numbers import BIG_INT_DIGITS, fmt_exact, fmt_int
    if isinstance(x, Vector):              # an indexed symbol's values
        return "[" + ", ".join(fmt_fraction(v) for v in x.values) + "]"
    if x.denominator == 1:
        return fmt_int(x.numerator)
    if max(abs(x.numerator), x.denominator).bit_length() > 4 * BIG_INT_DIGITS * 5:
        return fmt_exact(x)
    # exact decimal if the denominator is 2^a 5^b
    d = x.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d == 1:
        from decimal import Decimal, localcontext
        with localcontext() as ctx:
            ctx.prec = 200
            return format(Decimal(x.numerator) / Decimal(x.denominator), "f")
    return f"{x.numerator}/{x.denominator}"


@dataclass
class Value:
    """A certified value: ``mpf`` correct to ``digits`` significant digits."""
    mpf: mpmath.mpf
    digits: int
    defaults_used: dict[str, Fraction] = field(default_factory=dict)
    constants: list[str] = field(default_factory=list)

    def __float__(self) -> float:
        f = float(self.mpf)
        if f in (float("inf"), float("-inf")):
            raise OverflowError(f"{self} is outside the double range")
        return f

    @property
    def float(self) -> float | None:
        """The value as a double, or None when it is outside the double range."""
        try:
            return float(self)
        except OverflowError:
            return None

    def __str__(self) -> str:
        from ..mpmath_import import mpmath
        return mpmath.nstr(self.mpf, self.digits, strip_zeros=False, min_fixed=-4, max_fixed=self.digits)

    def __repr__(self) -> str:
        return f"Value({self}, digits={self.digits})"

    @property
    def qualifier(self) -> str:
        if self.constants:
            return "up to the absolute constant(s) " + ", ".join(
                f"{c} (set to {fmt_fraction(self.defaults_used[c])})" if c in self.defaults_used else c
                for c in self.constants)
        return "exact constant"
