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
  decided by the layers again, :mod:`.ends`), ``"case split"`` (a goal with ``abs`` decided
  on pieces where the absolute values have one sign: a symbol's domain cut at 0, ``|A| <= B``
  as ``A <= B`` and ``-A <= B``, :mod:`.cases`), ``"monotonicity"`` (a partial derivative's
  sign proved, the goal reduced to the face of the domain where the difference is least,
  :mod:`.monotone`), ``"order"`` (under an assumption ``x <= y``, a partial derivative's sign
  proved where the assumptions hold, the goal reduced to the diagonal ``x = y``,
  :mod:`.order`), ``"SMT"``
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
never a hang. A safety net (CPU time, z3's included; far, never reached in normal use)
that fires makes the decision ``unknown (safety net)``, whatever the layers found.

A relation with a big operator over a symbolic range (``sum(a[i], i, 1, L)``, L free) goes
to the big-operator layer alone (:mod:`.bigops`), which hands its sub-goals without a
symbolic range back to :func:`decide_relation`; a per-layer assumption (``a[i] >= 1``, its
index no symbol of the statement) holds at every layer, and over numeric ranges is put in at
each of them. Its counterexamples are certified on the original relation written out at a
depth L = 1 .. 8 and name L and every layer's value.

Order (the rows of the table :data:`.pipeline.STRATEGY`, which :func:`_decide` runs in turn: which
layer, on which goals, with which share of the budget, which sub-goals it may open; each
layer an object of the :class:`.pipeline.Layer` protocol working on a :class:`.goal.Goal`
within a :class:`.goal.Budget`): the cheap pre-pass (:mod:`.prepass`) reads the goal; a quick certified search;
quick SMT passes (on the goal with fractional powers of single symbols substituted away,
the generalized goal, the goal); for a goal under an order assumption ``x <= y`` between two
of its symbols, the diagonal reduction (:mod:`.order`, its derivative and diagonal goals
"relation" sub-goals); for a symbol whose domain ends at a rational multiple of pi
(an assumption ``x < pi/2``), the goal with ``x = pi*t`` and rational ends (:mod:`.pisub`, proofs
only, a "relation" sub-goal); for a symbol on (0, pi/2) or (0, pi) with sin, cos or tan of
it, the goal reflected about that end, ``x = pi/2 - t`` (:mod:`.reflect`, proofs only, a
"relation" sub-goal); for a goal with ``abs``, the case split (:mod:`.cases`, each piece a
"relation" sub-goal); for a goal in two or more symbols whose difference vanishes on a face of
the domain (and inside a monotonicity argument's sub-goals), monotonicity in one symbol
(:mod:`.monotone`); the convexity layer for a Jensen instance; the integer layer for a relation in one
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
from dataclasses import replace
from fractions import Fraction

from ..errors import BoundcalcError
from ..expr.domains import Domain
from ..expr.indexed import separate
from ..expr.nodes import BigOp, Indexed, Node, Num, Rel, Sym, sub
from ..verdicts import Layer, SmtStatus, Verdict

# the budgets (time limits, size guards) live in the bottom module every layer imports
from .budget import SAMPLES, SECONDS, safety_net, safety_net_hits, safety_nets_fired, sympy_safe
from .closing import closed
from .fold import fold_constants
from .goal import LAYERS, Budget, Decision, Goal, SubGoals
from .goal import verdict as _verdict
from .pipeline import STRATEGY, Share
from .signs import structural_sign
from .statement import UndefinedError, check_defined_somewhere, integer_symbols
from .statement import absorb_bounds as _absorb_bounds
from .statement import check_defined as _check_defined
from .statement import undefined_where as _undefined_where

__all__ = ["LAYERS", "STRATEGY", "Decision", "Share", "UndefinedError", "check_defined_somewhere",
           "decide_relation", "fold_constants", "integer_symbols", "structural_sign"]


# ----------------------------------------------------------------------------- main
def decide_relation(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra=(), *,
                    seconds: float = SECONDS, samples: int = SAMPLES, seed: int = 0,
                    what: tuple[str, str] = ("LHS", "RHS"), certify: bool = False,
                    recheck: bool = True) -> Decision:
    """Decide ``a rel b`` (rel in <=, >=, <, >, ==) for every point of ``domains`` where
    the assumptions ``extra`` (relations) hold. See the module docstring.

    Every "proved" carries a certificate, re-checked by :mod:`boundcalc.recheck` before it
    is reported (:func:`.closing.certified`; rejected: "unknown (certificate rejected: ...)").
    ``certify``: the Decision keeps it (and a disproof gets one too), else it is dropped
    once checked. ``recheck=False``: a nested decision (a rewrite's equivalent goal) whose
    certificate the calling decision re-checks inside its own."""
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
            out = _by_bigops(a, rel, b, domains, extra, layer, Budget.starting_now(seconds, samples, seed), what, t0)
            return closed(Goal(a, rel, b, a, rel, domains, extra), out, certify, recheck, bigops=True)
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
    goal = Goal(a, rel, b, g, op, domains, extra)
    with safety_net(seconds):
        out = _decide(goal, Budget.starting_now(seconds, samples, seed, certify=True))
    if safety_net_hits() > hits:
        # a net fired (CPU time, z3's included): what was found depends on the machine
        fired = "; ".join(dict.fromkeys(safety_nets_fired()))
        out = _verdict("unknown", "safety net", detail=f"a safety net ({fired}: a clock, not a work budget) "
                       "fired during the decision, so its answer would depend on the machine's load: not "
                       "reported (the work budgets are in prover/budget.py)")
    if note:
        out.detail = (out.detail + "; " if out.detail else "") + note
    out = closed(goal, out, certify, recheck)
    out.seconds = round(time.perf_counter() - t0, 3)
    return out



def _by_bigops(a, rel, b, domains, extra, layer, budget: Budget, what, t0) -> Decision:
    """A relation with a big operator over a symbolic range, decided by the big-operator
    layer alone (:mod:`.bigops`) on ``budget.total`` seconds, its sub-goals by
    :func:`decide_relation`."""
    from . import bigops
    for n in {x.index.name for r in layer for x in r.unique_nodes()
              if isinstance(x, Indexed) and isinstance(x.index, Sym)} - Rel(rel, a, b).symbols():
        domains.pop(n, None)      # a per-layer assumption's index is no variable
    a, b = fold_constants(a), fold_constants(b)
    extra = [Rel(r.op, fold_constants(r.lhs), fold_constants(r.rhs)) for r in extra]
    res = bigops.decide_bigops(a, rel, b, domains, extra, _bigops_decider(budget.samples, budget.seed),
                               seconds=budget.total, seed=budget.seed)
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


# ----------------------------------------------------------------------------- the loop
def _decide(goal: Goal, budget: Budget) -> Decision:
    """The rows of :data:`.pipeline.STRATEGY` in order, each on the goals it admits, with
    its share of ``budget`` and the sub-goals it may open; the first Decision ends it. Each
    layer's budget is a share of ``budget.total``, counted in work on the work clock
    (:func:`.budget.clock`: search: points certified; SMT: z3's rlimit; exact: SymPy's calls;
    interval: boxes), so the verdict does not depend on the machine's load. The decision's
    CPU-time safety net (:func:`.budget.safety_net`) only stops a runaway."""
    goal = replace(goal, subgoals=SubGoals(real=_real_decider(budget.samples, budget.seed),
                                           relation=_relation_decider(budget.samples, budget.seed)))
    for row in STRATEGY:
        if row.admits(goal, budget):
            out = row.layer.run(goal.opening(row.opens), row.budget(budget))
            if out is not None:
                return out
    if goal.found.budget_hit:
        return _verdict("unknown", "budget", detail="no proof, no counterexample; budget ran out in: "
                        + ", ".join(goal.found.budget_hit) + " (sampling is not a proof)")
    return _verdict("unknown", "none", detail="no layer found a proof or a counterexample "
                    f"(sampled {budget.samples} points; sampling is not a proof)")


def _real_decider(samples: int, seed: int):
    """``goal op 0`` on real domains by the layers of :func:`_decide` (a "real" sub-goal:
    for the integer, convexity, identity and ends layers, which may not import this module):
    its verdict, within ``seconds`` of work (inside the calling decision's safety net, or a
    net of its own)."""
    def run(goal: Node, op: str, doms: dict, ex: list, seconds: float) -> Verdict:
        goal = fold_constants(goal)
        with safety_net(seconds):
            d = _decide(Goal(goal, op, Num(Fraction(0)), goal, op, dict(doms), list(ex)),
                        Budget.starting_now(seconds, min(samples, 1000), seed))
        return d.verdict
    return run


def _relation_decider(samples: int, seed: int):
    """A "relation" sub-goal (the rewrites' equivalent goals) decided by
    :func:`decide_relation` with the decision's samples and seed, its certificate kept and
    re-checked by the calling decision inside the rewrite's: its Decision, within
    ``seconds`` (a :class:`BoundcalcError` propagates: the caller skips that goal)."""
    def run(a: Node, rel: str, b: Node, doms: dict, ex: list, seconds: float) -> Decision:
        return decide_relation(a, rel, b, doms, ex, seconds=seconds, samples=samples, seed=seed,
                               certify=True, recheck=False)
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
