"""Rewrite layer of the decision procedure: goals equivalent to ``a rel b``, decided again.

A relation with a square root on a side (``sqrt(log(2/d)/(2n)) <= 1/sqrt(n)``) or with a
factor of known sign (``(log(2/d) - 2)/(2n) <= 0``) is often out of reach of the numeric
layers as written and easy once rewritten. :func:`equivalents` returns such rewrites, each
a new goal ``g2 op2 0`` (op2 in >=, >, ==) with a label for the verdict text; the
orchestrator (:mod:`.decide`) decides each by a recursive decision, at most
:data:`MAX_DEPTH` rewrites deep (:func:`depth`, :func:`nested`).

1. **Squaring both sides.** Where ``a >= 0`` and ``b >= 0`` are proved on the domains under
   the assumptions, ``a rel b`` holds exactly when ``a**2 rel b**2`` does (t -> t**2 is
   strictly increasing on [0, oo)); this covers ``sqrt(u) rel v`` with ``v >= 0``, which
   becomes ``u rel v**2``. The square is pushed through the tree (:func:`square`):
   ``sqrt(u)**2 = u``, ``(b**q)**2 = b**(2q)`` for a non-integer rational q (defined only
   where b >= 0, :mod:`boundcalc.expr.singularities`), ``(b**k)**2 = (b**2)**k`` for an
   integer k, ``(x y)**2 = x**2 y**2``. Each square is defined wherever the squared node is.
   A side is taken as >= 0 from its shape (a square root, a fractional power, an even power;
   :func:`nonnegative_shape`) or from the caller's proved sign, never assumed.
2. **Dropping factors of known sign.** ``g`` (``g op 0``) is brought to one fraction in SymPy
   (``together``, ``factor_terms``); every factor of its numerator and denominator whose
   sign the caller proves strict (positive: dropped; negative: dropped and the goal negated)
   is dropped; a factor that may vanish, or of unproved sign, is kept. ``g = p h`` with
   ``p != 0`` of one sign gives ``g op 0`` exactly when ``+-h op 0``. The new goal is only
   returned when a factor with symbols was dropped.

Both rewrites only run where they can help (:func:`worth_trying`: a root or a quotient with
symbols) and within size guards (:data:`MAX_NODES`, :data:`MAX_OPS`); the SymPy work runs
under :func:`.budget.time_limit`, the z3 sign queries outside it with their own work budget.

Soundness contract: this module decides nothing. Every :class:`Rewrite` is a goal that holds
at a point of the domains where the assumptions hold and both original sides are defined
exactly when the original relation holds there, and it is defined at every such point; a
proof of it is therefore a proof of the original. Signs come only from the caller's
``sign`` callback (a proved sign on the whole domain under the assumptions, or None) and
from :func:`nonnegative_shape`. A counterexample to a rewritten goal proves nothing by itself:
the caller certifies the point on the original relation (:func:`.search.certify_point`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction

from ..expr.domains import Domain
from ..expr.nodes import Add, Const, Func, Mul, Node, Num, Pow, Rel, Sym, sub

__all__ = ["MAX_DEPTH", "MAX_NODES", "MAX_OPS", "Rewrite", "depth", "equivalents",
           "fill_point", "nested", "nonnegative_shape", "smt_sign", "square", "worth_trying"]

MAX_DEPTH = 2          # a goal rewritten this many times is not rewritten again
MAX_NODES = 300        # goals larger than this (distinct nodes) are not rewritten
MAX_OPS = 200          # SymPy count_ops above this: no together/factor_terms
MAX_FACTORS = 8        # at most this many factors with symbols have their sign asked
SIGN_MS = 150          # z3 budget (work, see .smt) of one sign query in :func:`smt_sign`
SIGN_CALLS = 8         # z3 sign queries for one goal at most

# Signs in the vocabulary of :func:`.symbolic.prove_sign`.
STRICT = ("positive", "negative")
NONNEGATIVE = ("positive", "nonnegative", "zero")
Sign = Callable[[Node], "str | None"]

_ONE, _TWO, _MINUS = Num(Fraction(1)), Num(Fraction(2)), Num(Fraction(-1))
_FLIP = {"<=": ">=", "<": ">"}


@dataclass(frozen=True)
class Rewrite:
    """A goal ``goal op 0`` (op in >=, >, ==) equivalent to the relation it came from (see
    the module docstring), and what was done, for the verdict text (``label``)."""
    label: str
    goal: Node
    op: str


# ----------------------------------------------------------------------------- depth
_depth: ContextVar[int] = ContextVar("boundcalc_rewrite_depth", default=0)


def depth() -> int:
    """How many rewrites deep the current decision is (0: the user's relation)."""
    return _depth.get()


@contextmanager
def nested() -> Iterator[None]:
    """Decide a rewritten goal one level deeper (per thread and task: a context variable)."""
    token = _depth.set(_depth.get() + 1)
    try:
        yield
    finally:
        _depth.reset(token)


# ----------------------------------------------------------------------------- gating
def _is_root(n: Node) -> bool:
    return ((isinstance(n, Func) and n.name == "sqrt")
            or (isinstance(n, Pow) and isinstance(n.exp, Num) and n.exp.value.denominator != 1))


def has_root(a: Node, b: Node) -> bool:
    """Whether a side has a root (sqrt or a fractional power): squaring may remove it."""
    return any(_is_root(n) for side in (a, b) for n in side.unique_nodes())


def worth_trying(a: Node, b: Node) -> bool:
    """Whether a rewrite can help: a side has a root (sqrt or a fractional power) or a
    quotient by an expression with symbols, and the sides are small enough."""
    count = 0
    found = False
    for side in (a, b):
        for n in side.unique_nodes():
            count += 1
            if count > MAX_NODES:
                return False
            if _is_root(n) or (isinstance(n, Pow) and isinstance(n.exp, Num) and n.exp.value < 0
                               and bool(n.base.symbols())):
                found = True
    return found


# ----------------------------------------------------------------------------- squaring
def square(n: Node) -> tuple[Node, bool]:
    """(a tree equal to ``n**2`` wherever ``n`` is defined, and defined there; whether a
    root was removed on the way)."""
    if isinstance(n, Func) and n.name == "sqrt" and len(n.args) == 1:
        return n.args[0], True
    if isinstance(n, Num):
        return Num(n.value * n.value), False
    if isinstance(n, Pow) and isinstance(n.exp, Num):
        q = n.exp.value
        if q.denominator != 1:
            # b**q with q not an integer is defined only for b >= 0 (b > 0 if q < 0), where
            # (b**q)**2 = b**(2q); b**(2q) is defined there too
            e = 2 * q
            return (n.base if e == 1 else Pow(n.base, Num(e))), e.denominator == 1
        base, removed = square(n.base)
        return (base if q == 1 else Pow(base, n.exp)), removed
    if isinstance(n, Mul):
        parts = [square(x) for x in n.args]
        return Mul(tuple(p for p, _ in parts)), any(r for _, r in parts)
    return Pow(n, _TWO), False


def nonnegative_shape(n: Node, domains: dict[str, Domain]) -> bool:
    """``n >= 0`` wherever it is defined, from its shape alone: a square root, a fractional
    power (real only for a base >= 0), abs, exp, an even power, a nonnegative number or
    symbol, and sums, products, quotients and integer powers of these."""
    if isinstance(n, Num):
        return n.value >= 0
    if isinstance(n, Const):
        return True                                   # pi, E
    if isinstance(n, Sym):
        d = domains.get(n.name)
        return d is not None and d.nonnegative
    if isinstance(n, Func):
        return n.name in ("sqrt", "abs", "exp")
    if isinstance(n, Pow) and isinstance(n.exp, Num):
        q = n.exp.value
        if q.denominator != 1:
            return True
        return q.numerator % 2 == 0 or nonnegative_shape(n.base, domains)
    if isinstance(n, (Add, Mul)):
        return all(nonnegative_shape(x, domains) for x in n.args)
    return False


def _nonnegative(n: Node, domains, sign: Sign) -> bool:
    return nonnegative_shape(n, domains) or sign(n) in NONNEGATIVE


def _squared(a: Node, rel: str, b: Node, domains, sign: Sign) -> Rewrite | None:
    """Both sides squared, where both are proved >= 0 and a root goes away."""
    if rel not in ("<=", "<", ">=", ">", "=="):
        return None
    a2, ra = square(a)
    b2, rb = square(b)
    if not (ra or rb):
        return None
    if not (_nonnegative(a, domains, sign) and _nonnegative(b, domains, sign)):
        return None
    g2, op2 = (sub(b2, a2), _FLIP[rel]) if rel in _FLIP else (sub(a2, b2), rel)
    return Rewrite("after squaring both sides (both >= 0)", g2, op2)


# ----------------------------------------------------------------------------- factors
def _factored(g: Node, op: str, domains, sign: Sign, seconds: float) -> tuple[Node, str, list[str]] | None:
    """(h, op, the dropped factors as text) with ``g op 0`` exactly when ``h op 0``, or None
    when no factor with symbols has a proved strict sign (see the module docstring). The
    SymPy work runs under :func:`.budget.time_limit` (``seconds`` each time; raises
    :class:`.budget.Timeout`); the caller's sign queries (z3) run outside it, bounded by
    their own work budgets (a z3 call cut short by the profiling timer leaves a half-built
    context behind)."""
    from ..backends.sym import from_sympy
    from ..backends.sympy_import import sympy as sp
    from ..errors import BoundcalcError
    from ..expr.printing import to_text
    from .budget import sympy_safe, time_limit
    from .symbolic import to_sympy_with_domains
    if sympy_safe(g):
        return None
    with time_limit(seconds):
        expr, _ = to_sympy_with_domains(g, {}, domains)
        if sp.count_ops(expr) > MAX_OPS:
            return None
        num, den = sp.fraction(sp.together(expr))
        factors = [(f, 1) for f in sp.Mul.make_args(sp.factor_terms(num))]
        factors += [(f, -1) for f in sp.Mul.make_args(sp.factor_terms(den))]
        if any(f.has(sp.I, sp.zoo, sp.oo, sp.nan) for f, _ in factors):
            return None
        try:
            nodes = [from_sympy(f) if f.free_symbols else None for f, _ in factors]
        except (BoundcalcError, ValueError, TypeError):
            return None
    kept: list = []
    dropped: dict[str, list] = {"positive": [], "negative": []}
    negative, asked = 0, 0
    for (f, side), node in zip(factors, nodes):
        if node is None:
            s = "positive" if f.is_positive else ("negative" if f.is_negative else None)
        elif asked >= MAX_FACTORS:
            s = None
        else:
            asked += 1
            s = sign(node)
        if s not in STRICT:
            kept.append(f if side == 1 else 1 / f)
            continue
        negative += s == "negative"
        if node is not None:
            dropped[s].append(f if side == 1 else 1 / f)
    if not any(dropped.values()):
        return None
    with time_limit(seconds):
        h = sp.Mul(*kept) * (-1 if negative % 2 else 1)
        try:
            texts = [_factors_text(s, [to_text(from_sympy(f)) for f in fs]) for s, fs in dropped.items() if fs]
            return from_sympy(h), op, texts
        except (BoundcalcError, ValueError, TypeError):
            return None


def _factors_text(sign: str, factors: list[str]) -> str:
    """'the positive factor 1/n', 'the negative factors -1 - y**2 and x - 3'."""
    if len(factors) == 1:
        return f"the {sign} factor {factors[0]}"
    return f"the {sign} factors {', '.join(factors[:-1])} and {factors[-1]}"


# ----------------------------------------------------------------------------- public
def equivalents(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra: list[Rel],
                sign: Sign, *, sympy_seconds: float = 1.0) -> list[Rewrite]:
    """Goals equivalent to ``a rel b`` on ``domains`` under ``extra`` (see the module
    docstring): both sides squared and then factors dropped, and the plain square (the
    former first only where it has fewer symbols: dropping a factor can make a goal
    harder); else squared; else the difference with
    factors dropped (each decision of a
    rewritten goal costs a share of the budget, and a goal rewritten one way is rewritten
    again at the next depth). ``sign(node)`` is the caller's proved sign of a node on the
    whole domain under the assumptions ('positive', 'nonnegative', 'negative',
    'nonpositive', 'zero') or None; nothing else is taken as a sign. SymPy's work is
    limited to ``sympy_seconds`` of work (SymPy calls) at a time (:class:`.budget.Timeout` when it runs
    out); call it only when :func:`worth_trying`."""
    sq = _squared(a, rel, b, domains, sign)
    if sq is not None:
        f = _factored(sq.goal, sq.op, domains, sign, sympy_seconds)
        if f is None:
            return [sq]
        # both, the factored form first where dropping factors removed a symbol (the
        # quotients of a threshold: log(2/d)/(2n) <= 1/n becomes log(2/d) <= 2), else the
        # plain square first (dropping a positive factor can make a goal harder:
        # exp(4x^2/pi)(1 - erf(x)^2) >= 1 for Polya's bound, whose plain square the ends
        # layer proves)
        both = [Rewrite(sq.label + ", then dropping " + " and ".join(f[2]), f[0], f[1]), sq]
        return both if len(f[0].symbols()) < len(sq.goal.symbols()) else both[::-1]
    g, op = (sub(b, a), _FLIP[rel]) if rel in _FLIP else (sub(a, b), rel)
    f = _factored(g, op, domains, sign, sympy_seconds)
    return [] if f is None else [Rewrite("after dropping " + " and ".join(f[2]), f[0], f[1])]


def smt_sign(node: Node, domains: dict[str, Domain], extra: list[Rel], calls: list[int]) -> str | None:
    """The sign of ``node`` proved by z3 (:func:`.smt.decide_smt`, whose proof holds
    wherever ``node`` is defined on the domains under the assumptions), or None;
    ``calls`` counts the z3 queries of one goal (at most :data:`SIGN_CALLS`)."""
    from ..verdicts import SmtStatus
    from .smt import decide_smt

    def holds(goal: Node, op: str) -> bool:
        if calls[0] >= SIGN_CALLS:
            return False
        calls[0] += 1
        return decide_smt(goal, op, domains, extra, timeout_ms=SIGN_MS, want_model=False).status is SmtStatus.PROVED

    if holds(node, ">="):
        return "positive" if holds(node, ">") else "nonnegative"
    neg = Mul((_MINUS, node))
    if holds(neg, ">="):
        return "negative" if holds(neg, ">") else "nonpositive"
    return None


def fill_point(point: dict, domains: dict[str, Domain]) -> dict[str, Fraction] | None:
    """The coordinates of a counterexample report (``point``: symbol -> exact decimal
    string, with ``lhs``/``rhs`` values) as exact rationals for the symbols of ``domains``;
    a symbol the rewritten goal lost (a dropped factor's) gets a point of its domain."""
    env: dict[str, Fraction] = {}
    for name, d in domains.items():
        if name in point:
            try:
                env[name] = Fraction(str(point[name]))
            except (ValueError, ZeroDivisionError):
                return None
            continue
        v = _inside(d)
        if v is None:
            return None
        env[name] = v
    return env


def _inside(d: Domain) -> Fraction | None:
    """A simple point of the domain ``d`` (an integer for an integer domain), or None."""
    lo, hi = d.lo, d.hi
    cands = [Fraction(1), Fraction(0)]
    if lo is not None:
        cands += [lo, lo + 1, Fraction(int(lo) + 1)]
    if hi is not None:
        cands += [hi, hi - 1, Fraction(int(hi) - 1)]
    if lo is not None and hi is not None:
        cands.append((lo + hi) / 2)
    for v in cands:
        if d.contains(v) and (not d.integer or v.denominator == 1):
            return v
    return None
