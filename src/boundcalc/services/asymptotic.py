"""Leading asymptotic order of a formula as one variable tends to infinity.

The expression is matched to ``c * x**a * log(x)**b`` by three SymPy limits
(a = lim log f / log x, b = lim log(f x^-a) / log log x, c = lim f x^-a log(x)^-b),
with the other symbols kept symbolic (positive, in their domains) or fixed, or tending
together with ``x`` (``together={"K": "n"}``). For a requirement with ``solve_for``
(e.g. sqrt(H) >= f), the threshold on that variable is solved for first, so that
``asymptotic heads_cor2 --var K`` reports the order of the least H.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from ..errors import BoundcalcError
from ..expr.parser import parse, parse_number
from ..backends.sym import to_sympy
from ..prover.symbolic import to_sympy_with_domains


@dataclass(frozen=True)
class AsymptoticResult:
    """The growth of a formula as ``var`` tends to infinity: ``order`` (e.g.
    ``Theta(sqrt(T))``), its ``exponent``, ``log_power`` and ``coefficient``, the ``leading`` term (also
    in ``latex``), the ``method`` used, and the symbols that grow ``together`` with ``var``."""
    id: str
    var: str
    quantity: str
    exponent: str
    log_power: str
    coefficient: str
    order: str
    leading: str
    latex: str
    method: str
    together: dict

    def to_json(self) -> dict:
        from ..reports.printers.json import to_json
        return to_json(self)

    def describe(self) -> str:
        """The order as ``asymptotic`` prints it (:mod:`boundcalc.reports.printers.text`)."""
        from ..reports.printers.text import to_text
        return to_text(self)


def asymptotic(formula, var: str, *, fixed: dict | None = None, together: dict | None = None) -> AsymptoticResult:
    """The leading behaviour of ``formula`` as ``var`` tends to infinity (SymPy), with the
    symbols of ``fixed`` set to numbers and those of ``together`` (symbol -> expression in
    ``var``) substituted. Bad input raises :class:`~boundcalc.errors.BoundcalcError`."""
    table = formula.symbol_table
    if (var not in table and var not in (together or {}).values()
            and not any(var in str(v) for v in (together or {}).values())):
        raise BoundcalcError(f"{var!r} is not a symbol of {formula.id}; its symbols are {', '.join(table)}")
    if var in table and table[var].domain.hi is not None:
        dom = table[var].domain
        raise BoundcalcError(f"{var} {dom.describe()}: its domain is bounded above, so {var} cannot tend "
                             f"to infinity; asymptotic gives the order as {var} -> oo")
    expr, syms = to_sympy_with_domains(formula.expr, table)
    quantity = formula.id
    if isinstance(expr, sp.core.relational.Relational):
        s = formula.spec.solve_for
        if not s:
            raise BoundcalcError(f"{formula.id} is a {formula.kind} without solve_for; nothing to take the order of")
        sols = [r for r in sp.solve(sp.Eq(expr.lhs, expr.rhs), syms[s]) if r.is_positive is not False]
        if len(sols) != 1:
            raise BoundcalcError(f"cannot isolate {s} in {formula.id}")
        expr = sols[0]
        quantity = f"threshold on {s} in {formula.id}"
    x = syms.get(var) or sp.Symbol(var, positive=True)
    for k, v in (fixed or {}).items():
        if k not in syms:
            raise BoundcalcError(f"unknown symbol {k!r} for {formula.id}")
        q = parse_number(v, where=f"--set {k}")
        table[k].domain.check(k, q)
        expr = expr.subs(syms[k], sp.Rational(q.numerator, q.denominator))
    for k, v in (together or {}).items():
        if k == var:
            raise BoundcalcError(f"--with {k}={v}: {k} is the variable that tends to infinity; "
                                 "it cannot also be tied to an expression (self-referential)")
        if k not in syms:
            raise BoundcalcError(f"unknown symbol {k!r} for {formula.id} in --with")
        node = parse(v, allow_relation=False, where=f"--with {k}")
        if k in node.symbols():
            raise BoundcalcError(f"--with {k}={v}: self-referential ({k} appears on both sides)")
        if fixed and set(fixed) & {k}:
            raise BoundcalcError(f"--with {k}: {k} is also fixed by --set")
        e = to_sympy(node, {n: (x if n == var else syms.get(n, sp.Symbol(n, positive=True)))
                            for n in node.symbols()})
        _check_tends(k, v, e, table[k].domain, x, var)
        expr = expr.subs(syms[k], e)
    if x not in expr.free_symbols:
        raise BoundcalcError(f"{quantity} does not depend on {var}")
    try:
        a = sp.limit(sp.log(expr) / sp.log(x), x, sp.oo)
        if a in (sp.oo, -sp.oo) or a.has(sp.nan, sp.zoo) or not a.is_real:
            raise ValueError
        g = sp.simplify(expr / x ** a)
        b = sp.limit(sp.log(g) / sp.log(sp.log(x)), x, sp.oo)
        if b in (sp.oo, -sp.oo) or b.has(sp.nan, sp.zoo) or not b.is_real:
            raise ValueError
        c = sp.simplify(sp.limit(g / sp.log(x) ** b, x, sp.oo))
        if c in (0, sp.oo, -sp.oo) or c.has(sp.nan, sp.zoo):
            raise ValueError
        method = "exact: SymPy limits"
    except (ValueError, NotImplementedError, TypeError):   # SymPy cannot take these limits
        raise BoundcalcError(f"could not determine the order of {quantity} in {var} "
                             "(not of the form c x^a log(x)^b)") from None
    core = sp.Integer(1)
    if a != 0:
        core *= x ** a
    if b != 0:
        core *= sp.log(x) ** b
    order = f"Theta({core})"
    leading = c * core
    return AsymptoticResult(formula.id, var, quantity, str(a), str(b), str(c), order, str(leading),
                            sp.latex(leading), method, dict(together or {}))


def _check_tends(k: str, text: str, e, dom, x, var: str) -> None:
    """Refuse ``--with K=e`` unless ``e`` lies in K's domain as ``var`` -> oo: its limit is
    inside the domain (or on a bound that ``e`` provably stays on the right side of), or,
    where SymPy finds no limit, ``e`` provably lies on the right side of each bound. A
    number is checked exactly; a value provably non-integer for an integer K is refused."""
    where = f"--with {k}={text}"
    if not e.free_symbols and e.is_Rational:
        from fractions import Fraction
        try:
            dom.check(k, Fraction(int(e.p), int(e.q)))
        except BoundcalcError as err:
            raise BoundcalcError(f"{where}: {err}") from None
        return
    if dom.integer and e.is_integer is False:
        raise BoundcalcError(f"{where}: {k} {dom.describe()}, and {text} is not an integer")
    try:
        lim = sp.limit(e, x, sp.oo)
    except (ValueError, NotImplementedError, TypeError):
        lim = None
    for bound, closed, above in ((dom.lo, dom.lo_closed, True), (dom.hi, dom.hi_closed, False)):
        if bound is None:
            continue
        b = sp.Rational(bound.numerator, bound.denominator)
        gap = sp.simplify(e - b if above else b - e)            # must be > 0 (>= 0 if closed)
        wrong = f"{'<' if closed else '<='} {b}" if above else f"{'>' if closed else '>='} {b}"
        if (gap.is_negative or (gap.is_zero and not closed)) is True:
            names = ", ".join(sorted(str(s) for s in e.free_symbols))
            raise BoundcalcError(f"{where}: {k} {dom.describe()}, but {text} {wrong} for every value of "
                                 f"{names} in its domain")
        ok = gap.is_positive or (closed and gap.is_nonnegative)
        if lim is not None and lim.is_extended_real and not lim.has(sp.nan):
            lgap = (lim - b) if above else (b - lim)
            if lgap.is_extended_negative:
                raise BoundcalcError(f"{where}: {k} {dom.describe()}, but {text} tends to {lim} as "
                                     f"{var} -> oo")
            if lgap.is_extended_positive:
                ok = True
        if not ok:
            raise BoundcalcError(f"{where}: cannot confirm that {text} stays in {k}'s domain as {var} -> oo "
                                 f"({k} {dom.describe()})")


# ----------------------------------------------------------------------------- severity
def order_gap(exact: tuple, stated: tuple, relation: str = "Theta") -> dict:
    """How a stated order ``x^a log(x)^b`` (``stated = (a, b)``) differs from the exact
    one (``exact = (a, b)``) under ``relation`` (O, Omega, Theta), for severities:

    * ``kind = "none"``    — the stated relation holds;
    * ``kind = "polylog"`` — same power of x, only the power of log x is off (e.g. the
      exact log(m)/sqrt(m) against a stated m^(-1/2)): an imprecision, ``severity
      "warning"``;
    * ``kind = "power"``   — the powers of x disagree in the direction that matters: a
      wrong order, ``severity "error"``.

    ``factor`` is the log power by which they differ (exact minus stated)."""
    from fractions import Fraction as F
    (ea, eb), (sa, sb) = (tuple(F(str(v)) for v in exact), tuple(F(str(v)) for v in stated))
    key_e, key_s = (ea, eb), (sa, sb)
    holds = {"O": key_e <= key_s, "Omega": key_e >= key_s, "Theta": key_e == key_s}[relation]
    if holds:
        return {"kind": "none", "severity": "ok", "factor": str(eb - sb),
                "detail": f"the stated {relation} holds"}
    if ea == sa:
        return {"kind": "polylog", "severity": "warning", "factor": str(eb - sb),
                "detail": f"same power of the variable; differs by a factor log^{eb - sb} (an imprecision)"}
    return {"kind": "power", "severity": "error", "factor": str(eb - sb),
            "detail": f"the power of the variable is {ea}, the statement says {sa} (a wrong order)"}
