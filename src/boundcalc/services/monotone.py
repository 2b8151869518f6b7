"""Monotonicity of a formula in one variable, with an honest evidence level.

1. *proved*: the sign of the partial derivative is decided symbolically for every
   point of the symbols' domains (domains encoded by substitutions such as x = 1 + t,
   t >= 0, see :func:`.symbolic.domain_substitution`);
2. *certified*: the layers of :mod:`.decide` (interval branch-and-bound in ball
   arithmetic, SMT) show the derivative keeps its sign on the stated box;
3. *sampled*: the derivative is evaluated at many random points of the box — never
   called a proof.
A sign change of the derivative at sampled points gives the verdict "neither" with
evidence ``counterexample`` only when BOTH directions are certified: a pair of points
differing only in the variable where f rises, and one where it falls (each comparison
certified in ball arithmetic). Setting the variable under test (``--set x=2``), an empty
domain, and a garbage, reversed or out-of-domain ``--box`` are errors, checked before any
proof is attempted. Proofs over the whole domain use SymPy's sign rules, then the layers
of :mod:`.decide` (SMT, interval) on the derivative.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import sympy as sp

from ..backends import mp as mpb
from ..backends.sym import from_sympy
from ..errors import BoundcalcError
from ..expr.domains import Domain
from ..expr.nodes import Rel, Sym, sub
from ..expr.parser import parse_number
from .decide import check_domain
from .symbolic import domain_substitution, prove_sign, to_sympy_with_domains

SAMPLES = 400


@dataclass
class MonotoneResult:
    id: str
    var: str
    verdict: str                 # increasing | decreasing | constant | neither | unknown
    evidence: str                # proved | certified | sampled | counterexample | none
    derivative: str
    detail: str
    box: dict = field(default_factory=dict)
    counterexample: dict | None = None

    def to_json(self) -> dict:
        return dict(self.__dict__)

    def describe(self) -> str:
        s = f"{self.id} is {self.verdict} in {self.var} ({self.evidence})"
        if self.evidence == "sampled":
            s += " — sampled, NOT a proof"
        s += f"\n  d/d{self.var} = {self.derivative}\n  {self.detail}"
        if self.box:
            s += "\n  box: " + ", ".join(f"{k} in [{a}, {b}]" for k, (a, b) in self.box.items())
        if self.counterexample:
            s += f"\n  counterexample: {self.counterexample}"
        return s


def default_range(d: Domain, default: Fraction | None) -> tuple[Fraction, Fraction]:
    """A finite box side for a domain (used when the user gives none)."""
    lo = d.lo if d.lo is not None else Fraction(-100)
    hi = d.hi if d.hi is not None else None
    if d.lo is not None and not d.lo_closed:
        lo = d.lo + (Fraction(1, 100) if hi is None else (hi - d.lo) / 100)
    if hi is None:
        hi = max(lo * 100, lo + 100) if lo > 0 else lo + 100
    elif not d.hi_closed:
        hi = hi - (hi - lo) / 100
    return lo, hi


def monotone(formula, var: str, *, box: dict | None = None, fixed: dict | None = None,
             samples: int = SAMPLES, seed: int = 0) -> MonotoneResult:
    table = formula.symbol_table
    if var not in table:
        raise BoundcalcError(f"{var!r} is not a symbol of {formula.id}; its symbols are {', '.join(table)}")
    node = formula.expr
    if isinstance(node, Rel):
        node = sub(node.rhs, node.lhs)   # monotonicity of the required slack rhs - lhs
    if var in (fixed or {}):
        raise BoundcalcError(f"--set {var}: {var} is the variable under test; it cannot be fixed "
                             f"(monotonicity in {var} is about {var} varying)")
    fixed = {k: parse_number(v, where=f"--set {k}") for k, v in (fixed or {}).items()}
    for k, v in fixed.items():
        if k not in table:
            raise BoundcalcError(f"unknown symbol {k!r} for {formula.id}")
        table[k].domain.check(k, v)
    for n in node.symbols():
        if n in table:
            check_domain(n, table[n].domain)
    ranges_given = _check_box(box, table, fixed, node.symbols())
    expr, syms = to_sympy_with_domains(node, table)
    x = syms[var]
    deriv = sp.diff(expr, x)
    if fixed:
        deriv = deriv.subs({syms[k]: sp.Rational(v.numerator, v.denominator) for k, v in fixed.items()})
    dstr = str(deriv)
    # 1. proof over the whole domain: SymPy sign rules, then the layers of .decide
    doms = {n: table[n].domain for n in syms if n in table}
    transformed = deriv.subs(domain_substitution(syms, doms))
    sign = prove_sign(transformed)
    relaxed = " (integer symbols relaxed to reals)" if any(d.integer for d in doms.values()) else ""
    if sign in ("positive", "nonnegative"):
        return MonotoneResult(formula.id, var, "increasing", "proved", dstr,
                              f"d/d{var} is {sign} for every value in the symbols' domains (exact){relaxed}")
    if sign in ("negative", "nonpositive"):
        return MonotoneResult(formula.id, var, "decreasing", "proved", dstr,
                              f"d/d{var} is {sign} for every value in the symbols' domains (exact){relaxed}")
    if sign == "zero":
        return MonotoneResult(formula.id, var, "constant", "proved", dstr, f"d/d{var} = 0")
    try:
        dnode = from_sympy(deriv)
    except Exception:          # a SymPy form the expression language cannot hold
        dnode = None
    if dnode is not None and dnode.symbols() and not ranges_given:
        from .decide import decide_relation
        from ..expr.nodes import Num as _N
        ddoms = {n: table[n].domain for n in dnode.symbols() if n in table}
        for rel, verdict in ((">=", "increasing"), ("<=", "decreasing")):
            r = decide_relation(dnode, rel, _N(Fraction(0)), dict(ddoms), seconds=2.0, samples=300)
            if r.verdict == "proved":
                return MonotoneResult(formula.id, var, verdict, "proved", dstr,
                                      f"d/d{var} {rel} 0 for every value in the symbols' domains: {r.text}{relaxed}")
    # 2./3. on a box
    ranges: dict[str, tuple[Fraction, Fraction]] = {}
    for n in sorted(syms):
        if n in fixed:
            continue
        ranges[n] = ranges_given[n] if n in ranges_given else default_range(table[n].domain, table[n].default)
    if dnode is None:
        dnode = from_sympy(deriv)
    shown = {k: (str(float(a)), str(float(b))) for k, (a, b) in ranges.items()}
    from . import sampling
    import numpy as np
    free = {n: table[n].domain for n in ranges}
    pts = sampling.sample(free, samples, seed, {k: (float(a), float(b)) for k, (a, b) in ranges.items()})
    with np.errstate(all="ignore"):
        dv = sampling.values(dnode.map(lambda n: _num(fixed[n.name]) if isinstance(n, Sym) and n.name in fixed
                                       else None), pts)
    finite = np.isfinite(dv)
    vals = [(float(dv[i]), {**sampling.point(pts, int(i)), **fixed}) for i in np.flatnonzero(finite)]
    pos = [e for v, e in vals if v > 0]
    neg = [e for v, e in vals if v < 0]
    if pos and neg:
        # 'neither' needs both directions shown: a pair where f rises and one where it falls
        up = next((c for c in (_counterexample(node, var, e, table, rising=True) for e in pos[:5]) if c), None)
        down = next((c for c in (_counterexample(node, var, e, table, rising=False) for e in neg[:5]) if c), None)
        ce = {"increasing_pair": up, "decreasing_pair": down} if up and down else None
        return MonotoneResult(formula.id, var, "neither", "counterexample" if ce else "sampled", dstr,
                              f"the derivative takes both signs on the box ({len(pos)} positive, "
                              f"{len(neg)} negative of {len(vals)} samples)"
                              + ("; f rises between one certified pair of points and falls between another"
                                 if ce else "; no certified pair of points shows both directions"), shown, ce)
    verdict = "increasing" if (pos or not neg) else "decreasing"
    if vals:
        # the layers of .decide on the box (bounded: interval branch-and-bound, SMT per piece)
        from .decide import decide_relation
        from ..expr.nodes import Num as _N, substitute
        dfix = substitute(dnode, {k: _N(v) for k, v in fixed.items()})
        bdoms = {n: Domain(table[n].domain.integer, a, True, b, True) for n, (a, b) in ranges.items()
                 if n in dfix.symbols()}
        if dfix.symbols() and all(not d.is_empty() for d in bdoms.values()):
            r = decide_relation(dfix, ">=" if verdict == "increasing" else "<=", _N(Fraction(0)), bdoms,
                                seconds=3.0, samples=300)
            if r.verdict == "proved":
                return MonotoneResult(formula.id, var, verdict, "certified", dstr,
                                      f"d/d{var} {'>=' if verdict == 'increasing' else '<='} 0 on the whole "
                                      f"box: {r.text}", shown)
    if not vals:
        return MonotoneResult(formula.id, var, "unknown", "none", dstr, "the derivative could not be evaluated on the box", shown)
    # the sampled direction is not proved, but one certified pair in that direction refutes
    # the OPPOSITE claim (a function that rises somewhere is not decreasing)
    rising = verdict == "increasing"
    pair = next((c for c in (_counterexample(node, var, e, table, rising=rising)
                             for e in (pos if rising else neg)[:5]) if c), None)
    ce = {("increasing_pair" if rising else "decreasing_pair"): pair} if pair else None
    return MonotoneResult(formula.id, var, verdict, "sampled", dstr,
                          f"d/d{var} kept one sign at {len(vals)} random points of the box "
                          "(not proved, not certified)"
                          + (f"; f {'rises' if rising else 'falls'} between a certified pair of points, so it is "
                             f"not {'decreasing' if rising else 'increasing'}" if pair else ""), shown, ce)


def _check_box(box, table, fixed, symbols) -> dict:
    """Validate --box before anything is proved: unknown names, garbage, reversed or empty
    ranges and ranges outside the symbol's domain are errors."""
    out = {}
    for n, v in (box or {}).items():
        if n not in table or n not in symbols:
            raise BoundcalcError(f"--box {n}: {n!r} is not a symbol of this formula")
        if n in fixed:
            raise BoundcalcError(f"--box {n}: {n} is also fixed by --set")
        a, b = (parse_number(x, where=f"--box {n}") for x in v)
        if a > b:
            raise BoundcalcError(f"--box {n}: reversed range [{a}, {b}] (lo must be <= hi)")
        for x in (a, b):
            if not table[n].domain.contains(x):
                raise BoundcalcError(f"--box {n}: {x} is outside the domain of {n} ({n} {table[n].domain.describe()})")
        if table[n].domain.integer and math.floor(b) < math.ceil(a):
            raise BoundcalcError(f"--box {n}: [{a}, {b}] contains no integer, but {n} is an integer")
        out[n] = (a, b)
    return out


def _num(x: Fraction):
    from ..expr.nodes import Num
    return Num(x)


def _counterexample(node, var, at, table, rising: bool):
    """Two points differing only in ``var`` (x_1 < x_2) where f rises (``rising``: f_1 < f_2)
    or falls (f_1 > f_2), the comparison certified in ball arithmetic."""
    x0 = at[var]
    for h in (Fraction(1, 10 ** k) for k in range(1, 8)):
        step = max(abs(x0), Fraction(1)) * h
        if table[var].domain.integer:
            step = Fraction(1)
        x1 = x0 + step
        if not table[var].domain.contains(x1):
            continue
        e0, e1 = dict(at), dict(at)
        e1[var] = x1
        s = mpb.decide_sign(_diff_at(node, var, x0, x1), at)
        # f(x0) - f(x1) < 0 means f rises from x0 to x1 > x0
        if s is not None and ((rising and s < 0) or (not rising and s > 0)):
            f0 = mpb.evaluate(node, e0, digits=12)
            f1 = mpb.evaluate(node, e1, digits=12)
            return {"point": {k: str(v) for k, v in at.items() if k != var},
                    f"{var}_1": str(x0), f"{var}_2": str(x1),
                    "f_1": mpmath.nstr(f0, 12), "f_2": mpmath.nstr(f1, 12)}
        if table[var].domain.integer:
            break
    return None


def _diff_at(node, var, x0, x1):
    """f(x0) - f(x1) as one expression (var replaced by the two numbers)."""
    from ..expr.nodes import Num, substitute
    return sub(substitute(node, {var: Num(x0)}), substitute(node, {var: Num(x1)}))
