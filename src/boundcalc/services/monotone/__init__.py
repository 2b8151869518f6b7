"""Monotonicity of a formula in one variable, with an honest evidence level.

The package: :func:`monotone` here (the input checked by :mod:`.inputs`); the sign of the
derivative on the domain in :mod:`.sign`; a verdict on a box in :mod:`.box`; the samples and
certified pairs in :mod:`.scan`; the result record in :mod:`.result`.

1. *proved*: the sign of the partial derivative is decided symbolically for every
   point of the symbols' domains (domains encoded by substitutions such as x = 1 + t,
   t >= 0, see :func:`.symbolic.domain_substitution`) AND the function is continuous on
   the domain (:mod:`.continuity`: no pole of 1/g or tan, no floor/ceil jump, no gap in
   the definedness of log/sqrt/fractional powers — each shown absent by :mod:`.decide`);
   for a derivative in the variable alone, also factor by factor (:func:`_sign_by_monotone_factors`:
   each factor's sign proved, or the factor monotone with a certified sign at a closed end
   of the domain — log(n)/sqrt(n) is decreasing on n >= 8, the range ``--box n=8:inf``);
   or, for abs/min/max/floor/ceil that SymPy cannot differentiate into the expression
   language, the structure shows it (monotone functions of monotone arguments, certified
   signs: ``floor(100/n)`` is non-increasing — non-strict, and the detail says so);
2. *certified*: the layers of :mod:`.decide` (interval branch-and-bound in ball
   arithmetic, SMT) show the derivative keeps its sign on the box, and continuity on the
   box is shown the same way;
3. *sampled*: f is compared along the variable at the box's corners, its extremes (one
   symbol at an end, the others at the centre) and two scrambled Sobol designs
   (:func:`_scan`), and the derivative's sign is read there. Sampling names no direction:
   its verdict is ``no decrease found`` / ``no increase found`` / ``no change found`` "in N
   samples on BOX" (:data:`~boundcalc.verdicts.Direction` members whose ``leans`` says which
   way they point); a sample pair that moves against a direction is re-checked in ball
   arithmetic, and one certified pair each way makes the answer ``neither``.
A derivative whose sign is proved where f is defined, but with continuity not established
(tan' > 0, yet tan(1.5) > tan(2)), is no proof: a certified pair of points across the
break that moves the other way gives "neither", else the verdict is only sampled.
A sign change of the derivative at sampled points gives the verdict "neither" with
evidence ``counterexample`` only when BOTH directions are certified: a pair of points
differing only in the variable where f rises, and one where it falls (each comparison
certified in ball arithmetic). Without ``--box`` a verdict is about the whole domain; a
verdict that rests on the default box of :meth:`Domain.default_range` (the domain is unbounded)
says so in the verdict word ("decreasing on the default box only"), in ``scope`` and in
the text. Setting the variable under test (``--set x=2``), an empty domain, a formula
undefined everywhere (the rule of :mod:`boundcalc.expr.singularities`), and a garbage,
reversed or out-of-domain ``--box`` are errors, checked before any proof is attempted.
"""
from __future__ import annotations

from fractions import Fraction

from ...backends.sym import expand_special
from ...backends.sympy_import import sympy as sp
from ...errors import BoundcalcError
from ...expr.domains import Domain, infinite_end, search_range
from ...expr.indexed import instantiate
from ...expr.nodes import Rel, sub
from ...expr.singularities import is_smooth_language
from ...prover.decide import check_defined_somewhere
from ...prover.symbolic import to_sympy_with_domains
from ...verdicts import Direction, MonotoneEvidence
from ..continuity import continuity
from .box import _nonsmooth, _on_box
from .inputs import _check_box, _fixed_values, _has_big
from .result import MonotoneResult, Subject
from .scan import SAMPLES, _Ctx
from .sign import _sign_on_domain, _to_node

__all__ = ["SAMPLES", "MonotoneResult", "Subject", "monotone"]


def monotone(formula, var: str, *, box: dict | None = None, fixed: dict | None = None,
             samples: int = SAMPLES, seed: int = 0, beyond_box: bool = True,
             _asked: str = "") -> MonotoneResult:
    """Whether ``formula`` (for a relation: its slack ``rhs - lhs``) is increasing,
    decreasing, constant or neither in ``var``, over its domain or over ``box`` (symbol ->
    (lo, hi)), with the symbols of ``fixed`` set to numbers; see the module docstring for
    the evidence each verdict carries. Bad input raises
    :class:`~boundcalc.errors.BoundcalcError`.

    ``beyond_box=False``: a verdict on the default box is not tested beyond it (for
    :mod:`.require`, which re-examines the range its answer rests on with an explicit box);
    it is still labelled 'on the default box only'.

    A box side with an infinite end (``n: (8, "inf")``, ``x: ("-inf", 0)``) is a range of
    the symbol, not a box: the symbol's domain is cut to it and the question is asked of
    that domain (:func:`_on_unbounded`): proved there, or an honest unknown / 'on the
    default box only' (never a verdict on a finite box passed off as the range)."""
    table = formula.symbol_table
    if var not in table:
        raise BoundcalcError(f"{var!r} is not a symbol of {formula.id}; its symbols are {', '.join(table)}")
    unbounded = {n: v for n, v in (box or {}).items()
                 if isinstance(v, (tuple, list)) and any(infinite_end(x) for x in v)}
    if unbounded:
        return _on_unbounded(formula, var, box, unbounded, fixed, samples, seed, beyond_box)
    node, fixed, ranges_given, fnode = _checked(formula, var, box, fixed)
    ctx, doms, on_box = _context(formula, var, node, fnode, fixed, ranges_given, seed, beyond_box, _asked,
                                 samples)
    if var not in fnode.symbols():
        return MonotoneResult(formula.id, var, Direction.CONSTANT, MonotoneEvidence.PROVED, "0",
                              f"the expression does not depend on {var}")
    deriv, syms = _derivative(node, fnode, table, var, fixed)
    if deriv is None or (not is_smooth_language(fnode) and _to_node(deriv) is None):
        # abs/floor/ceil/min/max that SymPy differentiates only into sign(), Heaviside or
        # Derivative(floor): no derivative, the structure and certified pairs instead
        return _nonsmooth(ctx, doms, on_box, samples)
    return _by_derivative(ctx, deriv, syms, doms, on_box, bool(ranges_given), samples)


def _checked(formula, var: str, box, fixed):
    """The input checked before any proof is attempted: (f, or a relation's slack rhs - lhs;
    the ``--set`` values; the ``--box`` ranges; f with the values substituted)."""
    table = formula.symbol_table
    node = formula.expr
    if isinstance(node, Rel):
        node = sub(node.rhs, node.lhs)   # monotonicity of the required slack rhs - lhs
    if var in (fixed or {}):
        raise BoundcalcError(f"--set {var}: {var} is the variable under test; it cannot be fixed "
                             f"(monotonicity in {var} is about {var} varying)")
    fixed = _fixed_values(fixed or {}, table, formula.id)
    for n in node.symbols():
        if n in table:
            table[n].domain.check_nonempty(n)
    ranges_given = _check_box(box, table, fixed, node.symbols())
    check_defined_somewhere(node, formula.id,           # the one definedness rule
                            frozenset(n for n in node.symbols() if n in table and table[n].domain.integer))
    fnode = instantiate(node, fixed)       # (a vector fills s[1], s[2], ... once the sums are written out)
    for k in sorted(k for k, v in fixed.items() if not isinstance(v, Fraction) and k in fnode.symbols()):
        raise BoundcalcError(f"--set {k}: a list of values cannot follow the range of {k}[...] as {var} "
                             f"varies; give one number for every component (--set {k}=2), or fix the "
                             "range's symbols")
    return node, fixed, ranges_given, fnode


def _context(formula, var, node, fnode, fixed, ranges_given, seed, beyond_box, asked, samples):
    """(the box's context, the free symbols' domains, the box as domains): the box is the
    ``--box`` ranges, the other sides the default ranges of the domains."""
    table = formula.symbol_table
    free = sorted(n for n in fnode.symbols() if n in table)
    doms = {n: table[n].domain for n in free}
    ranges = {n: ranges_given[n] if n in ranges_given else doms[n].default_range()
              for n in free}
    on_box = {n: Domain(doms[n].integer, a, True, b, True) for n, (a, b) in ranges.items()}
    shown = {k: (str(float(a)), str(float(b))) for k, (a, b) in ranges.items()}
    # a verdict on the box the user did not give is about that box only, unless it is the domain
    box_scope = "box" if ranges_given else (
        "domain" if all(on_box[n] == doms[n] for n in free) else "default box")
    ctx = _Ctx(formula.id, var, node, fnode, table, fixed, ranges, shown, box_scope, seed, beyond=beyond_box,
               asked=asked, samples=samples)
    return ctx, doms, on_box


def _derivative(node, fnode, table, var, fixed):
    """(d f / d var in SymPy, or None where SymPy cannot differentiate it; the SymPy symbols)."""
    if _has_big(node):
        # sums/products over layers: the fixed values enter the tree first (a scalar s stands
        # for every s[i]) and SymPy writes each sum/product in closed form where it can
        # (prod(2, i, 1, L) = 2**L), so that the derivative in L is one of the language
        expr, syms = to_sympy_with_domains(fnode, table)
        expr = expand_special(expr)
        syms.update({k: v for k, v in to_sympy_with_domains(node, table)[1].items() if k not in syms})
    else:
        expr, syms = to_sympy_with_domains(node, table)
    x = syms[var]
    try:
        deriv = sp.diff(expr, x)
        if fixed:
            deriv = deriv.subs({syms[k]: sp.Rational(v.numerator, v.denominator) for k, v in fixed.items()
                                if isinstance(v, Fraction) and k in syms})
    except Exception:          # SymPy cannot differentiate it: no derivative
        deriv = None
    return deriv, syms


def _by_derivative(ctx: _Ctx, deriv, syms, doms, on_box, ranges_given: bool, samples) -> MonotoneResult:
    """1. the derivative's sign proved over the whole domain (a proof over the domain covers
    any box in it) and f continuous there; 2./3. else on the box (:func:`.box._on_box`)."""
    var, fnode = ctx.var, ctx.fnode
    dstr = str(deriv)
    ctx.dstr = dstr
    open_note = ""          # continuity not established where the derivative's sign was
    claimed, how = _sign_on_domain(deriv, syms, var, ctx.table, fnode, doms, try_decide=not ranges_given)
    if claimed is not None:
        cont = continuity(fnode, var, dict(doms))
        if cont.ok:
            return MonotoneResult(ctx.id, var, Direction(claimed), MonotoneEvidence.PROVED, dstr, f"{how}; f is {cont.text()}")
        if not ranges_given:     # on a --box, the box itself is decided below
            open_note = f"{how}, but {cont.text()}"
        else:
            claimed = None
    dnode = _to_node(deriv)
    if dnode is None:
        return _nonsmooth(ctx, doms, on_box, samples)
    ctx.dnode = dnode
    return _on_box(ctx, on_box, claimed, open_note)


def _on_unbounded(formula, var, box, unbounded, fixed, samples, seed, beyond_box) -> MonotoneResult:
    """:func:`monotone` with box sides that have an infinite end: each such symbol's domain
    is cut to its range (:func:`~boundcalc.expr.domains.search_range`, the same rule as
    ``require --from/--to``) and the question is asked of the cut domain, so that a proof
    'on the domain' is a proof on the whole unbounded range; the result says which range
    was asked (``asked``) and covers the box (scope ``box``) only when it was decided on it."""
    from dataclasses import replace

    from ...expr.numbers import fmt_exact
    table = dict(formula.symbol_table)
    node = formula.expr
    syms = (sub(node.rhs, node.lhs) if isinstance(node, Rel) else node).symbols()
    asked, ends = [], {}
    for n, v in unbounded.items():
        if n not in table or n not in syms:
            raise BoundcalcError(f"--box {n}: {n!r} is not a symbol of this formula")
        if n in (fixed or {}):
            raise BoundcalcError(f"--box {n}: {n} is also fixed by --set")
        if len(v) != 2:
            raise BoundcalcError(f"--box {n}: expected lo:hi, got {v!r}")
        dom, label = search_range(n, table[n].domain, v[0], v[1], where=f"--box {n}")
        table[n] = table[n].with_domain(dom)
        asked.append(label)
        ends[n] = ("-inf" if dom.lo is None else fmt_exact(dom.lo), "inf" if dom.hi is None else fmt_exact(dom.hi))
    rest = {n: v for n, v in box.items() if n not in unbounded}
    r = monotone(Subject(formula.id, formula.expr, table), var, box=rest, fixed=fixed, samples=samples,
                 seed=seed, beyond_box=beyond_box, _asked="; ".join(asked))
    if r.scope == "domain":       # decided on the cut domain: that is the box asked about
        return replace(r, scope="box", box={**r.box, **ends}, asked="; ".join(asked))
    return replace(r, asked="; ".join(asked))
