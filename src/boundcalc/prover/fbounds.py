"""Certified polynomial and rational bounds of the special functions (MetiTarski-style).

A table of entries ``f(x) <= r(x)`` (side ``upper``) or ``f(x) >= r(x)`` (side ``lower``)
with ``r = num/den`` a ratio of polynomials with exact rational coefficients, each valid
on a stated range of ``x`` (the function's argument; for ``log`` the argument ``u`` of
``log(u)``), for ``exp log tanh atan erf sqrt`` and the logistic ``1/(1 + exp(-x))``
(which the expression language has no node for: its entries are there for callers that
recognise it). Each entry names its degree (the larger of the two polynomial degrees)
and its source.

Soundness contract: every entry is a theorem. The table is data; it is proved once, in
the tests (``tests/prover/test_fbounds.py``), entry by entry, in exact rational
arithmetic, by an argument that cannot pass on a wrong entry: the denominator has no root
on the range (exact root isolation), the bound meets the function at an anchor point
(``f(0)``, ``log(1) = 0`` exactly; a limit at infinity, or ``log a`` at the end of a
range-reduced log entry's range, compared in ball arithmetic), and the
derivative condition of the comparison principle for the function's differential
equation (``exp' = exp``, ``tanh' = 1 - tanh^2``, ``atan' = 1/(1 + x^2)``, ``log' = 1/u``,
``sigma' = sigma (1 - sigma)``, ``erf' = (2/sqrt(pi)) exp(-x^2)`` bracketed by the exp
entries; ``sqrt`` by squaring) is a polynomial sign condition on the range, decided by
exact root isolation. A caller (the SMT layer) may therefore assert
``range(u) -> den(u) F <= num(u)`` for ``F = f(u)`` without any further check.

The odd functions' entries on ``x <= 0`` and the logistic's are derived here from the
entries on ``x >= 0`` (``f(-x) = -f(x)``, ``sigma(x) = (1 + tanh(x/2))/2``,
``sigma(-x) = 1 - sigma(x)``); the tests prove the derived entries as well, from scratch.
Constants that are not rational (``2/sqrt(pi)``, ``pi/2``) enter as rational bounds on
the safe side, named in the source of the entry.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction as Q
from math import factorial

__all__ = ["FUNCTIONS", "TABLE", "FBound", "bounds_for", "poly_eval"]

FUNCTIONS = ("exp", "log", "tanh", "atan", "erf", "sqrt", "logistic", "tan")

Poly = tuple[Q, ...]            # coefficients, lowest degree first


@dataclass(frozen=True)
class FBound:
    """``func(x) <= num(x)/den(x)`` (side ``upper``) or ``>=`` (``lower``) for every ``x``
    in the range (``lo``/``hi`` None: unbounded on that side)."""
    func: str
    side: str
    lo: Q | None
    hi: Q | None
    num: Poly
    den: Poly
    source: str
    lo_closed: bool = True
    hi_closed: bool = True
    reduced: bool = False       # a range-reduced entry (log about a = 2, 8, 32): tried last

    @property
    def degree(self) -> int:
        return max(_deg(self.num), _deg(self.den))

    @property
    def rational(self) -> bool:
        return _deg(self.den) > 0

    def contains(self, x: Q) -> bool:
        if self.lo is not None and (x < self.lo or (x == self.lo and not self.lo_closed)):
            return False
        return not (self.hi is not None and (x > self.hi or (x == self.hi and not self.hi_closed)))

    def value(self, x: Q) -> Q:
        return poly_eval(self.num, x) / poly_eval(self.den, x)

    def range_text(self) -> str:
        lo = "(-oo" if self.lo is None else ("[" if self.lo_closed else "(") + str(self.lo)
        hi = "oo)" if self.hi is None else str(self.hi) + ("]" if self.hi_closed else ")")
        return f"{lo}, {hi}"

    def __str__(self) -> str:
        rel = "<=" if self.side == "upper" else ">="
        return (f"{self.func}(x) {rel} " + (f"({_ptext(self.num)}) / ({_ptext(self.den)})" if self.rational
                                            else _ptext(self.num))
                + f" on {self.range_text()} [degree {self.degree}; {self.source}]")


# ------------------------------------------------------------------ polynomial helpers
def _deg(p: Poly) -> int:
    d = len(p) - 1
    while d > 0 and p[d] == 0:
        d -= 1
    return d


def poly_eval(p: Poly, x: Q) -> Q:
    out = Q(0)
    for c in reversed(p):
        out = out * x + c
    return out


def _ptext(p: Poly) -> str:
    terms = [f"{c}" + ("" if k == 0 else ("*x" if k == 1 else f"*x^{k}")) for k, c in enumerate(p) if c != 0]
    return " + ".join(terms) or "0"


def _P(*cs) -> Poly:
    return tuple(Q(c) for c in cs)


def _scale_arg(p: Poly, a: Q) -> Poly:
    """p(a x)."""
    return tuple(c * a ** k for k, c in enumerate(p))


def _shift(p: Poly, s: Q) -> Poly:
    """p(x + s) (Horner with polynomial arithmetic)."""
    out: list[Q] = [Q(0)]
    for c in reversed(p):
        # out = out * (x + s) + c
        nxt = [Q(0)] * (len(out) + 1)
        for k, a in enumerate(out):
            nxt[k + 1] += a
            nxt[k] += a * s
        nxt[0] += c
        out = nxt
    return _trim(tuple(out))


def _trim(p: Poly) -> Poly:
    return p[:_deg(p) + 1]


def _neg(p: Poly) -> Poly:
    return tuple(-c for c in p)


def _add_const(p: Poly, c: Q) -> Poly:
    return (p[0] + c,) + p[1:]


def _mul(p: Poly, q: Poly) -> Poly:
    out = [Q(0)] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        for j, b in enumerate(q):
            out[i + j] += a * b
    return _trim(tuple(out))


# ------------------------------------------------------------------ the families
def _exp_taylor(n: int) -> Poly:
    return tuple(Q(1, factorial(k)) for k in range(n + 1))


def _alt_odd(n: int, coef) -> Poly:
    """sum over odd k <= n of coef(k) x^k."""
    return tuple(Q(0) if k % 2 == 0 else coef(k) for k in range(n + 1))


def _atan_taylor(n: int) -> Poly:
    return _alt_odd(n, lambda k: Q((-1) ** ((k - 1) // 2), k))


# tanh's Taylor coefficients 2^(2k)(2^(2k) - 1) B_(2k) / (2k)! (x, x^3, ..., x^11)
_TANH = (Q(1), Q(-1, 3), Q(2, 15), Q(-17, 315), Q(62, 2835), Q(-1382, 155925))


def _tanh_taylor(n: int) -> Poly:
    return _alt_odd(n, lambda k: _TANH[(k - 1) // 2])


def _log1p_taylor(n: int) -> Poly:
    return (Q(0),) + tuple(Q((-1) ** (k + 1), k) for k in range(1, n + 1))


# 2/sqrt(pi) = 1.12837916709551...; pi/2 = 1.57079632679489...
TWO_OVER_SQRT_PI_LO, TWO_OVER_SQRT_PI_HI = Q(1128379, 10 ** 6), Q(1128380, 10 ** 6)
HALF_PI_LO, HALF_PI_HI = Q(15707963, 10 ** 7), Q(15707964, 10 ** 7)

ONE: Poly = (Q(1),)
_T = "Taylor truncation (Lagrange remainder of fixed sign)"
_PADE = "Pade approximant / continued-fraction convergent"


def _entries() -> list[FBound]:
    E: list[FBound] = []

    def add(func, side, lo, hi, num, den=ONE, source="", lo_closed=True, hi_closed=True, reduced=False):
        E.append(FBound(func, side, None if lo is None else Q(lo), None if hi is None else Q(hi),
                        _trim(tuple(num)), _trim(tuple(den)), source, lo_closed, hi_closed, reduced))

    _entries_exp(E, add)
    _entries_log(E, add)
    _entries_log_reduced(E, add)
    _entries_tanh(E, add)
    _entries_atan(E, add)
    _entries_erf(E, add)
    _entries_sqrt(E, add)
    _entries_tan(E, add)

    # ---- derived: odd functions on x <= 0
    derived: list[FBound] = []
    for b in E:
        if b.func in ("tanh", "atan", "erf") and b.lo is not None and b.lo >= 0 and b.hi is None:
            # f(x) <= r(x) on [a, oo)  =>  f(-x) >= -r(x): f(y) >= -r(-y) on (-oo, -a]
            num = _neg(_scale_arg(b.num, Q(-1)))
            den = _scale_arg(b.den, Q(-1))
            if poly_eval(den, -b.lo - 1) < 0:        # keep the denominator positive
                num, den = _neg(num), _neg(den)
            derived.append(FBound(b.func, "lower" if b.side == "upper" else "upper", None, -b.lo, num, den,
                                  b.source + "; mirrored by oddness to x <= 0", True, b.lo_closed))
    # ---- derived: the logistic sigma(x) = (1 + tanh(x/2))/2, sigma(-x) = 1 - sigma(x)
    for b in E:
        if b.func != "tanh" or b.degree > 9:
            continue
        p, q = _scale_arg(b.num, Q(1, 2)), _scale_arg(b.den, Q(1, 2))
        num = tuple(c / 2 for c in _trim(tuple(a + c for a, c in _zip(q, p))))     # (q + p) / (2 q)
        derived.append(FBound("logistic", b.side, Q(0), None, num, q,
                              b.source + "; for sigma(x) = (1 + tanh(x/2))/2"))
        # sigma(y) = 1 - sigma(-y) on y <= 0: bound 1 - num(-y)/q(-y) = (q(-y) - num(-y)) / q(-y)
        qm, nm = _scale_arg(q, Q(-1)), _scale_arg(num, Q(-1))
        derived.append(FBound("logistic", "lower" if b.side == "upper" else "upper", None, Q(0),
                              _trim(tuple(a - c for a, c in _zip(qm, nm))), qm,
                              b.source + "; for sigma(x) = (1 + tanh(x/2))/2 and sigma(-x) = 1 - sigma(x)"))
    return E + derived


def _entries_exp(E: list[FBound], add) -> None:
    """The entries of exp (``add`` appends one to ``E``)."""
    # ---- exp: Taylor (remainder exp(xi) x^(n+1)/(n+1)!), reciprocals, Pade
    for n in (1, 3, 5, 7, 9):
        add("exp", "lower", None, None, _exp_taylor(n), source=f"{_T}, odd degree {n}: all x")
    for n in (2, 4, 6, 8):
        add("exp", "lower", 0, None, _exp_taylor(n), source=f"{_T}, degree {n}, x >= 0")
    for n in (2, 4, 6, 8, 10):
        add("exp", "upper", None, 0, _exp_taylor(n), source=f"{_T}, even degree {n}, x <= 0")
    for n, hi in ((1, Q(9, 10)), (3, Q(3, 2)), (5, Q(2))):
        add("exp", "upper", 0, hi, ONE, _scale_arg(_exp_taylor(n), Q(-1)),
            source=f"1/exp(-x) with the Taylor lower bound of degree {n} of exp(-x)")
    pade = {1: (_P(1, Q(1, 2)), _P(1, Q(-1, 2))),
            2: (_P(1, Q(1, 2), Q(1, 12)), _P(1, Q(-1, 2), Q(1, 12))),
            3: (_P(1, Q(1, 2), Q(1, 10), Q(1, 120)), _P(1, Q(-1, 2), Q(1, 10), Q(-1, 120))),
            4: (_P(1, Q(1, 2), Q(3, 28), Q(1, 84), Q(1, 1680)), _P(1, Q(-1, 2), Q(3, 28), Q(-1, 84), Q(1, 1680)))}
    for k, (p, q) in pade.items():
        src = f"diagonal Pade [{k}/{k}] of exp"
        if k % 2:       # error ~ -x^(2k+1): above exp for x > 0, below for x < 0
            add("exp", "upper", 0, {1: Q(19, 10), 3: Q(4)}[k], p, q, src)
            add("exp", "lower", None, 0, p, q, src)
        else:
            add("exp", "lower", 0, None, p, q, src)
            add("exp", "upper", None, 0, p, q, src)


def _entries_log(E: list[FBound], add) -> None:
    """The entries of log (``add`` appends one to ``E``)."""
    # ---- log(u), u > 0; families in t = u - 1 shifted to u
    def log_add(side, lo, hi, num_t, den_t=ONE, source="", lo_closed=True):
        add("log", side, lo, hi, _shift(num_t, Q(-1)), _shift(den_t, Q(-1)), source, lo_closed)
    log_add("upper", 0, None, _P(0, 1), source="tangent at 1: log u <= u - 1", lo_closed=False)
    add("log", "lower", 0, None, _P(-1, 1), _P(0, 1), "log u >= 1 - 1/u", lo_closed=False)
    for n in (1, 3, 5, 7):
        log_add("upper", 1, None, _log1p_taylor(n), source=f"{_T} of log(1 + t), odd degree {n}, t >= 0")
    for n in (2, 4, 6, 8):
        log_add("lower", 1, None, _log1p_taylor(n), source=f"{_T} of log(1 + t), even degree {n}, t >= 0")
    for n in (1, 2, 3, 4, 5):
        log_add("upper", 0, 1, _log1p_taylor(n), source=f"{_T} of log(1 + t), degree {n}, -1 < t <= 0",
                lo_closed=False)
    lp = {(1, 1): (_P(0, 1), _P(1, Q(1, 2))), (2, 1): (_P(0, 1, Q(1, 6)), _P(1, Q(2, 3))),
          (2, 2): (_P(0, 1, Q(1, 2)), _P(1, 1, Q(1, 6))), (3, 2): (_P(0, 1, Q(7, 10), Q(1, 30)), _P(1, Q(6, 5), Q(3, 10))),
          (3, 3): (_P(0, 1, 1, Q(11, 60)), _P(1, Q(3, 2), Q(3, 5), Q(1, 20))),
          (4, 3): None,
          (4, 4): (_P(0, 1, Q(3, 2), Q(13, 21), Q(5, 84)), _P(1, 2, Q(9, 7), Q(2, 7), Q(1, 70)))}
    for (m, k), pq in lp.items():
        if pq is None:
            continue
        src = f"Pade [{m}/{k}] of log(1 + t) (continued-fraction convergent; MetiTarski's log family)"
        if m == k:      # diagonal: below log(1 + t) for t >= 0, above for -1 < t <= 0
            log_add("lower", 1, None, *pq, source=src)
            log_add("upper", 0, 1, *pq, source=src, lo_closed=False)
        else:           # above for t >= 0 (on -1 < t < 0 it is no one-sided bound)
            log_add("upper", 1, None, *pq, source=src)


def _entries_log_reduced(E: list[FBound], add) -> None:
    """The entries of log reduced (``add`` appends one to ``E``)."""
    # ---- log away from 1: log u = log a + log(u/a) (u >= a) = log a - log(a/u) (u <= a),
    # with the entries on [1, oo) of degree 2..4 at u/a or a/u and a rational bound of
    # log a on the safe side (MetiTarski's range reduction)
    base = [b for b in E if b.func == "log" and b.lo == 1 and b.hi is None and 2 <= b.degree <= 4]
    for a, (la, ha) in LOG_ANCHORS.items():
        for b in base:
            d = b.degree
            # r(u/a) = num(u/a)/den(u/a);  r(a/u) = (u^d num(a/u)) / (u^d den(a/u))
            at_ua = (_scale_arg(_pad(b.num, d), 1 / a), _scale_arg(_pad(b.den, d), 1 / a))
            at_au = (_reverse(_scale_arg(_pad(b.num, d), a)), _reverse(_scale_arg(_pad(b.den, d), a)))
            src = f"log u = log {a} + log(u/{a}), {b.source}; {la} < log {a} < {ha}"
            if b.side == "lower":       # log u >= la + r(u/a) on [a, oo); log u <= ha - r(a/u) on (0, a]
                add("log", "lower", a, None, _add_poly(at_ua[0], _mul((la,), at_ua[1])), at_ua[1], src,
                    reduced=True)
                add("log", "upper", 0, a, _add_poly(_neg(at_au[0]), _mul((ha,), at_au[1])), at_au[1], src,
                    lo_closed=False, reduced=True)
            else:                       # log u <= ha + r(u/a) on [a, oo); log u >= la - r(a/u) on (0, a]
                add("log", "upper", a, None, _add_poly(at_ua[0], _mul((ha,), at_ua[1])), at_ua[1], src,
                    reduced=True)
                add("log", "lower", 0, a, _add_poly(_neg(at_au[0]), _mul((la,), at_au[1])), at_au[1], src,
                    lo_closed=False, reduced=True)


def _entries_tanh(E: list[FBound], add) -> None:
    """The entries of tanh (``add`` appends one to ``E``)."""
    # ---- tanh, x >= 0 (x <= 0 by oddness, below)
    for n in (1, 5, 9):
        add("tanh", "upper", 0, None, _tanh_taylor(n), source=f"{_T}, degree {n}, x >= 0")
    for n in (3, 7, 11):
        add("tanh", "lower", 0, None, _tanh_taylor(n), source=f"{_T}, degree {n}, x >= 0")
    tp = {(1, 2): (_P(0, 1), _P(1, 0, Q(1, 3))), (3, 2): (_P(0, 1, 0, Q(1, 15)), _P(1, 0, Q(2, 5))),
          (3, 4): (_P(0, 1, 0, Q(2, 21)), _P(1, 0, Q(3, 7), 0, Q(1, 105))),
          (5, 4): (_P(0, 1, 0, Q(1, 9), 0, Q(1, 945)), _P(1, 0, Q(4, 9), 0, Q(1, 63))),
          (5, 6): (_P(0, 1, 0, Q(4, 33), 0, Q(1, 495)), _P(1, 0, Q(5, 11), 0, Q(2, 99), 0, Q(1, 10395)))}
    for (m, k), (p, q) in tp.items():
        add("tanh", "upper" if m > k else "lower", 0, None, p, q,
            f"Pade [{m}/{k}] of tanh (convergent of Lambert's continued fraction)")


def _entries_atan(E: list[FBound], add) -> None:
    """The entries of atan (``add`` appends one to ``E``)."""
    # ---- atan, x >= 0
    for n in (1, 5, 9):
        add("atan", "upper", 0, None, _atan_taylor(n), source=f"{_T}, degree {n}, x >= 0")
    for n in (3, 7, 11):
        add("atan", "lower", 0, None, _atan_taylor(n), source=f"{_T}, degree {n}, x >= 0")
    ap = {(1, 2): (_P(0, 1), _P(1, 0, Q(1, 3))), (3, 2): (_P(0, 1, 0, Q(4, 15)), _P(1, 0, Q(3, 5))),
          (3, 4): (_P(0, 1, 0, Q(11, 21)), _P(1, 0, Q(6, 7), 0, Q(3, 35))),
          (5, 4): (_P(0, 1, 0, Q(7, 9), 0, Q(64, 945)), _P(1, 0, Q(10, 9), 0, Q(5, 21))),
          (5, 6): (_P(0, 1, 0, Q(34, 33), 0, Q(1, 5)), _P(1, 0, Q(15, 11), 0, Q(5, 11), 0, Q(5, 231))),
          (7, 6): (_P(0, 1, 0, Q(50, 39), 0, Q(283, 715), 0, Q(256, 15015)),
                   _P(1, 0, Q(21, 13), 0, Q(105, 143), 0, Q(35, 429)))}
    for (m, k), (p, q) in ap.items():
        add("atan", "upper" if m > k else "lower", 0, None, p, q,
            f"Pade [{m}/{k}] of atan (continued-fraction convergent)")
    # at infinity: atan x = pi/2 - atan(1/x) for x > 0, with the Taylor bounds of atan(1/x)
    for n in (1, 5, 9, 13):     # atan(y) <= T_n(y): atan x >= pi/2 - T_n(1/x) > HALF_PI_LO - T_n(1/x)
        t = _atan_taylor(n)     # HALF_PI_LO - sum c_k x^-k = (HALF_PI_LO x^n - sum c_k x^(n-k)) / x^n
        cs = [Q(0)] * (n + 1)
        cs[n] = HALF_PI_LO
        for k, c in enumerate(t):
            cs[n - k] -= c
        add("atan", "lower", Q(1, 2), None, tuple(cs), tuple([Q(0)] * n + [Q(1)]),
            f"atan x = pi/2 - atan(1/x), atan(1/x) <= its Taylor degree {n}; pi/2 > {HALF_PI_LO}")
    for n in (3, 7, 11):
        t = _atan_taylor(n)
        cs = [Q(0)] * (n + 1)
        cs[n] = HALF_PI_HI
        for k, c in enumerate(t):
            cs[n - k] -= c
        add("atan", "upper", Q(1, 2), None, tuple(cs), tuple([Q(0)] * n + [Q(1)]),
            f"atan x = pi/2 - atan(1/x), atan(1/x) >= its Taylor degree {n}; pi/2 < {HALF_PI_HI}")


def _entries_erf(E: list[FBound], add) -> None:
    """The entries of erf (``add`` appends one to ``E``)."""
    # ---- erf, x >= 0: erf x = (2/sqrt(pi)) int_0^x exp(-t^2) dt with exp's Taylor bounds on
    # u = -t^2 <= 0 (upper: even degree; lower: odd degree), 2/sqrt(pi) bounded by rationals
    def erf_int(n: int) -> Poly:
        out = [Q(0)] * (2 * n + 2)
        for k in range(n + 1):
            out[2 * k + 1] = Q((-1) ** k, factorial(k) * (2 * k + 1))
        return tuple(out)
    for n in (0, 2, 4, 6):
        add("erf", "upper", 0, None, tuple(TWO_OVER_SQRT_PI_HI * c for c in erf_int(n)),
            source=f"(2/sqrt(pi)) x int of exp's Taylor degree {n} upper bound at -t^2; 2/sqrt(pi) < {TWO_OVER_SQRT_PI_HI}")
    for n in (1, 3, 5, 7):
        add("erf", "lower", 0, None, tuple(TWO_OVER_SQRT_PI_LO * c for c in erf_int(n)),
            source=f"(2/sqrt(pi)) x int of exp's Taylor degree {n} lower bound at -t^2; 2/sqrt(pi) > {TWO_OVER_SQRT_PI_LO}")
    add("erf", "upper", None, None, ONE, source="erf < 1")
    add("erf", "lower", None, None, _P(-1), source="erf > -1")


# tan's Taylor coefficients 2^(2k)(2^(2k) - 1)|B_(2k)|/(2k)! (x, x^3, ..., x^11): all positive
_TAN = (Q(1), Q(1, 3), Q(2, 15), Q(17, 315), Q(62, 2835), Q(1382, 155925))


def _tan_taylor(n: int) -> Poly:
    return _alt_odd(n, lambda k: _TAN[(k - 1) // 2])


def _entries_tan(E: list[FBound], add) -> None:
    """The entries of tan, on ranges inside (-pi/2, pi/2) only (tan' = 1 + tan^2, tan(0) = 0:
    the comparison principle holds up to the pole; beyond it tan is another branch). Every
    entry on [0, h] is mirrored to [-h, 0] by oddness (an odd r: -r(-x) = r(x))."""
    h = HALF_PI_LO
    mine: list[tuple] = []
    for n in (1, 3, 5, 7, 9):   # the Maclaurin series has positive terms: partial sums below tan on [0, pi/2)
        mine.append(("lower", h, _tan_taylor(n), ONE, f"{_T}: Maclaurin partial sum of degree {n}, 0 <= x < pi/2"))
    # Lambert's continued fraction tan x = x/(1 - x^2/(3 - x^2/(5 - ...))): convergents below tan
    mine.append(("lower", h, _P(0, 3), _P(3, 0, -1), f"{_PADE}: Lambert's 3x/(3 - x^2)"))
    mine.append(("lower", h, _P(0, 15, 0, -1), _P(15, 0, -6), f"{_PADE}: Lambert's x(15 - x^2)/(15 - 6x^2)"))
    mine.append(("lower", h, _P(0, 105, 0, -10), _P(105, 0, -45, 0, 1),
                 f"{_PADE}: Lambert's x(105 - 10x^2)/(105 - 45x^2 + x^4)"))
    # above tan on [0, a]: Lambert's continued fraction with its tail x^2/(7 - ...) replaced by
    # x^2/m, m < 7 - (the rest): x(15m - (m + 3)x^2)/(15m - (6m + 3)x^2 + x^4) -- its pole
    # lies just before pi/2 (so the range stops before it) -- and Taylor sums with a raised
    # last coefficient on [0, 1]
    for m, a in ((Q(6), Q(15694, 10000)), (Q(13, 2), Q(15704, 10000)), (Q(33, 5), Q(15706, 10000))):
        mine.append(("upper", a, _P(0, 15 * m, 0, -(m + 3)), _P(15 * m, 0, -(6 * m + 3), 0, 1),
                     f"Lambert's continued fraction of tan with the tail bounded by x^2/{m}, 0 <= x <= {a}"))
    for n, top in ((3, Q(1, 2)), (5, Q(1, 5)), (7, Q(1, 10))):
        t = list(_tan_taylor(n)) + [Q(0), top]
        mine.append(("upper", Q(1), tuple(t), ONE, f"Maclaurin sum of degree {n} + {top} x^{n + 2}, 0 <= x <= 1"))
    for side, a, num, den, src in mine:
        add("tan", side, 0, a, num, den, src)
        add("tan", "upper" if side == "lower" else "lower", -a, 0, num, den, src + "; mirrored by oddness to x <= 0")


def _entries_sqrt(E: list[FBound], add) -> None:
    """The entries of sqrt (``add`` appends one to ``E``)."""
    # ---- sqrt, x >= 0: AM-GM, Heron's iterates (above) and x / Heron (below)
    h1 = (_P(1, 1), _P(2))                          # (1 + x)/2
    h2 = (_P(1, 6, 1), _P(4, 4))                    # ((1 + x)^2 + 4x) / (4 (1 + x))
    # third Heron iterate (y + x/y)/2 with y = h2
    y_n, y_d = h2
    h3 = (_trim(tuple(a + b for a, b in _zip(_mul(y_n, y_n), _mul(_P(0, 1), _mul(y_d, y_d))))),
          _mul(_P(2), _mul(y_n, y_d)))
    for k, (p, q) in enumerate((h1, h2, h3), start=1):
        add("sqrt", "upper", 0, None, p, q, f"Heron's iterate {k} from 1 (above sqrt by AM-GM)")
        add("sqrt", "lower", 0, None, _mul(_P(0, 1), q), p, f"x / Heron's iterate {k} (below sqrt)")
    for a in (Q(1, 4), Q(4), Q(16)):                # tangent lines at x = a
        add("sqrt", "upper", 0, None, _P(a, 1), (2 * _sqrt_exact(a),),
            f"tangent of the concave sqrt at x = {a}")


def _pad(p: Poly, d: int) -> Poly:
    return tuple(p) + (Q(0),) * (d + 1 - len(p))


def _reverse(p: Poly) -> Poly:
    """x^d p(1/x) for d = len(p) - 1."""
    return _trim(tuple(reversed(p)))


def _add_poly(p: Poly, q: Poly) -> Poly:
    return _trim(tuple(a + b for a, b in _zip(p, q)))


#: anchors of the range-reduced log entries, with rational bounds of log a (checked in
#: ball arithmetic by the tests): log 2 = 0.693147180559945..., log 8 = 2.079441541679835...,
#: log 32 = 3.465735902799726...
LOG_ANCHORS = {Q(2): (Q(693147180, 10 ** 9), Q(693147181, 10 ** 9)),
               Q(8): (Q(2079441541, 10 ** 9), Q(2079441542, 10 ** 9)),
               Q(32): (Q(3465735902, 10 ** 9), Q(3465735903, 10 ** 9))}


def _zip(p: Poly, q: Poly):
    n = max(len(p), len(q))
    return zip(p + (Q(0),) * (n - len(p)), q + (Q(0),) * (n - len(q)))


def _sqrt_exact(a: Q) -> Q:
    from math import isqrt
    n, d = isqrt(a.numerator), isqrt(a.denominator)
    assert n * n == a.numerator and d * d == a.denominator
    return Q(n, d)


#: the table, in a fixed order (functions, then as listed above)
TABLE: tuple[FBound, ...] = tuple(_entries())


def bounds_for(func: str, side: str | None = None, max_degree: int | None = None) -> list[FBound]:
    """The entries for ``func`` (one side, up to a degree), lowest degree first."""
    out = [b for b in TABLE if b.func == func and (side is None or b.side == side)
           and (max_degree is None or b.degree <= max_degree)]
    return sorted(out, key=lambda b: b.degree)
