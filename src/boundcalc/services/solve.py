"""Deciding and solving requirements numerically, with certificates (no SymPy).

``least value`` problems such as "the least number of heads H with sqrt(H) >= f(...)"
use the monotone structure of the relation:

1. *direction*: :func:`trend` reads, from the expression tree alone, whether
   ``lhs - rhs`` is non-decreasing or non-increasing in the variable once every other
   symbol has its value (sums of same-direction terms, products with a certified sign,
   powers of a positive base, increasing functions ...). The set where the relation
   holds is then an interval reaching one end of the domain, so a boundary certified
   locally is the global least (or greatest) value. When the tree does not show it,
   the caller may supply the direction (e.g. from :mod:`.monotone`) or let the search
   run with ``trend=None`` and say that monotonicity was not established.
2. *search*: the domain's end is tried first (a requirement that already holds at
   H = 1 returns at once); then exponential probes ``lo + 2^k`` (k doubling), a
   binary search on the exponent, and a safeguarded secant/bisection on point values
   inside one binade; point values use just enough bits to separate neighbours.
3. *certificate*: the relation is decided exactly (rationals) or by interval
   arithmetic at the answer (holds) and just beyond it (fails): answer - 1 for a least
   integer, the other end of a tiny bracket for a real.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from ..backends import mp as mpb
from ..errors import BoundcalcError, UnsatisfiableError
from ..expr._record import record_repr
from ..expr.domains import Domain
from ..expr.indexed import Vector
from ..expr.nodes import Mul, Num, Rel, Sym, sub, substitute
from ..expr.numbers import ExactValue, fmt_decimal, fmt_int, shortest_decimal
from ..registry.values import fmt_fraction
from ..verdicts import Direction, MonotoneEvidence, RequireOutcome, Verdict
from .trend import trend  # the direction read from the tree (.monotone and .continuity use it too)

MAX_LOG2 = 400_000        # search up to 2^400000 (~10^120000)
REAL_BITS = 200           # relative width of a real answer's bracket: 2^-REAL_BITS
TINY = Fraction(1, 2 ** 40000)   # absolute width that ends a bracket closing on 0 (past the 1e-4000 budget)


# ---------------------------------------------------------------------------- printing
def fmt_value(v) -> str:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return fmt_int(v)
    if isinstance(v, Fraction):
        return fmt_decimal(v)
    if hasattr(v, "_mpf_"):                      # an mpmath value
        return mpb.fmt_sig(v, 15)
    return str(v)


def json_value(v):
    """A value for JSON: integers as numbers (below the 4300-digit conversion limit), else text."""
    if isinstance(v, int) and not isinstance(v, bool) and abs(v).bit_length() <= 13_000:   # < 4300 digits
        return v
    return fmt_value(v)


# ---------------------------------------------------------------------------- decisions
def _sign_ok(op: str, s: int) -> bool:
    return {"<=": s <= 0, ">=": s >= 0, "<": s < 0, ">": s > 0, "==": s == 0}[op]


def relation_holds(rel: Rel, env: dict, *, what: str = "relation", diff=None, keep=None,
                   var: str | None = None, max_prec: int | None = None) -> bool:
    """Certified decision of ``lhs OP rhs`` at ``env`` (``diff``/``keep``/``var``: reuse
    the enclosures of the parts that do not depend on ``var`` across calls; ``max_prec``:
    more bits than the default, for values such as H = 10^8000 next to H - 1)."""
    diff = sub(rel.lhs, rel.rhs) if diff is None else diff
    kw = {} if max_prec is None else {"max_prec": max_prec}
    s = mpb.decide_sign(diff, env, keep=keep, var=var, **kw)
    if s is None:
        # equal to every precision tried: decide equality exactly (rational part plus
        # radicals, no SymPy: numeric commands never import it)
        from ..expr.exact import exact_zero
        try:            # the values the sign was decided at, exactly (an mpf is a binary fraction)
            exact_env = {k: _to_fraction(v) for k, v in env.items()}
        except (TypeError, ValueError):
            exact_env = None
        if exact_env is not None and exact_zero(diff, exact_env):
            s = 0
        else:
            raise BoundcalcError(f"{what}: cannot decide the relation at these values")
    return _sign_ok(rel.op, s)



# ---------------------------------------------------------------------------- solving
@dataclass
class Solution:
    __repr__ = record_repr       # integers of any size (boundcalc.expr._record)
    var: str
    value: int | Fraction | None  # int for integer variables, an exact ExactValue otherwise; None: no value
    direction: str                # "least" or "greatest"
    integer: bool
    certificate: dict = field(default_factory=dict)
    monotone: str = ""            # how the direction is known
    outcome: RequireOutcome = RequireOutcome.SOLVED  # solved | holds everywhere | undecided | not monotone
    attained: bool | None = True  # False: the value is an infimum/supremum the relation misses

    def __post_init__(self):
        self.outcome = RequireOutcome(self.outcome)

    @property
    def json_value(self):
        """The value for JSON (:func:`json_value`); None when there is none."""
        return None if self.value is None else json_value(self.value)

    def __str__(self) -> str:
        if self.value is None:
            return self.outcome
        return fmt_value(self.value)


def _geometric_mean(a: Fraction, b: Fraction) -> Fraction:
    """About sqrt(a b) for a, b of one sign (the sign kept), to 64 bits relative: a
    bisection step in the exponent, for brackets spanning many binades."""
    sgn = 1 if a > 0 else -1
    p = a * b
    sh = max(0, 64 - (p.numerator.bit_length() - p.denominator.bit_length()) // 2) + 64
    return sgn * Fraction(math.isqrt(int(p * 4 ** sh)), 2 ** sh)


def _bisect(a: Fraction, b: Fraction) -> Fraction:
    """The midpoint of (a, b), or the geometric mean where the bracket spans binades."""
    if (a > 0 and b > 4 * a) or (b < 0 and a < 4 * b):
        x = _geometric_mean(a, b)
        if a < x < b:
            return x
    if a < 0 < b:
        return Fraction(0)
    if a == 0 or b == 0:                  # toward 0: the exponent doubles (2^-8, 2^-16, 2^-32 ...)
        c = b if a == 0 else a
        e = max(4, c.denominator.bit_length() - abs(c.numerator).bit_length())
        return c / 2 ** e
    return (a + b) / 2


def _first_int(domain: Domain) -> int:
    lo = domain.lo
    assert lo is not None, domain       # (a domain bounded below)
    n = math.ceil(lo)
    return n + 1 if n == lo and not domain.lo_closed else n


def _to_fraction(x) -> Fraction:
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int):
        return Fraction(x)
    from ..mpmath_import import mpmath
    sign, man, exp, _ = mpmath.mpf(x)._mpf_          # (man_exp alone would drop the sign)
    return (-1) ** sign * Fraction(int(man)) * Fraction(2) ** int(exp)


_UNSET = object()


def solve_relation(rel: Rel, var: str, env: dict, domain: Domain, *, what: str,
                   trend_hint: int | None = None, evidence: str = "", structural=_UNSET,
                   scope: str = "") -> Solution:
    """The least (or greatest) value of ``var`` in ``domain`` at which ``rel`` holds
    (``scope``: the search range ``domain`` is, e.g. ``n in [8, +inf)``, for the messages).

    The direction comes from :func:`trend` (or ``trend_hint`` with its ``evidence``);
    without one, the set where ``rel`` holds is assumed to be an interval reaching an end
    of the domain, and the solution says that monotonicity was not established."""
    if rel.op == "==":
        raise BoundcalcError(f"{what} is an equation; a least or greatest {var} is asked of an inequality")
    diff = sub(rel.lhs, rel.rhs)
    solver = _Solver(rel, var, env, domain, what, diff)
    solver.where = f"the range {scope}" if scope else "its domain"
    t = trend(diff, var, env, domain) if structural is _UNSET else structural   # (the caller's, if given)
    how = "the expression is monotone in " + var + " (read from its structure, certified signs)"
    if t is None and trend_hint is not None:
        t, how = trend_hint, evidence or "monotone (given)"
        solver.check_samples = True   # not read from the tree: sample points may contradict it
    if t == 0:
        how = f"does not depend on {var}"
    return solver.run(t, how)


class _Solver:
    def __init__(self, rel, var, env, domain, what, diff):
        self.rel, self.var, self.env, self.domain, self.what, self.diff = rel, var, env, domain, what, diff
        self.keep: dict = {}
        self.fns: dict[int, Callable] = {}
        self.integer = domain.integer
        self.sign = 1 if rel.op in (">=", ">") else -1     # holds <=> sign * diff (>=|>) 0
        self.check_samples = False    # monotonicity only sampled/certified on a box: test it at points
        self.where = "its domain"     # or "the range n in [8, +inf)" (require --from/--to)

    def decide(self, x) -> bool | None:
        """Certified: does the relation hold at ``x`` (None: undecidable there — undefined,
        beyond range, or not separated from equality). No SymPy."""
        e = dict(self.env)
        e[self.var] = x = Fraction(x)
        bits = max(abs(x.numerator).bit_length(), x.denominator.bit_length())
        s = mpb.decide_sign(self.diff, e, keep=self.keep, var=self.var,
                            max_prec=max(mpb.SIGN_MAX_PREC, 4 * bits + 512))
        return None if s is None else _sign_ok(self.rel.op, s)

    def decide_final(self, x) -> bool | None:
        """:meth:`decide`, then, where balls cannot separate the value from equality, the
        symbolic equality test (the answer's own certificate)."""
        r = self.decide(x)
        if r is None:
            try:
                r = self.holds(x)
            except BoundcalcError:
                return None
        return r

    def exact_sign(self, x) -> int | None:
        e = dict(self.env)
        e[self.var] = Fraction(x)
        from ..expr.exact import NotExact, evaluate_exact
        try:
            v = evaluate_exact(self.diff, e)
        except (NotExact, ZeroDivisionError, ValueError, OverflowError):
            return None
        return (v > 0) - (v < 0)

    # certified
    def holds(self, x) -> bool:
        e = dict(self.env)
        e[self.var] = x = _to_fraction(x)
        bits = max(abs(x.numerator).bit_length(), x.denominator.bit_length())
        return relation_holds(self.rel, e, what=self.what, diff=self.diff, keep=self.keep, var=self.var,
                              max_prec=max(mpb.SIGN_MAX_PREC, 4 * bits + 512))

    # uncertified point values: g(x) >= 0 (roughly) where the relation holds
    def g(self, x, prec: int | None = None):
        """sign * (lhs - rhs) at x (uncertified; more bits while cancellation leaves its sign
        unresolved, up to 8 times the first guess)."""
        auto = prec is None
        if prec is None:
            bits = abs(x.numerator).bit_length() if isinstance(x, Fraction) else 0
            prec = 128 + bits
        prec = 64 * (1 + prec // 64)
        top = 8 * prec if auto else prec
        while True:
            if prec not in self.fns:
                self.fns[prec] = mpb.compile_sign_point(self.diff, self.env, self.var, prec=prec + 32)
            d, resolved = self.fns[prec](_to_fraction(x))
            if resolved or d is None or prec >= top:
                return None if d is None else self.sign * d
            prec *= 2

    def run(self, t: int | None, how: str) -> Solution:
        if t is None:
            return self.run_unknown()
        if t == 0:
            x = next(iter(_toward_top(self.domain)))
            if self.holds(x):
                return Solution(self.var, None, "least", self.integer, {"holds_at": fmt_value(x)}, how,
                                RequireOutcome.HOLDS_EVERYWHERE)
            raise UnsatisfiableError(f"no {self.var} satisfies {self.what}: it does not depend on {self.var} "
                                     f"and fails (at {self.var} = {fmt_value(x)})")
        # holds-set is an up-set ("least") when sign * diff is non-decreasing; a down-set is
        # searched as an up-set of the mirrored variable -var over the mirrored domain
        if t * self.sign >= 0:
            return _search_up(self, how, mirrored=False)
        m = _Solver(Rel(self.rel.op, _mirror(self.rel.lhs, self.var), _mirror(self.rel.rhs, self.var)),
                    self.var, self.env, _mirror_domain(self.domain), self.what,
                    _mirror(self.diff, self.var))
        m.check_samples, m.where = self.check_samples, self.where
        return _search_up(m, how, mirrored=True)

    def run_unknown(self) -> Solution:
        """No direction known: no least or greatest value is claimed (a boundary found by a
        search is no answer when the holds-set may not be an interval reaching an end)."""
        return Solution(self.var, None, "least", self.integer,
                        {"note": f"monotonicity in {self.var} not established: no least or largest "
                                 f"{self.var} is claimed"},
                        "NOT established", RequireOutcome.UNDECIDED, attained=None)

    def _side(self, gx) -> bool:
        """ok() from a value of g (one evaluation per point)."""
        if gx is None:
            return False
        return _sign_ok(self.rel.op, self.sign * ((gx > 0) - (gx < 0)))

    def refine(self, a, b, at_lo, floor):
        """Shrink (a, b), ok(a) == at_lo != ok(b), to neighbouring integers or a relative
        width 2^-REAL_BITS: safeguarded secant steps on g, bisection when they stall."""
        a, ga, b, gb = self._recheck_ends(a, b, at_lo, floor)
        stall, moved = 0, None
        for _ in range(6_000):
            if self._narrow(a, b):
                break
            x, ga, gb = self._secant(a, b, ga, gb, stall)
            if x is None:
                x = _bisect(a, b)
                stall = 0
            x = self._inside(x, a, b)
            old = b - a
            gx = self.g(x)
            # Illinois rule: an end kept twice in a row has its value halved, so the secant
            # does not creep toward the root from one side only (sqrt(H) - c over 10^32000)
            if self._side(gx) == at_lo:
                a, ga = x, gx
                if moved == "a" and gb is not None:
                    gb = _to_fraction(gb) / 2
                moved = "a"
            else:
                b, gb = x, gx
                if moved == "b" and ga is not None:
                    ga = _to_fraction(ga) / 2
                moved = "b"
            stall = stall + 1 if (b - a) * 2 > old else 0
        else:
            raise BoundcalcError(f"{self.what}: the search for a boundary in {self.var} did not converge")
        return a, b

    def _recheck_ends(self, a, b, at_lo, floor):
        """(a, g(a), b, g(b)): the ends re-checked at full precision (the probes used 128
        bits), moved outward (not below ``floor``) until they are on their sides."""
        step = (b - a) or Fraction(1)
        ga = self.g(a)
        for _ in range(64):
            if self._side(ga) == at_lo:
                break
            a, step = max(a - step, floor), step * 2
            ga = self.g(a)
        gb = self.g(b)
        for _ in range(64):
            if self._side(gb) != at_lo:
                break
            b, step = b + step, step * 2
            gb = self.g(b)
        return a, ga, b, gb

    def _narrow(self, a, b) -> bool:
        """Neighbouring integers, or a real bracket of relative width 2^-REAL_BITS (or TINY)."""
        if self.integer:
            return b - a <= 1
        return b - a <= max(abs(a), abs(b)) * Fraction(1, 2 ** REAL_BITS) or b - a <= TINY

    def _secant(self, a, b, ga, gb, stall):
        """(the secant step's point or None to bisect, g(a), g(b) as fractions where used)."""
        spans = (a > 0 and b > 4 * a) or (b < 0 and a < 4 * b) or a <= 0 <= b
        if spans and not (a < 0 < b and b - a <= 4):
            return None, ga, gb      # many binades (or across 0): bisect the exponent first
        if not (stall < 4 and ga is not None and gb is not None and ga != gb):
            return None, ga, gb
        ga, gb = _to_fraction(ga), _to_fraction(gb)
        x = None
        if self.integer:     # in ints: Fractions of 10^4000-size values gcd at every step
            na, nb = ga.numerator * gb.denominator, gb.numerator * ga.denominator
            if na * nb <= 0 and na != nb:      # opposite signs, or g = 0 at one end
                ai = a.numerator
                x = Fraction(ai + (b.numerator - ai) * na // (na - nb))
        else:
            t = ga / (ga - gb)
            if 0 < t < 1 or (t == 1 and b - a > abs(b) * Fraction(1, 2 ** REAL_BITS)):
                x = a + (b - a) * min(t, 1 - Fraction(1, 2 ** (REAL_BITS + 8)))
        return x, ga, gb

    def _inside(self, x, a, b):
        """``x`` as an integer strictly inside (a, b), or a short binary fraction inside it."""
        if self.integer:
            x = Fraction(x.numerator // x.denominator)
            return min(max(x, a + 1), b - 1)
        x = _to_fraction(mpb._fraction_mpf(x, REAL_BITS + 40))
        return x if a < x < b else _bisect(a, b)


# ---------------------------------------------------------------------------- the domain's ends
OPEN_END_LOG2 = 32768     # an open finite end is approached to 2^-32768 (past the 1e-4000 number budget)
SAMPLE_POINTS = (0, 1, 2, 3, 10, 100, 1000, 10 ** 6, 10 ** 9, 10 ** 12, Fraction(1, 2), Fraction(1, 10),
                 Fraction(1, 1000), Fraction(1, 10 ** 6), Fraction(1, 10 ** 9))


def _mirror(node, var: str):
    """``node`` with ``var`` replaced by ``-var``: a down-set in var is an up-set in -var."""
    return substitute(node, {var: Mul((Num(Fraction(-1)), Sym(var)))})


def _mirror_domain(d: Domain) -> Domain:
    return Domain(d.integer, None if d.hi is None else -d.hi, d.hi_closed,
                  None if d.lo is None else -d.lo, d.lo_closed)


def _exponents(limit: int):
    k = 0
    while k <= limit:
        yield k
        k = k + 1 if k < 16 else 2 * k


def _last_int(d: Domain) -> int:
    assert d.hi is not None, d          # (a domain bounded above)
    n = math.floor(d.hi)
    return n - 1 if n == d.hi and not d.hi_closed else n


def _toward_top(d: Domain):
    """Points of ``d``, increasing toward its upper end: the end itself when it belongs to
    ``d``; else hi - w 2^-k (an open end, k up to OPEN_END_LOG2) or base + 2^k (+oo, k up
    to MAX_LOG2), exact rationals, never clipped to a machine range."""
    if d.hi is not None:
        if d.integer:
            yield Fraction(_last_int(d))
            return
        if d.hi_closed:
            yield d.hi
            return
        w = (d.hi - d.lo) / 2 if d.lo is not None else max(Fraction(1), abs(d.hi))
        for k in _exponents(OPEN_END_LOG2):
            yield d.hi - w / 2 ** k
        return
    base = Fraction(0)
    if d.lo is not None and d.lo > 0:
        base = Fraction(math.ceil(d.lo)) if d.integer else d.lo
    for k in _exponents(MAX_LOG2):
        yield base + 2 ** k


def _toward_bottom(d: Domain):
    for x in _toward_top(_mirror_domain(d)):
        yield -x


def _lowest(d: Domain):
    """The least element of ``d``, or None (open or infinite lower end)."""
    if d.lo is None:
        return None
    if d.integer:
        return Fraction(_first_int(d))
    return d.lo if d.lo_closed else None


def _sample_points(d: Domain) -> list[Fraction]:
    pts = {Fraction(v) * s for v in SAMPLE_POINTS for s in (1, -1)}
    if d.lo is not None and d.hi is not None:
        pts |= {d.lo + (d.hi - d.lo) * j / 16 for j in range(17)}
    for gen in (_toward_top(d), _toward_bottom(d)):
        for _, x in zip(range(20), gen):
            pts.add(x)
    if d.integer:
        pts = {Fraction(math.floor(x)) for x in pts}
    return sorted(x for x in pts if d.contains(x))


def _concrete(s) -> Rel:
    subst = {k: Num(Fraction(v)) for k, v in s.env.items()}
    return Rel(s.rel.op, substitute(s.rel.lhs, subst), substitute(s.rel.rhs, subst))


_NEGATE = {">=": "<", ">": "<=", "<=": ">", "<": ">="}


def _prove_everywhere(s, negate: bool = False) -> str | None:
    """The decision procedure's proof that the relation holds (``negate``: fails) at every
    value of the domain, as text; None if not proved (a few seconds at most)."""
    from ..prover.decide import decide_relation
    r = _concrete(s)
    try:
        d = decide_relation(r.lhs, _NEGATE[r.op] if negate else r.op, r.rhs, {s.var: s.domain},
                            seconds=3.0, samples=200)
    except (BoundcalcError, RecursionError):
        return None
    return d.text if d.verdict is Verdict.PROVED else None


def _box_holds(s, lo: Fraction, hi: Fraction) -> bool:
    """Certified: the relation holds at every point of [lo, hi] (one interval enclosure)."""
    for prec in (128, 512, 2048):
        iv = mpb.try_enclose(s.diff, {**s.env, s.var: (lo, hi)}, prec=prec)
        if iv is None:
            continue
        a, b = iv.a, iv.b
        if {">=": a >= 0, ">": a > 0, "<=": b <= 0, "<": b < 0}[s.rel.op]:
            return True
    return False


def _search_up(s: _Solver, how: str, mirrored: bool) -> Solution:
    """The least value of ``s.var`` in ``s.domain`` where the relation holds, its holds-set
    being an up-set (``mirrored``: the problem was reflected, report in the user's terms).

    1. from the top end: a point where it holds (the end itself if it belongs to the
       domain; else exponential probes toward an open or infinite end);
    2. from the bottom end: a point where it fails (likewise), else it holds on the whole
       domain (certified at the closed end, by one interval enclosure up to an open end,
       or by the decision procedure);
    3. the bracket is refined; the answer is the shortest decimal at which the relation is
       certified to hold, and a certified failing point just below is reported with it."""
    up = _Up(s, how, mirrored)
    # 1. a point where the relation holds, from the top end
    top, below, last = up.from_top()
    if top is None:
        return up.nowhere(below, last)
    # 2. a point where it fails, from the bottom end
    hold, fail = up.from_bottom(top, below)
    if fail is None:
        return up.everywhere(hold)
    # 3. refine the bracket (fail, hold) and certify both sides
    return up.boundary(fail, hold)


class _Up:
    """One search of :func:`_search_up`: the solver, the text of its direction's evidence,
    and whether the problem was reflected (the answers are reported in the user's terms)."""

    def __init__(self, s: _Solver, how: str, mirrored: bool):
        self.s, self.how, self.mirrored = s, how, mirrored
        self.sg = -1 if mirrored else 1
        self.word = ("greatest", "largest") if mirrored else ("least", "smallest")

    def show(self, x):
        return fmt_value(ExactValue(self.sg * Fraction(x)))

    def sol(self, value, cert, outcome=RequireOutcome.SOLVED, attained=True):
        s, sg = self.s, self.sg
        v = None if value is None else (int(sg * value) if s.integer else ExactValue(sg * value))
        return Solution(s.var, v, self.word[0], s.integer, cert, self.how, outcome, attained)

    def _walk(self, points, stop: bool):
        """Decide at ``points`` in turn until the answer is ``stop``: (that point or None, the last
        point with the other answer, the last point tried); two undecided points in a row end it."""
        hit, other, last, nones = None, None, None, 0
        for x in points:
            r = self.s.decide(x)
            last = x
            if r is stop:
                hit = x
                break
            if r is (not stop):
                other, nones = x, 0
            else:
                nones += 1
                if nones >= 2:
                    break
        return hit, other, last

    def from_top(self):
        """(a point where it holds, the last point where it failed, the last point tried)."""
        return self._walk(_toward_top(self.s.domain), True)

    def nowhere(self, below, last) -> Solution:
        """No point where it holds: a counterexample to monotonicity, else no value works."""
        s, how, mirrored, show = self.s, self.how, self.mirrored, self.show
        D, var = s.domain, s.var
        bad = _sample_counterexample(s, None, below, show, how) if s.check_samples else None
        if bad:
            return bad
        if below is not None and below == last and D.hi is not None and (D.integer or D.hi_closed):
            raise UnsatisfiableError(
                f"no {var} in {s.where} satisfies {s.what}: it fails at {var} = {show(below)}, the "
                f"{'smallest' if mirrored else 'largest'} {var} of {s.where}"
                + (f" ({var} {_orig_domain(D, mirrored).describe()})" if s.where == "its domain" else "")
                + f", and {how}")
        proof = _prove_everywhere(s, negate=True)
        if proof:
            raise UnsatisfiableError(f"no {var} in {s.where} satisfies {s.what}: {proof}")
        where = f"{var} = {show(below)}" if below is not None else "every probe"
        raise UnsatisfiableError(
            f"no {var} found that satisfies {s.what}: it fails at every probe toward the "
            f"{'lower' if mirrored else 'upper'} end of {s.where}, up to {where} "
            f"(beyond it not decided; {how})")

    def from_bottom(self, top, below):
        """(the lowest point where it holds, a point where it fails or None)."""
        if below is not None:
            return top, below
        fail, hold, _ = self._walk((x for x in _toward_bottom(self.s.domain) if x < top), False)
        return (top if hold is None else hold), fail

    def everywhere(self, hold) -> Solution:
        """No point where it fails: the domain's end is the answer, or it holds on the whole
        domain (proved), or it is undecided beyond the last probe."""
        s, how, mirrored, show, word = self.s, self.how, self.mirrored, self.show, self.word
        D, var = s.domain, s.var
        bad = _sample_counterexample(s, hold, None, show, how) if s.check_samples else None
        if bad:
            return bad
        end = _lowest(D)
        if end is not None and hold == end:
            return self.sol(hold, {"holds_at": show(hold), "fails_at": None,
                                   "note": f"{show(hold)} is the {word[1]} {var} of {s.where}; the relation "
                                           f"holds at it, hence (monotone) on the whole of "
                                           f"{s.where.removeprefix('its ')}"})
        proof = None
        if D.lo is not None and not D.integer and _box_holds(s, D.lo, hold):
            proof = (f"one interval enclosure over [{show(D.lo)}, {show(hold)}] and monotonicity "
                     f"above {show(hold)}")
        proof = proof or _prove_everywhere(s)
        inf = "-oo" if D.lo is None else show(D.lo)
        if mirrored:
            inf = "+oo" if D.lo is None else inf
        if proof:
            return self.sol(None, {"holds_at": show(hold), "fails_at": None,
                                   "bound": f"{'supremum' if mirrored else 'infimum'} {inf}, not attained",
                                   "proof": proof}, RequireOutcome.HOLDS_EVERYWHERE, attained=False)
        return self.sol(None, {"holds_at": show(hold), "fails_at": None,
                               "note": f"holds at every probe toward the end of the domain, down to {var} = "
                                       f"{show(hold)}; beyond it not decided"}, RequireOutcome.UNDECIDED, attained=None)

    def boundary(self, fail, hold) -> Solution:
        """The bracket (fail, hold) refined; the answer certified on both sides."""
        s, mirrored, show = self.s, self.mirrored, self.show
        a, b = s.refine(fail, hold, False, floor=fail)
        if s.integer:
            ans = _integer_boundary(s, b, fail)
            d = ans - 1
            attained, infimum = True, False
        else:
            ans, d, infimum = _certify_real(s, a, b, fail, hold)
            attained = not infimum
        held = ans if not infimum else _just_above(s, ans, b)
        gap = abs(held - d) / max(abs(held), abs(d))
        cert = {"holds_at": show(held), "fails_at": show(d)}
        if not s.integer:
            cert["relative_gap"] = f"2^-{max(0, -math.ceil(math.log2(gap)))}" if gap else "0"
        if infimum:
            cert["note"] = (f"{'supremum' if mirrored else 'infimum'} {show(ans)}, not attained: equality there "
                            f"fails the strict relation, which holds just {'below' if mirrored else 'above'}")
        out = self.sol(ans, cert, attained=attained)
        if s.check_samples:
            bad = _sample_counterexample(s, ans if attained else b, d, show, self.how)
            if bad:
                return bad
        return out


def _integer_boundary(s, b, fail):
    """The least integer where it holds, from the bracket's upper end ``b``: it holds there
    and fails one below, both certified."""
    b = Fraction(math.ceil(b))
    for _ in range(64):
        if s.decide_final(b) is not True:
            b += 1
        elif b - 1 >= fail and s.decide_final(b - 1) is True:
            b -= 1
        else:
            break
    if s.decide_final(b) is not True or s.decide_final(b - 1) is not False:
        raise BoundcalcError(f"{s.what}: could not certify a boundary for {s.var}")
    return b


def _just_above(s, p, b):
    """A certified holding point in (p, b] (the strict relation's infimum p)."""
    c = shortest_decimal(p, b)
    for _ in range(200):
        if s.decide_final(c) is True:
            return c
        c = shortest_decimal(c, b)
    return b


def _certify_real(s, a, b, fail, hold):
    """From a refined bracket (a, b): (answer, certified failing point, infimum?) where the
    answer is the shortest decimal certified to hold, or the shortest decimal p at which a
    strict relation meets equality exactly (then p is an infimum, not attained)."""
    D = s.domain
    if not (fail <= a < b <= hold):
        a, b = max(a, fail), min(b, hold)
    strict = s.rel.op in (">", "<")
    c, lo_ok, eq_at = shortest_decimal(a, b, open_left=False), fail, None
    for _ in range(400):
        r = s.decide_final(c)
        if r is True:
            break
        if r is False:
            lo_ok = c
            if strict and s.exact_sign(c) == 0:
                eq_at = c
            a = c
        if c >= b:
            c = hold
            if s.decide_final(c) is not True:
                raise BoundcalcError(f"{s.what}: could not certify a boundary for {s.var}")
            break
        c = shortest_decimal(c, b)
    if eq_at is not None and eq_at == lo_ok:
        return eq_at, eq_at, True
    # a certified failing point just below: the shortest decimal in [a - 2^j gap, a]
    gap = c - a if c > a else (b - a)
    d = lo_ok
    for j in range(64):
        left = a - gap * 2 ** j
        if left <= lo_ok or not D.contains(left):
            break
        cand = shortest_decimal(left, a, open_left=False)
        if s.decide_final(cand) is False:
            d = cand
            break
    return c, d, False


def _orig_domain(D: Domain, mirrored: bool) -> Domain:
    return _mirror_domain(D) if mirrored else D


def _sample_counterexample(s, hold, fail, show, how: str = ""):
    """Where monotonicity is only sampled or proved by a layer that may miss a pole: certified
    values at sample points of the whole domain that contradict an up-set (it holds at h and
    fails at f > h) — a 'not monotone' answer naming the simplest such pair, or None."""
    res = {}
    for x in _sample_points(s.domain):
        r = s.decide(x)
        if r is not None:
            res[x] = r
    if fail is not None:
        res.setdefault(fail, False)
    if hold is not None:
        res.setdefault(hold, True)
    simple = sorted(res, key=lambda x: (len(show(x)), abs(x)))
    pair = next(((h, f) for h in simple if res[h] for f in simple if not res[f] and f > h), None)
    if pair is None:
        return None
    h, f = pair
    ce = {"holds_at": show(h), "fails_at": show(f)}
    return Solution(s.var, None, "least", s.integer, {"counterexample": ce,
                    "detail": f"the relation holds at {s.var} = {show(h)} but fails at {s.var} = {show(f)}"},
                    (how + "; " if how else "") + f"contradicted at certified points ({s.var} = {show(h)}, "
                    f"{show(f)}): not monotone over {s.where.removeprefix('its ')}", RequireOutcome.NOT_MONOTONE)


# ---------------------------------------------------------------------------- the search for a value
def find_value(rel: Rel, var: str, env: dict, paper, domain, *, what: str, fallback: bool, reg,
               rng: str = "") -> Solution:
    """The search for the value ``require`` asks of one relation (the one entry point of this
    module for it; nothing here calls back into :mod:`.require`). Solve over ``domain``
    (``var``'s, or the range ``rng`` of it) with the direction read from the tree, else from
    :mod:`.monotone` (asked of the same range)."""
    t = None if rel.op == "==" else trend(sub(rel.lhs, rel.rhs), var, env, domain)
    if rel.op == "==" or t is not None or not fallback:
        return solve_relation(rel, var, env, domain, what=what, structural=t, scope=rng)
    m = _monotone_evidence(rel, var, env, paper, reg, what, domain=domain)
    if m.direction.leans in (Direction.INCREASING, Direction.DECREASING):
        # monotone() reports the slack rhs - lhs; the solver wants lhs - rhs (a sampled
        # 'no decrease found' is a hint the solver's certificate re-examines, and says so)
        hint = -1 if m.direction.leans is Direction.INCREASING else 1
        ev = _evidence_text(m, var)
        sol = solve_relation(rel, var, env, domain, what=what, trend_hint=hint, evidence=ev, structural=None,
                             scope=rng)
        if m.evidence is MonotoneEvidence.PROVED or sol.value is None:
            return sol
        # the first evidence covers a default box only: re-examine the range the answer rests on
        # ('least': every value below it; 'greatest': values above it, here up to 2*answer + 100)
        ans_f = Fraction(int(sol.value)) if sol.integer else Fraction(str(sol.certificate.get("holds_at")))
        if sol.direction == "least":
            lo = domain.lo if domain.lo is not None else ans_f - 2 * abs(ans_f) - 100
            span, covers = (lo, ans_f), f"covers every {var} below the answer"
        else:
            hi = 2 * abs(ans_f) + 100
            if domain.hi is not None and domain.hi <= hi:
                hi, covers = domain.hi, f"covers every {var} above the answer"
            else:
                covers = f"beyond {var} = {fmt_fraction(hi)} NOT established"
            span = (ans_f, hi)
        m2 = _monotone_evidence(rel, var, env, paper, reg, what, domain=domain,
                                box={var: (fmt_fraction(span[0]), fmt_fraction(span[1]))})
        if m2.direction is Direction.NEITHER:
            cert = {"counterexample": m2.counterexample} if m2.counterexample else {}
            cert["detail"] = m2.detail
            _in_own_terms(cert, rel, var, env)
            cert["boundary_found"] = fmt_value(sol.value)
            return Solution(var, None, sol.direction, domain.integer, cert,
                            f"neither ({m2.evidence}) on {var} in [{fmt_fraction(span[0])}, {fmt_fraction(span[1])}]: "
                            f"{m2.detail}", RequireOutcome.NOT_MONOTONE)
        if m2.direction.leans == m.direction.leans:
            sol.monotone = _evidence_text(m2, var) + f" — {covers}"
        else:
            sol.monotone = ev + f"; on [{fmt_fraction(span[0])}, {fmt_fraction(span[1])}]: {m2.direction} ({m2.evidence})"
        return sol
    if m.direction is Direction.CONSTANT:
        return solve_relation(rel, var, env, domain, what=what, trend_hint=0, evidence=m.detail)
    if m.direction is Direction.NEITHER:
        cert = {"counterexample": m.counterexample} if m.counterexample else {}
        cert["detail"] = m.detail
        _in_own_terms(cert, rel, var, env)
        return Solution(var, None, "least", domain.integer, cert,
                        f"neither ({m.evidence}): {m.detail}", RequireOutcome.NOT_MONOTONE)
    sol = solve_relation(rel, var, env, domain, what=what, structural=None, scope=rng)   # unknown: say so
    sol.monotone = f"unknown ({m.detail}); " + sol.monotone
    return sol


def _in_own_terms(cert: dict, rel: Rel, var: str, env: dict) -> None:
    """Add ``cert['in_terms']``: the certified pairs of a 'neither' verdict (they are about the
    slack rhs - lhs) said as values of the relation's left side, the quantity the user asked
    about (``log(n)/sqrt(n) = 0.490129 at n = 2 ... rises ...``). Nothing when a value cannot
    be computed."""
    from ..expr.printing import to_text
    ce = cert.get("counterexample") or {}
    parts = []
    for key, word in (("increasing_pair", "falls"), ("decreasing_pair", "rises")):   # slack up = lhs down
        pair = ce.get(key)
        if not pair:
            continue
        try:
            pt = {k: Fraction(v) for k, v in (pair.get("point") or {}).items()}
            a, b = Fraction(pair[f"{var}_1"]), Fraction(pair[f"{var}_2"])
            va, vb = (mpb.evaluate(rel.lhs, {**env, **pt, var: x}, digits=6) for x in (a, b))
        except (BoundcalcError, KeyError, ValueError, ZeroDivisionError):
            return
        parts.append(f"{mpb.fmt_sig(va, 6)} at {var} = {fmt_fraction(a)} and {mpb.fmt_sig(vb, 6)} at "
                     f"{var} = {fmt_fraction(b)} (it {word})")
    if len(parts) == 2:
        cert["in_terms"] = f"{to_text(rel.lhs)} is " + "; ".join(parts)


def _monotone_evidence(rel, var, env, paper, reg, what, box=None, domain=None):
    """:func:`.monotone.monotone` of ``rel`` in ``var`` with ``var``'s domain replaced by
    ``domain`` (the --from/--to range: a proof 'on the domain' is then a proof on the range)."""
    from .monotone import Subject, monotone
    table = reg.symbol_table(rel, paper.key)
    if domain is not None and var in table and table[var].domain != domain:
        table = {**table, var: table[var].with_domain(domain)}
    # an indexed symbol's values stay a Vector (fmt_fraction made '[2, 3, 3/2, 2]' of them)
    fixed = {k: (v if isinstance(v, Vector) else fmt_fraction(v)) for k, v in env.items() if k in table and k != var}
    # without a box: the default box only (the range the answer rests on is re-examined after)
    return monotone(Subject(what, rel, table), var, fixed=fixed, box=box, beyond_box=False)


def _evidence_text(m, var) -> str:
    side = {Direction.INCREASING: "decreasing", Direction.DECREASING: "increasing"}[m.direction.leans]
    box = f" on {var} in [{m.box[var][0]}, {m.box[var][1]}]" if m.box and var in m.box else ""
    if m.direction.leans is not m.direction:      # sampled: the samples name no direction
        seen = {Direction.INCREASING: "increase", Direction.DECREASING: "decrease"}[m.direction.leans]
        return f"lhs - rhs: no {seen} found in {var} in {m.samples} samples{box} — sampled, NOT a proof"
    return f"lhs - rhs is {side} in {var}: {m.evidence}{box if m.evidence is not MonotoneEvidence.PROVED else ''}"


def solve_requirement(formula, var: str, values: dict, within: tuple | None = None) -> Solution:
    """The least (or greatest) ``var`` at which the relation ``formula`` holds, the other
    symbols at ``values``; ``within=(lo, hi)``: only in that range of ``var`` (an end None,
    ``-inf`` or ``inf``: the domain's). The direction must show in the expression tree."""
    if not formula.is_relation:
        raise BoundcalcError(f"{formula.id} is a {formula.kind}, not a requirement")
    if var not in formula.symbol_table:
        raise BoundcalcError(f"{var!r} is not a symbol of {formula.id}; its symbols are "
                             f"{', '.join(formula.symbols)}")
    table = {k: v for k, v in formula.symbol_table.items() if k != var}
    from ..registry.values import bind
    b = bind(table, {k: v for k, v in values.items() if k != var}, what=formula.id)
    domain, scope = formula.symbol_table[var].domain, ""
    if within is not None:
        from ..expr.domains import search_range
        domain, scope = search_range(var, domain, *within, where=f"{formula.id}: within")
    return solve_relation(formula.expr, var, b.env, domain, what=formula.id, scope=scope)
