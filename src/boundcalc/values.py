"""Binding user values to symbols, and the :class:`Value` a formula evaluates to."""
from __future__ import annotations

from ._record import Record, factory
from fractions import Fraction
from typing import TYPE_CHECKING

from .errors import BoundcalcError
from .expr.parser import parse_number
from .registry.model import Symbol

if TYPE_CHECKING:          # annotations only: the fast path does not import mpmath
    import mpmath


class Binding(Record):
    """Exact values for the symbols of an expression, and where each came from."""
    env: dict[str, Fraction]
    defaults_used: dict[str, Fraction] = factory(dict)
    constants: list[str] = factory(list)


def bind(table: dict[str, Symbol], values: dict, *, what: str, allow_extra: bool = False) -> Binding:
    env: dict[str, Fraction] = {}
    for k, v in values.items():
        if k not in table:
            if allow_extra:
                continue
            from .suggest import did_you_mean
            raise BoundcalcError(f"unknown symbol {k!r} for {what}{did_you_mean(k, table)}; its symbols are: "
                                 f"{', '.join(table) or '(none)'}")
        env[k] = v if hasattr(v, "_mpf_") else parse_number(v, where=f"value of {k}")  # mpf: as is
    b = Binding(env)
    for name, sym in table.items():
        if name not in env:
            if sym.default is None:
                raise BoundcalcError(f"missing value for symbol {name!r} ({sym.description}) in {what}")
            env[name] = sym.default
            b.defaults_used[name] = sym.default
        sym.domain.check(name, env[name])
        if sym.is_constant:
            b.constants.append(name)
    return b


def fmt_fraction(x: Fraction) -> str:
    """An exact rational as text. Integers of any size: exact up to 40 digits, else
    ``m.mmme+E (D digits)`` (never through the 4300-digit int/str limit; all digits only
    on request: :func:`boundcalc.expr.numbers.exact_digits`)."""
    from .expr.numbers import BIG_INT_DIGITS, fmt_exact, fmt_int
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


class Value(Record):
    """A certified value: ``mpf`` correct to ``digits`` significant digits."""
    mpf: mpmath.mpf
    digits: int
    defaults_used: dict[str, Fraction] = factory(dict)
    constants: list[str] = factory(list)

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
        import mpmath
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
