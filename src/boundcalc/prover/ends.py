"""Ends layer of the decision procedure: one-variable goals ``g(x) op 0`` (op ``>=`` or
``>``) whose difficulty sits at an end of the domain — an end at infinity where both sides
tend to the same limit, an open end, or an end where both sides touch to some order. Plain
and Taylor enclosures cannot close a piece at such an end; a derivative argument can.

The domain ``I`` of ``x`` is cut into at most three pieces: a piece ``L`` at the lower end
``a``, a middle piece ``M`` (closed and bounded), a piece ``R`` at the upper end ``b``. An
end whose value ``g(e)`` is certainly of the goal's sign (ball arithmetic, closed finite
end) needs no piece; each other end's piece is closed by ONE of these arguments:

* **Taylor at the end** (finite end ``e`` where ``g`` is smooth): ``g(e) = g'(e) = ... =
  g^(k-1)(e) = 0`` in exact arithmetic (SymPy) and the enclosure of ``g^(k)`` over the whole
  closed piece has the sign that makes ``g(x) = g^(k)(xi) (x - e)^k / k!`` (Taylor's theorem
  with Lagrange's remainder, ``xi`` between ``e`` and ``x``) positive at every ``x != e`` of
  the piece. Every definedness condition of ``g, g', ..., g^(k)`` holds strictly on the
  closed piece (one enclosure each), so ``g`` is ``C^k`` there.
* **Monotone to the inner point** ``c`` (a point of the domain): ``g'`` has the sign that
  puts the smallest value of ``g`` on the piece at ``c`` (proved by the real layers on the
  piece), and ``g(c)`` has the goal's sign (ball arithmetic).
* **Monotone to the end** ``e``: ``g'`` has the sign that makes ``g`` decrease towards ``e``
  (proved by the real layers on the piece), so ``g > v`` on the piece, where ``v`` is
  ``g(e)`` (ball arithmetic, where ``g`` is defined at a finite ``e``: our smooth functions
  are continuous where defined) or the limit of ``g`` at ``e`` — computed by SymPy's
  ``limit`` (the Gruntz algorithm) and cross-checked in ball arithmetic: ``g`` at points of
  the piece approaching ``e`` (the grid's nearest, and balls far beyond the grid, at
  exp(+-2^k)) must not lie below it, and must be seen approaching it (the distance shrinks
  :data:`CORROBORATE`-fold across the piece's sample points). ``v >= 0`` proves ``>=``;
  ``>`` needs ``v > 0``, or ``v = 0`` exactly with ``g'`` proved strictly signed and ``e``
  not a point of the domain (``g(e) = 0`` at a closed end fails ``>`` there). The verdict names
  SymPy's limit: it is the one result here that is not certified.

In the two monotone arguments every definedness condition of ``g`` and ``g'`` is proved
STRICTLY on the piece (its open end excluded), so ``g`` is continuously differentiable on
it and the mean value theorem applies; only smooth functions and powers occur
(:data:`..expr.singularities.SMOOTH_FUNCTIONS`; no abs, min, max, floor, ceil). The middle
piece and every sign of ``g'`` are decided by the real layers (the orchestrator's callback:
a recursive decision, each layer under its own contract); this layer runs inside those
sub-decisions at most :data:`MAX_DEPTH` deep. Numerical sampling (ball midpoints) only
chooses the cut points and the argument; it proves nothing.

Soundness contract: "proved" only when the pieces cover the domain (relaxed to the reals)
and each piece is closed by one of the arguments above, every sub-goal proved. This layer
never disproves; on any failure it returns None and the goal falls through unchanged.
Budget: the caller's seconds of work (:func:`.budget.clock`), shared among the sub-goals; SymPy under ``time_limit``
and a size guard.
"""
from __future__ import annotations

import contextvars
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..expr.domains import Domain
from ..expr.nodes import Func, Mul, Node, Num
from ..verdicts import Verdict
from .budget import Timeout, charge_nodes, clock, left, sympy_safe, time_limit

__all__ = ["MAX_DEPTH", "Piece", "applies", "prove_ends"]

MAX_DEPTH = 2            # ends layers nested in the sub-goals of an ends layer
MAX_TAYLOR = 6           # highest derivative order tried at a touching end
MAX_OPS = 400            # SymPy: derivatives larger than this (count_ops) are not used
SIMPLIFY_OPS = 60        # exact values at an end: simplified only when this small
PREC = 96
CORROBORATE = 16         # a limit is used only if g is seen this much closer to it near the end
_depth: contextvars.ContextVar[int] = contextvars.ContextVar("ends_depth", default=0)
_MINUS = Num(Fraction(-1))


def applies(g: Node, op: str, domains: dict[str, Domain], extra) -> str | None:
    """The one symbol of ``g`` when this layer may run on ``g op 0``, else None: ``op`` is
    ``>=`` or ``>``, no assumptions, one symbol, smooth functions only, not nested deeper
    than :data:`MAX_DEPTH`."""
    from ..expr.singularities import SMOOTH_FUNCTIONS, is_smooth_language
    if op not in (">=", ">") or extra or _depth.get() >= MAX_DEPTH:
        return None
    names = g.symbols()
    if len(names) != 1:
        return None
    if not is_smooth_language(g) or any(isinstance(n, Func) and n.name not in SMOOTH_FUNCTIONS
                                        for n in g.unique_nodes()):
        return None
    if sympy_safe(g) is not None:
        return None
    return next(iter(names))


@dataclass
class _Ctx:
    g: Node
    op: str
    name: str
    dom: Domain
    decide_real: Callable[..., Verdict]
    deadline: float
    ders: list                 # [g, g', g'', ...] as trees, filled lazily
    sym: Any = None            # SymPy's expressions, same order
    sx: Any = None             # SymPy's symbol
    used: list = field(default_factory=list)   # the pieces of the proof (:class:`Piece`), for its certificate

    def left(self) -> float:
        return left(self.deadline)


def prove_ends(g: Node, op: str, domains: dict[str, Domain], extra, decide_real, *,
               seconds: float, pieces: list | None = None) -> str | None:
    """A proof of ``g op 0`` on ``domains`` by cutting off its ends (module docstring): the
    verdict's text, or None. ``decide_real(goal, op, doms, extra, seconds) -> verdict``
    decides a sub-goal by the real layers. ``pieces``: a list the proof's pieces
    (:class:`Piece`) are appended to, for its certificate."""
    name = applies(g, op, domains, extra)
    if name is None:
        return None
    d = domains[name]
    dom = Domain(False, d.lo, d.lo_closed, d.hi, d.hi_closed)
    token = _depth.set(_depth.get() + 1)
    try:
        ctx = _Ctx(g, op, name, dom, decide_real, clock() + seconds, [g])
        how = _prove(ctx)
        if how is not None and pieces is not None:
            pieces += ctx.used
        return how
    except Timeout:
        return None
    finally:
        _depth.reset(token)


# ----------------------------------------------------------------------------- helpers
def _ball(node: Node, env, prec: int = PREC):
    from ..backends import arb as A
    charge_nodes(node)
    try:
        return A.enclose(node, env, prec=prec)
    except (A.Undefined, A.Unresolved, A.TooLarge, ZeroDivisionError, ValueError):
        return None


def _point_sign(node: Node, env) -> int | None:
    """The certified sign of ``node`` at a point, the precision raised while the ball
    straddles 0 (cancellation far out on an infinite domain)."""
    for prec in (PREC, 256, 1024):
        b = _ball(node, env, prec)
        if b is None:
            return None
        s = _sign(b)
        if s is not None:
            return s
    return None


def _sign(b) -> int | None:
    """+1 / -1 when the ball certainly has that sign, else None."""
    if b is None:
        return None
    if b.lower() > 0:
        return 1
    if b.upper() < 0:
        return -1
    return None


def _deriv(ctx: _Ctx, k: int) -> Node | None:
    """The k-th derivative of g as a tree (SymPy, exact), or None (budget, size, language)."""
    while len(ctx.ders) <= k:
        try:
            from ..backends.sym import from_sympy, to_sympy
            from ..backends.sympy_import import sympy as sp
            with time_limit(max(0.2, min(1.0, ctx.left() / 4))):
                if ctx.sym is None:
                    ctx.sx = sp.Symbol(ctx.name, real=True)
                    ctx.sym = [to_sympy(ctx.g, {ctx.name: ctx.sx})]
                e = sp.diff(ctx.sym[-1], ctx.sx)
                if sp.count_ops(e) > MAX_OPS:
                    return None
                ctx.sym.append(e)
                ctx.ders.append(from_sympy(e))
        except (Timeout, Exception):
            return None
    return ctx.ders[k]


def _exactly_zero(ctx: _Ctx, k: int, at: Fraction) -> bool:
    """g^(k)(at) == 0 in exact arithmetic (SymPy)."""
    try:
        from ..backends.sympy_import import sympy as sp
        with time_limit(max(0.2, min(1.0, ctx.left() / 4))):
            v = ctx.sym[k].subs(ctx.sx, sp.Rational(at.numerator, at.denominator))
            if v.is_zero is None and sp.count_ops(v) <= SIMPLIFY_OPS:
                v = sp.simplify(v)
            return v.is_zero is True
    except (Timeout, Exception):
        return False


def _grid(dom: Domain) -> list[Fraction]:
    """Candidate cut points inside the domain, ascending: geometric towards each end and a
    few in between (exact rationals)."""
    a, b = dom.lo, dom.hi
    pts: set[Fraction] = set()
    if a is not None and b is not None:
        w = b - a
        for j in range(1, 25):
            pts.add(a + w / 2 ** j)
            pts.add(b - w / 2 ** j)
        pts.update(a + w * Fraction(k, 16) for k in range(1, 16))
    elif a is not None:
        pts.update(a + Fraction(2) ** j for j in range(-24, 61))
        pts.update(a + Fraction(k, 4) for k in range(1, 16))
    elif b is not None:
        pts.update(b - Fraction(2) ** j for j in range(-24, 61))
        pts.update(b - Fraction(k, 4) for k in range(1, 16))
    else:
        pts.update(s * Fraction(2) ** j for j in range(-24, 61) for s in (1, -1))
        pts.add(Fraction(0))
    return sorted(p for p in pts if dom.contains(p))


def _show(q: Fraction | None, sign: int = 1) -> str:
    if q is None:
        return "∞" if sign > 0 else "-∞"
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _interval(d: Domain) -> str:
    return (("[" if d.lo_closed else "(") + _show(d.lo, -1) + ", " + _show(d.hi, 1)
            + ("]" if d.hi_closed else ")"))


def _sub(ctx: _Ctx, goal: Node, op: str, dom: Domain, share: float) -> bool:
    if ctx.left() <= 0.05:
        return False
    return ctx.decide_real(goal, op, {ctx.name: dom}, [], max(0.2, min(share, ctx.left()))) is Verdict.PROVED


def _smooth_on(ctx: _Ctx, nodes: list[Node], dom: Domain, share: float) -> bool:
    """Every definedness condition of ``nodes`` holds strictly on ``dom``: by one enclosure
    over the closed piece where it is bounded, else by the real layers."""
    from ..expr.singularities import definedness
    conds = []
    for n in nodes:
        conds += definedness(n)
    box = None
    if dom.lo is not None and dom.hi is not None:
        box = {ctx.name: (dom.lo, dom.hi) if dom.lo != dom.hi else dom.lo}
    seen = set()
    for c in conds:
        key = (c.expr, c.op)
        if key in seen:
            continue
        seen.add(key)
        if c.op not in (">", ">=", "!="):
            return False
        if (box is not None or not c.expr.symbols()) and _strict_on(c, box):
            continue
        if not c.expr.symbols():
            return False
        if _sub(ctx, c.expr, ">", dom, share):
            continue
        if c.op == "!=" and _sub(ctx, Mul((_MINUS, c.expr)), ">", dom, share):
            continue
        return False
    return True


# ----------------------------------------------------------------------------- ends
@dataclass
class Piece:
    """A piece of a proof, for its certificate: ``by`` "taylor" (``ders``: g, g', ...,
    g^(k), k = len - 1, the sign ``want`` of g^(k) over the closed piece, ``at`` the end
    "lo"/"hi" of the piece where g and its first k - 1 derivatives vanish), "monotone" (the
    ``slope``, g' or -g', proved >= 0 (> 0: ``strict``) on ``dom``; ``least``: where g is
    least, ("cut", c), ("point", e) with g(e) > 0 or ("zero", e) with g(e) = 0 exactly, or
    ("limit", e, L) for SymPy's limit L at the end e, None at infinity) or "middle" (g op 0
    on ``dom`` by the real layers)."""
    by: str
    dom: Domain
    ders: list = field(default_factory=list)
    want: int = 1
    at: str = "lo"
    slope: Node | None = None
    strict: bool = False
    least: tuple | None = None
    direction: int = 1           # slope = direction * g': g least at the piece's lower end (1) or upper (-1)


@dataclass
class _Closed:
    """An end piece closed: the cut point (None: the piece is the whole domain) and how."""
    cut: Fraction | None
    how: str
    piece: Piece | None = None


def _prove(ctx: _Ctx) -> str | None:
    dom = ctx.dom
    grid = _grid(dom)
    if len(grid) < 3:
        return None
    d1 = _deriv(ctx, 1)
    if d1 is None:
        return None
    signs = [_point_sign(d1, {ctx.name: p}) for p in grid]
    if None not in signs and len(set(signs)) == 1:
        # g' keeps one sign on the whole grid: one monotone argument towards the end where
        # g is smallest may cover the domain
        out = _monotone(ctx, "lo" if signs[0] == 1 else "hi", dom.lo if signs[0] == 1 else dom.hi, grid, signs)
        if out is not None and out.cut is None:
            ctx.used = [out.piece]
            return out.how
    pieces: list[str] = []
    lo_cut, hi_cut = dom.lo, dom.hi          # the middle piece's ends (closed: a cut, or a
                                             # closed end where g > 0)
    for side in ("lo", "hi"):
        e = dom.lo if side == "lo" else dom.hi
        e_closed = dom.lo_closed if side == "lo" else dom.hi_closed
        if e is not None and e_closed:
            s = _sign(_ball(ctx.g, {ctx.name: e}))
            if s == 1:
                continue                      # g(e) > 0: the middle piece may reach e
        out = _end(ctx, side, grid, signs)
        if out is None:
            return None
        pieces.append(out.how)
        ctx.used.append(out.piece)
        if out.cut is None:                   # one monotone argument covers the domain
            ctx.used = [out.piece]
            return out.how
        if side == "lo":
            lo_cut = out.cut
        else:
            hi_cut = out.cut
    if not pieces:
        return None                           # nothing at the ends: not this layer's goal
    if lo_cut is not None and hi_cut is not None and lo_cut >= hi_cut:
        return "; ".join(pieces)   # the end pieces overlap: no middle
    if lo_cut is None or hi_cut is None:
        return None
    mid = Domain(False, lo_cut, True, hi_cut, True)
    if not _sub(ctx, ctx.g, ctx.op, mid, ctx.left()):
        return None
    ctx.used.append(Piece("middle", mid))
    pieces.append(f"g {ctx.op} 0 on the middle piece {_interval(mid)} by the real layers")
    return "; ".join(pieces)


def _end(ctx: _Ctx, side: str, grid: list[Fraction], signs: list) -> _Closed | None:
    """Close the piece at the lower (``side='lo'``) or upper end."""
    dom = ctx.dom
    e = dom.lo if side == "lo" else dom.hi
    if e is not None:
        t = _taylor(ctx, side, e, grid)
        if t is not None:
            return t
    return _monotone(ctx, side, e, grid, signs)


def _taylor(ctx: _Ctx, side: str, e: Fraction, grid: list[Fraction]) -> _Closed | None:
    """Taylor at the finite end ``e``: the first derivative not exactly 0 at ``e`` has,
    over the whole piece, the sign that makes g positive away from ``e``."""
    dom = ctx.dom
    env = {ctx.name: e}
    k = None
    for j in range(MAX_TAYLOR + 1):
        dj = _deriv(ctx, j)
        if dj is None:
            return None
        b = _ball(dj, env)
        if b is None:
            return None                       # g^(j) has no value at e: no Taylor there
        s = _sign(b)
        # at the upper end (x - e)^j < 0 for odd j: the sign needed flips
        want = 1 if side == "lo" or j % 2 == 0 else -1
        if s is not None:
            if s != want:
                return None
            k = j
            break
        if not _exactly_zero(ctx, j, e):
            return None
    if k is None:
        return None
    if k >= 1 and ctx.op == ">" and _end_in_domain(dom, side):
        return None                           # g(e) = 0 at a point of the domain
    want = 1 if side == "lo" or k % 2 == 0 else -1
    nodes = [ctx.ders[j] for j in range(k + 1)]
    inner = grid if side == "lo" else grid[::-1]
    best = None
    for p in inner[:40]:
        box = {ctx.name: (e, p) if side == "lo" else (p, e)}
        b = _ball(ctx.ders[k], box)
        if _sign(b) != want or not _smooth_box(nodes, box):
            break
        best = p
    if best is None:
        return None
    piece = (Domain(False, e, dom.lo_closed, best, True) if side == "lo"
             else Domain(False, best, True, e, dom.hi_closed))
    if k == 0:
        how = f"g > 0 on {_interval(piece)} (one enclosure)"
    else:
        vanish = "g = 0" if k == 1 else f"g and its derivatives up to order {k - 1} = 0"
        dk = "g'" if k == 1 else f"g^({k})"
        how = (f"Taylor at {ctx.name} = {_show(e)}: {vanish} there exactly, "
               f"{dk} {'>' if want > 0 else '<'} 0 on {_interval(piece)}")
    return _Closed(best, how, Piece("taylor", piece, list(nodes), want, side))


def _far_points(e: Fraction | None, side: str) -> list:
    """Balls inside the end piece far closer to the end ``e`` than the grid reaches (with
    the precision to evaluate there): exp(2^k) towards infinity, e + exp(-2^k) towards a
    finite end (k up to 64 and 14). A ball may reach past the end: it only ever refuses."""
    from ..backends import arb as A
    out = []
    sign = 1 if side == "lo" else -1           # the direction into the piece
    for k in ((7, 10, 14) if e is not None else (7, 14, 20, 40, 64)):
        prec = PREC + (2 ** (k + 1) if e is not None else 0)   # exp(-2^k) = 2^(-1.44 * 2^k)
        with A.precision(prec):
            t = A.arb(2 ** k).exp()
            out.append(((A.ball(e) + sign * (1 / t)) if e is not None else -sign * t, prec))
    return out


def _end_in_domain(dom: Domain, side: str) -> bool:
    """Whether the lower (``side='lo'``) or upper end of ``dom`` is a point of it (finite
    and closed): where ``g`` vanishes there, ``g > 0`` fails at that point."""
    e, closed = (dom.lo, dom.lo_closed) if side == "lo" else (dom.hi, dom.hi_closed)
    return e is not None and closed


def _strict_on(c, box) -> bool:
    """The definedness condition ``c`` certainly holds strictly over ``box`` (one enclosure)."""
    s = _sign(_ball(c.expr, box if c.expr.symbols() else {}))
    return s == 1 or (s == -1 and c.op == "!=")


def _smooth_box(nodes: list[Node], box) -> bool:
    from ..expr.singularities import definedness
    return all(_strict_on(c, box) for n in nodes for c in definedness(n))


def _monotone(ctx: _Ctx, side: str, e: Fraction | None, grid: list[Fraction], signs: list) -> _Closed | None:
    """A monotone argument on the piece at the end ``e`` (None: infinite)."""
    dom = ctx.dom
    order = list(range(len(grid))) if side == "lo" else list(range(len(grid)))[::-1]
    s0 = signs[order[0]]
    if s0 is None:
        return None
    run = 0
    while run < len(order) and signs[order[run]] == s0:
        run += 1
    whole = run == len(order)
    cut = None if whole else grid[order[max(0, run - 2)]]
    # g decreasing towards the end (its infimum there): lower end and g' > 0, upper end and g' < 0
    to_end = (s0 == 1) == (side == "lo")
    # g' is needed inside the piece only (the mean value theorem on [e, x], g continuous at a
    # finite end e where it is defined): the sub-goals see the piece open at the domain's
    # ends, so a derivative undefined at e (sqrt at 0) does not stop them; the cut is in it
    if whole:
        piece = Domain(False, dom.lo, False, dom.hi, False)
    elif side == "lo":
        piece = Domain(False, dom.lo, False, cut, True)
    else:
        piece = Domain(False, cut, True, dom.hi, False)
    share = ctx.left() / 4
    d1 = ctx.ders[1]
    slope = d1 if s0 == 1 else Mul((_MINUS, d1))
    sym = ">=" if s0 == 1 else "<="
    if to_end:
        v = _end_value(ctx, side, e, grid, order[:run])
        if v is None:
            return None
        value, vtext, zero, least = v
        if ctx.op == ">" and zero and _end_in_domain(dom, side):
            return None                       # g(e) = 0 at a point of the domain: ">" fails there
        strict = ctx.op == ">" and zero
        if ctx.op == ">" and not zero and not value > 0:
            return None
        if not _smooth_on(ctx, [ctx.g, d1], piece, share):
            return None
        # the sign of g' is the argument's hard part: most of what is left (a quick proof
        # leaves the rest to the middle piece)
        if not _sub(ctx, slope, ">" if strict else ">=", piece, 0.75 * ctx.left()):
            return None
        how = (f"g' {sym[0]}{'' if strict else '='} 0 on {_interval(piece)}, so g {'>' if strict else '>='} "
               f"{vtext} there")
        return _Closed(cut, how, Piece("monotone", piece, [ctx.g, d1], slope=slope, strict=strict, least=least,
                                       direction=s0))
    # g decreasing towards the inner point: its smallest value is at the cut
    if whole:
        return None                           # no inner point: the other end's argument
    s = _sign(_ball(ctx.g, {ctx.name: cut}))
    if s != 1:
        return None
    if not _smooth_on(ctx, [ctx.g, d1], piece, share):
        return None
    if not _sub(ctx, slope, ">=", piece, 0.75 * ctx.left()):
        return None
    return _Closed(cut, f"g' {sym} 0 on {_interval(piece)} and g({_show(cut)}) > 0",
                   Piece("monotone", piece, [ctx.g, d1], slope=slope, least=("cut", cut), direction=s0))


def _end_value(ctx: _Ctx, side: str, e: Fraction | None, grid: list[Fraction], idx: list[int]):
    """(lower bound of v, its text, v == 0 exactly) for the infimum v of g at the end ``e``:
    g(e) where g is defined there, else SymPy's limit, cross-checked; None if not >= 0."""
    if e is not None:
        b = _ball(ctx.g, {ctx.name: e})
        if b is not None:
            if _sign(b) == 1:
                return b.lower(), f"g({_show(e)}) > 0", False, ("point", e)
            if _exactly_zero(ctx, 0, e):
                return 0, f"g({_show(e)}) = 0", True, ("zero", e)
            return None
    try:
        from ..backends.sym import from_sympy
        from ..backends.sympy_import import sympy as sp
        lnode: Node
        point = (sp.oo if side == "hi" else -sp.oo) if e is None else sp.Rational(e.numerator, e.denominator)
        from .budget import can_interrupt
        from .symbolic import finite_limit
        if not can_interrupt():
            return None                       # SymPy's limit has no size bound: not where no timer can stop it
        with time_limit(max(0.3, min(2.0, ctx.left() / 3))):
            lim = finite_limit(ctx.sym[0], ctx.sx, point, "+" if side == "lo" else "-")
        if lim is None:
            return None
        if lim.is_zero is True:
            lnode, zero = Num(Fraction(0)), True
        else:
            lnode, zero = from_sympy(lim), False
    except (Timeout, Exception):
        return None
    lb = _ball(lnode, {})
    if lb is None or (not zero and _sign(lb) != 1):
        return None
    # cross-check: g on the piece must not lie below its infimum at the end (at the grid
    # points nearest the end, and at balls far beyond the grid: a slowly converging g such
    # as 1/log(x) - 1/100 drops below a wrong limit 0 only beyond e^100), and g must be seen
    # approaching it: from the run's far point to its point nearest the end, the distance to
    # the claimed limit shrinks at least CORROBORATE-fold
    if len(idx) < 4:
        return None
    for pt, prec in [(grid[i], PREC) for i in idx[:10]] + _far_points(e, side):
        gb = _ball(ctx.g, {ctx.name: pt}, prec)
        if gb is not None and gb.upper() < lb.lower():
            return None
    import flint
    near, far = (_ball(ctx.g, {ctx.name: grid[i]}, 256) for i in (idx[0], idx[-1]))
    if near is None or far is None:
        return None
    if not abs(near - lb).upper() * CORROBORATE <= abs(far - lb).lower() + flint.arb("1e-30"):
        return None
    where = _show(e, 1 if side == "hi" else -1)
    return ((0 if zero else lb.lower()), f"its limit {lim} at {where} (SymPy's limit, Gruntz)", zero,
            ("limit", e, lnode))
