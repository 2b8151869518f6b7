"""Case splits on a sign (issue 36): a goal with ``abs`` decided on pieces where the
absolute values have one sign, so that the layers that cannot read ``abs`` (the ends
layer, the derivatives of the interval layer and of :mod:`.monotone`) can.

:func:`pieces` returns the pieces of ONE split of the goal ``a rel b``, or None:

* **the sign of a symbol**: a real symbol ``v`` that occurs inside an ``abs`` argument and
  whose domain has 0 strictly inside it (``d`` of ``|x*d|`` with ``|d| <= eps``, ``x`` of
  ``|sin x| >= 2|x|/pi``); the pieces are ``v``'s domain cut at 0 into ``v <= 0`` and
  ``v >= 0`` (0 closed in both). Their union is the domain. The half ``v <= 0`` is written
  with ``v -> -v`` (its symbol then ranges over ``[0, -lo]``: a bijection, so an even goal's
  two halves are one goal, and a point ``v = w`` of it is the goal's point ``v = -w``).
* **the two sides of an absolute value**: ``abs(A) <= B`` (``<``; or ``B >= abs(A)``) is
  the conjunction of ``A <= B`` and ``-A <= B`` at every point (``|A| = max(A, -A)``), two
  pieces on the same domains.

On each piece every ``abs(u)`` whose ``u`` has one sign on the piece is replaced by ``u``
or ``-u`` (:func:`drop_abs`): the sign from the tree's shape and the piece's domains
(:func:`_shape_sign`), else proved by z3 on the piece under the assumptions
(:func:`.smt.decide_smt`, whose proof holds wherever ``u`` is defined there), within
:data:`SIGN_CALLS` calls of :data:`SIGN_MS` each (z3's resource count: work, not time).

Soundness contract: the pieces' point sets cover the goal's (a symbol's split: the two
halves of its domain; the other split: the same points twice), and the goal holds at a point
as soon as every piece containing it holds there (a symbol's split: the piece's relation is
the goal's on that half; the other: ``A <= B`` and ``-A <= B`` give ``|A| <= B``). An
``abs(u)`` is replaced only where ``u``'s sign is proved on the whole piece, so the
replacement has the same value (and is defined) at every point of it. Hence "every piece
proved" proves the goal. A counterexample of a piece is a point of the goal's domain where
the goal fails (pieces are subsets, and ``A > B`` gives ``|A| > B``): the caller still
re-certifies it on the original relation before reporting it. This module decides nothing
itself; nested at most :data:`MAX_DEPTH` deep.
"""
from __future__ import annotations

import contextvars
from dataclasses import dataclass
from fractions import Fraction

from ..expr.domains import Domain
from ..expr.nodes import Add, Const, Func, Mul, Node, Num, Pow, Rel, Sym, substitute

__all__ = ["MAX_DEPTH", "Piece", "box_sign", "depth", "drop_abs", "has_abs", "nested", "pieces"]

MAX_DEPTH = 2            # case splits nested in the pieces of a case split
MAX_SPLIT_SYMBOLS = 2    # symbols whose domain is cut at 0 in one split (up to 4 boxes)
SIGN_CALLS = 12          # z3 sign queries per split
SIGN_MS = 200            # each one's budget (z3 rlimit, smt.RLIMIT_PER_MS per ms)
_MINUS = Num(Fraction(-1))
_ZERO = Fraction(0)
# odd functions increasing through 0: sign(f(u)) = sign(u)
_SIGN_OF_ARG = ("atan", "tanh", "sinh", "asinh", "erf")
_depth: contextvars.ContextVar[int] = contextvars.ContextVar("cases_depth", default=0)


@dataclass(frozen=True)
class Piece:
    """One piece of a split: the relation ``a rel b`` on ``domains`` under ``extra``, what
    it is (``label``: "d >= 0", "the case +(...)"), and the symbols it writes as ``-v``
    (``flips``: its point ``v = w`` is the goal's ``v = -w``)."""
    a: Node
    rel: str
    b: Node
    domains: dict
    extra: list
    label: str
    flips: tuple[str, ...] = ()      # symbols written as -v (the half v <= 0): a point maps back by v -> -v
    halves: tuple[tuple[str, str], ...] = ()   # (v, "+" | "-") for each cut symbol: v >= 0 or v <= 0
    case: str | None = None                    # "+" / "-": the case A <= B / -A <= B of |A| <= B
    signs: tuple[tuple[Node, int], ...] = ()   # (u, +1 | -1): abs(u) replaced by u / -u, u's sign proved


def depth() -> int:
    return _depth.get()


class nested:
    """Context: the pieces of a split are decided one level deeper."""

    def __enter__(self):
        self._tok = _depth.set(_depth.get() + 1)

    def __exit__(self, *exc):
        _depth.reset(self._tok)
        return False


# ----------------------------------------------------------------------------- signs
def _neg(s: int | None) -> int | None:
    return None if s is None else -s


def _shape_sign(n: Node, domains: dict[str, Domain], box: dict | None = None) -> int | None:
    """1: ``n >= 0``, -1: ``n <= 0``, 0: ``n == 0`` at every point of the domains where it
    is defined, from its shape (and, with ``box``, the domains' bounded box: a part with no
    rule here is enclosed over it in ball arithmetic); None: no rule."""
    s = _rule_sign(n, domains, box)
    return _enclosed_sign(n, box) if s is None and isinstance(n, (Add, Mul, Pow)) else s


def _rule_sign(n: Node, domains: dict[str, Domain], box: dict | None) -> int | None:
    if isinstance(n, Num):
        return (n.value > 0) - (n.value < 0)
    if isinstance(n, Const):
        return 1 if n.name in ("pi", "E") else None
    if isinstance(n, Sym):
        return _sym_sign(n, domains)
    if isinstance(n, Mul):
        out = 1
        for f in n.args:
            s = _shape_sign(f, domains, box)
            if s is None:
                return None
            out *= s
        return out
    if isinstance(n, Add):
        signs = {_shape_sign(t, domains, box) for t in n.args} - {0}
        if not signs:
            return 0
        return signs.pop() if len(signs) == 1 and None not in signs else None
    if isinstance(n, Pow):
        return _pow_sign(n, domains, box)
    if isinstance(n, Func):
        if n.name in ("exp", "cosh", "abs", "sqrt") and len(n.args) == 1:
            return 1
        if n.name in _SIGN_OF_ARG and len(n.args) == 1:
            s = _shape_sign(n.args[0], domains, box)
            if s is not None:
                return s
        if n.name in ("sin", "cos", "tan", "log") and len(n.args) == 1:
            s = _by_argument(n.name, n.args[0], box)
            if s is not None:
                return s
    return _enclosed_sign(n, box)


def _by_argument(name: str, u: Node, box: dict | None) -> int | None:
    """The sign of sin/cos/tan/log(u) from an enclosure of ``u`` over the box: sin >= 0 on
    [0, pi] and <= 0 on [-pi, 0], cos >= 0 on [-pi/2, pi/2], tan >= 0 on [0, pi/2] and <= 0
    on [-pi/2, 0] (where defined), log >= 0 on [1, oo) and <= 0 on (0, 1]."""
    if box is None or not u.symbols() <= set(box):
        return None
    import flint

    from ..backends import arb as A
    try:
        lo, hi = A.enclose_interval(u, {k: box[k] for k in u.symbols()}, prec=64)
    except (A.Undefined, A.Unresolved, A.TooLarge):
        return None
    pi = flint.arb.pi()
    if name == "log":
        return 1 if lo >= 1 else (-1 if hi <= 1 else None)
    if name == "cos":
        return 1 if lo >= -pi / 2 and hi <= pi / 2 else None
    top = pi if name == "sin" else pi / 2
    if lo >= 0 and hi <= top:
        return 1
    if lo >= -top and hi <= 0:
        return -1
    return None


def _sym_sign(n: Sym, domains: dict[str, Domain]) -> int | None:
    d = domains.get(n.name)
    if d is None:
        return None
    if d.lo is not None and d.hi is not None and d.lo == d.hi == 0:
        return 0
    if d.lo is not None and d.lo >= 0:
        return 1
    if d.hi is not None and d.hi <= 0:
        return -1
    return None


def _enclosed_sign(n: Node, box: dict | None) -> int | None:
    """The sign of ``n`` from one arb enclosure over the whole box (which raises where
    ``n`` may be undefined on it), or None."""
    if box is None or not n.symbols() <= set(box):
        return None
    from ..backends import arb as A
    from .budget import charge_nodes
    charge_nodes(n)
    try:
        e = A.enclose(n, {k: box[k] for k in n.symbols()}, prec=64)
    except (A.Undefined, A.Unresolved, A.TooLarge):
        return None
    return 1 if e >= 0 else (-1 if e <= 0 else None)


def _pow_sign(n: Pow, domains: dict[str, Domain], box: dict | None) -> int | None:
    sb = _shape_sign(n.base, domains, box)
    if sb == 1:
        return 1
    if isinstance(n.exp, Num) and n.exp.value.denominator == 1:
        k = n.exp.value.numerator
        if k % 2 == 0:
            return 1
        if sb is not None and (k > 0 or sb != 0):
            return sb
    return None


def bounded_box(domains: dict[str, Domain]) -> dict | None:
    """The domains' box {name: (lo, hi)} when every one is bounded, else None (its open ends
    closed: an enclosure over the closed box holds on the open one)."""
    if any(d.lo is None or d.hi is None for d in domains.values()):
        return None
    return {n: ((d.lo, d.hi) if d.lo != d.hi else d.lo) for n, d in domains.items()}


def box_sign(n: Node, domains: dict[str, Domain]) -> int | None:
    """1: ``n >= 0``, -1: ``n <= 0`` (0: ``n == 0``) at every point of the domains where
    ``n`` is defined: termwise from the shape, the factors without a rule enclosed over the
    domains' box in ball arithmetic (bounded domains); None: not shown."""
    return _shape_sign(n, domains, bounded_box(domains))


class _Signs:
    """Signs of ``abs`` arguments on one piece: shape rules, then z3 (a budget of calls)."""

    def __init__(self, domains: dict[str, Domain], extra: list, calls: list[int]) -> None:
        self.domains, self.extra, self.calls = domains, extra, calls
        self.found: list[tuple[Node, int]] = []      # (u, sign) of every abs(u) replaced

    def _z3(self, node: Node) -> bool:
        from ..verdicts import SmtStatus
        from .smt import decide_smt
        if self.calls[0] >= SIGN_CALLS:
            return False
        self.calls[0] += 1
        r = decide_smt(node, ">=", self.domains, self.extra, timeout_ms=SIGN_MS, want_model=False)
        return r.status is SmtStatus.PROVED

    def sign(self, u: Node) -> int | None:
        s = box_sign(u, self.domains)
        if s is not None:
            return s
        if self._z3(u):
            return 1
        if self._z3(Mul((_MINUS, u))):
            return -1
        return None


def drop_abs(node: Node, signs: _Signs) -> Node:
    """``node`` with every ``abs(u)`` whose ``u`` has a proved sign on the piece replaced by
    ``u`` or ``-u`` (innermost first: ``abs(abs(x) - 1)`` reads ``x``'s first)."""
    def f(n: Node) -> Node | None:
        if not (isinstance(n, Func) and n.name == "abs" and len(n.args) == 1):
            return None
        inner = drop_abs(n.args[0], signs)
        s = signs.sign(inner)
        if s is None:
            return Func("abs", (inner,))
        signs.found.append((inner, 1 if s >= 0 else -1))
        return inner if s >= 0 else negated(inner)
    return node.map(f)


def negated(u: Node) -> Node:
    """``-u``, a leading number negated rather than a factor -1 added (``-(-x)`` is ``x``)."""
    if isinstance(u, Mul) and u.args and isinstance(u.args[0], Num):
        c = -u.args[0].value
        rest = u.args[1:]
        if c == 1:
            return rest[0] if len(rest) == 1 else Mul(rest)
        return Mul((Num(c), *rest))
    if isinstance(u, Num):
        return Num(-u.value)
    return Mul((_MINUS, u))


def _has_abs(node: Node) -> bool:
    return any(isinstance(x, Func) and x.name == "abs" for x in node.unique_nodes())


def has_abs(*nodes: Node) -> bool:
    """Whether an ``abs`` occurs in one of ``nodes``."""
    return any(_has_abs(n) for n in nodes)


def _abs_symbols(node: Node) -> set[str]:
    return set().union(*(x.args[0].symbols() for x in node.unique_nodes()
                         if isinstance(x, Func) and x.name == "abs" and x.args))


def _straddles(d: Domain) -> bool:
    return not d.integer and (d.lo is None or d.lo < 0) and (d.hi is None or d.hi > 0)


def _clean(a: Node, rel: str, b: Node, domains: dict, extra: list, label: str, calls: list[int],
           flips: tuple[str, ...] = (), halves: tuple = (), case: str | None = None, signs: tuple = ()) -> Piece:
    s = _Signs(domains, extra, calls)
    pa, pb = drop_abs(a, s), drop_abs(b, s)
    return Piece(pa, rel, pb, domains, list(extra), label, flips, halves, case, signs + tuple(s.found))


# ----------------------------------------------------------------------------- the splits
def pieces(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra: list) -> list[Piece] | None:
    """The pieces of the goal ``a rel b`` (see the module docstring), all at once: the
    domain cut at 0 along every symbol that occurs inside an ``abs`` argument and whose
    domain straddles 0 (at most :data:`MAX_SPLIT_SYMBOLS`, in name order), then on each
    piece ``abs(A) <= B`` as its two cases where ``A``'s sign is not proved there; each
    piece with its ``abs`` removed where the sign is proved. None when the goal has no
    ``abs``, or when no piece has fewer ``abs`` than the goal (nothing would be gained)."""
    if rel not in ("<=", "<", ">=", ">") or not (_has_abs(a) or _has_abs(b)):
        return None
    calls = [0]
    used = Rel(rel, a, b).symbols()
    cuts = [v for v in sorted(_abs_symbols(a) | _abs_symbols(b))
            if v in used and v in domains and _straddles(domains[v])][:MAX_SPLIT_SYMBOLS]
    # the half v <= 0 is written with v -> -v (v >= 0 there): an even goal's two halves are
    # then one goal, and no piece has a domain unbounded below
    boxes: list[tuple[dict, list[str], tuple[str, ...], tuple]] = [(dict(domains), [], (), ())]
    for v in cuts:
        d = domains[v]
        halves = ((Domain(False, _ZERO, True, None if d.lo is None else -d.lo, d.lo_closed), f"{v} <= 0", (v,), "-"),
                  (Domain(False, _ZERO, True, d.hi, d.hi_closed), f"{v} >= 0", (), "+"))
        boxes = [({**doms, v: dom}, labels + [label], flips + flip, hs + ((v, h),)) for doms, labels, flips, hs in boxes
                 for dom, label, flip, h in halves]
    out: list[Piece] = []
    for doms, labels, flips, hs in boxes:
        mapping = {v: Mul((_MINUS, Sym(v))) for v in flips}
        pa, pb = substitute(a, mapping), substitute(b, mapping)
        pextra = [Rel(r.op, substitute(r.lhs, mapping), substitute(r.rhs, mapping)) for r in extra]
        label = ", ".join(labels) + (f" (as {', '.join(f'{v} -> -{v}' for v in flips)})" if flips else "")
        p = _clean(pa, rel, pb, doms, pextra, label, calls, flips, hs)
        out += _two_cases(p, doms, pextra, calls)
    if all(_count_abs(p.a) + _count_abs(p.b) >= _count_abs(a) + _count_abs(b) for p in out):
        return None
    return out


def _two_cases(p: Piece, domains: dict, extra: list, calls: list[int]) -> list[Piece]:
    """``abs(A) <= B`` (the smaller side an ``abs``) as ``A <= B`` and ``-A <= B``; other
    pieces as they are."""
    small, big = (p.a, p.b) if p.rel in ("<=", "<") else (p.b, p.a)
    if not (isinstance(small, Func) and small.name == "abs" and len(small.args) == 1):
        return [p]
    u = small.args[0]
    out = []
    for sgn, inner in ((1, u), (-1, negated(u))):
        lhs, rhs = (inner, big) if p.rel in ("<=", "<") else (big, inner)
        label = (p.label + ", " if p.label else "") + f"the case {'+' if sgn > 0 else '-'}({u})"
        out.append(_clean(lhs, p.rel, rhs, domains, extra, label, calls, p.flips, p.halves,
                          "+" if sgn > 0 else "-", p.signs))
    return out


def _count_abs(node: Node) -> int:
    return sum(isinstance(x, Func) and x.name == "abs" for x in node.walk())


