"""Where a decision leaves the prover: its certificate built (the layer's own, a second
method the checker replays, an ``smt`` query for cvc5, else a ``trusted`` one naming what
the checker cannot replay) and re-checked by the independent checker
(:mod:`boundcalc.recheck`) before the verdict is reported.

Soundness contract: a "proved" whose certificate the checker rejects becomes "unknown
(certificate rejected: ...)"; nothing here proves anything.
"""
from __future__ import annotations

from ..verdicts import Layer, Verdict
from .goal import Decision, Goal
from .pipeline import proof_certificate

# what a "trusted" certificate names for a layer's proof that the checker cannot replay
TRUSTED = {"SMT": "z3", "exact": "SymPy", "big operators": "the big-operator layer"}
SECOND_SOLVER = ("SMT", "exact")   # proofs whose claim cvc5 may re-prove (an `smt` certificate)


def closed(goal: Goal, out: Decision, certify: bool, recheck: bool, bigops: bool = False) -> Decision:
    """The one place a decision leaves the prover: a "proved" (and, with ``certify``, any
    verdict) with its certificate re-checked (:func:`certified`; not in a nested decision,
    ``recheck=False``, whose caller re-checks it), the certificate kept only with
    ``certify``."""
    # a big-operator proof is trusted to its layer whatever: its sub-goals' proofs are the ones
    # re-checked (each by its own decision); its claim (a per-layer assumption's bound index)
    # is not always one the checker reads, so it is certified only when asked
    if (out.verdict is Verdict.PROVED and not bigops) or certify:
        # a certificate handed out (certify) is re-checked in full, cvc5's re-proof of an
        # `smt` step included; one that is dropped, by the cheap recheck (solver=False)
        out = certified(goal, out, bigops, check=recheck, solver=certify)
    if not certify:
        out.certificate = out.recheck = None
    return out


def certified(goal: Goal, out: Decision, bigops: bool = False, check: bool = True,
              solver: bool = True) -> Decision:
    """``out`` with its certificate (:mod:`.certificates`) on the goal as decided here
    (constants folded, bounds on single symbols in the domains): the layer's own (exact,
    boxes, rewrite), else a counterexample from the reported point (a disproof), else a
    "trusted" one naming what the checker cannot replay (z3, SymPy, a layer); none for
    unknown or vacuous. Every certificate is re-checked (:func:`boundcalc.recheck.recheck`;
    ``solver=False``: without cvc5's re-proof of an `smt` step, which is then labelled "not
    rechecked"); one that fails makes the verdict "unknown (certificate rejected: ...)". The
    checker's answer is kept as ``out.recheck``."""
    from ..recheck import recheck
    from . import certificates as C
    layer = str(out.layer)
    try:
        claim = C.claim(goal.a, goal.rel, goal.b, goal.domains, goal.extra)
    except C.NameClash as e:
        # a[i] and a symbol named a_i_: the checker would read one symbol; refused, not guessed
        if out.verdict is not Verdict.PROVED:
            out.certificate = None
            return out
        return Decision(Verdict.UNKNOWN, Layer.NONE, f"unknown (certificate refused: {e})",
                        detail=f"the {layer} layer's proof cannot be re-checked under these names")
    cert = out.certificate
    if cert is None and out.verdict is Verdict.DISPROVED and bigops:
        cert = C.trusted(claim, "the big-operator layer", "a counterexample written out at a depth: " + out.text)
    elif cert is None and out.verdict is Verdict.DISPROVED and out.counterexample:
        cert = C.counterexample(claim, out.counterexample)
    elif cert is None and out.verdict is Verdict.PROVED:
        # a second method the checker replays (a polynomial identity, a plain box cover),
        # else what it cannot replay, named
        by = TRUSTED.get(layer, f"the {layer} layer")
        cert = proof_certificate(goal, ("exact", "boxes")) or (C.smt(claim, by) if layer in SECOND_SOLVER else None)
        cert = cert or C.trusted(claim, by, out.text)
    if cert is None:
        return out
    if not check:
        out.certificate = cert
        return out
    r = recheck(cert, solver=solver)
    if not r.valid and cert["kind"] == "counterexample" and "not separated from 0" in r.reason:
        # the relation fails by an equality at the point (x e^-x < 1/e at x = 1), which the
        # search showed exactly with SymPy and ball arithmetic never can: named, not hidden
        cert = C.trusted(claim, "SymPy", f"an exact 0 at the point {cert['point']} (of lhs - rhs or of an "
                         "assumption, the search's exact check); the checker's ball arithmetic cannot show a 0")
        cert["verdict"] = "disproved"     # a disproof: its claim is not spot-checked as a proof's is
        r = recheck(cert, solver=solver)
    if not r.valid:
        return Decision(Verdict.UNKNOWN, Layer.NONE, f"unknown (certificate rejected: {r.reason})",
                        detail=f"the {layer} layer's {out.verdict} did not survive the independent checker")
    out.certificate, out.recheck = cert, r.to_json()
    return out
