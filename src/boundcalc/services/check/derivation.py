"""``derivation`` checks: re-derive a printed statement from its premise by substitution.

Verdicts: follows exactly / a valid looser bound / not implied (with what the premise
actually gives). Hidden constants are existential: symbols of role ``constant`` (the
constants behind ≲ / ≳ / O) and the symbols a check lists in ``existential`` (e.g. a
"sufficiently large C0") are not sampled like variables. The question is whether SOME
fixed value of them makes the printed statement follow for every value of the variables:

1. with the constants at their defaults, decided by the shared decision procedure;
2. else a witness: the constants scaled by 10^k (k = ±1 … ±8) until the relation survives
   a sampled search, then decided; a proof proves the existential statement (graded ok for
   role-constant constants — the ≲ hides them — and a warning for declared ``existential``
   symbols: the paper's stated value is too small);
3. else whether no constant can work: the ratio derived/claim (upper) or claim/derived
   (lower) grows without bound along some variable (its growth exponents, :mod:`.growth`):
   an error when it grows like a power, a warning when only like a power of a logarithm.
"""
from __future__ import annotations

import re
from fractions import Fraction

from ...errors import BoundcalcError
from ...expr.nodes import Func, Mul, Node, Num, Pow, Rel, Sym, sub, substitute
from ...registry.checks import Derivation
from ...verdicts import Grade, Verdict
from . import hypotheses
from .common import Finding, decide, domains, formula, hidden_constants, pin, show, subst
from .common import claim as _claim

# a least constant above this is a warning ("large hidden constant"): a ≲ or "some
# constant C" that needs more than 100 hides more than a reader would assume
LEAST_THRESHOLD = 100
# the least-constant proofs of one constant stop after this many undecided candidates (a
# count, not a time: the same candidates are tried however loaded the machine is)
LEAST_UNDECIDED = 2
#: the least-constant scan wants at least this many sampled points inside the hypotheses; with
#: fewer it draws more points (:data:`INSIDE_BATCH` a batch, at most :data:`INSIDE_BATCHES`
#: batches, fixed seeds) and keeps those inside: hypotheses chained over several symbols
#: (R <= xi <= eta) leave too few of a box sample inside (issue 35, anon2025)
INSIDE_MIN = 100
INSIDE_BATCH = 32000
INSIDE_BATCHES = 4
FACTORS = [Fraction(10) ** k for k in (1, -1, 2, -2, 3, -3, 4, -4, 6, -6, 8, -8)]


def run(reg, paper, t: Derivation, f: Finding):
    uses = t.uses
    claim = _claim("claim", formula(reg, paper, t.claim))
    derived = _claim("premise", substitute(formula(reg, paper, t.premise),
                                           subst(reg, paper, t.substitute, uses)))
    direction = t.direction
    c_side, d_side, ratio_ok = _sides(reg, paper, claim, derived)
    f.evidence = {"claim": show(c_side, reg, paper), "derived_from_premise": show(d_side, reg, paper)}
    f.sides = (c_side, {"equal": "==", "upper": ">=", "lower": "<="}[direction], d_side)
    hyps = hypotheses.for_check(reg, paper, t, c_side.symbols() | d_side.symbols())
    extra = hypotheses.relations(hyps)
    if hyps:
        f.evidence["hypotheses"] = [h.to_json() for h in hyps]
    both = Rel("==", c_side, d_side)
    every = Func("max", (c_side, d_side) + tuple(x for r in extra for x in (r.lhs, r.rhs)))
    consts = hidden_constants(reg, paper, every, t.existential)
    doms = _check_domains(reg, paper, both, extra, consts)
    c0, d0 = pin(c_side, consts), pin(d_side, consts)
    ex0 = [Rel(r.op, pin(r.lhs, consts), pin(r.rhs, consts)) for r in extra]
    if consts:
        f.evidence["hidden_constants"] = {k: str(v) for k, v in consts.items()}
    inh = hypotheses.inherited_count(hyps)
    eq = hypotheses.decide_within(c0, "==", d0, doms, ex0, inh, statement="claim == derived")
    if eq.verdict is Verdict.PROVED:
        f.message = "follows exactly: the printed statement equals the premise after the substitutions" + (
            _at(consts) if consts else "") + f" [{eq.method}]"
        return
    if direction == "equal":
        _grade_equal(reg, paper, t, f, claim, eq, c0, d0, doms, ex0, consts, ratio_ok)
        return
    rel = ">=" if direction == "upper" else "<="
    r = hypotheses.decide_within(c0, rel, d0, doms, ex0, inh, statement=f"claim {rel} derived")
    f.evidence["verdict"] = r.method
    if r.verdict is Verdict.PROVED:
        k = _constant_factor(c0, d0, doms, ex0) if ratio_ok else None
        if k is not None:
            f.evidence["claim/derived"] = _num(k)
        f.message = (f"valid: the printed statement is a (looser) {direction} bound of what the premise "
                     f"gives{_at(consts) if consts else ''}"
                     + (f", by the constant factor {_num(k)}" if k is not None else "") + f" [{r.method}]")
        return
    if r.verdict is Verdict.DISPROVED:
        f.evidence["counterexample"] = r.counterexample
    if not consts:
        if r.verdict is Verdict.DISPROVED:
            f.grade(Grade.ERROR, "false as printed", f"not implied: the printed bound is "
                    f"{'smaller' if direction == 'upper' else 'larger'} than what the premise gives at "
                    f"some point [{r.method}]")
        else:
            f.grade(Grade.WARNING, "undecided", f"undecided: no proof that the printed statement is a valid "
                    f"{direction} bound, no counterexample [{r.method}]")
        return
    _existential(reg, paper, t, f, c_side, d_side, extra, consts, doms, rel, r, ratio_ok, direction, hyps)


def _sides(reg, paper, claim, derived):
    """The two sides to compare, (claim's, derived's, whether their ratio means anything):
    two values themselves; two relations with the same left side their right sides (a
    sufficient condition 'L >= c' implies 'L >= d' when c >= d), else rhs - lhs of each."""
    if isinstance(claim, Rel) != isinstance(derived, Rel):
        raise BoundcalcError("claim and premise must both be values or both be relations")
    ratio_ok = True
    if isinstance(claim, Rel) and isinstance(derived, Rel):      # (both or neither, above)
        if claim.op != derived.op:
            raise BoundcalcError(f"claim uses {claim.op!r} but the premise {derived.op!r}")
        # a sufficient condition 'L >= c' implies 'L >= d' when c >= d (same left side)
        c_side, d_side = claim.rhs, derived.rhs
        if _same(claim.lhs, derived.lhs, reg, paper) is not Verdict.PROVED:
            c_side, d_side = sub(claim.rhs, claim.lhs), sub(derived.rhs, derived.lhs)
            ratio_ok = False
    else:
        c_side, d_side = claim, derived
    return c_side, d_side, ratio_ok


def _check_domains(reg, paper, both, extra, consts) -> dict:
    """The domains of the symbols of ``both`` and of the hypotheses ``extra``, without the
    hidden constants ``consts`` (pinned)."""
    doms = {n: d for n, d in domains(reg, paper, both).items() if n not in consts}
    for r in extra:
        for n, d in domains(reg, paper, r).items():
            if n not in consts:
                doms.setdefault(n, d)
    return doms


def _grade_equal(reg, paper, t, f, claim, eq, c0, d0, doms, ex0, consts, ratio_ok) -> None:
    """Grade ``f`` for an equality claim not proved equal (``eq``): a constant factor off
    (looser on the safe side is a warning), a different expression, or undecided."""
    if eq.verdict is Verdict.DISPROVED:
        f.evidence["counterexample"] = eq.counterexample
        k = _constant_factor(c0, d0, doms, ex0) if ratio_ok else None
        safe = _safe_relation(reg, paper, t.claim, claim)
        if k is not None:
            f.evidence["claim/derived"] = _num(k)
            looser = safe is not None and ((k > 1) == (safe == ">="))
            if looser:
                f.grade(Grade.WARNING, "looser constant",
                        f"valid but looser than stated: the printed statement is {_num(k)} times what the "
                        f"premise gives{_at(consts) if consts else ''}")
            else:
                f.grade(Grade.ERROR, "false as printed",
                        f"not implied as printed: the printed statement is {_num(k)} times what the premise "
                        f"gives{_at(consts) if consts else ''}"
                        + (", on the unsafe side" if safe else ""))
            return
        f.grade(Grade.ERROR, "false as printed", "not implied as printed: the premise with the stated "
                f"substitutions gives a different expression{_at(consts) if consts else ''} [{eq.method}]")
    else:
        f.grade(Grade.WARNING, "undecided", f"undecided: could not decide whether the printed statement "
                f"equals the derived one [{eq.method}]")


def _existential(reg, paper, t, f, c_side, d_side, extra, consts, doms, rel, r0, ratio_ok, direction, hyps=()):
    """Grade a claim with hidden constants that fails or is undecided at their defaults:
    no constant works (the ratio grows), the least constant that works, a scaled
    constant that works, or undecided."""
    declared = set(t.existential)
    # the claim's own constants are the ones to choose; the premise's keep their values
    # (all are scaled when the claim has none of its own)
    own = {n for n in consts if n not in d_side.symbols()} or set(consts)
    # can any constant work?  The ratio must stay bounded (cheap: growth exponents)
    if ratio_ok and _ratio_grows(reg, paper, f, c_side, d_side, extra, consts, doms, direction):
        return
    least = _least_constants(c_side, d_side, extra, consts, own, doms, rel)
    if least and _grade_least(f, least, declared, consts, direction, r0):
        return
    if _scaled_witness(f, c_side, d_side, extra, consts, own, declared, doms, rel, r0, direction, hyps):
        return
    _grade_undecided(f, c_side, d_side, extra, consts, own, doms, rel, r0, least)


def _ratio_grows(reg, paper, f, c_side, d_side, extra, consts, doms, direction) -> bool:
    """Grade ``f`` when the ratio of the two sides grows without bound (no constant works;
    only a polylog factor is a warning); True when it does."""
    ratio: Node = Mul((d_side, Pow(c_side, Num(Fraction(-1))))) if direction == "upper" else \
        Mul((c_side, Pow(d_side, Num(Fraction(-1)))))
    ratio = pin(ratio, consts)
    grows = _unbounded(reg, paper, ratio, pin(c_side if direction == "upper" else d_side, consts), doms, extra)
    if grows:
        f.evidence["ratio_growth"] = grows
        power = [g for g in grows if g["power"] > 0]
        if power:
            f.grade(Grade.ERROR, "false as printed",
                    f"not implied for any value of the hidden constant(s) {', '.join(consts)}: the ratio "
                    f"{'derived/claim' if direction == 'upper' else 'claim/derived'} grows like "
                    + ", ".join(f"{g['growth']} as {g['var']} -> {g['limit']}" for g in power))
        else:
            f.grade(Grade.WARNING, "polylog factor",
                    "implied only up to a polylog factor: the ratio grows like "
                    + ", ".join(f"{g['growth']} as {g['var']} -> {g['limit']}" for g in grows))
        return True
    return False


def _grade_least(f, least, declared, consts, direction, r0) -> bool:
    """Grade ``f`` from the least constants (:func:`_least_constants`): none works, or a
    certified one (large, or above a declared one, is a warning); True when graded."""
    f.evidence["least_constants"] = least
    if all(x.get("none_works") for x in least):
        f.grade(Grade.ERROR, "false as printed",
                "no constant works: " + "; ".join(
                    f"{x['constant']} must be >= {x['lower']:.6g} at one point and <= {x['upper']:.6g} at "
                    f"another, both inside the hypotheses (ratios in ball arithmetic)" for x in least))
        return True
    ok = [x for x in least if x["certified"]]
    if ok:
        shown = "; ".join(_least_text(x, direction) for x in ok)
        big = [x for x in ok if x["sufficient"] > LEAST_THRESHOLD]
        declared_big = [x for x in ok if x["constant"] in declared and x["sufficient"] > consts[x["constant"]]]
        if declared_big or (big and len(big) == len(ok)):
            f.grade(Grade.WARNING, "large hidden constant",
                    f"holds only with a larger constant: {shown}" + (
                        f" (above the threshold {LEAST_THRESHOLD} for a hidden constant)" if big else
                        f"; the stated {_vals({x['constant']: consts[x['constant']] for x in declared_big})} "
                        "does not suffice"))
        else:
            f.message = (f"valid up to the hidden constant: {shown}; at {_vals(consts)} it "
                         f"{'fails' if r0.verdict is Verdict.DISPROVED else 'is undecided'}")
        return True
    return False


def _scaled_witness(f, c_side, d_side, extra, consts, own, declared, doms, rel, r0, direction, hyps) -> bool:
    """Grade ``f`` when the claim's own constants scaled by one of :data:`FACTORS` make it
    proved (a declared constant that needs it is a warning); True when one does."""
    for k in FACTORS:
        vals = {n: v * k if n in own else v for n, v in consts.items()}
        c, d = pin(c_side, vals), pin(d_side, vals)
        ex = [Rel(x.op, pin(x.lhs, vals), pin(x.rhs, vals)) for x in extra]
        if not _survives(c, rel, d, doms, ex):
            continue
        r = decide(c, rel, d, doms, ex, statement=f"claim {rel} derived with {_vals(vals)}")
        if r.verdict is not Verdict.PROVED:
            continue
        f.evidence["witness"] = {"constants": {n: str(v) for n, v in vals.items()}, "verdict": r.method}
        est = _threshold(c_side, d_side, extra, consts, own, doms, rel, k)
        if est is not None:
            f.evidence["sampled_threshold"] = f"about {est:.4g} x the default (sampled, not certified)"
        large = sorted(declared & set(consts))
        if large:
            f.grade(Grade.WARNING, "large hidden constant", _larger_constant_text(
                vals, r.method, est, {n: consts[n] for n in sorted(own)},
                {n: consts[n] for n in large}, hyps, r0.verdict is Verdict.DISPROVED))
        else:
            f.message = (f"valid up to the hidden constant: {_vals(vals)} makes the printed statement a "
                         f"{direction} bound of what the premise gives [{r.method}]; at {_vals(consts)} it "
                         f"{'fails' if r0.verdict is Verdict.DISPROVED else 'is undecided'}")
        return True
    return False


def _larger_constant_text(works, method, est, own, large, hyps, failed: bool) -> str:
    """The message of a claim that holds only with a larger declared constant. When the
    check's hypotheses state a condition on that constant (e.g. (46)'s ``C0 >= 64 pi``),
    the message says that the stated condition is not enough by itself (a warning: the
    constant must be larger, not an erratum); otherwise that the default does not suffice."""
    names = set(large)
    on_const = [x.text for x in hyps if names & set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", x.text))]
    other = [x.text for x in hyps if x.text not in on_const]
    thr = (f"; sampled threshold about {est:.3g} x {_vals(own)} (sampled, not certified)"
           if est is not None else "")
    if on_const:
        # the paper's own words ("for some constant C0 ... sufficiently large C0 >= 64 pi") seldom
        # claim that the condition alone suffices: say what is needed, not that the paper erred
        return (f"the stated condition(s) on {', '.join(sorted(names))} ({'; '.join(on_const)}) are not enough "
                f"by themselves: with {_vals(large)} "
                + ("the claim fails at a point where they hold" if failed else "the claim is not shown under them")
                + (f" (with the check's other assumptions: {'; '.join(other)})" if other else "")
                + f"; a larger absolute constant is needed: {_vals(works)} works [{method}]{thr}")
    return (f"holds only with a larger constant: {_vals(works)} works [{method}]{thr}; with "
            f"{_vals(large)} and the check's assumptions ({'; '.join(other) or 'none'}) it "
            + ("does not" if failed else "is not shown"))


def _grade_undecided(f, c_side, d_side, extra, consts, own, doms, rel, r0, least) -> None:
    """Grade ``f`` undecided when no constant was shown to work nor none to: saying whether
    it fails at the extreme constants, or the sampled least constant."""
    if r0.verdict is Verdict.DISPROVED and not least:
        ends = []
        for k in (FACTORS[-2], FACTORS[-1]):
            vals = {n: v * k if n in own else v for n, v in consts.items()}
            ex = [Rel(x.op, pin(x.lhs, vals), pin(x.rhs, vals)) for x in extra]
            r = decide(pin(c_side, vals), rel, pin(d_side, vals), doms, ex,
                       statement=f"claim {rel} derived with {_vals(vals)}")
            ends.append((vals, r))
        if all(r.verdict is Verdict.DISPROVED for _, r in ends):
            f.evidence["counterexamples_at_extreme_constants"] = {
                _vals(v): r.counterexample for v, r in ends}
            f.grade(Grade.WARNING, "undecided",
                    f"undecided: the claim fails with its hidden constant(s) {', '.join(sorted(own))} at 1e-8, 1 "
                    f"and 1e8 times {_vals({n: consts[n] for n in sorted(own)})} (certified counterexamples "
                    f"[{r0.method}]), but no proof that no constant works (the ratio is not shown unbounded)")
            return
        f.grade(Grade.WARNING, "undecided",
                f"undecided: fails with the hidden constant(s) at {_vals(consts)} [{r0.method}], but no "
                f"proof that a larger or smaller constant works and no proof that none does")
    elif r0.verdict is Verdict.DISPROVED:
        est = "; ".join(f"{x['constant']} about {x['sampled_sup']:.4g} (sampled)" for x in least)
        f.grade(Grade.WARNING, "undecided",
                f"undecided: fails with the hidden constant(s) at {_vals(consts)} [{r0.method}]; the least "
                f"constant that would work is {est}, but no proof that it works and none that the ratio is "
                f"unbounded")
    else:
        f.grade(Grade.WARNING, "undecided", f"undecided: no proof for any tried value of the hidden "
                f"constant(s) {', '.join(consts)}, no counterexample [{r0.method}]")


def _constant_factor(c, d, doms, extra):
    """claim/derived when it is a constant k (sampled, then proved c == k d), else None."""
    import numpy as np

    from ...prover.sampling import sample, values
    if not doms:
        return None
    pts = sample(doms, 400, seed=5)
    with np.errstate(all="ignore"):
        r = values(c, pts) / values(d, pts)
    r = r[np.isfinite(r)]
    if len(r) < 10 or not np.allclose(r, r[0], rtol=1e-9) or r[0] == 0:
        return None
    k = Fraction(float(np.median(r))).limit_denominator(10 ** 6)
    ok = decide(c, "==", Mul((Num(k), d)), doms, extra, statement="claim == k * derived", seconds=2.0)
    return k if ok.verdict is Verdict.PROVED else None


def _safe_relation(reg, paper, ref, claim) -> str | None:
    """The direction in which the claim may err safely: '>=' for an upper bound or a
    requirement 'L >= rhs' (a larger rhs asks more), '<=' for the mirror cases."""
    from .common import formula_id
    spec = reg.spec(formula_id(paper, ref))
    if isinstance(claim, Rel):
        return ">=" if claim.op in (">=", ">") else "<=" if claim.op in ("<=", "<") else None
    return {"upper": ">=", "lower": "<="}.get(spec.direction)


def _threshold(c_side, d_side, extra, consts, own, doms, rel, k: Fraction):
    """The factor of the claim's constants where the sampled search stops failing, by
    bisection in log scale between k/10 (or 10 k) and k. Sampled: an estimate only."""
    import math
    lo, hi = (k / 10, k) if k > 1 else (k, k * 10)
    good_hi = k > 1
    for _ in range(12):
        mid = Fraction(math.sqrt(lo * hi)).limit_denominator(10 ** 6)
        vals = {n: v * mid if n in own else v for n, v in consts.items()}
        ex = [Rel(x.op, pin(x.lhs, vals), pin(x.rhs, vals)) for x in extra]
        ok = _survives(pin(c_side, vals), rel, pin(d_side, vals), doms, ex)
        if ok == good_hi:
            hi = mid
        else:
            lo = mid
    return float(hi if good_hi else lo)


def _unbounded(reg, paper, ratio, claim, doms, extra) -> list[dict]:
    """The variables along which ``ratio`` grows without bound while the claim stays
    positive (others at generic values; variables the assumptions constrain are skipped)."""
    from .growth import growth
    from .order import _core, _generic_env
    table = reg.symbol_table(ratio, paper.key)
    out = []
    tied = set().union(*(x.symbols() for x in extra)) if extra else set()
    for v, d in sorted(doms.items()):
        if v not in ratio.symbols() or v in tied:
            continue
        limits = []
        inv = {v: Pow(_sym(v), Num(Fraction(-1)))}
        if d.hi is None:
            limits.append(("oo", ratio, claim))
        if d.lo is not None and d.lo == 0 and d.hi != 0 and not d.integer:
            limits.append(("0", substitute(ratio, inv), substitute(claim, inv)))
        for lim, e, c in limits:
            env = _generic_env((e.symbols() | c.symbols()) - {v}, table)
            g, gc = growth(e, v, env), growth(c, v, env)
            if g is not None and gc is not None and gc.sign > 0 and g.sign > 0 and g.ab > (0, 0):
                out.append({"var": v, "limit": lim, "growth": _core(g.ab, v, lim), "power": float(g[1])})
    return out


def _sym(v):
    from ...expr.nodes import Sym
    return Sym(v)


def _survives(c, rel, d, doms, extra, n=800) -> bool:
    """No sampled point violates ``c rel d`` (a cheap filter before a decision)."""
    import numpy as np

    from ...prover.sampling import sample, values
    if not doms:
        return True
    pts = sample(doms, n, seed=3)
    with np.errstate(all="ignore"):
        cv, dv = values(c, pts), values(d, pts)
        ok = np.isfinite(cv) & np.isfinite(dv)
        for x in extra:
            lv, rv = values(x.lhs, pts), values(x.rhs, pts)
            ok &= {"<=": lv <= rv, ">=": lv >= rv, "<": lv < rv, ">": lv > rv, "==": np.isclose(lv, rv)}[x.op]
        tol = 1e-9 * (np.abs(cv) + np.abs(dv))
        bad = (cv < dv - tol) if rel == ">=" else (cv > dv + tol)
    return not np.any(bad & ok)


def _same(a, b, reg, paper) -> str:
    return decide(a, "==", b, domains(reg, paper, Rel("==", a, b)), samples=200, seconds=2.0).verdict


def _vals(vals: dict) -> str:
    return ", ".join(f"{n} = {_num(v)}" for n, v in vals.items())


def _num(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else (f"{float(v):g}")


def _at(consts) -> str:
    return f" (hidden constants at {_vals(consts)})"


def _least_constants(c_side, d_side, extra, consts, own, doms, rel) -> list[dict]:
    """For each of the claim's own hidden constants (the others at their defaults) in which
    the claim is affine, c = a + b C: the constants C that make the claim hold over the
    domains and the hypotheses. Where b > 0 the claim needs C >= (d - a)/b (rel '>='), where
    b < 0 it needs C <= (d - a)/b. Sampling (inside the hypotheses) proposes the least
    candidate; the shared decision procedure proves it works (``sufficient``). Below
    ``lower`` it fails at a point (the point certified inside the hypotheses and the ratio
    evaluated in ball arithmetic). When a point needs C above ``lower`` and another C below
    a smaller ``upper`` (both certified), no constant works (``none_works``)."""
    from ...prover.sampling import sample
    out: list[dict] = []
    if not doms:
        return out
    pts = sample(doms, 4000, seed=11)
    for name in sorted(own):
        if name in d_side.symbols() or any(name in x.symbols() for x in extra):
            continue            # in the premise too, or assumed on: the scan below handles it
        row = _least_constant(name, c_side, d_side, extra, consts, doms, rel, pts)
        if row is not None:
            out.append(row)
    return out


def _inside(ex, pts):
    """Which sampled points of ``pts`` satisfy every relation of ``ex`` (floating point)."""
    import numpy as np

    from ...prover.sampling import values
    with np.errstate(all="ignore"):
        inside = np.ones(len(next(iter(pts.values()))), dtype=bool)
        for x in ex:
            lv, rv = values(x.lhs, pts), values(x.rhs, pts)
            inside &= {"<=": lv <= rv, ">=": lv >= rv, "<": lv < rv, ">": lv > rv,
                       "==": np.isclose(lv, rv)}[x.op]
    return inside


def _enough_inside(ex, doms, pts):
    """``pts``, or when fewer than :data:`INSIDE_MIN` of them satisfy ``ex``, those that do
    together with the points inside of further batches (seeds 12, 13, ...), until there are
    enough or the batches run out. Deterministic: the same input draws the same points."""
    import numpy as np

    from ...prover.sampling import sample
    if not ex:
        return pts
    inside = _inside(ex, pts)
    if int(inside.sum()) >= INSIDE_MIN:
        return pts
    keep = [{k: v[inside] for k, v in pts.items()}]
    count = int(inside.sum())
    for k in range(INSIDE_BATCHES):
        more = _ordered(ex, doms, sample(doms, INSIDE_BATCH, seed=12 + k))
        sel = _inside(ex, more)
        keep.append({n: v[sel] for n, v in more.items()})
        count += int(sel.sum())
        if count >= INSIDE_MIN:
            break
    if not count:
        return pts
    return {n: np.concatenate([part[n] for part in keep]) for n in pts}


def _ordered(ex, doms, pts):
    """``pts`` with the order hypotheses between two symbols of one domain (``x <= y``) made
    true at every point by exchanging the two values where they are the wrong way round
    (repeated along a chain R <= xi <= eta until sorted): a point keeps its values, only
    which symbol holds which changes, so it stays in the domains."""
    import numpy as np
    pairs = []
    for x in ex:
        if isinstance(x.lhs, Sym) and isinstance(x.rhs, Sym) and x.op in ("<=", ">=", "<", ">"):
            lo, hi = (x.lhs.name, x.rhs.name) if x.op in ("<=", "<") else (x.rhs.name, x.lhs.name)
            if lo in pts and hi in pts and doms.get(lo) == doms.get(hi):
                pairs.append((lo, hi))
    if not pairs:
        return pts
    out = dict(pts)
    for _ in range(len(pairs)):
        for lo, hi in pairs:
            a, b = out[lo], out[hi]
            wrong = a > b
            out[lo], out[hi] = np.where(wrong, b, a), np.where(wrong, a, b)
    return out


def _affine_parts(c, name: str):
    """(a, b) with c = a + b * name when ``c`` is affine in the symbol ``name``, else None."""
    from ...backends.sym import from_sympy, to_sympy
    from ...backends.sympy_import import sympy as sp
    sym = sp.Symbol(name, positive=True)
    try:
        cs = to_sympy(c, {name: sym})
        if sp.simplify(sp.diff(cs, sym, 2)) != 0:
            return None
        return from_sympy(sp.simplify(cs.subs(sym, 0))), from_sympy(sp.simplify(sp.diff(cs, sym)))
    except Exception:          # a form SymPy or the expression language cannot hold
        return None


def _least_constant(name, c_side, d_side, extra, consts, doms, rel, pts) -> dict | None:
    """The row of :func:`_least_constants` for the hidden constant ``name`` (the others at
    their defaults), over the sampled points ``pts``; None when the claim is not affine
    in it."""
    import numpy as np

    from ...prover.sampling import values
    others = {n: v for n, v in consts.items() if n != name}
    c, d = pin(c_side, others), pin(d_side, others)
    ex = [Rel(x.op, pin(x.lhs, others), pin(x.rhs, others)) for x in extra]
    parts = _affine_parts(c, name)
    if parts is None:
        return None
    pts = _enough_inside(ex, doms, pts)
    inside = _inside(ex, pts)
    a, b = parts
    q = Mul((sub(d, a), Pow(b, Num(Fraction(-1)))))
    with np.errstate(all="ignore"):
        qv, bv = values(q, pts), values(b, pts)
    ok = inside & np.isfinite(qv) & np.isfinite(bv)
    # rel '>=': b > 0 gives a lower limit on C, b < 0 an upper one ('<=': the reverse)
    low_set, high_set = (ok & (bv > 0), ok & (bv < 0)) if rel == ">=" else (ok & (bv < 0), ok & (bv > 0))
    row = {"constant": name, "with": {n: str(v) for n, v in others.items()}, "certified": False}
    lo_i = int(np.flatnonzero(low_set)[np.argmax(qv[low_set])]) if low_set.any() else None
    hi_i = int(np.flatnonzero(high_set)[np.argmin(qv[high_set])]) if high_set.any() else None
    lo_v = float(qv[lo_i]) if lo_i is not None else None
    hi_v = float(qv[hi_i]) if hi_i is not None else None
    row["sampled_sup"] = lo_v if lo_v is not None else 0.0
    lo_c = _certified_ratio(q, ex, pts, lo_i)
    hi_c = _certified_ratio(q, ex, pts, hi_i)
    if lo_c is not None:
        row["lower"], row["lower_at"] = lo_c
    if hi_c is not None:
        row["upper"], row["upper_at"] = hi_c
    if lo_c is not None and hi_c is not None and lo_c[0] > hi_c[0]:
        row["none_works"] = True          # two certified points ask for incompatible C
        return row
    _try_candidates(row, name, c, d, ex, doms, rel, lo_v, hi_v)
    return row


def _try_candidates(row: dict, name, c, d, ex, doms, rel, lo_v, hi_v) -> None:
    """Try the candidate values of the constant ``name`` just above the sampled least one
    ``lo_v`` (not above ``hi_v``), in order; the first proved sufficient is recorded in
    ``row``; stop after :data:`LEAST_UNDECIDED` undecided ones."""
    base = max(lo_v, 0.0) if lo_v is not None else 0.0
    cands = _round_up(base) + [
        Fraction(base + sl * max(abs(base), 1e-9)).limit_denominator(10 ** 9) for sl in (1e-6, 1e-2, 0.1, 1.0)]
    unknown = 0
    for cf in dict.fromkeys(cands):          # at most 7 candidates
        if unknown >= LEAST_UNDECIDED:
            row["budget"] = f"{LEAST_UNDECIDED} undecided candidates spent"
            break
        if cf <= 0 or (lo_v is not None and cf < lo_v) or (hi_v is not None and cf > hi_v):
            continue
        r = _decide_difference(pin(c, {name: cf}), rel, d, doms, ex,
                               statement=f"claim {rel} derived with {name} = {cf}")
        if r.verdict is Verdict.PROVED:
            row.update(certified=True, sufficient=float(cf), verdict=r.method)
            break
        unknown += r.verdict is Verdict.UNKNOWN


def _decide_difference(c, rel, d, doms, extra, *, statement, seconds=3.0):
    """``c rel d`` decided on the difference c - d with its common terms cancelled (SymPy's
    automatic collection; no simplification), under the hypotheses that share a symbol
    with it: a proof under fewer hypotheses holds under all. Only its "proved" is used (a
    counterexample need not satisfy the hypotheses left out)."""
    from ...backends.sym import from_sympy, to_sympy
    try:
        g = from_sympy(to_sympy(c, {}) - to_sympy(d, {}))
    except Exception:          # a form the expression language cannot hold
        g = None
    if g is not None and g.symbols():
        near = [x for x in extra if x.symbols() & g.symbols()]
        gd = {n: dm for n, dm in doms.items() if n in g.symbols() or any(n in x.symbols() for x in near)}
        return decide(g, rel, Num(Fraction(0)), gd, near, statement=statement + " (difference)", seconds=seconds)
    return decide(c, rel, d, doms, extra, statement=statement, seconds=seconds)


def _round_up(x: float) -> list[Fraction]:
    """x rounded up to 1, 2 and 3 significant digits (short candidates: 1.98 -> 2, 2, 1.98)."""
    import math
    if x <= 0:
        return [Fraction(1)]
    e = math.floor(math.log10(x))
    out = []
    for k in (1, 2, 3):
        unit = Fraction(10) ** (e - k + 1)
        out.append(math.ceil(Fraction(x) / unit) * unit)
    return out


def _certified_ratio(q, extra, pts, i):
    """(q at the i-th sample in ball arithmetic, the point) when the point is certified to
    satisfy every hypothesis; else None."""
    from ...backends import mp as mpb
    from ...mpmath_import import mpmath
    from ...prover.sampling import point
    if i is None:
        return None
    at = point(pts, i)
    for x in extra:
        s_ = mpb.decide_sign(sub(x.lhs, x.rhs), at)
        if s_ is None or not {"<=": s_ <= 0, ">=": s_ >= 0, "<": s_ < 0, ">": s_ > 0, "==": s_ == 0}[x.op]:
            return None
    try:
        return float(mpmath.mpf(mpb.evaluate(q, at, digits=15))), {k: str(v) for k, v in at.items()
                                                                   if k in q.symbols()}
    except Exception:
        return None


def _least_text(x: dict, direction: str) -> str:
    op = ">=" if direction == "upper" else "<="
    fixed = f" ({_vals({k: Fraction(v) for k, v in x['with'].items()})})" if x["with"] else ""
    c, v = x["constant"], x["sufficient"]
    if "upper" in x:       # a window: the constant must not be too large either
        return (f"holds with {c} = {v:.6g}{fixed} [{x['verdict']}]; {c} below {x.get('lower', v):.6g} or above "
                f"{x['upper']:.6g} fails at a point inside the hypotheses")
    low = f"; below {x['lower']:.6g} it fails at a point inside the hypotheses" if "lower" in x else ""
    return f"holds with {c} {op} {v:.6g}{fixed} [{x['verdict']}]{low}"
