"""Tiny record classes for the start-up path (importing :mod:`dataclasses` and generating
each class's methods costs ~15 ms, a tenth of a numeric command's budget).

One record style, two implementations: the records of the numeric path (the registry's
model, ``Domain``, ``values``, ``solve.Solution``, ``require``'s results) are Records;
everything the SymPy side and the printers use (``Decision``, ``VerifyResult``,
``MonotoneResult``, ``AsymptoticResult``, ``Table``, the check ``Finding``/``Report``) is a
dataclass, frozen where nothing amends it after it is built. Both take ``__post_init__``.
Measured again for issue 23 (CPU time, a fresh process each, median of 7, a loaded
2-core machine): ``import dataclasses`` 15.5 ms and 11 frozen dataclasses 5.8 ms, against
0.5 ms for 11 Records; ``import boundcalc.cli`` imports no dataclasses. Replacing the Records
would add ~20 ms to every numeric command, so they stay.

``class Point(Record, frozen=True): x: int; y: int = 0; tags: list = factory(list)``
gives keyword/positional ``__init__`` with defaults (then ``__post_init__`` if the class
defines one, as in dataclasses), ``__eq__``, ``__repr__``, and for frozen records
immutability and ``__hash__``.
"""
from __future__ import annotations

_MISSING = object()
TYPE_CHECKING = False          # typing.TYPE_CHECKING without importing typing (mypy reads the name)


class _Factory:
    """A default made fresh for each instance (like ``field(default_factory=...)``)."""
    __slots__ = ("make",)

    def __init__(self, make):
        self.make = make


if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar
    _T = TypeVar("_T")

    def factory(make: Callable[[], _T]) -> _T:
        """Typed as the value it makes, as ``dataclasses.field`` is: ``tags: list = factory(list)``."""
        ...
else:
    factory = _Factory


class Record:
    __fields__: tuple = ()
    __frozen__: bool = False

    def __init_subclass__(cls, frozen: bool = False, **kw):
        super().__init_subclass__(**kw)
        names: list[str] = []
        for klass in reversed(cls.__mro__):
            for name in klass.__dict__.get("__annotations__", {}):
                if not name.startswith("_") and name not in names:
                    names.append(name)
        cls.__fields__ = tuple(names)
        cls.__frozen__ = frozen
        # a frozen record hashes its fields; a mutable one is unhashable (as dataclasses do,
        # by setattr on the class being built)
        setattr(cls, "__hash__", Record._hash if frozen else None)  # noqa: B010

    def __init__(self, *args, **kw):
        names = self.__fields__
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__} takes at most {len(names)} arguments")
        values = dict(zip(names, args))
        for k, v in kw.items():
            if k not in names or k in values:
                raise TypeError(f"{type(self).__name__}: unexpected or repeated argument {k!r}")
            values[k] = v
        for name in names:
            if name not in values:
                d = getattr(type(self), name, _MISSING)
                if d is _MISSING:
                    raise TypeError(f"{type(self).__name__}: missing argument {name!r}")
                values[name] = d.make() if isinstance(d, _Factory) else d
            object.__setattr__(self, name, values[name])
        post = getattr(self, "__post_init__", None)     # as in dataclasses: checks, coercions
        if post is not None:
            post()

    def __setattr__(self, k, v):
        if self.__frozen__:
            raise AttributeError(f"{type(self).__name__} is immutable")
        object.__setattr__(self, k, v)

    def __eq__(self, other):
        return type(other) is type(self) and all(getattr(self, f) == getattr(other, f) for f in self.__fields__)

    def _hash(self):
        return hash((type(self).__name__,) + tuple(_hashable(getattr(self, f)) for f in self.__fields__))

    def __repr__(self):
        return f"{type(self).__name__}(" + ", ".join(f"{f}={_repr(getattr(self, f))}" for f in self.__fields__) + ")"


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


def _hashable(v):
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(x)) for k, x in v.items()))
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    return v
