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

from fractions import Fraction

from ...errors import BoundcalcError
from ...expr.nodes import Func, Mul, Num, Pow, Rel, sub, substitute
from .common import Finding, assumptions, claim as _claim, decide, domains, formula, hidden_constants, pin, show, subst

FACTORS = [Fraction(10) ** k for k in (1, -1, 2, -2, 3, -3, 4, -4, 6, -6, 8, -8)]


def run(reg, paper, t, f: Finding):
    uses = tuple(t.get("uses", []))
    claim = _claim("claim", formula(reg, paper, t["claim"]))
    derived = _claim("premise", substitute(formula(reg, paper, t["premise"]),
                                           subst(reg, paper, t.get("substitute"), uses)))
    direction = t["direction"]
    if isinstance(claim, Rel) != isinstance(derived, Rel):
        raise BoundcalcError("claim and premise must both be values or both be relations")
    ratio_ok = True
    if isinstance(claim, Rel):
        if claim.op != derived.op:
            raise BoundcalcError(f"claim uses {claim.op!r} but the premise {derived.op!r}")
        # a sufficient condition 'L >= c' implies 'L >= d' when c >= d (same left side)
        c_side, d_side = claim.rhs, derived.rhs
        if _same(claim.lhs, derived.lhs, reg, paper) != "proved":
            c_side, d_side = sub(claim.rhs, claim.lhs), sub(derived.rhs, derived.lhs)
            ratio_ok = False
    else:
        c_side, d_side = claim, derived
    f.evidence = {"claim": show(c_side), "derived_from_premise": show(d_side)}
    extra = assumptions(t.get("assume"))
    both = Rel("==", c_side, d_side)
    every = Func("max", (c_side, d_side) + tuple(x for r in extra for x in (r.lhs, r.rhs)))
    consts = hidden_constants(reg, paper, every, t.get("existential", []))
    doms = {n: d for n, d in domains(reg, paper, both).items() if n not in consts}
    for r in extra:
        for n, d in domains(reg, paper, r).items():
            if n not in consts:
                doms.setdefault(n, d)
    c0, d0 = pin(c_side, consts), pin(d_side, consts)
    ex0 = [Rel(r.op, pin(r.lhs, consts), pin(r.rhs, consts)) for r in extra]
    if consts:
        f.evidence["hidden_constants"] = {k: str(v) for k, v in consts.items()}
    eq = decide(c0, "==", d0, doms, ex0, statement="claim == derived")
    if eq.verdict == "proved":
        f.message = "follows exactly: the printed statement equals the premise after the substitutions" + (
            _at(consts) if consts else "") + f" [{eq.method}]"
        return
    if direction == "equal":
        if eq.verdict == "disproved":
            f.evidence["counterexample"] = eq.counterexample
            k = _constant_factor(c0, d0, doms, ex0) if ratio_ok else None
            safe = _safe_relation(reg, paper, t["claim"], claim)
            if k is not None:
                f.evidence["claim/derived"] = _num(k)
                looser = safe is not None and ((k > 1) == (safe == ">="))
                if looser:
                    f.grade("warning", "looser constant",
                            f"valid but looser than stated: the printed statement is {_num(k)} times what the "
                            f"premise gives{_at(consts) if consts else ''}")
                else:
                    f.grade("error", "false as printed",
                            f"not implied as printed: the printed statement is {_num(k)} times what the premise "
                            f"gives{_at(consts) if consts else ''}"
                            + (", on the unsafe side" if safe else ""))
                return
            f.grade("error", "false as printed", "not implied as printed: the premise with the stated "
                    f"substitutions gives a different expression{_at(consts) if consts else ''} [{eq.method}]")
        else:
            f.grade("warning", "undecided", f"undecided: could not decide whether the printed statement "
                    f"equals the derived one [{eq.method}]")
        return
    rel = ">=" if direction == "upper" else "<="
    r = decide(c0, rel, d0, doms, ex0, statement=f"claim {rel} derived")
    f.evidence["verdict"] = r.method
    if r.verdict == "proved":
        k = _constant_factor(c0, d0, doms, ex0) if ratio_ok else None
        if k is not None:
            f.evidence["claim/derived"] = _num(k)
        f.message = (f"valid: the printed statement is a (looser) {direction} bound of what the premise "
                     f"gives{_at(consts) if consts else ''}"
                     + (f", by the constant factor {_num(k)}" if k is not None else "") + f" [{r.method}]")
        return
    if r.verdict == "disproved":
        f.evidence["counterexample"] = r.counterexample
    if not consts:
        if r.verdict == "disproved":
            f.grade("error", "false as printed", f"not implied: the printed bound is "
                    f"{'smaller' if direction == 'upper' else 'larger'} than what the premise gives at "
                    f"some point [{r.method}]")
        else:
            f.grade("warning", "undecided", f"undecided: no proof that the printed statement is a valid "
                    f"{direction} bound, no counterexample [{r.method}]")
        return
    _existential(reg, paper, t, f, c_side, d_side, extra, consts, doms, rel, r, ratio_ok, direction)


def _existential(reg, paper, t, f, c_side, d_side, extra, consts, doms, rel, r0, ratio_ok, direction):
    declared = set(t.get("existential", []))
    # the claim's own constants are the ones to choose; the premise's keep their values
    # (all are scaled when the claim has none of its own)
    own = {n for n in consts if n not in d_side.symbols()} or set(consts)
    # can any constant work?  The ratio must stay bounded (cheap: growth exponents)
    if ratio_ok:
        ratio = Mul((d_side, Pow(c_side, Num(Fraction(-1))))) if direction == "upper" else \
            Mul((c_side, Pow(d_side, Num(Fraction(-1)))))
        ratio = pin(ratio, consts)
        grows = _unbounded(reg, paper, ratio, pin(c_side if direction == "upper" else d_side, consts), doms, extra)
        if grows:
            f.evidence["ratio_growth"] = grows
            power = [g for g in grows if g["power"] > 0]
            if power:
                f.grade("error", "false as printed",
                        f"not implied for any value of the hidden constant(s) {', '.join(consts)}: the ratio "
                        f"{'derived/claim' if direction == 'upper' else 'claim/derived'} grows like "
                        + ", ".join(f"{g['growth']} as {g['var']} -> {g['limit']}" for g in power))
            else:
                f.grade("warning", "polylog factor",
                        "implied only up to a polylog factor: the ratio grows like "
                        + ", ".join(f"{g['growth']} as {g['var']} -> {g['limit']}" for g in grows))
            return
    for k in FACTORS:
        vals = {n: v * k if n in own else v for n, v in consts.items()}
        c, d = pin(c_side, vals), pin(d_side, vals)
        ex = [Rel(x.op, pin(x.lhs, vals), pin(x.rhs, vals)) for x in extra]
        if not _survives(c, rel, d, doms, ex):
            continue
        r = decide(c, rel, d, doms, ex, statement=f"claim {rel} derived with {_vals(vals)}")
        if r.verdict != "proved":
            continue
        f.evidence["witness"] = {"constants": {n: str(v) for n, v in vals.items()}, "verdict": r.method}
        est = _threshold(c_side, d_side, extra, consts, own, doms, rel, k)
        if est is not None:
            f.evidence["sampled_threshold"] = f"about {est:.4g} x the default (sampled, not certified)"
        large = sorted(declared & set(consts))
        if large:
            f.grade("warning", "large hidden constant",
                    f"holds only with a larger constant: {_vals(vals)} works [{r.method}]"
                    + (f" (sampled threshold about {est:.3g} x {_vals({n: consts[n] for n in sorted(own)})})"
                       if est is not None else "")
                    + f"; with {_vals({n: consts[n] for n in large})} and the check's assumptions "
                    f"({'; '.join(t.get('assume', [])) or 'none'}) it does not")
        else:
            f.message = (f"valid up to the hidden constant: {_vals(vals)} makes the printed statement a "
                         f"{direction} bound of what the premise gives [{r.method}]; at {_vals(consts)} it "
                         f"{'fails' if r0.verdict == 'disproved' else 'is undecided'}")
        return
    if r0.verdict == "disproved":
        ends = []
        for k in (FACTORS[-2], FACTORS[-1]):
            vals = {n: v * k if n in own else v for n, v in consts.items()}
            ex = [Rel(x.op, pin(x.lhs, vals), pin(x.rhs, vals)) for x in extra]
            r = decide(pin(c_side, vals), rel, pin(d_side, vals), doms, ex,
                       statement=f"claim {rel} derived with {_vals(vals)}")
            ends.append((vals, r))
        if all(r.verdict == "disproved" for _, r in ends):
            f.evidence["counterexamples_at_extreme_constants"] = {
                _vals(v): r.counterexample for v, r in ends}
            f.grade("error", "false as printed",
                    f"not implied for any tried value of the claim's hidden constant(s) "
                    f"{', '.join(sorted(own))}: certified counterexamples with them at 1e-8, 1 and 1e8 "
                    f"times {_vals({n: consts[n] for n in sorted(own)})} [{r0.method}]")
            return
        f.grade("warning", "undecided",
                f"undecided: fails with the hidden constant(s) at {_vals(consts)} [{r0.method}], but no "
                f"proof that a larger or smaller constant works and no proof that none does")
    else:
        f.grade("warning", "undecided", f"undecided: no proof for any tried value of the hidden "
                f"constant(s) {', '.join(consts)}, no counterexample [{r0.method}]")


def _constant_factor(c, d, doms, extra):
    """claim/derived when it is a constant k (sampled, then proved c == k d), else None."""
    import numpy as np
    from ..sampling import sample, values
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
    return k if ok.verdict == "proved" else None


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
    from .order import _core, _generic_env
    from .growth import growth
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
    from ..sampling import sample, values
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
