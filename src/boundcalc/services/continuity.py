"""Continuity of an expression in one variable on a region, decided by :mod:`.decide`.

A sign of the derivative proves monotonicity on an interval only if the function is also
continuous there (tan' > 0 everywhere it is defined, yet tan(1.5) > tan(2)). The candidate
breaks come from :func:`boundcalc.expr.singularities.breaks` (poles of ``1/g`` and ``tan``,
ends of the definedness of ``log``/``sqrt``/fractional powers, ``floor``/``ceil`` jumps);
each is shown absent on the region by the decision procedure: ``g != 0`` as ``g > 0`` or
``g < 0``, ``g > 0`` and ``g >= 0`` as stated — or, for an end of definedness ``g > 0`` /
``g >= 0`` with g monotone in the variable alone (:func:`.trend.trend`), by noting that f is
then defined on one interval (log(x - 3) on x > 0: no gap; the caller decides the derivative
only where f is defined). A ``floor``/``ceil`` jump is absent only
if the function is constant over a bounded region (ball arithmetic). The region is given by
the symbols' domains (a box is a domain with closed ends). Anything not shown stays open:
the caller must not call the function monotone on the region on the strength of the
derivative alone (:mod:`.monotone` then looks for a certified pair of points across it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import BoundcalcError
from ..expr.domains import Domain
from ..expr.nodes import Node, Num
from ..expr.singularities import Condition, breaks
from ..verdicts import Verdict

SECONDS = 1.5            # per condition; conditions are usually settled by structure or SMT at once


@dataclass
class Continuity:
    """Whether an expression is continuous in a variable on a region: ``ok`` when every
    break condition was shown absent (``shown``); ``open`` lists those that were not."""
    ok: bool
    shown: list[str] = field(default_factory=list)     # conditions proved on the region
    open: list[Condition] = field(default_factory=list)

    def text(self) -> str:
        """One line for the verdict's detail."""
        from ..expr.printing import to_text as show
        if self.ok:
            return ("continuous on the region" + (": " + "; ".join(self.shown) if self.shown else
                                                   " (no pole, jump or end of definedness involves it)"))
        return "continuity not established: " + "; ".join(
            f"{show(c.where)} ({c.reason} where {show(c.expr)} {_fails(c.op)})" for c in self.open)


def _fails(op: str) -> str:
    return {">": "<= 0", ">=": "< 0", "!=": "= 0", "jump": "crosses an integer"}[op]


def continuity(node: Node, var: str, domains: dict[str, Domain], *, seconds: float = SECONDS) -> Continuity:
    """Is ``node`` continuous in ``var`` at every point of ``domains`` (all symbols ranging
    over their domains)? Sound: ``ok`` only when every candidate break is shown absent."""
    from ..expr.printing import to_text as show
    from ..prover.decide import decide_relation, structural_sign
    out = Continuity(True)
    zero = Num(Fraction(0))
    for c in breaks(node, var):
        doms = {n: domains[n] for n in c.expr.symbols() if n in domains}
        if c.op == "jump":
            if _constant_on_box(c.where, doms):
                out.shown.append(f"{show(c.where)} is constant on the region")
            else:
                out.open.append(c)
            continue
        ss = structural_sign(c.expr, doms)
        if ss == "positive" or (ss == "nonnegative" and c.op == ">="):
            out.shown.append(f"{show(c.expr)} {'>' if ss == 'positive' else '>='} 0 (structure)")
            continue
        if c.op in (">", ">=") and c.expr.symbols() == {var} and var in domains:
            # an end of definedness, not a pole: where g is monotone in var, {g > 0} is an
            # interval, so f stays defined (and continuous) on one interval — no gap
            from .trend import trend
            if trend(c.expr, var, {}, domains[var]) in (1, -1):
                out.shown.append(f"{{{show(c.expr)} {c.op} 0}} is an interval ({show(c.expr)} is monotone "
                                 f"in {var}: f is defined on one interval, no gap)")
                continue
        tries = [(">", c.expr, zero), ("<", c.expr, zero)] if c.op == "!=" else [(c.op, c.expr, zero)]
        done = False
        for rel, a, b in tries:
            try:
                r = decide_relation(a, rel, b, dict(doms), seconds=seconds, samples=200)
            except BoundcalcError:
                break
            if r.verdict is Verdict.PROVED:
                out.shown.append(f"{show(a)} {rel} 0 ({r.layer})")
                done = True
                break
        if not done:
            out.open.append(c)
    out.ok = not out.open
    return out


def _constant_on_box(node: Node, domains: dict[str, Domain]) -> bool:
    """``node`` takes one value on a bounded box (a floor/ceil whose argument stays between
    two integers), shown by ball arithmetic."""
    from ..backends import arb as A
    env = {}
    for n, d in domains.items():
        if d.lo is None or d.hi is None:
            return False
        env[n] = (d.lo, d.hi)
    try:
        lo, hi = A.enclose_interval(node, env, prec=128)
    except (A.Undefined, A.Unresolved, A.TooLarge):
        return False
    return lo == hi


def continuity_radius(node: Node, var: str, env: dict, *, start: Fraction = Fraction(1, 1000),
                      floor: Fraction = Fraction(1, 10 ** 300)) -> Fraction | None:
    """A radius r <= ``start`` such that ``node`` is continuous in ``var`` on [x0 - r, x0 + r]
    (x0 = ``env[var]``, the other symbols at their values in ``env``), within a factor 16 of
    the largest one this search can certify; None if even ``floor`` is not certified (the
    point is at, or too close to, a pole, a jump or an end of definedness). Every candidate
    break of :func:`boundcalc.expr.singularities.breaks` is shown absent on the interval in
    ball arithmetic, the same conditions :func:`continuity` proves symbolically."""
    from ..backends import arb as A
    conds = breaks(node, var)
    x0 = Fraction(env[var])
    r = Fraction(start)
    while r >= floor:
        box = dict(env)
        box[var] = (x0 - r, x0 + r)
        prec = 64 + max(0, (abs(x0) + 1).numerator.bit_length() - (abs(x0) + 1).denominator.bit_length()
                        + r.denominator.bit_length() - r.numerator.bit_length())
        if all(_holds_on(c, box, prec, A) for c in conds):
            return r
        r /= 16
    return None


def _holds_on(c: Condition, box: dict, prec: int, A) -> bool:
    try:
        if c.op == "jump":
            lo, hi = A.enclose_interval(c.where, box, prec=prec)
            return lo == hi
        lo, hi = A.enclose_interval(c.expr, box, prec=prec)
    except (A.Undefined, A.Unresolved, A.TooLarge):
        return False
    if c.op == ">":
        return lo > 0
    if c.op == ">=":
        return lo >= 0
    return lo > 0 or hi < 0
