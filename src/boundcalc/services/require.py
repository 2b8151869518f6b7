"""`require`: the least (or greatest) value of a variable that each requirement of a
setting needs — the number of heads H, a sample size n, a width m, a step size eta ... —
which one binds, and every input that was used.

``target`` replaces the setting's requirements by one relation the user writes,
``'formula REL value'`` (e.g. ``'gen_gap_cor2 <= 0.05'``): the least n for which a bound
drops below a target, the largest step size a theorem allows, and so on.

The search for each relation's value is one call, :func:`.solve.find_value`, which
require makes and which calls nothing back here. The direction of each relation in the
variable is read from its expression tree (:func:`.trend.trend`, no SymPy). Only when the
tree does not show it is :mod:`.monotone` asked (SymPy; proved / certified on a box /
sampled / a counterexample), and the answer says which: a relation that is not monotone
gets no answer, only its counterexample.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..backends import mp as mpb
from ..errors import BoundcalcError, UnsatisfiableError
from ..expr._record import record_repr
from ..expr.indexed import Vector
from ..expr.nodes import Node, Ref, Rel, Sym, sub, substitute
from ..expr.parser import parse, parse_number
from ..registry import get_registry
from ..registry.indexed import check_lengths
from ..registry.model import Setting
from ..registry.values import is_vector, vector_value
from ..verdicts import FormulaStatus, RequireOutcome
from .solve import Solution, find_value, fmt_value, relation_holds


@dataclass
class RequirementResult:
    """One requirement of a setting (a formula, or the ``--target`` relation) solved for
    the variable: the formula's id, title, source, status and note, the
    :class:`~.solve.Solution`, and the paper's constants it rests on."""
    __repr__ = record_repr       # integers of any size (boundcalc.expr._record)
    id: str
    name: str
    source: str
    status: FormulaStatus
    note: str
    solution: Solution
    constants: list[str]


@dataclass
class RequireResult:
    """What :func:`require` found: every requirement solved for ``var`` (``results``),
    those free of ``var`` (``skipped``), the inputs used and where each came from, and the
    derived quantities; :attr:`binding` is the requirement that decides ``var``."""
    __repr__ = record_repr       # integers of any size (boundcalc.expr._record)
    setting: Setting
    var: str
    inputs: dict[str, tuple[Fraction | Vector, str]]   # name -> (value, "user" | "default")
    # name -> (value, expression, "derived" | "user" | ...); the value is for display and the
    # domain check: a Fraction (the midpoint of a 128-bit ball, not an exact value), or an mpf
    # where the certified evaluator had to decide; requirements use the expression itself
    derived: dict[str, tuple[object, str, str]]
    results: list[RequirementResult] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)                 # requirements of the setting free of var
    target: str = ""
    search_range: str = ""                             # --from/--to: 'n in [8, +inf) (integers)'; '' = domain
    # looked up in the registry once, when the result is built (printers never reach back):
    var_domain: str = ""                               # the variable's domain, as written
    var_description: str = ""
    descriptions: dict[str, str] = field(default_factory=dict)       # input name -> its description

    def to_json(self) -> dict:
        """JSON-ready data (:mod:`boundcalc.reports.printers.json`)."""
        from .. import formats
        return formats.call("json", self)

    @property
    def solved(self) -> list[RequirementResult]:
        """The requirements that have an answer."""
        return [r for r in self.results if r.solution.value is not None]

    @property
    def binding(self) -> RequirementResult:
        """The requirement that decides ``var``: the largest of the least values, else the
        smallest of the greatest values, else the first requirement."""
        least = [r for r in self.solved if r.solution.direction == "least"]
        if least:
            return max(least, key=_answer)
        greatest = [r for r in self.solved if r.solution.direction == "greatest"]
        if greatest:
            return min(greatest, key=_answer)
        return self.results[0]

    @property
    def feasible(self) -> bool | None:
        """Whether the least values and the greatest values leave a common value (None:
        some requirement has no answer)."""
        if len(self.solved) < len(self.results):
            return None
        least = [_answer(r) for r in self.solved if r.solution.direction == "least"]
        greatest = [_answer(r) for r in self.solved if r.solution.direction == "greatest"]
        return not (least and greatest) or max(least) <= min(greatest)


def _answer(r: RequirementResult) -> int | Fraction:
    """The value a solved requirement answers (the key that orders them)."""
    v = r.solution.value
    assert v is not None, r.id           # only solved requirements are compared
    return v


@dataclass(frozen=True)
class SettingInput:
    """One input of a setting: its name, and its default value (None: no default) or
    ``derived`` (computed from the others unless given)."""
    name: str
    default: Fraction | Vector | None = None
    derived: bool = False


@dataclass(frozen=True)
class SettingInputs:
    """One setting of a paper with its inputs (:func:`input_names`), as ``require --help``
    lists it."""
    paper: str
    name: str
    aliases: tuple[str, ...]
    default: bool                       # the paper's default setting
    solve_for: str
    title: str
    inputs: tuple[SettingInput, ...]


@dataclass(frozen=True)
class SettingsHelp:
    """Every setting (of one paper, or of all) with its inputs and their default values,
    read from the formula files: the epilog of ``require --help`` (the text printer,
    :mod:`boundcalc.reports.printers.text`)."""
    settings: tuple[SettingInputs, ...]


def settings_help(paper: str | None = None, *, formulas_path=None) -> SettingsHelp:
    """The :class:`SettingsHelp` of ``paper`` (every paper when None)."""
    reg = get_registry(formulas_path)
    keys = [paper] if paper else list(reg.papers)
    out = []
    for key in keys:
        for st in reg.paper(key).settings.values():
            derived = {sym for sym, _, _ in st.derived}
            inputs = tuple(SettingInput(n, st.values.get(n), n not in st.values and n in derived)
                           for n in input_names(st, reg))
            out.append(SettingInputs(key, st.name, tuple(st.aliases), bool(st.default), st.solve_for, st.title,
                                     inputs))
    return SettingsHelp(tuple(out))


def input_names(setting: Setting, reg, var: str | None = None, relations: Sequence[Node] = ()) -> list[str]:
    """Every symbol a user may set for this setting (all but ``var``)."""
    names = set(setting.values)
    for sym, node, _ in setting.derived:
        names.add(sym)
        names |= reg.resolve(node, setting.paper).symbols()
    for rid in setting.requirements:
        names |= reg.resolved(f"{setting.paper}.{rid}").symbols()
    for node, _ in setting.constraints:
        names |= node.symbols()
    for rel in relations:
        names |= rel.symbols()
    names.discard(var or setting.solve_for)
    return sorted(names)


def parse_target(text: str, reg, paper: str) -> Node:
    """``'formula REL value'`` (or any relation over the paper's formulas and symbols;
    a bare requirement id is its own relation) as a resolved :class:`Rel`."""
    p = reg.paper(paper)
    node = parse(text, allow_relation=True, where="--target")
    if isinstance(node, Sym) and node.name in p.formulas and p.formulas[node.name].kind in ("requirement", "claim"):
        return reg.resolved(f"{paper}.{node.name}")
    if isinstance(node, Ref) and reg.spec(f"{node.paper or paper}.{node.name}").kind in ("requirement", "claim"):
        return reg.resolved(f"{node.paper or paper}.{node.name}")
    if not isinstance(node, Rel):
        raise BoundcalcError(f"--target expects 'formula REL value' (REL one of <=, >=, <, >), got {text!r}")

    def to_ref(n):
        if isinstance(n, Sym) and n.name in p.formulas and p.formulas[n.name].kind in ("definition", "bound"):
            return Ref(None, n.name)
        return None
    node = node.map(to_ref)
    for r in node.refs():
        reg.spec(f"{r[0] or paper}.{r[1]}")          # unknown ids: one line with a hint
    unknown = sorted(n for n in node.symbols() if n not in p.symbols and n not in p.formulas)
    if unknown:
        from ..suggest import did_you_mean
        hint = did_you_mean(unknown[0], list(p.symbols) + list(p.formulas))
        raise BoundcalcError(f"--target: {unknown[0]!r} is neither a symbol nor a formula of {paper}{hint}")
    return reg.resolve(node, paper)


def require(paper: str, setting_name: str | None, overrides: dict[str, str], *,
            var: str | None = None, target: str | None = None, formulas_path=None,
            monotone_fallback: bool = True, within: tuple | None = None) -> RequireResult:
    """The least (or greatest) value of ``var`` (default: the setting's ``solve_for``)
    that each requirement of the setting ``setting_name`` of ``paper`` needs, with the
    setting's values, the symbols' defaults and ``overrides`` (name -> number as text) as
    inputs; ``target`` (``'formula REL value'``) replaces the requirements by one relation.
    ``within=(lo, hi)`` searches only that range of ``var`` (numbers or text; None, ``-inf``
    or ``inf`` leave an end as the domain has it): the least/greatest value in the range,
    and monotonicity is asked of the range only (``log(n)/sqrt(n)`` from n = 8 on).
    ``monotone_fallback=False``: where the expression tree does not show the direction in
    ``var``, do not ask :mod:`.monotone`. See the module docstring. Bad input raises
    :class:`~boundcalc.errors.BoundcalcError` (:class:`~boundcalc.errors.UnsatisfiableError`
    when no value can work)."""
    reg = get_registry(formulas_path)
    setting = reg.setting(paper, setting_name)
    var = var or setting.solve_for
    if not var:
        raise BoundcalcError(f"setting {setting.id} names no variable to solve for")
    p = reg.paper(paper)
    if var not in p.symbols:
        from ..suggest import did_you_mean
        raise BoundcalcError(f"{var!r} is not a symbol of {paper}{did_you_mean(var, list(p.symbols))}")
    domain, rng = p.symbols[var].domain, ""
    if within is not None:
        from ..expr.domains import search_range
        if not isinstance(within, (tuple, list)) or len(within) != 2:
            raise BoundcalcError(f"within must be a pair (lo, hi) of {var}'s range, got {within!r}")
        lo, hi = within
        domain, rng = search_range(var, domain, lo, hi, where="--from/--to")
    tgt = parse_target(target, reg, paper) if target else None
    allowed = input_names(setting, reg, var, [tgt] if tgt is not None else [])
    inputs = _inputs(setting, p, var, overrides, allowed)
    env = {k: v for k, (v, _) in inputs.items()}
    check_lengths(p.symbols, env)
    inline, derived = _derived(setting, reg, paper, p, var, overrides, env)
    _check_constraints(setting, reg, paper, p, var, inline, env)
    out = RequireResult(setting, var, inputs, derived, target=target or "", search_range=rng,
                        var_domain=p.symbols[var].domain.describe(), var_description=p.symbols[var].description,
                        descriptions={k: p.symbols[k].description for k in inputs if k in p.symbols})
    for fid, title, source, status, note, node, raw_syms in _items(setting, reg, paper, target, tgt):
        rel = _relation(substitute(node, inline), fid)
        if var not in rel.symbols():
            if tgt is not None:
                raise BoundcalcError(f"the target {target!r} does not involve {var} in {setting.id}")
            out.skipped.append(fid)
            continue
        missing = (rel.symbols() - {var}) - env.keys()
        if missing:
            raise BoundcalcError(_missing_msg(sorted(missing), p, setting))
        sol = find_value(rel, var, env, p, domain, what=fid, fallback=monotone_fallback, reg=reg, rng=rng)
        consts = sorted(s for s in raw_syms | _derived_syms(setting, reg)
                        if s in p.symbols and p.symbols[s].is_constant and s in rel.symbols())
        out.results.append(RequirementResult(fid, title, source, status, note, sol, consts))
    if not out.results:
        raise BoundcalcError(f"no requirement of {setting.id} involves {var} "
                             f"({', '.join(out.skipped)}); ask with --target 'formula REL value'")
    return out


def _inputs(setting, p, var: str, overrides: dict, allowed: list) -> dict[str, tuple[Fraction | Vector, str]]:
    """Every input with where it came from (default | user): the setting's values, the
    overrides (each checked against the inputs the setting has), the symbols' defaults;
    each value in its symbol's domain."""
    for k in overrides:
        if k == var:
            raise BoundcalcError(f"{var} is what is being solved for; do not set --{var}")
        if k not in allowed:
            from ..suggest import did_you_mean
            hint = did_you_mean(k, allowed)
            raise BoundcalcError(f"unknown input --{k} for {setting.id}{hint or ''}; inputs are: "
                                 + ", ".join(f"--{a}" for a in allowed))
    inputs: dict[str, tuple[Fraction | Vector, str]] = {}
    for k, v in setting.values.items():
        if k != var:
            inputs[k] = (v, "default")
    for k, given in overrides.items():
        if k in p.symbols and p.symbols[k].is_indexed and is_vector(given):     # --s 1,2,0.5
            inputs[k] = (vector_value(p.symbols[k], k, given), "user")
        else:
            inputs[k] = (parse_number(given, where=f"--{k}"), "user")
    for k in allowed:          # a symbol's declared default, as `eval` uses it
        default = p.symbols[k].default if k in p.symbols else None
        if k not in inputs and default is not None:
            inputs[k] = (default, "default")
    for k, (val, _) in inputs.items():
        if k in p.symbols:
            for x in (val.values if isinstance(val, Vector) else (val,)):
                p.symbols[k].domain.check(k, x)
    return inputs


def _derived(setting, reg, paper: str, p, var: str, overrides: dict, env: dict):
    """(the derived quantities inlined as expressions, so that exactness is kept; each with
    its value, text and origin, as shown). A derived value outside its symbol's domain means
    no value of ``var`` can work (:class:`~boundcalc.errors.UnsatisfiableError`)."""
    inline: dict[str, Node] = {}
    derived: dict[str, tuple[object, str, str]] = {}
    for sym, node, text in setting.derived:
        if sym in overrides:
            derived[sym] = (None, text, "user")
            continue
        if sym == var:
            derived[sym] = (None, text, "solved for")
            continue
        expr = substitute(reg.resolve(node, paper), inline)
        if var in expr.symbols():
            inline[sym] = expr
            derived[sym] = (None, text, f"depends on {var}")
            continue
        missing = expr.symbols() - env.keys()
        if missing:
            raise BoundcalcError(_missing_msg(sorted(missing), p, setting))
        value = mpb.point_fraction(expr, env, prec=128)
        if value is None:   # undefined at a point: let the certified evaluator say why
            value = mpb.evaluate(expr, env, digits=20, what=f"{setting.id}: {sym} = {text}")
        dom = p.symbols[sym].domain
        if not _in_domain(dom, expr, env, value):
            raise UnsatisfiableError(
                f"no {var} can work in {setting.id}: {sym if text == sym else f'{sym} = {text}'} evaluates to "
                f"{mpb.fmt_sig(value, 6)}, but {sym} {dom.describe()}"
                f" ({p.symbols[sym].description})")
        inline[sym] = expr
        derived[sym] = (value, text, "derived")
    return inline, derived


def _check_constraints(setting, reg, paper: str, p, var: str, inline: dict, env: dict) -> None:
    """The setting's constraints that do not involve ``var`` hold at the inputs (else a
    one-line error)."""
    for node, text in setting.constraints:
        rel = _relation(substitute(reg.resolve(node, paper), inline), f"constraint {text}")
        if var in rel.symbols():
            continue
        missing = rel.symbols() - env.keys()
        if missing:
            raise BoundcalcError(_missing_msg(sorted(missing), p, setting))
        if not relation_holds(rel, env, what=f"constraint {text}"):
            raise BoundcalcError(f"the inputs violate the constraint {text} of {setting.id}")


def _items(setting, reg, paper: str, target, tgt):
    """(id, title, source, status, note, relation, its symbols) of the target, or of each
    requirement of the setting."""
    if tgt is not None:
        return [(f"target: {target}", "target", "given on the command line", FormulaStatus.AS_GIVEN, "", tgt,
                 tgt.symbols())]
    items = []
    for rid in setting.requirements:
        fid = f"{paper}.{rid}"
        spec = reg.spec(fid)
        items.append((fid, spec.title, spec.source, spec.status, spec.note, reg.resolved(fid),
                      reg.resolved(fid).symbols()))
    return items


def _relation(node: Node, what: str) -> Rel:
    """``node`` as the relation it is (a substituted relation stays one; the type cannot say so)."""
    if not isinstance(node, Rel):
        raise BoundcalcError(f"{what} is not a relation 'lhs OP rhs'")
    return node


def _in_domain(dom, expr, env, value) -> bool:
    """Domain check of a derived value: a point value well inside (or outside) decides;
    near a boundary the sign against the boundary is certified."""
    from ..expr.nodes import Num
    if not isinstance(value, Fraction):          # an mpf from the certified evaluator
        from .solve import _to_fraction
        value = _to_fraction(value)
    for bound, closed, side in ((dom.lo, dom.lo_closed, 1), (dom.hi, dom.hi_closed, -1)):
        if bound is None:
            continue
        if abs(value - bound) <= (abs(bound) + abs(value)) * Fraction(1, 2 ** 100):
            s = mpb.decide_sign(sub(expr, Num(bound)), env)
            if s is None or s * side < 0 or (s == 0 and not closed):
                return False
    return dom.contains(value)


def _derived_syms(setting, reg):
    out = set()
    for _, node, _ in setting.derived:
        out |= reg.resolve(node, setting.paper).symbols()
    return out


def _missing_msg(names, paper, setting) -> str:
    parts = [f"--{n} ({paper.symbols[n].description})" if n in paper.symbols else f"--{n}" for n in names]
    return f"missing input for {setting.id}: " + "; ".join(parts)


def no_answer_reason(res: RequireResult) -> str | None:
    """One line saying why ``res`` is not an answer (a requirement not monotone in the
    variable, one left undecided, or least values above the largest allowed ones), or
    None when it is one. The CLI prints it and exits non-zero."""
    var = res.var
    for r in res.results:
        sol = r.solution
        if sol.outcome is RequireOutcome.NOT_MONOTONE:
            ce = sol.certificate.get("counterexample") or {}
            if "holds_at" in ce:
                return (f"{r.id} is not monotone in {var}: it holds at {var} = {ce['holds_at']} but fails at "
                        f"{var} = {ce['fails_at']}, so no least or largest {var} answers it")
            if sol.certificate.get("in_terms"):
                return (f"{r.id} is not monotone in {var}: {sol.certificate['in_terms']}; give --from/--to "
                        f"for a range where it is")
            return f"{r.id} is not monotone in {var}: {sol.certificate.get('detail', sol.monotone)}"
        if sol.outcome is RequireOutcome.UNDECIDED:
            return f"{r.id}: no answer for {var}: {sol.certificate.get('note', 'undecided')}"
    if res.feasible is False:
        least = max((r for r in res.solved if r.solution.direction == "least"), key=_answer)
        most = min((r for r in res.solved if r.solution.direction == "greatest"), key=_answer)
        return (f"impossible: {least.id} needs {var} >= {fmt_value(least.solution.value)}, but {most.id} "
                f"allows {var} <= {fmt_value(most.solution.value)}")
    return None


def to_json(res: RequireResult) -> dict:
    """The result as JSON-ready data (:mod:`boundcalc.reports.printers.json`)."""
    from .. import formats
    return formats.call("json", res)
