"""Identity layer of the decision procedure: ``a == b`` with special functions, on a branch.

Identities such as atan x - atan y = atan((x - y)/(1 + xy)) hold only on part of the
plane (here where xy > -1: for xy < -1 the two sides differ by +-pi), and numeric layers can
never prove an equality. This layer proves ``a == b`` on the region R (the domains' box
intersected with the assumptions) in three steps:

1. **Normal form.** D = a - b in SymPy, with the symbols' domain assumptions, ``tanh``
   rewritten through ``exp`` and logarithms expanded (``expand_log``); if SymPy simplifies
   D (or, with ``trigsimp``, its trigonometric form) to 0, the sides agree wherever both
   are defined: an identity of the formula language, no branch involved.
2. **Derivatives.** Otherwise every partial derivative of D must simplify to 0; then D is
   constant on each connected piece of the set where both sides are defined.
3. **One piece, one point.** A point p of the closed box is chosen at which D is exactly 0
   (SymPy evaluates atan(1) = pi/4, tanh(0) = 0 ...) and every definedness condition of both
   sides (:func:`boundcalc.expr.singularities.definedness`) holds strictly. The real layers
   below (passed in by the orchestrator) then prove that every definedness condition holds
   strictly on all of R (so D is analytic on a neighbourhood of R), and that R is
   star-shaped about p: each assumption still holds at p + t (x - p) for t in (0, 1]
   whenever it holds at x (the box is convex). D is then constant along every segment from
   p, and continuous at p, so D = 0 on R.

Only smooth functions qualify (exp, log, sqrt, powers, tanh, atan, erf, sin, cos): no abs,
min, max, floor, ceil. Integer symbols are relaxed to reals (an identity on the reals holds
on the integers).

Soundness contract: "proved" rests on SymPy's simplification to exactly 0 (of D, or of its
derivatives and of D at a point) and on proofs, under their layers' contracts, that R has
no break and is star-shaped about that point. This layer never disproves (a failing point is
the counterexample search's job); on its budget, or when a step fails, it returns None.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

from ..expr.domains import Domain
from ..expr.nodes import Add, Func, Mul, Node, Num, Rel, Sym, sub, substitute
from ..expr.singularities import SMOOTH_FUNCTIONS
from ..verdicts import Verdict
from .budget import Timeout, clock, expired, left, sympy_safe, time_limit

__all__ = ["MAX_NODES", "MAX_SYMBOLS", "SMOOTH", "prove_identity"]

SMOOTH = SMOOTH_FUNCTIONS       # one list: expr/singularities.py
MAX_SYMBOLS = 4
MAX_NODES = 200       # SymPy's simplify of derivatives grows fast; in a thread nothing interrupts it
_CANDIDATES = [Fraction(v) for v in ("0", "1", "-1", "2", "1/2", "-2", "-1/2", "3", "1/3", "-3", "-1/3")]
MAX_POINTS = 400

RealDecider = Callable[[Node, str, dict, list, float], Verdict]


def _funcs(node: Node) -> set[str]:
    return {n.name for n in node.unique_nodes() if isinstance(n, Func)}


def _rewrite(e):
    from ..backends.sympy_import import sympy as sp
    e = e.replace(lambda t: isinstance(t, sp.tanh),
                  lambda t: (sp.exp(2 * t.args[0]) - 1) / (sp.exp(2 * t.args[0]) + 1))
    return sp.expand_log(e, force=False)


def _is_zero(e) -> bool:
    from ..backends.sympy_import import sympy as sp
    if e == 0:
        return True
    s = sp.simplify(e)
    if s == 0:
        return True
    if s.has(sp.sin, sp.cos):
        return sp.trigsimp(s) == 0
    return False


def _closure_points(names: list[str], domains: dict[str, Domain]):
    """Candidate points of the closed box, simple values first (and finite ends)."""
    per = []
    for n in names:
        d = domains[n]
        vals = [v for v in ([d.lo] if d.lo is not None else []) + _CANDIDATES + ([d.hi] if d.hi is not None else [])
                if (d.lo is None or v >= d.lo) and (d.hi is None or v <= d.hi)]
        if d.integer:
            vals = [v for v in vals if v.denominator == 1] or vals
        per.append(list(dict.fromkeys(vals)))
    return itertools.islice(itertools.product(*per), MAX_POINTS)


def _holds_at(r: Rel, env) -> bool:
    """An assumption at a point, certified (exact or ball arithmetic); False if unsure."""
    from ..backends import mp as mpb
    s = mpb.decide_sign(sub(r.lhs, r.rhs), env)
    if s is None:
        return False
    return {"<=": s <= 0, ">=": s >= 0, "<": s < 0, ">": s > 0, "==": s == 0}[r.op]


def prove_identity(a: Node, b: Node, domains: dict[str, Domain], extra: list, decide_real: RealDecider, *,
                   seconds: float, record: dict | None = None) -> str | None:
    """How ``a == b`` was proved on the region (see the module docstring), or None.
    ``record``: a dict the proof is described in, for its certificate (``by``: "normal form"
    or "derivatives" with the ``point``, and the real sub-goals proved: ``defined``, each
    ``(goal, domains, assumptions)`` of ``goal > 0``, and ``star``, each ``(goal, op,
    domains, assumptions)`` of ``goal op 0``)."""
    record = {} if record is None else record
    deadline = clock() + seconds
    d_node = sub(a, b)
    names = sorted(d_node.symbols() | set().union(*(r.symbols() for r in extra)) if extra else d_node.symbols())
    if not _applies(d_node, names, extra):
        return None
    real = {n: Domain(False, d.lo, d.lo_closed, d.hi, d.hi_closed) for n, d in domains.items()}
    try:
        with time_limit(max(0.3, 0.5 * seconds)):
            same, p, conds = _agreeing_point(a, b, d_node, names, real, extra, deadline)
    except Timeout:
        return None
    if same:
        record["by"] = "normal form"
        return "identity: both sides have the same normal form"
    if p is None:
        return None
    env, signs = p
    share = max(0.3, (left(deadline)) / (len(conds) + len(extra) + 1))
    record.update(by="derivatives", point=env, defined=[], star=[])
    if not _defined_throughout(conds, signs, real, extra, decide_real, share, deadline, record["defined"]):
        return None
    if not _star_shaped(names, env, real, extra, decide_real, share, deadline, record["star"]):
        return None
    where = ", ".join(f"{n} = {v}" for n, v in env.items())
    return (f"identity: derivatives vanish on a region star-shaped about {where}, "
            "where both sides agree exactly")


def _applies(d_node: Node, names: list, extra: list) -> bool:
    """A difference of smooth functions with a special function (not the exact layer's case),
    in at most MAX_SYMBOLS symbols and MAX_NODES nodes, SymPy safe on it."""
    if not names or len(names) > MAX_SYMBOLS or not (_funcs(d_node) <= SMOOTH) or sympy_safe(d_node):
        return False
    if sum(1 for _ in d_node.unique_nodes()) > MAX_NODES:
        return False
    if any(not (_funcs(r) <= SMOOTH) for r in extra):
        return False
    return bool(_funcs(d_node) & (SMOOTH - {"sqrt"}))   # no special function: the exact layer's case


def _agreeing_point(a: Node, b: Node, d_node: Node, names: list, real: dict, extra: list, deadline: float):
    """(the two sides have the same normal form; else a point of the region's closure where
    both sides are defined, the assumptions hold and they agree exactly, with the signs of
    the definedness conditions there, or None; those conditions). Every partial derivative
    of the difference must vanish identically (else no point is sought)."""
    from ..backends import mp as mpb
    from ..backends.sympy_import import sympy as sp
    from ..expr.singularities import definedness
    from .symbolic import to_sympy_with_domains
    D, syms = to_sympy_with_domains(d_node, {}, {n: real[n] for n in names if n in real})
    N = _rewrite(D)
    if _is_zero(N):
        return True, None, []
    for n in names:
        if n in syms and not _is_zero(_rewrite(sp.diff(N, syms[n]))):
            return False, None, []
    conds = definedness(a) + definedness(b)
    for cand in _closure_points(names, real):
        env = dict(zip(names, cand))
        if not all(_holds_at(Rel(r.op, r.lhs, r.rhs), env) for r in extra):
            continue
        signs = [mpb.decide_sign(c.expr, env) for c in conds]
        if any(s is None or s == 0 or (s < 0 and c.op != "!=") for s, c in zip(signs, conds)):
            continue
        at = D.subs({syms[k]: sp.Rational(v.numerator, v.denominator) for k, v in env.items() if k in syms})
        if _is_zero(at):
            return False, (env, signs), conds
        if expired(deadline):
            return False, None, conds
    return False, None, conds


def _defined_throughout(conds, signs, real: dict, extra: list, decide_real: RealDecider, share: float,
                        deadline: float, proved: list) -> bool:
    """Every definedness condition strictly, with its sign at the point, on the whole region."""
    seen = set()
    for c, s in zip(conds, signs):
        goal = c.expr if s is not None and s > 0 else Mul((Num(Fraction(-1)), c.expr))
        key = str(goal)
        if key in seen:
            continue
        seen.add(key)
        if expired(deadline) or decide_real(goal, ">", dict(real), list(extra), share) is not Verdict.PROVED:
            return False
        proved.append((goal, dict(real), list(extra)))
    return True


def _star_shaped(names: list, env: dict, real: dict, extra: list, decide_real: RealDecider, share: float,
                 deadline: float, proved: list) -> bool:
    """The region is star-shaped about the point: every assumption holds on the segment from
    it to any point of the region."""
    t = "t_star"
    while t in names:
        t += "_"
    seg: dict[str, Node] = {n: Add((Num(env[n]), Mul((Sym(t), sub(Sym(n), Num(env[n])))))) for n in names}
    doms = dict(real)
    doms[t] = Domain(False, Fraction(0), False, Fraction(1), True)
    for r in extra:
        lhs, rhs = substitute(r.lhs, seg), substitute(r.rhs, seg)
        goal, op = {"<=": (sub(rhs, lhs), ">="), "<": (sub(rhs, lhs), ">"), ">=": (sub(lhs, rhs), ">="),
                    ">": (sub(lhs, rhs), ">"), "==": (sub(lhs, rhs), "==")}[r.op]
        if expired(deadline) or decide_real(goal, op, doms, list(extra), share) is not Verdict.PROVED:
            return False
        proved.append((goal, op, dict(doms), list(extra)))
    return True
