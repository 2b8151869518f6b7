"""Decide ``LHS REL RHS`` under assumptions: proved / disproved (with a certified
counterexample) / unknown, each naming the layer of :mod:`.decide` that decided it.

Both sides are parsed by the same whitelist parser as formula files, so a side may
name a formula (``deora2023.beta2``), whose symbols keep their domains. Symbols
declared nowhere are positive reals. ``--assume 'x >= 1'`` narrows a symbol's domain
(bounds on single symbols); other assumptions (``x <= y``) are hypotheses of every
layer and are stated in the result.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import BoundcalcError
from ..expr.domains import Domain
from ..expr.nodes import Num, Rel, Sym
from ..expr.parser import parse, parse_number
from ..prover.budget import SAMPLES, SECONDS
from ..prover.decide import decide_relation
from ..prover.statement import narrow as _narrow
from ..registry import get_registry
from ..verdicts import Layer, Verdict

RELS = ("==", "<=", ">=", "<", ">")


@dataclass(frozen=True)
class VerifyResult:
    """What :func:`verify` decided about ``statement``, over ``domains`` and under
    ``assumptions``: the :class:`~.decide.Decision`s verdict, layer, counterexample and
    detail. Printed by :mod:`boundcalc.reports.printers` (``describe()`` is the text printer)."""
    statement: str
    verdict: Verdict                # proved | disproved | unknown | vacuous (inconsistent assumptions)
    method: str                     # the verdict with its layer: "proved (SMT, after naming sqrt(x*y))"
    assumptions: list[str]
    counterexample: dict | None = None
    detail: str = ""
    domains: dict = field(default_factory=dict)
    layer: Layer | str = ""         # the layer that decided (decide.LAYERS)
    seconds: float = 0.0
    certificate: dict | None = None  # with certify=True: the verdict's certificate (boundcalc.recheck)
    recheck: dict | None = None      # and the checker's answer on it (its "status": rechecked or not)

    def __post_init__(self):
        object.__setattr__(self, "verdict", Verdict(self.verdict))
        if self.layer:
            object.__setattr__(self, "layer", Layer(self.layer))

    def to_json(self) -> dict:
        from .. import formats
        return formats.call("json", self)

    def describe(self) -> str:
        """The verdict as ``verify`` prints it (:mod:`boundcalc.reports.printers.text`)."""
        from .. import formats
        return formats.call("text", self)


def verify(lhs: str, rel: str, rhs: str, assume: list[str], *, formulas_path=None,
           samples: int = SAMPLES, seed: int = 0, box: dict | None = None,
           seconds: float = SECONDS, certify: bool = False) -> VerifyResult:
    """Decide ``lhs rel rhs`` (``rel`` one of :data:`RELS`) at every point of the symbols'
    domains where the relations ``assume`` hold: proved, disproved (with a counterexample
    certified in ball arithmetic), vacuous (the assumptions are inconsistent) or unknown.

    ``lhs`` and ``rhs`` are expressions that may name formulas (``deora2023.beta1``);
    symbols take their domains from the formula files (unknown ones: ``> 0``), narrowed
    by assumptions ``x OP number`` and by ``box`` (symbol -> (lo, hi)). ``samples``,
    ``seed`` and ``seconds`` are the budgets of :func:`.decide.decide_relation`; ``certify``:
    the result carries the verdict's certificate, re-checked in full by :mod:`boundcalc.recheck`
    (cvc5's re-proof of an `smt` step included), and the checker's answer (``recheck``).
    Bad input raises :class:`~boundcalc.errors.BoundcalcError`."""
    if rel not in RELS:
        raise BoundcalcError(f"REL must be one of {', '.join(RELS)}, not {rel!r}")
    reg = get_registry(formulas_path)
    pa, pb = parse(lhs, allow_relation=False, where="LHS"), parse(rhs, allow_relation=False, where="RHS")
    ka, kb = _paper_of(lhs, reg), _paper_of(rhs, reg)
    a, b = reg.resolve(pa, ka), reg.resolve(pb, kb)
    statement = f"{lhs} {rel} {rhs}"
    node = Rel(rel, a, b)
    # the symbols of a formula the statement names keep the domains of that formula's paper,
    # whatever other paper declares the same name (a user's u >= 0 against a packaged u)
    named = _papers_named(pa, ka, reg) + _papers_named(pb, kb, reg)
    table = reg.symbol_table(node, tuple(dict.fromkeys(named)))
    domains: dict[str, Domain] = {n: (table[n].domain if n in table else Domain(lo=Fraction(0)))
                                  for n in sorted(node.symbols())}
    extra = []
    for text in assume:
        r = parse(text, where="--assume")
        if not isinstance(r, Rel):
            raise BoundcalcError(f"--assume expects a relation such as 'x >= 1', got {text!r}")
        if isinstance(r.lhs, Sym) and isinstance(r.rhs, Num):
            if r.lhs.name not in domains:
                raise BoundcalcError(f"--assume {text!r}: {r.lhs.name!r} does not appear in the statement")
            domains[r.lhs.name] = _narrow(domains[r.lhs.name], r.op, r.rhs.value)
        elif isinstance(r.rhs, Sym) and isinstance(r.lhs, Num):
            flip = {">=": "<=", "<=": ">=", ">": "<", "<": ">", "==": "=="}[r.op]
            domains[r.rhs.name] = _narrow(domains[r.rhs.name], flip, r.lhs.value)
        else:
            extra.append(r)
    for n in domains:                    # (an empty domain left by the assumptions: vacuous, by decide)
        if n in table and table[n].domain.is_empty():
            table[n].domain.check_nonempty(n)
    return decide(a, rel, b, domains, extra, statement=statement, assumptions=list(assume),
                  samples=samples, seed=seed, box=box, seconds=seconds, certify=certify)


def decide(a, rel: str, b, domains: dict[str, Domain], extra=(), *, statement: str = "",
           assumptions: list[str] | None = None, samples: int = SAMPLES, seed: int = 0,
           seconds: float = SECONDS, box: dict | None = None, certify: bool = False) -> VerifyResult:
    """``verify`` on parsed, resolved sides: the layered procedure of :mod:`.decide`
    (exact -> SMT -> interval -> counterexample search). ``box`` (name -> (lo, hi)) narrows
    the domains; it is validated (reversed, empty or outside the domain: an error)."""
    assume = assumptions or []
    from ..prover.bigops import per_layer
    _, rest = per_layer(extra, Rel(rel, a, b).symbols())
    # a per-layer assumption's index (``a[i] >= 1``: every layer i) is no variable
    for n in Rel(rel, a, b).symbols() | set().union(*(r.symbols() for r in rest)):
        domains.setdefault(n, Domain(lo=Fraction(0)))
    if box:
        domains = apply_box(domains, box)
    dom_text = {n: str(d) for n, d in domains.items()}
    d = decide_relation(a, rel, b, domains, list(extra), seconds=seconds, samples=samples, seed=seed,
                        certify=certify)
    return VerifyResult(statement, d.verdict, d.text, assume, d.counterexample, d.detail,
                        domains=dom_text, layer=d.layer, seconds=d.seconds, certificate=d.certificate,
                        recheck=d.recheck)


def apply_box(domains: dict[str, Domain], box: dict) -> dict[str, Domain]:
    """Domains narrowed to a user box {name: (lo, hi)}; a garbage, reversed, empty or
    out-of-domain box is an error naming it (checked before any proof is attempted)."""
    out = dict(domains)
    for n, (lo, hi) in box.items():
        if n not in out:
            raise BoundcalcError(f"--box {n}: {n!r} is not a symbol of the statement")
        a, c = (parse_number(v, where=f"--box {n}") for v in (lo, hi))
        if a > c:
            raise BoundcalcError(f"--box {n}: reversed range [{a}, {c}] (lo must be <= hi)")
        d = out[n]
        for v in (a, c):
            if not d.contains(v):
                raise BoundcalcError(f"--box {n}: {v} is outside the domain of {n} ({n} {d.describe()})")
        out[n] = Domain(d.integer, a, True, c, True)     # empty (no integer in it): vacuous, by decide
    return out


def _papers_named(node, default: str | None, reg) -> list[str]:
    """The papers of the formulas ``node`` names and of those they use, in order."""
    out: list[str] = []
    for k, n in sorted(node.refs(), key=str):
        fid = f"{k or default}.{n}"
        out += [fid.partition(".")[0]] + [d.partition(".")[0] for d in reg.dependencies(fid)]
    return out


def _paper_of(text: str, reg) -> str | None:
    for p in reg.papers:
        if f"{p}." in text:
            return p
    return None
