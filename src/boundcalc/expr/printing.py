"""The one expression printer: a tree as text in the formula syntax, as LaTeX, or as a
Markdown-safe code span.

* :func:`to_text` — the formula syntax the parser reads back (``x*y/(2*z)``,
  ``sqrt(x)``, ``1/n``, ``a - b``, ``x**2``, ``log(n, 2)``); it is ``str(node)``
  (:meth:`boundcalc.expr.nodes.Node.__str__` imports this module lazily). With
  ``simplify=True`` the tree goes through SymPy first (simplified when small) and SymPy's
  text is printed: the form the findings of ``check`` show as evidence.
* :func:`to_latex` — LaTeX through SymPy (SymPy is imported only here, on call), with the
  registry's LaTeX names of symbols.
* :func:`to_markdown` — the text as a Markdown code span (``|`` escaped for a table cell).

The text printer is a :class:`~boundcalc.expr.visitor.Visitor`: iterative, so a tree
thousands of levels deep prints, and each shared subtree is printed once.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Generator

from .nodes import Add, Const, Func, Mul, Node, Num, Pow, Ref, Rel, Sym
from .visitor import Visitor, handles

_HALF = Fraction(1, 2)


def _atomic(node: Node) -> bool:
    """Printed without parentheses as a factor, base or exponent."""
    return isinstance(node, (Sym, Const, Func, Ref)) or (
        isinstance(node, Num) and node.value.denominator == 1 and node.value >= 0)


def _neg_power(node: Node) -> bool:
    return isinstance(node, Pow) and isinstance(node.exp, Num) and node.exp.value < 0


class TextPrinter(Visitor[str]):
    """The formula syntax (see :func:`to_text`)."""

    def paren(self, node: Node, text: str) -> str:
        return text if _atomic(node) else f"({text})"

    def visit_Num(self, node: Num, args: list) -> str:
        v = node.value
        return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"

    @handles(Sym, Const)
    def _name(self, node: Sym | Const, args: list) -> str:
        return node.name

    def visit_Ref(self, node: Ref, args: list) -> str:
        return node.name if node.paper is None else f"{node.paper}.{node.name}"

    def visit_Add(self, node: Add, args: list[str]) -> str:
        out = ""
        for i, t in enumerate(args):
            out += t if i == 0 else (f" - {t[1:]}" if t.startswith("-") else f" + {t}")
        return out

    def visit_Mul(self, node: Mul) -> Generator[Node, str, str]:
        args = node.args
        if len(args) >= 2 and isinstance(args[0], Num) and args[0].value == -1:
            rest = Mul(args[1:]) if len(args) > 2 else args[1]
            return "-" + self.paren(rest, (yield rest))
        num, den = [], []
        for a in args:
            if _neg_power(a):
                assert isinstance(a, Pow) and isinstance(a.exp, Num)
                d = a.base if a.exp.value == -1 else Pow(a.base, Num(-a.exp.value))
                den.append(self.paren(d, (yield d)))
            else:
                num.append(self.paren(a, (yield a)))
        s = "*".join(num) or "1"
        if den:
            s += "/" + (den[0] if len(den) == 1 else "(" + "*".join(den) + ")")
        return s

    def visit_Pow(self, node: Pow, args: list[str]) -> str:
        b, e = args
        if isinstance(node.exp, Num) and node.exp.value == _HALF:
            return f"sqrt({b})"
        if isinstance(node.exp, Num) and node.exp.value == -1:
            return f"1/{self.paren(node.base, b)}"
        return f"{self.paren(node.base, b)}**{self.paren(node.exp, e)}"

    def visit_Func(self, node: Func, args: list[str]) -> str:
        return f"{node.name}({', '.join(args)})"

    def visit_Rel(self, node: Rel, args: list[str]) -> str:
        return f"{args[0]} {node.op} {args[1]}"


def to_text(node: Node, *, simplify: bool = False) -> str:
    """``node`` in the formula syntax (``x*y/(2*z)``, ``a - b``, ``sqrt(x)``).

    ``simplify=True``: SymPy's text of the tree, simplified by SymPy when it has fewer
    than 120 operations (imports SymPy)."""
    if simplify:
        import sympy as sp
        from ..backends.sym import to_sympy
        e = to_sympy(node, {})
        return str(sp.simplify(e)) if sp.count_ops(e) < 120 else str(e)
    return TextPrinter().walk(node)


def to_latex(node: Node, latex_names: dict[str, str] | None = None) -> str:
    """LaTeX through SymPy; ``latex_names`` maps symbol names to their LaTeX (the
    registry's ``latex`` field of each symbol)."""
    import sympy as sp
    from ..backends.sym import to_sympy
    syms: dict = {}
    expr = to_sympy(node, syms)
    names = {s: (latex_names or {}).get(n, None) for n, s in syms.items()}
    # a name carrying its own superscript or prime (\ell'_{\max}, \theta^{(1)}) is braced,
    # else SymPy's ``x^{2}`` makes a double superscript that LaTeX refuses
    names = {s: ("{" + v + "}" if ("^" in v or "'" in v) else v) for s, v in names.items() if v}
    return sp.latex(expr, symbol_names=names)


def to_markdown(node: Node, *, table: bool = False) -> str:
    """The text form as a Markdown code span (nothing in it is read as emphasis or
    markup); ``table=True`` also escapes ``|`` for a table cell."""
    text = to_text(node)
    if table:
        text = text.replace("|", "\\|")
    return f"`{text}`"
