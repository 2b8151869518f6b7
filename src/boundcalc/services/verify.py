"""Decide ``LHS REL RHS`` under assumptions: proved / disproved (with a certified
counterexample) / unknown.

Both sides are parsed by the same whitelist parser as formula files, so a side may
name a formula (``deora2023.beta2``), whose symbols keep their domains. Symbols
declared nowhere are positive reals. ``--assume 'x >= 1'`` narrows a symbol's domain
(bounds on single symbols); other assumptions (``x <= y``) are used when sampling
for counterexamples and stated in the result.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import sympy as sp

from ..backends import mp as mpb
from ..errors import BoundcalcError
from ..expr.domains import Domain
from ..expr.nodes import Num, Rel, Sym, sub
from ..expr.parser import parse
from ..registry import get_registry
from .monotone import default_range
from .solve import _sign_ok, relation_holds
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
    dom_text = {n: str(d) for n, d in domains.items()}
    # 1. symbolic proof
    if not extra:
        expr, syms = to_sympy_with_domains(sub(b, a) if rel in ("<=", "<") else sub(a, b), {}, domains)
        tr = expr.subs(domain_substitution(syms, domains))
        if rel == "==":
            if sp.simplify(tr) == 0:
                return VerifyResult(statement, "proved", "symbolic: LHS - RHS simplifies to 0", assume,
                                    domains=dom_text)
        else:
            sign = prove_sign(tr) if tr != 0 else "zero"
            if sign in ("positive",) or (sign in ("nonnegative", "zero") and rel in ("<=", ">=")):
                return VerifyResult(statement, "proved",
                                    f"symbolic: the difference is {sign} on the whole domain", assume,
                                    domains=dom_text)
    # 2. counterexample search
    rng = random.Random(seed)
    diff = sub(a, b)
    names = sorted(domains)
    ranges = {n: default_range(domains[n], None) for n in names}
    for i in range(samples):
        env = {}
        for n in names:
            lo, hi = ranges[n]
            if i < 2 ** min(len(names), 8) and i < samples // 10:
                # corners first
                env[n] = hi if (i >> names.index(n)) & 1 else lo
            elif lo > 0 and hi / lo > 10:
                env[n] = Fraction(math.exp(rng.uniform(math.log(lo), math.log(hi)))).limit_denominator(10 ** 6)
            else:
                env[n] = Fraction(rng.uniform(float(lo), float(hi))).limit_denominator(10 ** 6)
            if domains[n].integer:
                env[n] = Fraction(round(env[n]))
            if not domains[n].contains(env[n]):
                env[n] = lo if domains[n].contains(lo) else hi
        if not all(domains[n].contains(env[n]) for n in names):
            continue
        if extra and not all(_ok_point(r, env) for r in extra):
            continue
        v = mpb.evaluate_point(diff, env, prec=80)
        if v is None:
            continue
        s = (v > 0) - (v < 0)
        if not _sign_ok(rel, s):
            try:
                if not relation_holds(node, env, what=statement):
                    lv = mpb.evaluate(a, env, digits=12)
                    rv = mpb.evaluate(b, env, digits=12)
                    return VerifyResult(statement, "disproved", "certified counterexample", assume,
                                        {**{k: str(x) for k, x in env.items()},
                                         "lhs": mpmath.nstr(lv, 12), "rhs": mpmath.nstr(rv, 12)},
                                        domains=dom_text)
            except BoundcalcError:
                continue
    return VerifyResult(statement, "unknown", "no proof found; no counterexample among "
                        f"{samples} sampled points", assume, domains=dom_text,
                        detail="sampling is not a proof")


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
