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
3. *sampled*: f is compared along the variable at the box's corners, its extremes (one
   symbol at an end, the others at the centre) and two scrambled Sobol designs
   (:func:`_scan`), and the derivative's sign is read there. Sampling names no direction:
   its verdict is ``no decrease found`` / ``no increase found`` / ``no change found`` "in N
   samples on BOX" (:data:`~boundcalc.verdicts.Direction` members whose ``leans`` says which
   way they point); a sample pair that moves against a direction is re-checked in ball
   arithmetic, and one certified pair each way makes the answer ``neither``.
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
from ..expr.nodes import BigOp, Indexed, Node, Num, Rel, sub
from ..expr.parser import parse_number
from ..expr.singularities import is_smooth_language
from .continuity import continuity
from ..prover.decide import check_defined_somewhere
from ..prover.symbolic import domain_substitution, prove_sign, to_sympy_with_domains
from ..verdicts import Direction, MonotoneEvidence, Verdict

# the verdicts that say how f moves (not neither / unknown)
_MONOTONE = (Direction.INCREASING, Direction.DECREASING, Direction.CONSTANT)
# what sampling says instead of a direction
_SAMPLED = (Direction.NO_DECREASE_FOUND, Direction.NO_INCREASE_FOUND, Direction.NO_CHANGE_FOUND)

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
    verdict: str                 # increasing | decreasing | constant | neither | unknown | no ... found
    evidence: str                # proved | certified | sampled | counterexample | none
    derivative: str
    detail: str
    box: dict = field(default_factory=dict)
    counterexample: dict | None = None
    scope: str = "domain"        # what the verdict covers: domain | box (--box) | default box
    asked: str = ""              # an unbounded --box asked about ('n in [8, +inf)'); '' = the domain
    samples: int = 0             # a sampled verdict: the points f was evaluated at
    setting: str = ""            # monotone --setting: the setting whose values fixed the others

    def __post_init__(self):
        object.__setattr__(self, "evidence", MonotoneEvidence(self.evidence))
        _ = self.direction              # the verdict word must start with a Direction

    @property
    def direction(self) -> Direction:
        """The verdict without its scope: increasing | decreasing | constant | neither | unknown."""
        return Direction(self.verdict.split(" on ")[0])

    def to_json(self) -> dict:
        from .. import formats
        return formats.call("json", self)

    def describe(self) -> str:
        """The verdict as ``monotone`` prints it (:mod:`boundcalc.reports.printers.text`)."""
        from .. import formats
        return formats.call("text", self)


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
               asked=_asked, samples=samples)
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
    open_note = ""          # continuity not established where the derivative's sign was
    # 1. proof over the whole domain (a proof over the domain covers any box in it)
    claimed, how = _sign_on_domain(deriv, syms, var, table, fnode, doms, try_decide=not ranges_given)
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
    ctx.dnode = dnode
    return _on_box(ctx, on_box, claimed, open_note)


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
    from ..prover.decide import decide_relation
    hyp = _defined_where(fnode)     # where f is defined: the derivative's sign there
    ddoms = {n: table[n].domain for n in dnode.symbols() if n in table}
    ddoms.update({n: table[n].domain for r_ in hyp for n in r_.symbols() if n in table})
    for rel, verdict in ((">=", "increasing"), ("<=", "decreasing")):
        r = decide_relation(dnode, rel, Num(Fraction(0)), dict(ddoms), hyp, seconds=2.0, samples=300)
        if r.verdict is Verdict.PROVED:
            return verdict, f"d/d{var} {rel} 0 wherever f is defined: {r.text}{relaxed}"
    return None, None


def _on_box(ctx: _Ctx, on_box: dict, claimed, open_note: str) -> MonotoneResult:
    """The box: the scan (:func:`_scan`) proposes, certified pairs refute, the layers of
    :mod:`.decide` certify the one direction no sample contradicted; else the verdict is
    sampled and names no direction (``no decrease found in N samples``)."""
    var = ctx.var
    scan = ctx.scan()
    if not scan.n:
        return MonotoneResult(ctx.id, var, "unknown", "none", ctx.dstr,
                              "f could not be evaluated at any point of the box", ctx.shown)
    if claimed is None and scan.rises and scan.falls:
        return _both_ways(ctx, scan)
    verdict = Direction(claimed) if claimed else (Direction.DECREASING if scan.falls else Direction.INCREASING)
    dnode = ctx.dnode
    assert dnode is not None            # set by monotone() before the box is examined
    if not open_note:
        # the layers of .decide on the box (bounded: interval branch-and-bound, SMT per piece)
        from ..prover.decide import decide_relation
        rel = ">=" if verdict is Direction.INCREASING else "<="
        if dnode.symbols():
            hyp = _defined_where(ctx.fnode)
            bdoms = {n: on_box[n] for n in dnode.symbols() if n in on_box}
            bdoms.update({n: on_box[n] for r_ in hyp for n in r_.symbols() if n in on_box})
            dec = decide_relation(dnode, rel, Num(Fraction(0)), bdoms, hyp, seconds=3.0, samples=300)
            sign_shown, sign_how = dec.verdict is Verdict.PROVED, dec.text
        else:                  # a constant derivative: its sign in ball arithmetic
            sg = mpb.decide_sign(dnode, {})
            sign_shown = sg is not None and (sg >= 0 if verdict is Direction.INCREASING else sg <= 0)
            sign_how = "constant, ball arithmetic"
        if sign_shown:
            how = f"d/d{var} {rel} 0 on the whole box: {sign_how}"
            cont = continuity(ctx.fnode, var, dict(on_box))
            if cont.ok:
                return ctx.result(verdict, "certified", f"{how}; f is {cont.text()}")
            open_note = f"{how}, but {cont.text()}"
    if open_note:
        return _across_breaks(ctx, verdict, open_note)
    if scan.rises and scan.falls:
        return _both_ways(ctx, scan)
    return _sampled(ctx, scan)


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
    samples: int = SAMPLES  # the size of the box's low-discrepancy design
    dnode: Node | None = None      # the derivative in the language (None: not used)
    memo: dict = field(default_factory=dict)   # the scan and its certified pairs, once each

    def widened(self) -> _Ctx:
        from dataclasses import replace
        d = self.table[self.var].domain
        return replace(self, ranges={**self.ranges, self.var: _widen(d, *self.ranges[self.var])}, memo={})

    def scan(self) -> _Scan:
        if "scan" not in self.memo:
            self.memo["scan"] = _scan(self)
        return self.memo["scan"]

    def pair(self, rising: bool) -> dict | None:
        """A certified pair x_1 < x_2 where f rises (``rising``) or falls, from the scan's
        candidates (None: none certified)."""
        if rising not in self.memo:
            self.memo[rising] = _certify(self, self.scan(), rising)
        return self.memo[rising]

    def result(self, verdict, evidence, detail, ce=None) -> MonotoneResult:
        """A verdict established on the box: about the box (--box), the domain (the box is the
        domain), or the default box only — then the verdict word says so."""
        scope = self.box_scope
        lean = Direction(verdict).leans
        if scope == "default box" and lean in (Direction.INCREASING, Direction.DECREASING) and self.beyond:
            # beyond the default box: a certified pair moving the other way settles the domain
            rising = lean is Direction.INCREASING
            far = self.widened().pair(rising=not rising)
            if far:
                near = self.pair(rising=rising)
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
        sampled = verdict in _SAMPLED
        return MonotoneResult(self.id, self.var, word, evidence, self.dstr, detail, self.shown, ce,
                              scope=scope if verdict in _MONOTONE or sampled else "domain", asked=self.asked,
                              samples=self.scan().n if sampled else 0)


@dataclass(frozen=True)
class _Scan:
    """f along the variable at the design's points: ``n`` finite values; ``rises`` /
    ``falls``: candidate pairs (relative size, base point, x_1, x_2), largest first;
    ``local_up`` / ``local_down``: points where the derivative is > 0 / < 0."""
    n: int
    rises: list
    falls: list
    local_up: list
    local_down: list
    how: str
    counts: tuple = (0, 0)      # neighbouring values that rose, fell


GRID = 64           # values of the variable per point of the design (and as many geometric ones)
CORNERS = 128       # at most this many corners of the other symbols' box


def _design(names: list, fr: dict, doms: dict, seed: int, samples: int) -> tuple[dict, str]:
    """Points of the other symbols' box: its corners (at most :data:`CORNERS`, random ones
    beyond), its extremes (one symbol at an end, the others at the centre), the centre, and
    two scrambled Sobol designs of about ``samples / 2`` points each (one uniform, one
    log-uniform on a wide positive side), rounded on integer domains."""
    import numpy as np
    from scipy.stats import qmc
    k = len(names)
    if not k:
        return {}, "no other symbol"
    lo = np.array([fr[n][0] for n in names])
    hi = np.array([fr[n][1] for n in names])
    wide = (lo > 0) & (hi > 10 * lo)
    mid = np.where(wide, np.sqrt(np.abs(lo * hi)), (lo + hi) / 2)
    rng = np.random.default_rng(seed)
    bits = (np.arange(2 ** k)[:, None] >> np.arange(k)) & 1 if k <= 7 else rng.integers(0, 2, (CORNERS, k))
    corners = np.where(bits, hi, lo)
    ext = np.repeat(mid[None, :], 2 * k, axis=0)
    for i in range(k):
        ext[2 * i, i], ext[2 * i + 1, i] = lo[i], hi[i]
    m = max(4, math.ceil(math.log2(max(samples, 32) / 2)))
    u1 = qmc.Sobol(k, scramble=True, seed=seed).random_base2(m)
    u2 = qmc.Sobol(k, scramble=True, seed=seed + 1).random_base2(m)
    lin = lo + u1 * (hi - lo)
    with np.errstate(all="ignore"):
        logd = np.where(wide, np.exp(np.log(np.where(wide, lo, 1)) + u2 * np.log(np.where(wide, hi / lo, 1))),
                        lo + u2 * (hi - lo))
    rows = np.vstack([corners, ext, mid[None, :], lin, logd])
    for i, n in enumerate(names):
        if doms[n].integer:
            rows[:, i] = np.clip(np.round(rows[:, i]), np.ceil(lo[i]), np.floor(hi[i]))
    rows = np.unique(rows, axis=0)
    how = (f"{len(corners)} corners, {2 * k} extremes, the centre and {2 * 2 ** m} Sobol points of "
           f"{', '.join(names)}")
    return {n: rows[:, i] for i, n in enumerate(names)}, how


def _grid(lo: float, hi: float, dom: Domain):
    """The variable's values: both ends, GRID evenly spaced and GRID geometric ones on a
    wide positive side; every integer of a short integer side."""
    import numpy as np
    xs = np.linspace(lo, hi, GRID)
    if lo > 0 and hi > 10 * lo:
        xs = np.concatenate([xs, np.geomspace(lo, hi, GRID)])
    if dom.integer:
        a, b = math.ceil(lo), math.floor(hi)
        xs = np.arange(a, b + 1, dtype=float) if b - a < 2 * GRID else np.round(xs)
        xs = np.clip(xs, a, b)
    return np.unique(xs)


def _scan(ctx: _Ctx) -> _Scan:
    """f at every value of the variable's grid for every point of the design (one NumPy
    evaluation), and the derivative's sign there: neighbouring values that rise or fall are
    candidate pairs, re-checked in ball arithmetic by :func:`_certify`. Proposes only."""
    import numpy as np
    from ..prover import sampling
    var = ctx.var
    fr = {k: (float(a), float(b)) for k, (a, b) in ctx.ranges.items()}
    names = sorted(k for k in fr if k != var)
    rows, how = _design(names, fr, {k: ctx.table[k].domain for k in names}, ctx.seed, ctx.samples)
    xs = _grid(*fr[var], ctx.table[var].domain)
    p = len(rows[names[0]]) if names else 1
    g = len(xs)
    pts = {var: np.tile(xs, p), **{k: np.repeat(v, g) for k, v in rows.items()}}

    def at(node):
        with np.errstate(all="ignore"):
            try:
                return np.asarray(sampling.values(node, pts), dtype=float).reshape(p, g)
            except (OverflowError, ZeroDivisionError, ValueError, TypeError, KeyError):
                return np.full((p, g), np.nan)

    fv = at(ctx.fnode)
    fin = np.isfinite(fv)
    ok = fin[:, 1:] & fin[:, :-1]
    with np.errstate(all="ignore"):
        d = np.where(ok, fv[:, 1:] - fv[:, :-1], 0.0)
        scale = np.where(ok, np.maximum(np.abs(fv[:, 1:]), np.abs(fv[:, :-1])), 0.0)
        rel = np.where(scale > 0, np.abs(d) / np.where(scale > 0, scale, 1.0), 0.0)
    moved = rel > 1e-12                  # beyond float noise

    def cands(mask):
        idx = np.argwhere(mask)
        order = np.argsort(-rel[mask], kind="stable")
        return [(float(rel[i, j]), {k: float(rows[k][i]) for k in names}, float(xs[j]), float(xs[j + 1]))
                for i, j in idx[order][:64]]

    local_up: list[dict] = []
    local_down: list[dict] = []
    if ctx.dnode is not None:
        dv = at(ctx.dnode)
        for sign, out in ((1, local_up), (-1, local_down)):
            for i, j in np.argwhere(fin & np.isfinite(dv) & (np.sign(dv) == sign))[:8]:
                out.append({**{k: float(rows[k][i]) for k in names}, var: float(xs[j])})
    return _Scan(int(fin.sum()), cands(moved & (d > 0)), cands(moved & (d < 0)),
                 local_up, local_down, f"{g} values of {var} at each of {p} points: {how}",
                 (int((moved & (d > 0)).sum()), int((moved & (d < 0)).sum())))


def _frac(x: float) -> Fraction:
    """A short rational for a sampled double (re-checked wherever it is used)."""
    return Fraction(f"{x:.6g}")


def _certify(ctx: _Ctx, scan: _Scan, rising: bool, tries: int = 6) -> dict | None:
    """A pair of the scan where f rises (``rising``) or falls, certified in ball arithmetic:
    the largest moves first (from distinct base points), then the points where the
    derivative has that sign (a small step, :func:`_counterexample`)."""
    var, dom = ctx.var, ctx.table[ctx.var].domain
    seen: set = set()
    tried = 0
    for _, base, a, b in (scan.rises if rising else scan.falls):
        key = tuple(sorted(base.items()))
        if key in seen:
            continue
        seen.add(key)
        tried += 1
        if tried > tries:
            break
        at = {k: (_frac(v) if ctx.table[k].domain.contains(_frac(v)) else Fraction(repr(v))) for k, v in base.items()}
        x0, x1 = _frac(a), _frac(b)
        if not x0 < x1:
            x0, x1 = Fraction(repr(a)), Fraction(repr(b))
        if not (dom.contains(x0) and dom.contains(x1)) or not all(ctx.table[k].domain.contains(v)
                                                                   for k, v in at.items()):
            continue
        s = mpb.decide_sign(_diff_at(ctx.fnode, var, x0, x1), at)
        if s is not None and ((rising and s < 0) or (not rising and s > 0)):
            return _pair(ctx.fnode, var, at, x0, x1)
    for e in (scan.local_up if rising else scan.local_down)[:5]:
        at = {k: Fraction(repr(v)) for k, v in e.items()}
        c = _counterexample(ctx.fnode, var, at, ctx.table, rising=rising)
        if c:
            return c
    return None


def _both_ways(ctx: _Ctx, scan: _Scan) -> MonotoneResult:
    """The samples rose and fell: 'neither' when a certified pair shows each direction,
    else unknown (sampled), with the pair that was certified."""
    up, down = ctx.pair(rising=True), ctx.pair(rising=False)
    counts = (f"{scan.counts[0]} rising and {scan.counts[1]} falling neighbouring pairs among {scan.n} samples "
              f"on the box ({scan.how})")
    if up and down:
        return MonotoneResult(ctx.id, ctx.var, "neither", "counterexample", ctx.dstr,
                              "f rises between one certified pair of points and falls between another "
                              f"(values compared in ball arithmetic); {counts}", ctx.shown,
                              {"increasing_pair": up, "decreasing_pair": down})
    ce = {k: v for k, v in (("increasing_pair", up), ("decreasing_pair", down)) if v} or None
    shown = (f"; a certified pair shows it is not {'decreasing' if up else 'increasing'}" if ce else "")
    return MonotoneResult(ctx.id, ctx.var, "unknown", "sampled", ctx.dstr,
                          f"f rose and fell between sampled points ({counts}), but ball arithmetic did not "
                          f"certify a pair each way{shown}", ctx.shown, ce)


def _sampled(ctx: _Ctx, scan: _Scan) -> MonotoneResult:
    """Only one way (or no way) seen in the samples: 'no decrease found in N samples'
    (never a direction), with a certified pair in the way f moved where one is found."""
    if scan.falls or scan.local_down:
        word, rising = Direction.NO_INCREASE_FOUND, False
    elif scan.rises or scan.local_up:
        word, rising = Direction.NO_DECREASE_FOUND, True
    else:
        word, rising = Direction.NO_CHANGE_FOUND, None
    pair = ctx.pair(rising) if rising is not None else None
    ce = {("increasing_pair" if rising else "decreasing_pair"): pair} if pair else None
    return ctx.result(word, "sampled",
                      f"{word} in {scan.n} samples on the box ({scan.how}); not proved, not certified"
                      + (f"; f {'rises' if rising else 'falls'} between a certified pair of points, so it is "
                         f"not {'decreasing' if rising else 'increasing'}" if pair else ""), ce)


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


SYMPY_SECONDS = 4.0     # SymPy's sign rules on one derivative (factoring can run for minutes)


def _bounded(step):
    """``step()`` under a CPU-time limit (where one can be set, :func:`.budget.time_limit`);
    None (not proved) when it runs out."""
    from ..prover.budget import Timeout, time_limit
    try:
        with time_limit(SYMPY_SECONDS):
            return step()
    except Timeout:
        return None


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
    scan = ctx.scan()
    if not scan.n:
        return MonotoneResult(ctx.id, var, "unknown", "none", ctx.dstr,
                              "f could not be evaluated at any point of the box", ctx.shown)
    if scan.rises and scan.falls:
        return _both_ways(ctx, scan)
    return _sampled(ctx, scan)


def _across_breaks(ctx: _Ctx, verdict: Direction, open_note: str) -> MonotoneResult:
    """The derivative has one sign where f is defined, but continuity on the region is not
    established: look for a certified pair of points (across a pole or jump) that contradicts
    the direction; with a pair in the direction it is 'neither', else only sampled."""
    rising = verdict is Direction.INCREASING
    contra = ctx.pair(rising=not rising)
    local = ctx.pair(rising=rising)
    if contra:
        ce = {("increasing_pair" if rising else "decreasing_pair"): local,
              ("decreasing_pair" if rising else "increasing_pair"): contra}
        ce = {k: v for k, v in ce.items() if v}
        return MonotoneResult(ctx.id, ctx.var, "neither" if local else "unknown",
                              "counterexample" if local else "none", ctx.dstr,
                              f"{open_note}; f {'falls' if rising else 'rises'} across it between a certified "
                              "pair of points" + (f", and {'rises' if rising else 'falls'} between another" if local else ""),
                              ctx.shown, ce)
    scan = ctx.scan()
    word = Direction.NO_DECREASE_FOUND if rising else Direction.NO_INCREASE_FOUND
    return ctx.result(word, "sampled",
                      f"{open_note}; {word} in {scan.n} samples on the box ({scan.how}): no certified pair "
                      f"contradicts {verdict} (sampled, NOT a proof)")


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
    from ..registry.values import is_vector, vector_value
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
