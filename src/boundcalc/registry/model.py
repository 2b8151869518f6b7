"""The validated content of formula files: papers, symbols, formulas, settings, checks."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..expr.domains import Domain
from ..expr.nodes import Node

KINDS = ("definition", "bound", "requirement", "claim")
VALUE_KINDS = ("definition", "bound")
STATUSES = ("as printed", "corrected", "derived")
ROLES = ("input", "constant", "measured")


@dataclass(frozen=True)
class Symbol:
    paper: str
    name: str
    description: str
    latex: str
    domain: Domain
    default: Fraction | None = None
    role: str = "input"

    @property
    def is_constant(self) -> bool:
        return self.role == "constant"


@dataclass(frozen=True)
class FormulaSpec:
    paper: str
    name: str
    title: str
    kind: str
    text: str
    expr: Node                    # bare references already turned into Ref nodes
    source: str
    latex: str = ""
    uses: tuple[str, ...] = ()
    status: str = "as printed"
    note: str = ""
    bounds: str = ""
    direction: str = ""
    solve_for: str = ""

    @property
    def id(self) -> str:
        return f"{self.paper}.{self.name}"


@dataclass(frozen=True)
class Setting:
    paper: str
    name: str
    title: str
    source: str
    values: dict[str, Fraction]
    derived: tuple[tuple[str, Node, str], ...]   # (symbol, expression, text)
    requirements: tuple[str, ...]
    solve_for: str = ""
    default: bool = False
    aliases: tuple[str, ...] = ()
    note: str = ""
    constraints: tuple[tuple[Node, str], ...] = ()   # relations the inputs must satisfy

    @property
    def id(self) -> str:
        return f"{self.paper}.{self.name}"


@dataclass(frozen=True)
class CheckSpec:
    paper: str
    id: str
    kind: str
    location: str
    description: str
    fields: dict[str, Any]


@dataclass
class Paper:
    key: str
    title: str
    authors: str
    reference: str
    path: Path
    text: str = ""
    symbols: dict[str, Symbol] = field(default_factory=dict)
    formulas: dict[str, FormulaSpec] = field(default_factory=dict)
    settings: dict[str, Setting] = field(default_factory=dict)
    checks: list[CheckSpec] = field(default_factory=list)
