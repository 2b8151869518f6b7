"""Taylor models for the interval layer (:mod:`.interval`): second-order enclosures of the
goal over a box, and the local order at a point where both sides touch.

Soundness contract.

* :func:`lower_taylor2` returns a number ``L`` with ``g(x) >= L`` for every ``x`` of the
  box, from Taylor's theorem with the Lagrange remainder, ``g(x) = g(m) + grad g(m).h +
  (1/2) h^T H(xi) h`` (``h = x - m``, ``xi`` on the segment from ``m`` to ``x``, inside the
  box as the box is convex): ``g(m)`` and ``grad g(m)`` are balls at the midpoint, the
  Hessian entries are enclosed over the whole box (arb interval evaluation of SymPy's
  exact derivatives), and the quadratic form is bounded below term by term (diagonal:
  the exact minimum over ``h_i`` of ``a h_i + (1/2) b h_i^2`` with ``b`` the Hessian's
  lower end; off-diagonal: ``-|H_ij| r_i r_j``). The overestimation shrinks with the cube
  of the width (the mean-value form's with the square), so a margin of 1e-6 closes with
  boxes about 1e-2 wide.
* :func:`touching_point` and :func:`closes_near` prove ``g >= 0`` on a box near a point
  ``x0`` where enclosures cannot (``g(x0) = 0``): ``x0`` is a rational point, found
  numerically (Newton's method on the gradient) and then CHECKED EXACTLY (SymPy, exact
  arithmetic: ``g(x0) = 0`` and every partial derivative at ``x0`` is 0); over the
  smallest box holding the piece and ``x0`` the Hessian enclosure is positive
  semidefinite (1 variable: ``g'' >= 0``; more: Gershgorin's discs of the interval
  matrix in ``[0, oo)``), so by Taylor's theorem at ``x0``
  ``g(x) = (1/2) h^T H(xi) h >= 0`` on the piece. A point found numerically is only a
  candidate; nothing is concluded unless the exact checks pass.

Budget: the caller's (boxes and seconds of work); SymPy's differentiation runs under
``budget.time_limit``.
"""
from __future__ import annotations

from fractions import Fraction

from ..expr.nodes import Node

__all__ = ["closes_near", "derivatives", "lower_taylor2", "touching_point"]

MAX_VARS = 4                 # Hessians beyond this many variables are not built (size budget)
TOUCH_DENOMINATOR = 1000     # candidate touching points: rationals with denominators up to this
EXACT_SECONDS = 0.3          # budget (seconds of work: SymPy calls) of its exact check of one candidate point
SIMPLIFY_OPS = 30            # the largest value (count_ops) that check simplifies


def derivatives(g: Node, names, seconds: float = 1.0):
    """(first, second): dg/dx_i and d2g/dx_i dx_j (i <= j) as trees (SymPy), or ({}, {})."""
    from .budget import Timeout, time_limit
    try:
        from ..backends.sym import from_sympy, to_sympy
        from ..backends.sympy_import import sympy as sp
        syms = {n: sp.Symbol(n, real=True) for n in names}
        with time_limit(seconds):
            e = to_sympy(g, dict(syms))
            d1s = {n: sp.diff(e, s) for n, s in syms.items()}
            d1 = {n: from_sympy(v) for n, v in d1s.items()}
            d2 = {}
            if len(names) <= MAX_VARS:
                for i, a in enumerate(names):
                    for b in names[i:]:
                        d2[(a, b)] = from_sympy(sp.diff(d1s[a], syms[b]))
            return d1, d2
    except (Timeout, Exception):
        return {}, {}


def _enc(A, node, env):
    from .budget import charge_nodes
    charge_nodes(node)
    try:
        return A.enclose(node, env, prec=96)
    except (A.Undefined, A.Unresolved, A.TooLarge):
        return None


def _quad_min(a, b, r):
    """A lower bound of a h + (1/2) B h^2 over h in [-r, r], a in the ball ``a``, B in the
    ball ``b`` (r >= 0): B h^2 >= beta h^2 with beta = lower(b); for beta <= 0 the minimum
    is at an end; for beta > 0 it is at an end unless the vertex -a/beta lies inside, and
    it is then at least the vertex value -a^2/(2 beta). The smallest of these candidates
    bounds it below."""
    beta = b.lower()
    cands = [-a.upper() * r + beta * r * r / 2, a.lower() * r + beta * r * r / 2]
    if beta > 0:
        # the vertex h = -a/beta lies in [-r, r] for some a of the ball unless every |a| > beta r
        amin = 0 if (a.lower() <= 0 <= a.upper()) else min(abs(a.lower()), abs(a.upper()))
        if not amin > beta * r:
            amax = max(abs(a.lower()), abs(a.upper()))
            cands.append(-(amax * amax) / (2 * beta))
    return min((c.lower() for c in cands), key=lambda v: v)


def lower_taylor2(A, g: Node, d1: dict, d2: dict, env: dict):
    """A lower bound of g over the box ``env`` (values: points or (lo, hi) pairs) by the
    second-order Taylor form (see the module docstring), or None."""
    from flint import arb
    mid = {n: ((v[0] + v[1]) / 2 if isinstance(v, tuple) else v) for n, v in env.items()}
    rad = {n: ((v[1] - v[0]) / 2 if isinstance(v, tuple) else Fraction(0)) for n, v in env.items()}
    free = [n for n, r in rad.items() if r > 0]
    if any(n not in d1 for n in free):
        return None
    gm = _enc(A, g, mid)
    if gm is None:
        return None
    with A.precision(96):
        total = gm.lower()
        for i, n in enumerate(free):
            a = _enc(A, d1[n], mid)
            h = d2.get((n, n))
            b = None if h is None else _enc(A, h, env)
            if a is None or b is None:
                return None
            r = A.ball(rad[n])
            total = total + _quad_min(a, b, r)
            for m in free[i + 1:]:
                key = (n, m) if (n, m) in d2 else (m, n)
                if key not in d2:
                    return None
                c = _enc(A, d2[key], env)
                if c is None:
                    return None
                cmax = max(abs(c.lower()), abs(c.upper()))
                total = total - cmax * r * A.ball(rad[m])
        return arb(total).lower()


def touching_point(g: Node, d1: dict, d2: dict, env: dict, domains) -> dict | None:
    """A rational point x0 near the box ``env`` where g touches 0 — g(x0) = 0 and
    grad g(x0) = 0, both checked in exact arithmetic — or None. Newton's method proposes
    it; only the exact check makes it one."""
    names = sorted(env)
    if not d2 or len(names) > MAX_VARS or any(n not in d1 for n in names):
        return None
    x0 = _newton(g, d1, d2, env, names)
    if x0 is None or not _exact_touch(g, d1, x0, domains):
        return None
    return x0


def closes_near(A, d2: dict, x0: dict, env: dict) -> bool:
    """g >= 0 on the box ``env`` from a touching point x0 (g(x0) = 0, grad g(x0) = 0): the
    Hessian is positive semidefinite over the smallest box holding ``env`` and x0 (the
    segments from x0 to the box lie in it), so g(x) = (1/2) h^T H(xi) h >= 0."""
    hull = {}
    for n, v in env.items():
        lo, hi = v if isinstance(v, tuple) else (v, v)
        if n not in x0:
            return False
        lo, hi = min(lo, x0[n]), max(hi, x0[n])
        hull[n] = lo if lo == hi else (lo, hi)
    return _psd(A, d2, sorted(env), hull)


def _newton(g, d1, d2, env, names) -> dict | None:
    """A candidate point where grad g = 0 (or a face point), by Newton's method in mpmath
    from the box's midpoint, rounded to a rational with a small denominator."""
    from ..backends import mp as mpb
    from ..mpmath_import import mpmath
    def mpq(q: Fraction):
        return mpmath.mpf(q.numerator) / q.denominator
    try:
        with mpmath.workdps(40):
            x = {n: mpq((v[0] + v[1]) / 2) if isinstance(v, tuple) else mpq(Fraction(v)) for n, v in env.items()}
            for _ in range(40):
                grad = [_ev(mpb, d1[n], x) for n in names]
                H = mpmath.matrix(len(names))
                for i, a in enumerate(names):
                    for j, b in enumerate(names):
                        key = (a, b) if (a, b) in d2 else (b, a)
                        H[i, j] = _ev(mpb, d2[key], x)
                step = mpmath.lu_solve(H, mpmath.matrix(grad))
                for i, n in enumerate(names):
                    x[n] -= step[i]
                if max(abs(s) for s in step) < mpmath.mpf(10) ** -30:
                    break
    except (ZeroDivisionError, ValueError, TypeError, OverflowError, AttributeError, ArithmeticError):
        return None
    out = {}
    for n in names:
        try:
            out[n] = Fraction(str(x[n])).limit_denominator(TOUCH_DENOMINATOR)
        except (ValueError, OverflowError):
            return None
    return out


def _ev(mpb, node, x):
    from .budget import charge_nodes
    charge_nodes(node)
    v = mpb.evaluate_point(node, x, prec=160)
    if v is None:
        raise ValueError("no value")
    return v


def _exact_touch(g, d1, x0, domains) -> bool:
    """g(x0) == 0 and grad g(x0) == 0 in exact arithmetic (SymPy)."""
    from .budget import Timeout, time_limit
    try:
        from ..backends.sym import to_sympy
        from ..backends.sympy_import import sympy as sp
        syms = {n: sp.Symbol(n, real=True) for n in x0}
        sub = {syms[n]: sp.Rational(v.numerator, v.denominator) for n, v in x0.items()}
        with time_limit(EXACT_SECONDS):
            for node in [g] + [d1[n] for n in sorted(x0)]:
                val = to_sympy(node, dict(syms)).subs(sub)
                if val.is_Number or val.is_zero is not None:
                    if not val.is_zero:
                        return False
                    continue
                # simplify only small values: the limit above cannot interrupt outside the main thread
                # (another timer running, a thread), and simplify can run for minutes
                if sp.count_ops(val) > SIMPLIFY_OPS:
                    return False
                val = sp.simplify(val)
                if not (val.is_Number and val == 0):
                    return False
        return True
    except (Timeout, Exception):
        return False


def _psd(A, d2, names, env) -> bool:
    """Every matrix of the interval Hessian over ``env`` is positive semidefinite, by
    Gershgorin: H_ii >= sum_j |H_ij| for every row (enclosure lower/upper ends)."""
    ents = {}
    for i, a in enumerate(names):
        for b in names[i:]:
            key = (a, b) if (a, b) in d2 else (b, a)
            e = _enc(A, d2[key], env)
            if e is None:
                return False
            ents[(a, b)] = ents[(b, a)] = e
    with A.precision(96):
        for a in names:
            off = sum((max(abs(ents[(a, b)].lower()), abs(ents[(a, b)].upper())) for b in names if b != a),
                      A.ball(0))
            if not (ents[(a, a)].lower() - off).lower() >= 0:
                return False
    return True
