"""The hypotheses a check runs under: those of the results it covers (``[[hypotheses]]``
of the formula file, quoted from the paper) and the check's own ``assume`` entries
(each with a quoted ``reason``; one without is listed as such in the report).

Every counterexample, witness pair and vacuity point is searched inside them (they are
the ``extra`` relations of the shared decision procedure) and re-verified here,
independently, in ball arithmetic: :func:`status_at` says for each hypothesis whether
it holds at the point and by what margin. A point where a hypothesis fails makes a
finding "outside the hypotheses", never an error of the bound.
"""
from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction

from ...expr.nodes import Node, Num, Ref, Rel, Sym, sub, substitute
from ...expr.parser import parse
from ...registry.checks import CheckFields
from ...verdicts import Verdict

# the hypotheses that share no symbol with a check's expressions are left out (they
# constrain nothing the check evaluates); a hidden constant of the paper's (e.g. the
# constant of an Omega~) that occurs in a hypothesis but not in the check's own
# expressions is pinned at that constant's default; one the check's expressions share is
# the same constant, so it is left a symbol and quantified with them (a derivation pins or
# searches it in the hypotheses and the claim together; pinning it in the hypothesis alone
# would assume C = 1 there and prove or refute the claim for every other C)


# a hook on the hypotheses every check kind runs under (:func:`for_check`): None, or a
# function list[Hyp] -> list[Hyp] — a check re-run without its premises
# (:mod:`.premises`) or on a mutant of one (:mod:`.strength`: a hypothesis dropped, its
# bound moved)
HYP_HOOK: ContextVar = ContextVar("hyp_hook", default=None)


@dataclass
class Hyp:
    rel: Rel              # resolved, hidden constants pinned at their defaults
    text: str             # as written in the formula file
    origin: str           # "Prop. 3" (inherited) or "added by the check"
    quote: str            # the paper's words (inherited) or the check's reason ("" when none)
    source: str = ""
    pinned: str = ""      # "C_w = 1" when a hidden constant was pinned

    @property
    def where(self) -> str:
        """'Thm. 5' or 'Thm. 5, with C_w = 1' (a hidden constant pinned)."""
        return self.origin + (f", with {self.pinned}" if self.pinned else "")

    def to_json(self) -> dict:
        out = {"hypothesis": self.text, "from": self.origin}
        if self.quote:
            out["quote" if self.origin != "added by the check" else "reason"] = self.quote
        if self.source:
            out["source"] = self.source
        if self.pinned:
            out["with"] = self.pinned
        return out


def for_check(reg, paper, t: CheckFields, symbols: set[str] | None = None,
              free=None) -> list[Hyp]:
    """The hypotheses of the results ``t`` covers (those sharing a symbol with
    ``symbols``, all when None) followed by the check's own assumptions. A hidden constant
    in ``free`` (default: ``symbols``; a point's symbols for a caller that evaluates at
    one) is the check's own and stays a symbol; the others are pinned at their defaults."""
    keep = set(symbols or ()) if free is None else set(free)
    from .common import hidden_constants, pin
    covers = set(t.covers)
    found: list[tuple] = []
    for h in paper.hypotheses:
        if h.result not in covers:
            continue
        node = (reg.resolved(f"{h.expr.paper or paper.key}.{h.expr.name}") if isinstance(h.expr, Ref)
                else reg.resolve(h.expr, paper.key))      # a requirement named, or a relation
        if not isinstance(node, Rel):
            continue
        consts = {k: v for k, v in hidden_constants(reg, paper, node).items()
                  if k not in keep}
        pinned = ", ".join(f"{k} = {_num(v)}" for k, v in consts.items())
        found.append((h, Rel(node.op, pin(node.lhs, consts), pin(node.rhs, consts)), pinned))
    if symbols is not None:
        found = _linked(found, set(symbols))
    out: list[Hyp] = []
    for h, node, pinned in found:
        same = next((x for x in out if x.rel == node), None)
        if same is not None:                 # one relation stated by several results
            if h.result not in same.origin.split(", "):
                same.origin += f", {h.result}"
            continue
        out.append(Hyp(node, h.text, h.result, h.quote, h.source, pinned))
    if symbols is not None:
        out = _project(reg, paper, out, symbols)
    for a in t.assumptions:
        text, reason = a.expr, a.reason
        r = parse(text, where="assume")
        uses = set(t.used)
        # map() runs the lambda in this iteration: no late binding of `uses`
        r = r.map(lambda n: Ref(None, n.name) if isinstance(n, Sym) and n.name in uses else None)  # noqa: B023
        out.append(Hyp(reg.resolve(r, paper.key), text, "added by the check", reason))
    hook = HYP_HOOK.get()
    return out if hook is None else hook(out)


def _linked(found: list[tuple], symbols: set[str]) -> list[tuple]:
    """The hypotheses linked to the check's ``symbols``, directly or through other hypotheses'
    symbols (a1 <= a2, a2 <= a3 for a check in a1 and a3: both; keeping only those that share a
    symbol with the check would admit a1 > a3, a point outside the paper's hypotheses), in
    their order."""
    reach, kept = set(symbols), [False] * len(found)
    grew = True
    while grew:
        grew = False
        for i, (_, node, _) in enumerate(found):
            if not kept[i] and node.symbols() & reach:
                kept[i], grew = True, True
                reach |= node.symbols()
    return [f for f, k in zip(found, kept, strict=True) if k]


def _project(reg, paper, hyps: list[Hyp], symbols: set[str]) -> list[Hyp]:
    """Leave out a hypothesis 'f(s) >= rest' (or 'rest <= f(s)') whose symbol s occurs
    nowhere else (not in the check, not in another hypothesis), ranges up to infinity, and
    enters only through f(s) = s, sqrt(s), s**k (k > 0) or log(s): some s satisfies it
    whatever the other values (e.g. "H large enough"), so it constrains nothing the check
    evaluates. Sound: the check's statement is about the other symbols only."""
    out = []
    for i, h in enumerate(hyps):
        big = {">=": h.rel.lhs, ">": h.rel.lhs, "<=": h.rel.rhs, "<": h.rel.rhs}.get(h.rel.op)
        rest = {">=": h.rel.rhs, ">": h.rel.rhs, "<=": h.rel.lhs, "<": h.rel.lhs}.get(h.rel.op)
        if big is None or rest is None:           # == (a relation with no larger side)
            out.append(h)
            continue
        s_ = _grows_in(big)
        elsewhere = symbols.union(*(x.rel.symbols() for j, x in enumerate(hyps) if j != i))
        table = reg.symbol_table(h.rel, paper.key)
        if (s_ is not None and s_ not in elsewhere and s_ not in rest.symbols() and s_ in table
                and table[s_].domain.hi is None):
            continue
        out.append(h)
    return out


def _grows_in(node) -> str | None:
    """s when ``node`` is s, sqrt(s), s**k with k > 0, or log(s) (tends to +oo with s)."""
    from ...expr.nodes import Func, Pow
    from ...expr.nodes import Sym as S
    if isinstance(node, S):
        return node.name
    if isinstance(node, Func) and node.name in ("sqrt", "log") and len(node.args) == 1 and isinstance(node.args[0], S):
        return node.args[0].name
    if isinstance(node, Pow) and isinstance(node.base, S) and isinstance(node.exp, Num) and node.exp.value > 0:
        return node.base.name
    return None


def relations(hyps: list[Hyp]) -> list[Rel]:
    """The hypotheses as relations for the decision procedure, without the integrality
    ones (:func:`lattice`, ``floor(X) == X``): dropping a hypothesis only relaxes it, so a
    proof without them holds with them; every point a finding shows is checked against
    them exactly (:func:`status_at`), and a monotone check searches its pairs on their
    lattice (relations._lattice_pair)."""
    return [h.rel for h in hyps if lattice(h.rel) is None]


def lattice(rel) -> Node | None:
    """X when ``rel`` states that X is an integer, ``floor(X) == X`` (either order): the
    paper's integrality (deora2023: |R| = zeta T tokens, a whole number), else None."""
    from ...expr.nodes import Func
    if not isinstance(rel, Rel) or rel.op != "==":
        return None
    for a, b in ((rel.lhs, rel.rhs), (rel.rhs, rel.lhs)):
        if isinstance(a, Func) and a.name == "floor" and len(a.args) == 1 and a.args[0] == b:
            return b
    return None


def _lattice_holds(x: Node, pt: dict) -> bool | None:
    """Whether X is an integer at the exact point ``pt`` (None: not exact there)."""
    from ...expr.exact import NotExact, evaluate_exact
    try:
        v = evaluate_exact(x, pt)
    except (NotExact, ZeroDivisionError, ValueError, OverflowError):
        return None
    return v.denominator == 1


def add_domains(reg, paper, doms: dict, hyps: list[Hyp], skip=()) -> dict:
    """``doms`` with the declared domains of the hypotheses' symbols added (a symbol
    the check does not mention would otherwise default to nonnegative)."""
    from .common import domains
    for h in hyps:
        for n, d in domains(reg, paper, h.rel).items():
            if n not in skip:
                doms.setdefault(n, d)
    return doms


def status_at(hyps: list[Hyp], env: dict) -> list[dict]:
    """Each hypothesis at the point ``env`` (symbol -> number or exact decimal string),
    decided in ball arithmetic: ``holds`` True/False/None (undecided or not all of its
    symbols given), and the values of both sides."""
    from ...backends import mp as mpb
    from ...mpmath_import import mpmath
    pt = {k: _frac(v) for k, v in env.items() if _frac(v) is not None}
    out = []
    for h in hyps:
        row: dict[str, object] = {"hypothesis": h.text, "from": h.where}
        if not h.rel.symbols() <= pt.keys():
            row["holds"] = None
            row["why"] = "not all of its symbols are fixed at the point: " + ", ".join(
                sorted(h.rel.symbols() - pt.keys()))
            out.append(row)
            continue
        lat = lattice(h.rel)
        if lat is not None:                  # an integrality: decided exactly, not in balls
            holds = _lattice_holds(lat, pt)
            row["holds"] = holds
            try:
                row["lhs"] = mpmath.nstr(mpb.evaluate(lat, pt, digits=12), 8)
                row["rhs"] = {True: "an integer", False: "not an integer", None: "undecided"}[holds]
            except Exception:
                pass
            out.append(row)
            continue
        s = mpb.decide_sign(sub(h.rel.lhs, h.rel.rhs), pt)
        row["holds"] = None if s is None else {"<=": s <= 0, ">=": s >= 0, "<": s < 0, ">": s > 0,
                                               "==": s == 0}[h.rel.op]
        try:
            row["lhs"] = mpmath.nstr(mpb.evaluate(h.rel.lhs, pt, digits=12), 8)
            row["rhs"] = mpmath.nstr(mpb.evaluate(h.rel.rhs, pt, digits=12), 8)
        except Exception:          # a side too close to 0 to certify 12 digits: the sign decided it
            pass
        out.append(row)
    return out


def describe(rows: list[dict]) -> str:
    """'X holds (a <= b); Y fails (c > d)' for a finding's message."""
    def one(r):
        v = f" ({r['lhs']} vs {r['rhs']})" if "lhs" in r and "rhs" in r else ""
        state = {True: "holds", False: "FAILS", None: "undecided"}[r["holds"]]
        return f"{r['hypothesis']} [{r['from']}] {state}{v}"
    return "; ".join(one(r) for r in rows)


def failing(rows: list[dict]) -> list[dict]:
    return [r for r in rows if r["holds"] is False]


def pin_point(node: Node, env: dict) -> Node:
    return substitute(node, {k: Num(_frac(v)) for k, v in env.items() if _frac(v) is not None})


def _frac(v):
    if isinstance(v, Fraction):
        return v
    if isinstance(v, int):
        return Fraction(v)
    try:
        return Fraction(str(v))          # "1/100", "0.25", "3"
    except (ValueError, ZeroDivisionError):
        pass
    try:
        from ...expr.parser import parse_number
        return Fraction(parse_number(str(v)))
    except Exception:
        return None


def _num(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{float(v):g}"


def decide_within(a, rel: str, b, doms: dict, extra: list, inherited: int, *, statement: str, **kw):
    """The shared decision of ``a rel b`` where the hypotheses hold, ``extra`` being the
    inherited hypotheses (its first ``inherited`` relations) then the check's own
    assumptions. A proof under the check's own assumptions alone holds a fortiori under
    all, and is tried first (inherited hypotheses make the problem larger); anything
    else is decided under all of them, so that a counterexample satisfies every one."""
    from .common import decide
    if inherited:
        own = list(extra[inherited:])
        used = a.symbols() | b.symbols() | set().union(*(r.symbols() for r in own))
        r = decide(a, rel, b, {n: d for n, d in doms.items() if n in used}, own, statement=statement, **kw)
        if r.verdict is Verdict.PROVED:
            return r
        # then without the inherited relations that take a min/max (a requirement 'eta <= 1 ^
        # 1/rho ^ c' beside its term 'eta <= c' stated on its own): fewer, smaller relations,
        # and a proof under some of the hypotheses holds a fortiori under all of them
        plain = [x for x in extra[:inherited] if not _has_minmax(x)]
        if len(plain) < inherited:
            part = plain + own
            used = a.symbols() | b.symbols() | set().union(*(x.symbols() for x in part))
            r = decide(a, rel, b, {n: d for n, d in doms.items() if n in used}, part, statement=statement, **kw)
            if r.verdict is Verdict.PROVED:
                return r
    r = decide(a, rel, b, doms, extra, statement=statement, **kw)
    if r.verdict is Verdict.UNKNOWN and 2 <= inherited <= SINGLE_HYPOTHESES:
        # undecided under all of them together (a threshold of one step of a proof beside
        # another step's, both stated for the same result): each inherited hypothesis
        # alone with the check's own assumptions; a proof under one holds under all, a
        # counterexample is only ever taken from the decision under all of them
        for x in extra[:inherited]:
            part = [x, *extra[inherited:]]
            used = a.symbols() | b.symbols() | set().union(*(y.symbols() for y in part))
            r1 = decide(a, rel, b, {n: d for n, d in doms.items() if n in used}, part, statement=statement, **kw)
            if r1.verdict is Verdict.PROVED:
                return r1
    return r


# at most this many inherited hypotheses are tried one at a time after an undecided
# decision under all of them (:func:`decide_within`): a count, so the same work on any machine
SINGLE_HYPOTHESES = 4


def _has_minmax(rel) -> bool:
    from ...expr.nodes import Func
    return any(isinstance(n, Func) and n.name in ("min", "max") for n in rel.walk())


def inherited_count(hyps: list[Hyp]) -> int:
    return sum(h.origin != "added by the check" and lattice(h.rel) is None for h in hyps)   # as in relations()


# --------------------------------------------------------------------- search inside them
# work budget of :func:`search_inside` (counts, not seconds: the same points in every run)
INSIDE_SAMPLES = 4000       # random points of the domains
INSIDE_REPAIR = 200         # of which at most this many are moved onto the hypotheses
INSIDE_GRID = 48            # values tried along each coordinate
INSIDE_KEEP = 8             # candidates handed back for certification
INSIDE_PASSES = 2           # passes over the coordinates


def search_inside(node: Node, rel: str, doms: dict, extra: list[Rel], *, seed: int = 11) -> list[dict]:
    """Points (symbol -> Fraction) where ``node rel 0`` fails in floating point while
    every relation of ``extra`` holds: candidates for the caller to certify in ball
    arithmetic (nothing here is evidence).

    Why: a region where a claim fails *inside* the hypotheses can be a thin sliver along
    a hypothesis' boundary (deora2023's gap rises in zeta only near zeta = 1 with a small
    P > 0 that keeps gamma_attn >= gamma_*), which uniform sampling of the domains almost
    never hits, since a random point there breaks some hypothesis. So a sampled point
    where the claim fails but a hypothesis does not hold is *repaired*: moved along one
    coordinate at a time over a grid of its range (two passes over the coordinates) to the
    grid value that leaves the fewest hypotheses broken while the claim still fails there;
    a point with none broken is a candidate. An equality ``s == expr`` (``s`` a symbol)
    is imposed by setting ``s``. Budget: counts (:data:`INSIDE_SAMPLES`, ...), so the
    candidates do not depend on the machine's speed."""
    import numpy as np

    from ...prover.sampling import box_for, sample
    names = sorted(n for n in doms if n in node.symbols() | set().union(*(r.symbols() for r in extra)))
    if not names:
        return []
    split = _split_equalities(extra)
    if split is None:
        return []                   # an equality not of the form symbol == expression
    eqs, ineqs = split

    def evaluate(pts):
        """The claim's failure at each point, and how far the point is from the
        hypotheses (:func:`_inside_score`)."""
        return _inside_score(node, rel, eqs, ineqs, doms, names, pts)

    pts = sample({n: doms[n] for n in names}, INSIDE_SAMPLES, seed)
    score = evaluate(pts)
    found = [{n: pts[n][i] for n in names} for i in np.flatnonzero(score == 0)[:INSIDE_KEEP]]
    idx = np.flatnonzero(np.isfinite(score) & (score > 0))[:INSIDE_REPAIR]
    cur = {n: pts[n][idx].copy() for n in names}
    cur_s = score[idx].copy()
    fixed_by_eq = {name for name, _ in eqs}

    def move(coord, grids):
        """Each point to the value of its row of ``grids`` (k x G) that scores best, if better."""
        nonlocal cur, cur_s
        k, g = grids.shape
        rep = {n: np.repeat(cur[n], g) for n in names}
        rep[coord] = grids.reshape(-1)
        sc = evaluate(rep).reshape(k, g)
        best = sc.argmin(axis=1)
        new_s = sc[np.arange(k), best]
        better = new_s < cur_s
        for n in names:
            cur[n] = np.where(better, rep[n].reshape(k, g)[np.arange(k), best], cur[n])
        cur_s = np.where(better, new_s, cur_s)
        return best

    # coordinate passes: each point moves along one coordinate to the grid value that
    # leaves it closest to the hypotheses while the claim still fails there, then to the
    # best of a finer grid between that value's neighbours
    for _ in range(INSIDE_PASSES):
        for coord in names:
            if len(found) >= INSIDE_KEEP or not len(cur_s) or coord in fixed_by_eq:
                continue
            grid = _grid(*box_for(doms[coord]))
            if doms[coord].integer:
                grid = np.unique(np.round(grid))
            k = len(cur_s)
            j = move(coord, np.tile(grid, (k, 1)))
            if not doms[coord].integer and len(grid) > 2:
                lo_, hi_ = grid[np.maximum(j - 1, 0)], grid[np.minimum(j + 1, len(grid) - 1)]
                fine = (np.geomspace(lo_, hi_, INSIDE_GRID, axis=1) if (lo_ > 0).all()
                        else np.linspace(lo_, hi_, INSIDE_GRID, axis=1))
                move(coord, fine)
            for i in np.flatnonzero(cur_s == 0):
                if len(found) < INSIDE_KEEP:
                    found.append({n: cur[n][i] for n in names})
            keep = cur_s > 0
            cur = {n: x[keep] for n, x in cur.items()}
            cur_s = cur_s[keep]
    return _distinct_fractions(found)


def _split_equalities(extra: list[Rel]):
    """``extra`` split into its equalities ``symbol == expression`` (as pairs (symbol,
    expression): the symbol is set) and its other relations; None when an equality is not
    of that form."""
    eqs: list[tuple[str, Node]] = []          # symbol == expression: the symbol is set
    for r in extra:
        if r.op != "==":
            continue
        if isinstance(r.lhs, Sym) and r.lhs.name not in r.rhs.symbols():
            eqs.append((r.lhs.name, r.rhs))
        elif isinstance(r.rhs, Sym) and r.rhs.name not in r.lhs.symbols():
            eqs.append((r.rhs.name, r.lhs))
    eq_set = {id(r) for r in extra if r.op == "=="}
    ineqs = [r for r in extra if id(r) not in eq_set]
    if len(eqs) != len(eq_set):
        return None
    return eqs, ineqs


def _inside_score(node: Node, rel: str, eqs, ineqs, doms: dict, names, pts):
    """The claim's failure at each point of ``pts`` (symbol -> array; the symbols of the
    equalities ``eqs`` are set in it), and how far the point is from the hypotheses: the
    number broken (domain bounds included) plus, below 1, their relative shortfall (so
    that a move that breaks no fewer may still come closer); inf where the claim holds."""
    import numpy as np

    from ...prover.sampling import values
    for name, e in eqs:
        pts[name] = values(e, pts)
    with np.errstate(all="ignore"):
        g = values(node, pts)
        bad = {"<=": g > 0, "<": g >= 0, ">=": g < 0, ">": g <= 0}[rel] & np.isfinite(g)
        miss = np.zeros(len(g))
        short = np.zeros(len(g))
        for r in ineqs:
            lv, rv = values(r.lhs, pts), values(r.rhs, pts)
            holds = {"<=": lv <= rv, ">=": lv >= rv, "<": lv < rv, ">": lv > rv}[r.op]
            miss += ~holds
            gap = np.abs(lv - rv) / (np.abs(lv) + np.abs(rv) + 1e-300)
            short += np.where(holds, 0.0, np.nan_to_num(gap, nan=1.0))
        for name in names:
            miss += ~_in_domain(doms[name], pts[name])
    score = np.where(bad, miss + np.minimum(short, len(ineqs)) / (len(ineqs) + 1), np.inf)
    return score


def _distinct_fractions(found: list[dict]) -> list[dict]:
    """The points of ``found`` (symbol -> float) as exact Fractions, without repeats, in
    the order found."""
    out: list[dict] = []
    for p in found:                 # distinct points, in the order found
        q = {n: Fraction(repr(float(x))) for n, x in p.items()}
        if q not in out:
            out.append(q)
    return out


def _grid(lo: float, hi: float):
    """:data:`INSIDE_GRID` values over [lo, hi]: log-spaced on a wide positive range; from
    0, half of them evenly and half log-spaced down to 1e-12 hi (a hypothesis may leave only
    a narrow window of small values, like deora2023's P between two bounds of order 1e-5)."""
    import numpy as np
    if lo > 0 and hi / lo > 10:
        return np.geomspace(lo, hi, INSIDE_GRID)
    if lo == 0 and hi > 0:
        return np.unique(np.concatenate([np.linspace(lo, hi, INSIDE_GRID // 2),
                                         np.geomspace(hi * 1e-12, hi, INSIDE_GRID - INSIDE_GRID // 2)]))
    return np.linspace(lo, hi, INSIDE_GRID)


def _in_domain(d, x):
    import numpy as np
    ok = np.isfinite(x)
    if d.lo is not None:
        ok &= (x >= float(d.lo)) if d.lo_closed else (x > float(d.lo))
    if d.hi is not None:
        ok &= (x <= float(d.hi)) if d.hi_closed else (x < float(d.hi))
    if d.integer:
        ok &= x == np.round(x)
    return ok
