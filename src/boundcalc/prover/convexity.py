"""Convexity layer of the decision procedure: Jensen instances in several variables.

It recognises ``f(w1*x1 + ... + wk*xk) OP w1*f(x1) + ... + wk*f(xk)`` (either side first,
OP one of <=, >=; k >= 2; the weights w_i positive rational constants summing to exactly 1,
also written as ``(...)/k``; every x_i a symbol; the same one-variable f on both sides,
matched structurally after :func:`.decide.fold_constants`) and proves it from the sign of
f'' on the hull H of the x_i's domains (the smallest interval holding all of them):

* f'' <= 0 on H: f is concave there, so f(sum w_i x_i) >= sum w_i f(x_i) (Jensen);
* f'' >= 0 on H: f is convex, so f(sum w_i x_i) <= sum w_i f(x_i).

Steps: the argument of f on the single side must equal sum w_i x_i as a linear form
(exact rational coefficients); f'' is SymPy's exact derivative of f (in one variable t);
every definedness condition of f and of f'' (:func:`boundcalc.expr.singularities.definedness`)
is proved to hold STRICTLY on H, so f is twice continuously differentiable on an open set
containing H; then the sign of f'' on H is proved by the real layers below (passed in by
the orchestrator, a one-variable decision). Only smooth functions qualify (exp, log, sqrt,
powers, tanh, atan, erf, sin, cos): no abs, min, max, floor, ceil.

Soundness contract: "proved" only when the pattern matched exactly, the weights are
positive and sum to 1, the conditions above were proved by the real layers under their own
contracts, and the inequality is non-strict (equal x_i give equality). Every x_i lies in H
(so does their weighted mean, H being convex), and Jensen's inequality holds at every such
point, so assumptions that couple the variables only restrict the points and never break
it. Integer symbols are relaxed to reals (a subset of H). This layer never disproves; on any
mismatch or failure it returns None and the goal falls through unchanged.
"""
from __future__ import annotations

from fractions import Fraction

from ..expr.domains import Domain
from ..expr.nodes import Add, Func, Mul, Node, Num, Sym, substitute
from ..expr.singularities import SMOOTH_FUNCTIONS
from ..verdicts import Verdict
from .budget import Timeout, clock, expired, left, time_limit

__all__ = ["jensen_instance", "prove_convexity"]

SMOOTH = SMOOTH_FUNCTIONS       # one list: expr/singularities.py
MAX_TERMS = 8
MAX_NODES = 120


def _linear(n: Node, coef: Fraction, out: dict) -> None:
    """``coef * n`` added to the linear form ``out`` (atom node -> coefficient; key None:
    the constant term). Sums and products with one rational factor are distributed."""
    if isinstance(n, Num):
        out[None] = out.get(None, Fraction(0)) + coef * n.value
        return
    if isinstance(n, Add):
        for a in n.args:
            _linear(a, coef, out)
        return
    if isinstance(n, Mul):
        nums = [a for a in n.args if isinstance(a, Num)]
        rest = [a for a in n.args if not isinstance(a, Num)]
        c = coef
        for a in nums:
            c *= a.value
        if len(rest) == 1:
            _linear(rest[0], c, out)
            return
        if not rest:
            out[None] = out.get(None, Fraction(0)) + c
            return
        n = Mul(tuple(rest))
        coef = c
    out[n] = out.get(n, Fraction(0)) + coef


def linear_form(n: Node) -> dict:
    out: dict = {}
    _linear(n, Fraction(1), out)
    return {k: v for k, v in out.items() if v != 0}


def _match(tmpl: Node, node: Node, hole: str, bind: dict) -> bool:
    """Whether ``node`` is ``tmpl`` with the symbol ``hole`` replaced by one subtree
    (recorded in ``bind['x']``)."""
    if isinstance(tmpl, Sym) and tmpl.name == hole:
        if "x" in bind:
            return bind["x"] == node
        bind["x"] = node
        return True
    if type(tmpl) is not type(node):
        return False
    field: str
    for field in tmpl.__slots__:
        u, v = getattr(tmpl, field), getattr(node, field)
        if isinstance(u, tuple) and isinstance(v, tuple):
            if len(u) != len(v):
                return False
            for p, q in zip(u, v):
                if isinstance(p, Node) and isinstance(q, Node):
                    if not _match(p, q, hole, bind):
                        return False
                elif p != q:
                    return False
        elif isinstance(u, Node) and isinstance(v, Node):
            if not _match(u, v, hole, bind):
                return False
        elif u != v:
            return False
    return True


def _hole_name(node: Node) -> str:
    t = "t_jensen"
    names = node.symbols()
    while t in names:
        t += "_"
    return t


def jensen_instance(single: Node, mean: Node):
    """``(f, t, [(w_i, x_i)])`` when ``single`` is f(sum w_i x_i) and ``mean`` is
    sum w_i f(x_i) (f a tree in the one symbol t; see the module docstring), else None."""
    inst = _instance(single, mean)
    return None if inst is None else inst[:3]


def _instance(single: Node, mean: Node):
    """:func:`jensen_instance`'s answer and the subtree of ``single`` that is f's argument."""
    # a constant factor c of the single side (-1/t**2 = -1 * t**-2) is part of f: the mean
    # side's coefficients are then c*w_i
    one = linear_form(single)
    if len(one) != 1 or None in one:
        return None
    (single, c), = one.items()
    terms = {k: v / c for k, v in linear_form(mean).items()}
    if None in terms or not 2 <= len(terms) <= MAX_TERMS:
        return None
    if any(w <= 0 for w in terms.values()) or sum(terms.values()) != 1:
        return None
    if sum(1 for _ in single.unique_nodes()) > MAX_NODES:
        return None
    t = _hole_name(Add((single, mean)))
    for s in single.unique_nodes():
        if s == single or not s.symbols():
            continue
        f = substitute_subtree(single, s, Sym(t))
        if f.symbols() != {t}:
            continue
        pairs = []
        for term, w in terms.items():
            bind: dict = {}
            if not _match(f, term, t, bind) or not isinstance(bind.get("x"), Sym):
                break
            pairs.append((w, bind["x"]))
        else:
            want = linear_form(s)
            got: dict = {}
            for w, x in pairs:
                got[x] = got.get(x, Fraction(0)) + w
            if want == {k: v for k, v in got.items() if v != 0}:
                return (f if c == 1 else Mul((Num(c), f))), t, pairs, s
    return None


def substitute_subtree(node: Node, target: Node, by: Node) -> Node:
    """``node`` with every occurrence of the subtree ``target`` replaced by ``by``."""
    return node.map(lambda n: by if n == target else None)


def _hull(xs: list[str], domains: dict[str, Domain]) -> Domain | None:
    """The smallest real interval holding every ``domains[x]`` (ends closed where one of the
    domains attaining them is closed), or None when a symbol has no domain."""
    if any(x not in domains for x in xs):
        return None
    ds = [domains[x] for x in xs]
    lo: Fraction | None = None
    hi: Fraction | None = None
    lo_c = hi_c = False
    los = [d.lo for d in ds if d.lo is not None]
    his = [d.hi for d in ds if d.hi is not None]
    if len(los) == len(ds):
        lo = min(los)
        lo_c = any(d.lo == lo and d.lo_closed for d in ds)
    if len(his) == len(ds):
        hi = max(his)
        hi_c = any(d.hi == hi and d.hi_closed for d in ds)
    return Domain(False, lo, lo_c, hi, hi_c)


def _interval_text(d: Domain) -> str:
    lo = "(-oo" if d.lo is None else ("[" if d.lo_closed else "(") + str(d.lo)
    hi = "oo)" if d.hi is None else str(d.hi) + ("]" if d.hi_closed else ")")
    return f"{lo}, {hi}"


def prove_convexity(a: Node, rel: str, b: Node, domains: dict[str, Domain], decide_real, *,
                    seconds: float, record: dict | None = None) -> str | None:
    """How ``a rel b`` was proved as a Jensen instance (see the module docstring), or None.
    ``a`` and ``b`` as the orchestrator hands them, after ``fold_constants``. ``record``: a
    dict the proof is described in, for its certificate (``f``, ``t``, ``pairs``, ``arg``,
    ``single`` "lhs" | "rhs", the ``hull``, ``f2`` and the sub-goals proved: ``defined``,
    each ``goal > 0`` on the hull, and ``sign``, ``goal >= 0`` there)."""
    record = {} if record is None else record
    if rel not in ("<=", ">="):
        return None
    for side, single, mean, single_ge in (("lhs", a, b, rel == ">="), ("rhs", b, a, rel == "<=")):
        inst = _instance(single, mean)
        if inst is not None:
            break
    else:
        return None
    f, t, pairs, arg = inst
    if any(isinstance(n, Func) and n.name not in SMOOTH for n in f.unique_nodes()):
        return None
    hull = _hull(sorted({x.name for _, x in pairs}), domains)
    if hull is None:
        return None
    deadline = clock() + seconds
    from .taylor import derivatives
    try:
        with time_limit(max(0.3, 0.3 * seconds)):
            _, d2 = derivatives(f, [t], seconds=max(0.3, 0.3 * seconds))
    except Timeout:
        return None
    f2 = d2.get((t, t))
    if f2 is None or any(isinstance(n, Func) and n.name not in SMOOTH for n in f2.unique_nodes()):
        return None
    from ..expr.singularities import definedness
    doms = {t: hull}
    conds = definedness(f) + definedness(f2)
    goals: list[Node] = []
    for c in conds:
        if c.op in (">", ">="):
            goals.append(c.expr)
        elif c.op == "!=":
            goals.append(c.expr)        # one sign on H: positive (tried first) or negative
        else:
            return None
    share = max(0.3, (left(deadline)) / (len(goals) + 1))
    seen = set()
    record.update(f=f, t=t, pairs=pairs, arg=arg, single=side, hull=hull, f2=f2, defined=[])
    for c, gexpr in zip(conds, goals):
        key = (str(gexpr), c.op)
        if key in seen:
            continue
        seen.add(key)
        if expired(deadline):
            return None
        if decide_real(gexpr, ">", dict(doms), [], share) is Verdict.PROVED:
            record["defined"].append(gexpr)
            continue
        neg = Mul((Num(Fraction(-1)), gexpr))
        if c.op == "!=" and decide_real(neg, ">", dict(doms), [], share) is Verdict.PROVED:
            record["defined"].append(neg)
            continue
        return None
    # concave (f'' <= 0) gives single >= mean; convex (f'' >= 0) gives single <= mean
    goal = Mul((Num(Fraction(-1)), f2)) if single_ge else f2
    if expired(deadline) or decide_real(goal, ">=", dict(doms), [], share) is not Verdict.PROVED:
        return None
    record["sign"] = goal
    from ..expr.printing import to_text
    shape, sign = ("concave", "<= 0") if single_ge else ("convex", ">= 0")
    fx, f2x = (to_text(substitute(e, {t: Sym("t")})) for e in (f, f2))
    return (f"convexity: f(t) = {fx} {shape} on {_interval_text(hull)}, f'' = {f2x} {sign} proved; "
            f"Jensen with {len(pairs)} points")
