"""boundcalc: the bounds of learning-theory papers on transformers, as data you can compute with.

>>> import boundcalc
>>> b1 = boundcalc.formula("deora2023.beta1")
>>> str(b1.evaluate(T=4, R=1, theta_2inf=1, digits=5))
'6.0000'

The API (:mod:`boundcalc.api`) is imported on first use of one of its names, so that the
command line (``boundcalc.cli``), which does not need it, does not pay for it at start-up.
The printers are registered here, eagerly (:mod:`boundcalc.formats`: a record prints itself
through them, whichever module imported it; the package imports nothing heavy).
"""
from ._version import __version__
from .errors import BoundcalcError
from .reports import printers as _printers  # noqa: F401  (registers the printers: boundcalc.formats)

__all__ = ["BoundcalcError", "Formula", "__version__", "formula", "formulas", "papers", "symbols", "to_latex"]

_API = ("Formula", "formula", "formulas", "papers", "symbols", "to_latex")


def __getattr__(name: str):
    if name == "api":            # boundcalc.api without importing it first, as for its names
        import importlib
        return importlib.import_module(f"{__name__}.api")
    if name in _API:
        import importlib
        api = importlib.import_module(f"{__name__}.api")
        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
