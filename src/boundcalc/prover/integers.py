"""Integer layer of the decision procedure: a relation in one integer symbol ``n``.

The proving layers relax integer symbols to reals, which loses relations that hold only
on the integers (3**n >= n**3 fails at x = 2.7; (log n)**2/n <= 0.541 fails at x = e**2).
This layer proves ``g(n) op 0`` (op ``>=`` or ``>``) for every integer ``n`` of the domain:

* for some ``n0``, every ``n >= n0`` is covered by either
  - an **inductive step** ``g(x) op 0  =>  g(x + 1) op 0`` for every real ``x >= n0``,
    decided by the real layers below with ``g(x) op 0`` as an assumption; ``g(x + 1)`` is
    first rewritten by splitting powers with a constant base (``2**(x + 1)`` becomes
    ``2*2**x``), so that the step's hypothesis and goal name the same terms; the base case
    ``n0`` is then one of the values checked one by one; where ``g`` names
    ``factorial(x + c)`` or ``gamma(x + c)`` (c an integer), the step is stated with each of
    them as an opaque symbol ``F > 0`` (:func:`opaque_step`: ``factorial(x + c + 1)`` becomes
    ``(x + c + 1)*F``), only from an ``n0`` where that identity and ``F > 0`` hold; or
  - a **ratio step** (:func:`ratio_step`), for ``g = A - B`` with ``A, B > 0``: if
    ``A(x + 1)/A(x) >= B(x + 1)/B(x)`` for every real ``x >= n0``, then ``A(k) op B(k)``
    gives ``A(k + 1) op B(k + 1)``; the ratios are taken in logarithms, with
    ``factorial(x + c)`` and ``gamma(x + c)`` reduced to ``gamma(x)`` (``gamma(x + 1) =
    x*gamma(x)``), which then cancels (n! >= 2**(n - 1), n! <= n**n, ...); or
  - a **real relaxation**: ``g(x) op 0`` for every real ``x >= n0``; or
  - a **monotone sequence and its limit** (:class:`LimitStep`): a sequence ``s`` with
    ``g(k) op 0`` whenever ``s(k) op target`` (the ratio ``A/B`` with target 1 for
    ``g = A - B``, A, B > 0, as in the ratio step; or ``g`` itself with target 0) is
    non-increasing on the integers from ``n0`` (the real layers prove
    ``log(s(x)/s(x + 1)) >= 0``, resp. ``g(x) - g(x + 1) >= 0``, for every real
    ``x >= n0``), so ``s(k) >= lim s``; SymPy's ``limit`` of ``s`` at infinity is a finite
    constant ``L >= target`` (``L > target``, or ``s`` strictly decreasing, for ``>``), and
    ball arithmetic confirms SymPy's value: ``s`` at n = 10, 100, 10^4, 10^8 is certified
    ``>= L`` and non-increasing (Stirling's lower bound ``n! >= sqrt(2 pi n)(n/e)^n``);
* every integer from the domain's lower end up to ``n0`` is checked one by one, with a
  certified sign (exact rationals, exact radicals, or ball arithmetic away from 0; an
  exact zero through :func:`.symbolic.is_zero_at`).

A bounded domain of at most :data:`MAX_EXHAUSTIVE` integers is checked exhaustively alone.
The candidates for ``n0`` are a few values above the domain's lower end (:data:`STARTS`).

Two integer symbols (:class:`IntegerPair`: each from 1 or more, at most the one assumption
``d <= n`` between them), :func:`prove_pair`: induction in one symbol with the other fixed,
by a ratio step (:func:`pair_ratio`) whose every condition (gamma's arguments, both sides and
both ratios positive, the log-ratio difference ``>= 0``) the real layers prove on the step's
region, and the base case (``n = d``, or the other symbol's lower end) for every integer
by the one-symbol layer above (C(n, d) <= (e n/d)^d, C(n, d) >= (n/d)^d).

Soundness contract: "proved" means the exhaustive part holds with certified signs and the
real-layer answer for the rest is a proof under that layer's contract (the step's
conclusion on the reals implies it on the integers); the monotone-to-a-limit step also
rests on SymPy's ``limit`` (the verdict says so; the ball-arithmetic check catches a limit
on the wrong side of the values, not every wrong limit), and runs only where
:func:`.budget.time_limit` can interrupt it; "disproved" comes only with an
integer of the domain at which the sign is certified wrong. On its work budget, or when no
``n0`` works, the layer returns None (the caller goes on; nothing is claimed).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from math import ceil, floor

from ..expr.domains import Domain
from ..expr.nodes import Node, Rel, Sym, substitute
from ..verdicts import Verdict
from .budget import BALL_POINTS_PER_SECOND, Timeout, charge, clock, expired, left, sympy_safe, time_limit

__all__ = ["LIMIT_POINTS", "MAX_EXHAUSTIVE", "MAX_NODES", "MAX_SHIFT", "STARTS", "IntegerOutcome", "IntegerPair",
           "LimitStep", "applies", "limit_cross_check", "limit_steps", "opaque_step", "pair_ratio", "prove_integers",
           "prove_pair", "ratio_step", "sequence_limit", "shift"]

MAX_EXHAUSTIVE = 2000          # integers checked one by one, at most
MAX_NODES = 200                # larger goals get no SymPy step (in a thread nothing interrupts it)
STARTS = (0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64)   # n0 - lo tried, in this order


@dataclass
class IntegerOutcome:
    """``verdict`` proved or disproved; ``how`` for the verdict's text; ``point`` (for
    disproved) the integer as {name: Fraction}."""
    verdict: Verdict
    how: str
    point: dict | None = None


# decide_real(goal, op, domains, extra, seconds) -> a Verdict (proved | disproved | other), from the
# layers below (passed in by the orchestrator, which this module must not import)
RealDecider = Callable[[Node, str, dict, list, float], Verdict]


@dataclass(frozen=True)
class IntegerPair:
    """Two integer symbols, each with a lower end >= 1 and no upper end; ``low <= high`` is
    the one assumption when ``linked`` (else there is none and the order is by name)."""
    low: str
    high: str
    linked: bool


def applies(g: Node, op: str, domains: dict[str, Domain], extra) -> str | IntegerPair | None:
    """What this layer works on, if it applies: the integer symbol (one symbol, an integer,
    no assumptions), or an :class:`IntegerPair` (two integer symbols from 1 or more, no
    upper ends, no assumption but possibly one ``u <= v`` between them)."""
    syms = g.symbols()
    if op not in (">=", ">"):
        return None
    if len(syms) == 1 and not extra:
        (n,) = syms
        d = domains.get(n)
        return n if d is not None and d.integer else None
    if len(syms) != 2 or len(extra) > 1:
        return None
    for v in syms:
        d = domains.get(v)
        if d is None or not d.integer or _ends(d)[1] is not None or d.hi is not None:
            return None
        lo = _ends(d)[0]
        if lo is None or lo < 1:
            return None
    a, b = sorted(syms)
    if not extra:
        return IntegerPair(a, b, False)
    (r,) = extra
    if not (isinstance(r.lhs, Sym) and isinstance(r.rhs, Sym) and {r.lhs.name, r.rhs.name} == syms):
        return None
    if r.op == "<=":
        return IntegerPair(r.lhs.name, r.rhs.name, True)
    if r.op == ">=":
        return IntegerPair(r.rhs.name, r.lhs.name, True)
    return None


def _ends(d: Domain) -> tuple[int | None, int | None]:
    lo = hi = None
    if d.lo is not None:
        lo = ceil(d.lo) if d.lo_closed or d.lo.denominator != 1 else int(d.lo) + 1
    if d.hi is not None:
        hi = floor(d.hi) if d.hi_closed or d.hi.denominator != 1 else int(d.hi) - 1
    return lo, hi


def _sign_at(g: Node, n: str, k: int) -> int | None:
    """Certified sign of g at n = k, or None."""
    from ..backends import mp as mpb
    from ..expr.exact import exact_zero
    env = {n: Fraction(k)}
    s = mpb.decide_sign(g, env)
    if s is not None:
        return s
    z = exact_zero(g, env)
    if z is True:
        return 0
    if z is None and sympy_safe(g) is None:
        from .symbolic import is_zero_at
        try:
            with time_limit(0.5):
                if is_zero_at(g, env):
                    return 0
        except (Timeout, Exception):      # an undecided sign stays None
            return None
    return None


def _defined_at(g: Node, n: str, k: int) -> bool | None:
    """Whether ``g`` has a value at ``n = k`` by the one rule, as ``eval`` computes it (the
    value put in, then ball arithmetic: ``0**0`` is undefined, ``(-1)**3`` is -1); None when
    the ball arithmetic cannot tell."""
    from ..backends import arb as A
    from ..expr.nodes import Num
    try:
        A.enclose(substitute(g, {n: Num(Fraction(k))}), {}, prec=64)
    except A.Undefined:
        return False
    except (A.Unresolved, A.TooLarge, ValueError, ZeroDivisionError, OverflowError):
        return None
    return True


def _first_defined(g: Node, n: str, lo: int, hi: int) -> int | None:
    """The least integer of [lo, hi] where ``g`` may have a value (what a proof text names as
    checked: never a point where ``g`` is undefined), or None."""
    return next((k for k in range(lo, hi + 1) if _defined_at(g, n, k) is not False), None)


def _check_range(g: Node, op: str, n: str, lo: int, hi: int, deadline: float, base: int | None = None):
    """'ok' if g op 0 at every integer of [lo, hi] where g is defined (certified), an
    integer where it fails, or None (a sign undecided, out of time, or the base case
    ``base`` of an induction at a point where g is undefined: that is no base case). The
    points where g is undefined (``k**k`` at k = 0: 0**0) are not in the statement's domain
    and are skipped (their sign, in a back end that gives 0**0 a value, says nothing)."""
    for k in range(lo, hi + 1):
        if expired(deadline):
            return None
        charge(1 / BALL_POINTS_PER_SECOND)
        if _defined_at(g, n, k) is False:
            if k == base:
                return None
            continue
        s = _sign_at(g, n, k)
        if s is None:
            return None
        if s < 0 or (s == 0 and op == ">"):
            return k
    return "ok"


def shift(g: Node, n: str) -> Node | None:
    """g with n replaced by n + 1, powers with a constant base split (``b**(e + c)`` as
    ``b**c * b**e``), so that g(n + 1) names the terms of g(n); None if SymPy cannot."""
    from .symbolic import to_sympy_with_domains
    e, syms = to_sympy_with_domains(g, {}, {n: Domain()})        # any real: no sign assumed
    x = syms[n]
    return _back(_split_powers(e.subs(x, x + 1), x), x, n)


def _split_powers(e, x):
    """``b**(e + c)`` as ``b**c * b**e`` for constant bases b > 0 (an identity)."""
    from ..backends.sympy_import import sympy as sp
    return e.replace(lambda t: t.is_Pow and not t.base.free_symbols and t.base.is_positive and t.exp.has(x),
                     lambda t: sp.expand_power_exp(t.func(t.base, sp.expand(t.exp))))


def _back(e, x, n: str) -> Node | None:
    from ..backends.sym import from_sympy
    try:
        out = from_sympy(e)
    except Exception:                     # a form we cannot read back
        return None
    return substitute(out, {x.name: Sym(n)}) if x.name != n else out


def opaque_step(g: Node, n: str) -> tuple[Node, Node, dict[str, Domain], int] | None:
    """The inductive step with each ``factorial(n + c)`` / ``gamma(n + c)`` (c an integer) of
    ``g`` as an opaque positive symbol: ``(hypothesis, goal, domains of the new symbols,
    smallest n0)``, or None.

    ``g(n + 1)`` is rewritten with ``factorial(n + c + 1) = (n + c + 1)*factorial(n + c)`` and
    ``gamma(n + c + 1) = (n + c)*gamma(n + c)``, powers with a constant base split in both
    (``2**(n - 1)`` as ``2**n/2``); then each factorial/gamma term becomes a symbol ``F > 0``
    in hypothesis and goal alike. The step proved for every real ``x >= n0`` and every
    ``F > 0`` holds in particular at ``x = k``, ``F = (k + c)!``, which is the step on the
    integers provided ``k + c >= 0`` for a factorial (``k + c >= 1`` for gamma): the
    returned smallest n0 makes both the identities and ``F > 0`` hold there. None when a
    factorial/gamma has another argument or survives the rewrite."""
    from ..backends.sympy_import import sympy as sp
    from .symbolic import to_sympy_with_domains
    e, syms = to_sympy_with_domains(g, {}, {n: Domain()})
    x = syms[n]
    atoms = e.atoms(sp.factorial, sp.gamma)
    if not atoms:
        return None
    shifted, names, doms, n_min = {}, {}, {}, None
    for i, a in enumerate(sorted(atoms, key=sp.default_sort_key)):
        c = sp.expand(a.args[0] - x)
        if not c.is_Integer:
            return None
        c = int(c)
        if isinstance(a, sp.factorial):
            shifted[sp.factorial(x + c + 1)] = (x + c + 1) * a
            low = -c
        else:
            shifted[sp.gamma(x + c + 1)] = (x + c) * a
            low = 1 - c
        n_min = low if n_min is None else max(n_min, low)
        name = f"{n}_F{i}"
        while name in syms:
            name += "_"
        names[a] = sp.Symbol(name, positive=True)
        doms[name] = Domain(lo=Fraction(0))
    e1 = e.subs(x, x + 1).xreplace(shifted)
    hyp, goal = (_split_powers(t, x).xreplace(names) for t in (e, e1))
    if hyp.has(sp.factorial, sp.gamma) or goal.has(sp.factorial, sp.gamma):
        return None
    h, s = _back(hyp, x, n), _back(goal, x, n)
    if h is None or s is None or n_min is None:      # n_min is set: there is an atom
        return None
    return h, s, doms, n_min


def ratio_step(g: Node, n: str) -> Node | None:
    """For ``g = A - B`` (two terms): ``D = log(A(n + 1)/A(n)) - log(B(n + 1)/B(n))``, or None.

    ``D >= 0`` on the reals ``x >= n0 > 0`` is the ratio step of the module docstring. Both
    terms go to Gamma form (``factorial(x) = gamma(x + 1)``) and ``expand_func`` reduces
    every ``gamma(x + c)`` (c an integer) to a rational function times ``gamma(x)``, which
    becomes a positive symbol ``G`` (``gamma(x) > 0`` for ``x > 0``). The logarithms are
    expanded by SymPy under the assumptions ``x > 0, G > 0`` alone (no ``force``), so each
    rule it applies holds; None unless SymPy shows ``A > 0`` and ``B > 0`` under the same
    assumptions and ``G`` cancels from ``D``. Then :func:`_relative_logs` (``log(x + 1) -
    log(x)`` as ``log(1 + 1/x)``). Valid only where ``x > 0``: the caller uses it from
    ``n0 >= 1``."""
    from ..backends.sym import from_sympy
    from ..backends.sympy_import import sympy as sp
    from .symbolic import to_sympy_with_domains
    e, syms = to_sympy_with_domains(g, {}, {n: Domain()})
    x0 = syms[n]
    x = sp.Dummy("x", positive=True)
    G = sp.Dummy("G", positive=True)
    e = e.subs(x0, x)
    parts = _two_terms(e)
    if parts is None:
        return None
    A, B = parts

    def gamma_form(t):
        t = sp.expand_func(t.rewrite(sp.gamma)).subs(sp.gamma(x), G)
        return t

    def logs(t):
        return sp.expand(sp.expand_log(sp.log(t)))

    A0, A1, B0, B1 = (gamma_form(t) for t in (A, A.subs(x, x + 1), B, B.subs(x, x + 1)))
    if not all(t.is_positive is True for t in (A0, A1, B0, B1)):
        return None
    d = sp.expand(logs(A1) - logs(A0) - logs(B1) + logs(B0))
    if d.free_symbols - {x} or d.has(sp.gamma, sp.factorial, sp.loggamma, sp.polygamma):
        return None
    d = _relative_logs(d, x)
    try:
        out = from_sympy(d)
    except Exception:                     # a form we cannot read back
        return None
    return substitute(out, {s: Sym(n) for s in out.symbols()})


def _relative_logs(d, x):
    """``d`` with each ``log(x + c)`` (c > 0 rational) written ``log(x) + log(1 + c/x)`` (an
    identity for x > 0) and the logarithms collected, when every ``log(x)`` then cancels
    (``(n + 1/2)*log(1 + 1/n) - 1`` instead of ``(n + 1/2)*(log(n + 1) - log(n)) - 1``: a
    ratio of consecutive terms that tends to 1 has this form, which the bracketing layer
    decides); else ``d`` unchanged."""
    from ..backends.sympy_import import sympy as sp

    def split(t):
        c = sp.expand(t.args[0] - x)
        return sp.log(x) + sp.log(1 + c / x) if c.is_Rational and c > 0 else t
    out = sp.expand(d.replace(lambda t: isinstance(t, sp.log), split))
    if out.has(sp.log(x)):
        return d
    return sp.collect(out, sorted(out.atoms(sp.log), key=sp.default_sort_key))


def _two_terms(e):
    """``(A, B)`` for a SymPy sum ``e = A - B`` of exactly two terms, one with a minus sign;
    else None."""
    if not e.is_Add or len(e.args) != 2:
        return None
    neg = [t for t in e.args if t.could_extract_minus_sign()]
    if len(neg) != 1:
        return None
    return e - neg[0], -neg[0]


@dataclass
class LimitStep:
    """A sequence ``seq(n)`` whose non-increase from n0 and limit give ``g(n) op 0``.

    ``form`` "ratio": ``g = A - B`` with ``A, B > 0`` (:func:`ratio_step`), ``seq = A/B``,
    ``decrease = -D`` (``D`` the ratio step's log-ratio difference), ``target = 1``;
    ``form`` "difference": ``seq = g``, ``decrease = g(n) - g(n + 1)``, ``target = 0``.
    ``decrease >= 0`` on the reals ``x >= n0`` makes ``seq`` non-increasing on the integers
    from n0, so ``seq(k) >= lim seq``; a limit ``L >= target`` then gives ``seq(k) >= target``,
    i.e. ``g(k) >= 0`` (``B > 0`` in the ratio form). For ``g > 0``: ``L > target``, or
    ``L = target`` and ``decrease > 0`` (strictly decreasing: ``seq(k) > seq(k + 1) >= L``).
    The symmetric case, a non-decreasing sequence below its limit, is this one for the
    relation's other side: ``a <= b`` reaches the layer as ``b - a >= 0`` ((1 + 1/n)^n <= e:
    e/(1 + 1/n)^n decreases to 1).
    ``seq_sympy`` and ``x``: what SymPy takes the limit of (x real, positive): the sequence,
    or its logarithm ``log A - log B`` in the ratio form (``lim s = exp(lim log s)``; SymPy
    finds that one several times faster)."""
    form: str
    seq: Node
    decrease: Node
    target: int
    seq_sympy: object
    x: object


#: where the limit is cross-checked in ball arithmetic (scaled up when n0 > 10)
LIMIT_POINTS = (10, 100, 10 ** 4, 10 ** 8)


def limit_steps(g: Node, n: str, ratio: Node | None, shifted: Node | None) -> list[LimitStep]:
    """The monotone-to-a-limit steps available for ``g``: the ratio form when the ratio step
    ``ratio`` exists (then ``g = A - B``, ``A, B > 0`` for ``n > 0``), the difference form when
    ``shifted`` (``g(n + 1)``, :func:`shift`) exists."""
    from ..backends.sym import from_sympy
    from ..backends.sympy_import import sympy as sp
    from ..expr.nodes import Mul, Num, Pow, sub
    from .symbolic import to_sympy_with_domains
    out = []
    e, syms = to_sympy_with_domains(g, {}, {n: Domain()})
    x = sp.Dummy("x", positive=True)
    e = e.subs(syms[n], x)
    minus_one = Num(Fraction(-1))
    if ratio is not None:
        parts = _two_terms(e)
        if parts is not None:
            A, B = parts
            try:
                a, b = (substitute(from_sympy(t.subs(x, syms[n])), {syms[n].name: Sym(n)}) for t in (A, B))
                readable = True
            except Exception:             # a form we cannot read back
                readable = False
            if readable:
                out.append(LimitStep("ratio", Mul((a, Pow(b, minus_one))), Mul((minus_one, ratio)), 1,
                                     sp.log(A) - sp.log(B), x))
    if shifted is not None:
        out.append(LimitStep("difference", g, sub(g, shifted), 0, e, x))
    return out


def sequence_limit(step: LimitStep, seconds: float):
    """SymPy's limit of ``step.seq`` at infinity, if it is a finite real constant (the limit
    of the real function, which is then the sequence's limit; in the ratio form ``exp`` of
    the logarithm's finite limit, so never 0); else None. Never runs where
    :func:`.budget.time_limit` cannot interrupt it."""
    from ..backends.sympy_import import sympy as sp
    from .budget import can_interrupt
    from .symbolic import finite_limit
    if not can_interrupt():
        return None
    try:
        with time_limit(seconds):
            L = finite_limit(step.seq_sympy, step.x, sp.oo, "-")
            if L is None:
                return None
            return sp.exp(L) if step.form == "ratio" else L
    except (Timeout, Exception):          # SymPy gave up or failed: no limit, no claim
        return None


def limit_points(n0: int) -> list[int]:
    """:data:`LIMIT_POINTS`, scaled by ``ceil(n0/10)`` so that each is at least n0."""
    scale = max(1, -(-n0 // 10))
    return [k * scale for k in LIMIT_POINTS]


def limit_cross_check(step: LimitStep, n: str, limit: Node, n0: int) -> bool:
    """The sequence at :data:`LIMIT_POINTS` (times ``ceil(n0/10)``) in ball arithmetic:
    each value certified ``>= limit``, each no larger than the one before (it approaches
    the limit from above, as a non-increasing sequence must). A check of SymPy's limit,
    not a proof; False when a value is not separated."""
    from ..backends import arb as A
    from ..expr.nodes import sub
    gaps = []
    for k in limit_points(n0):
        env = {n: Fraction(k)}
        gap = None
        for prec in (128, 512):
            try:
                v = A.enclose(sub(step.seq, limit), env, prec=prec)
            except (A.Undefined, A.TooLarge):
                return False
            except A.Unresolved:
                continue
            with A.precision(prec):
                if v.lower() >= 0:
                    gap = v
                    break
        if gap is None:
            return False
        gaps.append(gap)
    with A.precision(512):
        return all((p - q).lower() >= 0 for p, q in pairwise(gaps))


def relaxes_exactly(g: Node, names, domains: dict[str, Domain], decide_real: RealDecider | None = None,
                    share: float = 0.5) -> bool:
    """Whether a statement about ``g`` proved with the symbols ``names`` relaxed to reals
    speaks of every integer point of ``domains``. Such a proof covers the points where the
    real-valued ``g`` is defined (:func:`boundcalc.expr.singularities.definedness` with
    ``names`` real); a condition the rule adds for real exponents (``b > 0`` for ``b**n``,
    which with ``n`` an integer needs only ``|b| + max(n, 0) > 0``) must then be proved on
    the relaxed region by ``decide_real`` (``n**n`` for ``n >= 1``: ``n > 0`` holds), or
    the relaxation would skip integer points (``(-1)**n``: every one) and is not attempted."""
    from ..expr.nodes import Mul, Num
    from ..expr.singularities import definedness
    ints = frozenset(k for k, d in domains.items() if d.integer)
    int_conds = definedness(g, ints)
    real_conds = definedness(g, ints - set(names))
    as_int = {(c.expr, c.op) for c in int_conds}
    as_real = {(c.expr, c.op) for c in real_conds}
    extra = [c for c in real_conds if (c.expr, c.op) not in as_int]
    if not extra:
        return True
    if decide_real is None:
        return False
    region = {k: (Domain(False, d.lo, d.lo_closed, d.hi, d.hi_closed) if k in names else d)
              for k, d in domains.items()}
    # where g is defined with integer exponents (hypotheses), the real rule's conditions hold:
    # then a relaxed proof covers every integer point where g has a value
    hyps = [Rel(c.op, c.expr, Num(Fraction(0))) for c in int_conds
            if (c.expr, c.op) not in as_real and c.op in (">", ">=")]
    for c in extra:
        if c.op not in (">", ">=", "!="):
            return False
        if decide_real(c.expr, ">" if c.op == "!=" else c.op, region, hyps, share) is Verdict.PROVED:
            continue
        if c.op == "!=" and decide_real(Mul((Num(Fraction(-1)), c.expr)), ">", region, hyps, share) is Verdict.PROVED:
            continue
        return False
    return True


def prove_integers(g: Node, op: str, n: str | IntegerPair, domains: dict[str, Domain], decide_real: RealDecider, *,
                   seconds: float, record: dict | None = None) -> IntegerOutcome | None:
    """Decide ``g(n) op 0`` for every integer ``n`` of ``domains[n]`` (see the module
    docstring), within ``seconds`` of work (:func:`.budget.clock`); for an :class:`IntegerPair`,
    :func:`prove_pair`. ``record``: a dict a one-symbol proof is described in, for its
    certificate (``lo``, ``last``: the integers checked one by one; ``step``: ("none",),
    ("relaxation", n0), ("step", n0, g(n + 1)), ("opaque", n0, hypothesis, goal, domains)
    (:func:`opaque_step`), ("ratio", n0, D) (:func:`ratio_step`) or ("limit", n0, the
    :class:`LimitStep`, SymPy's limit, whether the decrease is strict))."""
    if isinstance(n, IntegerPair):
        return prove_pair(g, op, n, domains, decide_real, seconds=seconds)
    deadline = clock() + seconds
    lo, hi = _ends(domains[n])
    if lo is None:
        return None
    if hi is not None and hi < lo:
        return None
    if hi is not None and hi - lo < MAX_EXHAUSTIVE:
        out = _exhaustive(g, op, n, lo, hi, deadline)
        if record is not None and out is not None and out.verdict is Verdict.PROVED:
            record.update(lo=lo, hi=hi, last=hi, step=("none",))
        return out
    if not relaxes_exactly(g, {n}, domains, decide_real, max(0.2, seconds / 8)):
        return None
    st = _Steps(g, op, n, hi, decide_real, seconds, deadline)
    for off in STARTS:
        n0 = lo + off
        if hi is not None and n0 > hi:
            break
        if expired(deadline):
            return None
        how, last = st.from_n0(n0)
        if how is None:
            continue
        base = last if how.startswith("integers: induction") else None
        r = _check_range(g, op, n, lo, last, deadline, base)
        if r == "ok":
            if record is not None:
                record.update(lo=lo, hi=hi, last=last, step=st.used)
            first = _first_defined(g, n, lo, last)       # the points named: defined ones only
            checked = ("nothing below" if first is None else f"{n} = {first} checked, certified" if last == first
                       else f"{n} = {first}\u2026{last} each checked, certified")
            return IntegerOutcome(Verdict.PROVED, f"{how}; {checked}")
        if r is None:
            return None
        return IntegerOutcome(Verdict.DISPROVED, f"integers: fails at {n} = {r}", {n: Fraction(r)})
    return None


def _exhaustive(g: Node, op: str, n: str, lo: int, hi: int, deadline: float) -> IntegerOutcome | None:
    """A short range: every integer checked, certified."""
    r = _check_range(g, op, n, lo, hi, deadline)
    if r == "ok":
        m = sum(1 for k in range(lo, hi + 1) if _defined_at(g, n, k) is not False)
        return IntegerOutcome(Verdict.PROVED, f"integers: all {m} values checked, certified" if m == hi - lo + 1
                              else f"integers: the {m} values where it is defined checked, certified")
    return None if r is None else IntegerOutcome(Verdict.DISPROVED, f"integers: fails at {n} = {r}",
                                                 {n: Fraction(r)})


class _Steps:
    """The induction steps of one goal in one integer symbol (the shift, the opaque step, the
    ratio step; the monotone-to-a-limit steps built when first needed), tried from each n0."""

    def __init__(self, g, op, n, hi, decide_real, seconds, deadline):
        self.g, self.op, self.n, self.hi, self.decide_real = g, op, n, hi, decide_real
        self.seconds, self.deadline = seconds, deadline
        self.step = self.ratio = self.opaque = None
        if sympy_safe(g) is None and sum(1 for _ in g.unique_nodes()) <= MAX_NODES:
            try:
                with time_limit(max(0.2, 0.1 * seconds)):
                    self.opaque = opaque_step(g, n)
                    if self.opaque is None:
                        self.step = shift(g, n)
            except Timeout:
                self.step = self.opaque = None
            try:
                with time_limit(max(0.2, 0.1 * seconds)):
                    self.ratio = ratio_step(g, n)
            except Timeout:
                self.ratio = None
        self.share = max(0.3, seconds / 8)
        self.used: tuple = ()                    # the step that proved it (prove_integers' record)
        self.limits: list | None = None          # the monotone-to-a-limit steps, built when first needed
        self.limit_of: dict[int, object] = {}    # their SymPy limits (None: no usable limit)

    def from_n0(self, n0: int):
        """(how, the last integer the base case must check) of the first step that proves
        the goal for every n >= n0, else (None, None)."""
        g, op, n, hi, decide_real, share, deadline = (self.g, self.op, self.n, self.hi, self.decide_real,
                                                      self.share, self.deadline)
        step, opaque, ratio = self.step, self.opaque, self.ratio
        real = Domain(False, Fraction(n0), True, None if hi is None else Fraction(hi), hi is not None)
        if step is not None and decide_real(step, op, {n: real}, [Rel(op, g, _zero())], share) is Verdict.PROVED:
            self.used = ("step", n0, step)
            return f"integers: induction from n\u2080 = {n0}", n0
        if (opaque is not None and n0 >= opaque[3] and not expired(deadline)
                and decide_real(opaque[1], op, {n: real, **opaque[2]}, [Rel(op, opaque[0], _zero())],
                                share) is Verdict.PROVED):
            self.used = ("opaque", n0, *opaque[:3])
            return f"integers: induction from n\u2080 = {n0}", n0
        if (ratio is not None and n0 >= 1 and not expired(deadline)
                and decide_real(ratio, ">=", {n: real}, [], share) is Verdict.PROVED):
            self.used = ("ratio", n0, ratio)
            return f"integers: induction from n\u2080 = {n0}, ratio step", n0
        if not expired(deadline) and decide_real(g, op, {n: real}, [], share) is Verdict.PROVED:
            self.used = ("relaxation", n0)
            return f"integers: real relaxation from n\u2080 = {n0}", n0 - 1
        # (a limit step needs the sequence non-increasing on every integer from n0: no upper end)
        if hi is None and not expired(deadline):
            if self.limits is None:
                try:
                    with time_limit(max(0.2, 0.1 * self.seconds)):
                        self.limits = (limit_steps(g, n, ratio, step) if ratio is not None or step is not None
                                       else [])
                except Timeout:
                    self.limits = []
            for i, ls in enumerate(self.limits):
                why = _limit_step(ls, i, op, n, n0, real, decide_real, share, deadline, self.limit_of)
                if why is not None:           # covers every n >= n0 itself: no base case
                    self.used = ("limit", n0, ls, self.limit_of[i], "strictly" in why)
                    return f"integers: {why}", n0 - 1
        return None, None


def _limit_step(ls: LimitStep, i: int, op: str, n: str, n0: int, real: Domain, decide_real: RealDecider,
                share: float, deadline: float, limit_of: dict) -> str | None:
    """The verdict text if the monotone-to-a-limit step ``ls`` proves ``g op 0`` from
    ``n0`` (see :class:`LimitStep`), else None. The limit is computed once per step."""
    from ..backends import mp as mpb
    from ..backends.sym import from_sympy
    from ..expr.nodes import Num, sub
    if ls.form == "ratio" and n0 < 1:     # the ratio step is valid where n > 0
        return None
    if decide_real(ls.decrease, ">=", {n: real}, [], share) is not Verdict.PROVED:
        return None
    # the chain s(k) >= s(k + 1) >= ... must not cross a point where s has no value (the
    # ratio form's A, B are positive for every n > 0: ratio_step showed it)
    if ls.form == "difference" and not _defined_on([ls.seq], {n: real}, [], decide_real, share, deadline):
        return None
    if i not in limit_of:
        rest = left(deadline)
        limit_of[i] = sequence_limit(ls, max(0.2, min(2.0, rest))) if rest > 0 else None
    L = limit_of[i]
    if L is None:
        return None
    try:
        lim = from_sympy(L)
    except Exception:                     # a form we cannot read back
        return None
    side = mpb.decide_sign(sub(lim, Num(Fraction(ls.target))), {})
    if side is None or side < 0:
        return None
    strict = ""
    if op == ">" and side == 0:
        if expired(deadline) or decide_real(ls.decrease, ">", {n: real}, [], share) is not Verdict.PROVED:
            return None
        strict = "strictly "
    if not limit_cross_check(ls, n, lim, n0):
        return None
    from ..expr.printing import to_text
    what = "the ratio of the two sides" if ls.form == "ratio" else "the difference of the two sides"
    at = ", ".join(f"{k:.0e}".replace("e+0", "e").replace("e+", "e") if k >= 10 ** 4 else str(k)
                   for k in limit_points(n0))
    return (f"{what} {strict}non-increasing from n\u2080 = {n0}, limit {to_text(lim)} at infinity (SymPy; "
            f"checked in ball arithmetic at {n} = {at})")


MAX_SHIFT = 8          # gamma(u + c) with |c| above this: no pair ratio step


def pair_ratio(g: Node, s: str) -> tuple[Node, list[Node], list[Node], dict[str, Domain]] | None:
    """The ratio step in ``s`` (the other symbols fixed) for ``g = A - B``:
    ``(D, positive, args, domains)`` or None.

    ``A`` and ``B`` are written with ``gamma`` (``binomial(n, k) = gamma(n + 1)/(gamma(k + 1)
    gamma(n - k + 1))``, ``factorial(x) = gamma(x + 1)``); every ``gamma(u)`` must have ``u``
    linear in ``s`` with an integer coefficient ``c`` (``|c| <= MAX_SHIFT``) and becomes a
    symbol ``G > 0`` (``domains``); in ``T(s + 1)`` it is ``gamma(u + c) = G (u)(u + 1)...(u +
    c - 1)`` (``G/((u + c)...(u - 1))`` for ``c < 0``), an identity where ``u > 0`` and
    ``u + c > 0``. ``positive``: ``A(s)`` and ``B(s)`` with their ``G`` and the ratios ``qA =
    A(s + 1)/A(s)``, ``qB`` (G-free, else None), to be proved ``> 0`` on the step's region.
    Then ``A(s) > 0``, ``A(s + 1) = qA A(s)`` and likewise for ``B``, so ``log qA - log qB >= 0``
    with ``A(s) op B(s)`` gives ``A(s + 1) op B(s + 1)``. ``D`` is ``log qA - log qB`` with the
    logarithms of products and powers split (SymPy's ``expand_log(force=True)``), an
    identity where every logarithm's argument is positive. ``args``: those ``u``, ``u + c``
    and the arguments of ``D``'s logarithms, to be proved ``> 0`` on the step's region.
    Both lists leave out what SymPy's sign rules already show positive (every symbol is
    ``> 0`` on the region: the symbols from 1 or more, the ``G``)."""
    from ..backends.sym import from_sympy
    from ..backends.sympy_import import sympy as sp
    from .symbolic import to_sympy_with_domains
    e, syms = to_sympy_with_domains(g, {}, {v: Domain() for v in g.symbols()})
    pos = {v: sp.Dummy(v, positive=True) for v in syms}
    e = e.xreplace({syms[v]: pos[v] for v in syms})
    S = pos[s]
    parts = _two_terms(e)
    if parts is None:
        return None
    names: dict = {}
    args: list = []

    def gamma_form(t):
        t = t.rewrite(sp.gamma)
        if t.has(sp.factorial, sp.binomial, sp.RisingFactorial, sp.FallingFactorial, sp.loggamma,
                 sp.polygamma, sp.beta):
            return None
        hold, after = {}, {}
        for a in sorted(t.atoms(sp.gamma), key=sp.default_sort_key):
            u = a.args[0]
            c = sp.expand(u.subs(S, S + 1) - u)
            if not (c.is_Integer and abs(int(c)) <= MAX_SHIFT):
                return None
            c = int(c)
            if a not in names:
                name = f"{s}_G{len(names)}"
                if name in syms:
                    return None
                names[a] = sp.Dummy(name, positive=True)
                args.extend([u, u + c])
            G = names[a]
            ph = sp.Dummy("P")
            hold[a] = ph
            if c >= 0:
                after[ph] = G * sp.Mul(*[u + j for j in range(c)])
            else:
                after[ph] = G / sp.Mul(*[u + c + j for j in range(-c)])
        t0 = t.xreplace(names)
        t1 = t.xreplace(hold).subs(S, S + 1).xreplace(after)
        return t0, t1

    forms = [gamma_form(t) for t in parts]
    if any(f is None for f in forms):
        return None
    (a0, a1), (b0, b1) = forms
    qa, qb = a1 / a0, b1 / b0
    if any(q.has(*names.values()) or q.has(sp.gamma) for q in (qa, qb)):
        return None
    # log(qA) - log(qB) with the logarithms of products and powers split (force): an
    # identity where every logarithm's argument is positive, so those join ``args``
    d = sp.expand(sp.expand_log(sp.log(qa), force=True) - sp.expand_log(sp.log(qb), force=True))
    args.extend(t.args[0] for t in sorted(d.atoms(sp.log), key=sp.default_sort_key))
    node = from_sympy                     # the dummies carry the symbols' own names

    def unsure(ts):           # SymPy's own sign rules settle some (every symbol is > 0 here)
        return [t for t in dict.fromkeys(ts) if t.is_positive is not True]
    try:
        out = (node(d), [node(t) for t in unsure([a0, b0, qa, qb])], [node(u) for u in unsure(args)],
               {G.name: Domain(lo=Fraction(0)) for G in names.values()})
    except Exception:                     # a form we cannot read back
        return None
    return out


def _defined_on(nodes: list[Node], region: dict[str, Domain], extra: list, decide_real: RealDecider, share: float,
                deadline: float, *, gamma_args_proved: bool = False) -> bool:
    """Every definedness condition of ``nodes`` (:func:`..expr.singularities.definedness`)
    proved on the real ``region`` under ``extra``, so that an induction's chain of integer
    points meets no point where ``g`` has no value (the real layers' proofs say nothing
    there). With ``gamma_args_proved`` gamma's poles are left out (:func:`pair_ratio` has
    proved every gamma argument positive)."""
    from ..expr.nodes import Mul, Num
    from ..expr.singularities import definedness
    seen = set()
    for c in (c for n in nodes for c in definedness(n)):
        if (gamma_args_proved and c.kind == "gamma") or (c.expr, c.op) in seen:
            continue
        seen.add((c.expr, c.op))
        if c.op not in (">", ">=", "!=") or expired(deadline):
            return False
        if decide_real(c.expr, ">" if c.op == "!=" else c.op, region, extra, share) is Verdict.PROVED:
            continue
        if c.op == "!=" and decide_real(Mul((Num(Fraction(-1)), c.expr)), ">", region, extra, share) is Verdict.PROVED:
            continue
        return False
    return True


def _base_case(g: Node, s: str, base: Node) -> Node:
    """``g`` with ``s = base`` (the other symbol or a number), simplified by SymPy's own
    evaluation with every symbol positive (``binomial(d, d)`` is 1, ``(d/d)**d`` is 1), which
    holds on the pair's domains (symbols from 1 or more); ``g`` substituted as it is when
    SymPy cannot read it back."""
    from ..backends.sym import from_sympy
    from .symbolic import to_sympy_with_domains
    plain = substitute(g, {s: base})
    try:
        with time_limit(0.3):
            out = from_sympy(to_sympy_with_domains(plain, {}, {v: Domain(lo=Fraction(0)) for v in plain.symbols()})[0])
    except (Timeout, Exception):          # the plain substitution is as good, only less simple
        return plain
    return out if out.symbols() <= plain.symbols() else plain


def prove_pair(g: Node, op: str, pair: IntegerPair, domains: dict[str, Domain], decide_real: RealDecider, *,
               seconds: float) -> IntegerOutcome | None:
    """Decide ``g op 0`` for every pair of integers of the domains (with ``low <= high`` when
    the pair is linked) by a ratio step in one symbol (:func:`pair_ratio`), the other fixed:

    * linked, induction in ``high`` from ``high = low`` (needs ``lo(high) <= lo(low)``): the
      step for every real ``high >= low >= lo(low)``; the base case ``g(low, low) op 0`` for
      every integer ``low`` by the one-symbol layer;
    * induction in ``low`` from ``low = lo(low)``: the step for every real ``lo(low) <= low``
      (and ``low <= high - 1`` when linked: the step to ``low + 1`` stays in the region);
      the base case ``g(lo(low), high) op 0`` for every integer ``high >= lo(high)`` (and
      ``>= lo(low)`` when linked) by the one-symbol layer;
    * unlinked, likewise induction in ``high`` from ``lo(high)``.

    The step's conditions (:func:`pair_ratio`: gamma arguments ``> 0``, both sides and both
    ratios ``> 0``, ``D >= 0``; every definedness condition of ``g`` and of ``g`` one step
    on, :func:`_defined_on`) are decided by the real layers on the step's region, which
    imply them at its integer points. A base case disproved at an integer gives a point of
    the domain where ``g op 0`` fails. None when nothing is decided."""
    from ..expr.nodes import Num, sub
    if not relaxes_exactly(g, {pair.low, pair.high}, domains, decide_real, max(0.2, seconds / 8)):
        return None
    deadline = clock() + seconds
    lo: dict[str, int] = {}
    for v in (pair.low, pair.high):
        end = _ends(domains[v])[0]
        if end is None:                   # applies() admits only lower ends >= 1
            return None
        lo[v] = end
    low, high = pair.low, pair.high
    # (s, t, base value of s, lower end of t for the base, extra of the step)
    plans: list[tuple[str, str, Node, int, list[Rel]]] = []
    if pair.linked:
        if lo[high] <= lo[low]:
            plans.append((high, low, Sym(low), lo[low], [Rel("<=", Sym(low), Sym(high))]))
        plans.append((low, high, Num(Fraction(lo[low])), max(lo[high], lo[low]),
                      [Rel("<=", Sym(low), sub(Sym(high), Num(Fraction(1))))]))
    else:
        plans.append((high, low, Num(Fraction(lo[high])), lo[low], []))
        plans.append((low, high, Num(Fraction(lo[low])), lo[high], []))
    share = max(0.3, seconds / 10)
    for s, t, base, t_lo, step_extra in plans:
        if expired(deadline):
            return None
        try:
            with time_limit(max(0.3, 0.25 * seconds)):
                pr = (pair_ratio(g, s) if sympy_safe(g) is None and sum(1 for _ in g.unique_nodes()) <= MAX_NODES
                      else None)
        except Timeout:
            pr = None
        if pr is None:
            continue
        region = {v: Domain(False, Fraction(lo[v]), True, None, False) for v in (s, t)}
        if not _pair_step_holds(g, s, pr, region, step_extra, decide_real, share, deadline):
            continue
        base_g = _base_case(g, s, base)
        t_dom = Domain(True, Fraction(t_lo), True, None, False)
        rest = left(deadline)
        if rest <= 0:
            return None
        if t in base_g.symbols():
            io = prove_integers(base_g, op, t, {t: t_dom}, decide_real, seconds=rest)
        else:
            k = _check_range(base_g, op, t, t_lo, t_lo, deadline, t_lo)
            io = (IntegerOutcome(Verdict.PROVED, "integers: a constant, its sign certified") if k == "ok" else
                  None if k is None else IntegerOutcome(Verdict.DISPROVED, "", {t: Fraction(k)}))
        if io is None:
            continue
        if io.verdict is Verdict.DISPROVED and io.point is not None:
            (k,) = io.point.values()
            at = {t: k, s: k if isinstance(base, Sym) else Fraction(lo[s])}
            return IntegerOutcome(Verdict.DISPROVED, f"integers: fails at {s} = {at[s]}, {t} = {at[t]}", at)
        if io.verdict is not Verdict.PROVED:
            continue
        base_text = f"{s} = {t}" if isinstance(base, Sym) else f"{s} = {lo[s]}"
        inner = io.how.removeprefix("integers: ")
        return IntegerOutcome(Verdict.PROVED, f"integers: induction in {s} from {base_text} for each {t}, ratio step; "
                                        f"base case: {inner}")
    return None


def _pair_step_holds(g: Node, s: str, pr, region: dict, step_extra: list, decide_real: RealDecider, share: float,
                     deadline: float) -> bool:
    """Whether the ratio step ``pr`` (:func:`pair_ratio`) in ``s`` holds on ``region``: D >= 0,
    the gamma arguments > 0, both sides and ratios > 0, and g defined there and one step on
    (each decided by the real layers on the step's region)."""
    from ..expr.nodes import Add, Num
    d, positive, args, gdoms = pr
    if decide_real(d, ">=", region, step_extra, share) is not Verdict.PROVED:
        return False
    if not all(not expired(deadline) and decide_real(u, ">", region, step_extra, share) is Verdict.PROVED
               for u in dict.fromkeys(args)):
        return False
    if not all(not expired(deadline)
               and decide_real(p, ">", {**region, **gdoms}, step_extra, share) is Verdict.PROVED
               for p in positive):
        return False
    return _defined_on([g, substitute(g, {s: Add((Sym(s), Num(Fraction(1))))})], region, step_extra,
                       decide_real, share, deadline, gamma_args_proved=True)


def _zero() -> Node:
    from ..expr.nodes import Num
    return Num(Fraction(0))
