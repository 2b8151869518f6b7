"""Values of a file's indexed symbols checked against their declared index ranges."""
from __future__ import annotations

from ..expr.exact import NotExact, evaluate_exact
from ..expr.indexed import Vector, check_length

__all__ = ["check_lengths"]


def check_lengths(symbols: dict, env: dict) -> None:
    """Every vector in ``env`` has the length of its symbol's declared range, evaluated
    exactly at ``env`` (skipped where a range end names a symbol without a value there);
    one-line :class:`~boundcalc.errors.ExpressionError` otherwise."""
    for name, value in env.items():
        sym = symbols.get(name)
        if not isinstance(value, Vector) or sym is None or not sym.is_indexed:
            continue
        try:
            lo, hi = (evaluate_exact(e, env) for e in sym.range)
        except (KeyError, NotExact, ZeroDivisionError):
            continue
        check_length(name, value, lo, hi)
