"""The expression language: one parsed tree (``nodes``), one whitelist parser (``parser``),
symbol domains (``domains``). Back ends live in :mod:`boundcalc.backends`."""
from . import printing
from .nodes import Add, BigOp, Const, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym

# ``parse`` lives in :mod:`.parser`, which is not imported here: it evaluates constants with
# the exact back end, which imports this package (importing it here would close a cycle)
__all__ = ["Add", "BigOp", "Const", "Func", "Indexed", "Mul", "Node", "Num", "Pow", "Ref", "Rel", "Sym", "printing"]
