"""boundcalc: the bounds of learning-theory papers on transformers, as data you can compute with.

>>> import boundcalc
>>> b1 = boundcalc.formula("deora2023.beta1")
>>> str(b1.evaluate(T=4, R=1, theta_2inf=1, digits=5))
'6.0000'
"""
from ._version import __version__
from .api import Formula, formula, formulas, papers, symbols
from .errors import BoundcalcError

__all__ = ["BoundcalcError", "Formula", "__version__", "formula", "formulas", "papers", "symbols"]
