"""The check kinds of a formula file as typed specs: one frozen dataclass per kind, the one
home of its fields (name, shape, default, closed vocabulary, documentation) and of how
they are read from a ``[[checks]]`` table.

:func:`from_table` builds the spec of one table and refuses, in one line naming the file,
the check id and the field, a missing or unknown (misspelt) field, a value of the wrong
type, a word outside a field's vocabulary, an expression that does not parse, and the
constraints between a check's own fields (a lowered ``severity`` needs a ``note``, an
``approximate`` compare has ``rel = "=="``, ...). What needs the rest of the paper (names
of symbols and formulas, ``covers``, measurements) is checked by the loader
(:mod:`.loader`) on the spec. :data:`KINDS` is the table the loader dispatches on and
``boundcalc check`` runs (:mod:`boundcalc.services.check` takes each runner's typed spec);
:func:`reference_table` writes the field reference of formulas/README.md.

Values are kept as the file writes them (an expression is its text, a number may be a TOML
number or a string), so a report shows what the file says.
"""
# ruff: noqa: RUF009 -- every field is declared by _spec(), which returns dataclasses.field() with its metadata
from __future__ import annotations

import dataclasses
import re
from dataclasses import MISSING, dataclass, field
from typing import Any, ClassVar

from ..errors import BoundcalcError, FormulaFileError
from ..verdicts import SEVERITIES, Grade

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# reading: what a check's finding rests on.  "printed" (default): the paper's text as
# printed; "garbled": one reading of an expression the text copy lost (graded as a note);
# "versions": a comparison of two versions of the paper (a revision, graded as a note).
# "approximate": a step the paper itself states with '≈' ('roughly', 'about'), checked
# exactly (graded as a note; a compare check can instead grade the approximation's relative
# error with `approximate = {tol, quote}`).
READINGS = ("printed", "garbled", "versions", "approximate")
RELS = ("<=", ">=", "<", ">", "==")
LIMITS = ("oo", "0")


class _Fail:
    """Raises the one-line error of a check's table: ``FILE: WHERE: field 'F': MSG``."""

    def __init__(self, file: str, where: str):
        self.file, self.where = file, where

    def __call__(self, fld: str, msg: str) -> FormulaFileError:
        return FormulaFileError(f"{self.file}: {self.where}: field {fld!r}: {msg}")

    def at(self, where: str) -> _Fail:
        return _Fail(self.file, where)


def _spec(shape: str, doc: str = "", *, default: Any = MISSING, words: tuple[str, ...] = (),
          about: bool = False, of_symbols: bool = True, side: str = "") -> Any:
    """A field of a check kind: its ``shape`` (how the TOML value is read, :data:`_READERS`),
    its documentation, default (none: required) and vocabulary. ``about``: a formula the check
    is about (its symbols are those tables and ``var`` may name); ``side``: the formula field
    a per-side table (``substitute_a``) belongs to; ``of_symbols`` False: a table keyed by
    something other than the paper's symbols (a measurement's sizes)."""
    md = {"shape": shape, "doc": doc, "words": words, "about": about, "of_symbols": of_symbols, "side": side}
    if isinstance(default, (dict, list)):
        empty = type(default)
        return field(default_factory=empty, metadata=md)
    return field(default=default, metadata=md)


def _text(fail, f, v, words=()):
    if not isinstance(v, str):
        raise fail(f, "must be a string")
    return v


def _ident(fail, f, v, words=()):
    if not isinstance(v, str) or not _IDENT.match(v):
        raise fail(f, f"{v!r} must be an identifier (letters, digits, _)")
    return v


def _word(fail, f, v, words=()):
    if not isinstance(v, str) or v not in words:
        from ..suggest import did_you_mean
        raise fail(f, f"{v!r} is not one of {', '.join(words)}{did_you_mean(str(v), words)}")
    return v


def _formula(fail, f, v, words=()):
    if not isinstance(v, str):
        raise fail(f, "must name a formula")
    return v


def _parse(fail, f, text, *, relation=False):
    from ..expr.parser import parse
    if not isinstance(text, str):
        raise fail(f, "an expression must be a string")
    try:
        return parse(text, allow_relation=relation, where=f"{fail.file}: {fail.where} {f}")
    except BoundcalcError as e:
        raise FormulaFileError(str(e)) from None


def _expr(fail, f, v, words=()):
    _parse(fail, f, v)
    return v


def _table(fail, f, v, words=()):
    """A table symbol -> expression (a list of expressions for a ``box``), each parsed."""
    if not isinstance(v, dict):
        raise fail(f, "must be a table")
    for k, x in v.items():
        for e in (x if isinstance(x, list) else [x]):
            _parse(fail, f"{f}.{k}", str(e))
    return dict(v)


def _names(fail, f, v, words=()):
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise fail(f, "must be a list of strings")
    if len(set(v)) != len(v):
        dup = sorted({x for x in v if v.count(x) > 1})
        raise fail(f, f"lists {', '.join(map(repr, dup))} twice")
    return tuple(v)


def _var(fail, f, v, words=()):
    """A symbol, or (an order check) a list of symbols tending together; checked against
    the paper by the loader."""
    return list(v) if isinstance(v, list) else v


def _number(fail, f, v, words=()):
    from ..expr.parser import parse_number
    try:
        x = parse_number(v, where=f"{fail.file}: {fail.where} field {f!r}")
    except BoundcalcError as e:
        raise FormulaFileError(str(e)) from None
    if x < 0:
        raise fail(f, "must be >= 0")
    return v


def _seed(fail, f, v, words=()):
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise fail(f, "seed must be a nonnegative integer")
    return v


def _flag(fail, f, v, words=()):
    if not isinstance(v, bool):
        raise fail(f, "identity must be true or false")
    return v


def _keys(fail, f, table, required: set[str], optional: set[str]) -> dict:
    """``table`` with exactly the keys allowed: one line naming a missing or unknown one."""
    if not isinstance(table, dict):
        raise fail(f, "expected a table")
    unknown = table.keys() - required - optional
    if unknown:                  # first: a misspelt required field is named as the typo it is
        from ..suggest import did_you_mean
        first = min(unknown)
        raise FormulaFileError(f"{fail.file}: {fail.where}: unknown field(s) {', '.join(sorted(unknown))} "
                               f"(allowed: {', '.join(sorted(required | optional))})"
                               f"{did_you_mean(first, sorted(required | optional))}")
    missing = required - table.keys()
    if missing:
        raise FormulaFileError(f"{fail.file}: {fail.where}: missing field(s) {', '.join(sorted(missing))}")
    return table


@dataclass(frozen=True)
class Assumption:
    """One ``assume`` entry: a relation and the reason that quotes why the paper's argument
    allows it (``""`` for a bare string, which the report lists as having no reason)."""
    expr: str
    reason: str = ""


def _assume(fail, f, v, words=()):
    if not isinstance(v, list):
        raise fail(f, "assume must be an array")
    out = []
    for a in v:
        if isinstance(a, dict):
            _keys(fail.at(f"{fail.where} assume"), f, a, {"expr", "reason"}, set())
            reason, text = _text(fail, "reason", a["reason"]), _text(fail, "assume expr", a["expr"])
            if not reason.strip():
                raise fail(f, "an assumption's reason must not be empty")
            out.append(Assumption(text, reason))
        elif isinstance(a, str):
            out.append(Assumption(a))
        else:
            raise fail(f, "assume entries must be relations (strings) or tables {expr, reason}")
        from ..expr.nodes import Rel
        if not isinstance(_parse(fail, f, out[-1].expr, relation=True), Rel):
            raise fail(f, f"assumption {out[-1].expr!r} must be a relation 'lhs OP rhs'")
    return tuple(out)


@dataclass(frozen=True)
class Regime:
    """One ``regimes`` entry of an order check: a coupling of the variables, reported
    separately (each field defaults to the check's own)."""
    name: str | None = None
    together: dict | None = None
    fixed: dict | None = None
    limit: str = "oo"
    var: Any = None
    order: str | None = None


def _regimes(fail, f, v, words=()):
    if not isinstance(v, list):
        raise fail(f, "regimes must be an array of tables")
    out = []
    for i, r in enumerate(v):
        sub = fail.at(f"{fail.where} field 'regimes' #{i + 1}")
        _keys(sub, f, r, set(), {x.name for x in dataclasses.fields(Regime)})
        for k in ("together", "fixed"):
            if k in r:
                _table(sub, k, r[k])
        if "order" in r:
            _expr(sub, "order", r["order"])
        if "limit" in r:
            _word(sub, "limit", r["limit"], LIMITS)
        out.append(Regime(name=r.get("name"), together=r.get("together"), fixed=r.get("fixed"),
                          limit=r.get("limit", "oo"), var=r.get("var"), order=r.get("order")))
    return tuple(out)


@dataclass(frozen=True)
class Approximate:
    """A compare's ``approximate = { tol, quote }``: the relative tolerance of a claim the
    paper makes with '≈', and the paper's words."""
    tol: Any
    quote: str


def _approximate(fail, f, v, words=()):
    from ..expr.parser import parse_number
    a = _keys(fail.at(f"{fail.where} approximate"), f, v, {"tol", "quote"}, set())
    try:
        tol = parse_number(a["tol"], where=f"{fail.file}: {fail.where} approximate tol")
    except BoundcalcError as e:
        raise FormulaFileError(str(e)) from None
    if not 0 < tol < 1:
        raise fail(f, "approximate tol (a relative error) must be in (0, 1)")
    if not _text(fail, "approximate quote", a["quote"]).strip():
        raise fail(f, "approximate needs the paper's words (quote) for its '≈'")
    return Approximate(a["tol"], a["quote"])


@dataclass(frozen=True)
class ExplainedBy:
    """``explained_by = { check, because, where, uses }``: the root finding this check's
    finding is a consequence of."""
    check: str
    because: str
    where: str | None = None
    uses: tuple[str, ...] = ()


def _explained_by(fail, f, v, words=()):
    from ..expr.nodes import Rel
    e = _keys(fail.at(f"{fail.where} explained_by"), f, v, {"check", "because"}, {"where", "uses"})
    uses = _names(fail, "explained_by uses", e.get("uses", []))
    if "where" in e and not isinstance(_parse(fail.at(f"{fail.where} explained_by"), "where", e["where"],
                                              relation=True), Rel):
        raise fail(f, "explained_by where must be a relation (checked at the finding's point)")
    if not _text(fail, "explained_by because", e["because"]).strip():
        raise fail(f, "explained_by needs 'because' (how the root explains this finding)")
    return ExplainedBy(_text(fail, "explained_by check", e["check"]), e["because"], e.get("where"), uses)


def _instances(fail, f, v, words=()):
    """A vacuity check's ``instances``: an array of non-empty tables symbol -> expression,
    each replacing some values of ``at``."""
    if not isinstance(v, list) or not all(isinstance(i, dict) and i for i in v):
        raise fail(f, "must be an array of non-empty tables")
    return tuple(_table(fail, f"{f} #{i + 1}", inst) for i, inst in enumerate(v))


_READERS = {"instances": _instances, "text": _text, "ident": _ident, "word": _word, "formula": _formula, "expr": _expr, "table": _table,
            "names": _names, "var": _var, "number": _number, "seed": _seed, "flag": _flag, "assume": _assume,
            "regimes": _regimes, "approximate": _approximate, "explained_by": _explained_by}


@dataclass(frozen=True, kw_only=True)
class CheckFields:
    """The fields every check has; a subclass per kind adds its own (:data:`KINDS`)."""
    KIND: ClassVar[str] = ""
    PASSES: ClassVar[str] = ""           # when a check of the kind passes (formulas/README.md)
    SUMMARY: ClassVar[str] = ""          # what the kind checks, in a few words

    id: str = _spec("ident")
    kind: str = _spec("text")
    location: str = _spec("text")
    description: str = _spec("text")
    severity: str = _spec("word", default="error", words=tuple(SEVERITIES))
    note: str = _spec("text", default="")
    covers: tuple[str, ...] = _spec("names", default=())
    reading: str = _spec("word", default="printed", words=READINGS)
    explained_by: ExplainedBy | None = _spec("explained_by", default=None)
    identity: bool = _spec("flag", default=False)

    # the kind's own ``uses``/``assume``/substitutions; kinds without them have none
    @property
    def used(self) -> tuple[str, ...]:
        """The formulas the check's expressions name (its ``uses``)."""
        return ()

    @property
    def assumptions(self) -> tuple[Assumption, ...]:
        """The check's own ``assume`` entries."""
        return ()

    def substitutions(self) -> dict[str, dict]:
        """Field name -> its table, for each substitution field of the kind."""
        return {}

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def own_fields(cls) -> list[dataclasses.Field]:
        """The kind's own fields (not those every check has), in their order."""
        common = {f.name for f in dataclasses.fields(CheckFields)}
        return [f for f in dataclasses.fields(cls) if f.name not in common]

    @classmethod
    def required(cls) -> set[str]:
        return {f.name for f in dataclasses.fields(cls) if f.default is MISSING and f.default_factory is MISSING}

    @classmethod
    def optional(cls) -> set[str]:
        return set(cls.field_names()) - cls.required()

    @classmethod
    def from_table(cls, t: Any, *, file: str, where: str) -> CheckFields:
        """The typed spec of one ``[[checks]]`` table; one line naming the file, ``where``
        (the check) and the field for anything it cannot take."""
        fail = _Fail(file, where)
        _keys(fail, "", t, cls.required(), cls.optional())
        values = {}
        for f in dataclasses.fields(cls):
            if f.name in t:
                md = f.metadata
                values[f.name] = _READERS[md["shape"]](fail, f.name, t[f.name], md["words"])
        spec = cls(**values)
        spec._validate(fail)
        return spec

    def _validate(self, fail: _Fail) -> None:
        """Constraints between the check's own fields."""
        if self.severity != Grade.ERROR and not self.note.strip():
            raise FormulaFileError(f"{fail.file}: {fail.where}: severity = {self.severity!r} lowers the grade: "
                                   "give a note saying why")
        if self.explained_by is not None and self.explained_by.check == self.id:
            raise fail("explained_by", "a check cannot be explained by itself")

    def present(self, *shapes: str) -> list[tuple[str, Any, Any]]:
        """(name, value, metadata) of each field of one of ``shapes`` that is set (not None)."""
        return [(f.name, getattr(self, f.name), f.metadata) for f in dataclasses.fields(self)
                if f.metadata["shape"] in shapes and getattr(self, f.name) is not None]

    def about(self) -> list[str]:
        """The formulas the check is about (``formula``, ``premise``, ``a``, ``b``)."""
        return [getattr(self, f.name) for f in dataclasses.fields(self) if f.metadata["about"]]


@dataclass(frozen=True, kw_only=True)
class _Uses(CheckFields):
    uses: tuple[str, ...] = _spec("names", default=())

    @property
    def used(self) -> tuple[str, ...]:
        return self.uses


@dataclass(frozen=True, kw_only=True)
class _Assumes(_Uses):
    assume: tuple[Assumption, ...] = _spec("assume", default=())

    @property
    def assumptions(self) -> tuple[Assumption, ...]:
        return self.assume


_SUBST = "table symbol -> expression"
_SUBSTITUTE_BOTH = ("table symbol -> expression: rewrites **both** sides, wherever the symbol occurs")


@dataclass(frozen=True, kw_only=True)
class Derivation(_Assumes):
    KIND = "derivation"
    SUMMARY = "re-derive a statement from its premise by substitution"
    PASSES = (
        "the premise with the substitutions equals the claim (`equal`), or the claim is a valid looser bound: "
        "claim value >= derived value (`upper`: an upper bound or a sufficient requirement's right-hand side), "
        "claim <= derived (`lower`). Hidden constants (role `constant`, and `existential` symbols) are existential: "
        "it passes if SOME value of the claim's constants works. **Least constants**: for each of the claim's "
        "constants in which the claim is affine (c = a + b C), the working values are C >= (d - a)/b where b > 0 "
        "and C <= (d - a)/b where b < 0, over the domains and hypotheses; the least candidate (sampled inside the "
        "hypotheses, rounded up to 1-3 significant digits) is proved to work by the shared decision procedure, and "
        "values below it (and above an upper limit, if any) are shown to fail at points certified inside the "
        "hypotheses: \"holds with C >= c*\" or \"holds with C = c* (C below l or above u fails ...)\". A c* above "
        "100 (`LEAST_THRESHOLD` in services/check/derivation.py) is a warning `large hidden constant`, as is an "
        "`existential` constant that must exceed its stated value. \"No constant works\" (an error) only when the "
        "ratio derived/claim grows without bound (warning if only by a power of a log) or two certified points ask "
        "for incompatible values; otherwise an unproved least constant is `undecided` with the sampled value")
    claim: str = _spec("formula", "formula")
    premise: str = _spec("formula", "formula", about=True)
    direction: str = _spec("word", words=("equal", "upper", "lower"))
    substitute: dict = _spec("table", _SUBST, default={})
    existential: tuple[str, ...] = _spec("names", "symbols the paper leaves as \"a sufficiently large constant\"",
                                         default=())

    def substitutions(self) -> dict[str, dict]:
        return {"substitute": self.substitute}


@dataclass(frozen=True, kw_only=True)
class Order(CheckFields):
    KIND = "order"
    SUMMARY = "a stated O / Omega / Theta against the exact growth"
    PASSES = ("the exact growth agrees with the stated order in every regime (a gap in a power: error; in a power "
              "of a log only: warning)")
    formula: str = _spec("formula", about=True)
    var: Any = _spec("var", "a symbol, or a list of symbols tending together")
    order: str = _spec("expr", "expression in `var`")
    relation: str = _spec("word", words=("O", "Omega", "Theta"))
    fixed: dict = _spec("table", "table", default={})
    together: dict = _spec("table", "table symbol -> expression: a coupling", default={})
    side: str | None = _spec("word", "of a requirement: the side whose growth is stated; default: solved for "
                                     "its `solve_for`", default=None, words=("lhs", "rhs"))
    limit: str = _spec("word", "`oo`, default, or `0`", default="oo", words=LIMITS)
    regimes: tuple[Regime, ...] = _spec("regimes", "array of `{ name, together, fixed, limit, var, order }`, each "
                                                   "reported separately", default=())


@dataclass(frozen=True, kw_only=True)
class Monotone(_Assumes):
    KIND = "monotone"
    SUMMARY = "a stated monotonicity, decided by the shared decision procedure"
    PASSES = ("the formula is monotone as claimed; with hypotheses (inherited or assumed), the derivative's sign is "
              "decided inside them and a refutation is a pair of points differing only in `var`, both inside them")
    formula: str = _spec("formula", about=True)
    var: str = _spec("var")
    claim: str = _spec("word", words=("increasing", "decreasing", "nonincreasing", "nondecreasing"))
    box: dict = _spec("table", "table symbol -> [lo, hi]", default={})
    fixed: dict | None = _spec("table", "table symbol -> number", default=None)


@dataclass(frozen=True, kw_only=True)
class Compare(_Assumes):
    KIND = "compare"
    SUMMARY = "a relation between two expressions, decided by the shared decision procedure"
    PASSES = (
        "the relation holds under the domains, hypotheses and assumptions. **Approximations**: a claim the paper "
        "makes with ≈ (\"roughly\", \"about\") is declared `rel = \"==\"` with `approximate = { tol = \"0.1\", "
        "quote = \"...\" }` (a relative tolerance in (0, 1), and the paper's words): it passes when \\|lhs − rhs\\| "
        "<= tol \\|rhs\\| is proved over the stated range (domains, hypotheses, `assume`); a certified point beyond "
        "it is a warning, reason `approximation`, with the relative error there and the largest sampled one; the "
        "tolerance is printed")
    lhs: str = _spec("expr", "expression")
    rel: str = _spec("word", words=RELS)
    rhs: str = _spec("expr", "expression")
    approximate: Approximate | None = _spec("approximate", "`{ tol, quote }`", default=None)

    def _validate(self, fail: _Fail) -> None:
        super()._validate(fail)
        if self.approximate is not None and self.rel != "==":
            raise fail("approximate", "an approximate claim compares with rel = '=='")


@dataclass(frozen=True, kw_only=True)
class Restatement(_Assumes):
    KIND = "restatement"
    SUMMARY = "two formulas identical after substitutions"
    PASSES = ("the two formulas are identical after the substitutions (where the hypotheses hold). E.g. a corollary "
              "restating Thm. 1 with its constant renamed: `a = \"thm1\"` (C_1/√n), `b = \"cor1\"` (C_2 n^{-1/2}), "
              "`substitute = { C1 = \"C2\" }`")
    a: str = _spec("formula", "formula", about=True)
    b: str = _spec("formula", "formula", about=True)
    substitute: dict = _spec("table", _SUBSTITUTE_BOTH, default={})
    substitute_a: dict = _spec("table", "rewrites side `a` only, after `substitute`", default={}, side="a")
    substitute_b: dict = _spec("table", "rewrites side `b` only, after `substitute`", default={}, side="b")

    def substitutions(self) -> dict[str, dict]:
        return {"substitute": self.substitute, "substitute_a": self.substitute_a, "substitute_b": self.substitute_b}


@dataclass(frozen=True, kw_only=True)
class Vacuity(_Uses):
    KIND = "vacuity"
    SUMMARY = "a bound at the paper's own settings against an exact trivial value"
    PASSES = ("the bound is non-vacuous there: value < trivial (upper bound) against an exact trivial value; below "
              "`floor` (e.g. a negative bound on a loss): an error of the bound; below a trivial value that is only "
              "a bound: inconclusive")
    formula: str = _spec("formula", about=True)
    at: dict = _spec("table", "table of values; the paper's experimental setting")
    trivial: str = _spec("expr", "expression: the trivial value of the quantity bounded, e.g. `log(2)` for a "
                                 "logistic loss at 0, `1` for a 0-1 error")
    direction: str = _spec("word", words=("upper", "lower"))
    side: str = _spec("word", "of a relation: `rhs`, default, or `lhs`", default="rhs", words=("lhs", "rhs"))
    trivial_is: str = _spec("word", "`exact`, default, or `bound`: only an upper bound on the trivial value, or "
                                    "`radius`: the formula is a radius a proof needs — a sufficient starting norm "
                                    "— and `trivial` the experiment's own value; `direction = \"upper\"`: covered "
                                    "when that value is at least the radius, `\"lower\"`: at most; not covered is a "
                                    "note \"outside the proof's radius\", never \"vacuous\"",
                            default="exact", words=("exact", "bound", "radius"))
    floor: str | None = _spec("expr", "least value of the quantity, default `0`", default=None)
    ceiling: str | None = _spec("expr", "largest value of the quantity, for lower bounds", default=None)
    derived: dict = _spec("table", "table symbol = expression of the point's other values, in order: the "
                                   "quantities the paper's setup ties to others, e.g. a norm at initialization to the "
                                   "width, recomputed wherever the point moves and never moved themselves; needs "
                                   "`derived_source`", default={})
    derived_source: str = _spec("text", "the paper's words for the `derived` values", default="")
    instances: tuple[dict, ...] = _spec("instances", "array of tables, each replacing some values of `at`: one "
                                        "finding graded at every instance, the worst grade, every instance's value "
                                        "in the evidence — one fact at several sizes is reported once", default=())

    def _validate(self, fail: _Fail) -> None:
        super()._validate(fail)
        for k in self.derived:
            if k in self.at:
                raise fail("derived", f"{k!r} is both in 'at' and in 'derived'")
        if self.derived and not self.derived_source.strip():
            raise fail("derived", "derived needs the paper's words for the values (derived_source)")
        for i, inst in enumerate(self.instances):
            for k in inst:
                if k in self.derived:
                    raise fail("instances", f"instance #{i + 1} sets the derived value {k!r}")


@dataclass(frozen=True, kw_only=True)
class Identity(_Uses):
    KIND = "identity"
    SUMMARY = "a printed derivative against high-precision finite differences"
    PASSES = ("the printed derivative matches central finite differences of the function (mpmath, high precision)")
    function: str = _spec("expr", "expression")
    derivative: str = _spec("expr", "expression")
    wrt: str = _spec("var", "symbol")
    at: dict = _spec("table", "table")
    tol: Any = _spec("number", "default 1e-20", default="1e-20")


@dataclass(frozen=True, kw_only=True)
class Measured(_Uses):
    KIND = "measured"
    SUMMARY = "a stated closed form against the NumPy engine on the paper's data model"
    PASSES = ("the NumPy engine's measurement on the paper's data model is within `atol + tol * abs(expected)` of "
              "the paper's closed form")
    measurement: str = _spec("text", "a name in `src/boundcalc/engine/measurements.py`")
    expected: str = _spec("expr", "expression over the sizes")
    at: dict = _spec("table", "the sizes", of_symbols=False)
    seed: int = _spec("seed", "integer, default 0", default=0)
    tol: Any = _spec("number", "relative, default 1e-6", default="1e-6")
    atol: Any = _spec("number", "absolute, default 0", default="0")


@dataclass(frozen=True, kw_only=True)
class Transcription(CheckFields):
    KIND = "transcription"
    SUMMARY = "a formula's printed LaTeX, parsed, against its expression"
    PASSES = (
        "the formula's printed `latex`, parsed as above (names that several symbols share are settled by what "
        "`expr` uses), states its `expr`: values decided equal by the shared decision procedure; relations equal "
        "after moving everything to one side, or else compared point by point (a certified point where one holds "
        "and the other fails is a disagreement; agreement at every sampled point is a note `sampled only`). A chain "
        "`Q = a \\le b` passes if any of its values equals the expression and is otherwise a note `not compared`; "
        "`value \\ge Q` takes the left side; a part of the chain other than the compared value that cannot be read "
        "is listed in the evidence (`not read`), the value itself is read in full or the check is `not parsed`. A "
        "disagreement is a note `up to constants` when the ratio involves only hidden constants (role `constant`: "
        "the print shows a number or omits it), a note `names differ` when the print names a symbol or formula the "
        "expression does not use (directly or through its references), a note `documented` when the formula's "
        "status is `corrected`/`derived`, a warning when the print says `\\lesssim`/`\\gtrsim`/`\\approx`, else an "
        "error `transcription` with the certified counterexample. LaTeX it cannot read (including a where-clause "
        "after a top-level `,`) is a note `not parsed` naming the token: nothing compared. A transcription check of "
        "a formula given by its LaTeX alone is graded `cannot fail`")
    formula: str = _spec("formula", about=True)


#: kind -> its spec class: the one table the loader dispatches on and ``boundcalc check`` runs
KINDS: dict[str, type[CheckFields]] = {c.KIND: c for c in (Derivation, Order, Monotone, Compare, Restatement,
                                                            Vacuity, Identity, Transcription, Measured)}


def _field_doc(f: dataclasses.Field) -> str:
    md = f.metadata
    doc = md["doc"] or (" / ".join(f"`{w}`" for w in md["words"]) if md["shape"] == "word" else "")
    return f"`{f.name}`" + (f" ({doc})" if doc else "")


def fields_doc(cls: type[CheckFields]) -> str:
    """The fields of a kind as formulas/README.md lists them: required ones, then optional."""
    mixin = {f.name for f in dataclasses.fields(_Assumes)}
    own = sorted(cls.own_fields(), key=lambda f: f.name in mixin)
    req = [_field_doc(f) for f in own if f.name in cls.required()]
    opt = [_field_doc(f) for f in own if f.name not in cls.required()]
    return ", ".join(req + (["optional " + opt[0], *opt[1:]] if opt else []))


def reference_table() -> str:
    """The table of check kinds in formulas/README.md (between its ``checks-reference``
    markers), written from :data:`KINDS` (``python tests/registry/test_checks.py --write``)."""
    rows = ["| kind | fields | passes when |", "|---|---|---|"]
    rows += [f"| `{k}` | {fields_doc(c)} | {c.PASSES} |" for k, c in KINDS.items()]
    return "\n".join(rows) + "\n"


BEGIN = ("<!-- checks-reference: generated from src/boundcalc/registry/checks.py by "
         "`python tests/registry/test_checks.py --write`; tests/registry/test_checks.py checks they agree -->")
END = "<!-- end of checks-reference -->"


def _split(text: str) -> tuple[str, str, str]:
    """formulas/README.md's text as (before and with the opening marker, the generated part,
    the closing marker and after)."""
    opening = "<!-- checks-reference:"
    if opening not in text or END not in text:
        raise BoundcalcError("formulas/README.md has no checks-reference markers")
    i = text.index("\n", text.index(opening)) + 1
    j = text.index(END, i)
    return text[:i], text[i:j], text[j:]


def readme_section(text: str) -> str:
    """The generated part of formulas/README.md's text (between the markers)."""
    return _split(text)[1]


def with_reference(text: str) -> str:
    """``text`` (formulas/README.md) with its generated part rewritten from :data:`KINDS`
    (the opening marker too)."""
    head, _, tail = _split(text)
    head = head[:head.rindex("<!-- checks-reference:")] + BEGIN + "\n"
    return head + reference_table() + tail
