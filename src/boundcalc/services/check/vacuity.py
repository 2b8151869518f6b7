"""``vacuity`` checks: a bound at the paper's own setting against the trivial value.

* An upper bound below the least value the quantity can take (``floor``, default 0: a
  loss, an error, a norm) — e.g. a negative "bound" on a loss — is an ERROR of the bound,
  never a non-vacuity pass; likewise a lower bound above ``ceiling`` (e.g. 1 for a
  probability), and a value that is not a finite number.
* Vacuous (a warning): the bound is no better than the trivial value.
* Non-vacuous (a pass) only against an EXACT trivial value (``trivial_is = "exact"``, the
  default: e.g. log 2, the logistic loss of the zero predictor). When the declared trivial
  value is itself only an upper bound on the trivial predictor's loss
  (``trivial_is = "bound"``), a bound below it is inconclusive, and said so.
* A proof's radius (``trivial_is = "radius"``): the formula is a radius that a proof needs
  (a sufficient starting norm, a width threshold), ``trivial`` the experiment's own value;
  ``direction = "upper"``: the experiment is covered when its value is at least the radius
  (``"lower"``: at most). Not covered is a note, reason "outside the proof's radius": the
  experiment lies where the proof says nothing — it is not a vacuous bound.

A point outside the hypotheses of the results the check covers is re-searched inside them
(:func:`_outside`): the nearest point where every hypothesis is certified, with the check's
``derived`` values (the quantities the paper's setup ties to others, e.g. a norm at
initialization to the width) recomputed there. A check with ``instances`` is graded at each
and reported once (:func:`run`).
"""
from __future__ import annotations

from ...errors import BoundcalcError
from ...expr.nodes import Rel
from ...registry.checks import Vacuity
from ...verdicts import Grade
from . import hypotheses
from .common import Finding, claim, expr, formula, values


def run(reg, paper, t: Vacuity, f: Finding):
    """The check at its point (``at`` with the ``derived`` values), or at each of its
    ``instances``: one finding for all of them (the worst grade; every instance's value in
    the evidence), since the instances restate one fact at several sizes."""
    insts = t.instances
    if not insts:
        _run_at(reg, paper, t, f, dict(t.at))
        return
    probes = []
    for inst in insts:
        p = Finding(f.paper, f.check, f.kind, Grade.OK, f.location, f.message)
        _run_at(reg, paper, t, p, {**t.at, **inst})
        probes.append((inst, p))
    worst = min(probes, key=lambda ip: ip[1].severity.rank)[1]     # the first of the worst grade
    rows = [_instance_row(inst, p) for inst, p in probes]
    same = sum(p.severity is worst.severity and p.reason == worst.reason for _, p in probes)
    f.evidence = {**worst.evidence, "instances": rows}
    def name(inst):
        return ", ".join(f"{k} = {v}" for k, v in inst.items())
    listing = "; ".join(f"{name(inst)}: {r['grade']}" + (f" ({r['value']})" if "value" in r else "")
                        for inst, r in zip(insts, rows))
    head = (f"{same} of the {len(probes)} instances graded {worst.severity.value}"
            + (f" ({worst.reason})" if worst.reason else "") + f" — one fact at several sizes, reported once "
            f"[{listing}]; the first of them: ")
    if worst.severity is Grade.OK:
        f.message = head + worst.message
    else:
        f.grade(worst.severity, worst.reason, head + worst.message)


def _instance_row(inst: dict, p: Finding) -> dict:
    row = {"instance": {k: str(v) for k, v in inst.items()}, "grade": p.severity.value, "reason": p.reason}
    if "value" in p.evidence:
        row["value"] = p.evidence["value"]
    if "point_inside" in p.evidence:
        row["moved"] = p.evidence["point_inside"].get("moved", {})
    return row


def _run_at(reg, paper, t, f: Finding, at_values: dict) -> None:
    node = formula(reg, paper, t.formula)
    if isinstance(node, Rel):
        node = node.rhs if t.side == "rhs" else node.lhs
    node = claim("formula", node)
    env = _derive(reg, paper, t, values(reg, paper, at_values))
    table = reg.symbol_table(node, paper.key)
    for n in sorted(node.symbols()):          # sorted: the point's keys in one order in every run
        if n not in env:
            if n in table and table[n].default is not None:
                env[n] = table[n].default
            else:
                raise BoundcalcError(f"vacuity check needs a value for {n!r}")
    at = {k: str(x) for k, x in env.items()}
    hidden = _hidden_constants(node, env, table)
    if _outside(reg, paper, t, f, node, env, at, hidden):
        return
    _grade_at(reg, paper, t, f, node, env, at, "at the paper's setting" + hidden)


def _hidden_constants(node, env: dict, table) -> str:
    """``, with the hidden constants C = 1, ...`` for the formula's symbols of role
    ``constant`` (constants the paper hides) that the point sets to their defaults: the
    value is at those, not at the paper's (unknown) constants; else empty."""
    hid = [n for n in sorted(node.symbols()) if n in table and table[n].role == "constant"
           and table[n].default is not None and env.get(n) == table[n].default]
    if not hid:
        return ""
    return (f", with the hidden constant{'s' if len(hid) > 1 else ''} "
            + ", ".join(f"{n} = {_short(table[n].default)}" for n in hid))


def _derive(reg, paper, t, pt: dict) -> dict:
    """``pt`` with the check's ``derived`` values (symbol -> expression, in their order,
    each may use the ones before) computed at it: the quantities the paper's setup ties to
    others (a norm at initialization to the width), recomputed wherever the point moves."""
    from fractions import Fraction

    from ...backends import mp as mpb
    from ...mpmath_import import mpmath
    out = dict(pt)
    for k, text in t.derived.items():
        v = mpb.evaluate(expr(reg, paper, text, t.uses), out, digits=40, what=f"derived {k}")
        out[k] = Fraction(mpmath.nstr(v, 40))
    return out


def _grade_at(reg, paper, t, f: Finding, node, env: dict, at: dict, where: str = "at the paper's setting") -> None:
    """The bound at the point ``env`` against its trivial value (the module docstring);
    ``where`` names the point in the messages."""
    from ...backends import mp as mpb
    from ...mpmath_import import mpmath
    upper = t.direction == "upper"
    try:
        v = mpb.evaluate(node, env, digits=15, what=t.formula)
    except BoundcalcError as e:
        f.evidence = {"at": at}
        f.grade(Grade.ERROR, "invalid bound", f"the bound has no value {where}: {e}")
        return
    triv = mpb.evaluate(expr(reg, paper, t.trivial), env, digits=15)
    if t.trivial_is == "radius":
        return _radius(f, v, triv, upper, at, where)
    exact = t.trivial_is == "exact"
    f.evidence = {"value": mpmath.nstr(v, 10), "trivial": mpmath.nstr(triv, 10),
                  "trivial_is": "exact" if exact else "an upper bound on the trivial value", "at": at}
    s = lambda x: mpmath.nstr(x, 6)
    if not mpmath.isfinite(v):
        f.grade(Grade.ERROR, "invalid bound", f"the bound is {s(v)} {where}")
        return
    limit_key = "floor" if upper else "ceiling"
    limit = (t.floor if t.floor is not None else "0") if upper else t.ceiling
    if limit is not None:
        lim = mpb.evaluate(expr(reg, paper, limit), env, digits=15)
        f.evidence[limit_key] = mpmath.nstr(lim, 10)
        if (v < lim) if upper else (v > lim):
            f.grade(Grade.ERROR, "invalid bound",
                    f"invalid {where}: the {'upper' if upper else 'lower'} bound is {s(v)}, "
                    f"{'below the least' if upper else 'above the largest'} value the quantity can take "
                    f"({s(lim)}) — an error of the bound, not a non-vacuous bound")
            return
    turns = _constant_turns(reg, paper, t, node, env, upper)
    if turns:
        f.evidence["hidden_constant_turns"] = turns
    tail = "".join(f"; {x['text']}" for x in turns)
    if (v >= triv) if upper else (v <= triv):
        f.grade(Grade.WARNING, "vacuous",
                f"vacuous {where}: the bound is {s(v)}, "
                f"{'above' if upper else 'below'} the trivial value {s(triv)}{tail}")
    elif exact:
        f.message = f"non-vacuous {where}: {s(v)} vs the exact trivial value {s(triv)}{tail}"
    else:
        f.grade(Grade.WARNING, "undecided",
                f"inconclusive: the bound {s(v)} is below {s(triv)}, but that is only an upper bound on "
                f"the trivial value, so it does not show non-vacuity")


# where a hidden constant turns a vacuity verdict (:func:`_constant_turns`): the constant
# scaled by 2^k, |k| <= TURN_RANGE, then bisected TURN_STEPS times (counts: the same points
# on any machine)
TURN_RANGE = 40
TURN_STEPS = 40


def _constant_turns(reg, paper, t, node, env: dict, upper: bool) -> list[dict]:
    """For each hidden constant of the bound (role ``constant``, at its default at this
    point; not one the check's ``derived`` values use), alone and the others kept: where
    the vacuity verdict turns as it varies from 2^-TURN_RANGE to 2^TURN_RANGE times its
    default, located by bisection on the sign of bound - trivial (mpmath, 30 digits;
    sampled and bisected, not certified), or that it turns nowhere in that range. The
    verdict at the default rests on a constant the paper does not give, so the reader
    needs the value at which it would change (sixth referee reading: anon2025's
    probability changes sign at C_p ~ 1.45)."""
    from fractions import Fraction
    from itertools import pairwise

    from ...backends import mp as mpb
    from ...mpmath_import import mpmath
    table = reg.symbol_table(node, paper.key)
    used = set()
    for text in t.derived.values():
        used |= expr(reg, paper, text, t.uses).symbols()
    trivial = expr(reg, paper, t.trivial)
    hid = [n for n in sorted(node.symbols() | trivial.symbols()) if n in table and table[n].role == "constant"
           and table[n].default is not None and env.get(n) == table[n].default and n not in used
           and Fraction(table[n].default) > 0]
    out = []
    for n in hid:
        c0 = Fraction(table[n].default)

        def gap(c, n=n):
            e = {**env, n: c}
            try:
                d = mpb.evaluate(node, e, digits=30) - mpb.evaluate(trivial, e, digits=30)
            except BoundcalcError:
                return None
            return None if not mpmath.isfinite(d) else (d >= 0) == upper     # True: vacuous

        ks = range(-TURN_RANGE, TURN_RANGE + 1)
        signs = [(c0 * Fraction(2) ** k, gap(c0 * Fraction(2) ** k)) for k in ks]
        signs = [(c, g) for c, g in signs if g is not None]
        if len(signs) < 2:
            continue
        flips = [(a, b) for (a, ga), (b, gb) in pairwise(signs) if ga != gb]
        lo, hi = signs[0][0], signs[-1][0]
        name = f"{n} in [{_short(lo)}, {_short(hi)}]"
        if not flips:
            word = "vacuous" if signs[0][1] else "non-vacuous"
            out.append({"constant": n, "turns_at": None, "range": [str(lo), str(hi)],
                        "text": f"{word} for every {name} sampled at its default times powers of 2 ({n} alone varied; "
                                "not certified)"})
            continue
        pts = []
        for a, b in flips[:3]:
            ga = gap(a)
            for _ in range(TURN_STEPS):
                m = (a + b) / 2
                gm = gap(m)
                if gm is None:
                    break
                a, b = (m, b) if gm == ga else (a, m)
            pts.append((a, b, ga))
        a, b, ga = pts[0]
        first = ("vacuous" if ga else "non-vacuous") + f" below {n} = {float(b):.4g}, " + \
            ("non-vacuous" if ga else "vacuous") + " above"
        more = f" ({len(flips)} turns in {name})" if len(flips) > 1 else ""
        out.append({"constant": n, "turns_at": [f"{float(x):.6g}" for x, _, _ in pts], "range": [str(lo), str(hi)],
                    "text": f"the verdict rests on the hidden constant: {first}{more} ({n} alone varied, the "
                            "others as above; located by bisection at 30 digits, not certified)"})
    return out


def _radius(f: Finding, v, value, upper: bool, at: dict, where: str = "at the paper's setting") -> None:
    """A proof's radius ``v`` against the experiment's ``value`` (see the module docstring)."""
    from ...mpmath_import import mpmath
    s = lambda x: mpmath.nstr(x, 6)
    f.evidence = {"radius": mpmath.nstr(v, 10), "experiment": mpmath.nstr(value, 10), "at": at}
    if not mpmath.isfinite(v):
        f.grade(Grade.ERROR, "invalid bound", f"the radius is {s(v)} {where}")
        return
    covered = v <= value if upper else v >= value
    need = "at least" if upper else "at most"
    if covered:
        f.message = (f"the experiment lies inside the proof's radius: its value {s(value)} is {need} the radius "
                     f"{s(v)} {where}")
    else:
        f.grade(Grade.NOTE, "outside the proof's radius",
                f"the experiment lies outside the proof's radius: the proof needs a value {need} {s(v)} "
                f"{where}, the experiment's is {s(value)} — the proof says nothing there (not a vacuous "
                "bound, not an error of the result)")


def _outside(reg, paper, t, f: Finding, node, env, at, hidden: str = "") -> bool:
    """The point against the hypotheses of the results the check covers (each decided in
    ball arithmetic; a hypothesis symbol the point does not fix takes its default). Where
    one fails, the same claim is re-searched inside the hypotheses (:func:`_nearest_inside`):
    if it goes away there, the finding is "outside the hypotheses" (a note: the paper's
    result says nothing at the check's point, so the value is neither a valid nor an
    invalid bound); if it stands there too, it keeps its grade, with the point inside.
    True when the finding is settled here."""
    from ...backends import mp as mpb
    from ...mpmath_import import mpmath
    hyps = hypotheses.for_check(reg, paper, t, free=env.keys())
    if not hyps:
        return False
    pt = dict(env)
    for h in hyps:
        table = reg.symbol_table(h.rel, paper.key)
        for n in sorted(h.rel.symbols() - pt.keys()):
            if n in table and table[n].default is not None:
                pt[n] = table[n].default
    rows = hypotheses.status_at(hyps, pt)
    f.evidence["hypotheses_at_point"] = rows
    bad = hypotheses.failing(rows)
    if not bad:
        return False
    try:
        v = mpmath.nstr(mpb.evaluate(node, env, digits=15, what=t.formula), 6)
    except Exception:
        v = "undefined"
    outside = "; ".join(_fails_by(r) for r in bad)
    # the same claim re-searched inside the hypotheses: only if it goes away there is the
    # finding "outside the hypotheses"
    inside = _nearest_inside(reg, paper, t, node, hyps, pt, bad)
    if inside is not None:
        probe = Finding(f.paper, f.check, f.kind, Grade.OK, f.location, f.message)
        env_in = {k: x for k, x in inside["point"].items() if k in env}
        _grade_at(reg, paper, t, probe, node, env_in, {k: str(x) for k, x in env_in.items()},
                  "at the nearest point inside the hypotheses" + hidden)
        moved = ", ".join(f"{k} = {_short(x)}" for k, x in inside["moved"].items())
        tied = [k for k in t.derived if inside["point"].get(k) != pt.get(k)]
        if tied:
            moved += "; with it, as the paper's setup ties them (" + t.derived_source.rstrip(". ") + "): " + \
                ", ".join(f"{k} = {_short(inside['point'][k])}" for k in tied)
        if probe.severity is not Grade.OK:
            f.evidence.update(probe.evidence)
            f.evidence["hypotheses_at_point"] = rows
            f.evidence["point_inside"] = {"moved": {k: str(x) for k, x in inside["moved"].items()},
                                          "hypotheses": inside["rows"]}
            f.grade(probe.severity, probe.reason,
                    f"{probe.message} ({moved}; the other values as at the check's point; every hypothesis "
                    f"of the results it covers certified there in ball arithmetic) — the finding stands inside "
                    f"the hypotheses; at the check's own point {outside}")
            return True
        f.evidence["point_inside"] = {"moved": {k: str(x) for k, x in inside["moved"].items()},
                                      "message": probe.message}
        gone = f"; at the nearest point inside them ({moved}) it goes away: {probe.message}"
    else:
        gone = ("; no point where every hypothesis is certified was found by moving one of their symbols "
                "(the finding is not re-graded there)")
    f.evidence.update({"value": v, "at": at})
    f.grade(Grade.NOTE, "outside the hypotheses",
            "outside the hypotheses: " + outside
            + f" at the check's point — the result is not stated there (its value there: {v}; "
            "neither a valid nor an invalid bound)" + gone)
    return True


# the search for a point inside the hypotheses (:func:`_nearest_inside`): one symbol of a
# failing hypothesis moved by factors 2^k, |k| <= MOVE_STEPS (a count: the same points on any machine)
MOVE_STEPS = 64


def _nearest_inside(reg, paper, t, node, hyps, pt: dict, bad: list[dict]) -> dict | None:
    """The point ``pt`` with one symbol of a failing hypothesis moved, by the least factor
    2^k (k = 1 … MOVE_STEPS; integers rounded outwards), to where EVERY hypothesis holds,
    certified in ball arithmetic (:func:`.hypotheses.status_at`; one left undecided, e.g.
    because the point does not fix all its symbols, does not count as holding). The
    check's ``derived`` values are recomputed at each candidate (they move with the symbol
    they are tied to) and are never moved themselves. First a symbol of the side a failing
    hypothesis bounds from below, moved up (the width d_m of "d_m >= C N^3", not N down: the
    experiment's other sizes stay); else any of their symbols, up or down. None when no such
    move puts the point inside."""
    from ...backends import mp as mpb
    texts = {r["hypothesis"] for r in bad}
    tied = set(t.derived)
    try:
        v0 = mpb.evaluate(node, pt, digits=15)
    except Exception:
        return None
    # first the symbols of the side each failing hypothesis bounds from below, moved up (the
    # width of "d_m >= C N^3" grows); then any symbol of them, either way
    ups = [s_ for h in hyps if h.text in texts and h.rel.op in (">=", ">", "<=", "<")
           for s_ in sorted((h.rel.lhs if h.rel.op in (">=", ">") else h.rel.rhs).symbols())]
    anyway = sorted(set().union(*(h.rel.symbols() for h in hyps if h.text in texts)))
    for moves in ([(s_, (1,)) for s_ in dict.fromkeys(ups)], [(s_, (1, -1)) for s_ in anyway]):
        best = _best_move(reg, paper, t, node, hyps, pt, v0,
                          [(s_, d) for s_, d in moves if s_ in pt and s_ not in tied])
        if best is not None:
            return best
    return None


def _best_move(reg, paper, t, node, hyps, pt, v0, moves):
    """Of the moves (symbol, signs of k), the one with the least |k| that puts the point
    inside every hypothesis (ties: the least change of the bound's value, then the
    symbol's name)."""
    from fractions import Fraction

    from ...backends import mp as mpb
    from ...mpmath_import import mpmath
    best = None
    for s_, signs in moves:
        x0 = Fraction(pt[s_])
        table = reg.symbol_table(next(h.rel for h in hyps if s_ in h.rel.symbols()), paper.key)
        dom = table[s_].domain if s_ in table else None
        if x0 == 0:
            continue
        for k in range(1, MOVE_STEPS + 1):
            hit = None
            for sign in signs:
                x = x0 * Fraction(2) ** (sign * k)
                if dom is not None and dom.integer:
                    x = Fraction(-(-x.numerator // x.denominator)) if sign > 0 else Fraction(x.numerator // x.denominator)
                if x == x0 or (dom is not None and not dom.contains(x)):
                    continue
                try:
                    q = _derive(reg, paper, t, {**pt, s_: x})
                except Exception:
                    continue
                rows = hypotheses.status_at(hyps, q)
                if all(r["holds"] is True for r in rows):
                    hit = (x, q, rows)
                    break
            if hit is None:
                continue
            try:
                change = float(mpmath.mpf(abs(mpb.evaluate(node, hit[1], digits=15) - v0)))
            except Exception:
                break
            cand = (k, change, s_)
            if best is None or cand < best[0]:
                best = (cand, {"point": hit[1], "moved": {s_: hit[0]}, "rows": hit[2]})
            break
    return best[1] if best else None


def _short(x) -> str:
    from fractions import Fraction
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{float(x):.6g}"


def _fails_by(row: dict) -> str:
    txt = f"{row['hypothesis']} [{row['from']}] fails"
    if "lhs" in row and "rhs" in row:
        txt += f" ({row['lhs']} vs {row['rhs']}"
        try:
            a, b = float(row["lhs"]), float(row["rhs"])
            if a > 0 and b > 0:
                txt += f", off by a factor {max(a, b) / min(a, b):.3g}"
        except ValueError:
            pass
        txt += ")"
    return txt
