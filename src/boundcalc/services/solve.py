"""Deciding and solving requirements numerically, with certificates (no SymPy).

``least value`` problems such as "the least number of heads H with sqrt(H) >= f(...)"
are solved by bracketing and bisection on point values, then certified: the relation
is decided exactly (rational arithmetic) or by interval arithmetic at the answer and
at the neighbouring value (answer - 1 for integers).
"""
from __future__ import annotations

import math
from .._record import Record, factory
from fractions import Fraction

import mpmath

from ..backends import mp as mpb
from ..errors import BoundcalcError, UnsatisfiableError
from ..expr.domains import Domain
from ..expr.nodes import Rel, sub

MAX_LOG2 = 400_000  # search up to 2^400000 (~10^120000)


def _sign_ok(op: str, s: int) -> bool:
    return {"<=": s <= 0, ">=": s >= 0, "<": s < 0, ">": s > 0, "==": s == 0}[op]


def relation_holds(rel: Rel, env: dict, *, what: str = "relation", diff=None, keep=None,
                   var: str | None = None) -> bool:
    """Certified decision of ``lhs OP rhs`` at ``env`` (``diff``/``keep``/``var``: reuse
    the enclosures of the parts that do not depend on ``var`` across calls)."""
    diff = sub(rel.lhs, rel.rhs) if diff is None else diff
    s = mpb.decide_sign(diff, env, keep=keep, var=var)
    if s is None:
        # equal to every precision tried: decide equality symbolically
        from .symbolic import is_zero_at
        if is_zero_at(diff, env):
            s = 0
        else:
            raise BoundcalcError(f"{what}: cannot decide the relation at these values")
    return _sign_ok(rel.op, s)


def _holds_point(rel: Rel, env: dict, prec: int) -> bool | None:
    d = mpb.evaluate_point(sub(rel.lhs, rel.rhs), env, prec=prec)
    if d is None:
        return None
    s = (d > 0) - (d < 0)
    return _sign_ok(rel.op, s)


class Solution(Record):
    var: str
    value: object                 # int for integer variables, mpmath.mpf otherwise
    direction: str                # "least" or "greatest"
    integer: bool
    certificate: dict = factory(dict)

    def __str__(self) -> str:
        return str(self.value) if self.integer else mpmath.nstr(self.value, 15)


def solve_relation(rel: Rel, var: str, env: dict, domain: Domain, *, what: str) -> Solution:
    """The least (or greatest) value of ``var`` in ``domain`` at which ``rel`` holds,
    assuming the set where it holds is an interval reaching the domain's end."""
    integer = domain.integer
    lo = domain.lo if domain.lo is not None else Fraction(-(2 ** 64))
    if integer:
        lo = Fraction(math.ceil(lo)) if domain.lo_closed or lo != int(lo) else Fraction(int(lo) + 1)
    elif not domain.lo_closed:
        lo = lo + Fraction(1, 2 ** 64) if lo == 0 else lo

    diff = sub(rel.lhs, rel.rhs)
    keep: dict = {}

    def holds(x) -> bool:
        e = dict(env)
        e[var] = x
        return relation_holds(rel, e, what=what, diff=diff, keep=keep, var=var)

    fns: dict[int, object] = {}

    def ok(x) -> bool:
        """Point decision (fast, uncertified) used while searching."""
        bits = abs(x.numerator).bit_length() if isinstance(x, Fraction) else 0
        prec = 128 * (1 + bits // 128)
        if prec not in fns:
            fns[prec] = mpb.compile_point(diff, env, var, prec=prec + 64)
        d = fns[prec](x)
        if d is None:
            return False
        return _sign_ok(rel.op, (d > 0) - (d < 0))

    at_lo = ok(lo)
    prev, k, found = lo, 0, None
    while k <= MAX_LOG2:
        x = lo + Fraction(2) ** k
        if ok(x) != at_lo:
            found = x
            break
        prev = x
        k = k + 1 if k < 16 else k * 2
    if found is None:
        if at_lo and holds(lo):
            return Solution(var, int(lo) if integer else mpb._mpf(lo), "least", integer,
                            {f"holds_at_{var}={lo}": True,
                             "note": f"holds at the smallest {var} of its domain and at every probed larger value"})
        raise UnsatisfiableError(
            f"no {var} in its domain satisfies {what} (checked {var} up to 2^{MAX_LOG2})")
    direction = "greatest" if at_lo else "least"
    # invariant: ok(a) == at_lo, ok(b) != at_lo
    if integer:
        a, b = int(prev), int(found)
        while b - a > 1:
            mid = (a + b) // 2
            if ok(Fraction(mid)) == at_lo:
                a = mid
            else:
                b = mid
        ans = b if direction == "least" else a
        step = -1 if direction == "least" else 1
        # certify, walking if the point decisions were off near the boundary
        for _ in range(64):
            if not holds(Fraction(ans)):
                ans -= step
                continue
            nb = ans + step
            if domain.contains(Fraction(nb)) and holds(Fraction(nb)):
                ans = nb
                continue
            break
        nb = ans + step
        cert = {f"holds_at_{var}={ans}": True,
                f"holds_at_{var}={nb}": holds(Fraction(nb)) if domain.contains(Fraction(nb)) else "outside domain"}
        return Solution(var, ans, direction, True, cert)
    a_m, b_m = mpb._mpf(prev), mpb._mpf(found)
    with mpmath.workprec(256):
        for _ in range(4000):
            geometric = a_m > 0 and b_m / a_m > 4
            mid = mpmath.sqrt(a_m * b_m) if geometric else (a_m + b_m) / 2
            if abs(b_m - a_m) <= abs(mid) * mpmath.mpf(2) ** -200:
                break
            if ok(mid) == at_lo:
                a_m = mid
            else:
                b_m = mid
        ans = b_m if direction == "least" else a_m
    return Solution(var, ans, direction, False,
                    {"bracket": [mpmath.nstr(a_m, 25), mpmath.nstr(b_m, 25)],
                     "note": "boundary found by bisection to ~60 digits (point evaluations)"})


def solve_requirement(formula, var: str, values: dict) -> Solution:
    if not formula.is_relation:
        raise BoundcalcError(f"{formula.id} is a {formula.kind}, not a requirement")
    if var not in formula.symbol_table:
        raise BoundcalcError(f"{var!r} is not a symbol of {formula.id}; its symbols are "
                             f"{', '.join(formula.symbols)}")
    table = {k: v for k, v in formula.symbol_table.items() if k != var}
    from ..values import bind
    b = bind(table, {k: v for k, v in values.items() if k != var}, what=formula.id)
    return solve_relation(formula.expr, var, b.env, formula.symbol_table[var].domain, what=formula.id)
