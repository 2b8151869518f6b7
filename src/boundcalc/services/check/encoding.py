"""Passes that cannot fail by construction of the encoding (issue 35), asked of a pass
before it counts as one (the check runner asks :func:`why` before :func:`.premises.tautology`). Only what *we* wrote
can make a check trivially true: its own ``assume`` entries (added by us, whatever their reason
quotes) and its own substitutions. A quoted ``[[hypotheses]]`` entry of the paper, or a formula
of the paper the check names, never makes a check an identity: a claim that follows from the
paper's own premise is a step the paper could have got wrong (its premise misprinted), a pass.

1. **an added assumption is the claim restated**: an inline ``compare`` (no formula of the
   paper named) and one of its own ``assume`` entries that are *equivalent* under the symbols'
   domains alone — the assumption alone implies the claim and the claim alone implies the
   assumption (every other premise, the paper's hypotheses included, dropped): the assumption is
   the claim solved for a variable (``R dGamma >= log(...)`` for the inequality it is the
   logarithm of). An assumption that merely implies the claim (``x76 >= e^(-...)`` for
   ``log(1 + x76) >= e^(-...)/2``, ``b > 0`` for ``(a - b)^2/(2b) >= 0``) leaves a step of
   algebra to check: the pass stays one (conditional on it);
2. **the claim is a combination of its assumptions**: each side is the product or the sum of
   the corresponding sides of some of its own assumptions, one tree up to the order of terms
   (no arithmetic: ``x <= y`` and ``y <= z`` summed into a new constant is a step), and it holds
   with the paper's hypotheses dropped (its own assumptions kept);
3. **a monotonicity read off an affine formula**: the variable occurs once, reached through sums
   and products only, and the claim holds with the paper's hypotheses dropped (the sign of the
   slope is fixed by the symbols' domains);
4. **equal after the check's own substitution** (inline): the equalities ``x == e`` among its
   own assumptions put in, the two sides are the same expression once like terms are collected;
5. **a max against one of its arguments**: choosing one argument of some ``max`` on the larger
   side (``min`` on the smaller; the others kept) makes the two sides the same expression
   (``max(a, b) >= b``), and the claim holds with every premise dropped (the symbols' domains
   alone; not ``max(2, 1/delta) L >= 2 L``, which needs ``L >= 0`` from somewhere).

Every re-run is the check's own kind through ``rerun`` (capped like a mutant); an undecided
re-run is "not shown": the grade stays as it was (never upgraded or downgraded on unknown).
"""
from __future__ import annotations

from dataclasses import replace
from itertools import product

from ...expr.nodes import Add, Func, Mul, Rel, Sym, substitute
from ...registry import checks
from ...registry.checks import Assumption
from ...verdicts import Grade

__all__ = ["why"]

MAX_PICKS = 64


def why(reg, paper, t, f, rerun) -> str | None:
    """The reason a passing check cannot fail by construction, or None."""
    if isinstance(t, checks.Monotone):
        return _affine(reg, paper, t, rerun)
    if not isinstance(t, checks.Compare) or f.sides is None:
        return None
    a, op, b = f.sides
    if isinstance(a, Rel) or isinstance(b, Rel):
        return None
    rels = _assumptions(t)
    inline = not t.uses
    return (_combination(t, a, op, b, rels, rerun) or (_substituted(a, op, b, rels) if inline else None)
            or _max_pick(t, a, op, b, rerun) or (_restated(t, rerun) if inline else None))


def _assumptions(t) -> list[tuple[str, Rel]]:
    from ...expr.parser import parse
    out = []
    for x in t.assumptions:
        try:
            r = parse(x.expr, where="assume")
        except Exception:
            continue
        if isinstance(r, Rel):
            out.append((x.expr, r))
    return out


def _oriented(op, lo, hi):
    """(smaller, larger) of ``lo op hi``, or None for ``==`` / ``!=``."""
    if op in ("<=", "<"):
        return lo, hi
    if op in (">=", ">"):
        return hi, lo
    return None


def _flat(node, cls) -> list:
    if isinstance(node, cls):
        return [y for k in node.args for y in _flat(k, cls)]
    return [node]


def _combination(t, a, op, b, rels, rerun) -> str | None:
    from .premises import _canon
    side = _oriented(op, a, b)
    if side is None or len(rels) < 2:
        return None
    pairs = [(text, _oriented(r.op, r.lhs, r.rhs)) for text, r in rels]
    pairs = [(text, p) for text, p in pairs if p is not None]
    for word, cls in (("product", Mul), ("sum", Add)):
        small = sorted(_canon(x) for x in _flat(side[0], cls))
        large = sorted(_canon(x) for x in _flat(side[1], cls))
        used = [(t_, p) for t_, p in pairs if _canon(p[0]) in small]
        if len(used) < 2:
            continue
        s2 = sorted(_canon(x) for _, p in used for x in _flat(p[0], cls))
        l2 = sorted(_canon(x) for _, p in used for x in _flat(p[1], cls))
        if s2 == small and l2 == large and rerun(t, _ours).severity is Grade.OK:
            return (f"a tautology of the encoding: the claim is the {word} of its own assumptions "
                    f"({'; '.join(t_ for t_, _ in used)}), side by side, with no arithmetic between them — "
                    "no premise of the paper is used, so it cannot fail")
    return None


def _substituted(a, op, b, rels) -> str | None:
    from .premises import same_expression
    eqs = {r.lhs.name: r.rhs for _, r in rels if r.op == "==" and isinstance(r.lhs, Sym)
           and r.lhs.name not in r.rhs.symbols()}
    if not eqs:
        return None
    a2, b2 = substitute(a, eqs), substitute(b, eqs)
    if same_expression(a2, op, b2):
        return (f"a tautology of the encoding: once its own equalities "
                f"({', '.join(f'{k} = {v}' for k, v in sorted(eqs.items()))}) are put in, the two sides are the "
                "same expression after collecting like terms — equal by the check's own substitution")
    return None


def _max_pick(t, a, op, b, rerun) -> str | None:
    side = _oriented(op, a, b)
    if side is None:
        return None
    word = _picked(*side)
    if word is None or rerun(replace(t, assume=()), lambda hs: []).severity is not Grade.OK:
        return None
    return (f"a tautology of the encoding: with one argument of one or more {word}s on the "
            f"{'larger' if word == 'max' else 'smaller'} side put in for it, the two sides are the same "
            f"expression, and the claim holds with every premise dropped (the symbols' domains alone) — the "
            f"claim is {word}(a, b) {'>=' if word == 'max' else '<='} a, whatever the paper's a and b")


def _picked(small, large) -> str | None:
    """'max' (or 'min') when putting one argument in for some max on the larger side (min on
    the smaller) makes the two sides the same expression, else None."""
    from .premises import same_expression
    for big, word in ((large, "max"), (small, "min")):
        other = small if big is large else large
        sites = [n for n in big.walk() if isinstance(n, Func) and n.name == word and len(n.args) >= 2]
        if not sites or len(sites) > 6:
            continue
        choices = [(None,) + tuple(s_.args) for s_ in sites]      # None: the site kept
        n = 1
        for c in choices:
            n *= len(c)
        if n > MAX_PICKS:
            continue
        for pick in product(*choices):
            if all(arg is None for arg in pick):
                continue
            cur = big
            for site, arg in zip(sites, pick):
                cur = cur if arg is None else _replace_node(cur, site, arg)
            if same_expression(cur, "==", other):
                return word
    return None


def _replace_node(node, site, rep):
    return node.map(lambda n: rep if n == site else None)


def _restated(t, rerun) -> str | None:
    """Rule 1: one of the check's own assumptions equivalent to its claim under the symbols'
    domains (each alone implies the other; every other premise dropped), or None."""
    if t.approximate is not None:
        return None
    from ...expr.parser import parse
    claim = Assumption(f"{t.lhs} {t.rel} {t.rhs}", "the check's claim")
    for x in t.assumptions:
        try:
            r = parse(x.expr, where="assume")
        except Exception:
            continue
        if not isinstance(r, Rel) or rerun(replace(t, assume=(x,)), _ours).severity is not Grade.OK:
            continue
        back = replace(t, lhs=str(r.lhs), rel=r.op, rhs=str(r.rhs), assume=(claim,))
        if rerun(back, _ours).severity is Grade.OK:
            return (f"a tautology of the encoding: the claim restates its own assumption {x.expr} (added by us) — "
                    "each alone implies the other under the symbols' domains (every other premise, the paper's "
                    "hypotheses included, dropped): the assumption is the claim solved for a variable, so the "
                    "check cannot fail")
    return None


def _ours(hs):
    """The hypotheses a re-run keeps: the check's own assumptions only, the paper's dropped."""
    return [h for h in hs if h.origin == "added by the check"]


def _affine(reg, paper, t, rerun) -> str | None:
    from .common import formula_id
    if t.box or t.fixed:
        return None
    node = reg.resolved(formula_id(paper, t.formula))
    if isinstance(node, Rel):
        return None
    v = t.var
    if sum(1 for n in node.walk() if isinstance(n, Sym) and n.name == v) != 1:
        return None
    cur = node
    while not (isinstance(cur, Sym) and cur.name == v):
        if not isinstance(cur, (Add, Mul)):
            return None
        kids = [k for k in cur.children() if v in k.symbols()]
        cur = kids[0]
    m = rerun(t, lambda hs: [])
    if m.severity is not Grade.OK:
        return None
    return (f"a monotonicity read off an affine formula: {v} occurs once in {t.formula}, reached through sums "
            "and products only, and the sign of its slope is fixed by the symbols' domains (it holds with the "
            "paper's hypotheses dropped) — the encoding fixes the sign, no step of the paper is checked")
