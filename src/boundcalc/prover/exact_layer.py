"""Exact layer of the decision procedure: SymPy simplification and sign rules.

The goal ``g op 0`` is transformed so that SymPy's assumptions can see the domains
(``x >= 1`` becomes ``x = 1 + t, t >= 0``, :func:`.symbolic.domain_substitution`) and
the assumptions (``x >= e`` with x a symbol, or an assumption linear in some symbol with
a coefficient of known sign, solved for it: ``R*gamma*Xi >= L`` becomes
``R = (L + t)/(gamma*Xi), t >= 0``); then :func:`.symbolic.prove_sign` decides the sign
(on the interior of a bounded interval and at each of its closed ends,
:func:`.symbolic.prove_sign_on`).
When both sides are positive, the same is tried on ``log(lhs) - log(rhs)`` (taking
logarithms of both sides), and the rewritten goals are handed on to the SMT layer.
Callers run this under a time limit (:func:`.budget.time_limit`) and only on inputs within
the size budget (:func:`.budget.sympy_safe`).

Soundness contract: a "proved" from this layer means SymPy derived the sign of the goal
from the domains and assumptions (after a substitution that is exact on the domain);
it never disproves. On its budget the caller's :func:`.budget.time_limit` raises
:class:`.budget.Timeout` and the caller records "budget", not a verdict.
"""
from __future__ import annotations

from ..backends.sym import from_sympy, to_sympy
from ..backends.sympy_import import sympy as sp
from ..expr.nodes import Node, Rel
from .symbolic import domain_parts, prove_sign_on, to_sympy_with_domains

_FLIP = {"<=": ">=", ">=": "<=", "<": ">", ">": "<", "==": "=="}


def prove_exact(g: Node, op: str, domains, extra) -> tuple[str | None, list[Node]]:
    """(how it was proved or None, rewritten goals worth handing to the SMT layer)."""
    expr, syms = to_sympy_with_domains(g, {}, domains)
    subs: dict = {}
    used: list[Node] = []
    for r in extra:
        got = _assumption_substitution(r, syms, domains, subs)
        if got is None:
            if r.op == "==":
                continue
            return None, []            # an assumption we cannot encode: no exact proof
        subs.update(got)
        used.append(r)
    if subs:
        expr = expr.subs(subs)
    live = {n: s for n, s in syms.items() if s not in subs}
    under = " under the assumptions" if extra else ""
    if op == "==":
        # on the interior and at each closed end of a bounded domain (symbolic.domain_parts)
        parts = domain_parts(expr, live, domains)
        if parts and all(tr == 0 or sp.expand(tr) == 0 or (sp.count_ops(tr) < 400 and sp.simplify(tr) == 0)
                         for tr in parts):
            return "LHS - RHS simplifies to 0" + under, []
        return None, []
    sign = prove_sign_on(expr, live, domains)
    if sign == "positive" or (sign in ("nonnegative", "zero") and op == ">="):
        return f"the difference is {sign} on the whole domain" + under, []
    rewritten = []
    # taking logarithms of both sides: g = A - B with A, B > 0
    lg = _log_form(expr, live, domains)
    if lg is not None:
        s2 = prove_sign_on(lg, live, domains)
        if s2 == "positive" or (s2 in ("nonnegative", "zero") and op == ">="):
            return f"after taking logarithms of both sides, the difference is {s2}" + under, []
        if not extra:
            try:
                rewritten.append(from_sympy(lg))
            except Exception:          # a SymPy form the expression language cannot hold
                pass
    return None, rewritten


def _log_form(expr, syms, domains):
    """log(A) - log(B) for expr = A - B with A, B provably positive, expanded; or None."""
    terms = sp.Add.make_args(expr)
    pos = [t for t in terms if t.could_extract_minus_sign() is False]
    neg = [-t for t in terms if t.could_extract_minus_sign() is True]
    if not pos or not neg:
        return None
    A, B = sp.Add(*pos), sp.Add(*neg)
    if prove_sign_on(A, syms, domains) != "positive" or prove_sign_on(B, syms, domains) != "positive":
        return None
    if len(pos) > 1 or len(neg) > 1:
        return None                   # only products/powers/exps gain from logarithms
    out = sp.expand_log(sp.log(A), force=True) - sp.expand_log(sp.log(B), force=True)
    # force=True splits log(x*y) into log(x) + log(y) even where x, y < 0: valid only if
    # every logarithm left has a provably positive argument.
    for lg in out.atoms(sp.log):
        if prove_sign_on(lg.args[0], syms, domains) != "positive":
            return None
    return sp.expand(out)


def _assumption_substitution(r: Rel, syms, domains, done):
    """{symbol: expression in a fresh t} encoding the assumption, or None."""
    if r.op == "==":
        return None
    h = to_sympy(r.lhs, dict(syms)) - to_sympy(r.rhs, dict(syms))
    h = h.subs(done)
    op = r.op                                        # h op 0
    strict = op in ("<", ">")
    for name, x in sorted(syms.items()):
        if x in done or x not in h.free_symbols:
            continue
        c = sp.diff(h, x)
        if x in c.free_symbols:
            continue
        cs = prove_sign_on(c, {n: s for n, s in syms.items() if s not in done and s != x}, domains)
        if cs not in ("positive", "negative"):
            continue
        d = sp.expand(h - c * x)
        if x in d.free_symbols:
            continue
        bound = -d / c
        # c x + d op 0  ->  x op' bound, op' flipped when c < 0
        o = op if cs == "positive" else _FLIP[op]
        t = sp.Dummy(f"{name}_gap", positive=True) if strict else sp.Dummy(f"{name}_gap", nonnegative=True)
        return {x: bound + t if o in (">=", ">") else bound - t}
    return None
