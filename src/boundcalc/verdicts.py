"""The words boundcalc answers with, as enums: decision verdicts and the layer that
decided, the SMT and interval layers' internal statuses, monotonicity, the outcome of a
``require``, the grade of a check, the status of a formula (as printed / corrected /
derived).

One field name per idea in the records that carry them: a decision's ``verdict``
(:class:`Verdict`), a requirement's ``outcome`` (:class:`RequireOutcome`), a check's
``severity`` (:class:`Grade`), a formula's ``status`` (:class:`FormulaStatus`), a
monotonicity's ``direction`` and ``evidence``; the SMT and interval layers' own answers
(:class:`SmtStatus`, :class:`IntervalStatus`: not yet verdicts) are their ``status``.

Each is a :class:`enum.StrEnum`: a member *is* its string (``Verdict.PROVED ==
"proved"``, ``f"{Verdict.PROVED}"`` and ``json.dumps`` give ``proved``), so the JSON
and the printed text keep the same strings, while a misspelt word fails where the record
is built (``Verdict("prooved")`` raises ``ValueError``) instead of silently comparing
unequal. ``repr`` is the string's repr too: a verdict inside a dict that a report prints
with ``str(dict)`` (the check evidence) reads as before (``'proved'``), not as
``<Verdict.PROVED: 'proved'>``.

Compare with ``is`` (``d.verdict is Verdict.PROVED``) in new code. This module imports
only :mod:`enum` (already loaded by :mod:`re`): the numeric commands' start-up pays
nothing for it.
"""
from __future__ import annotations

from enum import StrEnum

__all__ = [
    "FAIL_LEVELS",
    "FORMULA_STATUSES",
    "GRADES",
    "SEVERITIES",
    "Direction",
    "FormulaStatus",
    "Grade",
    "IntervalStatus",
    "Layer",
    "MonotoneEvidence",
    "RequireOutcome",
    "SmtStatus",
    "Verdict",
]


class _Word(StrEnum):
    def __repr__(self) -> str:
        return repr(self.value)


class Verdict(_Word):
    """The verdict of a decision (:class:`boundcalc.prover.decide.Decision`)."""
    PROVED = "proved"
    DISPROVED = "disproved"          # with a counterexample certified in ball arithmetic
    UNKNOWN = "unknown"
    VACUOUS = "vacuous"              # the assumptions are inconsistent: nothing to prove


class Layer(_Word):
    """The layer of the decision procedure that decided (:data:`decide.LAYERS`)."""
    EXACT = "exact"
    IDENTITY = "identity"            # an identity: derivatives vanish on a star-shaped region
    CONVEXITY = "convexity"          # a Jensen instance: the sign of f'' proved on the hull
    BIGOPS = "big operators"         # sums/products over a symbolic range (prover/bigops.py)
    INTEGERS = "integers"            # induction or a real relaxation from n0, exhaustive below
    ENDS = "ends"                    # the ends of one variable's domain cut off by derivative arguments
    CASES = "case split"             # pieces where the absolute values have one sign (prover/cases.py)
    MONOTONE = "monotonicity"        # a partial derivative's sign proved, the goal reduced to a face
    ORDER = "order"                  # under x <= y, a partial derivative's sign proved, reduced to x = y
    SMT = "SMT"
    INTERVAL = "interval"
    COUNTEREXAMPLE = "counterexample"
    BUDGET = "budget"                # unknown: a work or size budget ran out
    SAFETY_NET = "safety net"        # unknown: a clock's safety net fired (the answer would depend on load)
    NONE = "none"                    # unknown: every layer ran and none decided


class Direction(_Word):
    """How a quantity moves with a variable (``monotone``'s verdict without its scope).

    The three ``... found`` words are what sampling can say: it names no direction (a
    sampled search that saw no decrease is not "increasing"); :attr:`leans` gives the
    direction such a verdict did not contradict."""
    INCREASING = "increasing"
    DECREASING = "decreasing"
    CONSTANT = "constant"
    NEITHER = "neither"
    UNKNOWN = "unknown"
    NO_DECREASE_FOUND = "no decrease found"      # sampled only: no pair where f falls
    NO_INCREASE_FOUND = "no increase found"      # sampled only: no pair where f rises
    NO_CHANGE_FOUND = "no change found"          # sampled only: f never moved

    @property
    def leans(self) -> Direction:
        """The direction a verdict points to: itself, or for a sampled ``no ... found`` the
        direction the samples did not contradict (no change found: constant)."""
        return {"no decrease found": Direction.INCREASING, "no increase found": Direction.DECREASING,
                "no change found": Direction.CONSTANT}.get(self.value, self)


class MonotoneEvidence(_Word):
    """What a monotone verdict rests on."""
    PROVED = "proved"                # the sign of the derivative proved on the domain
    CERTIFIED = "certified"          # on a box, in ball arithmetic
    SAMPLED = "sampled"              # NOT a proof
    COUNTEREXAMPLE = "counterexample"
    NONE = "none"


class SmtStatus(_Word):
    """The SMT layer's internal answer (:class:`boundcalc.prover.smt.SmtOutcome`), before
    the decision procedure turns it into a :class:`Verdict`."""
    PROVED = "proved"                # z3: the negated goal is unsatisfiable
    SAT = "sat"                      # z3 found a point violating the goal (not yet certified)
    UNKNOWN = "unknown"


class IntervalStatus(_Word):
    """The interval layer's internal answer (:class:`boundcalc.prover.interval.IntervalOutcome`)."""
    PROVED = "proved"                # every box closed in ball arithmetic
    DISPROVED = "disproved"          # a point of the wrong sign (re-certified by the caller)
    BUDGET = "budget"                # boxes or time ran out
    SKIPPED = "skipped"              # the layer does not apply


class RequireOutcome(_Word):
    """The outcome of one requirement of ``require`` (``Solution.outcome``)."""
    SOLVED = "solved"
    HOLDS_EVERYWHERE = "holds everywhere"
    UNDECIDED = "undecided"
    NOT_MONOTONE = "not monotone"


class FormulaStatus(_Word):
    """The status of a formula (``FormulaSpec.status``): how it relates to the paper's text."""
    AS_PRINTED = "as printed"
    CORRECTED = "corrected"          # the paper's formula with a mistake corrected (its note says which)
    DERIVED = "derived"              # not printed: derived by us from the paper (its note says how)
    AS_GIVEN = "as given"            # not a formula of a file: a relation given on the command line (require --target)


# the statuses a formula file may give (formulas/README.md)
FORMULA_STATUSES = (FormulaStatus.AS_PRINTED, FormulaStatus.CORRECTED, FormulaStatus.DERIVED)


class Grade(_Word):
    """The grade of a check, worst first (the order of :data:`GRADES`)."""
    ERROR = "error"                  # false as printed, or an invalid bound
    WARNING = "warning"              # imprecise, or undecided
    NOTE = "note"                    # rests on a reading, on versions, on sampling; outside the hypotheses
    CANNOT_FAIL = "cannot fail"      # a pass that kills no mutant under --strength (not a pass)
    IDENTITY = "identity"            # an identity or a tautology of the encoding (not a pass)
    CONDITIONAL = "conditional"      # passed, but only under an assumption the paper does not state
    OK = "ok"                        # passed

    @property
    def rank(self) -> int:
        """0 for the worst grade (error) up to 6 (ok)."""
        return GRADES.index(self)


# the grades that are findings, and every grade worst first
SEVERITIES = (Grade.ERROR, Grade.WARNING, Grade.NOTE)
GRADES = tuple(Grade)

# ``check --fail-on LEVEL`` and a formula file's ``[paper] fail_on``: error (the default),
# warning, undecided (errors and every check left undecided), never
FAIL_LEVELS = ("error", "warning", "undecided", "never")
