"""Counterexample search for the decision procedure (:mod:`.decide`).

Candidates come from vectorised random sampling of the domains (:mod:`.sampling`), from
domain boundaries (closed end points, values next to open ends, very large values of
unbounded symbols: the compactified domain [a, oo) -> [0, 1) sampled up to its end), from
*pinning* assumptions ``x >= e(...)`` to equality ``x = e(...)`` (boundary points such as
Theta = 1 in Tarzanagh et al.'s Lemma 14), and, in the deep pass, from a local search
around the best candidates. NumPy only ranks candidates; every reported counterexample is
a point of exact rationals at which the violation and every assumption are re-checked in
ball arithmetic (or exactly), so a reported counterexample is certified.

Soundness contract: never proves. Every counterexample it returns is a point of exact
rationals inside the domains at which every assumption holds and the relation fails,
each re-checked exactly or in ball arithmetic; running out of its budget returns None.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..expr.domains import Domain
from ..expr.nodes import Node, Rel, Sym
from .budget import BALL_POINTS_PER_SECOND, charge, expired, net_tripped
from .goal import Goal

CERT_PREC = 4096          # bits: a violation not separated from 0 by then is not reported
SIMPLIFY_TRIES = 48       # shorter coordinates tried when a counterexample is simplified
NEAR_ZERO_TRIES = 8       # candidates that look like equality (not violations) certified at most

FLIP = {">=": "<=", "<=": ">=", ">": "<", "<": ">", "==": "=="}


def _np_values(node: Node, pts: dict[str, np.ndarray], n: int) -> np.ndarray:
    from . import sampling
    with np.errstate(all="ignore"):
        try:
            v = sampling.values(node, pts)
        except (OverflowError, ZeroDivisionError, ValueError, TypeError):
            return np.full(n, np.nan)
    v = np.asarray(v, dtype=float)
    return v if v.shape == (n,) else np.broadcast_to(v, (n,)).copy()


def _boundary_values(d: Domain) -> list[float]:
    out = []
    if d.lo is not None:
        lo = float(d.lo)
        out += [lo] if d.lo_closed else [lo + 1e-9 * max(1, abs(lo)), lo + 1e-3 * max(1, abs(lo))]
    if d.hi is not None:
        hi = float(d.hi)
        out += [hi] if d.hi_closed else [hi - 1e-9 * max(1, abs(hi)), hi - 1e-3 * max(1, abs(hi))]
    if d.hi is None:
        base = float(d.lo) if d.lo is not None else 0.0
        out += [base + 1e3, base + 1e6, base + 1e12]
    if d.lo is None:
        base = float(d.hi) if d.hi is not None else 0.0
        out += [base - 1e3, base - 1e6]
    if d.lo is None and d.hi is None:
        out += [0.0, 1.0, -1.0]
    # small simple numbers: where textbook relations attain equality (x = 1 in x e^-x <= 1/e)
    out += [v for v in (1.0, 2.0, 0.5, 3.0, 1 / 3, 0.25, 4.0, 10.0, -1.0, 0.0) if d.contains(Fraction(v))]
    return out


def _pinnable(extra: list[Rel]):
    """Assumptions of the form ``x OP e`` with x a symbol not in e: (x, e)."""
    out = []
    for r in extra:
        if r.op == "==":
            continue
        for lhs, rhs in ((r.lhs, r.rhs), (r.rhs, r.lhs)):
            if isinstance(lhs, Sym) and lhs.name not in rhs.symbols():
                out.append((lhs.name, rhs))
                break
    return out


def _candidates(domains, extra, samples, seed, deep):
    from . import sampling
    names = sorted(domains)
    pts = sampling.sample({n: domains[n] for n in names}, samples, seed)
    n = samples
    rng = np.random.default_rng(seed + 7)
    # boundary points: each symbol at one of its boundary values, on a quarter of the points
    for i, name in enumerate(names):
        bv = _boundary_values(domains[name])
        if not bv:
            continue
        idx = rng.choice(n, size=max(1, n // (4 * max(1, len(names)))), replace=False)
        pts[name][idx] = rng.choice(bv, size=len(idx))
    # points where every symbol sits at a boundary value (up to 64 combinations)
    k = min(n // 8, 64)
    for name in names:
        bv = _boundary_values(domains[name])
        if bv:
            pts[name][-k:] = rng.choice(bv, size=k)
    # pin the assumptions x >= e to equality on half of the points
    pins = _pinnable(extra)
    if pins:
        half = np.arange(n // 2, n)
        for _ in range(2):
            for x, e in pins:
                v = _np_values(e, pts, n)
                ok = np.isfinite(v)
                sel = half[ok[half]]
                pts[x][sel] = v[sel]
    for name in names:
        if domains[name].integer:
            pts[name] = np.round(pts[name])
    return pts


def find(goal: Goal, *, samples: int, seed: int, deadline: float, deep: bool = False) -> dict | None:
    """A certified counterexample to the goal's ``a rel b`` (as a report dict), or None. ``deadline``
    is on the work clock (:func:`.budget.clock`), charged per point certified and per local
    step; the search is also bounded by counts (candidates certified, local steps)."""
    with np.errstate(all="ignore"):
        return _find(goal, samples, seed, deadline, deep)


def _find(goal: Goal, samples: int, seed: int, deadline: float, deep: bool):
    a, rel, b, op, domains, extra = goal.a, goal.rel, goal.b, goal.op, goal.domains, goal.extra
    if not domains:
        return None
    names = sorted(domains)
    pts = _candidates(domains, extra, samples, seed, deep)
    n = samples
    ok = np.ones(n, dtype=bool)
    for r in extra:
        lv, rv = _np_values(r.lhs, pts, n), _np_values(r.rhs, pts, n)
        tol = 1e-9 * (np.abs(lv) + np.abs(rv)) + 1e-300
        ok &= {"<=": lv <= rv + tol, ">=": lv >= rv - tol, "<": lv < rv + tol, ">": lv > rv - tol,
               "==": np.abs(lv - rv) <= tol}[r.op]
    for name in names:
        d = domains[name]
        x = pts[name]
        if d.lo is not None:
            ok &= (x >= float(d.lo)) if d.lo_closed else (x > float(d.lo))
        if d.hi is not None:
            ok &= (x <= float(d.hi)) if d.hi_closed else (x < float(d.hi))
    va, vb = _np_values(a, pts, n), _np_values(b, pts, n)
    gv = (vb - va) if rel in ("<=", "<") else (va - vb)
    scale = np.abs(va) + np.abs(vb) + 1e-300
    fin = ok & np.isfinite(gv) & np.isfinite(scale)
    rel_g = np.where(fin, gv / scale, np.nan)
    if op == "==":
        score = np.where(fin, np.abs(rel_g), -np.inf)
    else:
        score = np.where(fin, -rel_g, -np.inf)      # most violated first; near-zero boundary points next
    order = np.argsort(-score)
    near = 0
    for i in order[:60]:
        if expired(deadline):
            break
        if not np.isfinite(score[i]):
            break
        if op == "==" and score[i] <= 1e-12:
            break
        if op != "==" and score[i] < -1e-9:
            break
        if op != "==" and score[i] <= 0:
            near += 1
            if near > NEAR_ZERO_TRIES:
                break
        env = {k: Fraction(repr(float(pts[k][i]))) for k in names}
        ce = certify_point(goal, env)
        if ce is not None:
            return ce
    if deep and not expired(deadline):
        return _local(goal, pts, rel_g, fin, deadline)
    return None


def _local(goal: Goal, pts, rel_g, fin, deadline: float):
    """Coordinate-wise shrinking random steps from the best points (minimising the
    normalised slack); candidates are certified like every other."""
    a, rel, b, op, domains, extra = goal.a, goal.rel, goal.b, goal.op, goal.domains, goal.extra
    names = sorted(domains)
    val = np.where(fin, rel_g if op != "==" else -np.abs(rel_g), np.inf)
    starts = np.argsort(val)[:8]
    rng = np.random.default_rng(11)
    for i in starts:
        if not np.isfinite(val[i]) or expired(deadline):
            break
        x = {k: float(pts[k][i]) for k in names}
        best = val[i]
        step = 0.5
        for _ in range(60):
            if expired(deadline):
                return None
            charge(1 / BALL_POINTS_PER_SECOND)
            m = 64
            trial = _trials(x, names, domains, step, rng, m)
            ok = _admissible(trial, names, domains, extra, m)
            va, vb = _np_values(a, trial, m), _np_values(b, trial, m)
            gv = (vb - va) if rel in ("<=", "<") else (va - vb)
            s = gv / (np.abs(va) + np.abs(vb) + 1e-300)
            if op == "==":
                s = -np.abs(s)
            s = np.where(ok & np.isfinite(s), s, np.inf)
            j = int(np.argmin(s))
            if s[j] < best:
                best = s[j]
                x = {k: float(trial[k][j]) for k in names}
                if (op == ">=" and best < 0) or (op == ">" and best <= 0) or (op == "==" and best < -1e-12):
                    env = {k: Fraction(repr(v)) for k, v in x.items()}
                    ce = certify_point(goal, env)
                    if ce is not None:
                        return ce
            else:
                step *= 0.7
    return None


def _trials(x: dict, names: list, domains, step: float, rng, m: int) -> dict:
    """``m`` random steps from ``x``: integers by -2..2, positive reals multiplicatively,
    other reals additively, each of size ``step``."""
    trial = {k: np.full(m, v) for k, v in x.items()}
    for k in names:
        if domains[k].integer:
            trial[k] = trial[k] + rng.integers(-2, 3, m)
        else:
            trial[k] = trial[k] * np.exp(step * rng.standard_normal(m)) if x[k] > 0 and (
                domains[k].lo is not None and domains[k].lo >= 0) else trial[k] + step * (abs(x[k]) + 1) * rng.standard_normal(m)
    return trial


def _admissible(trial: dict, names: list, domains, extra, m: int):
    """The trial points inside the domains where every assumption holds (in floats: only
    proposes; a candidate is certified)."""
    ok = np.ones(m, dtype=bool)
    for k in names:
        d = domains[k]
        if d.lo is not None:
            ok &= (trial[k] >= float(d.lo)) if d.lo_closed else (trial[k] > float(d.lo))
        if d.hi is not None:
            ok &= (trial[k] <= float(d.hi)) if d.hi_closed else (trial[k] < float(d.hi))
    for r in extra:
        lv, rv = _np_values(r.lhs, trial, m), _np_values(r.rhs, trial, m)
        ok &= {"<=": lv <= rv, ">=": lv >= rv, "<": lv < rv, ">": lv > rv, "==": lv == rv}[r.op]
    return ok


def certify_point(goal: Goal, env, simplify: bool = True) -> dict | None:
    """The report of a certified violation of the goal at ``env`` (exact rationals), or
    None: every value lies in its domain, every assumption holds, and the relation fails —
    each decided exactly or in ball arithmetic."""
    from ..backends import mp as mpb
    a, rel, b, g, op, domains, extra = goal.a, goal.rel, goal.b, goal.g, goal.op, goal.domains, goal.extra
    if env is None:
        return None
    charge(1 / BALL_POINTS_PER_SECOND)
    env = {k: (v if isinstance(v, Fraction) else Fraction(v)) for k, v in env.items()}
    _repin(env, extra)
    for k, d in domains.items():
        if k not in env:
            return None
        if d.integer and env[k].denominator != 1:
            env[k] = Fraction(round(env[k]))
        if not d.contains(env[k]):
            return None
    for r in extra:
        from ..expr.nodes import sub as _sub
        s = mpb.decide_sign(_sub(r.lhs, r.rhs), env, max_prec=CERT_PREC)
        if s is None or not {"<=": s <= 0, ">=": s >= 0, "<": s < 0, ">": s > 0, "==": s == 0}[r.op]:
            return None
    s = mpb.decide_sign(g, env, max_prec=CERT_PREC)
    if s is None and op == ">":
        s = _exactly_zero(g, env)          # equality at the point violates a strict relation
    if s is None:
        return None
    violated = {">=": s < 0, ">": s <= 0, "==": s != 0}[op]
    if not violated:
        return None
    if simplify:
        env = _simpler(goal, env)
    return report(env, a, b, Rel(rel, a, b), extra)


def _short_fractions(x: Fraction):
    """Shorter numbers near x: integers, then 1 to 15 significant digits."""
    out = [Fraction(round(x))] if x != round(x) else []
    if x != 0:
        import math
        e = math.floor(math.log10(abs(float(x)))) if float(x) != 0 else 0
        for digits in range(1, 16):
            q = Fraction(10) ** (e - digits + 1)
            out.append(round(x / q) * q)
    return [v for v in dict.fromkeys(out) if v != x]


def _simpler(goal: Goal, env) -> dict:
    """The same counterexample with shorter coordinates where they still certify: each
    symbol in turn is replaced by the shortest nearby number that keeps the violation,
    assumptions met with equality at the point being kept with equality; at most
    :data:`SIMPLIFY_TRIES` of them (a count: the same point however loaded the machine)."""
    from ..expr.exact import NotExact, evaluate_exact
    tries = 0
    pins = []
    for x, e in _pinnable(goal.extra):
        try:
            if x in env and evaluate_exact(e, env) == env[x]:
                pins.append((x, e))
        except (NotExact, ZeroDivisionError, KeyError):
            pass
    pinned = {x for x, _ in pins}
    cur = dict(env)
    for k in sorted(cur):
        if k in pinned:
            continue
        for v in _short_fractions(cur[k]):
            tries += 1
            if tries > SIMPLIFY_TRIES or net_tripped():
                return cur
            trial = dict(cur)
            trial[k] = v
            try:
                for _ in range(2):
                    for x, e in pins:
                        trial[x] = evaluate_exact(e, trial)
            except (NotExact, ZeroDivisionError, KeyError):
                continue
            if certify_point(goal, trial, simplify=False) is not None:
                cur = trial
                break
    return cur


def _exactly_zero(g, env) -> int | None:
    """0 if SymPy shows ``g`` is exactly zero at ``env`` (balls never can), else None."""
    from .budget import Timeout, sympy_safe, time_limit
    if sympy_safe(g):
        return None
    try:
        with time_limit(0.5):
            from .symbolic import is_zero_at
            return 0 if is_zero_at(g, env) else None
    except (Timeout, Exception):
        return None


def _repin(env, extra) -> None:
    """Snap a symbol that sits (to rounding) on an assumption's boundary ``x = e`` onto
    the exact boundary value, so that boundary points survive the exact re-check."""
    from ..expr.exact import NotExact, evaluate_exact
    for _ in range(2):
        for x, e in _pinnable(extra):
            if x not in env:
                continue
            try:
                v = evaluate_exact(e, env)
            except (NotExact, ZeroDivisionError, KeyError):
                continue
            if v != env[x] and abs(v - env[x]) <= Fraction(1, 10 ** 9) * (abs(v) + 1):
                env[x] = v


def report(env, a, b, node, extra) -> dict:
    """A counterexample as reported: the coordinates of ``env`` that ``node`` and ``extra``
    use, with the values of the sides ``a`` (``lhs``) and ``b`` (``rhs``)."""
    used = node.symbols() | set().union(*(r.symbols() for r in extra)) if extra else node.symbols()
    out = {k: _show(v) for k, v in sorted(env.items()) if k in used}
    out["lhs"], out["rhs"] = side_texts(a, b, env)
    return out


def side_texts(a, b, env) -> tuple[str, str]:
    """The values of the sides ``a`` and ``b`` at ``env`` as a counterexample prints them: 12
    certified digits, more (up to 48) where the two would print alike (a d^2 term of 1e-18
    made 2.03642451862 against 2.03642451862)."""
    digits, texts = 12, [_value_text(x, env, 12) for x in (a, b)]
    while texts[0] == texts[1] and digits < 48 and "approx" not in texts[0] and texts[0] != "undefined":
        digits *= 2
        texts = [_value_text(x, env, digits) for x in (a, b)]
    return texts[0], texts[1]


def _value_text(side, env, digits: int) -> str:
    from ..backends import mp as mpb
    from ..mpmath_import import mpmath
    try:
        return mpmath.nstr(mpb.evaluate(side, env, digits=digits), digits)
    except Exception:          # a side may be too close to 0 to print certified digits
        p = mpb.evaluate_point(side, env)
        return "undefined" if p is None else mpmath.nstr(p, 12) + " (approx.)"


def _show(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else str(v)
