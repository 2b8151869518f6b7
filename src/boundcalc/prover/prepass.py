"""Cheap pre-pass of the decision procedure: what the goal is made of, and one rewrite.

:func:`profile` reads the goal once (size, the functions that occur, integer symbols,
equality or inequality) so that the orchestrator (:mod:`.decide`) can choose its layers:
an equality with special functions meets the identity layer (after the exact layer, before
the numeric ones), a relation in one integer symbol the integer layer (right after the
quick SMT pass, before the later real layers spend their shares on a relaxation that may
be false on the reals).

:func:`root_substitution` removes fractional powers of single symbols: where a symbol
``x >= 0`` occurs only as ``x`` or ``x**q`` with rational q, and the denominators of the
q's have least common multiple k > 1, the goal is rewritten with ``x = X**k`` (``X >= 0``):
``x**(2/3)`` becomes ``X**2`` for k = 3, so that the 3-term l_(2/3) >= l_1 inequality
becomes polynomial under one named power. The map X -> X**k is an increasing bijection of
[0, oo) onto itself, and ``(X**k)**q = X**(k q)`` for every X >= 0 where either side is
defined, so the rewritten problem has the same truth value; the domain's ends are mapped
only when their k-th roots are rational (else no rewrite).

Soundness contract: this module decides nothing. :func:`root_substitution` returns a problem
equivalent to the given one (or None); a proof of it is a proof of the original. A
counterexample is always searched and certified on the original problem.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Literal

from ..expr.domains import Domain
from ..expr.nodes import Func, Node, Num, Pow, Rel, Sym
from .goal import Reformulation

__all__ = ["MAX_ROOT", "Profile", "profile", "root_substitution"]

MAX_ROOT = 6                     # k above this: the polynomial degrees grow too much


@dataclass
class Profile:
    """What the goal is made of (see :func:`profile`)."""
    nodes: int
    functions: frozenset[str]
    integer_symbols: tuple[str, ...]
    equality: bool
    special: bool = field(default=False)      # a transcendental function occurs


def profile(g: Node, op: str, domains: dict[str, Domain], extra=()) -> Profile:
    """One cheap pass over the goal and the assumptions."""
    nodes, funcs = 0, set()
    for root in (g, *extra):
        for n in root.unique_nodes():
            nodes += 1
            if isinstance(n, Func):
                funcs.add(n.name)
    ints = tuple(sorted(s for s in g.symbols() if domains.get(s) is not None and domains[s].integer))
    special = bool(funcs - {"sqrt", "abs", "min", "max", "floor", "ceil"})
    return Profile(nodes, frozenset(funcs), ints, op == "==", special)


def _root(v: Fraction | None, k: int) -> Fraction | None | Literal[False]:
    """The exact k-th root of v >= 0 (None stays None), or False when it is irrational."""
    if v is None:
        return None
    if v < 0:
        return False
    num, den = round(v.numerator ** (1 / k)), round(v.denominator ** (1 / k))
    for a in (num - 1, num, num + 1):
        for b in (den - 1, den, den + 1):
            if a >= 0 and b > 0 and Fraction(a, b) ** k == v:
                return Fraction(a, b)
    return False


def _exponents(roots: list[Node], name: str) -> list[Fraction] | None:
    """Every exponent under which ``name`` occurs (1 for a bare occurrence), or None if it
    occurs under a non-numeric power."""
    out: list[Fraction] = []
    for root in roots:
        for n in root.unique_nodes():
            if isinstance(n, Pow) and isinstance(n.base, Sym) and n.base.name == name:
                if not isinstance(n.exp, Num):
                    return None
                out.append(n.exp.value)
    return out


def root_substitution(g: Node, extra: list[Rel], domains: dict[str, Domain]) -> Reformulation | None:
    """The :class:`.goal.Reformulation` (g', extra', domains', labels) with fractional powers of single symbols removed, or
    None when no symbol qualifies (see the module docstring). Exponents are read as numbers:
    pass trees whose constants are folded (:func:`.decide.fold_constants`)."""
    roots = [g, *extra]
    ks: dict[str, int] = {}
    for name in sorted(g.symbols()):
        d = domains.get(name)
        if d is None or d.integer or d.lo is None or d.lo < 0:
            continue
        exps = _exponents(roots, name)
        if not exps:
            continue
        k = lcm(*(e.denominator for e in exps))
        if k <= 1 or k > MAX_ROOT:
            continue
        lo, hi = _root(d.lo, k), _root(d.hi, k)
        if lo is False or hi is False:
            continue
        ks[name] = k
    if not ks:
        return None
    new_names = {}
    taken = set().union(*(r.symbols() for r in roots))
    for name in ks:
        nn = name + "_root"
        while nn in taken or nn in domains:
            nn += "_"
        new_names[name] = nn

    def rewrite(n: Node) -> Node | None:
        if isinstance(n, Pow) and isinstance(n.base, Sym) and n.base.name in ks and isinstance(n.exp, Num):
            k = ks[n.base.name]
            return Pow(Sym(new_names[n.base.name]), Num(n.exp.value * k))
        if isinstance(n, Sym) and n.name in ks:
            return Pow(Sym(new_names[n.name]), Num(Fraction(ks[n.name])))
        return None

    doms = {n: d for n, d in domains.items() if n not in ks}
    for name, k in ks.items():
        d = domains[name]
        lo, hi = _root(d.lo, k), _root(d.hi, k)
        assert lo is not False and hi is not False     # a name with an irrational root is not in ks
        doms[new_names[name]] = Domain(False, lo, d.lo_closed, hi, d.hi_closed)
    labels = [f"{name} = {new_names[name]}**{k}" for name, k in ks.items()]
    return Reformulation(g.map(rewrite), [Rel(r.op, r.lhs.map(rewrite), r.rhs.map(rewrite)) for r in extra], doms,
                         labels)
