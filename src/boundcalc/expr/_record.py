"""The ``repr`` that boundcalc's records share. Every record is a :mod:`dataclasses`
dataclass (frozen where nothing amends it after it is built); ``dataclasses`` is on every
command's start-up path already (``expr/singularities.py``, loaded with the ball-arithmetic
back end), so the hand-written record class that used to keep it out is gone.

What dataclasses lack is a ``repr`` of integers beyond Python's 4300-digit ``int``/``str``
limit (a ``require`` answer can have 16000 digits): a record that may hold one sets
``__repr__ = record_repr`` in its body (a dataclass keeps a ``__repr__`` its class defines).
"""
from __future__ import annotations

from dataclasses import fields


def record_repr(self) -> str:
    """``Name(field=value, ...)`` as dataclasses print it, with integers of any size."""
    return f"{type(self).__name__}(" + ", ".join(f"{f.name}={_repr(getattr(self, f.name))}"
                                                  for f in fields(self) if f.repr) + ")"


def _repr(v) -> str:
    """repr() that prints integers of any size (beyond Python's 4300-digit int/str limit)
    through the project's integer printer, :func:`.expr.numbers.fmt_int`."""
    if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 4 * 1000:
        from .numbers import fmt_int
        return fmt_int(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_repr(k)}: {_repr(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        inner = ", ".join(_repr(x) for x in v)
        return f"[{inner}]" if isinstance(v, list) else f"({inner}{',' if len(v) == 1 else ''})"
    return repr(v)
