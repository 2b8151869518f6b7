"""`boundcalc check`: run every check a formula file declares and report findings.

The checks are data (``[[checks]]`` in a formula file, kinds in formulas/README.md);
this module only knows how to run each kind:

- derivation  — re-derive a statement from its premise by substitution; equal / valid
                looser bound / not implied (with what the premise actually gives);
- order       — a stated O / Omega / Theta against the exact expression's asymptotics,
                variable by variable (the regimes where the claim fails);
- monotone    — a stated monotonicity against :mod:`.monotone`;
- compare     — a stated (in)equality, decided by :func:`.verify.decide`;
- restatement — two statements of one result must be identical;
- vacuity     — a bound at the paper's own settings against the trivial value;
- identity    — a printed derivative against high-precision finite differences.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath

from ..backends import mp as mpb
from ..errors import BoundcalcError
from ..expr.domains import Domain
from ..expr.nodes import Node, Ref, Rel, Sym, sub, substitute
from ..expr.parser import parse, parse_number
from ..registry import get_registry

SEVERITIES = ("error", "warning", "note")


@dataclass
class Finding:
    paper: str
    check: str
    kind: str
    severity: str          # error | warning | note | ok
    location: str
    message: str
    evidence: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return dict(self.__dict__)


@dataclass
class Report:
    papers: list[str]
    results: list[Finding]
    seconds: float

    @property
    def findings(self) -> list[Finding]:
        return [r for r in self.results if r.severity != "ok"]

    def to_json(self) -> dict:
        counts = {s: sum(r.severity == s for r in self.results) for s in SEVERITIES + ("ok",)}
        return {"papers": self.papers, "checks_run": len(self.results), "counts": counts,
                "seconds": round(self.seconds, 2),
                "findings": [f.to_json() for f in self.findings],
                "passed": [r.to_json() for r in self.results if r.severity == "ok"]}

    def to_frame(self, passed: bool = True):
        """One row per check (``passed=False``: findings only), a pandas DataFrame."""
        from ..reports.frames import report_frame
        return report_frame(self, passed=passed)

    def _repr_html_(self) -> str:
        from ..reports.frames import report_html
        return report_html(self)


def run_checks(paper: str | None = None, *, formulas_path=None) -> Report:
    reg = get_registry(formulas_path)
    keys = [paper] if paper else list(reg.papers)
    t = time.perf_counter()
    out: list[Finding] = []
    for k in keys:
        p = reg.paper(k)
        for c in p.checks:
            out.append(_run_one(reg, p, c))
    return Report(keys, out, time.perf_counter() - t)


def _run_one(reg, paper, c) -> Finding:
    f = Finding(paper.key, c.id, c.kind, "ok", c.location, c.description)
    try:
        RUNNERS[c.kind](reg, paper, c.fields, f)
    except BoundcalcError as e:
        f.severity, f.message = "warning", f"check could not be run: {e}"
    except (NotImplementedError, ValueError, TypeError, ZeroDivisionError) as e:
        # SymPy gives up on some expressions (limits of min/max in several variables ...)
        f.severity = "warning"
        f.message = f"check could not be run: SymPy could not decide it ({type(e).__name__}: {str(e)[:120]})"
    return f


# ----------------------------------------------------------------------------- helpers
def _expr(reg, paper, text, uses=()) -> Node:
    """Parse a check expression; names listed in ``uses`` are formulas, others symbols."""
    node = parse(str(text), allow_relation=False, where=f"check expression {text!r}")
    node = node.map(lambda n: Ref(None, n.name) if isinstance(n, Sym) and n.name in uses else None)
    return reg.resolve(node, paper.key)


def _formula(reg, paper, ref: str) -> Node:
    fid = ref if "." in ref else f"{paper.key}.{ref}"
    return reg.resolved(fid)


def _domains(reg, paper, node: Node) -> dict[str, Domain]:
    table = reg.symbol_table(node, paper.key)
    return {n: (table[n].domain if n in table else Domain(lo=Fraction(0))) for n in node.symbols()}


def _subst(reg, paper, mapping: dict, uses=()) -> dict[str, Node]:
    return {k: _expr(reg, paper, v, uses) for k, v in (mapping or {}).items()}


def _assumptions(assume) -> list[Rel]:
    out = []
    for a in assume or []:
        r = parse(a, where="assume")
        if not isinstance(r, Rel):
            raise BoundcalcError(f"assumption {a!r} is not a relation")
        out.append(r)
    return out


def _show(node: Node) -> str:
    from ..backends.sym import to_sympy
    import sympy as sp
    e = to_sympy(node, {})
    return str(sp.simplify(e)) if sp.count_ops(e) < 120 else str(e)


def _values(reg, paper, at: dict, uses=()) -> dict[str, Fraction]:
    env = {}
    for k, v in (at or {}).items():
        node = _expr(reg, paper, v, uses)
        env[k] = Fraction(parse_number(str(v))) if not node.symbols() and _rational(node) else \
            Fraction(mpmath.nstr(mpb.evaluate(node, {}, digits=40), 40))
    return env


def _rational(node) -> bool:
    from ..backends.exact import NotExact, evaluate_exact
    try:
        evaluate_exact(node, {})
        return True
    except NotExact:
        return False


# ----------------------------------------------------------------------------- kinds
def _derivation(reg, paper, t, f: Finding):
    uses = tuple(t.get("uses", []))
    claim = _formula(reg, paper, t["claim"])
    derived = substitute(_formula(reg, paper, t["premise"]), _subst(reg, paper, t.get("substitute"), uses))
    direction = t["direction"]
    if isinstance(claim, Rel) != isinstance(derived, Rel):
        raise BoundcalcError("claim and premise must both be values or both be relations")
    if isinstance(claim, Rel):
        if claim.op != derived.op:
            raise BoundcalcError(f"claim uses {claim.op!r} but the premise {derived.op!r}")
        # a sufficient condition 'L >= c' implies 'L >= d' when c >= d (same left side)
        c_side, d_side = claim.rhs, derived.rhs
        lhs_same = _decide_equal(claim.lhs, derived.lhs, reg, paper)
        if lhs_same != "proved":
            c_side, d_side = sub(claim.rhs, claim.lhs), sub(derived.rhs, derived.lhs)
    else:
        c_side, d_side = claim, derived
    f.evidence = {"claim": _show(c_side), "derived_from_premise": _show(d_side)}
    from .verify import decide
    doms = _domains(reg, paper, Rel("==", c_side, d_side))
    extra = _assumptions(t.get("assume"))
    eq = decide(c_side, "==", d_side, dict(doms), extra, statement="claim == derived") if not extra else None
    if eq is not None and eq.verdict == "proved":
        f.message = "follows exactly: the printed statement equals the premise after the substitutions"
        return
    if direction == "equal":
        r = decide(c_side, "==", d_side, dict(doms), extra, statement="claim == derived")
        if r.verdict == "disproved":
            f.severity = "error"
            f.message = "not implied as printed: the premise with the stated substitutions gives a different expression"
            f.evidence["counterexample"] = r.counterexample
        else:
            f.severity = "warning"
            f.message = "could not decide whether the printed statement equals the derived one"
        return
    rel = ">=" if direction == "upper" else "<="
    r = decide(c_side, rel, d_side, dict(doms), extra, statement=f"claim {rel} derived")
    if r.verdict == "proved":
        f.message = f"valid: the printed statement is a (looser) {direction} bound of what the premise gives ({r.method})"
        f.severity = "ok"
    elif r.verdict == "disproved":
        f.severity = "error"
        f.message = (f"not implied: the printed {'bound' if direction else 'statement'} is "
                     f"{'smaller' if direction == 'upper' else 'larger'} than what the premise gives at some point")
        f.evidence["counterexample"] = r.counterexample
    else:
        f.severity = "warning"
        f.message = f"undecided: no proof that the printed statement is a valid {direction} bound, no counterexample"


def _decide_equal(a, b, reg, paper) -> str:
    from .verify import decide
    return decide(a, "==", b, _domains(reg, paper, Rel("==", a, b)), samples=200).verdict


def _order(reg, paper, t, f: Finding):
    """Exponents (a, b) of x^a log(x)^b of the exact expression, variable by variable,
    with the other symbols kept symbolic — or, where SymPy cannot take the limit so
    (min/max of several variables), at fixed generic values inside their domains, said
    in the evidence — against the stated order's."""
    import sympy as sp
    from ..backends.sym import to_sympy
    from .symbolic import to_sympy_with_domains
    fid = t["formula"] if "." in t["formula"] else f"{paper.key}.{t['formula']}"
    spec = reg.spec(fid)
    node = reg.resolved(fid)
    table = reg.symbol_table(fid)
    expr, syms = to_sympy_with_domains(node, table)
    if isinstance(expr, sp.core.relational.Relational):
        s = spec.solve_for
        sols = [r for r in sp.solve(sp.Eq(expr.lhs, expr.rhs), syms[s]) if r.is_positive is not False] if s else []
        if len(sols) != 1:
            raise BoundcalcError(f"{fid}: cannot isolate the solved variable for an order check")
        expr = sols[0]
    fixed = {k: parse_number(str(v)) for k, v in (t.get("fixed") or {}).items()}
    vars_ = t["var"] if isinstance(t["var"], list) else [t["var"]]
    relation = t["relation"]
    stated = _expr(reg, paper, t["order"])
    fails, rows = [], []
    for v in vars_:
        if v not in syms:
            raise BoundcalcError(f"{fid} does not depend on {v!r}")
        x = syms[v]
        e = expr
        for k, val in (t.get("together") or {}).items():
            e = e.subs(syms[k], to_sympy(parse(str(val), allow_relation=False), {v: x}))
        e = e.subs({syms[n]: sp.Rational(q.numerator, q.denominator) for n, q in fixed.items() if n in syms})
        try:
            ea = _exponents(e, x)          # other symbols kept symbolic (positive, in their domains)
            how = "symbolic"
        except (NotImplementedError, BoundcalcError, ValueError, TypeError):
            generic = {s_: _generic(table[n].domain if n in table else None, i, None)
                       for i, (n, s_) in enumerate(sorted(syms.items())) if n != v and s_ in e.free_symbols}
            ea = _exponents(e.subs(generic), x)
            how = "other symbols at generic values"
        ca = _order_of(stated, v, t.get("together"))
        ok = {"O": ea <= ca, "Omega": ea >= ca, "Theta": ea == ca}[relation]
        rows.append({"var": v, "exact": f"Theta({_core(ea, v)})", "stated": f"{relation}({_core(ca, v)})",
                     "holds": ok, "method": how})
        if not ok:
            fails.append(v)
    f.evidence = {"per_variable": rows, "method": "SymPy limits (x^a log(x)^b)"}
    if fails:
        f.severity = "error"
        f.message = (f"stated {relation}({t['order']}) disagrees with the exact expression as "
                     + ", ".join(f"{v} -> oo" for v in fails))
    else:
        f.message = f"stated {relation}({t['order']}) agrees with the exact asymptotics"


_PRIMES = (13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73)


def _generic(d: Domain | None, i: int, given):
    """A fixed 'generic' value inside a domain (distinct per symbol)."""
    import sympy as sp
    if given is not None:
        return sp.Rational(given.numerator, given.denominator)
    p = sp.Rational(_PRIMES[i % len(_PRIMES)], 7)
    if d is None:
        return p
    if d.lo is not None and d.hi is not None:
        return sp.Rational(d.lo) + (sp.Rational(d.hi) - sp.Rational(d.lo)) * sp.Rational(_PRIMES[i % 16], 101)
    if d.lo is not None:
        v = sp.Rational(d.lo) + p
        return sp.ceiling(v) if d.integer else v
    if d.hi is not None:
        return sp.Rational(d.hi) - p
    return p


def _exponents(e, x) -> tuple[Fraction, Fraction]:
    import sympy as sp
    a = sp.limit(sp.log(e) / sp.log(x), x, sp.oo)
    g = e / x ** a
    b = sp.limit(sp.log(g) / sp.log(sp.log(x)), x, sp.oo)
    if not (a.is_rational and b.is_rational):
        raise BoundcalcError(f"order not of the form x^a log(x)^b (got a = {a}, b = {b})")
    return Fraction(str(a)), Fraction(str(b))


def _order_of(node: Node, var: str, together) -> tuple[Fraction, Fraction]:
    import sympy as sp
    from ..backends.sym import to_sympy
    e = to_sympy(node, {})
    x = sp.Symbol(var, positive=True)
    for k, v in (together or {}).items():
        e = e.subs(sp.Symbol(k, positive=True), to_sympy(parse(v, allow_relation=False), {var: x}))
    if x not in e.free_symbols:
        return Fraction(0), Fraction(0)
    return _exponents(e.subs({s: 7 for s in e.free_symbols if s != x}), x)


def _core(ab, v) -> str:
    a, b = ab
    parts = []
    if a:
        parts.append(f"{v}**{a}" if a != 1 else v)
    if b:
        parts.append(f"log({v})**{b}" if b != 1 else f"log({v})")
    return "*".join(parts) or "1"


def _monotone(reg, paper, t, f: Finding):
    from .monotone import monotone
    from ..api import Formula
    fid = t["formula"] if "." in t["formula"] else f"{paper.key}.{t['formula']}"
    box = {k: (str(v[0]), str(v[1])) for k, v in (t.get("box") or {}).items()}
    r = monotone(Formula(reg.spec(fid), reg), t["var"], box=box, fixed=t.get("fixed"))
    want = {"nondecreasing": "increasing", "nonincreasing": "decreasing"}.get(t["claim"], t["claim"])
    f.evidence = {"verdict": r.verdict, "evidence": r.evidence, "derivative": r.derivative, "box": r.box,
                  "counterexample": r.counterexample}
    if r.verdict == want:
        if r.evidence == "sampled":
            f.severity = "note"
            f.message = f"stated {want} in {t['var']}: only sampled (no proof, no certificate)"
        else:
            f.message = f"stated {want} in {t['var']}: {r.evidence}"
    elif r.verdict in ("neither", "increasing", "decreasing", "constant") and r.evidence in (
            "proved", "certified", "counterexample"):
        f.severity = "error"
        f.message = f"stated {want} in {t['var']}, but it is {r.verdict} ({r.evidence})"
    else:
        f.severity = "warning"
        f.message = f"stated {want} in {t['var']}: not confirmed ({r.verdict}, {r.evidence})"


def _compare(reg, paper, t, f: Finding):
    from .verify import decide
    uses = tuple(t.get("uses", []))
    a, b = _expr(reg, paper, t["lhs"], uses), _expr(reg, paper, t["rhs"], uses)
    r = decide(a, t["rel"], b, _domains(reg, paper, Rel("==", a, b)), _assumptions(t.get("assume")),
               statement=f"{t['lhs']} {t['rel']} {t['rhs']}")
    f.evidence = {"verdict": r.verdict, "method": r.method, "counterexample": r.counterexample}
    if r.verdict == "proved":
        f.message = f"holds ({r.method})"
    elif r.verdict == "disproved":
        f.severity = "error"
        f.message = f"does not hold: {t['lhs']} {t['rel']} {t['rhs']} fails at a certified point"
    else:
        f.severity = "warning"
        f.message = f"undecided: {r.method}"


def _restatement(reg, paper, t, f: Finding):
    from .verify import decide
    a = _formula(reg, paper, t["a"])
    b = substitute(_formula(reg, paper, t["b"]), _subst(reg, paper, t.get("substitute")))
    if isinstance(a, Rel) and isinstance(b, Rel):
        a, b = sub(a.lhs, a.rhs), sub(b.lhs, b.rhs)
    f.evidence = {"a": _show(a), "b": _show(b)}
    r = decide(a, "==", b, _domains(reg, paper, Rel("==", a, b)), statement=f"{t['a']} == {t['b']}")
    if r.verdict == "proved":
        f.message = "the two statements are identical"
    elif r.verdict == "disproved":
        f.severity = "error"
        f.message = f"the restatements differ: {t['a']} and {t['b']} give different values"
        f.evidence["counterexample"] = r.counterexample
    else:
        f.severity = "warning"
        f.message = "could not decide whether the two statements agree"


def _vacuity(reg, paper, t, f: Finding):
    node = _formula(reg, paper, t["formula"])
    if isinstance(node, Rel):
        node = node.rhs if t.get("side", "rhs") == "rhs" else node.lhs
    env = _values(reg, paper, t["at"])
    table = reg.symbol_table(node, paper.key)
    for n in node.symbols():
        if n not in env:
            if n in table and table[n].default is not None:
                env[n] = table[n].default
            else:
                raise BoundcalcError(f"vacuity check needs a value for {n!r}")
    v = mpb.evaluate(node, env, digits=15, what=t["formula"])
    triv = mpb.evaluate(_expr(reg, paper, t["trivial"]), env, digits=15)
    f.evidence = {"value": mpmath.nstr(v, 10), "trivial": mpmath.nstr(triv, 10),
                  "at": {k: str(x) for k, x in env.items()}}
    vacuous = v >= triv if t["direction"] == "upper" else v <= triv
    if vacuous:
        f.severity = "warning"
        f.message = (f"vacuous at the paper's setting: the bound is {mpmath.nstr(v, 6)}, "
                     f"{'above' if t['direction'] == 'upper' else 'below'} the trivial value {mpmath.nstr(triv, 6)}")
    else:
        f.message = f"non-vacuous at the paper's setting: {mpmath.nstr(v, 6)} vs trivial {mpmath.nstr(triv, 6)}"


def _identity(reg, paper, t, f: Finding):
    uses = tuple(t.get("uses", []))
    fn = _expr(reg, paper, t["function"], uses)
    dv = _expr(reg, paper, t["derivative"], uses)
    env = _values(reg, paper, t["at"])
    var = t["wrt"]
    if var not in env:
        raise BoundcalcError(f"identity check: 'at' has no value for {var!r}")
    tol = mpmath.mpf(str(t.get("tol", "1e-20")))
    with mpmath.workdps(60):
        def g(x):
            e = dict(env)
            e[var] = x
            return mpb.evaluate(fn, e, digits=50)
        x0 = mpb._mpf(env[var])
        # central difference with step 1e-15 on 50-digit values: truncation ~1e-30, rounding ~1e-35
        fd = mpmath.diff(g, x0, h=mpmath.mpf(10) ** -15)
        printed = mpb.evaluate(dv, env, digits=50)
        err = abs(fd - printed)
        rel = err / max(abs(fd), mpmath.mpf(10) ** -30)
    f.evidence = {"finite_difference": mpmath.nstr(fd, 20), "printed": mpmath.nstr(printed, 20),
                  "relative_error": mpmath.nstr(rel, 5), "at": {k: str(x) for k, x in env.items()}}
    if rel > tol:
        f.severity = "error"
        f.message = f"the printed derivative d/d{var} does not match finite differences (rel. error {mpmath.nstr(rel, 3)})"
    else:
        f.message = f"the printed derivative d/d{var} matches finite differences (rel. error {mpmath.nstr(rel, 3)})"


RUNNERS = {"derivation": _derivation, "order": _order, "monotone": _monotone, "compare": _compare,
           "restatement": _restatement, "vacuity": _vacuity, "identity": _identity}
