"""``order`` checks: a stated O / Omega / Theta against the exact expression's growth,
variable by variable, under each declared coupling of the variables (regime).

A regime says how the other variables move while one tends to its limit: held fixed
(the default), or coupled by ``together`` (symbol -> expression, e.g. the theorem's head
condition H = (d sqrt(T) R^5 ...)^2), with ``limit = "oo"`` (default) or ``"0"``.
Multiplicative constants (hidden or not) never change an order, so hidden constants are
existential here by construction: the question is whether the exponents agree.

Growth is computed structurally (:mod:`.growth`), falling back to the mechanism of
``asymptotic`` (:func:`boundcalc.services.asymptotic.leading_order`, SymPy limits) where the
rules cannot decide: orders c a^x x^b log(x)^c, exponential ones included, compared on
(a, b, c) lexicographically (:func:`~boundcalc.services.asymptotic.compare_orders`). A discrepancy in the power of a variable is an error; one in the
power of its logarithm only is a warning (imprecise by a polylog factor).
"""
from __future__ import annotations

from fractions import Fraction

from ...errors import BoundcalcError
from ...expr.domains import Domain
from ...expr.nodes import Num, Pow, Rel, Sym, substitute
from ...expr.parser import parse, parse_number
from ...registry.checks import Order
from ...verdicts import Grade
from .common import Finding, claim, expr, formula_id
from .growth import growth

_PRIMES = (13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73)


def run(reg, paper, t: Order, f: Finding):
    fid = formula_id(paper, t.formula)
    node = reg.resolved(fid)
    table = reg.symbol_table(fid)
    if isinstance(node, Rel):
        node = _isolate(reg, fid, node, t)
    node = claim("formula", node)
    stated = claim("order", expr(reg, paper, t.order))
    relation = t.relation
    regimes = [{"name": "other variables held fixed" if not t.together else "as declared",
                "together": t.together, "fixed": t.fixed,
                "limit": t.limit, "var": t.var}]
    for r in t.regimes:
        regimes.append({"name": f"regime {len(regimes) + 1}" if r.name is None else r.name,
                        "together": r.together or {}, "fixed": r.fixed or {}, "limit": r.limit,
                        "var": t.var if r.var is None else r.var, "order": r.order})
    rows = []
    for reg_ in regimes:
        st = expr(reg, paper, reg_["order"]) if reg_.get("order") else stated
        for v in (reg_["var"] if isinstance(reg_["var"], list) else [reg_["var"]]):
            if v not in node.symbols():
                raise BoundcalcError(f"{fid} does not depend on {v!r}")
            rows.append(_row(reg, paper, node, st, v, reg_, relation, table))
    f.evidence = {"per_variable": rows}
    bad = [r for r in rows if not r["holds"]]
    if not bad:
        f.message = f"stated {relation}({t.order}) agrees with the exact growth" + (
            f" in every regime ({'; '.join(r['name'] for r in regimes)})" if len(regimes) > 1 else "")
        return
    where = " | ".join(_summary(rows, name) for name in dict.fromkeys(r["regime"] for r in rows))
    if all(r["power_agrees"] for r in bad):
        f.grade(Grade.WARNING, "polylog factor",
                f"stated {relation}({t.order}) is off only by a polylog factor — {where}")
    else:
        f.grade(Grade.ERROR, "false as printed", f"stated {relation}({t.order}) disagrees with the exact growth "
                                             f"— {where}")


def _summary(rows, regime) -> str:
    rs = [r for r in rows if r["regime"] == regime]
    bad = [f"{r['var']} -> {r['limit']} (exact {r['exact']} vs {r['stated']})" for r in rs if not r["holds"]]
    good = [f"{r['var']} -> {r['limit']}" for r in rs if r["holds"]]
    out = f"{regime}: " + (f"fails as {', '.join(bad)}" if bad else "holds")
    if bad and good:
        out += f"; holds as {', '.join(good)}"
    return out


def _row(reg, paper, node, stated, v, regime, relation, table) -> dict:
    together = {k: expr(reg, paper, val) for k, val in regime["together"].items()}
    fixed = {k: Num(parse_number(str(val))) for k, val in regime["fixed"].items()}
    e = substitute(substitute(node, together), fixed)
    s = substitute(substitute(stated, together), fixed)
    limit = str(regime["limit"])
    if limit not in ("oo", "0"):
        raise BoundcalcError(f"order check: limit must be 'oo' or '0', not {limit!r}")
    if limit == "0":                      # x -> 0+: put x = 1/w, w -> oo
        inv = {v: Pow(Sym(v), Num(Fraction(-1)))}
        e, s = substitute(e, inv), substitute(s, inv)
    env = _generic_env((e.symbols() | s.symbols()) - {v}, table)
    from ..asymptotic import compare_orders
    ge, how = _growth(e, v, env, table)
    gs, _ = _growth(s, v, env, table) if v in s.symbols() else ((1, Fraction(0), Fraction(0)), "")
    cmp = compare_orders(ge, gs)
    ok = {"O": cmp <= 0, "Omega": cmp >= 0, "Theta": cmp == 0}[relation]
    core = (lambda ab: _core(ab, v, limit))
    return {"regime": regime["name"], "var": v, "limit": "0" if limit == "0" else "oo",
            "exact": f"Theta({core(ge)})", "stated": f"{relation}({core(gs)})", "holds": ok,
            "power_agrees": compare_orders(ge[:2], gs[:2]) == 0, "method": how,
            "coupling": {k: str(val) for k, val in regime["together"].items()} or "none"}


def _growth(e, v, env, table):
    g = growth(e, v, env)
    if g is not None:
        return (1, *g.ab), "structural (x-free factors signed at generic values)"
    return _sympy_exponents(e, v, env, table), "SymPy limits (other symbols at generic values)"


def _generic_env(names, table) -> dict:
    out = {}
    for i, n in enumerate(sorted(names)):
        d = table[n].domain if n in table else None
        out[n] = _generic(d, i)
    return out


def _generic(d: Domain | None, i: int) -> Fraction:
    """A fixed 'generic' value inside a domain (distinct per symbol)."""
    p = Fraction(_PRIMES[i % len(_PRIMES)], 7)
    if d is None:
        return p
    if d.lo is not None and d.hi is not None:
        return d.lo + (d.hi - d.lo) * Fraction(_PRIMES[i % 16], 101)
    if d.lo is not None:
        v = d.lo + p
        return Fraction(-(-v.numerator // v.denominator)) if d.integer else v
    if d.hi is not None:
        return d.hi - p
    return p


def _sympy_exponents(e, v, env, table):
    from ...backends.sympy_import import sympy as sp
    from ...prover.symbolic import to_sympy_with_domains
    se, syms = to_sympy_with_domains(e, table)
    x = syms[v]
    se = se.subs({syms[n]: sp.Rational(q.numerator, q.denominator) for n, q in env.items() if n in syms})
    from ...backends.sym import expand_special
    return _exponents(expand_special(se), x)


def _exponents(e, x) -> tuple:
    """(base, a, b) of ``|e| ~ c base^x x^a log(x)^b`` by :func:`.asymptotic.leading_order`,
    the mechanism of ``asymptotic`` (exponential orders included); rational parts as Fractions."""
    from ..asymptotic import leading_order
    try:
        o = leading_order(e, x, coefficient=False)
    except BoundcalcError:
        o = leading_order(-e, x, coefficient=False)
    if not (o.a.is_rational and o.b.is_rational):
        raise BoundcalcError(f"order not of the form c a^x x^b log(x)^c (got b = {o.a}, c = {o.b})")
    return tuple(Fraction(str(v)) if v.is_Rational else v for v in (o.base, o.a, o.b))


def _isolate(reg, fid, node, t):
    """A requirement 'lhs OP rhs' solved for its solve_for variable (SymPy), as a Node."""
    from ...backends.sympy_import import sympy as sp
    from ...prover.symbolic import to_sympy_with_domains
    spec = reg.spec(fid)
    if t.side in ("lhs", "rhs"):
        return node.lhs if t.side == "lhs" else node.rhs
    s = spec.solve_for
    table = reg.symbol_table(fid)
    e, syms = to_sympy_with_domains(node, table)
    sols = [r for r in sp.solve(sp.Eq(e.lhs, e.rhs), syms[s]) if r.is_positive is not False] if s else []
    if len(sols) != 1:
        raise BoundcalcError(f"{fid}: cannot isolate the solved variable for an order check")
    return _from_sympy(sols[0])


def _from_sympy(e):
    """A SymPy expression back into the expression language (through the parser)."""
    from ...backends.sympy_import import sympy as sp
    text = sp.sstr(e).replace("Max(", "max(").replace("Min(", "min(")
    return parse(text, allow_relation=False, where="solved requirement")


def _core(key, v, limit="oo") -> str:
    """base^x x^a log(x)^b as text (``key`` = (base, a, b), or (a, b) for base 1); for limit 0
    the growth is in 1/v: v^(-a) log(1/v)^b."""
    base, a, b = key if len(key) == 3 else (1, *key)
    if limit != "oo":
        a, lg = -a, f"log(1/{v})"
    else:
        lg = f"log({v})"
    parts = [] if base == 1 else [f"({base})**{v}" if limit == "oo" else f"({base})**(1/{v})"]
    if a:
        parts.append(_power(v, a))
    if b:
        parts.append(_power(lg, b))
    return "*".join(parts) or "1"


def _power(x: str, e) -> str:
    """``x**e`` as text that reads back as that power: a fraction or a negative exponent in
    parentheses (``d**(1/2)``, not ``d**1/2``, which is d/2)."""
    if e == 1:
        return x
    return f"{x}**{e}" if e == int(e) and e > 0 else f"{x}**({e})"
