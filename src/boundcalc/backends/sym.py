"""SymPy back end: expression tree <-> SymPy, with symbol assumptions from domains.

Imported only by the symbolic services (SymPy costs ~0.4 s to import).
"""
from __future__ import annotations

from fractions import Fraction

from ..errors import ExpressionError
from ..expr.domains import Domain
from ..expr.nodes import Add, BigOp, Const, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym, expand
from ..expr.visitor import Visitor
from .sympy_import import sympy as sp

_F = {"sqrt": sp.sqrt, "exp": sp.exp, "min": sp.Min, "max": sp.Max, "abs": sp.Abs,
      "floor": sp.floor, "ceil": sp.ceiling, "sin": sp.sin, "cos": sp.cos, "tan": sp.tan,
      "tanh": sp.tanh, "atan": sp.atan, "erf": sp.erf, "factorial": sp.factorial, "gamma": sp.gamma,
      "binomial": sp.binomial}
_REL = {"<=": sp.Le, ">=": sp.Ge, "<": sp.Lt, ">": sp.Gt, "==": sp.Eq}


def sympy_symbol(name: str, domain: Domain | None) -> sp.Symbol:
    """A SymPy symbol carrying what SymPy's assumptions can express of ``domain``."""
    kw: dict[str, bool] = {"real": True}
    if domain is not None:
        if domain.integer:
            kw["integer"] = True
        if domain.positive:
            kw["positive"] = True
        elif domain.nonnegative:
            kw["nonnegative"] = True
    return sp.Symbol(name, **kw)


class _ToSympy(Visitor):
    """Tree -> SymPy (see :func:`to_sympy`)."""

    def __init__(self, symbols: dict[str, sp.Symbol]) -> None:
        super().__init__()
        self.symbols = symbols
        self.bound: dict[str, sp.Symbol] = {}

    def visit_Num(self, n: Num, args: list):
        return sp.Rational(n.value.numerator, n.value.denominator)

    def visit_Sym(self, n: Sym, args: list):
        if n.name in self.bound:
            return self.bound[n.name]
        if n.name not in self.symbols:
            self.symbols[n.name] = sp.Symbol(n.name, positive=True)
        return self.symbols[n.name]

    def visit_Const(self, n: Const, args: list):
        return sp.pi if n.name == "pi" else sp.E

    def visit_Add(self, n: Add, args: list):
        return sp.Add(*args)

    def visit_Mul(self, n: Mul, args: list):
        return sp.Mul(*args)

    def visit_Pow(self, n: Pow, args: list):
        return sp.Pow(args[0], args[1])

    def visit_Func(self, n: Func, args: list):
        if n.name == "log":
            return sp.log(args[0]) if len(args) == 1 else sp.log(args[0]) / sp.log(args[1])
        return _F[n.name](*args)

    def visit_Rel(self, n: Rel, args: list):
        return _REL[n.op](args[0], args[1], evaluate=False)

    def visit_Ref(self, n: Ref, args: list):
        raise ExpressionError(f"cannot convert {n!r} to SymPy")

    def visit_Indexed(self, n: Indexed, args: list):
        """``s[i]`` is ``Indexed(IndexedBase(s), i)``, the base carrying the assumptions of
        the symbol ``s`` (its domain, through :func:`sympy_symbol` of the caller)."""
        if n.name not in self.symbols:
            self.symbols[n.name] = sp.Symbol(n.name, positive=True)
        s = self.symbols[n.name]
        return sp.IndexedBase(s)[args[0]]

    def visit_BigOp(self, n: BigOp):
        """``Sum``/``Product`` over an integer index; ``max``/``min`` written out (SymPy has
        no big Max), so their range must be given by numbers."""
        lo = yield n.lo
        hi = yield n.hi
        if n.op in ("max", "min") and lo.is_Integer and hi.is_Integer:
            return (yield expand(n, int(lo), int(hi)))
        saved = self.bound.get(n.var)
        i = self.bound[n.var] = sp.Symbol(n.var, integer=True)
        try:
            body = yield n.body
        finally:
            if saved is None:
                self.bound.pop(n.var, None)
            else:
                self.bound[n.var] = saved
        if n.op in ("max", "min"):
            return (MaxOver if n.op == "max" else MinOver)(body, i, lo, hi)
        return (sp.Sum if n.op == "sum" else sp.Product)(body, (i, lo, hi))


class _BigExtremum(sp.Function):
    """max or min of ``body`` over the integers ``i = lo .. hi`` (SymPy has no big Max): an
    unevaluated function that prints as ``\\max_{i=lo}^{hi}`` and converts back."""
    nargs = 4
    _word = ""

    def _latex(self, printer):
        body, i, lo, hi = (printer._print(a) for a in self.args)
        return rf"\{self._word}_{{{i}={lo}}}^{{{hi}}} \left({body}\right)"

    def _sympystr(self, printer):
        return f"{self._word}({', '.join(printer._print(a) for a in self.args)})"


class MaxOver(_BigExtremum):
    _word = "max"


class MinOver(_BigExtremum):
    _word = "min"


def to_sympy(node: Node, symbols: dict[str, sp.Symbol] | None = None):
    """The SymPy expression of ``node``; symbols are taken from (and added to) ``symbols``
    (a new symbol is positive)."""
    return _ToSympy(symbols if symbols is not None else {}).walk(node)


def from_sympy(e) -> Node:
    """SymPy expression -> tree (for interval evaluation of derivatives etc.)."""
    if e.is_Rational:
        return Num(Fraction(int(e.p), int(e.q)))
    if e is sp.pi:
        return Const("pi")
    if e is sp.E:
        return Const("E")
    if e.is_Symbol:
        return Sym(e.name)
    if e.is_Add:
        return Add(tuple(from_sympy(a) for a in e.args))
    if e.is_Mul:
        return Mul(tuple(from_sympy(a) for a in e.args))
    if e.is_Pow:
        if e.base is sp.E:
            return Func("exp", (from_sympy(e.exp),))
        return Pow(from_sympy(e.base), from_sympy(e.exp))
    if isinstance(e, sp.exp):
        return Func("exp", (from_sympy(e.args[0]),))
    if isinstance(e, sp.log):
        return Func("log", (from_sympy(e.args[0]),))
    if isinstance(e, sp.Float):
        return Num(Fraction(str(e)))
    if isinstance(e, (sp.Sum, sp.Product)):
        out = from_sympy(e.function)
        for i, lo, hi in e.limits:                 # innermost first
            out = BigOp("sum" if isinstance(e, sp.Sum) else "prod", out, i.name, from_sympy(lo),
                        from_sympy(hi))
        return out
    if isinstance(e, _BigExtremum):
        body, i, lo, hi = e.args
        return BigOp(e._word, from_sympy(body), i.name, from_sympy(lo), from_sympy(hi))
    if isinstance(e, sp.Indexed) and len(e.indices) == 1:
        return Indexed(str(e.base.label), from_sympy(e.indices[0]))
    if isinstance(e, sp.factorial):
        return Func("factorial", (from_sympy(e.args[0]),))
    if isinstance(e, sp.gamma):
        return Func("gamma", (from_sympy(e.args[0]),))
    if isinstance(e, sp.binomial):
        return Func("binomial", tuple(from_sympy(a) for a in e.args))
    rev = {sp.Min: "min", sp.Max: "max", sp.Abs: "abs", sp.floor: "floor", sp.ceiling: "ceil",
           sp.sin: "sin", sp.cos: "cos", sp.tan: "tan", sp.tanh: "tanh", sp.atan: "atan", sp.erf: "erf"}
    for cls, name in rev.items():
        if isinstance(e, cls):
            return Func(name, tuple(from_sympy(a) for a in e.args))
    if isinstance(e, sp.Heaviside):
        # derivative of min/max: H(x) = (x + |x|)/(2x), undefined at 0 (where H jumps)
        x = from_sympy(e.args[0])
        return Mul((Add((x, Func("abs", (x,)))), Pow(Mul((Num(Fraction(2)), x)), Num(Fraction(-1)))))
    if isinstance(e, sp.sign):
        raise ExpressionError("sign() is not in the expression language")
    raise ExpressionError(f"cannot convert SymPy expression {e} back to the expression language")


def expand_special(e):
    """``e`` with sums/products over a symbolic range in closed form where SymPy finds one
    (``prod(2, i, 1, L)`` is ``2**L``) and binomial/factorial/gamma expanded where that is
    elementary (``binomial(n, 2)`` is ``n (n - 1)/2``): the form whose limits SymPy takes
    (its limit of an unexpanded binomial can hang). Identity on other expressions."""
    if e.has(sp.Sum, sp.Product):
        e = e.doit()
    if e.has(sp.binomial, sp.factorial, sp.gamma):
        e = sp.expand_func(e)
    return e


def to_latex(node: Node, latex_names: dict[str, str] | None = None) -> str:
    """LaTeX of ``node`` through SymPy; ``latex_names`` maps symbol names to their LaTeX
    (the registry's ``latex`` field of each symbol)."""
    syms: dict = {}
    expr = to_sympy(node, syms)
    names = {s: (latex_names or {}).get(n, None) for n, s in syms.items()}
    # a name carrying its own superscript or prime (\ell'_{\max}, \theta^{(1)}) is braced,
    # else SymPy's ``x^{2}`` makes a double superscript that LaTeX refuses
    names = {s: ("{" + v + "}" if ("^" in v or "'" in v) else v) for s, v in names.items() if v}
    return sp.latex(expr, symbol_names=names)


def simplified(node: Node):
    """``node`` as SymPy, simplified by SymPy when it has fewer than 120 operations."""
    e = to_sympy(node, {})
    return sp.simplify(e) if sp.count_ops(e) < 120 else e


def to_sympy_text(node: Node) -> str:
    """SymPy's text of ``node`` (:func:`simplified`): the form the findings of ``check``
    show as evidence."""
    return str(simplified(node))
