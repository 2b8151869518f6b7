"""Decide ``LHS REL RHS`` under assumptions: proved / disproved (with a certified
counterexample) / unknown.

Both sides are parsed by the same whitelist parser as formula files, so a side may
name a formula (``deora2023.beta2``), whose symbols keep their domains. Symbols
declared nowhere are positive reals. ``--assume 'x >= 1'`` narrows a symbol's domain
(bounds on single symbols); other assumptions (``x <= y``) are used when sampling
for counterexamples and stated in the result.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from ..backends import mp as mpb
from ..errors import BoundcalcError
from ..expr.domains import Domain
from ..expr.nodes import Num, Rel, Sym, sub
from ..expr.parser import parse
from ..registry import get_registry
from .solve import relation_holds
from .symbolic import domain_substitution, prove_sign, to_sympy_with_domains

RELS = ("==", "<=", ">=", "<", ">")
SAMPLES = 3000


@dataclass
class VerifyResult:
    statement: str
    verdict: str                    # proved | disproved | unknown
    method: str
    assumptions: list[str]
    counterexample: dict | None = None
    detail: str = ""
    domains: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return dict(self.__dict__)

    def describe(self) -> str:
        s = f"{self.statement}: {self.verdict.upper()} ({self.method})"
        if self.assumptions:
            s += "\n  assuming " + ", ".join(self.assumptions)
        if self.counterexample:
            s += f"\n  counterexample: {self.counterexample}"
        if self.detail:
            s += f"\n  {self.detail}"
        return s


def _narrow(d: Domain, op: str, c: Fraction) -> Domain:
    if op in (">=", ">"):
        if d.lo is None or c > d.lo or (c == d.lo and op == ">"):
            return Domain(d.integer, c, op == ">=", d.hi, d.hi_closed)
        return d
    if op in ("<=", "<"):
        if d.hi is None or c < d.hi or (c == d.hi and op == "<"):
            lo, lc = d.lo, d.lo_closed
            if lo is None and c > 0 and d == Domain(lo=Fraction(0)):
                lo = Fraction(0)
            return Domain(d.integer, lo, lc, c, op == "<=")
        return d
    return Domain(d.integer, c, True, c, True)


def verify(lhs: str, rel: str, rhs: str, assume: list[str], *, formulas_path=None,
           samples: int = SAMPLES, seed: int = 0) -> VerifyResult:
    if rel not in RELS:
        raise BoundcalcError(f"REL must be one of {', '.join(RELS)}, not {rel!r}")
    reg = get_registry(formulas_path)
    a = reg.resolve(parse(lhs, allow_relation=False, where="LHS"), _paper_of(lhs, reg))
    b = reg.resolve(parse(rhs, allow_relation=False, where="RHS"), _paper_of(rhs, reg))
    statement = f"{lhs} {rel} {rhs}"
    node = Rel(rel, a, b)
    table = reg.symbol_table(node)
    domains: dict[str, Domain] = {n: (table[n].domain if n in table else Domain(lo=Fraction(0)))
                                  for n in node.symbols()}
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
    return decide(a, rel, b, domains, extra, statement=statement, assumptions=list(assume),
                  samples=samples, seed=seed)


def decide(a, rel: str, b, domains: dict[str, Domain], extra=(), *, statement: str = "",
           assumptions: list[str] | None = None, samples: int = SAMPLES, seed: int = 0) -> VerifyResult:
    """The core of ``verify`` on parsed, resolved sides: a vectorised search for a
    certified counterexample, then a symbolic proof, else unknown."""
    assume = assumptions or []
    node = Rel(rel, a, b)
    for n in node.symbols():
        domains.setdefault(n, Domain(lo=Fraction(0)))
    for r in extra:
        for n in r.symbols():
            domains.setdefault(n, Domain(lo=Fraction(0)))
    dom_text = {n: str(d) for n, d in domains.items()}
    ce = _search(a, rel, b, node, domains, list(extra), samples, seed, statement)
    if ce is not None:
        return VerifyResult(statement, "disproved", "certified counterexample", assume, ce, domains=dom_text)
    method = _prove(a, rel, b, domains, list(extra))
    if method:
        return VerifyResult(statement, "proved", method, assume, domains=dom_text)
    return VerifyResult(statement, "unknown", "no proof found; no counterexample among "
                        f"{samples} sampled points", assume, domains=dom_text,
                        detail="sampling is not a proof")


def _prove(a, rel, b, domains, extra) -> str | None:
    """Symbolic proof under the domains; an assumption 'x >= e' (x a symbol not in e)
    is used by substituting x = e + t with t >= 0."""
    diff = sub(b, a) if rel in ("<=", "<") else sub(a, b)
    expr, syms = to_sympy_with_domains(diff, {}, domains)
    subs_extra = {}
    for r in extra:
        got = _assumption_substitution(r, syms, domains)
        if got is None:
            return None
        subs_extra.update(got)
    if subs_extra:
        expr = expr.subs(subs_extra)
        syms = {n: s for n, s in syms.items() if s not in subs_extra}
        for s_new in set().union(*(v.free_symbols for v in subs_extra.values())):
            syms.setdefault(s_new.name, s_new)
    tr = expr.subs(domain_substitution(syms, {n: d for n, d in domains.items() if n in syms}))
    if rel == "==":
        if tr == 0 or sp.expand(tr) == 0 or (sp.count_ops(tr) < 400 and sp.simplify(tr) == 0):
            return "symbolic: LHS - RHS simplifies to 0" + (" under the assumptions" if extra else "")
        return None
    sign = "zero" if tr == 0 else prove_sign(tr)
    if sign == "positive" or (sign in ("nonnegative", "zero") and rel in ("<=", ">=")):
        return f"symbolic: the difference is {sign} on the whole domain" + (" under the assumptions" if extra else "")
    return None


def _assumption_substitution(r: Rel, syms, domains):
    from ..backends.sym import to_sympy
    if r.op == "==" :
        return None
    for lhs, rhs, op in ((r.lhs, r.rhs, r.op), (r.rhs, r.lhs, {"<=": ">=", ">=": "<=", "<": ">", ">": "<"}[r.op])):
        if isinstance(lhs, Sym) and lhs.name in syms and lhs.name not in rhs.symbols():
            kind = {"positive": True} if op in ("<", ">") else {"nonnegative": True}
            t = sp.Dummy(f"{lhs.name}_gap", **kind)
            e = to_sympy(rhs, dict(syms))
            return {syms[lhs.name]: e + t if op in (">=", ">") else e - t}
    return None


def _search(a, rel, b, node, domains, extra, samples, seed, statement):
    from . import sampling
    names = sorted(domains)
    pts = sampling.sample({n: domains[n] for n in names}, samples, seed)
    ok = np.ones(samples, dtype=bool)
    with np.errstate(all="ignore"):
        for r in extra:
            ok &= _np_holds(r.op, sampling.values(r.lhs, pts), sampling.values(r.rhs, pts), 1e-9)
        va, vb = sampling.values(a, pts), sampling.values(b, pts)
        bad = ok & np.isfinite(va) & np.isfinite(vb) & ~_np_holds(rel, va, vb, 1e-9)
        score = np.where(bad, np.abs(va - vb) / (np.abs(va) + np.abs(vb) + 1e-300), -1.0)
    for i in np.argsort(-score)[:40]:
        if score[i] < 0:
            break
        env = sampling.point(pts, int(i))
        if not all(domains[n].contains(env[n]) for n in names):
            continue
        if extra and not all(_ok_point(r, env) for r in extra):
            continue
        try:
            if not relation_holds(node, env, what=statement):
                lv = mpb.evaluate(a, env, digits=12)
                rv = mpb.evaluate(b, env, digits=12)
                return {**{k: str(x) for k, x in env.items() if k in node.symbols() or any(k in r.symbols() for r in extra)},
                        "lhs": mpmath.nstr(lv, 12), "rhs": mpmath.nstr(rv, 12)}
        except BoundcalcError:
            continue
    return None


def _np_holds(op: str, a, b, rtol: float):
    """Relation on float arrays with a relative tolerance in favour of 'holds'."""
    tol = rtol * (np.abs(a) + np.abs(b))
    return {"<=": a <= b + tol, ">=": a >= b - tol, "<": a < b + tol, ">": a > b - tol,
            "==": np.abs(a - b) <= tol}[op]


def _ok_point(r: Rel, env) -> bool:
    try:
        return relation_holds(r, env)
    except BoundcalcError:
        return False


def _paper_of(text: str, reg) -> str | None:
    for p in reg.papers:
        if f"{p}." in text:
            return p
    return None
