"""The decision procedure behind ``verify``, ``monotone`` and every ``check`` kind: one
notion of evidence, produced by layers that each name themselves in the verdict.

API note (for services/check.py and others)
-------------------------------------------
``decide_relation(a, rel, b, domains, extra=(), *, seconds=8.0, samples=3000, seed=0)``
returns a :class:`Decision` with

* ``verdict``  — ``"proved"`` | ``"disproved"`` | ``"unknown"`` | ``"vacuous"`` (the
  assumptions are inconsistent: a domain is empty, e.g. bounds ``x >= 2`` and ``x <= 1`` on
  one symbol, or z3 shows no point of the domains satisfies them);
* ``layer``    — which layer decided it, one of :data:`LAYERS`:
  ``"exact"`` (SymPy simplification and sign rules, possibly after substituting the
  assumptions or taking logarithms of both sides), ``"identity"`` (an equality with special
  functions on the region's branch, :mod:`.identity`), ``"convexity"`` (a Jensen instance
  f(sum w_i x_i) vs sum w_i f(x_i) from the proved sign of f'', :mod:`.convexity`),
  ``"big operators"`` (a side with a sum/product/max/min over a symbolic range: congruence,
  termwise comparison at a generic layer, the classical inequalities between sums and
  products, induction on the depth, :mod:`.bigops`; its sub-goals decided by this module),
  ``"integers"`` (one integer symbol:
  induction, a real relaxation or a monotone sequence's limit from n0, exhaustive below; or
  two integer symbols: induction in one of them, :mod:`.integers`), ``"ends"``
  (one symbol: the ends of its domain — infinity, an open end, a touching end — cut off by
  derivative arguments, Taylor's theorem or a monotone approach to a limit, the middle piece
  decided by the layers again, :mod:`.ends`), ``"SMT"``
  (z3 nonlinear real arithmetic after naming non-polynomial terms, :mod:`.smt`),
  ``"interval"`` (arb branch-and-bound, :mod:`.interval`), ``"counterexample"`` (a point
  found by sampling, at a domain boundary, from an SMT model or by the integer layer,
  certified in ball arithmetic), ``"budget"`` (unknown because a work or size budget ran
  out), ``"safety net"`` (unknown because a clock's safety net fired: the answer would depend
  on the machine's load), ``"none"`` (unknown: every layer ran and none decided);
* ``text``     — the verdict as printed, e.g. ``"proved (SMT, after naming sqrt(x*y))"``,
  ``"proved (interval, 1204 boxes)"``, ``"disproved (counterexample, certified)"``,
  ``"unknown (budget)"``;
* ``counterexample`` — for ``disproved``: the point (symbol -> exact decimal string) with
  ``lhs``/``rhs`` values, re-checked in ball arithmetic before it is reported;
* ``detail``, ``seconds``.

A proof is valid at every point of the domains where the assumptions hold and both sides
are defined. Integer symbols are relaxed to reals by the proving layers (sound), except by
the integer layer, which uses them. Every layer has a work and size budget (a share of the
decision's seconds, nominal seconds of work on :func:`.budget.clock`, never a clock's);
running out falls through to the next layer and, at the end, to ``unknown (budget)`` —
never a hang. A safety net (CPU time, z3's wall clock; far, never reached in normal use)
that fires makes the decision ``unknown (safety net)``, whatever the layers found.

A relation with a big operator over a symbolic range (``sum(a[i], i, 1, L)``, L free) goes
to the big-operator layer alone (:mod:`.bigops`), which hands its sub-goals without a
symbolic range back to :func:`decide_relation`; a per-layer assumption (``a[i] >= 1``, its
index no symbol of the statement) holds at every layer, and over numeric ranges is put in at
each of them. Its counterexamples are certified on the original relation written out at a
depth L = 1 .. 8 and name L and every layer's value.

Order (the rows of the table :data:`STRATEGY`, which :func:`_decide` runs in turn: which layer,
on which goals, with which share of the budget): the cheap pre-pass (:mod:`.prepass`) reads the goal; a quick certified search;
quick SMT passes (on the goal with fractional powers of single symbols substituted away,
the generalized goal, the goal); the convexity layer for a Jensen instance; the integer layer for a relation in one
integer symbol (or two, with at most one assumption ``d <= n``);
the exact layer; the identity layer for an equality with special functions; the rewrite
layer (:mod:`.rewrite`) for a goal with a root or a quotient: an equivalent goal (both
sides squared where both are proved >= 0, factors of proved strict sign dropped), decided by a
recursive decision on a share of the time left, at most two rewrites deep, its proof reported as the
sub-layer's ("proved (SMT, after squaring both sides (both >= 0), ...)") and its counterexample
only once certified on the original relation; and the ends layer for a goal in one symbol
with a hard end (its logarithmic forms first, unless a side has a root) — the rewrites
before the ends layer where a side has a root (the square is what the ends layer then
proves), after it otherwise; SMT again;
SMT with exp/log/tanh/atan/erf bracketed by the certified bounds of :mod:`.fbounds`, their
degree raised 3, 5, ..., 13 until proved (a "sat" of that relaxation is never a disproof);
interval branch-and-bound with Taylor models (:mod:`.taylor`); a deeper search.

Soundness contract: "proved" only from a layer's proof under that layer's contract (each
module's docstring); "disproved" only with a counterexample re-checked in ball arithmetic
or exactly at a point of the domains where every assumption holds; "vacuous" only when a
domain is empty or z3 shows the assumptions inconsistent; everything else is "unknown". User
errors (a side that is undefined everywhere it is evaluated) raise :class:`BoundcalcError`.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..errors import BoundcalcError
from ..expr.domains import Domain
from ..expr.indexed import separate
from ..expr.nodes import Add, BigOp, Const, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym, sub
from ..expr.visitor import Visitor, handles, top_down
from ..verdicts import IntervalStatus, Layer, SmtStatus, Verdict

# the budgets (time limits, size guards) live in the bottom module every layer imports
from .budget import (
    INTERVAL_BOXES_PER_SECOND,
    SAMPLES,
    SECONDS,
    clock,
    expired,
    left,
    safety_net,
    safety_net_hits,
    safety_nets_fired,
    sympy_safe,
    time_limit,
)
from .budget import Timeout as _Timeout

LAYERS = ("exact", "identity", "convexity", "big operators", "integers", "ends", "SMT", "interval", "counterexample",
          "budget", "safety net", "none")


class UndefinedError(BoundcalcError):
    """A side of the relation is undefined (1/0, log(-1), ...)."""


@dataclass
class Decision:
    """The answer of :func:`decide_relation`: ``verdict`` (proved | disproved | unknown |
    vacuous), the ``layer`` that decided it (one of :data:`LAYERS`), the verdict as printed
    (``text``), a ``counterexample`` re-checked in ball arithmetic for ``disproved``, and
    ``detail`` and ``seconds``. See the module docstring."""
    verdict: Verdict
    layer: Layer
    text: str
    detail: str = ""
    counterexample: dict | None = None
    seconds: float = 0.0

    def __post_init__(self):
        self.verdict, self.layer = Verdict(self.verdict), Layer(self.layer)


def _verdict(verdict, layer, how="", **kw) -> Decision:
    return Decision(verdict, layer, f"{verdict} ({layer}{', ' + how if how else ''})", **kw)


class _FoldConstants(Visitor[Node]):
    """Rational constant subtrees folded to numbers (see :func:`fold_constants`)."""

    @handles(Add, Mul, Pow)
    def _arith(self, n: Node, kids: list[Node]) -> Node:
        if all(isinstance(k, Num) for k in kids):
            folded = _fold_numbers(n, [k.value for k in kids])  # type: ignore[attr-defined]
            if folded is not None:
                return folded
        return _drop_units(n, kids)

    @handles(Func, Rel, Indexed, BigOp)
    def _other(self, n: Node, kids: list[Node]) -> Node:
        return _rebuilt(n, kids)

    @handles(Num, Sym, Const, Ref)
    def _leaf(self, n: Node, kids: list[Node]) -> Node:
        return n


def _fold_numbers(n: Node, vals: list[Fraction]) -> Node | None:
    """The sum, product or power of the numbers ``vals`` (an integer power of bounded size;
    None where it is not folded)."""
    if isinstance(n, Add):
        return Num(sum(vals, Fraction(0)))
    if isinstance(n, Mul):
        out = Fraction(1)
        for v in vals:
            out *= v
        return Num(out)
    b, e = vals
    if e.denominator == 1 and not (b == 0 and e <= 0):
        bits = abs(e.numerator) * max(abs(b.numerator).bit_length(), b.denominator.bit_length(), 1)
        if bits <= 4096:
            return Num(b ** e.numerator)
    return None


def _drop_units(n: Node, kids: list[Node]) -> Node:
    """``n`` over ``kids`` without its zero terms, its unit factors, and with (b**p)**q
    written b**(p*q) for integers p, q (where defined)."""
    if isinstance(n, Add):
        kept = [k for k in kids if not (isinstance(k, Num) and k.value == 0)]
        if len(kept) < len(kids):
            return (kept[0] if len(kept) == 1 else Add(tuple(kept))) if kept else Num(Fraction(0))
    if isinstance(n, Mul):
        kept = [k for k in kids if not (isinstance(k, Num) and k.value == 1)]
        if len(kept) == 1:
            return kept[0]
        if len(kept) < len(kids):
            return Mul(tuple(kept)) if kept else Num(Fraction(1))
    if isinstance(n, Pow):
        base, ex = kids
        if (isinstance(base, Pow) and isinstance(ex, Num) and isinstance(base.exp, Num)
                and ex.value.denominator == 1 and base.exp.value.denominator == 1):
            e = base.exp.value * ex.value
            return base.base if e == 1 else Pow(base.base, Num(e))
    return _rebuilt(n, kids)


def _rebuilt(n: Node, kids: list[Node]) -> Node:
    """``n`` with its children replaced by ``kids`` (``n`` itself when none changed)."""
    return n._rebuild(tuple(kids)) if any(a is not b for a, b in zip(kids, n.children())) else n


def fold_constants(node: Node) -> Node:
    """Replace rational constant subtrees by numbers (bounded sizes: 10**10**10 stays)."""
    return _FoldConstants().walk(node)


# ----------------------------------------------------------------------------- domains
def _narrow(d: Domain, op: str, c: Fraction) -> Domain:
    if op in (">=", ">"):
        if d.lo is None or c > d.lo or (c == d.lo and op == ">"):
            return Domain(d.integer, c, op == ">=", d.hi, d.hi_closed)
        return d
    if op in ("<=", "<"):
        if d.hi is None or c < d.hi or (c == d.hi and op == "<"):
            lo, lc = d.lo, d.lo_closed
            if lo is None and c > 0 and d == Domain(lo=Fraction(0)):
                lo = Fraction(0)
            return Domain(d.integer, lo, lc, c, op == "<=")
        return d
    if not d.contains(c):            # x == c outside x's domain: the empty domain (vacuous)
        return Domain(d.integer, c, False, c, False)
    return Domain(d.integer, c, True, c, True)


def _absorb_bounds(domains, extra):
    """Assumptions 'x OP number' narrow x's domain instead of staying hypotheses."""
    from ..expr.nodes import Num as _Num
    from ..expr.nodes import Sym as _Sym
    rest = []
    for r in extra:
        if isinstance(r.lhs, _Sym) and isinstance(r.rhs, _Num) and r.op != "==":
            domains[r.lhs.name] = _narrow(domains[r.lhs.name], r.op, r.rhs.value)
        elif isinstance(r.rhs, _Sym) and isinstance(r.lhs, _Num) and r.op != "==":
            flip = {">=": "<=", "<=": ">=", ">": "<", "<": ">"}[r.op]
            domains[r.rhs.name] = _narrow(domains[r.rhs.name], flip, r.lhs.value)
        else:
            rest.append(r)
    return rest


# ----------------------------------------------------------------------------- main
def decide_relation(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra=(), *,
                    seconds: float = SECONDS, samples: int = SAMPLES, seed: int = 0,
                    what: tuple[str, str] = ("LHS", "RHS")) -> Decision:
    """Decide ``a rel b`` (rel in <=, >=, <, >, ==) for every point of ``domains`` where
    the assumptions ``extra`` (relations) hold. See the module docstring."""
    t0 = time.perf_counter()
    extra = list(extra)
    for n in Rel(rel, a, b).symbols() | set().union(*(r.symbols() for r in extra)):
        domains.setdefault(n, Domain(lo=Fraction(0)))
    if any(isinstance(x, (Indexed, BigOp)) for t in (a, b, *extra) for x in t.unique_nodes()):
        # components of indexed symbols as independent variables (expr.indexed.separate)
        from . import bigops
        layer, rest = bigops.per_layer(extra, Rel(rel, a, b).symbols())
        if layer:
            inst = bigops.expand_per_layer(layer, [a, b, *rest])
            if inst is not None:          # numeric ranges: each per-layer assumption at every layer
                extra = rest + inst
        sep = separate([a, b, *extra], domains)
        if sep is None or bigops.has_symbolic_range(sep[0]):
            # a big operator over a symbolic range: the big-operator layer (.bigops)
            return _by_bigops(a, rel, b, domains, extra, layer, samples, seed, seconds, what, t0)
        (a, b, *extra), new = sep
        used = Rel(rel, a, b).symbols() | set().union(*(r.symbols() for r in extra))
        domains.clear()
        domains.update({k: v for k, v in new.items() if k in used})
    # one order of the symbols (callers build ``domains`` from sets, whose order follows
    # PYTHONHASHSEED): every layer then meets them in the same order in every run
    ordered = sorted(domains.items())
    domains.clear()
    domains.update(ordered)
    a, b = fold_constants(a), fold_constants(b)
    extra = [Rel(r.op, fold_constants(r.lhs), fold_constants(r.rhs)) for r in extra]
    extra = _absorb_bounds(domains, extra)
    empty = [n for n, d in domains.items() if d.is_empty()]
    if empty:                    # bounds on one symbol that contradict each other, or an empty box
        n = empty[0]
        return Decision(Verdict.VACUOUS, Layer.EXACT, f"vacuous (the domain of {n} is empty: {n} "
                        f"{domains[n].describe()}; no point to decide)", detail="every statement holds "
                        "vacuously on an empty domain; this is not a proof of the statement",
                        seconds=round(time.perf_counter() - t0, 3))
    if extra and _inconsistent(domains, extra, min(0.5, seconds / 8)):
        return Decision(Verdict.VACUOUS, Layer.SMT, "vacuous (the assumptions are inconsistent: no point of the "
                        "domains satisfies them, SMT)", detail="every statement holds vacuously under "
                        "contradictory assumptions; this is not a proof of the statement",
                        seconds=round(time.perf_counter() - t0, 3))
    _check_defined(a, what[0], domains)
    _check_defined(b, what[1], domains)
    # goal: g op 0 with op in >=, >, ==
    if rel in ("<=", "<"):
        g, op = sub(b, a), {"<=": ">=", "<": ">"}[rel]
    else:
        g, op = sub(a, b), rel
    g = fold_constants(g)
    note = _undefined_where(a, b, domains, what, fatal=not extra)
    hits = safety_net_hits()
    with safety_net(seconds):
        out = _decide(a, rel, b, g, op, domains, extra, clock() + seconds, samples, seed, seconds)
    if safety_net_hits() > hits:
        # a net fired (CPU time, z3's wall clock): what was found depends on the machine
        fired = "; ".join(dict.fromkeys(safety_nets_fired()))
        out = _verdict("unknown", "safety net", detail=f"a safety net ({fired}: a clock, not a work budget) "
                       "fired during the decision, so its answer would depend on the machine's load: not "
                       "reported (the work budgets are in prover/budget.py)")
    if note:
        out.detail = (out.detail + "; " if out.detail else "") + note
    out.seconds = round(time.perf_counter() - t0, 3)
    return out


# ----------------------------------------------------------------------------- the strategy
@dataclass
class _Goal:
    """One goal ``g op 0`` (``a rel b`` rewritten, op in >=, >, ==) on its way through
    :data:`STRATEGY`: the relation, the domains and assumptions, the work-clock ``deadline``
    and the decision's ``total`` seconds; and what the rows learn on the way (the pre-pass's
    reading, the SMT runs, the rewritten candidates, the layers whose budget ran out)."""
    a: Node
    rel: str
    b: Node
    g: Node
    op: str
    domains: dict
    extra: list
    deadline: float
    samples: int
    seed: int
    total: float
    budget_hit: list = field(default_factory=list)   # the layers whose budget ran out
    # the pre-pass's reading of the goal (row "pre-pass")
    why: str | None = None          # why SymPy is not safe on the goal (None: it is)
    special: bool = False           # a special function in the goal (prepass.profile)
    n_int: Any = None               # the integer layer's reading (integers.applies), None: not its goal
    runs: list = field(default_factory=list)       # (prefix, goal, assumptions, domains) for z3
    settled: set = field(default_factory=set)      # runs whose relaxed problem z3 answered (sat)
    candidates: list = field(default_factory=list)  # the goal and its logarithmic forms (exact layer)

    def certify(self, point) -> dict | None:
        """``point`` as a counterexample of the original relation, certified (or None)."""
        from . import search
        return search.certify_point(self.a, self.rel, self.b, self.g, self.op, self.domains, self.extra, point)


@dataclass(frozen=True)
class Share:
    """A layer's share of the decision's ``total`` seconds of work:
    ``max(floor, min(cap, fraction * total))``."""
    fraction: float
    cap: float
    floor: float = 0.0

    def of(self, total: float) -> float:
        return max(self.floor, min(self.cap, self.fraction * total))


def _always(goal: _Goal) -> bool:
    return True


@dataclass(frozen=True)
class Step:
    """One row of :data:`STRATEGY`: the ``layer`` it runs (a name of :data:`LAYERS`, or
    "pre-pass"), on which goals (``when``, read when the row's turn comes), with which
    ``share`` of the budget; ``run(goal, seconds)`` returns a Decision, or None to go on.
    Every ``run`` keeps its layer's soundness contract (its module's docstring)."""
    layer: str
    run: Callable[..., Decision | None]
    when: Callable[[_Goal], bool] = _always
    share: Share | None = None


def _by_bigops(a, rel, b, domains, extra, layer, samples, seed, seconds, what, t0) -> Decision:
    """A relation with a big operator over a symbolic range, decided by the big-operator
    layer alone (:mod:`.bigops`), its sub-goals by :func:`decide_relation`."""
    from . import bigops
    for n in {x.index.name for r in layer for x in r.unique_nodes()
              if isinstance(x, Indexed) and isinstance(x.index, Sym)} - Rel(rel, a, b).symbols():
        domains.pop(n, None)      # a per-layer assumption's index is no variable
    a, b = fold_constants(a), fold_constants(b)
    extra = [Rel(r.op, fold_constants(r.lhs), fold_constants(r.rhs)) for r in extra]
    res = bigops.decide_bigops(a, rel, b, domains, extra, _bigops_decider(samples, seed),
                               seconds=seconds, seed=seed)
    took = round(time.perf_counter() - t0, 3)
    if res.verdict is Verdict.PROVED:
        _check_defined(a, what[0], domains)
        _check_defined(b, what[1], domains)
        return Decision(Verdict.PROVED, Layer.BIGOPS, f"proved (big operators, {res.how})", seconds=took)
    if res.verdict is Verdict.DISPROVED:
        return Decision(Verdict.DISPROVED, Layer.COUNTEREXAMPLE, f"disproved (counterexample, {res.how})",
                        detail="the relation written out at that depth fails at the layers' values, "
                        "re-checked in ball arithmetic", counterexample=res.counterexample, seconds=took)
    return _verdict("unknown", "none", "a sum/product over a symbolic range that the big-operator "
                    "layer did not decide", detail="tried: " + ", ".join(res.tried), seconds=took)


def _decide(a, rel, b, g, op, domains, extra, deadline, samples, seed, total) -> Decision:
    """The rows of :data:`STRATEGY` in order, each on the goals it applies to; the first
    Decision ends it. Each layer's budget is a share of ``total``, counted in work on the
    work clock (:func:`.budget.clock`: search: points certified; SMT: z3's rlimit; exact:
    SymPy's calls; interval: boxes), so the verdict does not depend on the machine's load.
    ``deadline`` is a work-clock value; the decision's CPU-time safety net
    (:func:`.budget.safety_net`) only stops a runaway."""
    goal = _Goal(a, rel, b, g, op, domains, extra, deadline, samples, seed, total)
    for step in STRATEGY:
        if step.when(goal):
            out = step.run(goal, None if step.share is None else step.share.of(total))
            if out is not None:
                return out
    if goal.budget_hit:
        return _verdict("unknown", "budget", detail="no proof, no counterexample; budget ran out in: "
                        + ", ".join(goal.budget_hit) + " (sampling is not a proof)")
    return _verdict("unknown", "none", detail="no layer found a proof or a counterexample "
                    f"(sampled {samples} points; sampling is not a proof)")


def _constant(goal: _Goal, seconds) -> Decision:
    """A constant relation: ball arithmetic decides it."""
    from . import search
    s = _sign(goal.g, {})
    if s is None:
        return _verdict("unknown", "budget", "the constant difference could not be separated from 0",
                        detail="ball arithmetic up to the precision limit")
    ok = {">=": s >= 0, ">": s > 0, "==": s == 0}[goal.op]
    return _verdict("proved" if ok else "disproved", "interval" if ok else "counterexample",
                    "constant, ball arithmetic" if ok else "certified",
                    counterexample=None if ok else search.report({}, goal.a, goal.b, Rel(goal.rel, goal.a, goal.b),
                                                                 goal.extra))


def _quick_search(goal: _Goal, seconds: float) -> Decision | None:
    """A quick counterexample search (vectorised sampling + domain boundaries)."""
    from . import search
    ce = search.find(goal.a, goal.rel, goal.b, goal.g, goal.op, goal.domains, goal.extra, samples=goal.samples,
                     seed=goal.seed, deadline=min(goal.deadline, clock() + seconds))
    if ce is not None:
        return _verdict("disproved", "counterexample", "certified", counterexample=ce,
                        detail="the relation fails at a point re-checked in ball arithmetic")
    return None


def _prepass(goal: _Goal, seconds: float) -> None:
    """The pre-pass (:mod:`.prepass`) reads the goal: whether SymPy is safe on it, whether
    it is the integer layer's, and the goals the quick SMT passes try first (fractional
    powers of single symbols substituted away; repeated subterms named, on ``seconds``)."""
    from .integers import applies
    from .prepass import profile, root_substitution
    from .smt import generalize
    g, extra, domains = goal.g, goal.extra, goal.domains
    goal.special = profile(g, goal.op, domains, extra).special
    goal.n_int = applies(g, goal.op, domains, extra)
    goal.why = sympy_safe(g) or next((sympy_safe(r) for r in extra if sympy_safe(r)), None)
    gen = None
    if goal.why is None:
        try:
            with time_limit(seconds):
                gen = generalize(g, extra, domains, lambda n: _sympy_sign(n, domains))
        except _Timeout:
            gen = None
    goal.runs = [("", g, extra, domains)]
    if gen is not None:
        g2, extra2, doms2, labels = gen
        goal.runs.insert(0, ("after generalizing " + ", ".join(_short(labels, 2)) + "; ", g2, extra2, doms2))
    roots = root_substitution(g, extra, domains)
    if roots is not None:
        g3, extra3, doms3, labels3 = roots
        goal.runs.insert(0, ("after substituting " + ", ".join(_short(labels3, 2)) + "; ", fold_constants(g3),
                             extra3, doms3))
    goal.candidates = [g]


def _quick_smt(goal: _Goal, seconds: float) -> Decision | None:
    """Quick SMT passes (:mod:`.smt`) on the substituted, the generalized goal and the goal:
    most proofs are found here in a fraction of a second (a relation true on the reals keeps
    its SMT proof; z3 refutes a false relaxation fast, and a model of the goal itself is a
    candidate counterexample)."""
    from .smt import decide_smt
    for pre, cand, ex, doms in goal.runs:
        quick = decide_smt(cand, goal.op, doms, ex, timeout_ms=int(1000 * seconds))
        if quick.status is SmtStatus.PROVED:
            how = ("after naming " + ", ".join(_short(quick.named))) if quick.named else "polynomial"
            return _verdict("proved", "SMT", pre + how)
        if quick.status is SmtStatus.SAT:
            goal.settled.add(id(cand))
            if quick.model is not None and cand is goal.g:
                ce = goal.certify(quick.model)
                if ce is not None:
                    return _verdict("disproved", "counterexample", "certified, from an SMT model",
                                    counterexample=ce)
    return None


def _convexity(goal: _Goal, seconds: float) -> Decision | None:
    """A Jensen instance f(sum w_i x_i) vs sum w_i f(x_i): the sign of f'' on the hull."""
    from .convexity import prove_convexity
    jensen = prove_convexity(goal.a, goal.rel, goal.b, goal.domains, _real_decider(goal.samples, goal.seed),
                             seconds=seconds)
    return None if jensen is None else Decision(Verdict.PROVED, Layer.CONVEXITY, f"proved ({jensen})")


def _identity(goal: _Goal, seconds: float) -> Decision | None:
    """The identity layer (:mod:`.identity`): an equality with special functions."""
    from .identity import prove_identity
    how = prove_identity(goal.a, goal.b, goal.domains, goal.extra, _real_decider(goal.samples, goal.seed),
                         seconds=seconds)
    return None if how is None else Decision(Verdict.PROVED, Layer.IDENTITY, f"proved ({how})")


def _integers(goal: _Goal, seconds: float) -> Decision | None:
    """The integer layer (:mod:`.integers`): one or two integer symbols; its point is a
    counterexample only once certified on the original relation."""
    from .integers import prove_integers
    io = prove_integers(goal.g, goal.op, goal.n_int, goal.domains, _real_decider(goal.samples, goal.seed),
                        seconds=seconds)
    if io is not None and io.verdict is Verdict.PROVED:
        return Decision(Verdict.PROVED, Layer.INTEGERS, f"proved ({io.how})")
    if io is not None and io.verdict is Verdict.DISPROVED:
        ce = goal.certify(io.point)
        if ce is not None:
            return _verdict("disproved", "counterexample", "certified, an integer", counterexample=ce)
    return None


def _exact(goal: _Goal, seconds: float) -> Decision | None:
    """The exact layer (:mod:`.exact_layer`, SymPy); its logarithmic forms of the goal become
    candidates of the layers after it."""
    if goal.why is not None:
        goal.budget_hit.append(f"exact skipped: {goal.why}")
        return None
    from .exact_layer import prove_exact
    try:
        with time_limit(seconds):
            res, rewritten = prove_exact(goal.g, goal.op, goal.domains, goal.extra)
        if res:
            return _verdict("proved", "exact", res)
        goal.candidates += rewritten
    except _Timeout:
        goal.budget_hit.append("exact")
    return None


def _rewrites(goal: _Goal, seconds: float) -> Decision | None:
    """The rewrites of :mod:`.rewrite` (:mod:`.rewrite`'s contract): a goal with a root or a
    quotient, rewritten into an equivalent goal (both sides squared, factors of proved sign
    dropped; SymPy on ``seconds``), decided by a recursive decision on a share of the time
    left; a rewritten goal is rewritten again only up to rewrite.MAX_DEPTH. A disproof counts
    only once its point is certified on the original relation."""
    from . import rewrite as RW
    a, b, domains, extra, deadline, total = goal.a, goal.b, goal.domains, goal.extra, goal.deadline, goal.total
    if not (RW.depth() < RW.MAX_DEPTH and goal.why is None and not expired(deadline) and RW.worth_trying(a, b)):
        return None
    sign_calls = [0]

    def _rw_sign(n: Node) -> str | None:
        # from the shape, else z3; not SymPy's prove_sign, whose strict sign holds only
        # inside a bounded domain with closed ends (x - 1 "positive" on [1, 2])
        return structural_sign(n, domains) or RW.smt_sign(n, domains, extra, sign_calls)
    try:
        rws = RW.equivalents(a, goal.rel, b, domains, extra, _rw_sign, sympy_seconds=seconds)
    except _Timeout:
        rws = []
        goal.budget_hit.append("rewrites")
    for i, rw in enumerate(rws):
        if expired(deadline):
            goal.budget_hit.append("rewrites")
            break
        try:
            with RW.nested():
                # a share that lets the layers below work on it (the ends layer's nested
                # decisions need about two seconds on Polya's squared bound): 70 % of what is
                # left for a first rewrite that removed every root, else half of it
                rest = left(deadline)
                rootless = i == 0 and not RW.has_root(rw.goal, Num(Fraction(0)))
                share = min(0.7 * total, max(min(1.0, 0.1 * total), 0.7 * rest if rootless else rest / 2))
                sub_d = decide_relation(rw.goal, rw.op, Num(Fraction(0)), dict(domains), extra,
                                        seconds=share, samples=goal.samples, seed=goal.seed)
        except BoundcalcError:
            continue
        out = _rewritten(goal, rw, sub_d)
        if out is not None:
            return out
    return None


def _rewritten(goal: _Goal, rw, sub_d: Decision) -> Decision | None:
    """The sub-decision on a rewritten goal as a decision of the goal: its proof reported as
    the sub-layer's, its counterexample only once certified on the original relation."""
    from . import rewrite as RW
    if sub_d.verdict is Verdict.PROVED:
        inner = sub_d.text[len("proved ("):-1] if sub_d.text.startswith("proved (") else sub_d.text
        head, _, how = inner.partition(", ")
        return Decision(Verdict.PROVED, sub_d.layer, f"proved ({head}, {rw.label}{'; ' + how if how else ''})",
                        detail="decided on the equivalent goal " + str(rw.goal) + f" {rw.op} 0"
                        + ("; " + sub_d.detail if sub_d.detail else ""))
    if sub_d.verdict is Verdict.DISPROVED and sub_d.counterexample:
        env = RW.fill_point(sub_d.counterexample, goal.domains)
        ce = goal.certify(env) if env is not None else None
        if ce is not None:
            return _verdict("disproved", "counterexample", "certified, found " + rw.label, counterexample=ce)
    if sub_d.layer is Layer.BUDGET:
        goal.budget_hit.append("rewrites")
    return None


def _ends(goal: _Goal, seconds) -> Decision | None:
    """The ends layer (:mod:`.ends`) on the goal and its logarithmic forms: the ends of a
    one-variable domain (infinity, an open end, a touching end) cut off by derivative
    arguments, the middle piece decided by the layers again."""
    from ..expr.printing import to_text
    from . import rewrite as RW
    from .ends import applies as ends_apply
    from .ends import prove_ends
    op, domains, extra, deadline = goal.op, goal.domains, goal.extra, goal.deadline
    # the logarithmic forms first (they turn products into sums, whose derivatives the layers
    # below decide), except where a side has a root, which a logarithm does not remove
    forms = [("after taking logarithms of both sides, ", c) for c in goal.candidates[1:]]
    forms = [("", goal.g)] + forms if RW.has_root(goal.a, goal.b) else forms + [("", goal.g)]
    ends_goals = [(pre + f"g = {_clip(to_text(c))}: ", c) for pre, c in forms
                  if ends_apply(c, op, domains, extra) and _hard_end(c, domains)]
    for pre, cand in ends_goals:
        if expired(deadline):
            break
        ends_how = prove_ends(cand, op, domains, extra, _real_decider(goal.samples, goal.seed),
                              seconds=min(left(deadline),
                                          max(0.6 * goal.total, 0.75 * left(deadline)) / len(ends_goals)))
        if ends_how is not None:
            return _verdict("proved", "ends", pre + ends_how)
    return None


def _smt(goal: _Goal, seconds: float) -> Decision | None:
    """SMT again with the time left: the generalized goal, the goal, the rewritten goals
    (the runs z3 answered 'sat' in the quick pass are not re-run)."""
    from .smt import decide_smt
    goal.runs += [("after taking logarithms of both sides, ", c, goal.extra, goal.domains)
                  for c in goal.candidates[1:]]
    for pre, cand, ex, doms in goal.runs:
        if id(cand) in goal.settled:
            continue
        if expired(goal.deadline):
            goal.budget_hit.append("SMT")
            break
        r = decide_smt(cand, goal.op, doms, ex, timeout_ms=int(1000 * seconds))
        if r.status is SmtStatus.PROVED:
            how = ("after naming " + ", ".join(_short(r.named))) if r.named else "polynomial"
            return _verdict("proved", "SMT", pre + how)
        if r.status is SmtStatus.SAT and r.model is not None and cand is goal.g:
            ce = goal.certify(r.model)
            if ce is not None:
                return _verdict("disproved", "counterexample", "certified, from an SMT model",
                                counterexample=ce)
        if "timeout" in r.reason or "canceled" in r.reason or "budget" in r.reason:
            goal.budget_hit.append("SMT")
    return None


def _bracketing(goal: _Goal, seconds: float) -> Decision | None:
    """SMT with the special functions bracketed by the certified bounds of :mod:`.fbounds`,
    degree raised until proved or the share runs out (``seconds`` per z3 call); a "sat" of
    this relaxed problem proves nothing (it is never turned into a disproof)."""
    from .smt import BRACKET_CALLS, BRACKET_DEGREES, decide_smt
    # budgeted in work (z3 calls of a fixed rlimit each), so that the machine's load does
    # not change the verdict; the decision's CPU deadline is only the safety net
    calls = 0
    # each degree on every candidate before the next degree: the cheap proofs first
    bruns = list(goal.runs)
    for pre, cand, ex, doms in goal.runs:
        merged = combine_logs(cand)
        if merged is not None:
            bruns.append((pre + "after merging logarithms, ", merged, ex, doms))
    dropped: set[int] = set()       # candidates z3 could not finish: higher degrees are harder
    for deg in BRACKET_DEGREES:
        for i, (pre, cand, ex, doms) in enumerate(bruns):
            if expired(goal.deadline) or calls >= BRACKET_CALLS:
                break
            if i in dropped:
                continue
            calls += 1
            r = decide_smt(cand, goal.op, doms, ex, timeout_ms=int(1000 * seconds), want_model=False, bracket=deg)
            if r.status is SmtStatus.UNKNOWN:
                dropped.add(i)
            if r.status is SmtStatus.PROVED:
                return _verdict("proved", "SMT", pre + bracket_text(r.brackets, r.named),
                                detail="the special functions replaced by certified polynomial or "
                                "rational bounds (prover/fbounds.py): " + "; ".join(map(str, r.brackets)))
        else:
            continue
        goal.budget_hit.append("SMT bracketing")
        break
    return None


def _interval(goal: _Goal, seconds: float) -> Decision | None:
    """Interval branch-and-bound with Taylor models (:mod:`.interval`) on ``seconds`` of
    boxes; its point is a counterexample only once certified."""
    from .interval import prove_interval
    if expired(goal.deadline):
        goal.budget_hit.append("interval")
        return None
    ivl = prove_interval(goal.g, goal.op, goal.domains, goal.extra, seconds=seconds,
                         derivatives=goal.why is None, max_boxes=int(INTERVAL_BOXES_PER_SECOND * seconds))
    if ivl.status is IntervalStatus.PROVED:
        how = f"{ivl.boxes} boxes"
        if ivl.taylor:
            how += f", {ivl.taylor} closed by Taylor models"
        if ivl.touching:
            pts = ["(" + ", ".join(f"{k} = {sampling_str(v)}" for k, v in sorted(x0.items())) + ")"
                   for x0 in ivl.touching[:3]]
            how += "; touching at " + ", ".join(pts) + ", local minimum from the derivatives"
        return _verdict("proved", "interval", how)
    if ivl.status is IntervalStatus.DISPROVED:
        ce = goal.certify(ivl.point)
        if ce is not None:
            return _verdict("disproved", "counterexample", "certified, found by interval search",
                            counterexample=ce)
    if ivl.status is IntervalStatus.BUDGET:
        goal.budget_hit.append("interval")
    return None


def _deep_search(goal: _Goal, seconds) -> Decision | None:
    """A deeper counterexample search (a local search) with the time left."""
    from . import search
    ce = search.find(goal.a, goal.rel, goal.b, goal.g, goal.op, goal.domains, goal.extra, samples=goal.samples,
                     seed=goal.seed + 1, deadline=goal.deadline, deep=True)
    if ce is not None:
        return _verdict("disproved", "counterexample", "certified",
                        counterexample=ce, detail="found by a local search, re-checked in ball arithmetic")
    return None


def _side_has_root(goal: _Goal) -> bool:
    from . import rewrite as RW
    return RW.has_root(goal.a, goal.b)


def _live(goal: _Goal) -> bool:
    return not expired(goal.deadline)


# The order of the layers, as data: which layer, on which goals, with which share of the
# decision's seconds. The first Decision a row returns is the answer; a row whose ``when``
# is false is skipped. The rewrites come before the ends layer where a side has a root (the
# square is what the ends layer then proves), after it otherwise: two rows of one layer.
STRATEGY: tuple[Step, ...] = (
    Step("interval", _constant, when=lambda G: not G.g.symbols()),            # a constant: ball arithmetic
    Step("counterexample", _quick_search, share=Share(0.2, cap=2.0)),
    Step("pre-pass", _prepass, share=Share(0.1, cap=1.0, floor=0.3)),
    Step("SMT", _quick_smt, share=Share(0.12, cap=0.6, floor=0.2)),
    Step("convexity", _convexity, when=lambda G: G.rel in ("<=", ">=") and _live(G), share=Share(0.35, cap=3.0)),
    Step("identity", _identity, when=lambda G: G.n_int is not None and G.op == "==" and _live(G),
         share=Share(0.35, cap=3.0)),
    Step("integers", _integers, when=lambda G: G.n_int is not None and _live(G), share=Share(0.35, cap=3.0)),
    Step("exact", _exact, share=Share(0.25, cap=2.5, floor=0.2)),
    Step("identity", _identity, when=lambda G: G.op == "==" and G.special and _live(G), share=Share(0.35, cap=3.0)),
    Step("rewrites", _rewrites, when=_side_has_root, share=Share(0.1, cap=1.0, floor=0.2)),
    Step("ends", _ends),
    Step("rewrites", _rewrites, when=lambda G: not _side_has_root(G), share=Share(0.1, cap=1.0, floor=0.2)),
    Step("SMT", _smt, share=Share(0.3, cap=3.0)),
    Step("SMT", _bracketing, when=lambda G: _bracketable(G.g) and _live(G), share=Share(0.04, cap=0.3)),
    Step("interval", _interval, share=Share(0.3, cap=3.0)),
    Step("counterexample", _deep_search, when=_live),
)


def _hard_end(g: Node, domains: dict[str, Domain]) -> bool:
    """Whether the one symbol's domain has an end the interval layer cannot close alone: an
    infinite or open end, or a closed end where ``g`` is not certainly positive."""
    from ..backends import arb as A
    (name,) = g.symbols()
    d = domains[name]
    for e, closed in ((d.lo, d.lo_closed), (d.hi, d.hi_closed)):
        if e is None or not closed:
            return True
        try:
            if not A.enclose(g, {name: e}, prec=64).lower() > 0:
                return True
        except (A.Undefined, A.Unresolved, A.TooLarge):
            return True
    return False


def _bracketable(g: Node) -> bool:
    """Whether ``g`` has a term the SMT layer brackets (a named exp/log/tanh/atan/erf, or
    a power with a variable exponent, named as exp of a log)."""
    from .smt import BRACKETED
    return any((isinstance(n, Func) and n.name in BRACKETED) or (isinstance(n, Pow) and n.exp.symbols())
               for n in g.unique_nodes())


def _log_term(t: Node) -> tuple[int, Node] | None:
    """(c, u) for a term c*log(u) with a small integer c, else None."""
    if isinstance(t, Func) and t.name == "log" and len(t.args) == 1:
        return 1, t.args[0]
    if isinstance(t, Mul) and len(t.args) == 2 and isinstance(t.args[0], Num):
        c = t.args[0].value
        inner = _log_term(t.args[1])
        if inner is not None and c.denominator == 1 and 0 < abs(c) <= 3:
            return int(c) * inner[0], inner[1]
    return None


def combine_logs(g: Node) -> Node | None:
    """The top-level sum ``g`` with its terms ``c log(u)`` (small integers c, at least
    two of them) merged into one ``log(prod u**c)``, or None. Sound where the relation is
    decided: every ``log(u)`` is defined there, so every ``u > 0`` and the logarithm of the
    product is the sum of the logarithms. Bracketing then sees one argument near 1
    (``log(1 + 2x) - log(2x)``) instead of two large ones whose bounds cannot cancel."""
    if not isinstance(g, Add):
        return None
    logs: list[tuple[int, Node]] = []
    rest: list[Node] = []
    for t in g.args:
        lt = _log_term(t)
        if lt is not None:
            logs.append(lt)
        else:
            rest.append(t)
    if len(logs) < 2:
        return None
    factors = tuple(u if c == 1 else Pow(u, Num(Fraction(c))) for c, u in logs)
    return fold_constants(Add(tuple(rest) + (Func("log", (Mul(factors),)),)))


def bracket_text(entries, named) -> str:
    """'tanh bracketed by degree-5 Taylor' from the fbounds entries of an unsat core."""
    if not entries:
        return "after naming " + ", ".join(_short(named)) if named else "polynomial"
    by: dict[str, list] = {}
    for b in entries:
        by.setdefault(b.func, []).append(b)
    parts = []
    for func, bs in by.items():
        fams = sorted({_family(b) for b in bs})
        parts.append(f"{func} bracketed by degree-{max(b.degree for b in bs)} {' and '.join(fams)}")
    return ", ".join(parts)


def _family(b) -> str:
    src = b.source
    for key, name in (("atan(1/x)", "asymptotic (pi/2 - atan(1/x))"), ("Taylor truncation", "Taylor"),
                      ("Pade", "Pade"), ("Heron", "Heron"), ("tangent", "tangent"), ("int of exp", "Taylor")):
        if key in src:
            return name
    return src.split(";")[0]


def _real_decider(samples: int, seed: int):
    """``goal op 0`` on real domains by the layers of :func:`_decide` (for the integer
    layer, which may not import this module): its verdict, within ``seconds`` of work (inside
    the calling decision's safety net, or a net of its own)."""
    def run(goal: Node, op: str, doms: dict, ex: list, seconds: float) -> Verdict:
        goal = fold_constants(goal)
        with safety_net(seconds):
            d = _decide(goal, op, Num(Fraction(0)), goal, op, dict(doms), list(ex),
                        clock() + seconds, min(samples, 1000), seed, seconds)
        return d.verdict
    return run


def _bigops_decider(samples: int, seed: int):
    """A sub-goal of the big-operator layer (which may not import this module) decided by
    :func:`decide_relation`: its Decision, within ``seconds``."""
    def run(a: Node, rel: str, b: Node, doms: dict, ex: list, seconds: float) -> Decision:
        try:
            return decide_relation(a, rel, b, dict(doms), list(ex), seconds=seconds,
                                   samples=min(samples, 1000), seed=seed)
        except BoundcalcError as e:          # a sub-goal undefined where it is read: no proof
            return _verdict("unknown", "none", str(e))
    return run


def _inconsistent(domains, extra, seconds: float) -> bool:
    """True if z3 shows that no point of the domains satisfies the assumptions ``extra``
    (where their terms are defined): the goal -1 >= 0 is then 'proved'."""
    from .smt import decide_smt
    if any(sympy_safe(r) for r in extra):
        return False
    r = decide_smt(Num(Fraction(-1)), ">=", domains, extra, timeout_ms=int(1000 * max(0.1, seconds)),
                   want_model=False)
    return r.status is SmtStatus.PROVED


def _short(labels: list[str], limit: int = 4) -> list[str]:
    out = [lb if len(lb) <= 40 else lb[:37] + "..." for lb in dict.fromkeys(labels)]
    return out[:limit] + ([f"{len(out) - limit} more"] if len(out) > limit else [])


class _StructuralSign(Visitor["str | None"]):
    """'positive' / 'nonnegative' / None from the shape of the tree (see
    :func:`structural_sign`)."""

    def __init__(self, domains) -> None:
        super().__init__()
        self.domains = domains

    def visit_Num(self, n: Num, args: list) -> str | None:
        return "positive" if n.value > 0 else ("nonnegative" if n.value == 0 else None)

    def visit_Const(self, n: Const, args: list) -> str | None:
        return "positive"

    def visit_Sym(self, n: Sym, args: list) -> str | None:
        d = self.domains.get(n.name)
        return None if d is None else ("positive" if d.positive else ("nonnegative" if d.nonnegative else None))

    @handles(Add, Mul)
    def _assoc(self, n: Node, signs: list) -> str | None:
        if all(x == "positive" for x in signs):
            return "positive"
        if isinstance(n, Add) and all(x in ("positive", "nonnegative") for x in signs) and "positive" in signs:
            return "positive"
        return "nonnegative" if all(x in ("positive", "nonnegative") for x in signs) else None

    def visit_Pow(self, n: Pow) -> Generator[Node, str | None, str | None]:
        sb = yield n.base
        if sb == "positive":
            return "positive"
        if isinstance(n.exp, Num):
            e = n.exp.value
            if e.denominator == 1 and e.numerator % 2 == 0 and e > 0:
                return "nonnegative"
            if sb == "nonnegative" and e > 0:
                return "nonnegative"
        return None

    def visit_Func(self, n: Func) -> Generator[Node, str | None, str | None]:
        if n.name == "exp":
            return "positive"
        if n.name == "abs":
            return "nonnegative"
        signs = []
        for c in n.args:
            signs.append((yield c))
        if n.name in ("sqrt", "tanh", "atan", "erf", "min") and all(x is not None for x in signs):
            return "positive" if all(x == "positive" for x in signs) else "nonnegative"
        if n.name == "max" and any(x is not None for x in signs):
            return "positive" if "positive" in signs else "nonnegative"
        if n.name == "log" and len(n.args) == 1:
            lb = _lower_bound(n.args[0], self.domains)
            if lb is not None and lb > 1:
                return "positive"
            if lb is not None and lb == 1:
                return "nonnegative"
        if n.name in ("gamma", "factorial") and signs[0] == "positive":
            return "positive"               # gamma(x) > 0 for x > 0; x! = gamma(x + 1)
        if n.name == "factorial" and signs[0] == "nonnegative":
            return "positive"
        # binomial(n, k) may be negative for real n, k >= 0 (binomial(5/2, 4) = -5/128): no rule
        return None

    def visit_Indexed(self, n: Indexed, args: list) -> str | None:
        d = self.domains.get(n.name)         # the domain of every component
        return None if d is None else ("positive" if d.positive else ("nonnegative" if d.nonnegative else None))

    def visit_BigOp(self, n: BigOp) -> Generator[Node, str | None, str | None]:
        """From the body's sign (the index itself has no domain here): a sum of positive
        terms is only nonnegative (an empty range gives 0), a product of positive terms is
        positive (an empty one is 1), a max or min has the sign of its terms."""
        sb = yield n.body
        if sb is None:
            return None
        if n.op == "sum":
            return "nonnegative"
        return sb

    @handles(Rel, Ref)
    @top_down
    def _none(self, n: Node) -> None:
        return None


def structural_sign(n: Node, domains) -> str | None:
    """'positive' / 'nonnegative' from the shape of the tree alone (cheap), or None."""
    return _StructuralSign(domains).walk(n)


class _LowerBound(Visitor["Fraction | None"]):
    """A lower bound from the domains (see :func:`_lower_bound`)."""

    def __init__(self, domains) -> None:
        super().__init__()
        self.domains = domains

    def visit_Num(self, n: Num, args: list) -> Fraction | None:
        return n.value

    def visit_Sym(self, n: Sym, args: list) -> Fraction | None:
        d = self.domains.get(n.name)
        return None if d is None else d.lo

    @handles(Add, Mul)
    def _assoc(self, n: Node, lbs: list) -> Fraction | None:
        if any(v is None for v in lbs):
            return None
        if isinstance(n, Add):
            return sum(lbs, Fraction(0))
        if any(v < 0 for v in lbs):
            return None
        out = Fraction(1)
        for v in lbs:
            out *= v
        return out

    def visit_Pow(self, n: Pow) -> Generator[Node, Fraction | None, Fraction | None]:
        if isinstance(n.exp, Num) and n.exp.value.denominator == 1 and 0 < n.exp.value <= 64:
            lb = yield n.base
            return None if lb is None or lb < 0 else lb ** n.exp.value.numerator
        return None

    def visit_Indexed(self, n: Indexed, args: list) -> Fraction | None:
        d = self.domains.get(n.name)
        return None if d is None else d.lo

    @handles(Const, Func, Rel, Ref, BigOp)
    @top_down
    def _none(self, n: Node) -> None:
        return None


def _lower_bound(n: Node, domains) -> Fraction | None:
    """A lower bound from the domains for sums and products of nonnegative parts, or None."""
    return _LowerBound(domains).walk(n)


def _sympy_sign(n: Node, domains) -> str | None:
    from .symbolic import prove_sign_on, to_sympy_with_domains
    quick = structural_sign(n, domains)
    if quick is not None:
        return quick
    if sympy_safe(n):
        return None
    e, syms = to_sympy_with_domains(n, {}, domains)
    return prove_sign_on(e, syms, domains)


def _sign(node: Node, env) -> int | None:
    from ..backends import mp as mpb
    return mpb.decide_sign(node, env)


def _undefined_where(a: Node, b: Node, domains, what, fatal: bool = True) -> str:
    """Where a side with symbols is undefined on the domain: an error if it is undefined at
    every sampled point (``fatal``: only without assumptions, which may exclude those
    points), otherwise a note naming one point (the relation is decided where both sides
    are defined). Points are certified undefined in ball arithmetic."""
    import numpy as np

    from ..backends import arb as A
    from ..expr.printing import to_text as show
    from . import sampling
    names = sorted(domains)
    if not names:
        return ""
    pts = sampling.sample({n: domains[n] for n in names}, 200, 3)
    notes = []
    for side, where in ((a, what[0]), (b, what[1])):
        if not side.symbols():
            continue
        with np.errstate(all="ignore"):
            try:
                v = np.asarray(sampling.values(side, pts), dtype=float)
            except (OverflowError, ZeroDivisionError, ValueError, TypeError):
                continue
        bad = np.flatnonzero(np.isnan(v))
        for i in bad[:5]:
            env = sampling.point(pts, int(i))
            try:
                A.enclose(side, env, prec=64)
            except A.Undefined as e:
                at = ", ".join(f"{k} = {sampling_str(env[k])}" for k in names if k in side.symbols())
                if fatal and len(bad) == len(v):
                    raise UndefinedError(f"{where} {show(side)} is undefined on the whole domain, "
                                         f"e.g. at {at}: {e}") from None
                notes.append(f"{where} is undefined at some points of the domain (e.g. {at}: {e}); "
                             "the relation is decided where both sides are defined")
                break
            except (A.Unresolved, A.TooLarge):
                continue
    return "; ".join(notes)


def sampling_str(x: Fraction) -> str:
    """A sampled coordinate as written in messages: ``3`` or ``7/2``."""
    return str(x.numerator) if x.denominator == 1 else str(x)


def _check_defined(side: Node, where: str, domains: dict[str, Domain] | None = None) -> None:
    """A side must have a value somewhere: a side without symbols that is undefined (1/0,
    log(-1)) and a side with a definedness condition that fails as a constant (log(x, 1),
    0**0, see :mod:`boundcalc.expr.singularities`, the one rule) are user errors."""
    check_defined_somewhere(side, where, integer_symbols(domains or {}))
    if side.symbols():
        return
    from ..backends import arb as A
    from ..expr.printing import to_text as show
    try:
        A.enclose(side, {}, prec=64)
    except A.Undefined as e:
        raise UndefinedError(f"{where} {show(side)} is undefined: {e}") from None
    except (A.Unresolved, A.TooLarge):
        pass


def integer_symbols(domains: dict[str, Domain]) -> frozenset[str]:
    """The symbols whose domain is integer (what the definedness rule needs to know of them)."""
    return frozenset(n for n, d in domains.items() if d.integer)


def check_defined_somewhere(node: Node, where: str, integers=frozenset()) -> None:
    """Raise :class:`UndefinedError` if a definedness condition of ``node`` (the rule of
    :mod:`boundcalc.expr.singularities`) is certainly false as a constant: then ``node`` is
    undefined at every point (``log(x, 1)``, ``sqrt(-1) * x``). ``integers``: the integer
    symbols (``(-1)**n`` is defined for an integer n)."""
    from ..expr.printing import to_text as show
    from ..expr.singularities import first_undefined_constant
    c = first_undefined_constant(node, lambda e: _sign(fold_constants(e), {}), integers)
    if c is not None:
        raise UndefinedError(f"{where} {_clip(show(node))} is undefined"
                             f"{' everywhere' if node.symbols() else ''}: {c.reason} in {_clip(show(c.where))}")


def _clip(s: str, n: int = 120) -> str:
    return s if len(s) <= n else s[:n - 3] + "..."
