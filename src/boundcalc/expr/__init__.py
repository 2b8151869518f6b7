"""The expression language: one parsed tree (``nodes``), one whitelist parser (``parser``),
symbol domains (``domains``). Back ends live in :mod:`boundcalc.backends`."""
from .nodes import Node, Num, Sym, Ref, Const, Add, Mul, Pow, Func, Rel
from .parser import parse

__all__ = ["Add", "Const", "Func", "Mul", "Node", "Num", "Pow", "Ref", "Rel", "Sym", "parse"]
