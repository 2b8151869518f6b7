"""The one table of facts about the functions of the formula language that the SMT layer
(:mod:`.smt`) may use when it names a non-polynomial term ``F = f(u)`` by a fresh variable.

Each fact is a function ``fact(u, F, K) -> condition`` written once and evaluated by two
kits: :class:`.smt` passes z3 terms and a z3 kit (the fact becomes a constraint), and the
tests pass mpmath numbers and :data:`MP_KIT` (the fact becomes a bool, checked at many
points at high precision — tests/services/test_facts.py). A fact must hold for EVERY real
``u`` in the function's domain: a wrong fact would make the SMT layer prove false things.

Kits provide ``K.q(p, q)`` (the rational p/q), ``K.imp(a, b)`` (a implies b) and
``K.all(*cs)`` (conjunction) and ``K.pi`` (the SMT layer's pi lies between rational
bounds). Other constants such as 2/sqrt(pi) enter through rational bounds.

Soundness contract: every fact holds for every real argument in the function's domain
(checked at 150 digits in tests/prover/test_facts.py); the SMT layer's proofs rest on
them. A fact that is only "usually" true must not be added.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any


class _MpKit:
    """Evaluates facts on mpmath numbers (for the tests)."""

    @staticmethod
    def q(p, q=1):
        from ..mpmath_import import mpmath
        return mpmath.mpf(p) / q

    @property
    def pi(self):
        from ..mpmath_import import mpmath
        return +mpmath.pi

    @staticmethod
    def imp(a, b):
        return (not a) or b

    @staticmethod
    def all(*cs):
        return all(cs)


MP_KIT = _MpKit()

def _sin_t(t, n: int):
    """sin's Maclaurin sum of degree n (odd) at t: t - t^3/3! + ... (integer divisors only)."""
    out, term, k = t, t, 1
    while k + 2 <= n:
        term = -term * t * t / ((k + 1) * (k + 2))
        out, k = out + term, k + 2
    return out


def _cos_t(t, n: int):
    """cos's Maclaurin sum of degree n (even) at t."""
    out, term, k = 1 + 0 * t, 1 + 0 * t, 0
    while k + 2 <= n:
        term = -term * t * t / ((k + 1) * (k + 2))
        out, k = out + term, k + 2
    return out


def _sin_cos_facts() -> tuple[list, list]:
    """issue 36: sin and cos by Maclaurin sums (the remainders alternate for t >= 0: T_(4k+3) < sin t
    < T_(4k+1) for t > 0; T_(4k+2) <= cos t <= T_(4k) for every t) and range reduction through the
    SMT layer's pi (sin u = sin(pi - u), cos u = sin(pi/2 - u) = sin(pi/2 + u)). The sums of degree
    >= 6 hold on the whole line (by the same repeated integration of 1 - cos t >= 0), non-strictly
    (equality at 0): stated for |u| >= 1/10 only, cos(x) >= T6(x) near 0 could not be proved (issue 36);
    their margin near 0 (u^8/8! at u = 1e-20) needs the facts' test at 300 digits."""
    S = [
        ("sin(u) < u and sin(u) > u - u^3/6 for u > 0 (mirrored for u < 0)", lambda u, F, K: K.all(
            K.imp(u > 0, K.all(F < u, F > _sin_t(u, 3))), K.imp(u < 0, K.all(F > u, F < _sin_t(u, 3))))),
        ("sin(u) < u - u^3/6 + u^5/120 for u > 0 (mirrored)", lambda u, F, K: K.all(
            K.imp(u > 0, F < _sin_t(u, 5)), K.imp(u < 0, F > _sin_t(u, 5)))),
        ("T7(u) <= sin(u) <= T9(u) for u >= 0 (mirrored)", lambda u, F, K: K.all(
            K.imp(u >= 0, K.all(F >= _sin_t(u, 7), F <= _sin_t(u, 9))),
            K.imp(u <= 0, K.all(F <= _sin_t(u, 7), F >= _sin_t(u, 9))))),
        ("sin(u) = sin(pi - u): t - t^3/6 <= sin(u) <= t - t^3/6 + t^5/120 for t = pi - u >= 0", lambda u, F, K: K.imp(
            u <= K.pi, K.all(F >= _sin_t(K.pi - u, 3), F <= _sin_t(K.pi - u, 5)))),
        ("sin(u) = -sin(u + pi): mirrored bounds for t = u + pi >= 0", lambda u, F, K: K.imp(
            u >= -K.pi, K.all(-F >= _sin_t(K.pi + u, 3), -F <= _sin_t(K.pi + u, 5)))),
        ("sin(u) >= 0 for 0 <= u <= pi, <= 0 for -pi <= u <= 0", lambda u, F, K: K.all(
            K.imp(K.all(u >= 0, u <= K.pi), F >= 0), K.imp(K.all(u <= 0, u >= -K.pi), F <= 0))),
    ]
    C = [
        ("cos(u) > 1 - u^2/2 and cos(u) < 1 - u^2/2 + u^4/24 for u != 0", lambda u, F, K: K.all(
            K.imp(u > 0, K.all(F > _cos_t(u, 2), F < _cos_t(u, 4))),
            K.imp(u < 0, K.all(F > _cos_t(u, 2), F < _cos_t(u, 4))))),
        ("T6(u) <= cos(u) <= T8(u) for every u", lambda u, F, K: K.all(F >= _cos_t(u, 6), F <= _cos_t(u, 8))),
        ("cos(u) = sin(pi/2 - u): t - t^3/6 <= cos(u) <= t - t^3/6 + t^5/120, t = pi/2 - u >= 0",
         lambda u, F, K: K.imp(2 * u <= K.pi, K.all(F >= _sin_t(K.pi / 2 - u, 3), F <= _sin_t(K.pi / 2 - u, 5)))),
        ("cos(u) = sin(pi/2 + u): the same bounds for t = pi/2 + u >= 0",
         lambda u, F, K: K.imp(2 * u >= -K.pi, K.all(F >= _sin_t(K.pi / 2 + u, 3), F <= _sin_t(K.pi / 2 + u, 5)))),
        ("cos(u) >= 0 for |u| <= pi/2", lambda u, F, K: K.imp(K.all(2 * u <= K.pi, 2 * u >= -K.pi), F >= 0)),
    ]
    return S, C


_SIN_MORE, _COS_MORE = _sin_cos_facts()

# Each entry: function name -> list of (label, fact). ``domain`` lists where the function
# is defined (the SMT layer asserts it as a definedness condition of the relation).
FACTS: dict[str, list[tuple[str, Callable[..., Any]]]] = {
    "exp": [
        ("exp(u) > 0", lambda u, F, K: F > 0),
        ("exp(u) >= 1 + u (tangent at 0)", lambda u, F, K: F >= 1 + u),
        ("exp(u) >= 1 + u + u^2/2 + u^3/6 (Taylor, remainder exp(xi) u^4/24 >= 0)", lambda u, F, K: F >= 1 + u + u * u / 2 + u * u * u / 6),
        ("exp(u) >= 1 + u + u^2/2 for u >= 0", lambda u, F, K: K.imp(u >= 0, F >= 1 + u + u * u / 2)),
        ("exp(u) (1 - u) <= 1 for u < 1 (secant)", lambda u, F, K: K.imp(u < 1, F * (1 - u) <= 1)),
        ("exp(u) <= 1 for u <= 0", lambda u, F, K: K.imp(u <= 0, F <= 1)),
        ("exp(u) >= 1 for u >= 0", lambda u, F, K: K.imp(u >= 0, F >= 1)),
        ("exp(u) (1 - u + u^2/2) <= 1 for u <= 0", lambda u, F, K: K.imp(u <= 0, F * (1 - u + u * u / 2) <= 1)),
    ],
    "log": [
        ("log(u) <= u - 1 (tangent at 1)", lambda u, F, K: F <= u - 1),
        ("u log(u) >= u - 1", lambda u, F, K: u * F >= u - 1),
        ("u log(u) >= -0.36788 (> -1/e, the minimum)", lambda u, F, K: u * F >= -K.q(36788, 100000)),
        ("log(u) <= u/4 + 0.3863 (tangent at 4, log 4 < 1.3863)", lambda u, F, K: F <= u / 4 + K.q(3863, 10000)),
        ("log(u) > 0 iff u > 1", lambda u, F, K: K.all(K.imp(u > 1, F > 0), K.imp(u < 1, F < 0), K.imp(u == 1, F == 0))),
        ("2 log(u) <= u - 1/u for u >= 1", lambda u, F, K: K.imp(u >= 1, 2 * u * F <= u * u - 1)),
        ("(u + 1) log(u) >= 2 (u - 1) for u >= 1", lambda u, F, K: K.imp(u >= 1, (u + 1) * F >= 2 * (u - 1))),
        ("(u + 1) log(u) <= 2 (u - 1) for u <= 1", lambda u, F, K: K.imp(u <= 1, (u + 1) * F <= 2 * (u - 1))),
    ],
    "tanh": [
        ("-1 < tanh(u) < 1", lambda u, F, K: K.all(F > -1, F < 1)),
        ("tanh(u) has the sign of u", lambda u, F, K: K.all(K.imp(u > 0, F > 0), K.imp(u < 0, F < 0), K.imp(u == 0, F == 0))),
        ("|tanh(u)| <= |u|", lambda u, F, K: K.all(K.imp(u >= 0, F <= u), K.imp(u <= 0, F >= u))),
        ("tanh(u) >= u/(1 + u) for u >= 0", lambda u, F, K: K.imp(u >= 0, F * (1 + u) >= u)),
        ("tanh(u) <= u/(1 - u) for u <= 0", lambda u, F, K: K.imp(u <= 0, F * (1 - u) <= u)),
        ("tanh(u) >= u - u^3/3 for u >= 0", lambda u, F, K: K.imp(u >= 0, F >= u - u * u * u / 3)),
        ("tanh(u) <= u - u^3/3 for u <= 0", lambda u, F, K: K.imp(u <= 0, F <= u - u * u * u / 3)),
    ],
    "atan": [
        ("|atan(u)| < pi/2", lambda u, F, K: K.all(2 * F > -K.pi, 2 * F < K.pi)),
        ("atan(u) has the sign of u", lambda u, F, K: K.all(K.imp(u > 0, F > 0), K.imp(u < 0, F < 0), K.imp(u == 0, F == 0))),
        ("|atan(u)| <= |u|", lambda u, F, K: K.all(K.imp(u >= 0, F <= u), K.imp(u <= 0, F >= u))),
        ("atan(u) >= u/(1 + u^2) for u >= 0", lambda u, F, K: K.imp(u >= 0, F * (1 + u * u) >= u)),
        ("atan(u) <= u/(1 + u^2) for u <= 0", lambda u, F, K: K.imp(u <= 0, F * (1 + u * u) <= u)),
        ("atan(u) >= u - u^3/3 for u >= 0", lambda u, F, K: K.imp(u >= 0, F >= u - u * u * u / 3)),
        ("atan(u) <= u - u^3/3 for u <= 0", lambda u, F, K: K.imp(u <= 0, F <= u - u * u * u / 3)),
    ],
    "erf": [
        ("-1 < erf(u) < 1", lambda u, F, K: K.all(F > -1, F < 1)),
        ("erf(u) has the sign of u", lambda u, F, K: K.all(K.imp(u > 0, F > 0), K.imp(u < 0, F < 0), K.imp(u == 0, F == 0))),
        ("|erf(u)| <= (2/sqrt(pi)) |u|, 2/sqrt(pi) < 1.12838", lambda u, F, K: K.all(
            K.imp(u >= 0, F <= K.q(112838, 100000) * u), K.imp(u <= 0, F >= K.q(112838, 100000) * u))),
        ("pi erf(u)^2 <= 4 u^2 (|erf(u)| <= 2|u|/sqrt(pi))", lambda u, F, K: K.pi * F * F <= 4 * u * u),
        ("erf(u) >= (2/sqrt(pi)) (u - u^3/3) for u >= 0, 2/sqrt(pi) > 1.12837", lambda u, F, K: K.imp(
            u >= 0, F >= K.q(112837, 100000) * (u - u * u * u / 3))),
        ("erf(u) <= (2/sqrt(pi)) (u - u^3/3) for u <= 0", lambda u, F, K: K.imp(
            u <= 0, F <= K.q(112837, 100000) * (u - u * u * u / 3))),
    ],
    "sin": [
        ("-1 <= sin(u) <= 1", lambda u, F, K: K.all(F >= -1, F <= 1)),
        ("|sin(u)| <= |u|", lambda u, F, K: K.all(K.imp(u >= 0, F <= u), K.imp(u <= 0, F >= u))),
        ("sin(u) >= u - u^3/6 for u >= 0", lambda u, F, K: K.imp(u >= 0, F >= u - u * u * u / 6)),
        ("sin(u) <= u - u^3/6 for u <= 0", lambda u, F, K: K.imp(u <= 0, F <= u - u * u * u / 6)),
        ("sin(u) > 0 for 0 < u < 3.14159", lambda u, F, K: K.imp(K.all(u > 0, u < K.q(314159, 100000)), F > 0)),
        *_SIN_MORE,
    ],
    "cos": [
        ("-1 <= cos(u) <= 1", lambda u, F, K: K.all(F >= -1, F <= 1)),
        ("cos(u) >= 1 - u^2/2", lambda u, F, K: F >= 1 - u * u / 2),
        ("cos(u) <= 1 - u^2/2 + u^4/24", lambda u, F, K: F <= 1 - u * u / 2 + u * u * u * u / 24),
        ("cos(u) > 0 for |u| < 1.5707", lambda u, F, K: K.imp(K.all(u > -K.q(15707, 10000), u < K.q(15707, 10000)), F > 0)),
        *_COS_MORE,
    ],
    "tan": [
        ("tan(u) has the sign of u for |u| < 1.5707", lambda u, F, K: K.all(
            K.imp(K.all(u > 0, u < K.q(15707, 10000)), F > 0), K.imp(K.all(u < 0, u > -K.q(15707, 10000)), F < 0))),
        ("tan(u) >= u for 0 <= u < 1.5707", lambda u, F, K: K.imp(K.all(u >= 0, u < K.q(15707, 10000)), F >= u)),
        # issue 36: up to the pole, through the SMT layer's pi (tan's Maclaurin terms are positive;
        # cot t = 1/t - S(t), S(t) = sum c_k t^(2k-1) with c_k > 0, c_1 = 1/3, and S(t)/t increasing,
        # so t/3 <= S(t) <= t S(pi/2)/(pi/2) = 4t/pi^2 for 0 < t <= pi/2; tan u = cot(pi/2 - u))
        ("tan(u) >= u + u^3/3 + 2u^5/15 for 0 <= u < pi/2 (mirrored for u <= 0)", lambda u, F, K: K.all(
            K.imp(K.all(u >= 0, 2 * u < K.pi), F >= u + u * u * u / 3 + 2 * u * u * u * u * u / 15),
            K.imp(K.all(u <= 0, 2 * u > -K.pi), F <= u + u * u * u / 3 + 2 * u * u * u * u * u / 15))),
        ("tan(u) >= 1/t - 4t/pi^2 for 0 < u < pi/2, t = pi/2 - u (mirrored for u < 0)", lambda u, F, K: K.all(
            K.imp(K.all(u > 0, 2 * u < K.pi), F * (K.pi / 2 - u) * K.pi * K.pi >= K.pi * K.pi - 4 * (K.pi / 2 - u) ** 2),
            K.imp(K.all(u < 0, 2 * u > -K.pi),
                  F * (K.pi / 2 + u) * K.pi * K.pi <= 4 * (K.pi / 2 + u) ** 2 - K.pi * K.pi))),
        ("tan(u) <= 1/t - t/3 for 0 < u < pi/2, t = pi/2 - u (mirrored for u < 0)", lambda u, F, K: K.all(
            K.imp(K.all(u > 0, 2 * u < K.pi), F * (K.pi / 2 - u) <= 1 - (K.pi / 2 - u) ** 2 / 3),
            K.imp(K.all(u < 0, 2 * u > -K.pi), F * (K.pi / 2 + u) >= (K.pi / 2 + u) ** 2 / 3 - 1))),
    ],
}

#: functions that are increasing on their whole domain (pairwise monotonicity facts:
#: u1 <= u2 implies f(u1) <= f(u2), u1 < u2 implies f(u1) < f(u2))
INCREASING = ("exp", "log", "tanh", "atan", "erf", "root")

#: facts about two named terms of the same function (u1, F1, u2, F2)
PAIR_FACTS: dict[str, list[tuple[str, Callable[..., Any]]]] = {
    "exp": [
        ("exp(u1) exp(u2) relation: u1 - u2 >= 0 gives exp(u1) >= exp(u2) (1 + u1 - u2)",
         lambda u1, F1, u2, F2, K: F1 >= F2 * (1 + u1 - u2)),
    ],
    "log": [
        ("log(u1) - log(u2) <= u1/u2 - 1", lambda u1, F1, u2, F2, K: u2 * (F1 - F2) <= u1 - u2),
    ],
}


def monotone_pair(u1, F1, u2, F2, K):
    """Facts for two terms of the same increasing function."""
    return K.all(K.imp(u1 <= u2, F1 <= F2), K.imp(u1 < u2, F1 < F2), K.imp(u1 == u2, F1 == F2))
