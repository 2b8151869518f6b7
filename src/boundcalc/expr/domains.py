"""Symbol domains: ``positive``, ``real >= 1``, ``integer >= 1``, ``(0, 1)`` ...

A :class:`Domain` is a real or integer interval with open/closed ends; it checks
values, describes itself, and is what the symbolic services turn into assumptions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from ..errors import BoundcalcError, DomainError, FormulaFileError
from ._record import record_repr


@dataclass(frozen=True)
class Domain:
    __repr__ = record_repr       # integers of any size (boundcalc.expr._record)
    integer: bool = False
    lo: Fraction | None = None
    lo_closed: bool = False
    hi: Fraction | None = None
    hi_closed: bool = False

    def contains(self, x) -> bool:
        """``x`` is a Fraction, int or mpmath mpf."""
        lo, hi = self.lo, self.hi
        if not isinstance(x, (int, Fraction)):
            from ..mpmath_import import mpmath
            lo = None if lo is None else mpmath.mpf(lo.numerator) / lo.denominator
            hi = None if hi is None else mpmath.mpf(hi.numerator) / hi.denominator
        if self.integer:
            try:
                if x != int(x):
                    return False
            except (OverflowError, ValueError):
                return False
        if lo is not None and (x < lo or (x == lo and not self.lo_closed)):
            return False
        return not (hi is not None and (x > hi or x == hi and not self.hi_closed))

    def check(self, name: str, x, *, at: str = "") -> None:
        """Refuse ``x`` outside the domain, naming the symbol, the value (``at``: where it
        came from, e.g. an array entry) and the domain."""
        if not self.contains(x):
            raise DomainError(f"{name} = {_show(x)}{at} is outside its domain: {name} {self.describe()}")

    def check_array(self, name: str, values) -> None:
        """Vectorised :meth:`check` of a float64 array: the same answer as ``check`` on each
        entry read as its shortest decimal (a float means its decimal repr, as in
        :func:`boundcalc.expr.parser.parse_number`). Entries within one ulp of a bound are
        decided exactly; NaN and infinities are refused. Raises for the first offender."""
        import numpy as np

        from .parser import parse_number
        x = np.asarray(values, dtype=np.float64)
        flat = x.reshape(-1)
        bad = ~np.isfinite(flat)
        if bad.any():
            i = int(np.argmax(bad))
            raise DomainError(f"{name} = {float(flat[i])!r}{_entry(x, i)} is not a finite number: {name} "
                              f"{self.describe()}")
        near = np.zeros(flat.shape, dtype=bool)
        with np.errstate(all="ignore"):
            if self.integer:
                bad |= np.floor(flat) != flat
            for bound, below in ((self.lo, True), (self.hi, False)):
                if bound is None:
                    continue
                try:
                    b = float(bound)
                except OverflowError:
                    b = float("inf") if bound > 0 else float("-inf")
                lo_b, hi_b = np.nextafter(b, -np.inf), np.nextafter(b, np.inf)
                close = (flat >= lo_b) & (flat <= hi_b)
                near |= close
                bad |= ~close & ((flat < b) if below else (flat > b))
        for j in np.nonzero(bad | near)[0]:       # few: the exact check decides and words the message
            self.check(name, parse_number(float(flat[j]), where=f"value of {name}"), at=_entry(x, int(j)))

    def describe(self) -> str:
        kind = "integer" if self.integer else "real"
        if self.lo is None and self.hi is None:
            return f"is any {kind}"
        if self.hi is None:
            return f"must be an {kind} {'>=' if self.lo_closed else '>'} {_show(self.lo)}" if self.integer \
                else f"must be {kind} {'>=' if self.lo_closed else '>'} {_show(self.lo)}"
        if self.lo is None:
            return f"must be {kind} {'<=' if self.hi_closed else '<'} {_show(self.hi)}"
        return (f"must be {kind} in {'[' if self.lo_closed else '('}{_show(self.lo)}, "
                f"{_show(self.hi)}{']' if self.hi_closed else ')'}")

    def is_empty(self) -> bool:
        """True for domains that contain nothing: (1, 1), [2, 1], integer in (1, 2)."""
        import math
        lo, hi = self.lo, self.hi
        if lo is not None and hi is not None and (lo > hi or (lo == hi and not (self.lo_closed and self.hi_closed))):
            return True
        if self.integer and lo is not None and hi is not None:
            first = math.floor(lo) + 1 if (not self.lo_closed or lo != math.floor(lo)) else int(lo)
            last = math.ceil(hi) - 1 if (not self.hi_closed or hi != math.ceil(hi)) else int(hi)
            return first > last
        return False

    def check_nonempty(self, name: str) -> None:
        """Reject an empty domain (``(1, 1)``, ``integer in (1, 2)``) with one line naming
        the symbol ``name``."""
        if self.is_empty():
            raise BoundcalcError(f"the domain of {name} is empty: {name} {self.describe()}")

    def default_range(self) -> tuple[Fraction, Fraction]:
        """A finite box side for this domain (used when the user gives none): the domain
        itself when it is bounded (open ends moved in by 1/100 of the width), otherwise a
        window reaching 100 beyond the finite end (or [-100, 100] on the whole line). A
        verdict on this box is about the box only (``monotone`` says so)."""
        lo, hi = self.lo, self.hi
        if lo is None:
            if hi is None:
                return Fraction(-100), Fraction(100)
            if not self.hi_closed:
                hi = hi - Fraction(1, 100)
            return (min(hi * 100, hi - 100) if hi < 0 else hi - 100), hi
        if not self.lo_closed:
            lo = lo + (Fraction(1, 100) if hi is None else (hi - lo) / 100)
        if hi is None:
            hi = max(lo * 100, lo + 100) if lo > 0 else lo + 100
        elif not self.hi_closed:
            hi = hi - (hi - lo) / 100
        return lo, hi

    def restrict(self, lo: Fraction | None, hi: Fraction | None) -> Domain:
        """This domain cut to the closed range [lo, hi] (None: that end is left as it is).
        The ends are assumed to lie in the domain (:func:`search_range` checks them)."""
        return Domain(self.integer,
                      self.lo if lo is None else lo, self.lo_closed if lo is None else True,
                      self.hi if hi is None else hi, self.hi_closed if hi is None else True)

    @property
    def positive(self) -> bool:
        return self.lo is not None and (self.lo > 0 or (self.lo == 0 and not self.lo_closed))

    @property
    def nonnegative(self) -> bool:
        return self.lo is not None and self.lo >= 0

    def __str__(self) -> str:
        return self.describe().removeprefix("must be ").removeprefix("is ")


def _entry(x, i: int) -> str:
    """`` (entry [i, j])`` of a flat index into array ``x`` (nothing for a scalar)."""
    if x.ndim == 0:
        return ""
    import numpy as np
    return f" (entry [{', '.join(str(int(k)) for k in np.unravel_index(i, x.shape))}])"


def _show(x) -> str:
    if isinstance(x, Fraction):
        from .numbers import fmt_exact
        return fmt_exact(x)
    return str(x)


_NUM = r"(-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|-?inf)"
_INTERVAL = re.compile(r"^(?:(real|integer)\s+in\s+)?([\[(])\s*" + _NUM + r"\s*,\s*" + _NUM + r"\s*([\])])$")
_HALF = re.compile(r"^(real|integer)\s*(>=|>|<=|<)\s*" + _NUM + "$")
_NAMED = {
    "real": Domain(),
    "positive": Domain(lo=Fraction(0)),
    "nonnegative": Domain(lo=Fraction(0), lo_closed=True),
    "positive integer": Domain(integer=True, lo=Fraction(1), lo_closed=True),
    "nonnegative integer": Domain(integer=True, lo=Fraction(0), lo_closed=True),
    "integer": Domain(integer=True),
}


def _num(s: str) -> Fraction | None:
    from .numbers import decimal
    return None if s.lstrip("-") == "inf" else decimal(s, where=f"domain bound {s!r}")


def parse_domain(text: str, *, where: str = "domain") -> Domain:
    s = " ".join(str(text).strip().lower().split())
    if s in _NAMED:
        return _NAMED[s]
    m = _HALF.match(s)
    if m:
        kind, op, val = m.groups()
        v = _num(val)
        integer = kind == "integer"
        if op in (">=", ">"):
            return Domain(integer=integer, lo=v, lo_closed=op == ">=")
        return Domain(integer=integer, hi=v, hi_closed=op == "<=")
    m = _INTERVAL.match(s)
    if m:
        kind, lb, a, b, rb = m.groups()
        lo, hi = _num(a), _num(b)
        if lo is not None and hi is not None and lo > hi:
            raise FormulaFileError(f"{where}: empty interval {text!r}")
        d = Domain(integer=kind == "integer", lo=lo, lo_closed=lb == "[" and lo is not None,
                   hi=hi, hi_closed=rb == "]" and hi is not None)
        if d.is_empty():
            raise FormulaFileError(f"{where}: empty domain {text!r} (it contains no "
                                   f"{'integer' if d.integer else 'number'})")
        return d
    raise FormulaFileError(
        f"{where}: unknown domain {text!r}; use e.g. 'positive', 'real >= 1', 'integer >= 1', "
        "'(0, 1)', 'nonnegative', 'real'")



_INF = {"inf": 1, "+inf": 1, "oo": 1, "+oo": 1, "infinity": 1, "-inf": -1, "-oo": -1, "-infinity": -1}


def infinite_end(text) -> int:
    """+1 for a written +inf (``inf``, ``+inf``, ``oo``, a float inf), -1 for -inf, else 0."""
    if isinstance(text, str):
        return _INF.get(text.strip().lower(), 0)
    if isinstance(text, float) and text in (float("inf"), float("-inf")):
        return 1 if text > 0 else -1
    return 0


def search_range(name: str, domain: Domain, lo, hi, *, where: str) -> tuple[Domain, str]:
    """``name``'s ``domain`` cut to the range [lo, hi] the user gives (``--from/--to`` of
    ``require``, an end ``inf`` or ``-inf`` of ``monotone --box``): the restricted domain and
    its description (``n in [8, +inf)``). ``lo``/``hi`` are numbers or text; None, ``-inf``
    (for lo) and ``inf`` (for hi) leave that end as the domain has it. A reversed or empty
    range, an end outside the domain, and ``inf`` as a lower end are one-line errors naming
    ``where``."""
    from .numbers import fmt_exact
    ends: list[Fraction | None] = []
    for text, side, word in ((lo, -1, "lower"), (hi, 1, "upper")):
        if text is None:
            ends.append(None)
            continue
        inf = infinite_end(text)
        if inf:
            if inf != side:
                raise BoundcalcError(f"{where}: {text!r} cannot be the {word} end of {name}'s range")
            ends.append(None)
            continue
        from .parser import parse_number
        v = parse_number(text, where=f"{where} ({word} end of {name})")
        if not domain.contains(v):
            raise BoundcalcError(f"{where}: {name} = {fmt_exact(v)} is outside the domain of {name} "
                                 f"({name} {domain.describe()})")
        ends.append(v)
    a, b = ends
    if a is not None and b is not None and a > b:
        raise BoundcalcError(f"{where}: reversed range [{fmt_exact(a)}, {fmt_exact(b)}] for {name} "
                             "(the lower end must not exceed the upper)")
    d = domain.restrict(a, b)
    if d.is_empty():
        raise BoundcalcError(f"{where}: the range {describe_range(name, d)} contains no integer, but "
                             f"{name} is an integer")
    return d, describe_range(name, d)


def describe_range(name: str, d: Domain) -> str:
    """``n in [8, +inf)``: a domain as a range of ``name`` (integers said)."""
    from .numbers import fmt_exact
    lo = "(-inf" if d.lo is None else ("[" if d.lo_closed else "(") + fmt_exact(d.lo)
    hi = "+inf)" if d.hi is None else fmt_exact(d.hi) + ("]" if d.hi_closed else ")")
    return f"{name} in {lo}, {hi}" + (" (integers)" if d.integer else "")
