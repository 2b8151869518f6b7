"""Domains that end at rational multiples of pi: the substitution ``x = pi*t``.

A symbol ``x`` whose domain is cut by assumptions ``x < q*pi`` (or ``>``, ``<=``, ``>=``; q
rational: ``x < pi/2``, ``x >= -pi/2``) has an irrational end, which the layers that read a
domain's ends (the ends layer's touching end or pole, the interval layer's boxes) cannot
use. Written as ``x = pi*t``, the same statement has rational ends (``t < 1/2``) and the
constant ``pi`` in its sides, which every layer encloses in ball arithmetic.

:func:`scaled` builds the substituted goal, or None. It applies only where the map is a
bijection between the two point sets: ``x`` real (not integer), each end of ``x``'s domain
either given by exactly one such assumption, whose ``q*pi`` is certified (arb) to lie
strictly inside the domain's rational bound on that side (so that bound does not cut), or
an end at 0 or at infinity with no such assumption (``t``'s end is then 0 or infinity, with
the same closedness). The consumed assumptions become ``t``'s domain ends; every other
assumption, and both sides, get ``x -> pi*t``.

Soundness contract: ``x -> pi*t`` maps {x in D, the pi-assumptions hold} onto t's domain
one to one, and the other assumptions and both sides pointwise, so the substituted relation
holds at every point where its assumptions hold and its sides are defined exactly when the
original does. A proof of it (its own certificate, re-checked, inside a ``rewrite``
certificate naming the substitution) is a proof of the original. Counterexamples of the
substituted goal are not mapped back (pi*t is irrational): the other layers search the
original goal.
"""
from __future__ import annotations

from fractions import Fraction

from ..expr.domains import Domain
from ..expr.nodes import Const, Mul, Node, Num, Pow, Rel, Sym, substitute


def pi_multiple(node: Node) -> Fraction | None:
    """q when ``node`` is structurally ``q*pi`` (a product of one ``pi`` and rational numbers
    or their integer powers), else None."""
    if isinstance(node, Const) and node.name == "pi":
        return Fraction(1)
    if not isinstance(node, Mul):
        return None
    q, pis = Fraction(1), 0
    for f in node.args:
        if isinstance(f, Const) and f.name == "pi":
            pis += 1
        elif isinstance(f, Num):
            q *= f.value
        elif (isinstance(f, Pow) and isinstance(f.base, Num) and isinstance(f.exp, Num)
              and f.exp.value.denominator == 1 and f.base.value != 0):
            q *= f.base.value ** int(f.exp.value)
        elif isinstance(f, Mul):
            inner = pi_multiple(f)
            if inner is not None:
                q, pis = q * inner, pis + 1
            else:
                r = _rational(f)
                if r is None:
                    return None
                q *= r
        else:
            return None
    return q if pis == 1 else None


def _rational(node: Node) -> Fraction | None:
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Mul):
        q = Fraction(1)
        for f in node.args:
            r = _rational(f)
            if r is None:
                return None
            q *= r
        return q
    return None


def _bound(r: Rel, n: str) -> tuple[str, Fraction, bool] | None:
    """("lo" | "hi", q, closed) when ``r`` is ``n op q*pi`` (either way round), else None."""
    if r.op not in ("<", "<=", ">", ">="):
        return None
    if isinstance(r.lhs, Sym) and r.lhs.name == n:
        q, op = pi_multiple(r.rhs), r.op
    elif isinstance(r.rhs, Sym) and r.rhs.name == n:
        q, op = pi_multiple(r.lhs), {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[r.op]
    else:
        return None
    if q is None:
        return None
    return ("hi" if op in ("<", "<=") else "lo", q, op in ("<=", ">="))


def _inside(side: str, q: Fraction, end: Fraction | None) -> bool:
    """Whether q*pi lies strictly inside the rational bound ``end`` on ``side`` (certified)."""
    if end is None:
        return True
    import flint

    from ..backends import arb as A
    with A.precision(128):
        gap = A.ball(end) - A.ball(q) * flint.arb.pi()
        return bool(gap > 0) if side == "hi" else bool(gap < 0)


def _fresh(n: str, used: set[str]) -> str:
    t = f"{n}_over_pi"
    while t in used:
        t += "_"
    return t


def scaled(a: Node, b: Node, domains: dict[str, Domain], extra: list[Rel]):
    """(a', b', domains', extra', {x: t}) with ``x = pi*t`` for every symbol with a
    pi-multiple end (see the module docstring), or None when no symbol qualifies."""
    used = set(domains) | Rel("<", a, b).symbols() | set().union(*(r.symbols() for r in extra))
    doms, rest, mapping, names = dict(domains), list(extra), {}, {}
    for n, d in domains.items():
        found = [(r, bd) for r in rest if (bd := _bound(r, n)) is not None]
        if not found or d.integer:
            continue
        sides: dict[str, tuple[Fraction, bool]] = {}
        if len(found) != len({bd[0] for _, bd in found}):
            continue                           # two bounds on one side: not read here
        for _, (side, q, closed) in found:
            sides[side] = (q, closed)
        new: dict = {}
        ok = True
        for side in ("lo", "hi"):
            end, closed = (d.lo, d.lo_closed) if side == "lo" else (d.hi, d.hi_closed)
            if side in sides:
                q, qc = sides[side]
                ok = ok and _inside(side, q, end)
                new[side], new[f"{side}_closed"] = q, qc
            elif end is None or end == 0:
                new[side], new[f"{side}_closed"] = end, closed
            else:
                ok = False
        if not ok:
            continue
        t = _fresh(n, used)
        used.add(t)
        dom = Domain(**new)
        if dom.is_empty():
            continue
        doms.pop(n)
        doms[t] = dom
        mapping[n] = Mul((Const("pi"), Sym(t)))
        names[n] = t
        taken = {id(r) for r, _ in found}
        rest = [r for r in rest if id(r) not in taken]
    if not mapping:
        return None
    rest = [Rel(r.op, substitute(r.lhs, mapping), substitute(r.rhs, mapping)) for r in rest]
    return substitute(a, mapping), substitute(b, mapping), doms, rest, names
