"""The exit status of every command, in one place (README "Exit status", ``boundcalc --help``).

A script can tell the outcomes of ``require``, ``monotone`` and ``verify`` apart without
reading their output:

====  =========================================================================
0     an answer: ``require`` found the least/largest value (or the requirement holds on
      the whole domain or range); ``monotone`` proved or certified a direction on what was
      asked (the domain, or ``--box``); ``verify`` proved the relation
1     ``check`` found a finding at or above ``--fail-on``; ``recheck`` found the certificate
      invalid; or a bug in boundcalc
2     bad input or a refusal (one line on stderr naming the culprit)
3     not monotone: ``require``'s relation, or ``monotone``'s verdict, is *neither*
      (a certified counterexample in both directions)
4     no answer: ``require`` — no value of the variable in its domain or ``--from/--to``
      range satisfies the relation, or the requirements contradict each other
      (impossible); ``verify`` — disproved (a certified counterexample)
5     unknown: nothing was established — ``require`` left the relation undecided,
      ``monotone`` found only sampled evidence, no direction, or a direction on the
      default box only, ``verify`` answered unknown or the assumptions are inconsistent
      (vacuous); ``recheck`` found the certificate valid only up to facts it takes on trust
      (z3, SymPy, a layer)
130   interrupted (Ctrl-C); 141 standard output closed early (``| head``)
====  =========================================================================

Only the typer layer imports this module; the functions read the result records' words
(:mod:`boundcalc.verdicts`), never their printed text.
"""
from __future__ import annotations

from enum import IntEnum

__all__ = ["EXIT_HELP", "Exit", "for_monotone", "for_require", "for_verify"]


class Exit(IntEnum):
    """The documented exit statuses (see the module docstring)."""
    OK = 0
    FINDINGS = 1
    BAD_INPUT = 2
    NOT_MONOTONE = 3
    NO_ANSWER = 4
    UNKNOWN = 5
    INTERRUPTED = 130
    BROKEN_PIPE = 141


EXIT_HELP = ("Exit status: 0 an answer (require: a least/largest value; monotone: a proved or "
             "certified direction; verify: proved); 1 check found a finding at --fail-on, recheck an "
             "invalid certificate, or a bug in boundcalc; 2 bad input or a refusal (one line on stderr); 3 not monotone (require, "
             "monotone: a certified counterexample both ways); 4 no answer (require: no value in the "
             "domain or --from/--to range, or impossible; verify: disproved); 5 unknown (undecided, "
             "sampled only, on the default box only, vacuous); 130 interrupted (Ctrl-C); 141 standard "
             "output closed early (a pipe such as '| head'), as cat or grep.")


def for_monotone(r) -> Exit:
    """0 for a proved or certified direction on the domain or the given box; 3 for a certified
    'neither'; 5 otherwise (sampled only, unknown, or shown on the default box only)."""
    from ..verdicts import Direction, MonotoneEvidence
    d = r.direction
    if d is Direction.NEITHER and r.evidence is MonotoneEvidence.COUNTEREXAMPLE:
        return Exit.NOT_MONOTONE
    if (d in (Direction.INCREASING, Direction.DECREASING, Direction.CONSTANT)
            and r.evidence in (MonotoneEvidence.PROVED, MonotoneEvidence.CERTIFIED)
            and r.scope != "default box"):
        return Exit.OK
    return Exit.UNKNOWN


def for_verify(r) -> Exit:
    """0 proved; 4 disproved; 5 unknown or vacuous (nothing shown about the relation)."""
    from ..verdicts import Verdict
    if r.verdict is Verdict.PROVED:
        return Exit.OK
    if r.verdict is Verdict.DISPROVED:
        return Exit.NO_ANSWER
    return Exit.UNKNOWN


def for_require(res) -> Exit:
    """3 when a requirement is not monotone in the variable; 5 when one is undecided; 4 when
    the least values exceed the largest allowed ones (impossible); else 0. (No value in the
    domain or range at all is an :class:`~boundcalc.errors.UnsatisfiableError`: also 4.)"""
    from ..verdicts import RequireOutcome
    for r in res.results:
        if r.solution.outcome is RequireOutcome.NOT_MONOTONE:
            return Exit.NOT_MONOTONE
    for r in res.results:
        if r.solution.outcome is RequireOutcome.UNDECIDED:
            return Exit.UNKNOWN
    if res.feasible is False:
        return Exit.NO_ANSWER
    return Exit.OK
