"""Goals symmetric in two symbols: decided where ``x <= y`` (issue 36).

Jensen's inequality for two points (``sin x + sin y <= 2 sin((x + y)/2)``), the mean value
bounds ``|sin x - sin y| <= |x - y|`` and the product forms ``cos x cos y <= cos^2((x +
y)/2)`` are unchanged when ``x`` and ``y`` are swapped; on the half ``x <= y`` of their
domain the order layer (:mod:`.order`) moves one symbol to the other and the goal becomes a
one-variable identity on the diagonal.

:func:`symmetric_pair` finds two real symbols ``x``, ``y`` of the goal such that

* their domains are equal, and no assumption already orders them;
* the assumptions, as a set, are unchanged by the swap (each swapped assumption is one of
  them, structurally);
* the difference ``g = a - b`` is unchanged by the swap: SymPy's ``g(x, y) - g(y, x)``
  expands (or simplifies, under a work budget) to exactly 0 (SymPy's identity, named in the
  certificate);

and the caller checks that every definedness condition of ``g`` holds strictly on the
domains under the assumptions (:func:`.monotone._smooth`), so that ``g`` is defined at a
point exactly when at its swap.

Soundness contract: for every point ``p = (x, y, ...)`` of the domains where the
assumptions hold, either ``x <= y``, or its swap ``q = (y, x, ...)`` is such a point
(equal domains, a swap-invariant set of assumptions) with ``x <= y`` there and ``g(q) =
g(p)`` (the identity, both defined). So a proof of the goal under the added assumption ``x
<= y`` (a "relation" sub-goal, its certificate re-checked) is a proof of the goal. Only
proofs are taken: the sub-goal's counterexample is a point of the goal and is certified on
it by the caller. Nested at most :data:`MAX_DEPTH` deep.
"""
from __future__ import annotations

import contextvars

from ..expr.domains import Domain
from ..expr.nodes import Node, Rel, Sym, sub, substitute
from .budget import Timeout, time_limit

__all__ = ["MAX_DEPTH", "applies", "depth", "nested", "symmetric_pair"]

MAX_DEPTH = 1
_depth: contextvars.ContextVar[int] = contextvars.ContextVar("symmetric_depth", default=0)


def depth() -> int:
    return _depth.get()


class nested:
    """A context in which the sub-goal runs (one level deeper)."""

    def __enter__(self):
        self._tok = _depth.set(_depth.get() + 1)

    def __exit__(self, *exc):
        _depth.reset(self._tok)


def _swap(node: Node, x: str, y: str) -> Node:
    return substitute(node, {x: Sym(y), y: Sym(x)})


def _ordered(extra, x: str, y: str) -> bool:
    return any(isinstance(r, Rel) and isinstance(r.lhs, Sym) and isinstance(r.rhs, Sym)
               and {r.lhs.name, r.rhs.name} == {x, y} for r in extra)


def applies(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra) -> bool:
    """An inequality in two or more real symbols, two with equal domains, depth left."""
    if rel not in ("<=", "<", ">=", ">") or _depth.get() >= MAX_DEPTH:
        return False
    names = sorted(n for n in Rel(rel, a, b).symbols() if n in domains and not domains[n].integer)
    return any(domains[u] == domains[v] for i, u in enumerate(names) for v in names[i + 1:])


def _invariant(g: Node, x: str, y: str, seconds: float) -> bool:
    """Whether SymPy shows g(x, y) - g(y, x) == 0 identically (within ``seconds`` of work)."""
    try:
        from ..backends.sym import to_sympy
        from ..backends.sympy_import import sympy as sp
        with time_limit(max(0.2, seconds)):
            names = sorted(g.symbols())
            syms = {n: sp.Symbol(n, real=True) for n in names}
            e = to_sympy(g, dict(syms)) - to_sympy(_swap(g, x, y), dict(syms))
            if e == 0 or sp.expand(e) == 0:
                return True
            return bool(sp.simplify(e) == 0)
    except (Timeout, Exception):
        return False


def symmetric_pair(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra,
                   seconds: float) -> tuple[str, str] | None:
    """(x, y) as in the module docstring, or None."""
    g = sub(a, b)
    names = sorted(n for n in Rel(rel, a, b).symbols() if n in domains and not domains[n].integer)
    ex = list(extra)
    for i, x in enumerate(names):
        for y in names[i + 1:]:
            if domains[x] != domains[y] or _ordered(ex, x, y):
                continue
            if any(_swap(r, x, y) not in ex for r in ex):
                continue
            if _invariant(g, x, y, seconds):
                return x, y
    return None
