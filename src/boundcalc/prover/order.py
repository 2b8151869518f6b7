"""Goals under an order assumption ``x <= y`` reduced to the diagonal ``x = y`` (issue 36).

A two-variable theorem stated for ``x >= y`` (the logarithmic mean against the geometric
and arithmetic means, the mean value theorem for atan, ``sin(x)/x`` decreasing) has a
difference ``g`` that vanishes on the diagonal and no closed face the monotonicity layer
may use (both symbols occur in an assumption). For an assumption ``lo <= hi`` (or ``<``,
``>=``, ``>``; two real symbols) this layer moves one of the two symbols to the other:

* **A**, ``hi`` down to ``lo``: if ``dg/dhi >= 0`` wherever the assumptions hold, then for
  every point ``g(lo, hi) >= g(lo, lo)``;
* **B**, ``lo`` up to ``hi``: if ``dg/dlo <= 0`` there, then ``g(lo, hi) >= g(hi, hi)``;

and the goal follows from the *diagonal goal* ``g`` with the moving symbol replaced by the
fixed one, in one symbol fewer (``>`` too: ``g >= g|diag > 0``). The argument is the mean
value theorem on the segment from the fixed symbol's value to the moving one's, the other
symbols held: every point of it must lie where the derivative's sign was proved. So the
layer applies only when

* the fixed symbol's domain lies inside the moving one's (the segment stays in the moving
  symbol's interval);
* every other assumption that mentions the moving symbol ``m`` is a bound ``m <= K`` /
  ``m < K`` (``K`` free of symbols) that the segment keeps (in A the segment lies below
  ``m``; in B, ``m >= K`` / ``m > K``, the segment lies above), or a bound the segment may
  break whose copy with the fixed symbol in place of ``m`` is also assumed (in A, ``m >= K``
  with ``lo >= K`` assumed: the segment lies above ``lo``); no other assumption mentions
  ``m``. The segment's points then satisfy every assumption (the order one too, strictly
  except perhaps at the diagonal end, which the mean value theorem does not need);
* every function of ``g`` whose argument contains ``m`` is smooth
  (:func:`.monotone._smooth_in`), and every definedness condition of ``g`` and of
  ``dg/dm`` holds strictly on the domains under the assumptions without the order one
  (:func:`.monotone._smooth`, on a set that contains the whole closed segment).

Sub-goals, each decided by the decision procedure again: the **derivative** ``dg/dm >= 0``
(A) or ``-dg/dm >= 0`` (B) as a "relation" sub-goal on the domains of its own symbols
under the assumptions that mention only those (a stronger statement than on the whole set:
fewer assumptions), and the **diagonal** goal ``a|m=f rel b|m=f`` on the other symbols'
domains under the other assumptions with ``m -> f`` (the order one dropped: it holds
there), as a "relation" sub-goal.

Soundness contract: "proved" only when the derivative, smoothness and diagonal sub-goals are
proved, under the conditions above, by the argument above. A counterexample of the
diagonal goal is returned as a candidate point only (the caller certifies it on the
original relation: a strict order assumption excludes the diagonal). On any failure None,
and the goal falls through unchanged. Nested at most :data:`MAX_DEPTH` deep. The proof's
certificate is a ``trusted`` one naming the argument, with the sub-goals' own certificates
under ``parts`` (the checker has no kind for this reduction).
"""
from __future__ import annotations

import contextvars
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from ..expr.domains import Domain
from ..expr.nodes import Mul, Node, Num, Rel, Sym, sub, substitute
from ..verdicts import Verdict
from .budget import clock, left

__all__ = ["MAX_DEPTH", "Ordered", "applies", "order_assumptions", "prove_order"]

MAX_DEPTH = 1
_MINUS = Num(Fraction(-1))
_FLIP = {"<=": ">=", "<": ">", ">=": "<=", ">": "<"}
_depth: contextvars.ContextVar[int] = contextvars.ContextVar("order_depth", default=0)


@dataclass
class Ordered:
    """A proof (``how``, the sub-goals' certificates) or a candidate counterexample (``point``)."""
    how: str
    point: dict | None = None
    certificates: tuple = ()


def _scaled_symbol(node: Node) -> tuple[str, Fraction] | None:
    """(name, c) when ``node`` is ``c*name`` (``name`` itself: c = 1; c a nonzero rational)."""
    if isinstance(node, Sym):
        return node.name, Fraction(1)
    if isinstance(node, Mul) and len(node.args) == 2:
        c, v = node.args
        if isinstance(c, Num) and isinstance(v, Sym) and c.value != 0:
            return v.name, c.value
    return None


def order_assumptions(extra, domains: dict[str, Domain]) -> list[tuple[Rel, str, str]]:
    """(assumption, lo, hi) for each assumption ``lo <= hi`` (``<``, ``>=``, ``>``) between
    two distinct real (not integer) symbols of ``domains``, each side the symbol times one
    same rational ``c`` (``-x <= -y`` is ``y <= x``: a case split's half ``v -> -v``)."""
    out = []
    for r in extra:
        if not (isinstance(r, Rel) and r.op in _FLIP):
            continue
        su, sv = _scaled_symbol(r.lhs), _scaled_symbol(r.rhs)
        if su is None or sv is None or su[1] != sv[1]:
            continue
        (u, c), (v, _) = su, sv
        if u == v or u not in domains or v not in domains or domains[u].integer or domains[v].integer:
            continue
        op = r.op if c > 0 else _FLIP[r.op]
        out.append((r, u, v) if op in ("<=", "<") else (r, v, u))
    return out


def applies(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra) -> bool:
    """An inequality, depth left, and an order assumption between two symbols of the goal."""
    if rel not in ("<=", "<", ">=", ">") or _depth.get() >= MAX_DEPTH:
        return False
    syms = Rel(rel, a, b).symbols()
    return any(lo in syms or hi in syms for _, lo, hi in order_assumptions(extra, domains))


def _inside(inner: Domain, outer: Domain) -> bool:
    """Whether the interval ``inner`` lies inside ``outer`` (both real)."""
    if outer.lo is not None and (inner.lo is None or inner.lo < outer.lo
                                 or (inner.lo == outer.lo and inner.lo_closed and not outer.lo_closed)):
        return False
    return not (outer.hi is not None and (inner.hi is None or inner.hi > outer.hi
                                          or (inner.hi == outer.hi and inner.hi_closed and not outer.hi_closed)))


def _bound(r: Rel, m: str) -> tuple[str, Node] | None:
    """("<=" | "<" | ">=" | ">", K) when ``r`` reads ``m op K`` with ``K`` free of symbols."""
    if isinstance(r.lhs, Sym) and r.lhs.name == m and not r.rhs.symbols():
        return r.op, r.rhs
    if isinstance(r.rhs, Sym) and r.rhs.name == m and not r.lhs.symbols() and r.op in _FLIP:
        return _FLIP[r.op], r.lhs
    return None


def segment_keeps(extra, order: Rel, m: str, f: str, down: bool) -> bool:
    """Whether every assumption but ``order`` holds on the segment from ``f`` to ``m`` (the
    other symbols held) wherever it holds at the ends: see the module docstring. ``down``:
    the segment lies below ``m`` (case A) rather than above it (case B)."""
    for r in extra:
        if r is order or m not in r.symbols():
            continue
        bd = _bound(r, m)
        if bd is None or bd[0] not in _FLIP:
            return False
        keeps = bd[0] in ("<=", "<") if down else bd[0] in (">=", ">")
        if keeps:
            continue
        copy = Rel(bd[0], Sym(f), bd[1])
        if not any(isinstance(s, Rel) and _bound(s, f) == (bd[0], bd[1]) for s in extra) and copy not in extra:
            return False
    return True


def _sample_sign(dg: Node, domains: dict[str, Domain], lo: str, hi: str, strict: bool) -> int | None:
    """The derivative's sign seen at sample points with ``lo <= hi`` (it only chooses)."""
    from .monotone import _points, _seen_sign
    names = sorted(set(domains))
    pts = [p for p in _points(domains, names) if p[lo] < p[hi] or (p[lo] == p[hi] and not strict)]
    return _seen_sign(dg, pts) if len(pts) >= 3 else None


def prove_order(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra: list, decide_real,
                decide_relation: Callable, *, seconds: float) -> Ordered | None:
    """A proof of ``a rel b`` by reduction to the diagonal of an order assumption (see the
    module docstring), a candidate counterexample of a diagonal goal, or None."""
    tok = _depth.set(_depth.get() + 1)
    try:
        return _prove(a, rel, b, domains, list(extra), decide_real, decide_relation, clock() + seconds)
    finally:
        _depth.reset(tok)


def _prove(a, rel, b, domains, extra, decide_real, decide_relation, deadline) -> Ordered | None:
    from .monotone import _derivative, _smooth_in
    g = sub(a, b) if rel in (">=", ">") else sub(b, a)
    syms = sorted(Rel(rel, a, b).symbols())
    doms = {n: domains[n] for n in syms if n in domains}
    if len(doms) != len(syms):
        return None
    for order, lo, hi in order_assumptions(extra, domains):
        strict = order.op in ("<", ">")
        for m, f, down in ((hi, lo, True), (lo, hi, False)):
            if left(deadline) <= 0.3:
                return None
            if m not in syms or not _inside(domains[f], domains[m]) or not _smooth_in(a, b, m):
                continue
            if not segment_keeps(extra, order, m, f, down):
                continue
            dg = _derivative(g, m, min(1.0, left(deadline) / 4))
            if dg is None:
                continue
            box = {n: domains[n] for n in sorted(set(syms) | {lo, hi})}
            if _sample_sign(dg, box, lo, hi, strict) != (1 if down else -1):
                continue
            out = _one(a, rel, b, g, dg, order, m, f, down, domains, extra, decide_real, decide_relation,
                       deadline)
            if out is not None:
                return out
    return None


def _one(a, rel, b, g, dg, order, m, f, down, domains, extra, decide_real, decide_relation, deadline):
    from .monotone import _smooth
    deriv = dg if down else Mul((_MINUS, dg))
    dsyms = deriv.symbols()
    d_doms = {n: domains[n] for n in sorted(dsyms)}
    d_extra = [r for r in extra if r.symbols() <= dsyms]
    share = max(0.3, 0.45 * left(deadline))
    d = decide_relation(deriv, ">=", Num(Fraction(0)), d_doms, d_extra, share)
    if d.verdict is not Verdict.PROVED:
        return None
    rest = [r for r in extra if r is not order]
    if not _smooth(g, dg, dict(domains), rest, decide_real, max(0.2, left(deadline) / 4)):
        return None
    at = {m: Sym(f)}
    fa, fb = substitute(a, at), substitute(b, at)
    f_extra = [substitute(r, at) for r in rest]
    f_extra = [r for r in f_extra if not (isinstance(r, Rel) and r.lhs == r.rhs and r.op in ("<=", ">=", "=="))]
    f_doms = {n: dom for n, dom in domains.items() if n != m}
    how = (f"under {order}: d/d{m} of the difference {'>=' if down else '<='} 0 ({d.text}), so its least "
           f"value is at {m} = {f}; there: ")
    if fa == fb and rel in ("<=", ">="):
        return Ordered(how + "both sides agree", certificates=(d.certificate,))
    face = decide_relation(fa, rel, fb, f_doms, f_extra, max(0.3, left(deadline)))
    how += face.text
    if face.verdict is Verdict.PROVED:
        return Ordered(how, certificates=(d.certificate, face.certificate))
    if face.verdict is Verdict.DISPROVED and face.counterexample:
        return Ordered(how, point={**face.counterexample, m: face.counterexample.get(f)})
    return None
