"""What the decision procedure's layers work on: a :class:`Goal` (the relation, its domains,
assumptions and integer symbols), a :class:`Budget` (the work a layer may spend, counted on
the work clock of :mod:`.budget`), and the answer every layer gives, a :class:`Decision`.

The pipeline (:mod:`.pipeline`) hands each layer of its strategy table a ``Goal`` and a
``Budget``; what one layer learns for the layers after it (the pre-pass's reading, the SMT
runs, the rewritten candidates, the layers whose budget ran out) is kept in the goal's
:class:`Findings`, and the sub-goals a layer may open (a real relaxation, an equivalent
relation) are reached through the goal's :class:`SubGoals`, restricted to those its row of
the table names. This module imports no layer, so every layer may import it.

Soundness contract: none to give; this module decides nothing.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from ..expr.domains import Domain
from ..expr.nodes import Node, Rel
from ..verdicts import Layer, Verdict
from .budget import clock, expired, left

LAYERS = ("exact", "identity", "convexity", "big operators", "integers", "ends", "case split", "monotonicity", "order",
          "SMT",
          "interval", "counterexample", "budget", "safety net", "none")


@dataclass
class Decision:
    """The answer of :func:`.decide.decide_relation`: ``verdict`` (proved | disproved |
    unknown | vacuous), the ``layer`` that decided it (one of :data:`LAYERS`), the verdict as
    printed (``text``), a ``counterexample`` re-checked in ball arithmetic for ``disproved``,
    and ``detail`` and ``seconds``; with ``certify=True``, its ``certificate`` (a proof term
    of :mod:`.certificates`, re-verified by :mod:`boundcalc.recheck`). See :mod:`.decide`'s
    docstring."""
    verdict: Verdict
    layer: Layer
    text: str
    detail: str = ""
    counterexample: dict | None = None
    seconds: float = 0.0
    certificate: dict | None = None
    # with the certificate: the checker's answer (boundcalc.recheck.Recheck.to_json; its
    # "status" says "rechecked" or "certificate attached, not rechecked")
    recheck: dict | None = None

    def __post_init__(self):
        self.verdict, self.layer = Verdict(self.verdict), Layer(self.layer)


def verdict(verdict, layer, how="", **kw) -> Decision:
    """A :class:`Decision` printed ``"<verdict> (<layer>, <how>)"``."""
    return Decision(verdict, layer, f"{verdict} ({layer}{', ' + how if how else ''})", **kw)


class Reformulation(NamedTuple):
    """An equivalent (or stronger) form of a goal ``g op 0``, the same ``op``: the new ``g``,
    its assumptions ``extra`` and ``domains``, and the ``labels`` of what was substituted or
    named ("x = x_root**3"). Returned by :func:`.prepass.root_substitution` and
    :func:`.smt.generalize`."""
    g: Node
    extra: list
    domains: dict
    labels: list


@dataclass(frozen=True)
class SmtRun:
    """One problem for z3: the goal ``g op 0`` in the form ``g`` (substituted, generalized,
    logarithmic), with its assumptions and domains, and the ``prefix`` its proof is printed
    with ("after generalizing ...; ")."""
    prefix: str
    g: Node
    extra: list
    domains: dict


@dataclass
class Findings:
    """What the layers learn of a goal on its way through the strategy table."""
    budget_hit: list = field(default_factory=list)   # the layers whose budget ran out
    # the pre-pass's reading of the goal (row "pre-pass")
    why: str | None = None          # why SymPy is not safe on the goal (None: it is)
    special: bool = False           # a special function in the goal (prepass.profile)
    n_int: Any = None               # the integer layer's reading (integers.applies), None: not its goal
    runs: list[SmtRun] = field(default_factory=list)   # the problems for z3
    settled: set = field(default_factory=set)      # runs whose relaxed problem z3 answered (sat)
    candidates: list = field(default_factory=list)  # the goal and its logarithmic forms (exact layer)


# a real relaxation: ``g op 0`` on real domains under assumptions, within seconds of work
RealDecider = Callable[[Node, str, dict, list, float], Verdict]
# a relation ``a rel b`` on domains under assumptions, within seconds of work
RelationDecider = Callable[[Node, str, Node, dict, list, float], Decision]

SUBGOAL_KINDS = ("real", "relation")


class SubGoalNotDeclared(RuntimeError):
    """A layer opened a kind of sub-goal its row of the strategy table does not name (a bug
    of the table, never a user error)."""


@dataclass(frozen=True)
class SubGoals:
    """The sub-goals a layer may open, decided by the decision procedure again: ``real``
    (:data:`RealDecider`: the integer, convexity, identity and ends layers' real goals) and
    ``relation`` (:data:`RelationDecider`: the rewrites' equivalent relations). A kind the
    layer's row does not name is None here, and opening it raises
    :class:`SubGoalNotDeclared`."""
    real: RealDecider | None = None
    relation: RelationDecider | None = None

    def only(self, kinds: Iterable[str]) -> SubGoals:
        keep = set(kinds)
        return SubGoals(**{k: getattr(self, k) if k in keep else None for k in SUBGOAL_KINDS})

    def open(self, kind: str) -> Callable:
        fn = getattr(self, kind)
        if fn is None:
            raise SubGoalNotDeclared(f"a layer opened a {kind!r} sub-goal that its row of the strategy "
                                     "table does not name")
        return fn


@dataclass
class Goal:
    """One goal: the relation ``a rel b`` as stated and the same as ``g op 0`` (op in >=,
    >, ==), on ``domains`` where the assumptions ``extra`` hold; the integer symbols are
    those of integer domain (:attr:`integers`). ``found``: what the layers learn of it;
    ``subgoals``: the sub-goals the running layer may open."""
    a: Node
    rel: str
    b: Node
    g: Node
    op: str
    domains: dict[str, Domain]
    extra: list[Rel]
    subgoals: SubGoals = field(default_factory=SubGoals)
    found: Findings = field(default_factory=Findings)

    @property
    def integers(self) -> frozenset[str]:
        """The symbols whose domain is integer."""
        return frozenset(n for n, d in self.domains.items() if d.integer)

    def opening(self, kinds: Iterable[str]) -> Goal:
        """The same goal (the same findings) whose layer may open only sub-goals of ``kinds``."""
        return replace(self, subgoals=self.subgoals.only(kinds))


@dataclass(frozen=True)
class Budget:
    """The work a decision may spend, in nominal seconds on the work clock
    (:func:`.budget.clock`, never a clock's): the decision's ``total``, its ``deadline`` (a
    work-clock value), the ``samples`` of its counterexample searches (and their ``seed``),
    and ``seconds``, the running layer's share of ``total`` (None: the layer has no share of
    its own and works up to the deadline); ``certify``: whether the layers build a
    certificate with their verdict (:mod:`.certificates`; outside the work budget, after
    the verdict, which it never changes)."""
    total: float
    deadline: float
    samples: int
    seed: int
    seconds: float | None = None
    certify: bool = False

    @classmethod
    def starting_now(cls, seconds: float, samples: int, seed: int, certify: bool = False) -> Budget:
        """A decision of ``seconds`` of work from the work clock's present value."""
        return cls(seconds, clock() + seconds, samples, seed, certify=certify)

    def expired(self) -> bool:
        """Whether the decision's deadline has passed (or its safety net fired)."""
        return expired(self.deadline)

    def left(self) -> float:
        """Nominal seconds of work left until the deadline."""
        return left(self.deadline)

    def with_share(self, seconds: float | None) -> Budget:
        return replace(self, seconds=seconds)
