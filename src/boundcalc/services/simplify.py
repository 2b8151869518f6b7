"""A simplified form of a formula and its LaTeX."""
from __future__ import annotations

from dataclasses import dataclass

from ..backends.sympy_import import sympy as sp
from ..prover.symbolic import to_sympy_with_domains


@dataclass
class Simplified:
    id: str
    original: str
    simplified: str
    latex: str


def simplify(formula) -> Simplified:
    expr, syms = to_sympy_with_domains(formula.expr, formula.symbol_table)
    if isinstance(expr, sp.core.relational.Relational):
        out = type(expr)(sp.simplify(expr.lhs), sp.simplify(expr.rhs), evaluate=False)
    else:
        cands = [sp.simplify(expr), sp.factor(expr), sp.expand(expr)]
        out = min(cands, key=sp.count_ops)
    names = {s: formula.symbol_table[n].latex for n, s in syms.items() if n in formula.symbol_table}
    return Simplified(formula.id, str(expr), str(out), sp.latex(out, symbol_names=names))
