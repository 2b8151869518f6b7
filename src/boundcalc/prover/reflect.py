"""Domains that end at pi/2 or pi: the reflection ``x = c - t`` about that end (issue 36).

Near the upper end ``c`` of ``0 < x < pi/2`` ``tan x`` has its pole, and no bound of tan
about 0 reaches it; about the end it is ``cot t = cos t / sin t`` with ``t = pi/2 - x``
small, where the bounds of sin and cos about 0 close the goal (the cot series bound
``tan x < 1/(pi/2 - x) - (pi/2 - x)/3`` is ``cos t/sin t < 1/t - t/3``).

:func:`reflected` builds the reflected goal, or None. It applies to a real symbol ``x``
whose domain's lower end is 0 and whose upper end is given by exactly one assumption ``x <
c`` or ``x <= c`` with ``c = pi/2`` or ``pi`` (read by :func:`.pisub.pi_multiple`), ``c``
certified (arb) to lie strictly below the domain's rational upper bound (so that bound does
not cut), and only when ``sin``, ``cos`` or ``tan`` is applied to ``x`` itself somewhere in
the goal. Then ``t = c - x`` ranges over ``0 < t < c`` exactly when ``0 < x < c`` (the
closedness of each end carried over to the other: ``x <= c`` gives ``t >= 0``, a closed
``x >= 0`` gives ``t <= c``): ``t``'s domain is the rational interval from 0 to ``x``'s
upper bound and the assumption ``t < c`` (or ``<=``). In both sides and every other
assumption, ``sin(x)``, ``cos(x)``, ``tan(x)`` become ``cos t, sin t, cos t/sin t``
(``c = pi/2``) or ``sin t, -cos t, -tan t`` (``c = pi``), each an identity with the same
points of definition (``tan(pi/2 - t)`` is undefined exactly where ``sin t = 0``), and
every other ``x`` becomes ``c - t``; sums are then collected (``pi/2 - (pi/2 - t)`` is
``t``: ring identities, which can only remove points where a side was undefined).

Soundness contract: ``x -> c - t`` maps the original point set onto the reflected one, one
to one, and every side and assumption is rewritten by identities valid wherever the
original is defined, so a proof of the reflected relation (at every point where its
assumptions hold and its sides are defined) is a proof of the original. Only proofs are
taken (a ``rewrite`` certificate naming the reflection around the sub-goal's own);
counterexamples are left to the layers on the original goal.
"""
from __future__ import annotations

from fractions import Fraction

from ..expr.domains import Domain
from ..expr.nodes import Add, Const, Func, Mul, Node, Num, Pow, Rel, Sym
from .pisub import pi_multiple

__all__ = ["collect", "reflected"]

_TRIG = ("sin", "cos", "tan")
_ONE = Num(Fraction(1))


def _upper(r: Rel, n: str) -> tuple[Fraction, bool] | None:
    """(q, closed) when ``r`` reads ``n < q*pi`` / ``n <= q*pi`` (either way round)."""
    if isinstance(r.lhs, Sym) and r.lhs.name == n and r.op in ("<", "<="):
        q, closed = pi_multiple(r.rhs), r.op == "<="
    elif isinstance(r.rhs, Sym) and r.rhs.name == n and r.op in (">", ">="):
        q, closed = pi_multiple(r.lhs), r.op == ">="
    else:
        return None
    return None if q is None else (q, closed)


def _mentions_pi_bound(r: Rel, n: str) -> bool:
    """Whether ``r`` bounds ``n`` by a multiple of pi from either side."""
    if r.op not in ("<", "<=", ">", ">="):
        return False
    return ((isinstance(r.lhs, Sym) and r.lhs.name == n and pi_multiple(r.rhs) is not None)
            or (isinstance(r.rhs, Sym) and r.rhs.name == n and pi_multiple(r.lhs) is not None))


def _below(q: Fraction, end: Fraction | None) -> bool:
    """Whether q*pi < end (certified in arb); True for no end."""
    if end is None:
        return True
    import flint

    from ..backends import arb as A
    with A.precision(128):
        return bool(A.ball(end) - A.ball(q) * flint.arb.pi() > 0)


def _trig_of(node: Node, n: str) -> bool:
    return any(isinstance(f, Func) and f.name in _TRIG and len(f.args) == 1 and isinstance(f.args[0], Sym)
               and f.args[0].name == n for f in node.unique_nodes())


def _neg(x: Node) -> Node:
    return Mul((Num(Fraction(-1)), x))


def _swap(node: Node, n: str, t: str, q: Fraction, memo: dict) -> Node:
    """``node`` with sin/cos/tan of ``n`` itself reflected, every other ``n`` -> c - t."""
    key = id(node)
    if key in memo:
        return memo[key]
    T = Sym(t)
    out: Node
    if isinstance(node, Func) and node.name in _TRIG and len(node.args) == 1 and isinstance(node.args[0], Sym) \
            and node.args[0].name == n:
        s, c = Func("sin", (T,)), Func("cos", (T,))
        if q == Fraction(1, 2):
            out = {"sin": c, "cos": s, "tan": Mul((c, Pow(s, Num(Fraction(-1)))))}[node.name]
        else:
            out = {"sin": s, "cos": _neg(c), "tan": _neg(Func("tan", (T,)))}[node.name]
    elif isinstance(node, Sym) and node.name == n:
        out = Add((Mul((Num(q), Const("pi"))), _neg(T)))
    else:
        kids = node.children()
        if not kids:
            out = node
        else:
            new = tuple(_swap(k, n, t, q, memo) for k in kids)
            out = node if all(a is b for a, b in zip(new, kids)) else _rebuild(node, new)
    memo[key] = out
    return out


def _rebuild(node: Node, kids: tuple) -> Node:
    if isinstance(node, Add):
        return Add(kids)
    if isinstance(node, Mul):
        return Mul(kids)
    if isinstance(node, Pow):
        return Pow(kids[0], kids[1])
    if isinstance(node, Func):
        return Func(node.name, kids)
    if isinstance(node, Rel):
        return Rel(node.op, kids[0], kids[1])
    raise ValueError(f"no rebuild for {type(node).__name__}")


def _terms(node: Node, coef: Fraction, out: dict) -> None:
    """Add coef * node to ``out`` ({term: coefficient}), sums and numeric factors opened."""
    if isinstance(node, Num):
        out[_ONE] = out.get(_ONE, Fraction(0)) + coef * node.value
        return
    if isinstance(node, Add):
        for k in node.args:
            _terms(k, coef, out)
        return
    if isinstance(node, Mul):
        c, rest, stack = Fraction(1), [], list(reversed(node.args))
        while stack:                           # nested products opened: -(2*t) is -2 times t
            f = stack.pop()
            if isinstance(f, Num):
                c *= f.value
            elif isinstance(f, Mul):
                stack.extend(reversed(f.args))
            else:
                rest.append(f)
        if len(rest) == 1 and isinstance(rest[0], Add):
            _terms(rest[0], coef * c, out)
            return
        if rest or c != 1:
            key = rest[0] if len(rest) == 1 else (Mul(tuple(rest)) if rest else _ONE)
            out[key] = out.get(key, Fraction(0)) + coef * c
            return
    out[node] = out.get(node, Fraction(0)) + coef


def collect(node: Node) -> Node:
    """``node`` with every sum's like terms combined (rational coefficients; ``pi/2 - (pi/2 -
    t)`` -> ``t``), bottom up: ring identities only."""
    kids = node.children()
    if kids and not isinstance(node, (Num, Sym, Const)):
        new = tuple(collect(k) for k in kids)
        if not all(a is b for a, b in zip(new, kids)):
            node = _rebuild(node, new)
    if not isinstance(node, Add):
        return node
    terms: dict = {}
    _terms(node, Fraction(1), terms)
    parts: list[Node] = []
    for k, c in terms.items():
        if c == 0:
            continue
        if k == _ONE:
            parts.append(Num(c))
        else:
            parts.append(k if c == 1 else Mul((Num(c), k)))
    if not parts:
        return Num(Fraction(0))
    return parts[0] if len(parts) == 1 else Add(tuple(parts))


def reflected(a: Node, b: Node, domains: dict[str, Domain], extra: list):
    """(a', b', domains', extra', {x: (t, c text)}) with ``x = c - t`` (see the module
    docstring) for the first symbol that qualifies, or None."""
    used = set(domains) | Rel("<", a, b).symbols() | set().union(*(r.symbols() for r in extra))
    for n, d in sorted(domains.items()):
        if d.integer or d.lo != 0 or not (_trig_of(a, n) or _trig_of(b, n)):
            continue
        ups = [(r, u) for r in extra if isinstance(r, Rel) and (u := _upper(r, n)) is not None]
        if len(ups) != 1 or sum(_mentions_pi_bound(r, n) for r in extra) != 1:
            continue
        (r0, (q, closed)), = ups
        if q not in (Fraction(1, 2), Fraction(1)) or not _below(q, d.hi):
            continue
        hi = d.hi
        if hi is None:
            hi = Fraction(4) if q == 1 else Fraction(2)          # above pi, pi/2: the assumption cuts
        t = f"{n}_reflected"
        while t in used:
            t += "_"
        dom = Domain(lo=Fraction(0), lo_closed=closed, hi=hi, hi_closed=False)
        c = Mul((Num(q), Const("pi")))
        bound = Rel("<=" if d.lo_closed else "<", Sym(t), c)
        memo: dict = {}
        a2, b2 = collect(_swap(a, n, t, q, memo)), collect(_swap(b, n, t, q, memo))
        rest = [collect(_swap(r, n, t, q, memo)) for r in extra if r is not r0]
        doms = {k: v for k, v in domains.items() if k != n}
        doms[t] = dom
        return a2, b2, doms, rest + [bound], {n: (t, "pi/2" if q != 1 else "pi")}
    return None
