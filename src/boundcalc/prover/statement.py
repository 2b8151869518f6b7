"""The statement as the decision procedure reads it, before any layer runs: bounds
``x OP number`` moved from the assumptions into the domains (:func:`absorb_bounds`), and
the definedness of the sides (:func:`check_defined_somewhere`, :func:`check_defined`,
:func:`undefined_where`): a side undefined everywhere is a user error
(:class:`UndefinedError`), one undefined at some points gets a note (the relation is decided
where both sides are defined).

Soundness contract: none to give; nothing here decides the relation. A domain narrowed by
an absorbed bound is the same set of points as the assumption; a point called undefined is
certified undefined in ball arithmetic.
"""
from __future__ import annotations

from fractions import Fraction

from ..errors import BoundcalcError
from ..expr.domains import Domain
from ..expr.nodes import Node
from .fold import fold_constants


class UndefinedError(BoundcalcError):
    """A side of the relation is undefined (1/0, log(-1), ...)."""



def narrow(d: Domain, op: str, c: Fraction) -> Domain:
    if op in (">=", ">"):
        if d.lo is None or c > d.lo or (c == d.lo and op == ">"):
            return Domain(d.integer, c, op == ">=", d.hi, d.hi_closed)
        return d
    if op in ("<=", "<"):
        if d.hi is None or c < d.hi or (c == d.hi and op == "<"):
            lo, lc = d.lo, d.lo_closed
            if lo is None and c > 0 and d == Domain(lo=Fraction(0)):
                lo = Fraction(0)
            return Domain(d.integer, lo, lc, c, op == "<=")
        return d
    if not d.contains(c):            # x == c outside x's domain: the empty domain (vacuous)
        return Domain(d.integer, c, False, c, False)
    return Domain(d.integer, c, True, c, True)


def absorb_bounds(domains, extra):
    """Assumptions 'x OP number' narrow x's domain instead of staying hypotheses."""
    from ..expr.nodes import Num as _Num
    from ..expr.nodes import Sym as _Sym
    rest = []
    for r in extra:
        if isinstance(r.lhs, _Sym) and isinstance(r.rhs, _Num) and r.op != "==":
            domains[r.lhs.name] = narrow(domains[r.lhs.name], r.op, r.rhs.value)
        elif isinstance(r.rhs, _Sym) and isinstance(r.lhs, _Num) and r.op != "==":
            flip = {">=": "<=", "<=": ">=", ">": "<", "<": ">"}[r.op]
            domains[r.rhs.name] = narrow(domains[r.rhs.name], flip, r.lhs.value)
        else:
            rest.append(r)
    return rest


def _sign(node: Node, env) -> int | None:
    from ..backends import mp as mpb
    return mpb.decide_sign(node, env)


def undefined_where(a: Node, b: Node, domains, what, fatal: bool = True) -> str:
    """Where a side with symbols is undefined on the domain: an error if it is undefined at
    every sampled point (``fatal``: only without assumptions, which may exclude those
    points), otherwise a note naming one point (the relation is decided where both sides
    are defined). Points are certified undefined in ball arithmetic."""
    import numpy as np

    from ..backends import arb as A
    from ..expr.printing import to_text as show
    from . import sampling
    names = sorted(domains)
    if not names:
        return ""
    pts = sampling.sample({n: domains[n] for n in names}, 200, 3)
    notes = []
    for side, where in ((a, what[0]), (b, what[1])):
        if not side.symbols():
            continue
        with np.errstate(all="ignore"):
            try:
                v = np.asarray(sampling.values(side, pts), dtype=float)
            except (OverflowError, ZeroDivisionError, ValueError, TypeError):
                continue
        bad = np.flatnonzero(np.isnan(v))
        for i in bad[:5]:
            env = sampling.point(pts, int(i))
            try:
                A.enclose(side, env, prec=64)
            except A.Undefined as e:
                at = ", ".join(f"{k} = {sampling_str(env[k])}" for k in names if k in side.symbols())
                if fatal and len(bad) == len(v):
                    raise UndefinedError(f"{where} {show(side)} is undefined on the whole domain, "
                                         f"e.g. at {at}: {e}") from None
                notes.append(f"{where} is undefined at some points of the domain (e.g. {at}: {e}); "
                             "the relation is decided where both sides are defined")
                break
            except (A.Unresolved, A.TooLarge):
                continue
    return "; ".join(notes)


def check_defined(side: Node, where: str, domains: dict[str, Domain] | None = None) -> None:
    """A side must have a value somewhere: a side without symbols that is undefined (1/0,
    log(-1)) and a side with a definedness condition that fails as a constant (log(x, 1),
    0**0, see :mod:`boundcalc.expr.singularities`, the one rule) are user errors."""
    check_defined_somewhere(side, where, integer_symbols(domains or {}))
    if side.symbols():
        return
    from ..backends import arb as A
    from ..expr.printing import to_text as show
    try:
        A.enclose(side, {}, prec=64)
    except A.Undefined as e:
        raise UndefinedError(f"{where} {show(side)} is undefined: {e}") from None
    except (A.Unresolved, A.TooLarge):
        pass


def integer_symbols(domains: dict[str, Domain]) -> frozenset[str]:
    """The symbols whose domain is integer (what the definedness rule needs to know of them)."""
    return frozenset(n for n, d in domains.items() if d.integer)


def check_defined_somewhere(node: Node, where: str, integers=frozenset()) -> None:
    """Raise :class:`UndefinedError` if a definedness condition of ``node`` (the rule of
    :mod:`boundcalc.expr.singularities`) is certainly false as a constant: then ``node`` is
    undefined at every point (``log(x, 1)``, ``sqrt(-1) * x``). ``integers``: the integer
    symbols (``(-1)**n`` is defined for an integer n)."""
    from ..expr.printing import to_text as show
    from ..expr.singularities import first_undefined_constant
    c = first_undefined_constant(node, lambda e: _sign(fold_constants(e), {}), integers)
    if c is not None:
        raise UndefinedError(f"{where} {_clip(show(node))} is undefined"
                             f"{' everywhere' if node.symbols() else ''}: {c.reason} in {_clip(show(c.where))}")

def sampling_str(x: Fraction) -> str:
    """A sampled coordinate as written in messages: ``3`` or ``7/2``."""
    return str(x.numerator) if x.denominator == 1 else str(x)


def _clip(s: str, n: int = 120) -> str:
    return s if len(s) <= n else s[:n - 3] + "..."
