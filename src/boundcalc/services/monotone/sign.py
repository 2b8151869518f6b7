"""The sign of the derivative wherever f is defined: SymPy's sign rules, the factors of the
derivative (signs proved, or monotone factors signed at a closed end of the domain), then
the layers of :mod:`boundcalc.prover.decide`. A sign is half a proof of monotonicity; the
caller establishes continuity (:mod:`boundcalc.services.continuity`)."""
from __future__ import annotations

from fractions import Fraction

from ...backends import mp as mpb
from ...backends.sym import from_sympy
from ...backends.sympy_import import sympy as sp
from ...errors import BoundcalcError
from ...expr.nodes import Num, Rel
from ...prover.symbolic import domain_substitution, prove_sign
from ...verdicts import Verdict


def _sign_on_domain(deriv, syms: dict, var: str, table: dict, fnode, doms: dict, try_decide: bool):
    """(direction, how) when the derivative's sign is proved wherever f is defined — SymPy's
    sign rules, the factors (:func:`_sign_by_monotone_factors`), then (``try_decide``) the
    layers of :mod:`.decide` — else (None, None). The sign proves monotonicity only together
    with continuity (no pole, jump or gap), which the caller establishes."""
    relaxed = " (integer symbols relaxed to reals)" if any(d.integer for d in doms.values()) else ""
    sdoms = {n: table[n].domain for n in syms if n in table}
    sign = _bounded(lambda: prove_sign(deriv.subs(domain_substitution(syms, sdoms))))
    by_factors = ""
    if sign is None:
        sign = _bounded(lambda: _sign_by_monotone_factors(deriv, syms, var, sdoms))
        by_factors = " (its factors: signs proved, or monotone factors signed at the domain's end)" if sign else ""
    if sign in ("positive", "nonnegative", "negative", "nonpositive"):
        return ("increasing" if sign in ("positive", "nonnegative") else "decreasing",
                f"d/d{var} is {sign} wherever f is defined (exact){by_factors}{relaxed}")
    if sign == "zero":
        return "constant", f"d/d{var} = 0 wherever f is defined"
    dnode = _to_node(deriv)
    if dnode is None or not dnode.symbols() or not try_decide:
        return None, None
    from ...prover.decide import decide_relation
    hyp = _defined_where(fnode)     # where f is defined: the derivative's sign there
    ddoms = {n: table[n].domain for n in dnode.symbols() if n in table}
    ddoms.update({n: table[n].domain for r_ in hyp for n in r_.symbols() if n in table})
    for rel, verdict in ((">=", "increasing"), ("<=", "decreasing")):
        r = decide_relation(dnode, rel, Num(Fraction(0)), dict(ddoms), hyp, seconds=2.0, samples=300)
        if r.verdict is Verdict.PROVED:
            return verdict, f"d/d{var} {rel} 0 wherever f is defined: {r.text}{relaxed}"
    return None, None


def _sign_by_monotone_factors(deriv, syms: dict, var: str, sdoms: dict) -> str | None:
    """The strict sign of a derivative in ``var`` alone over ``var``'s domain, from the factors
    of its ``together`` form: a factor's sign is proved by SymPy on the domain, or the factor
    is monotone in ``var`` (read from its expression tree with certified signs,
    :func:`..trend.trend`) and its sign, certified in ball arithmetic at a closed end of the
    domain, can only grow away from 0 inside it (non-decreasing and > 0 at the lower end;
    non-increasing and < 0 at the lower end; the mirror at an upper end). How ``log(n)/sqrt(n)``
    is shown decreasing on n >= 8: d/dn = (2 - log n)/(2 n^{3/2}), and 2 - log n falls from
    2 - log 8 < 0. 'positive' / 'negative', or None when a factor's sign is not shown."""
    x = syms.get(var)
    dom = sdoms.get(var)
    if x is None or dom is None or deriv.free_symbols != {x} or sp.count_ops(deriv) > 200:
        return None
    from ..trend import trend
    sub_ = domain_substitution(syms, sdoms)
    ends = [(e, side) for e, closed, side in ((dom.lo, dom.lo_closed, 1), (dom.hi, dom.hi_closed, -1))
            if e is not None and closed]

    def factor_sign(g) -> int | None:
        if g.is_number:                  # a constant factor: its sign in ball arithmetic
            node = _to_node(g)
            sv = None if node is None else mpb.decide_sign(node, {})
            return sv if sv in (1, -1) else None
        s = prove_sign(g.subs(sub_))
        if s in ("positive", "negative"):
            return 1 if s == "positive" else -1
        if g.is_Pow and g.exp.is_integer:
            sb = factor_sign(g.base)
            if sb is None:
                return None
            return 1 if int(g.exp) % 2 == 0 else sb
        node = _to_node(g)
        if node is None:
            return None
        t = trend(node, var, {}, dom)
        for end, side in ends:       # side +1: the lower end, -1: the upper end
            if t not in (1, -1):
                break
            sv = mpb.decide_sign(node, {var: end})
            if sv is None or sv == 0:
                continue
            if t * side == sv:       # moving into the domain, g moves away from 0: keeps its sign
                return sv
        return None

    try:
        num, den = sp.fraction(sp.factor(sp.together(deriv)))
        total = 1
        for part in (num, den):
            for g in sp.Mul.make_args(part):
                sg = factor_sign(g)
                if sg is None:
                    return None
                total *= sg
    except (TypeError, ValueError, AttributeError, ZeroDivisionError, BoundcalcError):
        return None
    return "positive" if total > 0 else "negative"


SYMPY_SECONDS = 4.0     # SymPy's sign rules on one derivative (factoring can run for minutes)


def _bounded(step):
    """``step()`` under a CPU-time limit (where one can be set, :func:`.budget.time_limit`);
    None (not proved) when it runs out."""
    from ...prover.budget import Timeout, time_limit
    try:
        with time_limit(SYMPY_SECONDS):
            return step()
    except Timeout:
        return None


def _defined_where(fnode) -> list:
    """The definedness conditions g > 0, g >= 0 of f (the one rule) as assumptions: the
    derivative's sign matters only where f is defined (g != 0 conditions are left out)."""
    from ...expr.singularities import definedness
    return [Rel(c.op, c.expr, Num(Fraction(0))) for c in definedness(fnode) if c.op in (">", ">=")
            and c.expr.symbols()]


def _to_node(deriv):
    try:
        return from_sympy(deriv)
    except Exception:          # a SymPy form the expression language cannot hold
        return None
