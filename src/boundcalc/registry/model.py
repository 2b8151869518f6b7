"""The validated content of formula files: papers, symbols, formulas, settings, checks."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..expr._record import record_repr
from ..expr.domains import Domain
from ..expr.nodes import Node
from ..verdicts import FORMULA_STATUSES, FormulaStatus

if TYPE_CHECKING:
    from ..expr.indexed import Vector

_CHECKS_LOCK = threading.Lock()

KINDS = ("definition", "bound", "requirement", "claim")
VALUE_KINDS = ("definition", "bound")
STATUSES = FORMULA_STATUSES                 # as printed | corrected | derived
ROLES = ("input", "constant", "measured")


@dataclass(frozen=True)
class Symbol:
    """A symbol of a paper: its description, LaTeX (unique in its file), :class:`Domain`,
    default value, role (``input``, ``constant`` or ``measured``) and, where the paper writes
    several symbols with one letter, that letter (``printed``: read in printed LaTeX, where
    the formula's expression settles which symbol it is). An *indexed* symbol (``s[i]``)
    names its ``index`` and the index ``range`` (two trees, ``lo .. hi``, e.g. ``1 .. L``);
    its domain is that of every component, and its value is a vector or one number for all."""
    __repr__ = record_repr       # integers of any size (boundcalc.expr._record)
    paper: str
    name: str
    description: str
    latex: str
    domain: Domain
    default: Fraction | None = None
    role: str = "input"
    printed: str = ""             # how the paper writes it when it reuses one letter for several symbols
    description_latex: str = ""   # the description as LaTeX text (math in $...$), where it has math
    index: str = ""
    range: tuple | None = None        # (lo, hi) trees of an indexed symbol

    @property
    def is_indexed(self) -> bool:
        """Whether the symbol is indexed (``s[i]``, a vector value)."""
        return bool(self.index)

    @property
    def is_constant(self) -> bool:
        """Whether the symbol is one of the paper's constants (role ``constant``)."""
        return self.role == "constant"

    def with_domain(self, domain: Domain) -> Symbol:
        """This symbol with ``domain`` instead of its own (a search range of ``require``, an
        unbounded ``monotone --box``)."""
        return Symbol(self.paper, self.name, self.description, self.latex, domain, self.default, self.role,
                      self.printed)


@dataclass(frozen=True)
class FormulaSpec:
    """A formula as its file declares it: the parsed expression (references to other
    formulas as :class:`Ref` nodes, not yet inlined), its kind, source, status and notes."""
    __repr__ = record_repr       # integers of any size (boundcalc.expr._record)
    paper: str
    name: str
    title: str
    kind: str
    text: str
    expr: Node                    # bare references already turned into Ref nodes
    source: str
    latex: str = ""
    uses: tuple[str, ...] = ()
    status: FormulaStatus = FormulaStatus.AS_PRINTED
    note: str = ""
    bounds: str = ""
    direction: str = ""
    solve_for: str = ""
    from_latex: bool = False      # given by its LaTeX alone (no expr): expr was read from latex
    # title, note and bounds as LaTeX text (math in $...$), where they have math
    title_latex: str = ""
    note_latex: str = ""
    bounds_latex: str = ""
    # a LaTeX-only formula's chained statement (``Q := a = b``): the relations it states
    # between its other values (``a == b``), each read in full (expr/latex_in.py)
    chain: tuple[Node, ...] = ()              # relations (Rel nodes)

    @property
    def id(self) -> str:
        """``paper.name``."""
        return f"{self.paper}.{self.name}"


@dataclass(frozen=True)
class Setting:
    """A setting of a paper (a theorem's regime, a table's row): input values, derived
    quantities, the requirements ``require`` solves and the variable it solves for."""
    __repr__ = record_repr       # integers of any size (boundcalc.expr._record)
    paper: str
    name: str
    title: str
    source: str
    values: dict[str, Fraction | Vector]      # a Vector for an indexed symbol
    derived: tuple[tuple[str, Node, str], ...]   # (symbol, expression, text)
    requirements: tuple[str, ...]
    solve_for: str = ""
    default: bool = False
    aliases: tuple[str, ...] = ()
    note: str = ""
    constraints: tuple[tuple[Node, str], ...] = ()   # relations the inputs must satisfy

    @property
    def id(self) -> str:
        """``paper.name``."""
        return f"{self.paper}.{self.name}"


@dataclass(frozen=True)
class Hypothesis:
    """A condition under which the paper states a result: a relation over the result's
    symbols (formula references allowed through ``uses``), quoted from the statement."""
    __repr__ = record_repr       # integers of any size (boundcalc.expr._record)
    paper: str
    result: str                   # an entry of ``[paper] results``
    expr: Node                    # a relation (Rel); bare references already Ref nodes
    text: str                     # the relation as written in the file
    quote: str                    # the paper's own words
    source: str                   # section / equation of the quote
    note: str = ""


@dataclass(frozen=True)
class CheckSpec:
    """A check of a paper as its file declares it: ``kind`` (the runner of
    :mod:`boundcalc.services.check`), where in the paper, and ``spec``: the kind's typed
    spec (:data:`boundcalc.registry.checks.KINDS`), every field validated at load."""
    paper: str
    id: str
    kind: str
    location: str
    description: str
    spec: Any                     # a boundcalc.registry.checks.CheckFields of the kind

    @property
    def covers(self) -> tuple[str, ...]:
        """The numbered results of the paper (``[paper] results``) the check audits."""
        return tuple(self.spec.covers)

    @property
    def reading(self) -> str:
        """How the check reads the paper (its ``reading`` field; default ``printed``)."""
        return self.spec.reading


@dataclass
class Paper:
    """One formula file: the paper's reference fields, symbols, formulas, settings and
    hypotheses; its checks are validated on first use (:attr:`checks`)."""
    key: str
    title: str
    authors: str
    reference: str
    path: Path
    text: str = ""
    results: tuple[str, ...] = ()          # the numbered results of the main text (coverage)
    refs: dict[str, str] = field(default_factory=dict)   # arxiv, doi, url, year, venue, cite_key, bibtex
    symbols: dict[str, Symbol] = field(default_factory=dict)
    formulas: dict[str, FormulaSpec] = field(default_factory=dict)
    settings: dict[str, Setting] = field(default_factory=dict)
    hypotheses: tuple = ()                 # Hypothesis records, in file order
    fail_on: str = ""                      # [paper] fail_on: check's gate for this paper ('' = the default)

    @property
    def checks(self) -> list[CheckSpec]:
        """The paper's checks, validated on first use (commands that run no check — every
        numeric one — do not pay for parsing them; a user's file is validated at start
        through this property, see ``Registry.validate_files``)."""
        d = self.__dict__
        if "_checks" not in d:
            with _CHECKS_LOCK:
                if "_checks" not in d:
                    out: list[CheckSpec] = []
                    load = d.get("_load_checks")
                    if load is not None:
                        load(out)          # raises FormulaFileError for a malformed check
                    d["_checks"] = out
        return d["_checks"]

    @property
    def steps(self) -> tuple:
        """The displayed proof steps (``[[steps]]``, :class:`.steps.Step`), validated with the checks."""
        _ = self.checks               # loading the checks loads the steps (they name check ids)
        return self.__dict__.get("_steps", ())

    @property
    def step_candidates(self) -> dict:
        """``[step_candidates]``: label -> ``{"excluded": reason}`` or ``{"steps": ids}``, the
        candidates of a displayed step a person decided (validated with the steps)."""
        _ = self.checks
        return self.__dict__.get("_step_candidates", {})

    def __repr__(self) -> str:        # short: the full record is many kilobytes
        return (f"<Paper {self.key}: {self.title!r}, {len(self.formulas)} formulas, "
                f"{len(self.symbols)} symbols, {len(self.checks)} checks>")
