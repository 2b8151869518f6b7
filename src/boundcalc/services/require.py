"""`require`: the least value of a variable (e.g. the number of heads H) that each
requirement of a setting needs, which one binds, and every input that was used."""
from __future__ import annotations

from .._record import Record, factory
from fractions import Fraction

from ..backends import mp as mpb
from ..errors import BoundcalcError, UnsatisfiableError
from ..expr.nodes import Node, sub, substitute
from ..expr.parser import parse_number
from ..registry import get_registry
from ..registry.model import Setting
from ..values import fmt_fraction
from .solve import Solution, relation_holds, solve_relation


class RequirementResult(Record):
    id: str
    name: str
    source: str
    status: str
    note: str
    solution: Solution
    constants: list[str]


class RequireResult(Record):
    setting: Setting
    var: str
    inputs: dict[str, tuple[Fraction, str]]          # name -> (value, "user" | "default")
    derived: dict[str, tuple[object, str, str]]        # name -> (mpf value, expression, "derived" | "user")
    results: list[RequirementResult] = factory(list)

    @property
    def binding(self) -> RequirementResult:
        least = [r for r in self.results if r.solution.direction == "least"]
        return max(least or self.results, key=lambda r: r.solution.value)


def input_names(setting: Setting, reg) -> list[str]:
    """Every symbol a user may set for this setting."""
    names = set(setting.values)
    for sym, node, _ in setting.derived:
        names.add(sym)
        names |= reg.resolve(node, setting.paper).symbols()
    for rid in setting.requirements:
        names |= reg.resolved(f"{setting.paper}.{rid}").symbols()
    for node, _ in setting.constraints:
        names |= node.symbols()
    names.discard(setting.solve_for)
    return sorted(names)


def require(paper: str, setting_name: str | None, overrides: dict[str, str], *,
            var: str | None = None, formulas_path=None) -> RequireResult:
    reg = get_registry(formulas_path)
    setting = reg.setting(paper, setting_name)
    var = var or setting.solve_for
    if not var:
        raise BoundcalcError(f"setting {setting.id} names no variable to solve for")
    p = reg.paper(paper)
    allowed = input_names(setting, reg)
    for k in overrides:
        if k == var:
            raise BoundcalcError(f"{var} is what is being solved for; do not set --{var}")
        if k not in allowed:
            raise BoundcalcError(f"unknown input --{k} for {setting.id}; inputs are: "
                                 + ", ".join(f"--{a}" for a in allowed))
    inputs: dict[str, tuple[Fraction, str]] = {}
    for k, v in setting.values.items():
        inputs[k] = (v, "default")
    for k, v in overrides.items():
        inputs[k] = (parse_number(v, where=f"--{k}"), "user")
    for k, (v, _) in inputs.items():
        p.symbols[k].domain.check(k, v)
    env = {k: v for k, (v, _) in inputs.items()}
    # derived quantities are inlined as expressions (exactness is kept) and also shown as values
    inline: dict[str, Node] = {}
    derived: dict[str, tuple[object, str, str]] = {}
    for sym, node, text in setting.derived:
        if sym in overrides:
            derived[sym] = (None, text, "user")
            continue
        expr = substitute(reg.resolve(node, paper), inline)
        missing = expr.symbols() - env.keys()
        if missing:
            raise BoundcalcError(_missing_msg(sorted(missing), p, setting))
        value = mpb.evaluate_point(expr, env, prec=128)
        if value is None:   # undefined at a point: let the certified evaluator say why
            value = mpb.evaluate(expr, env, digits=20, what=f"{setting.id}: {sym} = {text}")
        dom = p.symbols[sym].domain
        if not _in_domain(dom, expr, env, value):
            raise UnsatisfiableError(
                f"no {var} can work in {setting.id}: {sym if text == sym else f'{sym} = {text}'} evaluates to "
                f"{mpb.mpmath.nstr(value, 6)}, but {sym} {dom.describe()}"
                f" ({p.symbols[sym].description})")
        inline[sym] = expr
        derived[sym] = (value, text, "derived")
    for node, text in setting.constraints:
        rel = substitute(reg.resolve(node, paper), inline)
        missing = rel.symbols() - env.keys()
        if missing:
            raise BoundcalcError(_missing_msg(sorted(missing), p, setting))
        if not relation_holds(rel, env, what=f"constraint {text}"):
            raise BoundcalcError(f"the inputs violate the constraint {text} of {setting.id}")
    out = RequireResult(setting, var, inputs, derived)
    for rid in setting.requirements:
        fid = f"{paper}.{rid}"
        spec = reg.spec(fid)
        rel = substitute(reg.resolved(fid), inline)
        syms = rel.symbols() - {var}
        missing = syms - env.keys()
        if missing:
            raise BoundcalcError(_missing_msg(sorted(missing), p, setting))
        if var not in rel.symbols():
            raise BoundcalcError(f"{fid} does not involve {var}")
        sol = solve_relation(rel, var, env, p.symbols[var].domain, what=fid)
        consts = sorted(s for s in reg.resolved(fid).symbols() | _derived_syms(setting, reg)
                        if s in p.symbols and p.symbols[s].is_constant and s in rel.symbols())
        out.results.append(RequirementResult(fid, spec.title, spec.source, spec.status, spec.note, sol, consts))
    return out


def _in_domain(dom, expr, env, value) -> bool:
    """Domain check of a derived value: a point value well inside (or outside) decides;
    near a boundary the sign against the boundary is certified."""
    import mpmath
    from ..expr.nodes import Num
    for bound, closed, side in ((dom.lo, dom.lo_closed, 1), (dom.hi, dom.hi_closed, -1)):
        if bound is None:
            continue
        b = mpmath.mpf(bound.numerator) / bound.denominator
        if abs(value - b) <= (abs(b) + abs(value)) * mpmath.mpf(2) ** -100:
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


def to_json(res: RequireResult) -> dict:
    b = res.binding
    p = get_registry().paper(res.setting.paper)
    return {
        "setting": res.setting.id,
        "setting_name": res.setting.title,
        "source": res.setting.source,
        "var": res.var,
        res.var: b.solution.value if b.solution.integer else str(b.solution.value),
        "binding": b.id,
        "inputs": {k: {"value": fmt_fraction(v), "from": src,
                       "description": p.symbols[k].description if p and k in p.symbols else ""}
                   for k, (v, src) in sorted(res.inputs.items())},
        "derived": {k: {"value": None if v is None else mpb.mpmath.nstr(v, 15), "expression": text, "from": src}
                    for k, (v, text, src) in res.derived.items()},
        "requirements": [{
            "id": r.id, "name": r.name, "source": r.source, "status": r.status,
            res.var: r.solution.value if r.solution.integer else str(r.solution.value),
            "direction": r.solution.direction,
            "certificate": {k: v for k, v in r.solution.certificate.items()},
            "qualifier": ("up to the absolute constant(s) " + ", ".join(r.constants)) if r.constants
            else "exact constant",
            "note": r.note,
        } for r in res.results],
        "note": res.setting.note,
    }
