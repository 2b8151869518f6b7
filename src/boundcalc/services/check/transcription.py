"""Transcription: a formula's printed LaTeX (``latex``) against its expression (``expr``).

The printed statement is parsed by :mod:`boundcalc.expr.latex_in` (boundcalc's LaTeX reader,
converted into the whitelist tree) and compared with the expression the tool evaluates:

* a value (definition, bound): the printed value (right side of ``Q := ...``, ``Q \\le ...``,
  or the whole text) and ``expr`` are decided equal by the shared decision procedure
  (exact -> SMT -> interval -> counterexample search);
* a relation (requirement, claim): the same relation after moving everything to one side
  (``lhs - rhs`` decided equal, ``\\le``/``\\ge`` flipped as needed); relations written
  differently (``\\sqrt H \\ge x`` against ``H >= x**2``) are compared point by point: a
  point, certified in ball arithmetic, where one holds and the other fails is a
  disagreement; agreement at every sampled point is only a note (not proved).

A disagreement is graded by what explains it (formulas/README.md):

* the print names a symbol or formula the expression does not use (directly or through
  the formulas it references): a LaTeX name read as something else, or another notation
  -> note ``names differ`` (never an error: the comparison is not like for like);
* the ratio of the two values is free of every symbol but the hidden constants (role
  ``constant``): the printed LaTeX shows a number or drops a constant the expression names
  -> note ``up to constants``;
* the formula's ``status`` is ``corrected`` or ``derived`` (its note says why the
  expression is not the printed text) -> note ``documented``;
* the printed relation holds only up to constants (``\\lesssim``, ``\\gtrsim``, ``\\approx``)
  -> warning ``up to constants``;
* otherwise an error, reason ``transcription``, with the certified counterexample.

A chain ``Q = a \\le b`` passes when any of its values equals the expression, and is a note
``not compared`` otherwise. LaTeX the parser cannot read (a norm no symbol writes that way,
``\\sum``, ``\\mathcal O``, a where-clause) is a note ``not parsed`` naming the token:
nothing was compared, and it says so.
"""
from __future__ import annotations

from fractions import Fraction

from ...errors import BoundcalcError
from ...expr.nodes import Mul, Num, Pow, Ref, Rel, Sym, sub
from ...registry.checks import Transcription
from ...verdicts import FormulaStatus, Verdict
from .common import Finding, claim, decide, domains, formula_id, hidden_constants

#: points compared for relations written differently
POINTS = 64
#: the id of the transcription check ``check --transcription`` adds for formula NAME
PREFIX = "latex:"


def checks(paper) -> list:
    """One ``transcription`` check (id ``latex:NAME``) per formula of ``paper`` that has
    both a printed LaTeX and an expression of its own (a formula given by its LaTeX alone
    would only be compared with itself)."""
    from ...registry.checks import Transcription
    from ...registry.model import CheckSpec
    out = []
    for n, f in paper.formulas.items():
        if f.latex and not f.from_latex:
            spec = Transcription(id=PREFIX + n, kind="transcription", formula=n, location=f.source,
                                 description=f"the printed LaTeX of {f.id} states its expression")
            out.append(CheckSpec(paper.key, spec.id, spec.kind, spec.location, spec.description, spec))
    return out


def printed(reg, paper, spec):
    """The formula's printed LaTeX parsed (:class:`~boundcalc.expr.latex_in.Parsed`),
    references resolved; raises :class:`BoundcalcError` naming the token it cannot read."""
    from ...expr import latex_in
    nm = latex_in.names_of_paper(paper)
    prefer = _uses(reg, paper, spec)
    p = latex_in.parse_statement(spec.latex, nm, kind=spec.kind, where=f"{spec.id} latex", exclude=spec.name,
                                 prefer=frozenset(prefer), strict=False)
    p.raw = p.node
    p.node = reg.resolve(p.node, paper.key)
    p.others = tuple(reg.resolve(o, paper.key) for o in p.others)
    p.chain = tuple(reg.resolve(c, paper.key) for c in p.chain)
    return p


def _uses(reg, paper, spec) -> frozenset:
    """The symbols (``Sym``) and the paper's formulas (bare ``Ref``) ``spec``'s expression
    uses, directly or through the formulas it references: they settle a LaTeX name that
    several symbols or formulas share."""
    out: set[Sym | Ref] = set()
    todo, seen = [spec], set()
    while todo:
        s = todo.pop()
        out |= {Sym(n) for n in s.expr.symbols()}
        for k, n in s.expr.refs():
            if k in (None, paper.key) and n not in seen and n in paper.formulas:
                seen.add(n)
                out.add(Ref(None, n))
                todo.append(paper.formulas[n])
    return frozenset(out)


def run(reg, paper, t: Transcription, f: Finding):
    fid = formula_id(paper, t.formula)
    spec = reg.spec(fid)
    if not spec.latex:
        raise BoundcalcError(f"{fid} has no printed LaTeX to compare")
    if spec.from_latex:
        f.grade("cannot fail", "cannot fail", f"{fid} is given by its LaTeX alone: its expression was read "
                                              "from that LaTeX, so this comparison cannot fail")
        return
    ours = reg.resolved(fid)
    try:
        p = printed(reg, paper, spec)
    except BoundcalcError as e:
        f.evidence = {"latex": spec.latex}
        f.grade("note", "not parsed", f"the printed LaTeX was not compared: {str(e).split(': ', 1)[-1]}")
        return
    f.evidence = {"latex": spec.latex, "printed": _show(p.node), "ours": _show(ours)}
    if p.chained:
        f.evidence["chained"] = "the printed statement chains relations; its last value is compared"
    if p.unread:
        f.evidence["not read"] = "; ".join(f"{t!r}: {why}" for t, why in p.unread)
    if isinstance(ours, Rel) != isinstance(p.node, Rel):
        f.grade("note", "not parsed", "the printed LaTeX is " + ("a relation" if isinstance(p.node, Rel) else "a value")
                + " and the expression is not: not compared")
        return
    if isinstance(ours, Rel):
        return _relation(reg, paper, spec, p, ours, f)
    a, b = claim("printed", p.node), claim("ours", ours)
    doms = domains(reg, paper, Rel("==", a, b))
    r = decide(a, "==", b, doms, statement=f"{fid}: printed == ours")
    f.evidence["verdict"] = r.method
    if r.verdict is Verdict.PROVED:
        f.message = f"the printed LaTeX states the expression [{r.method}]"
        return
    if p.chained:
        for o in p.others:             # Q = a \le b: the expression may be any value of the chain
            ro = decide(claim("printed", o), "==", b, domains(reg, paper, Rel("==", o, b)),
                        statement=f"{fid}: printed (chain) == ours")
            if ro.verdict is Verdict.PROVED:
                f.evidence["verdict"] = ro.method
                f.message = f"a value of the printed chain states the expression [{ro.method}]"
                return
        f.grade("note", "not compared", "the printed statement chains relations and none of its values is "
                                        f"shown equal to the expression [{r.method}]: not graded")
        return
    if r.verdict is not Verdict.DISPROVED:
        f.grade("warning", "undecided", f"undecided: could not decide whether the printed LaTeX states the "
                                        f"expression [{r.method}]")
        return
    f.evidence["counterexample"] = r.counterexample
    _grade_difference(reg, paper, spec, p, a, b, f, f"the printed LaTeX and the expression give different "
                                                     f"values [{r.method}]")


def _relation(reg, paper, spec, p, ours: Rel, f: Finding):
    ga, oa = _one_side(p.node)
    gb, ob = _one_side(ours)
    ga, gb = claim("printed", ga), claim("ours", gb)
    doms = domains(reg, paper, Rel("==", ga, gb))
    if oa == ob:
        r = decide(ga, "==", gb, doms, statement=f"{spec.id}: printed relation == ours")
        if r.verdict is Verdict.PROVED:
            f.evidence["verdict"] = r.method
            f.message = f"the printed LaTeX states the relation [{r.method}]"
            return
    # written differently (or not shown equal): compare where each holds, point by point
    from ...backends import mp as mpb
    from ...prover.sampling import point, sample
    pts = sample(doms, POINTS, seed=0) if doms else {}
    n = len(next(iter(pts.values()))) if pts else 1
    agree = 0
    for i in range(n):
        pt = point(pts, i) if pts else {}
        try:
            sa, sb = mpb.decide_sign(ga, pt), mpb.decide_sign(gb, pt)
        except Exception:           # outside a formula's definedness: skip the point
            continue
        if sa is None or sb is None:
            continue
        ha, hb = _holds(sa, oa), _holds(sb, ob)
        if ha == hb:
            agree += 1
            continue
        f.evidence["counterexample"] = {k: str(v) for k, v in pt.items()}
        f.evidence["at_counterexample"] = {"printed": "holds" if ha else "fails", "ours": "holds" if hb else "fails"}
        _grade_difference(reg, paper, spec, p, _quotient(p.node), _quotient(ours), f,
                          f"the printed relation {'holds' if ha else 'fails'} and the expression's "
                          f"{'holds' if hb else 'fails'} at a certified point (ball arithmetic)")
        return
    if agree == 0:
        f.grade("warning", "undecided", "undecided: the printed relation and the expression could not be compared")
        return
    f.grade("note", "sampled only", f"the printed relation is written differently; it agrees with the expression "
                                    f"at {agree} certified sample points (not proved)")


def _quotient(r: Rel):
    """``lhs / rhs``: what a hidden constant of a relation scales."""
    return Mul((r.lhs, Pow(r.rhs, Num(Fraction(-1)))))


def _one_side(r: Rel):
    """``lhs OP rhs`` as ``g OP' 0`` with OP' in >=, >, ==."""
    if r.op in ("<=", "<"):
        return sub(r.rhs, r.lhs), {"<=": ">=", "<": ">"}[r.op]
    return sub(r.lhs, r.rhs), r.op


def _holds(sign: int, op: str) -> bool:
    return {">=": sign >= 0, ">": sign > 0, "==": sign == 0}[op]


def _grade_difference(reg, paper, spec, p, a, b, f: Finding, what: str):
    consts = hidden_constants(reg, paper, Rel("==", a, b))
    ratio = _ratio_symbols(a, b)
    mine = _uses(reg, paper, spec)
    free = p.raw.symbols()          # an index bound by a \sum/\prod is no name of the paper's
    foreign = sorted(n.name for n in (p.raw.unique_nodes())
                     if (isinstance(n, Sym) and n.name in free or isinstance(n, Ref) and n.paper in (None, paper.key))
                     and n not in mine)
    if consts and ratio is not None and ratio <= set(consts):
        f.grade("note", "up to constants",
                f"{what}; they differ only by the hidden constant(s) {', '.join(sorted(consts))} "
                f"(role = 'constant': the printed LaTeX shows a number or leaves it out)")
    elif foreign:
        f.grade("note", "names differ", f"{what}; the printed LaTeX names {', '.join(foreign)}, which the "
                                        f"expression does not use (a LaTeX name read as another symbol or "
                                        f"formula, or a different notation): not graded an error")
    elif spec.status in (FormulaStatus.CORRECTED, FormulaStatus.DERIVED):
        f.grade("note", "documented", f"{what}; the formula's status is '{spec.status}' (its note says why the "
                                      f"expression is not the printed text)")
    elif p.up_to_constants:
        f.grade("warning", "up to constants", f"{what}; the printed statement holds only up to constants "
                                              f"(\\lesssim, \\gtrsim or \\approx), and they differ by more than a "
                                              f"hidden constant")
    else:
        f.grade("error", "transcription", f"{what}: the expression is not what the paper prints")


def _ratio_symbols(a, b) -> set[str] | None:
    """The symbols of a/b simplified by SymPy (None if SymPy cannot)."""
    try:
        from ...backends.sym import to_sympy
        from ...backends.sympy_import import sympy as sp
        syms: dict = {}
        q = sp.simplify(to_sympy(Mul((a, Pow(b, Num(Fraction(-1))))), syms))
        return {s.name for s in q.free_symbols}
    except Exception:
        return None


def _show(node) -> str:
    from ...backends.sym import to_sympy_text
    try:
        return to_sympy_text(node)
    except Exception:
        return repr(node)
