"""What every check kind shares: the finding record, parsing check expressions against a
paper, domains, the hidden constants of an expression, and the decision call."""
from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction

from ...expr.domains import Domain
from ...expr.nodes import Node, Num, Ref, Sym, substitute
from ...expr.parser import parse, parse_number

# every grade of a check, worst first (boundcalc.verdicts.Grade): the findings (SEVERITIES),
# then "cannot fail" (a pass that catches no mutant of the paper's side under --strength),
# "identity" (an identity or a tautology of the encoding: marked ``identity = true``, or found
# so by :mod:`.premises`), "conditional" (passes only under an assumption added by us), then
# "ok" (passed). "conditional" and "ok" are passes; only "ok" is an unconditional one.
from ...verdicts import GRADES, SEVERITIES, Grade  # noqa: F401

# seconds one decision may take inside `check` (the CLI's `verify` allows more)
DECIDE_SECONDS = 4.0

# The claim a check compares, seen by ``check --strength`` (:mod:`.strength`): each runner
# passes the node it checks through :func:`claim` under a role name ("lhs", "claim", ...).
# Outside a strength run the hook is None and ``claim`` returns the node unchanged.
_CLAIM_HOOK: ContextVar = ContextVar("claim_hook", default=None)
# a cap on every decision's seconds (mutants of --strength are decided with a short budget)
_SECONDS_CAP: ContextVar = ContextVar("seconds_cap", default=None)
# check --certificates: the list a check's decided relations append their certificates to
_CERTIFICATES: ContextVar = ContextVar("certificates", default=None)


def claim(role: str, node: Node) -> Node:
    """The claim node of a check under ``role``: recorded, or replaced by a mutant."""
    hook = _CLAIM_HOOK.get()
    return node if hook is None else hook(role, node)


@dataclass
class Finding:
    paper: str
    check: str
    kind: str
    severity: Grade        # error | warning | note | cannot fail | identity | conditional | ok (a str Enum)
    location: str
    message: str
    evidence: dict = field(default_factory=dict)
    # why this grade: "false as printed", "polylog factor", "looser constant",
    # "large hidden constant", "vacuous", "invalid bound", "undecided", "sampled only", "default box only",
    # "reading: garbled", "reading: versions", "" (passed)
    reason: str = ""
    reading: str = "printed"
    covers: list = field(default_factory=list)
    rerun: str = ""        # a command line that reproduces the evidence
    api: str = ""          # the same as a Python call, where it differs
    # a consequence: "paper.check" of the root finding that explains this one, and why
    # (declared by the check's `explained_by`; attached only when the root is a finding)
    root: str = ""
    because: str = ""
    strength: dict | None = None   # --strength: {"mutants": N, "killed": K, "survivors": [...]}
    note: str = ""         # the check's declared ``note``, printed with the finding whenever it exists
    # each symbol of the evidence (the counterexample's, the expressions') -> its LaTeX as the
    # formula file declares it; for the printers that typeset the evidence, not in the JSON
    notation: dict = field(default_factory=dict)
    # the assumptions the check makes that are not quoted hypotheses of the paper ("added by
    # us", :func:`.premises.added_by_us`): each {"assumption", "kind", "reason", "needed"}
    added: list = field(default_factory=list)
    # the two sides the runner compared, (a, relation, b) as nodes, for the tautology screen
    # (:mod:`.premises`); dropped before the finding leaves :func:`run_checks`
    sides: tuple | None = None

    def __post_init__(self):
        self.severity = Grade(self.severity)

    def to_json(self) -> dict:
        from ... import formats
        return formats.call("json", self)

    def grade(self, severity: str, reason: str, message: str | None = None) -> None:
        self.severity, self.reason = Grade(severity), reason
        if message is not None:
            self.message = message


# ----------------------------------------------------------------------------- parsing
def expr(reg, paper, text, uses=()) -> Node:
    """Parse a check expression; names listed in ``uses`` are formulas, others symbols."""
    node = parse(str(text), allow_relation=False, where=f"check expression {text!r}")
    node = node.map(lambda n: Ref(None, n.name) if isinstance(n, Sym) and n.name in uses else None)
    return reg.resolve(node, paper.key)


def formula(reg, paper, ref: str) -> Node:
    return reg.resolved(formula_id(paper, ref))


def formula_id(paper, ref: str) -> str:
    return ref if "." in ref else f"{paper.key}.{ref}"


def domains(reg, paper, node: Node) -> dict[str, Domain]:
    table = reg.symbol_table(node, paper.key)
    return {n: (table[n].domain if n in table else Domain(lo=Fraction(0))) for n in sorted(node.symbols())}


def hidden_constants(reg, paper, node: Node, extra=()) -> dict[str, Fraction]:
    """The absolute constants (role ``constant``) in ``node``, and the symbols a check
    declares ``existential`` (e.g. a "sufficiently large C0"), with their defaults (1 when
    a declared existential symbol has none)."""
    table = reg.symbol_table(node, paper.key)
    out = {}
    for n in sorted(node.symbols()):
        s = table.get(n)
        if (s is not None and s.is_constant) or n in extra:
            out[n] = s.default if s is not None and s.default is not None else Fraction(1)
    return out


def pin(node: Node, values: dict) -> Node:
    """Substitute numbers for symbols."""
    return substitute(node, {k: Num(Fraction(v)) for k, v in values.items()})


def subst(reg, paper, mapping: dict, uses=()) -> dict[str, Node]:
    return {k: expr(reg, paper, v, uses) for k, v in (mapping or {}).items()}


class Shown(str):
    """An expression of a finding's evidence: the string is SymPy's text (what the JSON
    keeps); ``expr`` is the SymPy expression and ``names`` each symbol's LaTeX as the
    formula file declares it (looked up when the finding is built), for the printers that
    typeset it (:mod:`boundcalc.reports.printers.evidence`)."""
    expr: object                   # the SymPy expression (None when there is none)
    names: dict[str, str]

    def __new__(cls, text: str, expr=None, names: dict | None = None):
        obj = super().__new__(cls, text)
        obj.expr, obj.names = expr, dict(names or {})
        return obj

    def __reduce__(self):          # pickled across the worker processes of `check --jobs`
        return (Shown, (str(self), self.expr, self.names))


def show(node: Node, reg=None, paper=None) -> Shown:
    """The expression as SymPy text (:func:`boundcalc.backends.sym.to_sympy_text`),
    carrying the SymPy expression it was printed from and, given the registry and paper,
    the LaTeX of its symbols."""
    from ...backends.sym import simplified
    e = simplified(node)
    names = {}
    if reg is not None and paper is not None:
        table = reg.symbol_table(node, paper.key)
        names = {n: table[n].latex for n in node.symbols() if n in table and table[n].latex}
    return Shown(str(e), e, names)


def values(reg, paper, at: dict, uses=()) -> dict[str, Fraction]:
    from ...backends import mp as mpb
    from ...mpmath_import import mpmath
    env = {}
    for k, v in (at or {}).items():
        node = expr(reg, paper, v, uses)
        env[k] = Fraction(parse_number(str(v))) if not node.symbols() and _rational(node) else \
            Fraction(mpmath.nstr(mpb.evaluate(node, {}, digits=40), 40))
    return env


def _rational(node) -> bool:
    from ...expr.exact import NotExact, evaluate_exact
    try:
        evaluate_exact(node, {})
        return True
    except NotExact:
        return False


def decide(a, rel, b, doms, extra=(), *, statement="", samples=None, seconds=DECIDE_SECONDS):
    """The shared decision procedure (:func:`boundcalc.services.verify.decide`): its
    verdict names the layer that produced it."""
    from .. import verify
    cap = _SECONDS_CAP.get()
    kw = {"statement": statement, "seconds": seconds if cap is None else min(seconds, cap)}
    if samples is not None:
        kw["samples"] = samples
    sink = _CERTIFICATES.get()
    if sink is None:
        return verify.decide(a, rel, b, dict(doms), list(extra), **kw)
    r = verify.decide(a, rel, b, dict(doms), list(extra), certify=True, **kw)
    if r.certificate is not None:
        sink.append({"statement": statement, "verdict": str(r.verdict), "method": r.method,
                     "certificate": r.certificate, "recheck": r.recheck})
    return r
