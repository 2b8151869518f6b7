"""The printer base: dispatch on the record's class along its MRO (``_print_<Class>``),
as ``sympy/printing/printer.py``'s ``Printer._print`` does. A record a printer has no
method for is an error naming both, never a silent fall-through to ``str``."""
from __future__ import annotations

from typing import ClassVar


class Printer:
    format = ""                 # the format's name, for the error message
    _default_settings: ClassVar[dict] = {}

    def __init__(self, **settings):
        unknown = set(settings) - set(self._default_settings)
        if unknown:
            raise TypeError(f"{type(self).__name__}: unknown setting(s) {', '.join(sorted(unknown))}")
        self._settings = {**self._default_settings, **settings}

    def doprint(self, obj):
        from ..names import names_of
        for cls in type(obj).__mro__:
            method = getattr(self, f"_print_{cls.__name__}", None)
            if method is not None:
                paper = getattr(obj, "paper", None)
                # a record of one paper: its notes name that paper's symbols and formulas
                with names_of(paper if isinstance(paper, str) else None):
                    return method(obj)
        from ...errors import BoundcalcError
        raise BoundcalcError(f"no {self.format} printer for {type(obj).__name__}")

    @classmethod
    def handles(cls, record_class: type) -> bool:
        """Whether this printer has a method for ``record_class`` (along its MRO)."""
        return any(hasattr(cls, f"_print_{c.__name__}") for c in record_class.__mro__)
