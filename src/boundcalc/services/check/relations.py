"""``compare``, ``restatement`` and ``monotone`` checks: a stated relation, two
statements of one result, a stated monotonicity — each decided by the shared decision
procedure, whose verdict names the layer that produced it."""
from __future__ import annotations

from fractions import Fraction

from ...expr.nodes import Rel, sub, substitute
from ...registry.checks import Compare, Monotone, Restatement
from ...verdicts import Direction, Grade, IntervalStatus, MonotoneEvidence, Verdict
from . import hypotheses
from .common import Finding, claim, decide, domains, expr, formula, formula_id, show, subst


def compare(reg, paper, t: Compare, f: Finding):
    uses = t.uses
    a, b = claim("lhs", expr(reg, paper, t.lhs, uses)), claim("rhs", expr(reg, paper, t.rhs, uses))
    f.sides = (a, t.rel, b)
    hyps = hypotheses.for_check(reg, paper, t, a.symbols() | b.symbols())
    doms = hypotheses.add_domains(reg, paper, domains(reg, paper, Rel("==", a, b)), hyps)
    if t.approximate is not None:
        return _approximate(t, f, a, b, doms, hyps)
    r = hypotheses.decide_within(a, t.rel, b, doms, hypotheses.relations(hyps), hypotheses.inherited_count(hyps),
                                 statement=f"{t.lhs} {t.rel} {t.rhs}")
    f.evidence = {"verdict": r.method, "counterexample": r.counterexample}
    if hyps:
        f.evidence["hypotheses"] = [h.to_json() for h in hyps]
    if r.verdict is Verdict.PROVED:
        f.message = f"holds [{r.method}]"
    elif r.verdict is Verdict.DISPROVED:
        f.grade(Grade.ERROR, "false as printed",
                f"does not hold: {t.lhs} {t.rel} {t.rhs} fails at a certified point [{r.method}]")
    else:
        f.grade(Grade.WARNING, "undecided", f"undecided: no proof, no counterexample [{r.method}]")


def restatement(reg, paper, t: Restatement, f: Finding):
    """``a`` and ``b`` are the same statement. ``substitute`` rewrites BOTH sides (a symbol is
    replaced wherever it occurs); ``substitute_a`` / ``substitute_b`` rewrite one side only
    (after ``substitute``): formulas/README.md, kind ``restatement``."""
    both = subst(reg, paper, t.substitute)
    a = claim("a", substitute(substitute(formula(reg, paper, t.a), both),
                              subst(reg, paper, t.substitute_a)))
    b = claim("b", substitute(substitute(formula(reg, paper, t.b), both),
                              subst(reg, paper, t.substitute_b)))
    if isinstance(a, Rel) and isinstance(b, Rel):
        a, b = sub(a.lhs, a.rhs), sub(b.lhs, b.rhs)
    f.evidence = {"a": show(a, reg, paper), "b": show(b, reg, paper)}
    f.sides = (a, "==", b)
    hyps = hypotheses.for_check(reg, paper, t, a.symbols() | b.symbols())
    if hyps:
        f.evidence["hypotheses"] = [h.to_json() for h in hyps]
    doms = hypotheses.add_domains(reg, paper, domains(reg, paper, Rel("==", a, b)), hyps)
    r = hypotheses.decide_within(a, "==", b, doms, hypotheses.relations(hyps), hypotheses.inherited_count(hyps),
                                 statement=f"{t.a} == {t.b}")
    f.evidence["verdict"] = r.method
    if r.verdict is Verdict.PROVED:
        f.message = f"the two statements are identical [{r.method}]"
    elif r.verdict is Verdict.DISPROVED:
        f.evidence["counterexample"] = r.counterexample
        f.grade(Grade.ERROR, "false as printed",
                f"the restatements differ: {t.a} and {t.b} give different values [{r.method}]")
    else:
        f.grade(Grade.WARNING, "undecided", f"undecided: could not decide whether the two statements agree "
                                        f"[{r.method}]")


def monotone(reg, paper, t: Monotone, f: Finding):
    from ..monotone import Subject
    from ..monotone import monotone as run
    fid = formula_id(paper, t.formula)
    box = {k: (str(v[0]), str(v[1])) for k, v in t.box.items()}
    node = claim("formula", formula(reg, paper, t.formula))
    hyps = hypotheses.for_check(reg, paper, t, node.symbols())
    want = {"nondecreasing": "increasing", "nonincreasing": "decreasing"}.get(t.claim, t.claim)
    r = None
    # a certificate on the box, unless some hypothesis fails on the whole box (the result is
    # not stated there: reported as outside the hypotheses below, never as a pass)
    cert = _certified_on_box(node, t, want) if box and not (hyps and _within(reg, paper, t, node, hyps, box)[3]) \
        else None
    if cert is not None:
        # shown on the whole box, so wherever the hypotheses hold in it too
        f.evidence = {"verdict": want, "evidence": "certified", "derivative": show(cert["derivative"], reg, paper),
                      "box": {k: list(v) for k, v in box.items()}, "scope": "box", "layer": "interval",
                      "how": cert["how"]}
        if hyps:
            f.evidence["hypotheses"] = [h.to_json() for h in hyps]
        f.message = f"stated {want} in {t.var}: certified on the box ({cert['how']})"
        return
    if not [h for h in hyps if h.origin == "added by the check"]:
        r = run(Subject(fid, node, reg.symbol_table(fid)), t.var, box=box, fixed=t.fixed)
    if hyps and (r is None or r.direction != want or r.scope == "default box"
                 or r.evidence not in (MonotoneEvidence.PROVED, MonotoneEvidence.CERTIFIED)):
        # not shown over the whole range: decided where the hypotheses hold
        return _monotone_within(reg, paper, t, f, node, hyps, box)
    # without hypotheses none was added by the check, so monotone ran
    assert r is not None
    f.evidence = {"verdict": r.verdict, "evidence": r.evidence, "derivative": r.derivative, "box": r.box,
                  "counterexample": r.counterexample, "scope": r.scope}
    if hyps:                   # shown over the whole range, so where the hypotheses hold too
        f.evidence["hypotheses"] = [h.to_json() for h in hyps]
    layer = getattr(r, "layer", None)
    if layer:
        f.evidence["layer"] = layer
    _grade_monotone(f, r, want, t.var)


def _grade_monotone(f: Finding, r, want: str, var: str) -> None:
    """Grade a monotone check from the result ``r`` of :func:`boundcalc.services.monotone.monotone`
    over the whole range (no hypotheses, or shown there)."""
    if r.direction.leans == want:
        if r.evidence is MonotoneEvidence.SAMPLED:     # 'no decrease found in N samples': graded as sampled
            f.grade(Grade.NOTE, "sampled only", f"stated {want} in {var}: only sampled, {r.direction} in "
                                                f"{r.samples} samples (no proof, no certificate)")
        elif r.scope == "default box":
            f.grade(Grade.NOTE, "default box only", f"stated {want} in {var}: {r.evidence} on the default box "
                                                f"{r.box} only, not on the whole domain")
        else:
            f.message = f"stated {want} in {var}: {r.evidence}"
    elif r.scope != "default box" and r.direction is not Direction.UNKNOWN \
            and r.evidence in (MonotoneEvidence.PROVED, MonotoneEvidence.CERTIFIED, MonotoneEvidence.COUNTEREXAMPLE):
        f.grade(Grade.ERROR, "false as printed", f"stated {want} in {var}, but it is {r.direction} ({r.evidence})")
    elif (r.counterexample or {}).get({"decreasing": "increasing_pair", "increasing": "decreasing_pair"}.get(want, "")):
        pair = (r.counterexample or {})[{"decreasing": "increasing_pair", "increasing": "decreasing_pair"}[want]]
        v = var
        f.grade(Grade.ERROR, "false as printed",
                f"stated {want} in {v}, but f {'rises' if want == 'decreasing' else 'falls'} from "
                f"{v} = {pair[v + '_1']} to {pair[v + '_2']} (f: {pair['f_1']} -> {pair['f_2']}, compared in "
                f"ball arithmetic); elsewhere {r.verdict} ({r.evidence})")
    else:
        f.grade(Grade.WARNING, "undecided", f"stated {want} in {var}: not confirmed ({r.verdict}, {r.evidence})")


def _monotone_within(reg, paper, t, f: Finding, node, hyps, box):
    """A stated monotonicity under the hypotheses of the results the check covers: the
    sign of the derivative decided by the shared procedure with the hypotheses as
    assumptions; a refutation is a pair of points differing only in the variable, both
    inside the hypotheses (re-verified in ball arithmetic), where f moves the wrong way."""
    from fractions import Fraction

    from ...backends.sym import from_sympy, to_sympy
    from ...expr.nodes import Num
    v = t.var
    want = {"nondecreasing": "increasing", "nonincreasing": "decreasing"}.get(t.claim, t.claim)
    node, hyps, extra, doms, nowhere = _within(reg, paper, t, node, hyps, box)
    if nowhere:
        f.evidence = {"hypotheses": [h.to_json() for h in hyps], "outside": nowhere}
        f.grade(Grade.NOTE, "outside the hypotheses",
                "outside the hypotheses: " + "; ".join(f"{x['hypothesis']} [{x['from']}] fails at every point of "
                                                       f"the check's range ({x['verdict']})" for x in nowhere)
                + f" — the result is not stated there, so its monotonicity in {v} there is not the paper's claim")
        return
    deriv = from_sympy(to_sympy(node, {}).diff(to_sympy(_sym(v), {})))
    f.evidence = {"hypotheses": [h.to_json() for h in hyps], "derivative": show(deriv, reg, paper)}
    rel = "<=" if want == "decreasing" else ">="
    r = decide(deriv, rel, Num(Fraction(0)), dict(doms), extra,
               statement=f"d/d{v} {rel} 0 within the hypotheses")
    f.evidence["verdict"] = r.method
    if r.verdict is Verdict.PROVED:
        f.message = f"stated {want} in {v}: d/d{v} {rel} 0 wherever the hypotheses hold [{r.method}]"
        return
    table = reg.symbol_table(node, paper.key)

    def completed(at):
        at = dict(at)
        for n in sorted(node.symbols() - at.keys()):     # absent from the derivative: any value in the domain
            at[n] = _inside(doms.get(n), table[n].default if n in table else None)
        return at

    lat = _lattice_step(node, v, hyps)
    if lat is not None:
        # an integrality of the paper on v (zeta T tokens, a whole number): the pairs are
        # two neighbouring points of its lattice, v = k/c and (k + 1)/c, both inside every
        # hypothesis; the derivative's counterexample (on the continuum) is only a start
        starts = [] if r.verdict is not Verdict.DISPROVED else [
            completed({k: hypotheses._frac(x) for k, x in r.counterexample.items() if k not in ("lhs", "rhs")})]
        pair, how = _lattice_pair(node, v, lat, starts, doms, hyps, extra, completed, rising=want == "decreasing")
        if pair is not None:
            f.evidence["counterexample"] = {"found_by": how, "pair": pair}
            f.evidence["verdict"] += "; refuted by a certified pair of neighbouring lattice points inside the hypotheses"
            return _refuted(f, want, v, pair)
        f.grade(Grade.WARNING, "undecided", f"stated {want} in {v}: not decided within the hypotheses "
                                        f"[{r.method}]; no certified pair of neighbouring points of the lattice "
                                        f"{show(lat, reg, paper)} * {v} integer found inside them")
        return
    if r.verdict is not Verdict.DISPROVED:
        # the decision found no point; one inside a thin part of the hypotheses may still
        # exist: candidates moved onto them (hypotheses.search_inside), each certified as a pair
        for cand in hypotheses.search_inside(deriv, rel, doms, extra):
            at = completed(cand)
            pair = _pair_within(node, v, at, doms, hyps, extra, rising=want == "decreasing")
            if pair is not None:
                f.evidence["counterexample"] = {"derivative_at": {k: str(x) for k, x in at.items()},
                                                "found_by": "a sampled point moved onto the hypotheses",
                                                "pair": pair}
                f.evidence["verdict"] += "; refuted by a certified pair found inside the hypotheses"
                return _refuted(f, want, v, pair)
        f.grade(Grade.WARNING, "undecided", f"stated {want} in {v}: not decided within the hypotheses "
                                        f"[{r.method}]")
        return
    at = completed({k: hypotheses._frac(x) for k, x in r.counterexample.items() if k not in ("lhs", "rhs")})
    pair = _pair_within(node, v, at, doms, hyps, extra, rising=want == "decreasing")
    f.evidence["counterexample"] = {"derivative_at": {k: str(x) for k, x in at.items()},
                                    "derivative": r.counterexample.get("lhs")}
    if pair is None:
        f.grade(Grade.WARNING, "undecided",
                f"stated {want} in {v}: the derivative has the wrong sign at a point inside the hypotheses "
                f"[{r.method}], but no certified pair of points inside them was found")
        return
    f.evidence["counterexample"]["pair"] = pair
    _refuted(f, want, v, pair)


def _refuted(f: Finding, want: str, v: str, pair: dict) -> None:
    f.grade(Grade.ERROR, "false as printed",
            f"stated {want} in {v}, but within the hypotheses f {'rises' if want == 'decreasing' else 'falls'} "
            f"from {v} = {pair[v + '_1']} to {pair[v + '_2']} (f: {pair['f_1']} -> {pair['f_2']}, compared in "
            f"ball arithmetic); at both points: {hypotheses.describe(pair['hypotheses_1'])}")


# work budget of the box certification (:func:`_certified_on_box`): boxes of the interval
# layer per decision; its CPU limit is only a far safety net, so the verdict is the same on
# a loaded or an idle machine
BOX_BUDGET = 2000
BOX_SAFETY_SECONDS = 60.0


def _certified_on_box(node, t, want):
    """A stated monotonicity on a check's ``box`` (every free symbol of the formula, after
    ``fixed``, ranging over a closed bounded interval), certified by interval branch and bound
    alone — ball arithmetic, no SMT (no open end is reached) and no SymPy pruning — within
    :data:`BOX_BUDGET` boxes per decision: the sign of the derivative on the whole box, and
    continuity in the variable (each candidate break of :func:`singularities.breaks` shown
    absent the same way; a floor/ceil jump is not tried). A budget counted in boxes, not
    seconds: the same work decides it on any machine. None when it does not certify (the
    caller then runs the general procedure)."""
    from fractions import Fraction

    from ...backends.sym import from_sympy, to_sympy
    from ...expr.domains import Domain
    from ...expr.nodes import Mul, Num, Sym
    from ...expr.singularities import breaks
    from ...prover.interval import prove_interval
    v = t.var
    if want not in ("increasing", "decreasing"):
        return None
    fixed = {k: Fraction(str(x)) for k, x in (t.fixed or {}).items()}
    fnode = hypotheses.pin_point(sub(node.rhs, node.lhs) if isinstance(node, Rel) else node, fixed)
    box = {k: (Fraction(str(a)), Fraction(str(b))) for k, (a, b) in t.box.items()}
    free = fnode.symbols()
    if v not in free or not free <= box.keys() or any(a > b for a, b in box.values()):
        return None
    doms = {n: Domain(False, box[n][0], True, box[n][1], True) for n in sorted(free)}

    def proved(g, op) -> int | None:
        r = prove_interval(g, op, {n: doms[n] for n in sorted(g.symbols())}, [], seconds=BOX_SAFETY_SECONDS,
                           derivatives=False, max_boxes=BOX_BUDGET)
        return r.boxes if r.status is IntervalStatus.PROVED else None

    neg = lambda g: Mul((Num(Fraction(-1)), g))
    shown = []
    for c in breaks(fnode, v):
        if c.op == "jump" or not c.expr.symbols():
            return None
        k = (proved(c.expr, ">") or proved(neg(c.expr), ">")) if c.op == "!=" else proved(c.expr, c.op)
        if k is None:
            return None
        shown.append(k)
    deriv = from_sympy(to_sympy(fnode, {}).diff(to_sympy(Sym(v), {})))
    if not deriv.symbols():
        return None
    k = proved(deriv if want == "increasing" else neg(deriv), ">=")
    if k is None:
        return None
    rel = ">=" if want == "increasing" else "<="
    return {"derivative": deriv,
            "how": f"d/d{v} {rel} 0 on the whole box (interval, {k} boxes); f continuous in {v} there "
                   f"({len(shown)} break condition(s) shown absent, interval)"}


def _within(reg, paper, t, node, hyps, box):
    """The formula and the hypotheses with the check's ``fixed`` values pinned, their
    relations, the domains (with the ``box``), and the hypotheses that fail on all of them."""
    from dataclasses import replace
    from fractions import Fraction

    from ..verify import apply_box
    if isinstance(node, Rel):
        node = sub(node.rhs, node.lhs)
    fixed = {k: Fraction(str(x)) for k, x in (t.fixed or {}).items()}
    node = hypotheses.pin_point(node, fixed)
    hyps = [replace(h, rel=Rel(h.rel.op, hypotheses.pin_point(h.rel.lhs, fixed),
                               hypotheses.pin_point(h.rel.rhs, fixed))) for h in hyps]
    extra = hypotheses.relations(hyps)
    doms = hypotheses.add_domains(reg, paper, domains(reg, paper, node), hyps, skip=fixed)
    if box:
        doms = apply_box(doms, box)
    return node, hyps, extra, doms, _nowhere(hyps, extra, doms)


def _nowhere(hyps, extra, doms) -> list[dict]:
    """The hypotheses that fail at EVERY point of the check's range (their negation
    proved by the shared procedure over the domains, box and fixed values)."""
    neg = {"<=": ">", "<": ">=", ">=": "<", ">": "<="}
    out = []
    for h in hyps:
        r = h.rel
        if hypotheses.lattice(r) is not None or r.op not in neg or not r.symbols() <= doms.keys():
            continue
        d = decide(r.lhs, neg[r.op], r.rhs, {n: doms[n] for n in r.symbols()}, statement=f"not ({h.text})",
                   seconds=2.0)
        if d.verdict is Verdict.PROVED:
            out.append({"hypothesis": h.text, "from": h.where, "verdict": d.method})
    return out


def _inside(d, default):
    from fractions import Fraction
    if default is not None and (d is None or d.contains(default)):
        return default
    for x in (Fraction(1), Fraction(1, 2), Fraction(0), Fraction(2), Fraction(10)):
        if d is None or d.contains(x):
            return x
    return d.lo + 1 if d.lo is not None else d.hi - 1


def _sym(v):
    from ...expr.nodes import Sym
    return Sym(v)


def _pair_within(node, v, at, doms, hyps, extra, rising: bool):
    """x_1 < x_2 differing only in ``v``, both in the domains and the hypotheses (each
    decided in ball arithmetic), with f(x_1) < f(x_2) (``rising``) or >, certified."""
    from fractions import Fraction

    from ...backends import mp as mpb
    from ...mpmath_import import mpmath
    x0 = at[v]
    for k in range(1, 9):
        step = Fraction(1) if doms[v].integer else max(abs(x0), Fraction(1)) * Fraction(1, 10 ** k)
        for a, b in ((x0, x0 + step), (x0 - step, x0)):
            e1, e2 = dict(at), dict(at)
            e1[v], e2[v] = a, b
            if not (doms[v].contains(a) and doms[v].contains(b)):
                continue
            rows = [hypotheses.status_at(hyps, e) for e in (e1, e2)]
            if any(r["holds"] is not True for rs in rows for r in rs):
                continue
            s = mpb.decide_sign(sub(hypotheses.pin_point(node, e1), hypotheses.pin_point(node, e2)), {})
            if s is not None and ((rising and s < 0) or (not rising and s > 0)):
                return {"point": {n: str(x) for n, x in at.items() if n != v}, f"{v}_1": str(a), f"{v}_2": str(b),
                        "f_1": mpmath.nstr(mpb.evaluate(node, e1, digits=12), 12),
                        "f_2": mpmath.nstr(mpb.evaluate(node, e2, digits=12), 12),
                        "hypotheses_1": rows[0], "hypotheses_2": rows[1]}
        if doms[v].integer:
            break
    return None


def _lattice_step(node, v, hyps):
    """c when a hypothesis states that c v is an integer (``floor(X) == X`` with X = c v,
    c free of ``v``; :func:`hypotheses.lattice`), else None."""
    from ...backends.sym import from_sympy, to_sympy
    for h in hyps:
        x = hypotheses.lattice(h.rel)
        if x is None or v not in x.symbols():
            continue
        c = to_sympy(x, {}) / to_sympy(_sym(v), {})
        if to_sympy(_sym(v), {}) in c.free_symbols:
            continue
        return from_sympy(c)
    return None


LATTICE_NEIGHBOURS = 2      # lattice pairs tried around each start point (k - 1, k, k + 1)
LATTICE_RETRIES = 4         # candidates certified after each snapped point is moved again


def _lattice_pair(node, v, c, starts, doms, hyps, extra, completed, rising: bool):
    """A certified pair of neighbouring lattice points v = k/c < (k + 1)/c (the rest of the
    point the same), both inside every hypothesis (the integrality decided exactly), with f
    rising (``rising``) or falling between them: first around the ``starts`` (snapped to the
    lattice), then among the candidates of :func:`hypotheses.search_inside` for the
    difference f((k + 1)/c) - f(k/c) over an integer k, with the hypotheses at both points
    (a count-bounded search, the same on every machine). (pair, how it was found) or
    (None, "")."""
    import math

    from ...expr.domains import Domain
    from ...expr.exact import NotExact, evaluate_exact
    from ...expr.nodes import Add, Mul, Num, Pow, Sym

    def at_k(at, k):
        try:
            cv = evaluate_exact(c, {n: x for n, x in at.items() if n != v})
        except (NotExact, ZeroDivisionError, ValueError, OverflowError, KeyError):
            return None
        if cv <= 0:
            return None
        return _pair_at(node, v, at, k / cv, (k + 1) / cv, doms, hyps, rising)

    for at in starts:
        try:
            cv = evaluate_exact(c, {n: x for n, x in at.items() if n != v})
        except (NotExact, ZeroDivisionError, ValueError, OverflowError, KeyError):
            continue
        if cv <= 0:
            continue
        k0 = math.floor(at[v] * cv)
        for k in range(k0 - LATTICE_NEIGHBOURS + 1, k0 + LATTICE_NEIGHBOURS):
            pair = at_k(at, k)
            if pair is not None:
                return pair, "the derivative's counterexample moved onto the lattice"
    kname = "lattice_k"
    while kname in node.symbols():
        kname += "_"
    inv = Pow(c, Num(Fraction(-1)))
    v1, v2 = Mul((Sym(kname), inv)), Mul((Add((Sym(kname), Num(Fraction(1)))), inv))
    g = sub(substitute(node, {v: v2}), substitute(node, {v: v1}))
    ex = [Rel(r.op, substitute(r.lhs, {v: w}), substitute(r.rhs, {v: w})) for w in (v1, v2) for r in extra]
    d = doms[v]
    if d.lo is not None:
        ex.append(Rel(">=" if d.lo_closed else ">", v1, Num(d.lo)))
    if d.hi is not None:
        ex.append(Rel("<=" if d.hi_closed else "<", v2, Num(d.hi)))
    doms2 = {n: x for n, x in doms.items() if n != v}
    # k searched as a real (the repair moves it finely onto a thin region), then snapped to
    # the integers around it: each pair is certified on the lattice itself
    doms2[kname] = Domain(False, Fraction(0), True, None, False)
    rel = "<=" if rising else ">="
    for cand in hypotheses.search_inside(g, rel, doms2, ex):
        k = cand.pop(kname, None)
        if k is None:
            continue
        for kk in range(math.floor(k) - LATTICE_NEIGHBOURS + 1, math.floor(k) + LATTICE_NEIGHBOURS):
            at = completed({**cand, v: Fraction(0)})
            pair = at_k(at, Fraction(kk))
            if pair is not None:
                return pair, "a point of the lattice moved onto the hypotheses"
            # the snapped point left the thin region: k and the integer symbols held there,
            # the real ones moved onto the hypotheses again (the same count-bounded search)
            fixed = {kname: Fraction(kk), **{n: x for n, x in cand.items() if doms2[n].integer}}
            g2 = hypotheses.pin_point(g, fixed)
            ex2 = [Rel(r.op, hypotheses.pin_point(r.lhs, fixed), hypotheses.pin_point(r.rhs, fixed)) for r in ex]
            rest = {n: x for n, x in doms2.items() if n not in fixed}
            for c2 in hypotheses.search_inside(g2, rel, rest, ex2)[:LATTICE_RETRIES]:
                at = completed({**cand, **c2, v: Fraction(0)})
                at.pop(kname, None)
                pair = at_k(at, Fraction(kk))
                if pair is not None:
                    return pair, "a point of the lattice moved onto the hypotheses"
    return None, ""


def _pair_at(node, v, at, a, b, doms, hyps, rising: bool):
    """The pair (a, b) of values of ``v`` at ``at`` if both are in v's domain and every
    hypothesis holds at both (decided in ball arithmetic, integralities exactly), and f
    rises (``rising``) or falls from a to b, certified; else None."""
    from ...backends import mp as mpb
    from ...mpmath_import import mpmath
    e1, e2 = dict(at), dict(at)
    e1[v], e2[v] = a, b
    if not (doms[v].contains(a) and doms[v].contains(b)):
        return None
    rows = [hypotheses.status_at(hyps, e) for e in (e1, e2)]
    if any(r["holds"] is not True for rs in rows for r in rs):
        return None
    s = mpb.decide_sign(sub(hypotheses.pin_point(node, e1), hypotheses.pin_point(node, e2)), {})
    if s is None or not ((rising and s < 0) or (not rising and s > 0)):
        return None
    return {"point": {n: str(x) for n, x in at.items() if n != v}, f"{v}_1": str(a), f"{v}_2": str(b),
            "f_1": mpmath.nstr(mpb.evaluate(node, e1, digits=12), 12),
            "f_2": mpmath.nstr(mpb.evaluate(node, e2, digits=12), 12),
            "hypotheses_1": rows[0], "hypotheses_2": rows[1]}


def _approximate(t, f: Finding, a, b, doms, hyps):
    """A claim the paper makes with '≈': graded by the relative error |a - b|/|b| over the
    stated range (domains, hypotheses, the check's assumptions) against the declared
    tolerance. Within it (proved): passes; beyond it at a certified point: a warning
    (reason "approximation") with the error there and the largest sampled error."""
    from fractions import Fraction

    import numpy as np

    from ...backends import mp as mpb
    from ...expr.nodes import Func, Mul, Num
    from ...mpmath_import import mpmath
    from ...prover.sampling import point, sample, values
    tol = Fraction(str(t.approximate.tol))
    err, scale = Func("abs", (sub(a, b),)), Mul((Num(tol), Func("abs", (b,))))
    extra = hypotheses.relations(hyps)
    f.evidence = {"approximate": {"tol": str(tol), "quote": t.approximate.quote}}
    if hyps:
        f.evidence["hypotheses"] = [h.to_json() for h in hyps]
    worst = None
    if doms:
        pts = sample(doms, 3000, seed=7)
        with np.errstate(all="ignore"):
            ev = values(err, pts) / np.abs(values(b, pts))
            ok = np.isfinite(ev)
            for x in extra:
                lv, rv = values(x.lhs, pts), values(x.rhs, pts)
                ok &= {"<=": lv <= rv, ">=": lv >= rv, "<": lv < rv, ">": lv > rv, "==": np.isclose(lv, rv)}[x.op]
        if ok.any():
            i = int(np.flatnonzero(ok)[np.argmax(ev[ok])])
            at = point(pts, i)
            rows = hypotheses.status_at(hyps, at)
            if all(r["holds"] is True for r in rows):
                e = mpb.evaluate(err, at, digits=15) / abs(mpb.evaluate(b, at, digits=15))
                worst = {"relative_error": mpmath.nstr(e, 6), "at": {k: str(v) for k, v in at.items()}}
                f.evidence["largest_sampled_error"] = worst
    r = decide(err, "<=", scale, doms, extra, statement=f"|{t.lhs} - {t.rhs}| <= {tol} |{t.rhs}|")
    f.evidence["verdict"] = r.method
    shown = f"relative error {worst['relative_error']} at most (sampled)" if worst else ""
    if r.verdict is Verdict.PROVED:
        f.message = (f"approximation within the tolerance {_pct(tol)} over the stated range [{r.method}]"
                     + (f"; {shown}" if shown else ""))
    elif r.verdict is Verdict.DISPROVED:
        at = {k: v for k, v in r.counterexample.items() if k not in ("lhs", "rhs")}
        # the decision compared |lhs - rhs| with tol |rhs|: its sides are labelled so, not "lhs"/"rhs"
        f.evidence["counterexample"] = {**at, "abs(lhs - rhs)": r.counterexample.get("lhs"),
                                        f"{float(tol):g} abs(rhs)": r.counterexample.get("rhs")}
        e = mpb.evaluate(err, {k: Fraction(v) for k, v in at.items()}, digits=15) / abs(
            mpb.evaluate(b, {k: Fraction(v) for k, v in at.items()}, digits=15))
        f.grade(Grade.WARNING, "approximation",
                f"approximation beyond the tolerance {_pct(tol)}: relative error {mpmath.nstr(e, 4)} at "
                + ", ".join(f"{k} = {v}" for k, v in at.items())
                + (f" ({hypotheses.describe(hypotheses.status_at(hyps, at))})" if hyps else "")
                + (f"; largest sampled {worst['relative_error']}" if worst else "") + f" [{r.method}]")
    else:
        f.grade(Grade.WARNING, "undecided", f"approximation: undecided whether the relative error stays within "
                                        f"{_pct(tol)} [{r.method}]" + (f"; {shown}" if shown else ""))


def _pct(x) -> str:
    return f"{float(x) * 100:g} %"
