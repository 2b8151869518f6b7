"""Certificates of the decision procedure's verdicts: JSON-serialisable proof terms in the
vocabulary that the independent checker :mod:`boundcalc.recheck` re-verifies (its module
docstring, and docs/explanation/decision-procedure.md, describe the kinds: counterexample,
exact, boxes, rewrite, smt, cases, monotone, ends, induction, convexity, trusted).

Built only on request (``decide_relation(..., certify=True)``), after a layer has decided:
building one never changes a verdict. The ``boxes`` builder is a second method (a plain
bisection with one arb enclosure per box, or for the interval layer's Taylor-model proofs
the checker's second-order Taylor form, bounded domains only, at most :data:`MAX_LEAVES`
boxes), not the interval layer's own search; where it does not close the domain, or the
proof is of a kind the checker cannot re-verify (z3's unsat, SymPy's simplification, the
big-operator layer's nested decisions), the certificate says so: a ``trusted`` certificate
naming what is trusted.

Soundness contract: none to give; this module decides nothing (the checker does).
"""
from __future__ import annotations

from fractions import Fraction

from ..expr.domains import Domain
from ..expr.nodes import Node, Rel, sub
from ..expr.printing import to_text

MAX_LEAVES = 4096            # boxes of a `boxes` certificate
MAX_DEPTH = 40               # bisections along one path
PREC = 64                    # bits of the enclosures


def _q(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


MAX_BITS = 256              # a recorded enclosure end: a power of 2 of at most this many bits


def _short_below(x) -> Fraction | None:
    """A short number in (0, x] for an exact arb x > 0 (1, or a power 1/2**k), or None when
    x is below 2**-MAX_BITS: the enclosure's own end may have thousands of digits, or
    billions (10**10**10 is an ordinary ball), which a certificate need not carry and
    which is never written out as an integer here (arb compares it)."""
    from ..backends import arb as A
    k = 0
    while k <= MAX_BITS:
        if x >= A.ball(Fraction(1, 2 ** k)):
            return Fraction(1, 2 ** k)
        k = 1 if k == 0 else 2 * k
    return None


def _domain(d: Domain) -> dict:
    return {"integer": d.integer, "lo": None if d.lo is None else _q(d.lo), "lo_closed": d.lo_closed,
            "hi": None if d.hi is None else _q(d.hi), "hi_closed": d.hi_closed}


def name(n: str) -> str:
    """A symbol's name as the checker's parser reads it: a component of an indexed symbol
    (``a[i]``, a variable of its own once separated, expr.indexed) becomes ``a_i_``, and the
    claim and its proof use that name throughout (a function of the name alone)."""
    return n if n.isidentifier() else "".join(c if c.isalnum() or c == "_" else "_" for c in n)


def readable(x: Node) -> Node:
    """``x`` with every symbol named by :func:`name`."""
    from ..expr.nodes import Sym
    if all(n.isidentifier() for n in x.symbols()):
        return x
    return x.map(lambda t: Sym(name(t.name)) if isinstance(t, Sym) and not t.name.isidentifier() else None)


class NameClash(ValueError):
    """Two symbols of a claim that the checker would read as one (``a[i]`` and a symbol
    literally named ``a_i_``): no certificate is written for it."""


def claim(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra) -> dict:
    """The claim ``a rel b`` on ``domains`` under the assumptions ``extra`` (relations)."""
    used = Rel(rel, a, b).symbols() | set().union(*(r.symbols() for r in extra))
    seen: dict[str, str] = {}
    for n in sorted(used | set(domains)):
        if seen.setdefault(name(n), n) != n:
            raise NameClash(f"the symbols {seen[name(n)]} and {n} are both {name(n)!r} to the checker")
    return {"lhs": to_text(readable(a)), "rel": rel, "rhs": to_text(readable(b)),
            "domains": {name(n): _domain(d) for n, d in sorted(domains.items()) if n in used},
            "assumptions": [to_text(readable(r)) for r in extra]}


def counterexample(the_claim: dict, point: dict) -> dict:
    """A counterexample certificate from a reported point (symbol -> exact "p/q")."""
    syms = set(the_claim["domains"])
    return {"kind": "counterexample", "claim": the_claim,
            "point": {name(k): str(v) for k, v in sorted(point.items()) if name(k) in syms}}


def trusted(the_claim: dict, by: str, how: str) -> dict:
    """A proof the checker cannot re-verify: ``by`` (z3, SymPy, a layer) and ``how``."""
    return {"kind": "trusted", "claim": the_claim, "by": by, "how": how}


def smt(the_claim: dict, by: str) -> dict | None:
    """An ``smt`` certificate of a proof by ``by`` (z3, SymPy): the exact SMT-LIB encoding
    of the claim's negation (its other function terms free reals), for a second solver (cvc5)
    in the checker; None for a claim outside the encoding (big operators, a query too long)."""
    from ..recheck import Invalid, NotEncodable, read_claim, smt_query
    try:
        query = smt_query(read_claim(the_claim))
    except (NotEncodable, Invalid, ValueError, RecursionError):
        return None
    return {"kind": "smt", "claim": the_claim, "by": by, "answer": "unsat", "query": query}


def rewrite(the_claim: dict, rule: str, sub_cert: dict) -> dict:
    """The claim proved through an equivalent one (``rule``), with that one's certificate."""
    return {"kind": "rewrite", "claim": the_claim, "rule": rule, "sub": sub_cert}


def exact(the_claim: dict, a: Node, rel: str, b: Node) -> dict | None:
    """An ``exact`` certificate when ``a - b`` is a polynomial (its degree in each symbol),
    else None; whether it vanishes is the checker's to find."""
    from ..recheck import Invalid, polynomial_degrees
    if rel not in ("==", "<=", ">="):
        return None
    try:
        degrees = polynomial_degrees(readable(sub(a, b)))
    except Invalid:
        return None
    return {"kind": "exact", "claim": the_claim, "degrees": {k: str(v) for k, v in sorted(degrees.items())}}


def boxes(the_claim: dict, a: Node, rel: str, b: Node, domains: dict[str, Domain], extra,
          taylor: bool = False) -> dict | None:
    """A ``boxes`` certificate (a bisection tree of the bounded domain, each leaf closed by
    an arb enclosure of the goal or of a failing assumption, or with ``taylor`` by the
    checker's second-order Taylor form, :func:`boundcalc.recheck.taylor_lower`), or None when
    the domain is unbounded or the bisection does not close within :data:`MAX_LEAVES` boxes."""
    if rel == "==":
        return None
    names = sorted(the_claim["domains"])
    lhs, rhs = (b, a) if rel in ("<=", "<") else (a, b)
    builder = _Builder(readable(sub(lhs, rhs)), rel in ("<", ">"), [readable(r) for r in extra], taylor)
    doms = {name(n): d for n, d in domains.items()}
    root: dict[str, tuple[Fraction, Fraction]] = {}
    for n in names:
        lo, hi = doms[n].lo, doms[n].hi
        if lo is None or hi is None:
            return None
        root[n] = (lo, hi)
    widths = {n: (hi - lo) or Fraction(1) for n, (lo, hi) in root.items()}
    tree = builder.cover(root, widths, 0)
    return None if tree is None else {"kind": "boxes", "claim": the_claim, "tree": tree}


class _Builder:
    def __init__(self, g: Node, strict: bool, extra: list, taylor: bool = False) -> None:
        self.g, self.strict, self.extra, self.taylor = g, strict, extra, taylor
        self.ders: tuple | None = None
        self.leaves = 0

    def _box(self, box: dict) -> dict:
        return {n: [_q(lo), _q(hi)] for n, (lo, hi) in box.items()}

    def _close(self, box: dict) -> dict | None:
        from ..backends import arb as A
        from ..recheck import taylor_derivatives, taylor_lower
        try:
            lo, _ = A.enclose_interval(self.g, dict(box), prec=PREC)
        except (A.Undefined, A.Unresolved, A.TooLarge):
            lo = None
        for by in ("goal", "taylor"):
            if by == "taylor":                 # the second-order Taylor form at the centre
                if self.ders is None:
                    self.ders = (taylor_derivatives(self.g, sorted(box)) if self.taylor and len(box) <= 4
                                 else None) or ()
                if not self.ders:
                    break
                lo = taylor_lower(self.g, box, PREC, self.ders)
            rec = _short_below(lo) if lo is not None and lo > 0 else None
            if rec is None and lo is not None and lo >= 0 and not self.strict:
                rec = Fraction(0)
            if rec is not None:
                return {"box": self._box(box), "by": by, "prec": PREC, "lower": _q(rec)}
        for i, r in enumerate(self.extra):
            if r.op == "==":
                continue
            e = sub(r.lhs, r.rhs) if r.op in (">=", ">") else sub(r.rhs, r.lhs)
            try:
                _, hi = A.enclose_interval(e, dict(box), prec=PREC)
            except (A.Undefined, A.Unresolved, A.TooLarge):
                continue
            short = _short_below(-hi) if hi < 0 else None
            rec = -short if short is not None else (Fraction(0) if hi <= 0 and r.op in ("<", ">") else None)
            if rec is not None:
                return {"box": self._box(box), "by": "assumption", "index": i, "prec": PREC, "upper": _q(rec)}
        return None

    def cover(self, box: dict, widths: dict, depth: int) -> dict | None:
        leaf = self._close(box)
        if leaf is not None:
            self.leaves += 1
            return leaf if self.leaves <= MAX_LEAVES else None
        if depth >= MAX_DEPTH or not box or self.leaves >= MAX_LEAVES:
            return None
        x = max(box, key=lambda n: ((box[n][1] - box[n][0]) / widths[n], n))
        lo, hi = box[x]
        if lo == hi:
            return None
        at = (lo + hi) / 2
        left = self.cover({**box, x: (lo, at)}, widths, depth + 1)
        if left is None:
            return None
        right = self.cover({**box, x: (at, hi)}, widths, depth + 1)
        if right is None:
            return None
        return {"box": self._box(box), "split": {"var": x, "at": _q(at)}, "parts": [left, right]}


def pieces(the_claim: dict, by: str, how: str, parts: list[dict]) -> dict:
    """A proof by pieces (a case split, a monotonicity argument's face) that the checker
    cannot replay as a whole: a ``trusted`` certificate naming the layer (``by``) and the
    argument (``how``), with each piece's own certificate kept under ``parts`` (already
    re-checked by the layer; the checker reads only ``by`` and ``how``)."""
    return {"kind": "trusted", "claim": the_claim, "by": by, "how": how, "parts": parts}


def cases(the_claim: dict, cuts: list[str], pieces: list[dict]) -> dict:
    """A case split the checker replays: the symbols cut at 0 (``cuts``) and each piece
    (``{"halves": {v: "+" | "-"}, "case": None | "+" | "-", "signs": [{"of": u, "sign": "+"
    | "-", "proof": cert}], "proof": cert}``, built by :func:`piece`)."""
    return {"kind": "cases", "claim": the_claim, "cuts": [name(v) for v in cuts], "pieces": pieces}


def piece(halves, case: str | None, signs: list[tuple[Node, int, dict]], proof: dict) -> dict:
    """One piece of a ``cases`` certificate: its half of each cut, its case of ``|A| <= B``,
    the signs of the absolute values it dropped (each with its certificate) and its proof."""
    return {"halves": {name(v): h for v, h in halves}, "case": case,
            "signs": [{"of": to_text(readable(u)), "sign": "+" if s > 0 else "-", "proof": c} for u, s, c in signs],
            "proof": proof}


def monotone(the_claim: dict, var: str, end: str, derivative: Node, sign: dict, face: dict) -> dict:
    """A reduction to the face ``var`` = its ``end`` ("lo" | "hi") by the sign of the
    partial derivative ``derivative`` (SymPy's: the checker takes it on trust), with the
    certificates of the sign (``sign``: derivative >= 0, or -derivative >= 0 at "hi") and of
    the face goal (``face``)."""
    return {"kind": "monotone", "claim": the_claim, "var": name(var), "end": end,
            "derivative": to_text(readable(derivative)), "sign": sign, "face": face}


def interval(d: Domain) -> dict:
    """A piece's interval in an ``ends`` certificate."""
    return {k: v for k, v in _domain(d).items() if k != "integer"}


def ends(the_claim: dict, var: str, pieces: list[dict]) -> dict:
    """The domain of the one symbol ``var`` cut into ``pieces``, each closed by its
    argument: ``{"by": "middle", interval, "proof": cert}``, ``{"by": "taylor", interval,
    "at": "lo" | "hi", "derivatives": [g', ..., g^(k)]}`` or ``{"by": "monotone", interval,
    "derivative": g', "direction": 1 | -1, "strict": bool, "proof": cert of direction * g'
    >= 0 (> 0), "least": {"by": "cut" | "point" | "zero" | "limit", "value": L}}``."""
    return {"kind": "ends", "claim": the_claim, "var": name(var), "pieces": pieces}
