"""Monotonicity in one variable (issue 36): a goal ``g op 0`` (op ``>=`` or ``>``) in two or
more symbols reduced to a face of its domain by a proved sign of one partial derivative.

For a symbol ``v`` with a closed finite end ``e`` that occurs in no assumption: if
``dg/dv >= 0`` on the domain (``e`` its lower end; ``<= 0`` for the upper end), then for
every fixed value of the other symbols ``g`` is nondecreasing along ``v`` away from ``e``
(mean value theorem on the segment, which lies in the domain: ``v`` is in no assumption, so
the set where they hold is a cylinder along ``v``), hence ``g >= g|_{v = e}``, and the goal
follows from the *face goal* ``g|_{v = e} op 0`` in one symbol fewer (``>`` too:
``g >= g|_{v=e} > 0``). That is what the error-analysis bounds need: at ``d = 0`` (no
perturbation) both sides agree, and every box touching the line ``d = 0`` defeats
branch-and-bound, while the derivative in ``d`` has a sign and the face ``d = 0`` is an
identity.

:func:`prove_monotone` takes the goal's sides and tries each symbol and direction whose
derivative's sign is seen at a few sample points (the samples only choose; they prove
nothing), in a fixed order. The derivative is SymPy's (exact, under ``time_limit``: work,
not time). Three sub-goals, each decided by the decision procedure again (the caller's
callbacks, each layer under its own contract):

* **smooth**: every definedness condition of ``g`` and of ``dg/dv`` holds strictly on the
  domain (one enclosure over the closed box where it is bounded and closed, else a "real"
  sub-goal ``c > 0``), so ``g`` is continuously differentiable along every segment used;
  only :data:`..expr.singularities.SMOOTH_FUNCTIONS`, ``tan`` and powers occur (no abs,
  min, max, floor, ceil);
* **derivative**: ``dg/dv >= 0`` (or ``-dg/dv >= 0``): termwise from the shape and arb
  enclosures of its factors over the bounded box (:func:`.cases.box_sign`), else a "real"
  sub-goal on the domains under the assumptions;
* **face**: ``a|_{v=e} rel b|_{v=e}``, a "relation" sub-goal on the other symbols' domains
  under the same assumptions.

Soundness contract: "proved" only when the three sub-goals are proved (by the argument
above); a counterexample of the face goal is a point of the goal's domain (``v = e`` is a
closed end), returned as a candidate that the caller re-certifies on the original relation.
On any failure, None: the goal falls through unchanged. Nested at most :data:`MAX_DEPTH`
deep (a derivative's own sign may need this layer again).
"""
from __future__ import annotations

import contextvars
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from ..expr.domains import Domain
from ..expr.nodes import Func, Mul, Node, Num, Rel, sub, substitute
from ..verdicts import Verdict
from .budget import Timeout, clock, left, time_limit

__all__ = ["MAX_DEPTH", "Monotone", "applies", "depth", "prove_monotone", "touching_face"]

MAX_DEPTH = 2             # monotonicity arguments nested in this layer's sub-goals
MAX_OPS = 300             # SymPy: derivatives larger than this (count_ops) are not used
SAMPLES = 5               # points per side of the box where the derivative's sign is sampled
_ALLOWED = frozenset({"exp", "log", "sqrt", "tanh", "atan", "erf", "sin", "cos", "tan"})
_MINUS = Num(Fraction(-1))
_depth: contextvars.ContextVar[int] = contextvars.ContextVar("monotone_depth", default=0)


def depth() -> int:
    """How many monotonicity arguments enclose the running decision."""
    return _depth.get()


@dataclass
class Monotone:
    """A proof: along ``var`` towards its end ``at`` (``side``: "lo" or "hi"), and the
    face sub-goal's decision text; or a candidate counterexample (``point``) of the face."""
    var: str
    at: Fraction
    side: str
    how: str
    point: dict | None = None
    certificate: dict | None = None      # the face sub-goal's (re-checked by the caller)
    derivative: Node | None = None       # d/dvar of the difference (SymPy's), whose sign was proved


def applies(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra) -> bool:
    """Two or more real symbols, an inequality, depth left, and a symbol that occurs only
    inside smooth functions (:func:`_smooth_in`)."""
    if rel not in ("<=", "<", ">=", ">") or _depth.get() >= MAX_DEPTH:
        return False
    syms = Rel(rel, a, b).symbols()
    if len(syms) < 2 or any(domains[n].integer for n in syms if n in domains):
        return False
    return any(_smooth_in(a, b, v) for v in syms)


def _smooth_in(a: Node, b: Node, v: str) -> bool:
    """Whether every function application whose argument contains ``v`` is of a smooth
    function (``abs(sin(x))`` is a constant along ``d``: the argument holds for ``d``)."""
    return all(x.name in _ALLOWED for t in (a, b) for x in t.unique_nodes()
               if isinstance(x, Func) and v in x.symbols())


def _faces(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra) -> list[tuple[str, str]]:
    """The (symbol, side) pairs of closed finite ends of symbols in no assumption."""
    in_extra = set().union(*(r.symbols() for r in extra)) if extra else set()
    out = []
    for v in sorted(Rel(rel, a, b).symbols()):
        d = domains.get(v)
        if d is None or v in in_extra or not _smooth_in(a, b, v):
            continue
        out += [(v, side) for side, e, c in (("lo", d.lo, d.lo_closed), ("hi", d.hi, d.hi_closed))
                if e is not None and c]
    return out


def touching_face(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra) -> tuple[str, str] | None:
    """A face ``v = e`` (closed finite end, ``v`` in no assumption) on which ``a - b`` is
    within 1e-30 of 0 at every sample point of the other symbols (ball arithmetic at exact
    points): where this layer is worth trying. A choice only: it proves nothing."""
    from ..backends import arb as A
    if not applies(a, rel, b, domains, extra):
        return None
    g = sub(a, b)
    tiny = A.ball(Fraction(1, 10 ** 30))
    for v, side in _faces(a, rel, b, domains, extra):
        d = domains[v]
        e = d.lo if side == "lo" else d.hi
        assert e is not None                   # _faces: finite ends only
        face = substitute(g, {v: Num(e)})
        rest = sorted(face.symbols())
        pts = _points({n: domains[n] for n in rest}, rest)[:16]
        seen = 0
        for p in pts:
            try:
                val = A.enclose(face, p, prec=128)
            except (A.Undefined, A.Unresolved, A.TooLarge):
                continue
            if not (abs(val) < tiny):
                break
            seen += 1
        else:
            if seen >= 3:
                return v, side
    return None


def _derivative(g: Node, v: str, seconds: float) -> Node | None:
    try:
        from ..backends.sym import from_sympy, to_sympy
        from ..backends.sympy_import import sympy as sp
        with time_limit(max(0.2, seconds)):
            syms = {n: sp.Symbol(n, real=True) for n in sorted(g.symbols())}
            e = sp.diff(to_sympy(g, dict(syms)), syms[v])
            if sp.count_ops(e) > MAX_OPS:
                return None
            return from_sympy(e)
    except (Timeout, Exception):
        return None


def _points(domains: dict[str, Domain], names: list[str]) -> list[dict[str, Fraction]]:
    """A small grid of exact points inside the domains (bounded sides: SAMPLES points
    strictly inside; unbounded: a few values)."""
    import itertools
    axes = []
    for n in names:
        d = domains[n]
        if d.lo is not None and d.hi is not None:
            vals = [d.lo + (d.hi - d.lo) * Fraction(2 * k + 1, 2 * SAMPLES) for k in range(SAMPLES)]
        else:
            base = d.lo if d.lo is not None else (d.hi if d.hi is not None else Fraction(0))
            step = 1 if d.hi is None else -1
            vals = [base + step * Fraction(k, 2) for k in (1, 2, 4, 8)]
        axes.append([x for x in vals if d.contains(x)])
    return [dict(zip(names, p)) for p in itertools.product(*axes)][:64]


def _seen_sign(dg: Node, pts: list[dict]) -> int | None:
    """+1 / -1 when the derivative is >= 0 / <= 0 at every sample point where it is
    certified (ball arithmetic), None when it changes sign or is never certified."""
    from ..backends import arb as A
    seen = set()
    for p in pts:
        try:
            e = A.enclose(dg, p, prec=64)
        except (A.Undefined, A.Unresolved, A.TooLarge):
            continue
        if e > 0:
            seen.add(1)
        elif e < 0:
            seen.add(-1)
    return seen.pop() if len(seen) == 1 else None


def _smooth(g: Node, dg: Node, domains: dict, extra: list, decide_real, share: float) -> bool:
    """Every definedness condition of g and dg/dv holds strictly on the domains."""
    from ..backends import arb as A
    from ..expr.singularities import definedness
    conds: dict = {}
    for n in (g, dg):
        for c in definedness(n):
            conds.setdefault((c.expr, c.op), c)
    box = None
    if all(d.lo is not None and d.hi is not None and d.lo_closed and d.hi_closed for d in domains.values()):
        box = {n: (d.lo, d.hi) for n, d in domains.items()}
    for c in conds.values():
        if c.op not in (">", ">=", "!="):
            return False
        if box is not None:
            try:
                e = A.enclose(c.expr, {n: box[n] for n in c.expr.symbols() if n in box}, prec=64)
                if e > 0 or (c.op == "!=" and e < 0):
                    continue
            except (A.Undefined, A.Unresolved, A.TooLarge):
                pass
        if not c.expr.symbols():
            return False
        if decide_real(c.expr, ">", domains, extra, share) is Verdict.PROVED:
            continue
        if c.op == "!=" and decide_real(Mul((_MINUS, c.expr)), ">", domains, extra, share) is Verdict.PROVED:
            continue
        return False
    return True


def prove_monotone(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra: list,
                   decide_real, decide_relation: Callable, *, seconds: float) -> Monotone | None:
    """A proof of ``a rel b`` by monotonicity in one symbol (see the module docstring), a
    candidate counterexample of a face goal (``point`` set), or None."""
    tok = _depth.set(_depth.get() + 1)
    try:
        return _prove(a, rel, b, domains, extra, decide_real, decide_relation, clock() + seconds)
    finally:
        _depth.reset(tok)


def _prove(a, rel, b, domains, extra, decide_real, decide_relation, deadline) -> Monotone | None:
    g = sub(a, b) if rel in (">=", ">") else sub(b, a)
    in_extra = set().union(*(r.symbols() for r in extra)) if extra else set()
    names = sorted(Rel(rel, a, b).symbols())
    doms = {n: domains[n] for n in names}
    pts = _points(doms, names)
    for v in names:
        d = domains[v]
        if v in in_extra or not _smooth_in(a, b, v) or left(deadline) <= 0.3:
            continue
        dg = _derivative(g, v, min(1.0, left(deadline) / 4))
        if dg is None:
            continue
        s = _seen_sign(dg, pts)
        side, e, closed = ("lo", d.lo, d.lo_closed) if s == 1 else ("hi", d.hi, d.hi_closed)
        if s is None or e is None or not closed:
            continue
        out = _one(a, rel, b, g, dg, v, side, e, domains, extra, decide_real, decide_relation, deadline)
        if out is not None:
            return out
    return None


def _one(a, rel, b, g, dg, v, side, e, domains, extra, decide_real, decide_relation, deadline):
    share = max(0.3, 0.7 * left(deadline))
    from .cases import box_sign
    deriv = dg if side == "lo" else Mul((_MINUS, dg))
    if box_sign(deriv, {n: domains[n] for n in sorted(g.symbols())}) not in (0, 1) and decide_real(
            deriv, ">=", dict(domains), list(extra), share) is not Verdict.PROVED:
        return None
    if not _smooth(g, dg, dict(domains), list(extra), decide_real, max(0.2, left(deadline) / 6)):
        return None
    at = {v: Num(e)}
    fa, fb = substitute(a, at), substitute(b, at)
    rest = {n: dom for n, dom in domains.items() if n != v}
    face = decide_relation(fa, rel, fb, rest, list(extra), max(0.3, left(deadline)))
    how = (f"d/d{v} of the difference {'>=' if side == 'lo' else '<='} 0, so its least value is at "
           f"{v} = {e}; there: {face.text}")
    if face.verdict is Verdict.PROVED:
        return Monotone(v, e, side, how, certificate=face.certificate, derivative=dg)
    if face.verdict is Verdict.DISPROVED and face.counterexample:
        return Monotone(v, e, side, how, point={**face.counterexample, v: str(e)})
    return None
