"""Interval layer of the decision procedure: branch-and-bound in arb ball arithmetic.

The domain box is split until on every piece the enclosure of the goal ``g`` (computed by
:func:`..backends.arb.enclose` over the whole piece) has the required sign, or the piece
certainly violates an assumption. Pruning with derivative signs: where ``dg/dx`` keeps one
sign on a piece (and ``x`` is in no assumption), the minimum of ``g`` lies on one face,
and the piece is replaced by that face — so a minimum attained at a corner or an edge is
proved exactly there instead of by endless splitting. At each split the midpoint is
evaluated: a midpoint where ``g`` certainly has the wrong sign is returned as a
counterexample (re-certified by the caller).

Unbounded symbols are compactified (``[a, oo)`` onto ``[0, 1)`` by ``x = a + t/(1 - t)``):
pieces that reach ``t = 1`` (x up to infinity) or an open end of the domain cannot be
enclosed in ball arithmetic; they are closed by the SMT layer on that piece alone (where
the tangent bounds are much tighter than on the whole domain), within a budget of calls. Equalities are never proved here (only constants are).
Taylor models (:mod:`.taylor`): where the plain enclosure and the mean-value form fail,
the second-order Taylor form (Hessian enclosed over the piece) bounds ``g`` below with an
overestimation that shrinks like the cube of the width; and on a small piece around a
rational point where ``g`` touches 0 (``g(x0) = 0``, ``grad g(x0) = 0``, both checked in
exact arithmetic, found by Newton's method) with a positive semidefinite Hessian
enclosure, ``g >= 0`` is proved from the derivatives (second-order condition). Soundness
contract: a piece is closed only by a rigorous enclosure or that exact local argument;
numerical searches only propose candidates.
Budget: a number of boxes and seconds of work (:func:`.budget.clock`: each box, and the SMT
calls' z3 resource counts), inside a CPU-time safety net (:func:`.budget.safety_net`).

Soundness contract: "proved" means every box of a cover of the (compactified) domain has a
certified sign of the goal in arb ball arithmetic (or was closed by the SMT layer, with
that layer's contract); "disproved" returns only a candidate point, which the caller
re-certifies before reporting; running out of boxes or work is "budget".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..expr.domains import Domain
from ..expr.nodes import Node, sub
from ..verdicts import IntervalStatus, SmtStatus
from .budget import INTERVAL_BOXES_PER_SECOND, charge, charge_nodes, clock, expired, safety_net

MAX_BOXES = 20000
MAX_TOUCH_TRIES = 12      # searches for a touching point per run (Newton + exact check)
TOUCH_WIDTH = Fraction(1, 8)   # boxes at most this wide (in x) are searched for one
MAX_SMT_CALLS = 24        # pieces closed by the SMT layer (tails, open ends) per run
SMT_MS = 400              # budget of each of those SMT calls (z3 rlimit, smt.RLIMIT_PER_MS)


@dataclass
class IntervalOutcome:
    """The interval layer's answer: its status, the boxes it used, and for ``disproved``
    a point where the goal has the wrong sign (re-certified by the caller)."""
    status: IntervalStatus
    boxes: int = 0
    point: dict | None = None
    taylor: int = 0             # boxes closed by the second-order Taylor form
    touching: list = field(default_factory=list)   # points where g = 0 was proved a local minimum

    def __post_init__(self):
        self.status = IntervalStatus(self.status)      # a misspelt status fails here


def _x_of(d: Domain, t: Fraction) -> Fraction | None:
    """Compactified coordinate t in [0, 1] -> x (None for t = 1 at an unbounded end)."""
    if d.lo is not None and d.hi is not None:
        return t
    if d.lo is not None:                       # [lo, oo)
        return None if t == 1 else d.lo + t / (1 - t)
    if d.hi is not None:                       # (-oo, hi]
        return None if t == 1 else d.hi - t / (1 - t)
    # (-oo, oo): t in [0, 1] -> x = (2t - 1)/(t (1 - t))
    return None if t in (0, 1) else (2 * t - 1) / (t * (1 - t))


def prove_interval(g: Node, op: str, domains: dict[str, Domain], extra=(), *, seconds: float = 2.0,
                   derivatives: bool = True, max_boxes: int = MAX_BOXES) -> IntervalOutcome:
    """Prove ``g op 0`` on the domains where ``extra`` holds by branch and bound in ball
    arithmetic, within ``max_boxes`` boxes and ``seconds`` of work (see the module docstring);
    ``derivatives=False`` skips the pruning by derivative signs (SymPy)."""
    # the CPU-time net of a decision (the caller's, inside one), at most that of the work
    # the boxes and SMT calls can take
    with safety_net(min(seconds, max_boxes / INTERVAL_BOXES_PER_SECOND + MAX_SMT_CALLS * SMT_MS / 1000)):
        return _prove_interval(g, op, domains, extra, seconds, derivatives, max_boxes)


def _prove_interval(g, op, domains, extra, seconds, derivatives, max_boxes) -> IntervalOutcome:
    from ..backends import arb as A
    if op == "==":
        return IntervalOutcome(IntervalStatus.SKIPPED)
    names = sorted(g.symbols() | set().union(*(r.symbols() for r in extra)) if extra else g.symbols())
    if not names:
        return IntervalOutcome(IntervalStatus.SKIPPED)
    # coordinates: bounded symbols in x itself, unbounded ones in t in [0, 1]
    box0 = {}
    for n in names:
        d = domains[n]
        box0[n] = (d.lo, d.hi) if d.lo is not None and d.hi is not None else (Fraction(0), Fraction(1))
    in_assumptions = set().union(*(r.symbols() for r in extra)) if extra else set()
    from . import taylor as TM
    dnodes, d2 = TM.derivatives(g, names) if derivatives else ({}, {})
    touch_tries = [0]
    touched: list[dict] = []
    n_taylor = [0]
    t0 = clock()                   # work, not time: the same boxes on any machine
    todo = [box0]
    closed = 0
    hyps = [(sub(r.lhs, r.rhs), r.op) for r in extra]

    def env_of(box):
        env = {}
        for n, (lo, hi) in box.items():
            d = domains[n]
            if d.lo is not None and d.hi is not None:
                env[n] = lo if lo == hi else (lo, hi)
            else:
                a, b = _x_of(d, lo), _x_of(d, hi)
                if a is None or b is None:
                    return None
                if a > b:
                    a, b = b, a
                env[n] = a if a == b else (a, b)
        return env

    smt_calls = [0]

    def smt_closes(box) -> bool:
        """Close a piece that ball arithmetic cannot enclose (it reaches infinity or an
        open end of the domain) with the SMT layer on that piece."""
        if smt_calls[0] >= MAX_SMT_CALLS or expired(t0 + seconds * 0.8):
            return False
        smt_calls[0] += 1
        from .smt import decide_smt
        doms = dict(domains)
        for n, (lo, hi) in box.items():
            d = domains[n]
            if d.lo is not None and d.hi is not None:
                doms[n] = _meet(d, lo, hi)
            else:
                a, b = _x_of(d, lo), _x_of(d, hi)
                lo_x, hi_x = (a, b) if d.lo is not None or d.hi is None else (b, a)
                doms[n] = _meet(d, lo_x, hi_x)
            if doms[n].is_empty():       # a piece outside the domain: SMT would hold vacuously
                return False
        r = decide_smt(g, op, doms, extra, timeout_ms=SMT_MS, want_model=False)
        return r.status is SmtStatus.PROVED

    while todo:
        if closed + len(todo) > max_boxes or expired(t0 + seconds):
            return IntervalOutcome(IntervalStatus.BUDGET, closed)
        charge(1 / INTERVAL_BOXES_PER_SECOND)
        box = todo.pop()
        env = env_of(box)
        edge = env is None or _touches_open_end(box, domains)
        if edge and smt_closes(box):
            closed += 1
            continue
        if env is not None:
            # assumptions certainly violated on the whole piece: nothing to prove there
            skip = False
            for h, hop in hyps:
                e = _enc(A, h, env)
                if e is not None and _certainly_false(e, hop):
                    skip = True
                    break
            if skip:
                closed += 1
                continue
            e = _enc(A, g, env)
            if e is not None and (e.lower() > 0 or (op == ">=" and e.lower() >= 0)):
                closed += 1
                continue
            if e is not None and dnodes:
                c = _centered(A, g, dnodes, env)
                if c is not None and (c > 0 or (op == ">=" and c >= 0)):
                    closed += 1
                    continue
                # second-order Taylor form: overestimation ~ width^3
                if d2:
                    c2 = TM.lower_taylor2(A, g, dnodes, d2, env)
                    if c2 is not None and (c2 > 0 or (op == ">=" and c2 >= 0)):
                        closed += 1
                        n_taylor[0] += 1
                        continue
                # a point where g touches 0: its local order from the derivatives
                if d2 and op == ">=" and _small(env):
                    if any(TM.closes_near(A, d2, x0, env) for x0 in touched):
                        closed += 1
                        continue
                    if touch_tries[0] < MAX_TOUCH_TRIES:
                        touch_tries[0] += 1
                        x0 = TM.touching_point(g, dnodes, d2, env, domains)
                        if x0 is not None and x0 not in touched:
                            touched.append(x0)
                            if TM.closes_near(A, d2, x0, env):
                                closed += 1
                                continue
            # derivative pruning: move to the face where g is smallest (g defined on the piece)
            if dnodes and e is not None:
                moved = False
                for n in names:
                    lo, hi = box[n]
                    if lo == hi or n in in_assumptions or n not in dnodes:
                        continue
                    de = _enc(A, dnodes[n], env)
                    if de is None or not (de.lower() >= 0 or de.upper() <= 0):
                        continue
                    d = domains[n]
                    inc_in_t = not (d.lo is None and d.hi is not None)
                    at_low = (de.lower() >= 0) == inc_in_t       # g smallest at the low end of t
                    cand = {**box, n: (lo, lo) if at_low else (hi, hi)}
                    # a face at an open end is not part of the domain: g's infimum there is a
                    # limit, and closing that face would prove nothing about the piece
                    if env_of(cand) is None or _touches_open_end({n: cand[n]}, domains):
                        continue
                    box = cand
                    moved = True
                    break
                if moved:
                    todo.append(box)
                    continue
        # midpoint: a certain violation is a counterexample
        mid = {n: (lo + hi) / 2 for n, (lo, hi) in box.items()}
        menv = env_of({n: (m, m) for n, m in mid.items()})
        if menv is not None and all(_holds_at(A, h, hop, menv) for h, hop in hyps):
            e = _enc(A, g, menv)
            if e is not None and (e.upper() < 0 or (op == ">" and e.upper() <= 0)):
                return IntervalOutcome(IntervalStatus.DISPROVED, closed, menv)
        # split the widest side (in box coordinates)
        widths = {n: hi - lo for n, (lo, hi) in box.items()}
        n = max(widths, key=widths.__getitem__)
        if widths[n] == 0 or widths[n] < Fraction(1, 2 ** 60):
            return IntervalOutcome(IntervalStatus.BUDGET, closed)
        lo, hi = box[n]
        m = mid[n]
        if edge:        # pieces at infinity or an open end wait until the rest is done
            todo.insert(0, {**box, n: (lo, m)})
            todo.insert(0, {**box, n: (m, hi)})
        else:
            todo.append({**box, n: (lo, m)})
            todo.append({**box, n: (m, hi)})
    return IntervalOutcome(IntervalStatus.PROVED, closed, taylor=n_taylor[0], touching=touched)


def _small(env) -> bool:
    """Every side of the box (in x) at most TOUCH_WIDTH."""
    return all(not isinstance(v, tuple) or v[1] - v[0] <= TOUCH_WIDTH for v in env.values())


def _meet(d: Domain, lo, hi) -> Domain:
    """The domain d cut to [lo, hi] (None: no bound on that side)."""
    nlo, nlc = d.lo, d.lo_closed
    if lo is not None and (nlo is None or lo > nlo):
        nlo, nlc = lo, True
    nhi, nhc = d.hi, d.hi_closed
    if hi is not None and (nhi is None or hi < nhi):
        nhi, nhc = hi, True
    return Domain(d.integer, nlo, nlc, nhi, nhc)


def _touches_open_end(box, domains) -> bool:
    for n, (lo, hi) in box.items():
        d = domains[n]
        if d.lo is not None and d.hi is not None:
            if (lo == d.lo and not d.lo_closed) or (hi == d.hi and not d.hi_closed):
                return True
        elif lo == 0 and ((d.lo is not None and not d.lo_closed) or (d.hi is not None and not d.hi_closed)):
            return True
    return False


def _centered(A, g, dnodes, env):
    """Lower bound of g on the piece by the mean-value form g(m) + sum_i g_i(piece) (x_i - m_i),
    whose overestimation shrinks with the square of the width (the naive enclosure's only
    linearly), so interior minima with a small margin close in few pieces."""
    from flint import arb
    mid = {n: ((v[0] + v[1]) / 2 if isinstance(v, tuple) else v) for n, v in env.items()}
    gm = _enc(A, g, mid)
    if gm is None:
        return None
    with A.precision(96):
        total = gm
        for n, v in env.items():
            if not isinstance(v, tuple):
                continue
            if n not in dnodes:
                return None
            de = _enc(A, dnodes[n], env)
            if de is None:
                return None
            r = A.ball((v[1] - v[0]) / 2)
            total = total + de * arb(0, r.upper())
        return total.lower()


def _enc(A, node, env):
    charge_nodes(node)
    try:
        return A.enclose(node, env, prec=96)
    except (A.Undefined, A.Unresolved, A.TooLarge):
        return None


def _certainly_false(e, op) -> bool:
    return {"<=": e.lower() > 0, ">=": e.upper() < 0, "<": e.lower() >= 0, ">": e.upper() <= 0,
            "==": e.lower() > 0 or e.upper() < 0}[op]


def _holds_at(A, h, op, env) -> bool:
    e = _enc(A, h, env)
    if e is None:
        return False
    return {"<=": e.upper() <= 0, ">=": e.lower() >= 0, "<": e.upper() < 0, ">": e.lower() > 0,
            "==": e.is_exact() and e.is_zero()}[op]
