"""The sampled side of :func:`boundcalc.services.monotone.monotone`: f along the variable at
a design of points of the box (one NumPy evaluation), which only proposes; and pairs of
points differing only in the variable where f rises or falls, certified in ball
arithmetic, which refute a direction."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from ...backends import mp as mpb
from ...expr.domains import Domain
from ...expr.nodes import Node, sub
from ...mpmath_import import mpmath
from ...verdicts import Direction, MonotoneEvidence
from .result import _MONOTONE, _SAMPLED, MonotoneResult

SAMPLES = 400


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
                        self.id, self.var, Direction.NEITHER, MonotoneEvidence.COUNTEREXAMPLE, self.dstr,
                        f"{detail}; but beyond the default box f {'falls' if rising else 'rises'} between a "
                        "certified pair of points: over the whole domain it is neither", self.shown,
                        {("increasing_pair" if rising else "decreasing_pair"): near,
                         ("decreasing_pair" if rising else "increasing_pair"): far})
        if scope == "default box" and verdict in _MONOTONE:
            whole = f"the whole range {self.asked}" if self.asked else f"{self.var}'s whole domain"
            detail += (f"; this holds on the default box only, NOT shown on {whole} "
                       "(give --box to choose the box)")
        sampled = verdict in _SAMPLED
        return MonotoneResult(self.id, self.var, Direction(verdict), MonotoneEvidence(evidence), self.dstr, detail, self.shown, ce,
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

    from ...prover import sampling
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


def _pair(node, var, at, x0, x1) -> dict:
    e0, e1 = dict(at), dict(at)
    e0[var], e1[var] = x0, x1
    f0 = mpb.evaluate(node, e0, digits=12)
    f1 = mpb.evaluate(node, e1, digits=12)
    return {"point": {k: str(v) for k, v in at.items() if k != var},
            f"{var}_1": str(x0), f"{var}_2": str(x1),
            "f_1": mpmath.nstr(f0, 12), "f_2": mpmath.nstr(f1, 12)}


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
    from ...expr.nodes import Num, substitute
    return sub(substitute(node, {var: Num(x0)}), substitute(node, {var: Num(x1)}))


def _widen(d: Domain, lo: Fraction, hi: Fraction) -> tuple[Fraction, Fraction]:
    """The default box side stretched 10^4-fold toward each unbounded end of the domain."""
    w = max(hi - lo, Fraction(1)) * 10 ** 4
    return (lo - w if d.lo is None else lo), (hi + w if d.hi is None else hi)
