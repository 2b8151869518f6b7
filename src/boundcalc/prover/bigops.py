"""Big-operator layer of the decision procedure: relations whose sides hold sums, products,
maxima or minima over a symbolic range (``sum(a[i]**2, i, 1, L)`` with the depth L free).

Such a relation has one variable per layer and an unknown number of layers, so the real
layers cannot take it as it is. This layer reduces it to goals without a symbolic range,
which the orchestrator's layers decide (passed in as ``decide``, a function: this module may
not import :mod:`.decide`):

* **A generic layer.** A body is read at one layer i: each component ``s[i]`` becomes a scalar
  symbol ``s[i]`` of ``s``'s domain, the index i an integer of the range ``lo <= i <= hi``, and
  every per-layer assumption (``--assume 'a[i] >= 1'``: an assumption on components at an index
  that is no symbol of the statement, read "for every layer") is put in at that layer.
  A relation proved for the generic layer holds at every layer of the range.
* **Congruence.** Sides that agree outside their big operators, with the same operator and
  range and bodies proved equal at a generic layer, are equal (the same sum, product,
  maximum or minimum of the same terms); ``<=``/``>=`` follow from ``==``.
* **Termwise comparison.** Both sides are put in a normal form (index-free factors taken out
  of sums, ``c*count`` for an index-free term of a sum, ``prod(u*v) = prod(u) prod(v)``,
  ``exp(sum u) = prod(exp u)``, ``log(prod u) = sum(log u)`` once ``u > 0`` is proved).
  Where the difference of the sides is then one sum over one range (index-free terms spread
  over its ``count >= 1`` layers), ``sum(d_i) op 0`` follows from ``d_i op 0`` at a generic
  layer; where both sides are one product over one range, ``prod u <= prod v`` follows from
  ``0 <= u_i <= v_i`` (and ``==`` from ``u_i == v_i``).
* **Abstraction with the classical inequalities.** Otherwise each big operator of the normal
  form becomes a fresh scalar ("atom") and the goal is decided under hypotheses that every
  value of the components satisfies: the atoms' signs (from the bodies' signs at a generic
  layer), termwise comparisons between atoms over one range, and instances of
  Cauchy-Schwarz and the power means ((sum u)^2 <= n sum u^2; sum u^p <= (sum u)^p <=
  n^(p-1) sum u^p for u >= 0, p >= 1, and the same with u = v^q, 0 < q < 1), AM-GM (prod u <= (sum u / n)^n for u >= 0), Jensen
  (sum f(c_i) >= n f(sum c_i / n) for f'' >= 0 proved on c's domain, <= for f'' <= 0),
  Weierstrass (prod u >= 1 + sum(u - 1) where all u >= 1 or all 0 <= u <= 1) and 1 + x <= e^x
  (prod u <= exp(sum(u - 1)) for u >= 0) -- each instance added only where its hypotheses are
  proved at a generic layer and the range has at least one layer; log(1 + x) <= x and
  1 + x <= e^x between atoms are termwise comparisons.
* **Induction on the depth.** For one range ``lo .. L`` with L a free integer symbol used
  nowhere else but in that range's end: the base case L = lo written out and decided, and the
  step: the goal at L + 1, the last layer's components as fresh symbols and the atoms up to L
  abstracted, decided under the goal at L (the induction hypothesis).
* **Counterexamples.** The range ends are set to L = 1, ..., 8 and the layers sampled (constant
  layers at every candidate value, the extremes of the domains, mixed and random layers);
  a violation is certified in ball arithmetic (or exactly) on the ORIGINAL relation written out
  for that L, with every value in its domain and every assumption (per-layer ones at every
  layer) certified to hold, and reported with L and each layer's value. Constant layers are
  only ever a search: all layers equal proves nothing.

Soundness contract: "proved" only when every sub-goal it rests on was proved by the real
layers under their contracts: the generic layer's sub-goals hold at each layer of the range,
the normal forms are identities (each conditional one only after its condition is proved),
and an abstracted goal is proved for all values of the atoms that satisfy hypotheses which
the true values satisfy. "disproved" only with a certified counterexample of the original
relation. Everything else -- a sub-goal unknown or disproved, a normal form outside these
shapes, the budget spent -- returns None (the orchestrator says unknown), never a guess.
"""
from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

from ..expr.domains import Domain
from ..expr.indexed import Vector, _number, instantiate
from ..expr.nodes import Add, BigOp, Func, Indexed, Mul, Node, Num, Pow, Rel, Sym, sub, substitute
from ..verdicts import Verdict
from .budget import BALL_POINTS_PER_SECOND, charge, clock, expired, left

__all__ = ["MAX_DEPTH", "MAX_LAYERS", "BigOpsResult", "decide_bigops", "has_symbolic_range", "per_layer"]

#: the depths L = 1 .. MAX_LAYERS tried by the counterexample search
MAX_LAYERS = 8
#: nested uses of this layer (a sub-goal that still has a symbolic range)
MAX_DEPTH = 2
#: layer-value candidates tried per depth by the counterexample search
CANDIDATES_PER_DEPTH = 40

#: ``decide(a, rel, b, domains, extra, seconds)`` -> an object with ``verdict`` (a str enum
#: member: proved / disproved / unknown / vacuous) and ``text``: the real layers.
Decider = Callable[[Node, str, Node, dict, list, float], object]

_ONE, _ZERO = Num(Fraction(1)), Num(Fraction(0))
_depth = [0]


@dataclass
class BigOpsResult:
    """``verdict`` proved | disproved | None (unknown), ``how`` (the method, as printed),
    ``counterexample`` (for disproved: depth, every layer's value, both sides)."""
    verdict: Verdict | None
    how: str = ""
    counterexample: dict | None = None
    tried: list[str] = field(default_factory=list)


@contextlib.contextmanager
def _nested() -> Iterator[None]:
    _depth[0] += 1
    try:
        yield
    finally:
        _depth[0] -= 1


def has_symbolic_range(nodes) -> bool:
    """Whether a big operator of ``nodes`` has a range end that is not a number."""
    return any(isinstance(x, BigOp) and (_int(x.lo) is None or _int(x.hi) is None)
               for t in nodes for x in t.unique_nodes())


def _int(n: Node) -> int | None:
    v = _number(n)
    return int(v) if v is not None and v.denominator == 1 else None


def _indexed_free(n: Node) -> bool:
    return not any(isinstance(x, (Indexed, BigOp)) for x in n.unique_nodes())


# ----------------------------------------------------------------------------- per-layer assumptions
def per_layer(extra, statement_symbols: set[str]) -> tuple[list[Rel], list[Rel]]:
    """``extra`` split into per-layer assumptions (on components at an index symbol that is no
    symbol of the statement: ``a[i] >= 1`` read "at every layer i") and the others."""
    layer, rest = [], []
    for r in extra:
        idx = {x.index.name for x in r.unique_nodes() if isinstance(x, Indexed) and isinstance(x.index, Sym)}
        if idx and not (idx & statement_symbols) and not any(isinstance(x, BigOp) for x in r.unique_nodes()):
            layer.append(r)
        else:
            rest.append(r)
    return layer, rest


def _layer_index(r: Rel) -> str:
    return next(x.index.name for x in r.unique_nodes() if isinstance(x, Indexed) and isinstance(x.index, Sym))


def at_layer(r: Rel, k: Node) -> Rel:
    """A per-layer assumption at the layer ``k`` (a number or the generic index)."""
    v = _layer_index(r)

    def step(n: Node) -> Node | None:
        if isinstance(n, Sym) and n.name == v:
            return k
        return None
    return Rel(r.op, r.lhs.map(step), r.rhs.map(step))


def expand_per_layer(layer: list[Rel], nodes) -> list[Rel] | None:
    """The per-layer assumptions at every layer of the numeric ranges of ``nodes`` whose bodies
    use their components; None when a range is symbolic (the generic layer's case)."""
    out: list[Rel] = []
    for r in layer:
        names = {x.name for x in r.unique_nodes() if isinstance(x, Indexed)}
        ks: set[int] = set()
        for t in nodes:
            for x in t.unique_nodes():
                if isinstance(x, BigOp) and any(isinstance(y, Indexed) and y.name in names
                                                for y in x.body.unique_nodes()):
                    lo, hi = _int(x.lo), _int(x.hi)
                    if lo is None or hi is None:
                        return None
                    ks.update(range(lo, hi + 1))
                elif isinstance(x, Indexed) and x.name in names and _int(x.index) is not None:
                    ks.add(_int(x.index))  # type: ignore[arg-type]
        out += [at_layer(r, Num(Fraction(k))) for k in sorted(ks)]
    return out


# ----------------------------------------------------------------------------- the generic layer
@dataclass(frozen=True)
class _Range:
    lo: Node
    hi: Node

    def count(self) -> Node:
        lo = _number(self.lo)
        if lo == 1:
            return self.hi
        if lo is not None:
            return _fold_add(self.hi, Num(1 - lo))
        return Add((self.hi, Mul((Num(Fraction(-1)), self.lo)), _ONE))


def _integral(n: Node, domains: dict) -> bool:
    """Whether ``n`` (a range end) is an integer at every point: integer numbers and symbols of
    integer domains joined by sums and products. Only then does ``lo .. hi`` have
    ``hi - lo + 1`` layers (a range 1 .. 5/2 has two)."""
    if isinstance(n, Num):
        return n.value.denominator == 1
    if isinstance(n, Sym):
        d = domains.get(n.name)
        return d is not None and d.integer
    if isinstance(n, (Add, Mul)):
        return all(_integral(x, domains) for x in n.args)
    return False


def _fold_add(x: Node, c: Num) -> Node:
    if c.value == 0:
        return x
    v = _number(x)
    return Num(v + c.value) if v is not None else Add((x, c))


class _Ctx:
    """What every step shares: the statement's domains, its per-layer and other assumptions,
    the real layers and the deadline."""

    def __init__(self, domains, layer, rest, decide: Decider, deadline: float, symbols: set[str]) -> None:
        self.domains, self.layer, self.rest, self.decide = domains, layer, rest, decide
        self.deadline, self.symbols = deadline, symbols
        self.var = _fresh("i", symbols)
        self.cache: dict = {}

    def left(self) -> float:
        return left(self.deadline)

    def generic(self, body: Node, rng: _Range, var: str) -> tuple[Node, dict, list]:
        """``body`` (index ``var``) at a generic layer: (scalar body, domains, assumptions)."""
        i = self.var
        doms = {k: v for k, v in self.domains.items()}
        lo, hi = _int(rng.lo), _int(rng.hi)
        doms[i] = Domain(True, Fraction(lo) if lo is not None else None, True,
                         Fraction(hi) if hi is not None else None, True)
        ex = [r for r in self.rest if _indexed_free(r)]
        if lo is None:
            ex.append(Rel(">=", Sym(i), rng.lo))
        if hi is None:
            ex.append(Rel("<=", Sym(i), rng.hi))
        ex += [at_layer(r, Sym(i)) for r in self.layer]
        out = [self._scalar(substitute(body, {var: Sym(i)}) if var != i else body, doms)]
        out += [Rel(r.op, self._scalar(r.lhs, doms), self._scalar(r.rhs, doms)) for r in ex]
        return out[0], doms, list(out[1:])

    def _scalar(self, n: Node, doms: dict) -> Node:
        i = self.var

        def step(x: Node) -> Node | None:
            if isinstance(x, Indexed) and x.index == Sym(i):
                name = f"{x.name}[{i}]"
                if x.name in self.domains:
                    doms[name] = self.domains[x.name]
                return Sym(name)
            return None
        return n.map(step)

    def holds(self, body: Node, rel: str, rhs: Node, rng: _Range, var: str, share: float) -> bool:
        """Whether ``body rel rhs`` is proved at a generic layer of ``rng`` (cached)."""
        key = (str(body), rel, str(rhs), str(rng.lo), str(rng.hi), var)
        if key in self.cache:
            return self.cache[key]
        ok = False
        if self.left() > 0.05:
            g, doms, ex = self.generic(Add((body, Mul((Num(Fraction(-1)), rhs)))), rng, var)
            if any(isinstance(x, (Indexed, BigOp)) for t in (g, *ex) for x in t.unique_nodes()) and _depth[0] >= MAX_DEPTH:
                ok = False
            else:
                doms = {k: v for k, v in doms.items() if k in set().union(g.symbols(), *(r.symbols() for r in ex))}
                with _nested():
                    d = self.decide(g, rel, _ZERO, doms, ex, max(0.3, min(share, self.left())))
                ok = getattr(d, "verdict", None) is Verdict.PROVED
        self.cache[key] = ok
        return ok

    def count_nonneg(self, rng: _Range) -> bool:
        """Integer ends and ``count >= 0`` proved (a range 3 .. 1 has no layers, not -1)."""
        return (_integral(rng.lo, self.domains) and _integral(rng.hi, self.domains)
                and self.scalar_holds(rng.count(), ">=", _ZERO, 0.5))

    def count_ok(self, rng: _Range) -> bool:
        """Integer ends and ``count = hi - lo + 1 >= 1`` proved: the range has that many layers."""
        return (_integral(rng.lo, self.domains) and _integral(rng.hi, self.domains)
                and self.scalar_holds(rng.count(), ">=", _ONE, 0.5))

    def scalar_holds(self, a: Node, rel: str, b: Node, share: float) -> bool:
        """A relation without components (``count >= 1``), by the real layers."""
        key = (str(a), rel, str(b))
        if key not in self.cache:
            doms = {k: self.domains[k] for k in Rel(rel, a, b).symbols() if k in self.domains}
            ex = [r for r in self.rest if _indexed_free(r)]
            d = self.decide(a, rel, b, doms, ex, max(0.2, min(share, self.left())))
            self.cache[key] = getattr(d, "verdict", None) is Verdict.PROVED
        return self.cache[key]


def _fresh(base: str, used: set[str]) -> str:
    name = base
    while name in used:
        name += "_"
    return name


# ----------------------------------------------------------------------------- normal form
def _factors(n: Node) -> list[Node]:
    """The factors of a product, ``(x*y)**k`` with an integer k as ``x**k, y**k`` (an identity
    wherever both are defined)."""
    out: list[Node] = []
    stack = [n]
    while stack:
        x = stack.pop()
        if isinstance(x, Mul):
            stack.extend(reversed(x.args))
        elif isinstance(x, Pow) and isinstance(x.base, Mul) and isinstance(x.exp, Num) \
                and x.exp.value.denominator == 1:
            stack.extend(reversed([Pow(f, x.exp) for f in x.base.args]))
        elif isinstance(x, Pow) and isinstance(x.base, Pow) and isinstance(x.exp, Num) \
                and isinstance(x.base.exp, Num) and x.exp.value.denominator == 1 \
                and x.base.exp.value.denominator == 1:
            stack.append(Pow(x.base.base, Num(x.exp.value * x.base.exp.value)))
        else:
            out.append(x)
    return out


def _terms(n: Node) -> list[Node]:
    out: list[Node] = []
    stack = [n]
    while stack:
        x = stack.pop()
        if isinstance(x, Add):
            stack.extend(reversed(x.args))
        else:
            out.append(x)
    return out


def _mul(fs: list[Node]) -> Node:
    fs = [f for f in fs if f != _ONE]
    return _ONE if not fs else (fs[0] if len(fs) == 1 else Mul(tuple(fs)))


def _add(ts: list[Node]) -> Node:
    ts = [t for t in ts if t != _ZERO]
    return _ZERO if not ts else (ts[0] if len(ts) == 1 else Add(tuple(ts)))


class _Normal:
    """The normal form of a side: every big operator over a symbolic range split (sums into
    sums of index-free coefficients times sums of products; products into powers of products of
    single factors), the bound index renamed to the context's index."""

    def __init__(self, ctx: _Ctx) -> None:
        self.ctx = ctx

    def __call__(self, n: Node) -> Node:
        return n.map(self._step)

    def _step(self, n: Node) -> Node | None:
        if isinstance(n, Func):
            return self._exp_log(n)
        if not isinstance(n, BigOp) or not _symbolic(n) or n.op not in ("sum", "prod"):
            return None
        if any(isinstance(x, BigOp) and n.var in x.symbols() for x in n.body.unique_nodes()):
            return None           # an inner range that depends on the index (prod_{j > i})
        if not self.ctx.count_nonneg(_Range(n.lo, n.hi)):
            return None           # c * count and c^count need integer ends, hi >= lo - 1
        i = self.ctx.var
        body = substitute(n.body, {n.var: Sym(i)}) if n.var != i else n.body
        body = self(body)
        rng = _Range(n.lo, n.hi)
        if n.op == "sum":
            return self._sum(n, body, i, rng)
        fs: list[Node] = []
        for f in _factors(body):
            if i not in f.symbols():
                fs.append(Pow(f, rng.count()))
            elif isinstance(f, Pow) and i not in f.exp.symbols() and isinstance(f.exp, Num) \
                    and f.exp.value.denominator == 1:
                fs.append(Pow(BigOp("prod", f.base, i, n.lo, n.hi), f.exp))
            else:
                fs.append(BigOp("prod", f, i, n.lo, n.hi))
        return _mul(fs)

    def _exp_log(self, n: Func) -> Node | None:
        """exp(sum) = prod exp; log(prod) = sum log where every factor is proved positive."""
        if n.name == "exp" and len(n.args) == 1 and isinstance(n.args[0], BigOp) \
                and n.args[0].op == "sum" and _symbolic(n.args[0]):
            s = n.args[0]
            return self(BigOp("prod", Func("exp", (s.body,)), s.var, s.lo, s.hi))
        if n.name == "log" and len(n.args) == 1 and isinstance(n.args[0], BigOp) \
                and n.args[0].op == "prod" and _symbolic(n.args[0]):
            p = n.args[0]
            if self.ctx.holds(p.body, ">", _ZERO, _Range(p.lo, p.hi), p.var, 1.0):
                return self(BigOp("sum", Func("log", (p.body,)), p.var, p.lo, p.hi))
        return None

    @staticmethod
    def _sum(n: BigOp, body: Node, i: str, rng) -> Node:
        """A sum split termwise: the factors free of the index out, a term free of it times
        the count."""
        out = []
        for t in _terms(body):
            dep = [f for f in _factors(t) if i in f.symbols()]
            free = [f for f in _factors(t) if i not in f.symbols()]
            if not dep:
                out.append(_mul(free + [rng.count()]))
            else:
                out.append(_mul(free + [BigOp("sum", _mul(dep), i, n.lo, n.hi)]))
        return _add(out)


def _symbolic(n: BigOp) -> bool:
    return _int(n.lo) is None or _int(n.hi) is None


def _atoms(n: Node) -> list[BigOp]:
    seen: dict[str, BigOp] = {}
    for x in n.unique_nodes():
        if isinstance(x, BigOp) and _symbolic(x):
            seen.setdefault(str(x), x)
    return list(seen.values())


# ----------------------------------------------------------------------------- the methods
def _congruence(a: Node, rel: str, b: Node, ctx: _Ctx) -> str | None:
    """Both sides the same outside big operators with the same operator and range whose bodies
    are proved equal at a generic layer."""
    if rel not in ("==", "<=", ">="):
        return None
    pairs: list = []
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x == y:
            continue
        if isinstance(x, BigOp) and isinstance(y, BigOp):
            if x.op != y.op or x.lo != y.lo or x.hi != y.hi:
                return None
            by = substitute(y.body, {y.var: Sym(x.var)}) if x.var != y.var else y.body
            pairs.append((x, by))
            continue
        if type(x) is not type(y) or isinstance(x, (Sym, Num, Indexed)):
            return None
        slots: tuple[str, ...] = x.__slots__
        for f in slots:
            u, v = getattr(x, f), getattr(y, f)
            if isinstance(u, tuple) and isinstance(v, tuple) and len(u) == len(v):
                stack.extend(zip(u, v))
            elif isinstance(u, Node) and isinstance(v, Node):
                stack.append((u, v))
            elif u != v:
                return None
    if not pairs:
        return "congruence: the same expression on both sides"
    share = ctx.left() / (len(pairs) + 1)
    if all(ctx.holds(x.body, "==", by, _Range(x.lo, x.hi), x.var, share) for x, by in pairs):
        return f"congruence: term by term under {len(pairs)} sum/product/max/min over the same range"
    return None


def _split_term(t: Node, i: str) -> tuple[list[Node], BigOp | None, bool]:
    """(index-free factors, the one sum atom, ok) of a term of a normal form."""
    coef: list[Node] = []
    atom = None
    for f in _factors(t):
        if isinstance(f, BigOp) and f.op == "sum" and _symbolic(f) and atom is None:
            atom = f
        elif _indexed_free(f):
            coef.append(f)
        else:
            return coef, None, False
    return coef, atom, True


def _difference(A: Node, rel: str, B: Node, ctx: _Ctx) -> str | None:
    """The difference of the normal forms one sum over one range: decided termwise."""
    g, op = (sub(B, A), {"<=": ">=", "<": ">"}[rel]) if rel in ("<=", "<") else (sub(A, B), rel)
    parts, free = [], []
    rng = None
    for t in _terms(_expand_neg(g)):
        coef, atom, ok = _split_term(t, ctx.var)
        if not ok:
            return None
        if atom is None:
            free.append(_mul(coef))
            continue
        r = _Range(atom.lo, atom.hi)
        if rng is not None and r != rng:
            return None
        rng = r
        parts.append(_mul(coef + [atom.body]))
    if rng is None:
        return None
    need_count = bool(free) or op == ">"
    if need_count and not ctx.count_ok(rng):
        return None
    if free:
        parts.append(Mul((_add(free), Pow(rng.count(), Num(Fraction(-1))))))
    body = _add(parts)
    if ctx.holds(body, op, _ZERO, rng, ctx.var, 0.8 * ctx.left()):
        spread = ", the index-free terms spread over the layers" if free else ""
        return f"termwise: the difference is one sum over the layers, its term {op} 0 at a generic layer{spread}"
    return None


def _expand_neg(g: Node) -> Node:
    """``-1 * (x + y)`` distributed, so that the terms of a difference are read one by one."""
    out: list[Node] = []
    for t in _terms(g):
        fs = _factors(t)
        adds = [f for f in fs if isinstance(f, Add)]
        if len(adds) == 1 and all(isinstance(f, Num) or _indexed_free(f) for f in fs if f is not adds[0]):
            rest = [f for f in fs if f is not adds[0]]
            out += [_mul(rest + [u]) for u in _terms(adds[0])]
        else:
            out.append(t)
    return _add(out)


def _as_product(side: Node, ctx: _Ctx) -> tuple[_Range, list[Node], list[Node]] | None:
    """(range, factors of the one product's body, index-free factors) of a side that is a product
    of ``prod`` atoms over one range and index-free factors."""
    rng = None
    body: list[Node] = []
    free: list[Node] = []
    for f0 in _factors(side):
        k, f = 1, f0
        if isinstance(f0, Pow) and isinstance(f0.base, BigOp) and isinstance(f0.exp, Num) \
                and f0.exp.value.denominator == 1:
            f, k = f0.base, int(f0.exp.value)
        if isinstance(f, BigOp) and f.op == "prod" and _symbolic(f):
            r = _Range(f.lo, f.hi)
            if rng is not None and r != rng:
                return None
            rng = r
            body.append(f.body if k == 1 else Pow(f.body, Num(Fraction(k))))
        elif _indexed_free(f):
            free.append(f)
        else:
            return None
    return (rng, body, free) if rng is not None else None


def _product(A: Node, rel: str, B: Node, ctx: _Ctx) -> str | None:
    """Both normal forms one product over one range (index-free factors c^count taken as
    layers of c, others c as layers of c^(1/count) once c > 0): 0 <= u_i <= v_i termwise."""
    if rel in (">=", ">"):
        A, B, rel = B, A, {">=": "<=", ">": "<"}[rel]
    pa, pb = _as_product(A, ctx), _as_product(B, ctx)
    if pa is None and pb is None:
        return None
    rng = (pa or pb)[0]  # type: ignore[index]
    sides = []
    for p, side in ((pa, A), (pb, B)):
        if p is None:
            if not _indexed_free(side):
                return None
            p = (rng, [], [side])
        if p[0] != rng:
            return None
        layers = list(p[1])
        for c in p[2]:
            if isinstance(c, Pow) and c.exp == rng.count() and ctx.count_nonneg(rng):
                layers.append(c.base)
            else:
                if not (ctx.scalar_holds(c, ">", _ZERO, 0.5) and ctx.count_ok(rng)):
                    return None
                layers.append(Pow(c, Pow(rng.count(), Num(Fraction(-1)))))
        sides.append(_mul(layers))
    u, v = sides
    share = ctx.left() / 3
    if rel == "==":
        ok = ctx.holds(u, "==", v, rng, ctx.var, share)
        how = "termwise: equal factors at a generic layer"
    else:
        if rel == "<" and not ctx.count_ok(rng):
            return None
        ok = ctx.holds(u, ">=", _ZERO, rng, ctx.var, share) and ctx.holds(u, rel, v, rng, ctx.var, share)
        how = f"termwise: one product over the layers on each side, 0 <= u_i {rel} v_i at a generic layer"
    return how if ok else None


# ----------------------------------------------------------------------------- abstraction
def _sign_of_body(atom: BigOp, ctx: _Ctx, share: float) -> str | None:
    rng = _Range(atom.lo, atom.hi)
    if ctx.holds(atom.body, ">", _ZERO, rng, atom.var, share):
        return "positive"
    if ctx.holds(atom.body, ">=", _ZERO, rng, atom.var, share):
        return "nonnegative"
    return None


def _lemmas(atoms: list[BigOp], signs: dict, ctx: _Ctx, norm: _Normal, count: Node) -> list[tuple[str, Node, str, Node]]:
    """Instances ``(name, x, rel, y)`` of the classical inequalities between the atoms (their
    hypotheses proved at a generic layer), in normal form."""
    out: list[tuple[str, Node, str, Node]] = []
    i = ctx.var
    share = max(0.3, ctx.left() / (4 * len(atoms) + 4))
    for at in atoms:
        if ctx.left() < 0.3:
            break
        rng = _Range(at.lo, at.hi)
        u = at.body
        nonneg = signs.get(str(at)) in ("positive", "nonnegative")
        S = BigOp("sum", u, i, at.lo, at.hi)
        if at.op == "prod" and nonneg:
            out.append(("AM-GM", at, "<=", Pow(Mul((S, Pow(count, Num(Fraction(-1))))), count)))
            out.append(("AM-GM", Pow(at, Pow(count, Num(Fraction(-1)))), "<=",
                        Mul((S, Pow(count, Num(Fraction(-1)))))))
            out.append(("1 + x <= e^x", at, "<=", Func("exp", (Add((S, Mul((Num(Fraction(-1)), count)))),))))
            if ctx.holds(u, ">=", _ONE, rng, i, share) or ctx.holds(u, "<=", _ONE, rng, i, share):
                out.append(("Weierstrass", at, ">=", Add((_ONE, S, Mul((Num(Fraction(-1)), count))))))
        if at.op == "sum":
            out.append(("power means", Pow(at, Num(Fraction(2))), "<=",
                        Mul((count, BigOp("sum", Pow(u, Num(Fraction(2))), i, at.lo, at.hi)))))
            fs = _factors(u)
            if len(fs) >= 2:
                x, y = fs[0], _mul(fs[1:])
                out.append(("Cauchy-Schwarz", Pow(at, Num(Fraction(2))), "<=",
                            Mul((BigOp("sum", Pow(x, Num(Fraction(2))), i, at.lo, at.hi),
                                 BigOp("sum", Pow(y, Num(Fraction(2))), i, at.lo, at.hi)))))
            if isinstance(u, Pow) and isinstance(u.exp, Num) and u.exp.value >= 1 and \
                    ctx.holds(u.base, ">=", _ZERO, rng, i, share):
                p = u.exp
                Sb = BigOp("sum", u.base, i, at.lo, at.hi)
                out.append(("power sums", at, "<=", Pow(Sb, p)))
                out.append(("power means", Pow(Sb, p), "<=", Mul((Pow(count, Num(p.value - 1)), at))))
            if isinstance(u, Pow) and isinstance(u.exp, Num) and 0 < u.exp.value < 1 and \
                    ctx.holds(u.base, ">=", _ZERO, rng, i, share):
                # v = base^q with 0 < q < 1, p = 1/q > 1: (sum v)^p <= n^(p-1) sum v^p (power means)
                # and sum v^p <= (sum v)^p (the l_q norm dominates the l_1 norm)
                p_ = Num(1 / u.exp.value)
                Sb = BigOp("sum", u.base, i, at.lo, at.hi)
                out.append(("power means", Pow(at, p_), "<=", Mul((Pow(count, Num(p_.value - 1)), Sb))))
                out.append(("power sums", Sb, "<=", Pow(at, p_)))
            jen = _jensen(at, ctx, share)
            if jen is not None:
                out.append(jen)
    return [(name, norm(x), r, norm(y)) for name, x, r, y in out]


def _jensen(at: BigOp, ctx: _Ctx, share: float):
    """sum f(c_i) >= n f(sum c_i / n) (f convex on c's domain) or <= (concave), for a body
    f(c_i) in one component c whose per-layer assumptions are bounds only."""
    comps = {x.name for x in at.body.unique_nodes() if isinstance(x, Indexed)}
    if len(comps) != 1:
        return None
    (c,) = comps
    if any(not (isinstance(r.lhs, Indexed) and isinstance(r.rhs, Num)) for r in ctx.layer if c in r.symbols()):
        return None
    if c not in ctx.domains or at.body == Indexed(c, Sym(at.var)):
        return None
    from .taylor import derivatives
    t = _fresh("t", ctx.symbols | {c})
    f = at.body.map(lambda x: Sym(t) if isinstance(x, Indexed) and x.name == c and x.index == Sym(at.var) else None)
    if at.var in f.symbols() or any(isinstance(x, (Indexed, BigOp)) for x in f.unique_nodes()):
        return None               # the index used otherwise than as c's index: no one function f
    try:
        _, d2 = derivatives(f, [t], seconds=max(0.3, 0.3 * share))
    except Exception:       # SymPy's differentiation failing or timing out: no instance
        return None
    f2 = d2.get((t, t))
    if f2 is None:
        return None
    d = ctx.domains[c]
    dom = Domain(False, d.lo, d.lo_closed, d.hi, d.hi_closed)
    for r in ctx.layer:
        if c in r.symbols():
            dom = _narrowed(dom, r)
    doms = {k: ctx.domains[k] for k in f.symbols() | f2.symbols() if k in ctx.domains}
    doms[t] = dom
    ex = [r for r in ctx.rest if _indexed_free(r)]
    if not _defined_strictly(f, f2, doms, ex, ctx, share):
        return None
    rel = _convex_or_concave(f2, doms, ex, ctx, share)
    if rel is None:
        return None
    count = _Range(at.lo, at.hi).count()
    mean = Mul((BigOp("sum", Indexed(c, Sym(at.var)), at.var, at.lo, at.hi), Pow(count, Num(Fraction(-1)))))
    return ("Jensen", at, rel, Mul((count, substitute(f, {t: mean}))))


def _defined_strictly(f: Node, f2: Node, doms: dict, ex: list, ctx: _Ctx, share: float) -> bool:
    """f and f'' defined on all of c's (convex) domain, strictly, as in .convexity: a convex
    function on each piece of a broken domain is no convex function (1/t^2 at -1, 3)."""
    from ..expr.singularities import definedness
    for cond in definedness(f) + definedness(f2):
        if cond.op not in (">", ">=", "!="):
            return False
        ok = False
        for goal in ((cond.expr,) + ((Mul((Num(Fraction(-1)), cond.expr)),) if cond.op == "!=" else ())):
            with _nested():
                v = ctx.decide(goal, ">", _ZERO, {k: doms[k] for k in goal.symbols() if k in doms}, list(ex),
                               max(0.3, min(share, ctx.left())))
            if getattr(v, "verdict", None) is Verdict.PROVED:
                ok = True
                break
        if not ok:
            return False
    return True


def _convex_or_concave(f2: Node, doms: dict, ex: list, ctx: _Ctx, share: float) -> str | None:
    """'>=' where f'' >= 0 is proved on the domain (convex), '<=' where f'' <= 0 (concave)."""
    for op, want in ((">=", ">="), ("<=", "<=")):
        if ctx.left() < 0.2:
            break
        with _nested():
            v = ctx.decide(f2, op, _ZERO, dict(doms), list(ex), max(0.3, min(share, ctx.left())))
        if getattr(v, "verdict", None) is Verdict.PROVED:
            return want
    return None


def _narrowed(d: Domain, r: Rel) -> Domain:
    """``d`` cut by a per-layer bound ``c[i] OP number``."""
    c = r.rhs.value  # type: ignore[attr-defined]
    if r.op in (">=", ">") and (d.lo is None or c > d.lo or (c == d.lo and r.op == ">")):
        return Domain(d.integer, c, r.op == ">=", d.hi, d.hi_closed)
    if r.op in ("<=", "<") and (d.hi is None or c < d.hi or (c == d.hi and r.op == "<")):
        return Domain(d.integer, d.lo, d.lo_closed, c, r.op == "<=")
    if r.op == "==":
        return Domain(d.integer, c, True, c, True)
    return d


def _termwise_pairs(atoms: list, signs: dict, ctx: _Ctx, share: float) -> list:
    """Termwise relations between atoms of one operator over the range (on shared indexed
    symbols; products only of signed terms), each proved at a generic layer."""
    pairs = []
    for j, x in enumerate(atoms):
        for y in atoms[j + 1:]:
            if x.op != y.op or x.op not in ("sum", "prod") or ctx.left() < 0.5:
                continue
            if not ({n.name for n in x.body.unique_nodes() if isinstance(n, Indexed)}
                    & {n.name for n in y.body.unique_nodes() if isinstance(n, Indexed)}):
                continue
            if x.op == "prod" and not (signs[str(x)] and signs[str(y)]):
                continue
            rng = _Range(x.lo, x.hi)
            for r in ("==", "<=", ">="):
                if ctx.holds(x.body, r, y.body, rng, ctx.var, share):
                    pairs.append(("termwise comparisons", x, r, y))
                    break
    return pairs


def _atom_names(atoms: list, signs: dict, ctx: _Ctx) -> tuple[dict[str, Node], dict]:
    """(each atom's fresh scalar, the domains with theirs: the sign of the atom)."""
    names: dict[str, Node] = {}
    doms = {k: v for k, v in ctx.domains.items()}
    for j, x in enumerate(atoms):
        nm = _fresh(f"{x.op}_{j + 1}", ctx.symbols)
        names[str(x)] = Sym(nm)
        s = signs[str(x)]
        # a product of positive (nonnegative) terms is positive (nonnegative); so is a sum, its
        # range having at least one layer (count >= 1 was proved above)
        doms[nm] = Domain(lo=Fraction(0)) if s == "positive" else (
            Domain(lo=Fraction(0), lo_closed=True) if s == "nonnegative" else Domain())
    return names, doms


def _decide_tries(ga: Node, rel: str, gb: Node, doms: dict, tries: list, ctx: _Ctx):
    """(the proving decision, the hypotheses it used) of the first set of hypotheses under
    which the abstracted goal is proved, or None."""
    for k, hs in enumerate(tries):
        if ctx.left() < 0.3:
            return None
        share = 0.4 * ctx.left() if k + 1 < len(tries) else ctx.left()
        d = ctx.decide(ga, rel, gb, {n: v for n, v in doms.items()}, hs, max(0.5, share))
        if getattr(d, "verdict", None) is Verdict.PROVED:
            return d, hs
    return None


def _abstract(A: Node, rel: str, B: Node, ctx: _Ctx, norm: _Normal) -> str | None:
    """Every atom a fresh scalar; the goal decided under the atoms' signs, termwise relations
    and the classical inequalities' instances."""
    got = _abstract_atoms(A, B, ctx, norm)
    if got is None:
        return None
    atoms, gl, count = got
    share = max(0.3, ctx.left() / (4 * len(atoms) + 6))
    signs = {str(x): _sign_of_body(x, ctx, share) for x in atoms}
    lemmas = _lemmas(atoms, signs, ctx, norm, count)
    known = {str(x) for x in atoms}
    used = [lm for lm in lemmas if all(str(x) in known for x in _atoms(Add((lm[1], lm[3]))))]
    pairs = _termwise_pairs(atoms, signs, ctx, share)
    names, doms = _atom_names(atoms, signs, ctx)

    def ab(n: Node) -> Node:
        return n.map(lambda x: names.get(str(x)) if isinstance(x, BigOp) else None)
    named = [(nm, Rel(r, ab(x), ab(y))) for nm, x, r, y in used + pairs]
    hyps = [h for _, h in named]
    hyps += [Rel(r.op, ab(norm(r.lhs)), ab(norm(r.rhs))) for r in gl]
    hyps += [r for r in ctx.rest if _indexed_free(r)]
    ga, gb = ab(A), ab(B)
    if not all(_indexed_free(t) for t in (ga, gb, *hyps)):
        return None
    allsym = set().union(ga.symbols(), gb.symbols(), *(h.symbols() for h in hyps))
    doms = {k: v for k, v in doms.items() if k in allsym}
    if ctx.left() < 0.3:
        return None
    return _prove_abstracted(ga, rel, gb, doms, hyps, named, ctx)


def _abstract_atoms(A: Node, B: Node, ctx: _Ctx, norm: _Normal):
    """(the atoms of the goal and of the assumptions with indexed terms, those assumptions,
    the number of layers of the one range they share), or None (none, more than 6, several
    ranges, or a range whose count is not shown)."""
    atoms = _atoms(Add((A, B)))
    gl = [r for r in ctx.rest if not _indexed_free(r)]
    for r in gl:
        atoms += [x for x in _atoms(Add((norm(r.lhs), norm(r.rhs)))) if str(x) not in {str(y) for y in atoms}]
    if not atoms or len(atoms) > 6:
        return None
    rngs = {(str(x.lo), str(x.hi)) for x in atoms}
    if len(rngs) != 1:
        return None
    count = _Range(atoms[0].lo, atoms[0].hi).count()
    if not ctx.count_ok(_Range(atoms[0].lo, atoms[0].hi)):
        return None
    return atoms, gl, count


def _prove_abstracted(ga: Node, rel: str, gb: Node, doms: dict, hyps: list, named: list, ctx: _Ctx) -> str | None:
    """The abstracted goal decided: first under the hypotheses with a side that is a subterm
    of the goal (fewer names for z3), then under all; the verdict text names the instances used."""
    subterms = {str(x) for t in (ga, gb) for x in t.unique_nodes()}
    relevant = [h for h in hyps if str(h.lhs) in subterms or str(h.rhs) in subterms]
    tries = ([relevant] if relevant and len(relevant) < len(hyps) else []) + [hyps]
    found = _decide_tries(ga, rel, gb, doms, tries, ctx)
    if found is None:
        return None
    d, hs = found
    names_used = sorted({nm for nm, h in named if any(h is x for x in hs)})
    inner = getattr(d, "text", "")
    return ("each sum/product over the layers a variable, under their signs"
            + (" and proved instances of " + ", ".join(names_used) if names_used else "")
            + (f"; {inner}" if inner else ""))


# ----------------------------------------------------------------------------- induction
def _induction(a: Node, rel: str, b: Node, ctx: _Ctx) -> str | None:
    """Induction on the depth L (one range lo .. L, L a free integer symbol of the ranges only)."""
    atoms = _atoms(Add((a, b)))
    if not atoms:
        return None
    his = {str(x.hi) for x in atoms}
    los = {_int(x.lo) for x in atoms}
    if len(his) != 1 or len(los) != 1 or None in los or not isinstance(atoms[0].hi, Sym):
        return None
    L = atoms[0].hi.name
    lo = los.pop()
    assert lo is not None
    d = ctx.domains.get(L)
    if d is None or not d.integer or d.lo is None or d.lo > lo or d.hi is not None:
        return None
    if any(L in x.body.symbols() for x in atoms) or ctx.rest or any(L in r.symbols() for r in ctx.layer):
        return None
    if not _induction_base(a, rel, b, ctx, L, lo, d):
        return None
    if not _induction_step(a, rel, b, ctx, L, lo):
        return None
    return f"induction on {L}: the base case {L} = {lo} and the step {L} -> {L} + 1 from the hypothesis at {L}"


def _induction_base(a: Node, rel: str, b: Node, ctx: _Ctx, L: str, lo: int, d: Domain) -> bool:
    """The base case L = lo, written out (the layers' components as symbols), proved."""
    from ..expr.indexed import separate
    base = separate([substitute(a, {L: Num(Fraction(lo))}), substitute(b, {L: Num(Fraction(lo))}),
                     *[at_layer(r, Num(Fraction(lo))) for r in ctx.layer]], dict(ctx.domains))
    if base is None:
        return False
    (ba, bb, *bex), bdoms = base
    if d.lo is None or d.lo < lo:
        return False
    doms0 = {k: v for k, v in bdoms.items() if k in Rel(rel, ba, bb).symbols() | set().union(*(r.symbols() for r in bex))}
    share = max(0.5, ctx.left() / 3)
    with _nested():
        v = ctx.decide(ba, rel, bb, doms0, bex, share)
    return getattr(v, "verdict", None) is Verdict.PROVED


def _induction_step(a: Node, rel: str, b: Node, ctx: _Ctx, L: str, lo: int) -> bool:
    """The step P(L) => P(L + 1) proved: the sums/products up to L as variables (signed where
    their bodies are), the new layer's components fresh, the hypothesis at L assumed."""
    names: dict[str, Node] = {}
    hyp_doms: dict[str, Domain] = {k: v for k, v in ctx.domains.items() if k != L}
    hyp_doms[L] = Domain(True, Fraction(lo), True, None, False)
    i = ctx.var
    new_layer: dict[str, Node] = {}

    def step_side(n: Node) -> Node:
        def f(x: Node) -> Node | None:
            if isinstance(x, BigOp) and _symbolic(x):
                key = str(x)
                if key not in names:
                    names[key] = Sym(_fresh(f"{x.op}_{len(names) + 1}", ctx.symbols))
                last = substitute(x.body, {x.var: Sym(f"{i}__last")})
                last = last.map(lambda y: _last(y, new_layer, ctx, hyp_doms, L))
                if x.op in ("max", "min"):
                    return Func(x.op, (names[key], last))
                return Add((names[key], last)) if x.op == "sum" else Mul((names[key], last))
            return None
        return n.map(f)
    sa = step_side(substitute(a, {}))
    sb = step_side(b)
    ih_a, ih_b = _abstract_only(a, names), _abstract_only(b, names)
    # the goal at L + 1 (the last layer's index is already L + 1: written L__n + 1, then L__n -> L)
    sa, sb = (substitute(substitute(t, {L: Add((Sym(L), _ONE))}), {L + "__n": Sym(L)}) for t in (sa, sb))
    if not all(_indexed_free(t) for t in (sa, sb, ih_a, ih_b)):
        return False
    ex = [Rel(rel, ih_a, ih_b)]
    for x in _atoms(Add((a, b))):
        s = _sign_of_body(x, ctx, 0.5)
        if s is not None:
            nm = names[str(x)].name  # type: ignore[attr-defined]
            # the range lo .. L has L - lo + 1 >= 1 layers (L >= lo)
            hyp_doms[nm] = Domain(lo=Fraction(0), lo_closed=(s != "positive"))
        else:
            hyp_doms.setdefault(names[str(x)].name, Domain())  # type: ignore[attr-defined]
    ex += [Rel(r.op, substitute(r.lhs.map(lambda y: _last(y, new_layer, ctx, hyp_doms, L)), {L + "__n": Sym(L)}),
               substitute(r.rhs.map(lambda y: _last(y, new_layer, ctx, hyp_doms, L)), {L + "__n": Sym(L)}))
           for r in (at_layer(q, Sym(f"{i}__last")) for q in ctx.layer)]
    used = set().union(sa.symbols(), sb.symbols(), *(r.symbols() for r in ex))
    doms = {k: v for k, v in hyp_doms.items() if k in used}
    with _nested():
        v = ctx.decide(sa, rel, sb, doms, ex, max(0.5, ctx.left()))
    return getattr(v, "verdict", None) is Verdict.PROVED


def _last(y: Node, new_layer: dict, ctx: _Ctx, doms: dict, L: str) -> Node | None:
    """The last layer's component ``s[L + 1]`` as a fresh symbol of ``s``'s domain."""
    if isinstance(y, Indexed) and isinstance(y.index, Sym) and y.index.name.endswith("__last"):
        nm = f"{y.name}[{L}+1]"
        new_layer[nm] = Sym(nm)
        if y.name in ctx.domains:
            doms[nm] = ctx.domains[y.name]
        return Sym(nm)
    if isinstance(y, Sym) and y.name.endswith("__last"):
        return Add((Sym(L + "__n"), _ONE))      # L + 1 once the step's L -> L + 1 is made
    return None


def _abstract_only(n: Node, names: dict) -> Node:
    return n.map(lambda x: names.get(str(x)) if isinstance(x, BigOp) else None)


# ----------------------------------------------------------------------------- counterexamples
def _pool(d: Domain, rnd: random.Random, k: int = 8) -> list[Fraction]:
    """Candidate values of a domain: its ends (or points near open ends), simple numbers, samples."""
    simple = [Fraction(v) for v in ("1", "2", "1/2", "3", "10", "1/10", "0", "-1", "5", "100", "1/100", "-2")]
    out: list[Fraction] = []
    if d.lo is not None:
        out.append(d.lo if d.lo_closed else d.lo + Fraction(1, 1000))
    if d.hi is not None:
        out.append(d.hi if d.hi_closed else d.hi - Fraction(1, 1000))
    out += simple
    lo = d.lo if d.lo is not None else Fraction(-10)
    hi = d.hi if d.hi is not None else lo + 20
    for _ in range(k):
        out.append(lo + (hi - lo) * Fraction(rnd.randint(1, 999), 1000))
    if d.integer:
        out = [Fraction(round(v)) for v in out]
    return [v for v in dict.fromkeys(out) if d.contains(v)]


def counterexample(a: Node, rel: str, b: Node, domains: dict, layer: list, rest: list, *,
                   seed: int = 0, deadline: float) -> dict | None:
    """A certified violation of ``a rel b`` at a depth 1 .. MAX_LAYERS (see the module docstring)."""
    from ..backends import mp as mpb
    rnd = random.Random(seed)
    space = _search_space(a, rel, b, domains, layer, rest, rnd)
    if space is None:
        return None
    ends, comps, scalars, pools = space
    for depth in range(1, MAX_LAYERS + 1):
        env0 = {e: Fraction(depth) for e in ends}
        if not all(domains[e].contains(env0[e]) for e in ends):
            continue
        spans = _spans([a, b, *rest, *layer], comps, env0)
        if spans is None:
            continue
        for trial in range(CANDIDATES_PER_DEPTH):
            if expired(deadline):
                return None
            charge(1 / BALL_POINTS_PER_SECOND)          # one candidate certified in ball arithmetic
            env = _candidate(trial, env0, scalars, comps, pools, spans, depth, rnd)
            ce = _certify(a, rel, b, layer, rest, env, domains, mpb)
            if ce is not None:
                return ce
    return None


def _search_space(a: Node, rel: str, b: Node, domains: dict, layer: list, rest: list, rnd: random.Random):
    """(the ranges' integer ends, the indexed symbols, the scalars, a pool of values for each),
    or None when an end is no integer symbol or a pool is empty."""
    atoms = [x for t in (a, b) for x in t.unique_nodes() if isinstance(x, BigOp) and _symbolic(x)]
    ends = sorted({s for x in atoms for s in (x.lo.symbols() | x.hi.symbols())})
    if not ends or any(e not in domains or not domains[e].integer for e in ends):
        return None
    comps = sorted({x.name for t in (a, b, *rest) for x in t.unique_nodes() if isinstance(x, Indexed)}
                   | {x.name for r in layer for x in r.unique_nodes() if isinstance(x, Indexed)})
    scalars = sorted((Rel(rel, a, b).symbols() | set().union(*(r.symbols() for r in rest))) - set(comps) - set(ends))
    scalars = [s for s in scalars if s in domains]
    pools = {n: _pool(domains[n], rnd) for n in comps + scalars if n in domains}
    if any(not v for v in pools.values()):
        return None
    return ends, comps, scalars, pools


def _candidate(trial: int, env0: dict, scalars: list, comps: list, pools: dict, spans: dict, depth: int,
               rnd: random.Random) -> dict:
    """The ``trial``-th candidate point at ``depth``: each scalar from its pool (in turn,
    then at random); each indexed symbol's layers constant, one layer apart, then random."""
    env: dict = dict(env0)
    for s in scalars:
        env[s] = pools[s][trial % len(pools[s])] if trial < 2 * len(pools[s]) else rnd.choice(pools[s])
    for c in comps:
        start, n = spans.get(c, (1, depth))
        p = pools[c]
        if trial < len(p):                       # constant layers, every candidate
            vals = [p[trial]] * n
        elif trial < 2 * len(p):                 # one layer apart
            vals = [p[(trial + 1) % len(p)]] * n
            vals[trial % n] = p[trial % len(p)]
        else:
            vals = [rnd.choice(p) for _ in range(n)]
        env[c] = Vector(vals, start)
    return env


def _spans(nodes, comps, env0) -> dict | None:
    """(start, length) of each indexed symbol's values at the depth ``env0``."""
    lo: dict[str, int] = {}
    hi: dict[str, int] = {}
    for t in nodes:
        for x in t.unique_nodes():
            if isinstance(x, BigOp):
                a_, b_ = _int(substitute(x.lo, {k: Num(v) for k, v in env0.items()})), \
                    _int(substitute(x.hi, {k: Num(v) for k, v in env0.items()}))
                if a_ is None or b_ is None:
                    return None
                for y in x.body.unique_nodes():
                    if isinstance(y, Indexed) and y.index == Sym(x.var):
                        lo[y.name] = min(lo.get(y.name, a_), a_)
                        hi[y.name] = max(hi.get(y.name, b_), b_)
    return {c: (lo[c], max(0, hi[c] - lo[c] + 1)) for c in comps if c in lo}


def _certify(a, rel, b, layer, rest, env, domains, mpb) -> dict | None:
    """The report of a violation at ``env``, certified on the original relation, or None."""
    from ..errors import BoundcalcError
    try:
        for c, v in env.items():
            vals = v.values if isinstance(v, Vector) else (v,)
            if c in domains and not all(domains[c].contains(x) for x in vals):
                return None
        for r in rest:
            s = mpb.decide_sign(_written(sub(r.lhs, r.rhs), env), {})
            if s is None or not _ok(r.op, s):
                return None
        for r in layer:
            names = {x.name for x in r.unique_nodes() if isinstance(x, Indexed)}
            vec = next((env[n] for n in names if isinstance(env.get(n), Vector)), None)
            if vec is None:
                return None
            for k in range(vec.start, vec.start + len(vec)):
                q = at_layer(r, Num(Fraction(k)))
                s = mpb.decide_sign(_written(sub(q.lhs, q.rhs), env), {})
                if s is None or not _ok(q.op, s):
                    return None
        g = _written(sub(a, b), env)
        if any(isinstance(x, (Indexed, BigOp)) for x in g.unique_nodes()):
            return None
        s = mpb.decide_sign(g, {})
    except (BoundcalcError, ZeroDivisionError, OverflowError, ValueError):
        return None
    if s is None or _ok(rel, s):
        return None
    return _report(a, b, env, mpb)


def _written(node: Node, env: dict) -> Node:
    """``node`` at ``env`` with every big operator (now over numbers) written out."""
    from ..expr.indexed import separate
    out = instantiate(node, env)
    sep = separate([out], {})
    return sep[0][0] if sep is not None else out


def _ok(op: str, s: int) -> bool:
    return {"<=": s <= 0, ">=": s >= 0, "<": s < 0, ">": s > 0, "==": s == 0}[op]


def _report(a, b, env, mpb) -> dict:
    out: dict = {}
    for k, v in sorted(env.items()):
        if isinstance(v, Vector):
            for j, x in enumerate(v.values):
                out[f"{k}[{v.start + j}]"] = _show(x)
        else:
            out[k] = _show(v)
    from .search import side_texts
    out["lhs"], out["rhs"] = side_texts(_written(a, env), _written(b, env), {})
    return out


def _show(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else str(v)


def _at_depth(a: Node, b: Node, ce: dict) -> str:
    """'certified, at depth d = 2' for a counterexample, the other scalars of the point after
    it ('at depth d = 1, with B = 1/1000, m = 1'): a depth is a symbol in a big operator's
    bounds, and only those are named one."""
    bounds = {s for side in (a, b) for n in side.walk() if isinstance(n, BigOp)
              for s in n.lo.symbols() | n.hi.symbols()}
    scalars = [(k, v) for k, v in ce.items() if "[" not in k and k not in ("lhs", "rhs")]
    depth = ", ".join(f"{k} = {v}" for k, v in scalars if k in bounds)
    other = ", ".join(f"{k} = {v}" for k, v in scalars if k not in bounds)
    head = f"certified, at depth {depth}" if depth else "certified"
    return head + (f", with {other}" if other else "")


# ----------------------------------------------------------------------------- entry point
def decide_bigops(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra, decide: Decider, *,
                  seconds: float, seed: int = 0) -> BigOpsResult:
    """Decide ``a rel b`` whose sides hold big operators over a symbolic range (see the module
    docstring): proved / disproved (a certified counterexample) / None (unknown)."""
    symbols = set(Rel(rel, a, b).symbols())
    layer, rest = per_layer(extra, symbols)
    deadline = clock() + seconds
    ctx = _Ctx(domains, layer, rest, decide, deadline, symbols | {s for r in extra for s in r.symbols()})
    tried: list[str] = []
    if _depth[0] > MAX_DEPTH:
        return BigOpsResult(None, tried=["nested too deep"])
    how = _congruence(a, rel, b, ctx) if not rest or all(_indexed_free(r) for r in rest) else None
    if how:
        return BigOpsResult(Verdict.PROVED, how)
    tried.append("congruence")
    ce = counterexample(a, rel, b, domains, layer, rest, seed=seed,
                        deadline=min(deadline, clock() + max(0.5, 0.2 * seconds)))
    if ce is not None:
        return BigOpsResult(Verdict.DISPROVED, _at_depth(a, b, ce), ce)
    tried.append(f"counterexample search (depths 1..{MAX_LAYERS})")
    norm = _Normal(ctx)
    A, B = norm(a), norm(b)
    for name, method in (("termwise sums", _difference), ("termwise products", _product)):
        if ctx.left() < 0.2:
            break
        how = method(A, rel, B, ctx) if all(_indexed_free(r) for r in rest) else None
        if how:
            return BigOpsResult(Verdict.PROVED, how)
        tried.append(name)
    if ctx.left() > 0.3:
        how = _abstract(A, rel, B, ctx, norm)
        if how:
            return BigOpsResult(Verdict.PROVED, how)
        tried.append("abstraction with the classical inequalities")
    if ctx.left() > 0.5:
        how = _induction(a, rel, b, ctx)
        if how:
            return BigOpsResult(Verdict.PROVED, how)
        tried.append("induction on the depth")
    return BigOpsResult(None, tried=tried)
