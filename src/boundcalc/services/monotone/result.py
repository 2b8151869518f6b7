"""What :func:`boundcalc.services.monotone.monotone` answers: a record with the direction (a
:class:`~boundcalc.verdicts.Direction` member), the evidence, and the region the verdict
covers (``scope``) as separate fields; its printers are in :mod:`boundcalc.reports.printers`."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...expr.nodes import Node
from ...verdicts import Direction, MonotoneEvidence

# the verdicts that say how f moves (not neither / unknown)
_MONOTONE = (Direction.INCREASING, Direction.DECREASING, Direction.CONSTANT)
# what sampling says instead of a direction
_SAMPLED = (Direction.NO_DECREASE_FOUND, Direction.NO_INCREASE_FOUND, Direction.NO_CHANGE_FOUND)


@dataclass(frozen=True)
class Subject:
    """What :func:`monotone` needs of a formula: an id for messages, the expression (or a
    relation) and its symbol table. An :class:`boundcalc.api.Formula` has these too; the
    services build a Subject instead of importing the API layer."""
    id: str
    expr: Node
    symbol_table: dict


@dataclass(frozen=True)
class MonotoneResult:
    """What :func:`monotone` found: the ``direction`` (a :class:`~boundcalc.verdicts.Direction`
    member: increasing | decreasing | constant | neither | unknown | no ... found), its
    ``evidence`` (proved | certified | sampled | counterexample | none), the region the
    verdict covers (``scope``: domain | box | default box; ``asked``: an unbounded range), the
    derivative, the ``box``, and a certified ``counterexample`` for ``neither``. The printed
    verdict (:attr:`verdict`) is derived from the direction and the scope, never stored and
    never parsed. See the package docstring."""
    id: str
    var: str
    direction: Direction
    evidence: MonotoneEvidence
    derivative: str
    detail: str
    box: dict = field(default_factory=dict)
    counterexample: dict | None = None
    scope: str = "domain"        # what the verdict covers: domain | box (--box) | default box
    asked: str = ""              # an unbounded --box asked about ('n in [8, +inf)'); '' = the domain
    samples: int = 0             # a sampled verdict: the points f was evaluated at
    setting: str = ""            # monotone --setting: the setting whose values fixed the others

    def __post_init__(self):
        object.__setattr__(self, "direction", Direction(self.direction))
        object.__setattr__(self, "evidence", MonotoneEvidence(self.evidence))

    @property
    def on_default_box_only(self) -> bool:
        """A direction (increasing, decreasing, constant) shown on the default box only: the
        domain is unbounded and no ``--box`` was given."""
        return self.scope == "default box" and self.direction in _MONOTONE

    @property
    def verdict(self) -> str:
        """The verdict as printed (the JSON key ``verdict``): the direction, followed by
        'on the default box only' where it rests on that box."""
        return str(self.direction) + (" on the default box only" if self.on_default_box_only else "")

    def to_json(self) -> dict:
        from ... import formats
        return formats.call("json", self)

    def describe(self) -> str:
        """The verdict as ``monotone`` prints it (:mod:`boundcalc.reports.printers.text`)."""
        from ... import formats
        return formats.call("text", self)
