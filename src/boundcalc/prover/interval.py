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
    s = _Search(g, op, domains, extra, names, seconds, derivatives)
    todo = [box0]
    while todo:
        if s.closed + len(todo) > max_boxes or expired(s.t0 + seconds):
            return IntervalOutcome(IntervalStatus.BUDGET, s.closed)
        charge(1 / INTERVAL_BOXES_PER_SECOND)
        box = todo.pop()
        env = s.env_of(box)
        edge = env is None or _touches_open_end(box, domains)
        if edge and s.smt_closes(box):
            s.closed += 1
            continue
        if env is not None:
            shut, e = s.closes(env)
            if shut:
                s.closed += 1
                continue
            face = s.face(box, env) if s.dnodes and e is not None else None
            if face is not None:
                todo.append(face)
                continue
        # midpoint: a certain violation is a counterexample
        mid = {n: (lo + hi) / 2 for n, (lo, hi) in box.items()}
        menv = s.violated_at(mid)
        if menv is not None:
            return IntervalOutcome(IntervalStatus.DISPROVED, s.closed, menv)
        halves = _halves(box, mid)
        if halves is None:
            return IntervalOutcome(IntervalStatus.BUDGET, s.closed)
        if edge:        # pieces at infinity or an open end wait until the rest is done
            todo.insert(0, halves[0])
            todo.insert(0, halves[1])
        else:
            todo.extend(halves)
    return IntervalOutcome(IntervalStatus.PROVED, s.closed, taylor=s.n_taylor, touching=s.touched)


def _halves(box, mid):
    """The two halves of ``box`` across its widest side (in box coordinates), or None when
    that side cannot be split further."""
    widths = {n: hi - lo for n, (lo, hi) in box.items()}
    n = max(widths, key=widths.__getitem__)
    if widths[n] == 0 or widths[n] < Fraction(1, 2 ** 60):
        return None
    lo, hi = box[n]
    m = mid[n]
    return {**box, n: (lo, m)}, {**box, n: (m, hi)}


class _Search:
    """The state of one branch-and-bound run: the goal, its derivatives (:mod:`.taylor`),
    the work clock's start, the boxes closed, the touching points found, the SMT calls made."""

    def __init__(self, g, op, domains, extra, names, seconds, derivatives):
        from . import taylor as TM
        self.g, self.op, self.domains, self.extra, self.names, self.seconds = g, op, domains, extra, names, seconds
        self.in_assumptions = set().union(*(r.symbols() for r in extra)) if extra else set()
        self.dnodes, self.d2 = TM.derivatives(g, names) if derivatives else ({}, {})
        self.touch_tries = 0
        self.touched: list[dict] = []
        self.n_taylor = 0
        self.t0 = clock()                   # work, not time: the same boxes on any machine
        self.closed = 0
        self.hyps = [(sub(r.lhs, r.rhs), r.op) for r in extra]
        self.smt_calls = 0

    def env_of(self, box):
        """The piece in x (None where it reaches an unbounded end)."""
        env = {}
        for n, (lo, hi) in box.items():
            d = self.domains[n]
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

    def smt_closes(self, box) -> bool:
        """Close a piece that ball arithmetic cannot enclose (it reaches infinity or an
        open end of the domain) with the SMT layer on that piece."""
        if self.smt_calls >= MAX_SMT_CALLS or expired(self.t0 + self.seconds * 0.8):
            return False
        self.smt_calls += 1
        from .smt import decide_smt
        domains = self.domains
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
        r = decide_smt(self.g, self.op, doms, self.extra, timeout_ms=SMT_MS, want_model=False)
        return r.status is SmtStatus.PROVED

    def _signed(self, c) -> bool:
        return c is not None and (c > 0 or (self.op == ">=" and c >= 0))

    def closes(self, env):
        """(whether the piece is closed, the enclosure of g on it): an assumption certainly
        violated on the whole piece (nothing to prove there), or a certified sign of g by the
        enclosure, the mean-value form, the second-order Taylor form or a touching point."""
        from ..backends import arb as A
        from . import taylor as TM
        for h, hop in self.hyps:
            e = _enc(A, h, env)
            if e is not None and _certainly_false(e, hop):
                return True, None
        g, dnodes, d2 = self.g, self.dnodes, self.d2
        e = _enc(A, g, env)
        if e is not None and (e.lower() > 0 or (self.op == ">=" and e.lower() >= 0)):
            return True, e
        if e is None or not dnodes:
            return False, e
        if self._signed(_centered(A, g, dnodes, env)):
            return True, e
        # second-order Taylor form: overestimation ~ width^3
        if d2 and self._signed(TM.lower_taylor2(A, g, dnodes, d2, env)):
            self.n_taylor += 1
            return True, e
        # a point where g touches 0: its local order from the derivatives
        if d2 and self.op == ">=" and _small(env):
            if any(TM.closes_near(A, d2, x0, env) for x0 in self.touched):
                return True, e
            if self.touch_tries < MAX_TOUCH_TRIES:
                self.touch_tries += 1
                x0 = TM.touching_point(g, dnodes, d2, env, self.domains)
                if x0 is not None and x0 not in self.touched:
                    self.touched.append(x0)
                    if TM.closes_near(A, d2, x0, env):
                        return True, e
        return False, e

    def face(self, box, env):
        """Derivative pruning: the face of the piece where g is smallest, for a symbol in no
        assumption whose derivative keeps one sign on the piece (g defined on it); None."""
        from ..backends import arb as A
        for n in self.names:
            lo, hi = box[n]
            if lo == hi or n in self.in_assumptions or n not in self.dnodes:
                continue
            de = _enc(A, self.dnodes[n], env)
            if de is None or not (de.lower() >= 0 or de.upper() <= 0):
                continue
            d = self.domains[n]
            inc_in_t = not (d.lo is None and d.hi is not None)
            at_low = (de.lower() >= 0) == inc_in_t       # g smallest at the low end of t
            cand = {**box, n: (lo, lo) if at_low else (hi, hi)}
            # a face at an open end is not part of the domain: g's infimum there is a
            # limit, and closing that face would prove nothing about the piece
            if self.env_of(cand) is None or _touches_open_end({n: cand[n]}, self.domains):
                continue
            return cand
        return None

    def violated_at(self, mid):
        """The point ``mid`` (box coordinates) in x where the assumptions hold and g certainly
        has the wrong sign (a candidate counterexample), else None."""
        from ..backends import arb as A
        menv = self.env_of({n: (m, m) for n, m in mid.items()})
        if menv is not None and all(_holds_at(A, h, hop, menv) for h, hop in self.hyps):
            e = _enc(A, self.g, menv)
            if e is not None and (e.upper() < 0 or (self.op == ">" and e.upper() <= 0)):
                return menv
        return None


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
