"""Monotonicity of a formula in one variable, with an honest evidence level.

1. *proved*: the sign of the partial derivative is decided symbolically for every
   point of the symbols' domains (domains encoded by substitutions such as x = 1 + t,
   t >= 0, see :func:`.symbolic.domain_substitution`) AND the function is continuous on
   the domain (:mod:`.continuity`: no pole of 1/g or tan, no floor/ceil jump, no gap in
   the definedness of log/sqrt/fractional powers — each shown absent by :mod:`.decide`);
   for a derivative in the variable alone, also factor by factor (:func:`_sign_by_monotone_factors`:
   each factor's sign proved, or the factor monotone with a certified sign at a closed end
   of the domain — log(n)/sqrt(n) is decreasing on n >= 8, the range ``--box n=8:inf``);
   or, for abs/min/max/floor/ceil that SymPy cannot differentiate into the expression
   language, the structure shows it (monotone functions of monotone arguments, certified
   signs: ``floor(100/n)`` is non-increasing — non-strict, and the detail says so);
2. *certified*: the layers of :mod:`.decide` (interval branch-and-bound in ball
   arithmetic, SMT) show the derivative keeps its sign on the box, and continuity on the
   box is shown the same way;
3. *sampled*: the derivative is evaluated at many random points of the box — never
   called a proof.
A derivative whose sign is proved where f is defined, but with continuity not established
(tan' > 0, yet tan(1.5) > tan(2)), is no proof: a certified pair of points across the
break that moves the other way gives "neither", else the verdict is only sampled.
A sign change of the derivative at sampled points gives the verdict "neither" with
evidence ``counterexample`` only when BOTH directions are certified: a pair of points
differing only in the variable where f rises, and one where it falls (each comparison
certified in ball arithmetic). Without ``--box`` a verdict is about the whole domain; a
verdict that rests on the default box of :meth:`Domain.default_range` (the domain is unbounded)
says so in the verdict word ("decreasing on the default box only"), in ``scope`` and in
the text. Setting the variable under test (``--set x=2``), an empty domain, a formula
undefined everywhere (the rule of :mod:`boundcalc.expr.singularities`), and a garbage,
reversed or out-of-domain ``--box`` are errors, checked before any proof is attempted.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import sympy as sp

from ..backends import mp as mpb
from ..backends.sym import expand_special, from_sympy
from ..errors import BoundcalcError
from ..expr.domains import Domain, infinite_end, search_range
from ..expr.indexed import instantiate
from ..expr.nodes import BigOp, Indexed, Node, Num, Rel, Sym, sub
from ..expr.parser import parse_number
from ..expr.singularities import is_smooth_language
from .continuity import continuity
from ..prover.decide import check_defined_somewhere
from ..prover.symbolic import domain_substitution, prove_sign, to_sympy_with_domains
from ..verdicts import Direction, MonotoneEvidence, Verdict

# the verdicts that say how f moves (not neither / unknown)
_MONOTONE = (Direction.INCREASING, Direction.DECREASING, Direction.CONSTANT)

SAMPLES = 400


@dataclass(frozen=True)
class Subject:
    """What :func:`monotone` needs of a formula: an id for messages, the expression (or a
    relation) and its symbol table. An :class:`boundcalc.api.Formula` has these too; the
    services build a Subject instead of importing the API layer."""
    id: str
    expr: Node
    symbol_table: dict


@dataclass(frozen=True)
class MonotoneResult:
    """What :func:`monotone` found: ``verdict`` (the direction, with ``on the default box
    only`` where it rests on that box), its ``evidence`` (proved | certified | sampled |
    counterexample | none), the derivative, the ``box`` and the ``scope`` it covers, and a
    certified ``counterexample`` for ``neither``. See the module docstring."""
    id: str
    var: str
    verdict: str                 # increasing | decreasing | constant | neither | unknown
    evidence: str                # proved | certified | sampled | counterexample | none
    derivative: str
    detail: str
    box: dict = field(default_factory=dict)
    counterexample: dict | None = None
    scope: str = "domain"        # what the verdict covers: domain | box (--box) | default box
    asked: str = ""              # an unbounded --box asked about ('n in [8, +inf)'); '' = the domain

    def __post_init__(self):
        object.__setattr__(self, "evidence", MonotoneEvidence(self.evidence))
        _ = self.direction              # the verdict word must start with a Direction

    @property
    def direction(self) -> Direction:
        """The verdict without its scope: increasing | decreasing | constant | neither | unknown."""
        return Direction(self.verdict.split(" on ")[0])

    def to_json(self) -> dict:
        from ..reports.printers.json import to_json
        return to_json(self)

    def describe(self) -> str:
        """The verdict as ``monotone`` prints it (:mod:`boundcalc.reports.printers.text`)."""
        from ..reports.printers.text import to_text
        return to_text(self)


def monotone(formula, var: str, *, box: dict | None = None, fixed: dict | None = None,
             samples: int = SAMPLES, seed: int = 0, beyond_box: bool = True,
             _asked: str = "") -> MonotoneResult:
    """Whether ``formula`` (for a relation: its slack ``rhs - lhs``) is increasing,
    decreasing, constant or neither in ``var``, over its domain or over ``box`` (symbol ->
    (lo, hi)), with the symbols of ``fixed`` set to numbers; see the module docstring for
    the evidence each verdict carries. Bad input raises
    :class:`~boundcalc.errors.BoundcalcError`.

    ``beyond_box=False``: a verdict on the default box is not tested beyond it (for
    :mod:`.require`, which re-examines the range its answer rests on with an explicit box);
    it is still labelled 'on the default box only'.

    A box side with an infinite end (``n: (8, "inf")``, ``x: ("-inf", 0)``) is a range of
    the symbol, not a box: the symbol's domain is cut to it and the question is asked of
    that domain (:func:`_on_unbounded`): proved there, or an honest unknown / 'on the
    default box only' (never a verdict on a finite box passed off as the range)."""
    table = formula.symbol_table
    if var not in table:
        raise BoundcalcError(f"{var!r} is not a symbol of {formula.id}; its symbols are {', '.join(table)}")
    unbounded = {n: v for n, v in (box or {}).items()
                 if isinstance(v, (tuple, list)) and any(infinite_end(x) for x in v)}
    if unbounded:
        return _on_unbounded(formula, var, box, unbounded, fixed, samples, seed, beyond_box)
    node = formula.expr
    if isinstance(node, Rel):
        node = sub(node.rhs, node.lhs)   # monotonicity of the required slack rhs - lhs
    if var in (fixed or {}):
        raise BoundcalcError(f"--set {var}: {var} is the variable under test; it cannot be fixed "
                             f"(monotonicity in {var} is about {var} varying)")
    fixed = _fixed_values(fixed or {}, table, formula.id)
    for n in node.symbols():
        if n in table:
            table[n].domain.check_nonempty(n)
    ranges_given = _check_box(box, table, fixed, node.symbols())
    check_defined_somewhere(node, formula.id,           # the one definedness rule
                            frozenset(n for n in node.symbols() if n in table and table[n].domain.integer))
    fnode = instantiate(node, fixed)       # (a vector fills s[1], s[2], ... once the sums are written out)
    for k in sorted(k for k, v in fixed.items() if not isinstance(v, Fraction) and k in fnode.symbols()):
        raise BoundcalcError(f"--set {k}: a list of values cannot follow the range of {k}[...] as {var} "
                             f"varies; give one number for every component (--set {k}=2), or fix the "
                             "range's symbols")
    free = sorted(n for n in fnode.symbols() if n in table)
    doms = {n: table[n].domain for n in free}
    ranges = {n: ranges_given[n] if n in ranges_given else doms[n].default_range()
              for n in free}
    on_box = {n: Domain(doms[n].integer, a, True, b, True) for n, (a, b) in ranges.items()}
    shown = {k: (str(float(a)), str(float(b))) for k, (a, b) in ranges.items()}
    # a verdict on the box the user did not give is about that box only, unless it is the domain
    box_scope = "box" if ranges_given else (
        "domain" if all(on_box[n] == doms[n] for n in free) else "default box")
    ctx = _Ctx(formula.id, var, node, fnode, table, fixed, ranges, shown, box_scope, seed, beyond=beyond_box,
               asked=_asked)
    if var not in fnode.symbols():
        return MonotoneResult(formula.id, var, "constant", "proved", "0",
                              f"the expression does not depend on {var}")
    if _has_big(node):
        # sums/products over layers: the fixed values enter the tree first (a scalar s stands
        # for every s[i]) and SymPy writes each sum/product in closed form where it can
        # (prod(2, i, 1, L) = 2**L), so that the derivative in L is one of the language
        expr, syms = to_sympy_with_domains(fnode, table)
        expr = expand_special(expr)
        syms.update({k: v for k, v in to_sympy_with_domains(node, table)[1].items() if k not in syms})
    else:
        expr, syms = to_sympy_with_domains(node, table)
    x = syms[var]
    try:
        deriv = sp.diff(expr, x)
        if fixed:
            deriv = deriv.subs({syms[k]: sp.Rational(v.numerator, v.denominator) for k, v in fixed.items()
                                if isinstance(v, Fraction) and k in syms})
    except Exception:          # SymPy cannot differentiate it: no derivative
        deriv = None
    if deriv is None or (not is_smooth_language(fnode) and _to_node(deriv) is None):
        # abs/floor/ceil/min/max that SymPy differentiates only into sign(), Heaviside or
        # Derivative(floor): no derivative, the structure and certified pairs instead
        return _nonsmooth(ctx, doms, on_box, samples)
    dstr = str(deriv)
    ctx.dstr = dstr
    relaxed = " (integer symbols relaxed to reals)" if any(d.integer for d in doms.values()) else ""
    open_note = ""          # continuity not established where the derivative's sign was
    claimed = None
    # 1. proof over the whole domain: SymPy sign rules, then the layers of .decide; the
    # derivative's sign proves monotonicity only together with continuity (no pole, jump or gap)
    # (a proof over the domain covers any box in it)
    sdoms = {n: table[n].domain for n in syms if n in table}
    sign = prove_sign(deriv.subs(domain_substitution(syms, sdoms)))
    how = None
    by_factors = ""
    if sign is None:
        sign = _sign_by_monotone_factors(deriv, syms, var, sdoms)
        by_factors = " (its factors: signs proved, or monotone factors signed at the domain's end)" if sign else ""
    if sign in ("positive", "nonnegative", "negative", "nonpositive"):
        claimed = "increasing" if sign in ("positive", "nonnegative") else "decreasing"
        how = f"d/d{var} is {sign} wherever f is defined (exact){by_factors}{relaxed}"
    elif sign == "zero":
        claimed, how = "constant", f"d/d{var} = 0 wherever f is defined"
    else:
        dnode = _to_node(deriv)
        if dnode is not None and dnode.symbols() and not ranges_given:
            from ..prover.decide import decide_relation
            ddoms = {n: table[n].domain for n in dnode.symbols() if n in table}
            for rel, verdict in ((">=", "increasing"), ("<=", "decreasing")):
                hyp = _defined_where(fnode)     # where f is defined: the derivative's sign there
                ddoms.update({n: table[n].domain for r_ in hyp for n in r_.symbols() if n in table})
                r = decide_relation(dnode, rel, Num(Fraction(0)), dict(ddoms), hyp, seconds=2.0, samples=300)
                if r.verdict is Verdict.PROVED:
                    claimed = verdict
                    how = f"d/d{var} {rel} 0 wherever f is defined: {r.text}{relaxed}"
                    break
    if claimed is not None:
        cont = continuity(fnode, var, dict(doms))
        if cont.ok:
            return MonotoneResult(formula.id, var, claimed, "proved", dstr,
                                  f"{how}; f is {cont.text()}")
        if not ranges_given:     # on a --box, the box itself is decided below
            open_note = f"{how}, but {cont.text()}"
        else:
            claimed = None
    # 2./3. on a box
    dnode = _to_node(deriv)
    if dnode is None:
        return _nonsmooth(ctx, doms, on_box, samples)
    from ..prover import sampling
    import numpy as np
    pts = sampling.sample(doms, samples, seed, {k: (float(a), float(b)) for k, (a, b) in ranges.items()})
    with np.errstate(all="ignore"):
        dv = sampling.values(dnode.map(lambda n: Num(fixed[n.name]) if isinstance(n, Sym) and n.name in fixed
                                       else None), pts)
    finite = np.isfinite(dv)
    with np.errstate(all="ignore"):      # only where f itself is defined
        finite &= np.isfinite(np.asarray(sampling.values(fnode, pts), dtype=float))
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
    if not vals:
        return MonotoneResult(formula.id, var, "unknown", "none", dstr,
                              "the derivative could not be evaluated on the box", shown)
    verdict = "increasing" if (pos or not neg) else "decreasing"
    if claimed in ("increasing", "decreasing"):
        verdict = claimed
    # the layers of .decide on the box (bounded: interval branch-and-bound, SMT per piece)
    from ..prover.decide import decide_relation
    bdoms = {n: on_box[n] for n in dnode.symbols() if n in on_box}
    if not open_note:
        if dnode.symbols():
            hyp = _defined_where(fnode)
            bdoms.update({n: on_box[n] for r_ in hyp for n in r_.symbols() if n in on_box})
            dec = decide_relation(dnode, ">=" if verdict == Direction.INCREASING else "<=", Num(Fraction(0)), bdoms,
                                  hyp, seconds=3.0, samples=300)
            sign_shown, sign_how = dec.verdict is Verdict.PROVED, dec.text
        else:                  # a constant derivative: its sign in ball arithmetic
            sg = mpb.decide_sign(dnode, {})
            sign_shown = sg is not None and (sg >= 0 if verdict == Direction.INCREASING else sg <= 0)
            sign_how = "constant, ball arithmetic"
        if sign_shown:
            how = f"d/d{var} {'>=' if verdict == Direction.INCREASING else '<='} 0 on the whole box: {sign_how}"
            cont = continuity(fnode, var, dict(on_box))
            if cont.ok:
                return ctx.result(verdict, "certified", f"{how}; f is {cont.text()}")
            open_note = f"{how}, but {cont.text()}"
    if open_note:
        return _across_breaks(ctx, verdict, open_note, pos if verdict == Direction.INCREASING else neg)
    # the sampled direction is not proved, but one certified pair in that direction refutes
    # the OPPOSITE claim (a function that rises somewhere is not decreasing)
    rising = verdict == Direction.INCREASING
    pair = next((c for c in (_counterexample(node, var, e, table, rising=rising)
                             for e in (pos if rising else neg)[:5]) if c), None)
    ce = {("increasing_pair" if rising else "decreasing_pair"): pair} if pair else None
    return ctx.result(verdict, "sampled",
                      f"d/d{var} kept one sign at {len(vals)} random points of the box "
                      "(not proved, not certified)"
                      + (f"; f {'rises' if rising else 'falls'} between a certified pair of points, so it is "
                         f"not {'decreasing' if rising else 'increasing'}" if pair else ""), ce)


@dataclass
class _Ctx:
    id: str
    var: str
    node: Node              # f (fixed symbols still symbols)
    fnode: Node             # f with the fixed values substituted
    table: dict
    fixed: dict
    ranges: dict
    shown: dict
    box_scope: str          # what a verdict on the box is about: box | default box | domain
    seed: int
    dstr: str = "(not used)"
    beyond: bool = True     # test a default-box verdict beyond the box
    asked: str = ""         # the unbounded range asked about ('' = the domain)

    def widened(self) -> _Ctx:
        from dataclasses import replace
        d = self.table[self.var].domain
        return replace(self, ranges={**self.ranges, self.var: _widen(d, *self.ranges[self.var])})

    def result(self, verdict, evidence, detail, ce=None) -> MonotoneResult:
        """A verdict established on the box: about the box (--box), the domain (the box is the
        domain), or the default box only — then the verdict word says so."""
        scope = self.box_scope
        if scope == "default box" and verdict in (Direction.INCREASING, Direction.DECREASING) and self.beyond:
            # beyond the default box: a certified pair moving the other way settles the domain
            rising = verdict == Direction.INCREASING
            far = _pair_search(self.widened(), rising=not rising)
            if far:
                near = _pair_search(self, rising=rising)
                if near:
                    return MonotoneResult(
                        self.id, self.var, "neither", "counterexample", self.dstr,
                        f"{detail}; but beyond the default box f {'falls' if rising else 'rises'} between a "
                        "certified pair of points: over the whole domain it is neither", self.shown,
                        {("increasing_pair" if rising else "decreasing_pair"): near,
                         ("decreasing_pair" if rising else "increasing_pair"): far})
        word = verdict + (" on the default box only" if scope == "default box"
                          and verdict in _MONOTONE else "")
        if scope == "default box" and verdict in _MONOTONE:
            whole = f"the whole range {self.asked}" if self.asked else f"{self.var}'s whole domain"
            detail += (f"; this holds on the default box only, NOT shown on {whole} "
                       "(give --box to choose the box)")
        return MonotoneResult(self.id, self.var, word, evidence, self.dstr, detail, self.shown, ce,
                              scope=scope if verdict in _MONOTONE else "domain", asked=self.asked)


def _on_unbounded(formula, var, box, unbounded, fixed, samples, seed, beyond_box) -> MonotoneResult:
    """:func:`monotone` with box sides that have an infinite end: each such symbol's domain
    is cut to its range (:func:`~boundcalc.expr.domains.search_range`, the same rule as
    ``require --from/--to``) and the question is asked of the cut domain, so that a proof
    'on the domain' is a proof on the whole unbounded range; the result says which range
    was asked (``asked``) and covers the box (scope ``box``) only when it was decided on it."""
    from dataclasses import replace
    from ..expr.numbers import fmt_exact
    table = dict(formula.symbol_table)
    node = formula.expr
    syms = (sub(node.rhs, node.lhs) if isinstance(node, Rel) else node).symbols()
    asked, ends = [], {}
    for n, v in unbounded.items():
        if n not in table or n not in syms:
            raise BoundcalcError(f"--box {n}: {n!r} is not a symbol of this formula")
        if n in (fixed or {}):
            raise BoundcalcError(f"--box {n}: {n} is also fixed by --set")
        if len(v) != 2:
            raise BoundcalcError(f"--box {n}: expected lo:hi, got {v!r}")
        dom, label = search_range(n, table[n].domain, v[0], v[1], where=f"--box {n}")
        table[n] = table[n].with_domain(dom)
        asked.append(label)
        ends[n] = ("-inf" if dom.lo is None else fmt_exact(dom.lo), "inf" if dom.hi is None else fmt_exact(dom.hi))
    rest = {n: v for n, v in box.items() if n not in unbounded}
    r = monotone(Subject(formula.id, formula.expr, table), var, box=rest, fixed=fixed, samples=samples,
                 seed=seed, beyond_box=beyond_box, _asked="; ".join(asked))
    if r.scope == "domain":       # decided on the cut domain: that is the box asked about
        return replace(r, scope="box", box={**r.box, **ends}, asked="; ".join(asked))
    return replace(r, asked="; ".join(asked))


def _sign_by_monotone_factors(deriv, syms: dict, var: str, sdoms: dict) -> str | None:
    """The strict sign of a derivative in ``var`` alone over ``var``'s domain, from the factors
    of its ``together`` form: a factor's sign is proved by SymPy on the domain, or the factor
    is monotone in ``var`` (read from its expression tree with certified signs,
    :func:`.solve.trend`) and its sign, certified in ball arithmetic at a closed end of the
    domain, can only grow away from 0 inside it (non-decreasing and > 0 at the lower end;
    non-increasing and < 0 at the lower end; the mirror at an upper end). How ``log(n)/sqrt(n)``
    is shown decreasing on n >= 8: d/dn = (2 - log n)/(2 n^{3/2}), and 2 - log n falls from
    2 - log 8 < 0. 'positive' / 'negative', or None when a factor's sign is not shown."""
    x = syms.get(var)
    dom = sdoms.get(var)
    if x is None or dom is None or deriv.free_symbols != {x} or sp.count_ops(deriv) > 200:
        return None
    from .solve import trend
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


def _widen(d: Domain, lo: Fraction, hi: Fraction) -> tuple[Fraction, Fraction]:
    """The default box side stretched 10^4-fold toward each unbounded end of the domain."""
    w = max(hi - lo, Fraction(1)) * 10 ** 4
    return (lo - w if d.lo is None else lo), (hi + w if d.hi is None else hi)


def _defined_where(fnode) -> list:
    """The definedness conditions g > 0, g >= 0 of f (the one rule) as assumptions: the
    derivative's sign matters only where f is defined (g != 0 conditions are left out)."""
    from ..expr.singularities import definedness
    return [Rel(c.op, c.expr, Num(Fraction(0))) for c in definedness(fnode) if c.op in (">", ">=")
            and c.expr.symbols()]


def _to_node(deriv):
    try:
        return from_sympy(deriv)
    except Exception:          # a SymPy form the expression language cannot hold
        return None


def _nonsmooth(ctx: _Ctx, doms, on_box, samples) -> MonotoneResult:
    """abs/min/max/floor/ceil: no derivative. The structure first (compositions of monotone
    functions, certified signs: floor(100/n) is non-increasing), then certified pairs of
    points on the box (both directions: 'neither'), else a sampled verdict."""
    from .solve import trend
    var = ctx.var
    if set(ctx.fnode.symbols()) == {var}:
        scope_dom = on_box[var] if ctx.box_scope == "box" else doms[var]
        t = trend(ctx.fnode, var, {}, scope_dom)
        if t in (1, -1, 0):
            word = {1: "increasing", -1: "decreasing", 0: "constant"}[t]
            non = {1: "non-decreasing", -1: "non-increasing", 0: "constant"}[t]
            detail = (f"{non} in {var} (non-strict: floor/ceil/min/max/abs parts may be flat), read from "
                      "the structure: monotone functions (floor, ceil, exp, log, sqrt, ...) of monotone "
                      "arguments, signs certified in ball arithmetic; no derivative needed")
            if ctx.box_scope == "box":
                return MonotoneResult(ctx.id, var, word, "certified", "(not used)", detail, ctx.shown,
                                      scope="box")
            return MonotoneResult(ctx.id, var, word, "proved", "(not used)",
                                  detail + f" — for every {var} in its domain")
    up = _pair_search(ctx, rising=True)
    down = _pair_search(ctx, rising=False)
    if up and down:
        return MonotoneResult(ctx.id, var, "neither", "counterexample", ctx.dstr,
                              "f rises between one certified pair of points and falls between another "
                              "(values compared in ball arithmetic; no derivative needed)", ctx.shown,
                              {"increasing_pair": up, "decreasing_pair": down})
    if up or down:
        word = "increasing" if up else "decreasing"
        ce = {"increasing_pair": up} if up else {"decreasing_pair": down}
        return ctx.result(word, "sampled",
                          f"f only {'rose' if up else 'fell'} between sampled points of the box (not proved, "
                          f"not certified); a certified pair shows it is not "
                          f"{'decreasing' if up else 'increasing'}", ce)
    return MonotoneResult(ctx.id, var, "unknown", "none", ctx.dstr,
                          "no structure shows a direction and no certified pair of points moves", ctx.shown)


def _across_breaks(ctx: _Ctx, verdict: str, open_note: str, local_pts) -> MonotoneResult:
    """The derivative has one sign where f is defined, but continuity on the region is not
    established: look for a certified pair of points (across a pole or jump) that contradicts
    the direction; with a local pair in the direction it is 'neither', else only sampled."""
    rising = verdict == Direction.INCREASING
    contra = _pair_search(ctx, rising=not rising)
    local = next((c for c in (_counterexample(ctx.node, ctx.var, e, ctx.table, rising=rising)
                              for e in local_pts[:5]) if c), None) or _pair_search(ctx, rising=rising)
    if contra:
        ce = {("increasing_pair" if rising else "decreasing_pair"): local,
              ("decreasing_pair" if rising else "increasing_pair"): contra}
        ce = {k: v for k, v in ce.items() if v}
        return MonotoneResult(ctx.id, ctx.var, "neither" if local else "unknown",
                              "counterexample" if local else "none", ctx.dstr,
                              f"{open_note}; f {'falls' if rising else 'rises'} across it between a certified "
                              "pair of points" + (f", and {'rises' if rising else 'falls'} between another" if local else ""),
                              ctx.shown, ce)
    return ctx.result(verdict, "sampled",
                      f"{open_note}; no certified pair of points contradicts {verdict} on the box "
                      "(sampled, NOT a proof)")


def _pair_search(ctx: _Ctx, rising: bool, n: int = 96, tries: int = 6) -> dict | None:
    """A certified pair x_1 < x_2 of the variable (the other symbols at one sampled point of
    the box) where f rises (``rising``) or falls: candidates from sorted sample points of the
    box, poles and jumps included, each re-checked in ball arithmetic."""
    import numpy as np
    from ..prover import sampling
    var = ctx.var
    fr = {k: (float(a), float(b)) for k, (a, b) in ctx.ranges.items()}
    others = {k: ctx.table[k].domain for k in ctx.ranges if k != var}
    base = sampling.point(sampling.sample(others, 1, ctx.seed, fr), 0) if others else {}
    xs = sampling.sample({var: ctx.table[var].domain}, n, ctx.seed + 7, fr)[var]
    lo, hi = fr[var]
    xs = np.unique(np.concatenate([xs, np.linspace(lo, hi, n // 2)]))
    if ctx.table[var].domain.integer:
        xs = np.unique(np.round(xs))
    pts = {var: xs, **{k: np.full(len(xs), float(v)) for k, v in base.items()}}
    with np.errstate(all="ignore"):
        try:
            fv = np.asarray(sampling.values(ctx.fnode, pts), dtype=float)
        except (OverflowError, ZeroDivisionError, ValueError, TypeError):
            return None
    ok = np.flatnonzero(np.isfinite(fv))
    cands = []
    for i, j in itertools.pairwise(ok):
        d = fv[j] - fv[i]
        if (d > 0) if rising else (d < 0):
            cands.append((abs(d), i, j))
    cands.sort(reverse=True)
    for _, i, j in cands[:tries]:
        x0, x1 = Fraction(f"{float(xs[i]):.6g}"), Fraction(f"{float(xs[j]):.6g}")   # short, re-checked
        if not x0 < x1:
            x0, x1 = Fraction(repr(float(xs[i]))), Fraction(repr(float(xs[j])))
        if not (ctx.table[var].domain.contains(x0) and ctx.table[var].domain.contains(x1)):
            continue
        s = mpb.decide_sign(_diff_at(ctx.fnode, var, x0, x1), base)
        if s is not None and ((rising and s < 0) or (not rising and s > 0)):
            return _pair(ctx.fnode, var, base, x0, x1)
    return None


def _pair(node, var, at, x0, x1) -> dict:
    e0, e1 = dict(at), dict(at)
    e0[var], e1[var] = x0, x1
    f0 = mpb.evaluate(node, e0, digits=12)
    f1 = mpb.evaluate(node, e1, digits=12)
    return {"point": {k: str(v) for k, v in at.items() if k != var},
            f"{var}_1": str(x0), f"{var}_2": str(x1),
            "f_1": mpmath.nstr(f0, 12), "f_2": mpmath.nstr(f1, 12)}


def _fixed_values(given: dict, table: dict, fid: str) -> dict:
    """``--set`` values: exact numbers, or for an indexed symbol a list (``s=1,2,0.5``), each
    in its symbol's domain, the lists as long as their ranges (one-line errors)."""
    from ..registry.indexed import check_lengths
    from ..values import is_vector, vector_value
    out: dict = {}
    for k, v in given.items():
        if k not in table:
            raise BoundcalcError(f"unknown symbol {k!r} for {fid}")
        if table[k].is_indexed and is_vector(v):
            out[k] = vector_value(table[k], k, v)
            for x in out[k].values:
                table[k].domain.check(k, x)
        else:
            out[k] = parse_number(v, where=f"--set {k}")
            table[k].domain.check(k, out[k])
    check_lengths(table, out)
    return out


def _has_big(node: Node) -> bool:
    return any(isinstance(n, (BigOp, Indexed)) for n in node.unique_nodes())


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
        s = mpb.decide_sign(_diff_at(node, var, x0, x1), at)
        # f(x0) - f(x1) < 0 means f rises from x0 to x1 > x0
        if s is not None and ((rising and s < 0) or (not rising and s > 0)):
            return _pair(node, var, at, x0, x1)
        if table[var].domain.integer:
            break
    return None


def _diff_at(node, var, x0, x1):
    """f(x0) - f(x1) as one expression (var replaced by the two numbers)."""
    from ..expr.nodes import Num, substitute
    return sub(substitute(node, {var: Num(x0)}), substitute(node, {var: Num(x1)}))
