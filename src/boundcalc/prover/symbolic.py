"""Shared SymPy machinery: symbols with domain assumptions, domain substitutions that
turn "x >= 1" into "x = 1 + t, t >= 0", a sign prover for expressions, and SymPy's limit
as a finite real constant (:func:`finite_limit`).

Soundness contract: :func:`prove_sign` answers a sign only when SymPy's assumption system
derives it for every value of the symbols allowed by their assumptions (the domain
substitution keeps those assumptions exact); otherwise None. It never guesses.
:func:`finite_limit` is SymPy's answer, not a certificate: its callers cross-check it in
ball arithmetic and name SymPy in their verdicts.
"""
from __future__ import annotations

from fractions import Fraction

from ..backends.sym import sympy_symbol, to_sympy
from ..backends.sympy_import import sympy as sp
from ..expr.domains import Domain
from ..expr.nodes import Node
from ..registry.model import Symbol


def _rat(x: Fraction):
    return sp.Rational(x.numerator, x.denominator)


def to_sympy_with_domains(node: Node, table: dict[str, Symbol], extra: dict[str, Domain] | None = None):
    """(expr, {name: sympy symbol}) with each symbol carrying its domain's assumptions."""
    doms = {n: s.domain for n, s in table.items()}
    doms.update(extra or {})
    syms = {n: sympy_symbol(n, doms.get(n)) for n in sorted(node.symbols())}   # sorted: one order in every run
    for n in syms:
        if n not in doms:
            syms[n] = sp.Symbol(n, positive=True)
    return to_sympy(node, syms), syms


def _fresh(name: str, strict: bool):
    """A fresh variable t > 0 (strict) or t >= 0. Only the assumption that holds is passed:
    SymPy reads positive=False as 't is not positive', which with t >= 0 would pin t = 0."""
    return sp.Dummy(f"{name}_", positive=True) if strict else sp.Dummy(f"{name}_", nonnegative=True)


def domain_substitution(syms: dict[str, sp.Symbol], domains: dict[str, Domain]):
    """Map each symbol to an expression in a fresh variable whose SymPy assumptions
    encode the whole domain: [a, oo) -> a + t (t >= 0); (a, oo) -> a + t (t > 0);
    (a, b) -> a + (b-a) t/(1+t) (t > 0), also for a bounded interval with closed ends: the
    image is its interior, and :func:`prove_sign_on` adds the closed ends; (-oo, b] -> b - t.
    Integer domains are relaxed to the reals (a statement proved over the reals holds on the
    integers)."""
    sub = {}
    for name, s in syms.items():
        d = domains.get(name)
        if d is None:
            continue
        if d.lo is not None and d.hi is None:
            sub[s] = _rat(d.lo) + _fresh(name, strict=not d.lo_closed)
        elif d.lo is not None and d.hi is not None:
            if d.lo == d.hi:
                sub[s] = _rat(d.lo)
                continue
            t = _fresh(name, strict=True)
            e = _rat(d.lo) + (_rat(d.hi) - _rat(d.lo)) * t / (1 + t)
            # t/(1+t) covers (0, 1): the interior only; a closed end is proved on its own
            # by prove_sign_on (not by continuity: ceil jumps, and x > 0 fails at x = 0)
            sub[s] = e
        elif d.hi is not None:
            sub[s] = _rat(d.hi) - _fresh(name, strict=not d.hi_closed)
    return sub


MAX_FACES = 27          # sign proofs at closed ends: at most this many interior/end combinations


def domain_parts(expr, syms: dict[str, sp.Symbol], domains: dict[str, Domain]) -> list | None:
    """``expr`` on the whole domains of ``syms``, closed ends included, as a list of SymPy
    expressions whose fresh variables' assumptions cover it exactly; None when there are
    more than :data:`MAX_FACES` parts.

    :func:`domain_substitution` reaches only the interior of a bounded interval, and the
    interior says nothing at its closed ends (``x > 0`` on ``[0, 1]``), nor at all where the
    expression jumps (``ceil``). So each closed end of a bounded interval is a part of its
    own: the symbol set to the end exactly, the other symbols substituted as before (every
    combination of interior and ends). An end where SymPy's value is not finite and real
    (``log(0)``, ``1/0``) is left out: the expression is undefined there."""
    sdoms = {n: d for n, d in domains.items() if n in syms}
    ends = {n: [e for e, c in ((d.lo, d.lo_closed), (d.hi, d.hi_closed)) if c]
            for n, d in sdoms.items() if d.lo is not None and d.hi is not None and d.lo != d.hi}
    combos: list[dict] = [{}]
    for n in sorted(ends):
        combos = [dict(c, **{n: e}) for c in combos for e in [None] + ends[n]]
    if len(combos) > MAX_FACES:
        return None
    parts = []
    for combo in combos:
        fixed = {syms[n]: _rat(e) for n, e in combo.items() if e is not None}
        e2 = expr.subs(fixed) if fixed else expr
        if fixed and (e2.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or e2.has(sp.I)):
            continue
        rest = {n: v for n, v in syms.items() if v not in fixed}
        parts.append(e2.subs(domain_substitution(rest, {n: d for n, d in sdoms.items() if n in rest})))
    return parts


def prove_sign_on(expr, syms: dict[str, sp.Symbol], domains: dict[str, Domain]) -> str | None:
    """:func:`prove_sign` of ``expr`` on the whole domains, closed ends included: the sign
    that holds on every part of :func:`domain_parts`."""
    parts = domain_parts(expr, syms, domains)
    return None if parts is None else _combine_signs([prove_sign(p) for p in parts])


def _combine_signs(signs: list) -> str | None:
    """The sign that holds on every part, each part's sign given (None: unknown)."""
    if not signs or None in signs:
        return None
    kinds = set(signs)
    for strict, weak in (("positive", "nonnegative"), ("negative", "nonpositive")):
        if kinds == {strict}:
            return strict
        if kinds <= {strict, weak, "zero"}:
            return "zero" if kinds == {"zero"} else weak
    return None


def _term_sign(term) -> int | None:
    """Sign of a product of factors whose signs SymPy's assumptions decide."""
    if term.is_positive:
        return 1
    if term.is_negative:
        return -1
    if term.is_zero:
        return 0
    if term.is_nonnegative:
        return 2   # >= 0
    if term.is_nonpositive:
        return -2
    return None


def prove_sign(expr) -> str | None:
    """'positive', 'nonnegative', 'negative', 'nonpositive', 'zero' or None (not proved).

    Tries SymPy's assumptions on the expression, then on the numerator and denominator
    of its ``together`` form, expanding the numerator into terms whose signs are known."""
    small = sp.count_ops(expr) <= MAX_OPS // 4 and _max_power(expr) <= MAX_FACTOR_POWER
    for e in (expr, sp.factor_terms(expr)) + ((sp.factor(expr),) if small else ()):
        s = _term_sign(e)
        if s is not None:
            return {1: "positive", -1: "negative", 0: "zero", 2: "nonnegative", -2: "nonpositive"}[s]
    if sp.count_ops(expr) > MAX_OPS:
        return None
    num, den = sp.fraction(sp.together(expr))
    sd = _term_sign(den)
    if sd is None:
        sd = _sum_sign(_expand(den))
    if sd not in (1, -1):
        return None
    sn = _term_sign(num)
    if sn is None:
        sn = _sum_sign(_expand(num))
    if sn is None:
        return None
    s = sn * sd if abs(sn) == 1 or sn == 0 else (2 if sn * sd > 0 else -2)
    return {1: "positive", -1: "negative", 0: "zero", 2: "nonnegative", -2: "nonpositive"}[s]


MAX_OPS = 400          # beyond this, expansion can take minutes: give up (not proved)
# factor() of an expression with an integer power above this: not tried (a size budget). It
# expands the power and factors the result (Zassenhaus, Wang), work SymPy's call counter
# barely sees: issue 37 found ``-(x + 513)**42 + 1640*exp(x + 513)`` (the ends layer on
# exp(-x) <= x**(-40), tests/prover/test_ends_hostile.py) taking 40 s of CPU, stopped only by
# the CPU safety nets, where the budget was 1.5 nominal seconds
MAX_FACTOR_POWER = 24


def _max_power(e) -> int:
    """The largest |k| of an integer power ``b**k`` in ``e`` (0 if none)."""
    return max((abs(int(p.exp)) for p in e.atoms(sp.Pow) if p.exp.is_Integer), default=0)


def _expand(e):
    """Expand only while the expression stays small (expansion is exponential)."""
    return sp.expand(e) if sp.count_ops(e) <= MAX_OPS // 4 else e


def _sum_sign(e) -> int | None:
    if e is None:
        return None
    if e == 0:
        return 0
    terms = sp.Add.make_args(e)
    signs = [_term_sign(t) for t in terms]
    if any(s is None for s in signs):
        return None
    if all(s in (1, 2, 0) for s in signs):
        return 1 if any(s == 1 for s in signs) else 2
    if all(s in (-1, -2, 0) for s in signs):
        return -1 if any(s == -1 for s in signs) else -2
    return None


def is_zero_at(diff: Node, env: dict) -> bool:
    """Exact symbolic decision whether ``diff`` is zero at the (rational) point ``env``."""
    e = to_sympy(diff, {})
    vals = {sp.Symbol(k, positive=True): (_rat(v) if isinstance(v, Fraction) else sp.nsimplify(str(v)))
            for k, v in env.items()}
    e = e.xreplace({s: vals[sp.Symbol(s.name, positive=True)] for s in e.free_symbols
                    if sp.Symbol(s.name, positive=True) in vals})
    return bool(sp.simplify(e) == 0)


def finite_limit(e, x, point, direction: str = "+"):
    """SymPy's ``limit(e, x, point, direction)`` (the Gruntz algorithm) if it is a finite real
    constant, else None (an infinite limit, an oscillation's AccumBounds, an unevaluated
    Limit). Unbounded work: call it under :func:`.budget.time_limit`."""
    lim = sp.limit(e, x, point, direction)
    if (lim.free_symbols or lim.has(sp.AccumBounds, sp.Limit, sp.nan, sp.zoo)
            or lim.is_extended_real is not True or lim.is_finite is not True):
        return None
    return lim
