"""The one expression printer: a tree as text in the formula syntax, or as a
Markdown-safe code span.

* :func:`to_text` — the formula syntax the parser reads back (``x*y/(2*z)``,
  ``sqrt(x)``, ``1/n``, ``a - b``, ``x**2``, ``log(n, 2)``); it is ``str(node)``
  (this module registers it with :func:`boundcalc.expr.nodes.set_text_printer` when
  ``boundcalc.expr`` is imported, so the tree never imports its printer).
* :func:`to_markdown` — the text as a Markdown code span (``|`` escaped for a table cell).

The forms that go through SymPy (its LaTeX with the registry's symbol names, and its text
of a simplified tree, the evidence ``check`` shows) belong to the SymPy back end:
:func:`boundcalc.backends.sym.to_latex` and :func:`boundcalc.backends.sym.to_sympy_text`.
The expression language sits below its back ends and imports none of them.

The text printer is a :class:`~boundcalc.expr.visitor.Visitor`: iterative, so a tree
thousands of levels deep prints, and each shared subtree is printed once.
"""
from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction

from .nodes import Add, BigOp, Const, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym, set_text_printer
from .visitor import Visitor, handles

_HALF = Fraction(1, 2)


def _atomic(node: Node) -> bool:
    """Printed without parentheses as a factor, base or exponent."""
    return isinstance(node, (Sym, Const, Func, Ref, Indexed, BigOp)) or (
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

    def visit_Indexed(self, node: Indexed, args: list[str]) -> str:
        return f"{node.name}[{args[0]}]"

    def visit_BigOp(self, node: BigOp, args: list[str]) -> str:
        return f"{node.op}({args[0]}, {node.var}, {args[1]}, {args[2]})"


def to_text(node: Node) -> str:
    """``node`` in the formula syntax (``x*y/(2*z)``, ``a - b``, ``sqrt(x)``)."""
    return TextPrinter().walk(node)


def to_markdown(node: Node, *, table: bool = False) -> str:
    """The text form as a Markdown code span (nothing in it is read as emphasis or
    markup); ``table=True`` also escapes ``|`` for a table cell."""
    text = to_text(node)
    if table:
        text = text.replace("|", "\\|")
    return f"`{text}`"


set_text_printer(to_text)
