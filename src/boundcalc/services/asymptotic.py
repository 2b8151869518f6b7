"""Leading asymptotic order of a formula as one variable tends to infinity.

The expression is matched to ``c * r**x * x**a * log(x)**b`` by SymPy limits (the base of
an exponential order r = exp(lim log f / x), 1 for orders without one; then for
f = f / r^x: a = lim log f / log x, b = lim log(f x^-a) / log log x,
c = lim f x^-a log(x)^-b),
with the other symbols kept symbolic (positive, in their domains) or fixed, or tending
together with ``x`` (``together={"K": "n"}``). For a requirement with ``solve_for``
(e.g. sqrt(H) >= f), the threshold on that variable is solved for first, so that
``asymptotic heads_cor2 --var K`` reports the order of the least H.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..backends.sym import expand_special, to_sympy
from ..backends.sympy_import import sympy as sp
from ..errors import BoundcalcError
from ..expr.nodes import BigOp, Indexed, Node, Num, substitute
from ..expr.parser import parse, parse_number
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
    base: str = "1"          # a of an exponential order a^x (1: none)

    def to_json(self) -> dict:
        from .. import formats
        return formats.call("json", self)

    def describe(self) -> str:
        """The order as ``asymptotic`` prints it (:mod:`boundcalc.reports.printers.text`)."""
        from .. import formats
        return formats.call("text", self)


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
    node, fixed = _fixed_into_tree(formula, fixed)
    expr, syms = to_sympy_with_domains(node, table)
    expr = expand_special(expr)     # closed forms of sums/products; binomial(n, 2) = n (n - 1)/2
    quantity = formula.id
    if isinstance(expr, sp.core.relational.Relational):
        expr, quantity = _threshold(formula, expr, syms)
    x = syms.get(var) or sp.Symbol(var, positive=True)
    # logs of products and powers split before numbers enter: log(N**(L*m*T)) at N = 10,
    # m = 1000, T = 512 is 512000 L log(10), not the log of a 512000-digit integer
    expr = sp.expand_log(expr, deep=True)
    for k, v in (fixed or {}).items():
        if k not in syms:
            raise BoundcalcError(f"unknown symbol {k!r} for {formula.id}")
        q = parse_number(v, where=f"--set {k}")
        table[k].domain.check(k, q)
        expr = expr.subs(syms[k], sp.Rational(q.numerator, q.denominator))
    for k, v in (together or {}).items():
        e = _tied(formula, var, x, syms, fixed, k, v)       # (raises unless k is a symbol of it)
        expr = expr.subs(syms[k], e)
    if x not in expr.free_symbols:
        raise BoundcalcError(f"{quantity} does not depend on {var}")
    o = leading_order(expr, x, what=f"{quantity} in {var}")
    core = o.core(x)
    note = f"; {o.frozen_note}" if o.frozen else ""
    return AsymptoticResult(formula.id, var, quantity, str(o.a), str(o.b), str(o.c), f"Theta({core})",
                            str(o.c * core), sp.latex(o.c * core), o.method + note, dict(together or {}),
                            str(o.base))


def _fixed_into_tree(formula, fixed: dict | None):
    """(the tree, the ``--set`` values still to substitute): sums/products over layers get
    the fixed values in the tree (a scalar s stands for every s[i]; a vector cannot follow a
    growing range), so that SymPy writes them in closed form where it can (prod(2, i, 1, L) = 2**L)."""
    table = formula.symbol_table
    node = formula.expr
    if not any(isinstance(n, (BigOp, Indexed)) for n in node.unique_nodes()):
        return node, fixed
    vals: dict[str, Node] = {}
    for k, v in (fixed or {}).items():
        if k not in table:
            raise BoundcalcError(f"unknown symbol {k!r} for {formula.id}")
        q = parse_number(v, where=f"--set {k}")
        table[k].domain.check(k, q)
        vals[k] = Num(q)
    return substitute(node, vals), {k: v for k, v in (fixed or {}).items() if k not in vals}


def _threshold(formula, expr, syms):
    """(the relation solved for its ``solve_for`` symbol, what that quantity is called)."""
    s = formula.spec.solve_for
    if not s:
        raise BoundcalcError(f"{formula.id} is a {formula.kind} without solve_for; nothing to take the order of")
    sols = [r for r in sp.solve(sp.Eq(expr.lhs, expr.rhs), syms[s]) if r.is_positive is not False]
    if len(sols) != 1:
        raise BoundcalcError(f"cannot isolate {s} in {formula.id}")
    return sols[0], f"threshold on {s} in {formula.id}"


def _tied(formula, var: str, x, syms: dict, fixed, k: str, v: str):
    """``--with k=v``: the expression in ``var`` that ``k`` is tied to, in SymPy (checked: not
    the variable itself, not self-referential, not also fixed, tending to infinity where
    ``k``'s domain requires it)."""
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
    _check_tends(k, v, e, formula.symbol_table[k].domain, x, var)
    return e


@dataclass(frozen=True)
class Order:
    """``f ~ c * base**x * x**a * log(x)**b`` as x -> oo (:func:`leading_order`); ``frozen``:
    the x-free parts that were held as positive constants of the limit (their text)."""
    base: Any
    a: Any
    b: Any
    c: Any
    method: str
    frozen: tuple = ()

    def core(self, x):
        core = sp.Integer(1) if self.base == 1 else self.base ** x
        if self.a != 0:
            core *= x ** self.a
        if self.b != 0:
            core *= sp.log(x) ** self.b
        return core

    @property
    def frozen_note(self) -> str:
        return (", ".join(self.frozen) + " held as constant(s) of the limit (taken > 0; the order is "
                "about the variable alone)")

    def key(self) -> tuple:
        """(base, a, b): orders compare lexicographically on it."""
        return (self.base, self.a, self.b)


def leading_order(expr, x, *, what: str = "the expression", coefficient: bool = True) -> Order:
    """The order of ``expr`` as ``x`` -> oo, matched to ``c a^x x^b log(x)^c`` by SymPy
    limits (the module docstring), ``asymptotic``'s and ``check``'s order kind's one
    mechanism. Logs are expanded first (``log(N^(L m T))`` = L m T log N: no huge integer
    when N, m, T are fixed). Where the limits fail with the other symbols as they are, each
    x-free part that is not a plain symbol (``log(m T)``, ``s^2 + 1``) is held as a positive
    constant of the limit and the limits are taken again (``frozen`` says which). SymPy's
    limit recursing too deeply is a failure like any other: a one-line refusal, never a
    recursion error."""
    expr = sp.expand_log(expr, deep=True)
    try:
        o = _match(expr, x, coefficient)
        return Order(o.base, o.a, o.b, sp.expand_log(o.c, deep=True), o.method)
    except _NoOrder as e:
        first = e
    frozen, back = _freeze(expr, x)
    for step in (_match, _structured):
        if step is _match and not back:
            continue
        try:
            o = step(frozen, x, coefficient)
        except _NoOrder as err:
            first = first if first.why else err
            continue
        except RecursionError:
            continue
        c = sp.expand_log(o.c.subs(back), deep=True) if coefficient else o.c
        return Order(sp.simplify(o.base.subs(back)), o.a, o.b, c,
                     o.method if step is _match else "exact: SymPy limits term by term (the largest term of "
                     "each sum, powers and products of the terms' orders)",
                     tuple(str(v) for v in back.values() if v.has(sp.Add) or v.atoms(sp.Function)))
    if first.faster:
        raise BoundcalcError(f"could not determine the order of {what} (not of the form c a^x x^b log(x)^c: it "
                             "grows faster than any exponential a^x)")
    raise BoundcalcError(f"could not determine the order of {what} (not of the form c a^x x^b log(x)^c"
                         + (f"; {first.why}" if first.why else "") + ")")


class _NoOrder(Exception):
    def __init__(self, why: str = "", faster: bool = False):
        super().__init__(why)
        self.why, self.faster = why, faster


def _limit(e, x):
    try:
        return sp.limit(e, x, sp.oo)
    except RecursionError:
        raise _NoOrder("SymPy's limit recursed too deeply") from None
    except (ValueError, NotImplementedError, TypeError, ZeroDivisionError):
        raise _NoOrder() from None


def _match(expr, x, coefficient: bool) -> Order:
    base = _exponential_base(expr, x)
    if base is None:
        raise _NoOrder(faster=True)
    if base != 1:
        expr = sp.simplify(expr / base ** x)
    a = _limit(sp.expand_log(sp.log(expr), deep=True) / sp.log(x), x)
    if a in (sp.oo, -sp.oo) or a.has(sp.nan, sp.zoo) or not a.is_real:
        raise _NoOrder()
    g = sp.simplify(expr / x ** a)
    b = _limit(sp.expand_log(sp.log(g), deep=True) / sp.log(sp.log(x)), x)
    if b in (sp.oo, -sp.oo) or b.has(sp.nan, sp.zoo) or not b.is_real:
        raise _NoOrder()
    c = sp.Integer(1)
    if coefficient:
        c = sp.simplify(_limit(g / sp.log(x) ** b, x))
        if c in (0, sp.oo, -sp.oo) or c.has(sp.nan, sp.zoo):
            raise _NoOrder()
    return Order(base, a, b, c, "exact: SymPy limits")


def _structured(expr, x, coefficient: bool) -> Order:
    """The order by the structure of ``expr``: a power with an x-free exponent is the power
    of its base's order, a product the product of its factors' orders, a sum the order of
    its largest terms (their coefficients summed: a cancellation to 0 is no answer), every
    other part by :func:`_match` (an iterative walk: deep or wide trees do not recurse)."""
    one = Order(sp.Integer(1), sp.Integer(0), sp.Integer(0), sp.Integer(1), "")
    out: dict = {}
    stack = [(expr, False)]
    while stack:
        e, done = stack.pop()
        if e in out:
            continue
        if x not in e.free_symbols:
            out[e] = Order(one.base, one.a, one.b, e, "")
            continue
        kids = [] if not (e.is_Add or e.is_Mul or (e.is_Pow and x not in e.exp.free_symbols)) else (
            list(e.args) if not e.is_Pow else [e.base])
        if not kids:
            out[e] = _match(e, x, True)
            continue
        if not done:
            stack.append((e, True))
            stack.extend((k, False) for k in kids if k not in out)
            continue
        if e.is_Pow:
            o, p = out[e.base], e.exp
            out[e] = Order(sp.simplify(o.base ** p), o.a * p, o.b * p, o.c ** p, "")
        elif e.is_Mul:
            base, a, b, c = sp.Integer(1), sp.Integer(0), sp.Integer(0), sp.Integer(1)
            for k in e.args:
                o = out[k]
                base, a, b, c = base * o.base, a + o.a, b + o.b, c * o.c
            out[e] = Order(sp.simplify(base), sp.simplify(a), sp.simplify(b), c, "")
        else:
            terms = [out[k] for k in e.args]
            top = terms[0]
            for o in terms[1:]:
                if _greater(o.key(), top.key()):
                    top = o
            tied = [o for o in terms if not _greater(top.key(), o.key())]
            c = sp.simplify(sum(o.c for o in tied))
            if c == 0 or c.has(sp.nan, sp.zoo):
                raise _NoOrder("the largest terms cancel")
            out[e] = Order(top.base, top.a, top.b, c, "")
    o = out[expr]
    return Order(o.base, o.a, o.b, sp.simplify(o.c) if coefficient else o.c, "")


def compare_orders(k1: tuple, k2: tuple) -> int:
    """-1, 0 or 1 as the order with key k1 = (base, a, b) (:meth:`Order.key`) is smaller than,
    equal to or larger than k2; an undecidable comparison raises :class:`BoundcalcError`."""
    k1, k2 = tuple(sp.sympify(v) for v in k1), tuple(sp.sympify(v) for v in k2)
    try:
        return 1 if _greater(k1, k2) else -1 if _greater(k2, k1) else 0
    except _NoOrder as e:
        raise BoundcalcError(f"cannot compare the orders: {e.why}") from None


def _greater(k1: tuple, k2: tuple) -> bool:
    """Whether the order key k1 = (base, a, b) is larger than k2, decided exactly
    (lexicographic; an undecided comparison of symbolic parts is no answer)."""
    for u, v in zip(k1, k2):
        d = sp.simplify(u - v)
        if d == 0:
            continue
        if d.is_positive:
            return True
        if d.is_negative:
            return False
        raise _NoOrder(f"which term is largest depends on the other symbols: {u} against {v} "
                       "(fix them with --set)")
    return False


def _freeze(expr, x):
    """``expr`` with each maximal x-free part that is not a number or a plain symbol
    replaced by a positive dummy constant; (expression, dummy -> the part)."""
    back: dict = {}
    seen: dict = {}

    def walk(e):
        if x not in e.free_symbols:
            if e.is_number or e.is_Symbol or not e.free_symbols:
                return e
            if e not in seen:
                d = sp.Dummy(f"K{len(seen) + 1}", positive=True)
                seen[e], back[d] = d, e
            return seen[e]
        if not e.args:
            return e
        return e.func(*[walk(a) for a in e.args])

    try:
        return walk(expr), back
    except RecursionError:
        return expr, {}


def _exponential_base(expr, x):
    """``a`` of a leading factor a^x (``a = exp(lim log(f)/x)``): 1 for every order
    c x^b log(x)^c (the limit is 0, or SymPy cannot take it: the power/log matching then
    decides), a number > 0 for an exponential order, None for a growth (or decay) faster
    than any exponential."""
    try:
        r = sp.limit(sp.expand_log(sp.log(expr), deep=True) / x, x, sp.oo)
    except (ValueError, NotImplementedError, TypeError, ZeroDivisionError, RecursionError):
        return sp.Integer(1)           # the power/log matching below decides (and says why)
    if r == 0 or r.has(sp.nan, sp.zoo) or not r.is_extended_real:
        return sp.Integer(1)
    if r in (sp.oo, -sp.oo):
        return None                    # faster than any exponential (or tending to 0 faster)
    return sp.simplify(sp.exp(r))


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
