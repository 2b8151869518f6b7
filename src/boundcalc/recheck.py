"""The independent checker of certificates: :func:`recheck` re-verifies a proof term that
the decision procedure (:mod:`boundcalc.prover`) returned with a verdict, using only the
expression language (:mod:`boundcalc.expr`: the parser, exact rational evaluation) and
ball arithmetic (:mod:`boundcalc.backends.arb`). It imports nothing of the prover, the
services or the registry (the ``recheck-independent`` contract of pyproject.toml), and no
SymPy: its verdict does not rest on the search that found the proof.

The vocabulary (documented in docs/explanation/decision-procedure.md). Every certificate
is a JSON object with ``"kind"`` and ``"claim"``; a claim is the statement as the decision
procedure read it::

    {"lhs": "x**2 + 1", "rel": ">=", "rhs": "2*x",
     "domains": {"x": {"integer": false, "lo": "0", "lo_closed": false, "hi": null, "hi_closed": false}},
     "assumptions": ["x <= y"]}

(numbers are exact rationals written "p/q"; a relation holds where both sides are defined, at every point of the
domains where the assumptions hold). The kinds, each with the fields the table of docs/explanation/decision-procedure.md
("Certificates") describes and with what the checker verifies there (each function below says it again for its kind):

``counterexample`` (an exact point where the relation fails), ``exact`` (a polynomial
identity zero on a grid above its degrees, :func:`_exact`; or the identity layer's argument,
:func:`_identity`), ``boxes`` (a bisection of the bounded domain, each leaf closed by an arb
enclosure, a failing assumption or the second-order Taylor form, :class:`_Boxes`),
``rewrite`` (an equivalence, trusted and named, and the equivalent claim's certificate),
``smt`` (:func:`_smt`), ``cases``, ``monotone``, ``ends``, ``induction``, ``convexity`` (a
Jensen instance, :func:`_convexity`) and ``trusted`` (``by``, ``how``: a proof the checker
cannot re-verify, listed in :attr:`Recheck.trusted`, never hidden).

Every fact a kind cannot verify itself is listed as "trusted: ..." (SymPy's simplification,
a derivative or a limit, z3's unsat), never a whole layer taken on trust where the checker
can replay the argument.

Anything else (an unknown kind, a missing field, a number that does not parse, a box that does not match its parent)
makes the certificate invalid, with the reason; the checker never raises on a malformed certificate.
"""
from __future__ import annotations

import contextlib
import itertools
import math
from dataclasses import dataclass, field, replace
from fractions import Fraction

from .errors import BoundcalcError
from .expr.domains import Domain
from .expr.nodes import Add, Func, Mul, Node, Num, Pow, Rel, Sym, sub
from .expr.parser import parse

KINDS = ("counterexample", "exact", "boxes", "rewrite", "smt", "cases", "monotone", "ends", "induction", "convexity", "trusted")
MAX_PREC = 4096                 # bits: a sign not separated from 0 by then is not certified
MAX_GRID = 100_000              # points of an `exact` grid
MAX_LEAVES = 50_000             # leaves of a `boxes` tree
FLIP = {"<=": ">=", "<": ">", ">=": ">=", ">": ">", "==": "=="}


@dataclass
class Recheck:
    """The checker's answer: ``valid``, the ``reason`` (why not, or what was checked), the
    facts it accepted without re-verifying them (``trusted``: "z3", "rewrite ..."), and the
    steps it was told not to re-prove in this run (``not_rechecked``: an ``smt`` step's
    second-solver re-proof under ``recheck(..., solver=False)``)."""
    valid: bool
    reason: str
    trusted: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)      # the kinds met, outermost first
    not_rechecked: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Valid with nothing taken on trust and nothing left unchecked: the checker
        re-verified every step."""
        return self.valid and not self.trusted and not self.not_rechecked

    @property
    def status(self) -> str:
        """The label an output gives the certificate: "rechecked", "rechecked up to trusted
        facts", "certificate attached, not rechecked" (``boundcalc recheck FILE`` runs it), "rejected"."""
        if not self.valid:
            return "rejected"
        if self.not_rechecked:
            return "certificate attached, not rechecked"
        return "rechecked up to trusted facts" if self.trusted else "rechecked"

    def to_json(self) -> dict:
        return {"valid": self.valid, "complete": self.complete, "status": self.status, "reason": self.reason,
                "trusted": list(self.trusted), "not_rechecked": list(self.not_rechecked), "kinds": list(self.kinds)}


class Invalid(Exception):
    """A certificate that does not check (the message is the reason)."""


# ----------------------------------------------------------------------------- reading
def _num(text) -> Fraction:
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise Invalid(f"not an exact number: {text!r}")
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise Invalid(f"not an exact number: {text!r}") from None


def _expr(text) -> Node:
    if not isinstance(text, str):
        raise Invalid(f"not an expression: {text!r}")
    try:
        return parse(text, allow_relation=False)
    except BoundcalcError as e:
        raise Invalid(f"the expression {text!r} does not parse: {e}") from None


def _get(d, key, typ=None):
    if not isinstance(d, dict) or key not in d:
        raise Invalid(f"missing field {key!r}")
    v = d[key]
    if typ is not None and not isinstance(v, typ):
        raise Invalid(f"field {key!r} is not a {typ.__name__}")
    return v


def _domain(spec) -> Domain:
    lo, hi = _get(spec, "lo"), _get(spec, "hi")
    return Domain(bool(_get(spec, "integer", bool)), None if lo is None else _num(lo),
                  bool(_get(spec, "lo_closed", bool)), None if hi is None else _num(hi),
                  bool(_get(spec, "hi_closed", bool)))


@dataclass
class Claim:
    """A certificate's claim, read: ``lhs rel rhs`` on ``domains`` under ``assumptions``
    (each a (lhs, rel, rhs) of nodes)."""
    lhs: Node
    rel: str
    rhs: Node
    domains: dict[str, Domain]
    assumptions: list[tuple[Node, str, Node]]

    def symbols(self) -> set[str]:
        out = self.lhs.symbols() | self.rhs.symbols()
        for a, _, b in self.assumptions:
            out |= a.symbols() | b.symbols()
        return out


def _relation(text) -> tuple[Node, str, Node]:
    if not isinstance(text, str):
        raise Invalid(f"not a relation: {text!r}")
    try:
        r = parse(text)
    except BoundcalcError as e:
        raise Invalid(f"the assumption {text!r} does not parse: {e}") from None
    if not isinstance(r, Rel):
        raise Invalid(f"the assumption {text!r} is not a relation")
    return r.lhs, r.op, r.rhs


def read_claim(c) -> Claim:
    rel = _get(c, "rel", str)
    if rel not in FLIP:
        raise Invalid(f"unknown relation {rel!r}")
    doms = {n: _domain(s) for n, s in _get(c, "domains", dict).items()}
    claim = Claim(_expr(_get(c, "lhs")), rel, _expr(_get(c, "rhs")), doms,
                  [_relation(t) for t in _get(c, "assumptions", list)])
    missing = sorted(claim.symbols() - set(doms))
    if missing:
        raise Invalid(f"the claim has no domain for {', '.join(missing)}")
    return claim


# ----------------------------------------------------------------------------- signs
MAX_EXACT_BITS = 100_000        # exact evaluation only of trees whose values stay about this small


def _bits(n: Node) -> float:
    """A bound of the bits of ``n``'s exact value from sums, products and integer powers
    (inf for anything else: ball arithmetic then), so that 10**10**10 is never expanded."""
    if isinstance(n, Num):
        return max(n.value.numerator.bit_length(), n.value.denominator.bit_length(), 1)
    if isinstance(n, Sym):
        return 64.0
    if isinstance(n, (Add, Mul)):
        parts = [_bits(k) for k in n.args]
        return max(parts) + len(parts) if isinstance(n, Add) else sum(parts)
    if isinstance(n, Pow) and isinstance(n.exp, Num) and n.exp.value.denominator == 1:
        return _bits(n.base) * max(1, abs(n.exp.value.numerator))
    if isinstance(n, Func) and n.name in ("abs", "min", "max"):       # exact on exact arguments
        return max(_bits(k) for k in n.args)
    return float("inf")


def _sign_at(node: Node, env: dict[str, Fraction]) -> int:
    """The sign of ``node`` at the exact point ``env`` (-1, 0, 1), from exact rational
    evaluation where it applies, else from ball arithmetic; Invalid if neither decides."""
    from .backends import arb as A
    from .expr.exact import NotExact, evaluate_exact
    try:
        if _bits(node) + 64 * len(env) <= MAX_EXACT_BITS:
            v = evaluate_exact(node, env)
            return (v > 0) - (v < 0)
    except NotExact:
        pass
    except (ZeroDivisionError, KeyError) as e:
        raise Invalid(f"undefined at the point: {e}") from None
    prec = 64
    while prec <= MAX_PREC:
        try:
            x = A.enclose(node, env, prec=prec)
        except A.Undefined as e:
            raise Invalid(f"undefined at the point: {e}") from None
        except A.TooLarge as e:
            raise Invalid(f"too large at the point: {e}") from None
        except A.Unresolved:
            x = None
        if x is not None and (x > 0 or x < 0):
            return 1 if x > 0 else -1
        prec *= 4
    raise Invalid("a sign not separated from 0 in ball arithmetic (a sign 0 needs exact evaluation)")


def _holds(rel: str, s: int) -> bool:
    return {"<=": s <= 0, ">=": s >= 0, "<": s < 0, ">": s > 0, "==": s == 0}[rel]


# ----------------------------------------------------------------------------- the kinds
def _counterexample(cert, claim: Claim, out: Recheck, depth: int = 0, solver: bool = True) -> None:
    point = {n: _num(v) for n, v in _get(cert, "point", dict).items()}
    missing = sorted(claim.symbols() - set(point))
    if missing:
        raise Invalid(f"the point has no value for {', '.join(missing)}")
    for n, v in point.items():
        if n in claim.domains and not claim.domains[n].contains(v):
            raise Invalid(f"{n} = {v} is outside its domain ({n} {claim.domains[n].describe()})")
    for i, (a, rel, b) in enumerate(claim.assumptions):
        if not _holds(rel, _sign_at(sub(a, b), point)):
            raise Invalid(f"assumption {i} does not hold at the point")
    if _holds(claim.rel, _sign_at(sub(claim.lhs, claim.rhs), point)):
        raise Invalid("the relation holds at the point: no counterexample")
    out.reason = "counterexample: the relation fails at an exact point of the domains where every assumption holds"


def polynomial_degrees(n: Node) -> dict[str, int]:
    """The degree of the polynomial ``n`` in each of its symbols (an upper bound), or
    Invalid if ``n`` is not a polynomial with rational coefficients."""
    if isinstance(n, Num):
        return {}
    if isinstance(n, Sym):
        return {n.name: 1}
    if isinstance(n, (Add, Mul)):
        out: dict[str, int] = {}
        for arg in n.args:
            for x, d in polynomial_degrees(arg).items():
                out[x] = max(out.get(x, 0), d) if isinstance(n, Add) else out.get(x, 0) + d
        return out
    if isinstance(n, Pow) and isinstance(n.exp, Num) and n.exp.value.denominator == 1 and n.exp.value >= 0:
        k = int(n.exp.value)
        return {x: d * k for x, d in polynomial_degrees(n.base).items()}
    raise Invalid(f"not a polynomial (at {type(n).__name__}): finitely many exact points prove only polynomials")


def _exact(cert, claim: Claim, out: Recheck, depth: int = 0, solver: bool = True) -> None:
    """``by`` "grid" (or absent; ``degrees``: symbol -> a degree bound): ``lhs - rhs`` is a
    polynomial of at most those degrees (the checker's own count), exactly 0 on the grid
    {0, ..., d_x} x ...: then it is the zero polynomial (by induction on the symbols: each
    coefficient in x, a polynomial in the others, vanishes at d_x + 1 values of x), so ``==``
    (and ``<=``, ``>=``) holds everywhere. Random points would be no proof; the grid is."""
    if cert.get("by") == "value":               # a constant claim: its sign, exact or in balls
        g = sub(claim.lhs, claim.rhs)
        v = None if g.symbols() else exact_value(g, {})
        if g.symbols() or not _holds(claim.rel, _sign_at(g, {}) if v is None else (v > 0) - (v < 0)):
            raise Invalid("not a constant relation that holds")
        out.reason = "exact: a constant relation, its sign computed"
        return
    if cert.get("by", "grid") != "grid":
        _identity(cert, claim, out, depth, solver)
        return
    if claim.rel not in ("==", "<=", ">="):
        raise Invalid(f"an identity does not prove a strict relation {claim.rel!r}")
    g = sub(claim.lhs, claim.rhs)
    bound = {n: _num(v) for n, v in _get(cert, "degrees", dict).items()}
    for x, d in polynomial_degrees(g).items():
        if x not in bound or bound[x] < d or bound[x].denominator != 1:
            raise Invalid(f"the degree bound of {x} is below its degree {d} in lhs - rhs")
    size = _zero_polynomial(g, {x: int(d) for x, d in bound.items()})
    out.reason = f"exact: a polynomial identity, zero on a grid of {size} points above its degrees"


def _zero_polynomial(g: Node, bound: dict[str, int] | None = None) -> int:
    """The size of the grid on which the polynomial ``g`` (degrees at most ``bound``, else its
    own, constants folded) is exactly 0, so the zero polynomial (:func:`_exact`); else Invalid."""
    g = _fold(g) if bound is None else g
    degrees = polynomial_degrees(g)
    bound = bound if bound is not None else degrees
    names = sorted(degrees)
    size = 1
    for x in names:
        size *= bound[x] + 1
    if size > MAX_GRID:
        raise Invalid(f"a grid of {size} points (more than {MAX_GRID})")
    for values in itertools.product(*(range(bound[x] + 1) for x in names)):
        env = {x: Fraction(v) for x, v in zip(names, values)}
        if _sign_at(g, env) != 0:
            raise Invalid(f"lhs - rhs is not 0 at {env}")
    return size


def _nonzero_base(e: Node) -> Node:
    """``u`` for ``e = u**k`` (k a natural number, repeatedly): ``u != 0`` gives ``e != 0``."""
    while isinstance(e, Pow) and isinstance(e.exp, Num) and e.exp.value.denominator == 1 and e.exp.value > 0:
        e = e.base
    return e


def _found(given: list[Claim], lhs: Node, rel: str, rhs: Node, domains: dict[str, Domain], assumptions: list) -> bool:
    """Whether some claim of ``given`` is ``lhs rel rhs`` on ``domains`` under ``assumptions``."""
    for c in given:
        with contextlib.suppress(Invalid):
            _is(c, lhs, rel, rhs, domains, assumptions, "")
            return True
    return False


def _subs(cert, key: str, out: Recheck, depth: int, solver: bool) -> list[Claim]:
    """The claims of the list of sub-certificates ``cert[key]``, once each checks."""
    return [_sub({"c": c}, "c", out, depth, solver) for c in _get(cert, key, list)]


def _identity(cert, claim: Claim, out: Recheck, depth: int, solver: bool) -> None:
    """The identity layer's ``lhs == rhs`` (prover/identity.py). ``by`` "normal form": SymPy
    simplifies ``lhs - rhs`` to 0 (tanh through exp, logarithms expanded), trusted and named;
    the claim's exact points (:func:`_spot_check`) reject a false identity nonzero at one.
    ``by`` "derivatives", ``point`` p, ``defined`` and ``star`` (certificates): every partial
    derivative of D = lhs - rhs is 0 (SymPy's simplification, trusted and named); p lies in
    the closed real box, the assumptions and every definedness condition of both sides (the
    checker's own) strictly true there; D(p) = 0 (exactly, else trusted to SymPy);
    ``defined`` proves each condition, oriented by its sign at p, strictly on the region R
    (the real box under the assumptions), ``star`` each assumption at p + t (x - p) for t in
    (0, 1], x in R. So D is smooth near R, constant along each segment from p: 0 on R."""
    from .expr.nodes import substitute
    from .expr.singularities import definedness
    by = _get(cert, "by", str)
    if claim.rel != "==" or by not in ("normal form", "derivatives"):
        raise Invalid(f"an identity argument {by!r} of a relation {claim.rel!r}")
    d = sub(claim.lhs, claim.rhs)
    if by == "normal form":
        out.trusted.append("trusted: SymPy simplification (lhs - rhs simplifies to 0 where both sides are defined)")
        out.reason = "exact: the two sides have the same normal form (SymPy's), checked at exact points"
        return
    names = sorted(claim.symbols())
    real = {n: replace(claim.domains[n], integer=False) for n in names}
    p = {n: _num(v) for n, v in _get(cert, "point", dict).items()}
    if not _smooth(d) or sorted(p) != names or not all(_inside(_closure(real[n]), p[n]) for n in names):
        raise Invalid("a derivative argument needs smooth functions and a point of the closed box")
    if not all(_holds(r, _sign_at(sub(a, b), p)) for a, r, b in claim.assumptions):
        raise Invalid("an assumption fails at the point")
    v = exact_value(d, p)
    if v is not None and v != 0 or v is None and _sign_at_or_none(d, p) not in (None, 0):
        raise Invalid("lhs - rhs is not 0 at the point")
    defined, zero = _subs(cert, "defined", out, depth, solver), Num(Fraction(0))
    for c in definedness(claim.lhs) + definedness(claim.rhs):
        s = _sign_at(c.expr, p)
        if not (s > 0 or (s < 0 and c.op == "!=")):
            raise Invalid("a definedness condition fails at the point")
        if not c.expr.symbols():
            continue                           # a constant's: true everywhere
        e = _nonzero_base(c.expr) if c.op == "!=" else c.expr
        goal = e if _sign_at(e, p) > 0 else Mul((Num(Fraction(-1)), e))
        if not _found(defined, goal, ">", zero, real, claim.assumptions):
            raise Invalid("a definedness condition is not proved on the region")
    t = "t_star"
    while t in names:
        t += "_"
    seg = {n: Add((Num(p[n]), Mul((Sym(t), sub(Sym(n), Num(p[n])))))) for n in names}
    doms = {**real, t: Domain(False, Fraction(0), False, Fraction(1), True)}
    star = _subs(cert, "star", out, depth, solver)
    for a, r, b in claim.assumptions:
        lhs, rhs = substitute(a, seg), substitute(b, seg)
        goal, op = (sub(rhs, lhs), FLIP[r]) if r in ("<=", "<") else (sub(lhs, rhs), r)
        if not _found(star, goal, op, zero, doms, claim.assumptions):
            raise Invalid("the region is not proved star-shaped about the point")
    if v is None:
        out.trusted.append("trusted: SymPy (lhs - rhs = 0 exactly at the point)")
    out.trusted.append("trusted: SymPy simplification (every partial derivative of lhs - rhs is 0)")
    out.reason = "exact: the derivatives vanish on a region star-shaped about a point where the sides agree"


def _box(spec, names: list[str]) -> dict[str, tuple[Fraction, Fraction]]:
    b = _get(spec, "box", dict)
    if sorted(b) != names:
        raise Invalid(f"a box over {sorted(b)}, not the claim's symbols {names}")
    out = {}
    for n in names:
        ends = b[n]
        if not isinstance(ends, list) or len(ends) != 2:
            raise Invalid(f"the box's range of {n} is not [lo, hi]")
        lo, hi = _num(ends[0]), _num(ends[1])
        if lo > hi:
            raise Invalid(f"the box's range of {n} is reversed")
        out[n] = (lo, hi)
    return out


def _root_box(claim: Claim, names: list[str]) -> dict[str, tuple[Fraction, Fraction]]:
    out = {}
    for n in names:
        d = claim.domains[n]
        if d.lo is None or d.hi is None:
            raise Invalid(f"the domain of {n} is unbounded: a box cover needs a bounded domain")
        out[n] = (d.lo, d.hi)
    return out


class _Boxes:
    """The walk over a `boxes` tree (docs/explanation/decision-procedure.md)."""

    def __init__(self, claim: Claim) -> None:
        self.claim = claim
        self.names = sorted(claim.lhs.symbols() | claim.rhs.symbols()
                            | set().union(*(a.symbols() | b.symbols() for a, _, b in claim.assumptions)))
        lhs, rhs = (claim.rhs, claim.lhs) if claim.rel in ("<=", "<") else (claim.lhs, claim.rhs)
        self.g, self.strict = sub(lhs, rhs), claim.rel in ("<", ">")
        self.leaves = 0
        self.ders: tuple | None = None          # the Taylor leaves' derivatives, computed once

    def check(self, node, box: dict) -> None:
        if _box(node, self.names) != box:
            raise Invalid(f"a box {node.get('box')} is not the part of its parent the split says")
        if "split" in node:
            split = _get(node, "split", dict)
            x, at = _get(split, "var", str), _num(_get(split, "at"))
            if x not in box or not box[x][0] < at < box[x][1]:
                raise Invalid(f"a split of {x} at {at} outside the box's range")
            parts = _get(node, "parts", list)
            if len(parts) != 2:
                raise Invalid("a split without two parts")
            self.check(parts[0], {**box, x: (box[x][0], at)})
            self.check(parts[1], {**box, x: (at, box[x][1])})
            return
        self.leaves += 1
        if self.leaves > MAX_LEAVES:
            raise Invalid(f"more than {MAX_LEAVES} boxes")
        self._leaf(node, box)

    def _leaf(self, node, box: dict) -> None:
        from .backends import arb as A
        by, prec = _get(node, "by", str), _get(node, "prec", int)
        if not 16 <= prec <= MAX_PREC:
            raise Invalid(f"a precision of {prec} bits")
        if by in ("goal", "taylor"):
            expr, strict, key = self.g, self.strict, "lower"
        elif by == "assumption":
            i = _get(node, "index", int)
            if not 0 <= i < len(self.claim.assumptions):
                raise Invalid(f"no assumption {i}")
            a, rel, b = self.claim.assumptions[i]
            if rel == "==":
                raise Invalid("an equality assumption does not close a box")
            expr = sub(a, b) if rel in (">=", ">") else sub(b, a)
            strict, key = rel in ("<", ">"), "upper"
        else:
            raise Invalid(f"a box closed by {by!r}")
        recorded = _num(_get(node, key))
        if by == "taylor":                    # the checker's own derivatives, computed once
            if self.ders is None:
                self.ders = taylor_derivatives(expr, self.names) or ()
            if (lo := taylor_lower(expr, box, prec, self.ders)) is None:
                raise Invalid(f"no Taylor form over the box {box} (g or a derivative undefined there)")
        else:
            try:
                lo, hi = A.enclose_interval(expr, dict(box), prec=prec)
            except (A.Undefined, A.Unresolved, A.TooLarge) as e:
                raise Invalid(f"no enclosure over the box {box}: {e}") from None
        # compared as balls (an end may have billions of digits: never written out)
        if key == "lower":
            if not (lo >= A.ball(recorded) and (recorded > 0 if strict else recorded >= 0)):
                raise Invalid(f"the enclosure's lower end {lo} over {box} does not close the box")
        elif not (hi <= A.ball(recorded) and (recorded <= 0 if strict else recorded < 0)):
            raise Invalid(f"assumption's enclosure upper end {hi} over {box} does not exclude the box")


def _boxes(cert, claim: Claim, out: Recheck, depth: int = 0, solver: bool = True) -> None:
    if claim.rel == "==":
        raise Invalid("a box cover does not prove an equality")
    walk = _Boxes(claim)
    walk.check(_get(cert, "tree", dict), _root_box(claim, walk.names))
    out.reason = f"boxes: {walk.leaves} boxes cover the domain, each closed by an arb enclosure"


# ----------------------------------------------------------------------------- smt
MAX_SMT_POWER = 64              # x**k written out as a product up to this |k|
CVC5_RLIMIT = 500_000           # cvc5's deterministic resource limit per query (rlimit-per)
CVC5_NET_CPU = 10               # seconds of CPU time of the child running it: the net of a procedure
                                # that ignores the rlimit (never a wall clock)
MAX_QUERY = 20_000              # characters of an `smt` query


class NotEncodable(Exception):
    """A claim outside the ``smt`` encoding (the message says what)."""


def _lit(x: Fraction) -> str:
    body = f"{abs(x.numerator)}.0" if x.denominator == 1 else f"(/ {abs(x.numerator)}.0 {x.denominator}.0)"
    return f"(- {body})" if x < 0 else body


class _Smt:
    """The exact SMT-LIB encoding of a claim's negation (:func:`smt_query`)."""

    def __init__(self, taken: set[str]) -> None:
        self.defs: list[str] = []
        self.names: list[str] = []
        self.memo: dict[Node, str] = {}
        self.taken = taken
        self.abstracted: list[str] = []     # the terms taken as free reals (see _abstract)

    def fresh(self) -> str:
        k = len(self.names)
        while f"_t{k}" in self.taken:          # never a symbol of the claim
            k += 1
        self.taken.add(f"_t{k}")
        self.names.append(f"|_t{k}|")
        return self.names[-1]

    def power(self, b: str, k: int) -> str:
        if k > 1 and b.startswith("("):            # a compound base named once, never copied k times
            t = self.fresh()
            self.defs.append(f"(= {t} {b})")
            b = t
        return b if k == 1 else "(* " + " ".join([b] * k) + ")"

    def term(self, n: Node) -> str:
        if n not in self.memo:
            self.memo[n] = self._term(n)
        return self.memo[n]

    def _rational_exponent(self, e: Node) -> Fraction | None:
        from .expr.exact import NotExact, evaluate_exact
        if e.symbols():
            return None
        try:
            v = evaluate_exact(e, {})
        except (NotExact, ZeroDivisionError):
            return None
        return v if abs(v.numerator) <= MAX_SMT_POWER and v.denominator <= 8 else None

    def _abstract(self, n: Node, fact: str = "") -> str:
        """``n`` (log(u), exp(u), b**y, pi, ...) as a fresh real about which the query says
        nothing but ``fact`` (true of every real u: exp(u) > 0; 3 < pi < 22/7). The same subtree
        is one name (:meth:`term` memoizes). Unsat then proves the claim for *every* value of
        the term, its true one included: sound, though cvc5 misses what needs more of it."""
        from .expr.printing import to_text
        t = self.fresh()
        self.abstracted.append(f"{t} is {to_text(n)}")
        if fact:
            self.defs.append(fact.format(t))
        return t

    def _root(self, b: str, v: Fraction) -> str:
        p, q = abs(v.numerator), v.denominator
        t = self.fresh()
        if v.numerator > 0:
            self.defs += [f"(>= {t} 0.0)", f"(>= {b} 0.0)", f"(= {self.power(t, q)} {self.power(b, p)})"]
        else:
            pos = "(> {} 0.0)" if q > 1 else "(not (= {} 0.0))"
            self.defs += ([pos.format(b), f"(> {t} 0.0)"] if q > 1 else [pos.format(b)])
            self.defs.append(f"(= (* {self.power(t, q)} {self.power(b, p)}) 1.0)")
        return t

    def _term(self, n: Node) -> str:
        from .expr.nodes import Const, Func
        if isinstance(n, Num):
            return _lit(n.value)
        if isinstance(n, Sym):
            return f"|{n.name}|"
        if isinstance(n, (Add, Mul)):
            return ("(+ " if isinstance(n, Add) else "(* ") + " ".join(self.term(a) for a in n.args) + ")"
        if isinstance(n, Pow):
            v = self._rational_exponent(n.exp)
            if v is None:                # b**y, b**pi, b**100 (no sign: (-1)**k for an integer k)
                return self._abstract(n)
            b = self.term(n.base)
            if v.denominator == 1 and v >= 0:
                return "1.0" if v == 0 else self.power(b, int(v))
            return self._root(b, v)
        if isinstance(n, Func) and n.name == "sqrt" and len(n.args) == 1:
            return self._root(self.term(n.args[0]), Fraction(1, 2))
        if isinstance(n, Func) and n.name == "abs" and len(n.args) == 1:
            u = self.term(n.args[0])
            return f"(ite (>= {u} 0.0) {u} (- {u}))"
        if isinstance(n, Func) and n.name in ("min", "max") and len(n.args) >= 1:
            out = self.term(n.args[0])
            for a in n.args[1:]:
                u = self.term(a)
                out = f"(ite ({'<=' if n.name == 'min' else '>='} {out} {u}) {out} {u})"
            return out
        if isinstance(n, Func):
            return self._abstract(n, "(> {} 0.0)" if n.name == "exp" else "")
        if isinstance(n, Const) and n.name in CONST_BOUNDS:
            lo, hi = CONST_BOUNDS[n.name]
            return self._abstract(n, f"(and (< {_lit(lo)} {{0}}) (< {{0}} {_lit(hi)}))")
        raise NotEncodable(f"{type(n).__name__} {getattr(n, 'name', '')}".strip())


SMT_REL = {"<=": "<=", ">=": ">=", "<": "<", ">": ">", "==": "="}
CONST_BOUNDS = {"pi": (Fraction(3), Fraction(22, 7)), "E": (Fraction(2), Fraction(3))}


def smt_query(claim: Claim) -> str:
    """The SMT-LIB text whose unsatisfiability proves ``claim``: a point of the domains
    (integers relaxed to reals), where every assumption holds, every term of the claim is
    defined (its named quotients and roots satisfy their definitions), its other function
    terms take any real values (a comment line names each) and the relation fails.
    NotEncodable for a claim outside the encoding."""
    return _encode(claim)[0]


def _encode(claim: Claim) -> tuple[str, list[str]]:
    """(:func:`smt_query`'s text, the terms taken as free reals)."""
    enc = _Smt(set(claim.symbols()))
    body = []
    for name in sorted(claim.symbols()):
        d, x = claim.domains[name], f"|{name}|"
        if d.lo is not None:
            body.append(f"({'>=' if d.lo_closed or d.integer else '>'} {x} {_lit(d.lo)})")
        if d.hi is not None:
            body.append(f"({'<=' if d.hi_closed or d.integer else '<'} {x} {_lit(d.hi)})")
    for a, rel, b in claim.assumptions:
        body.append(f"({SMT_REL[rel]} {enc.term(a)} {enc.term(b)})")
    body.append(f"(not ({SMT_REL[claim.rel]} {enc.term(claim.lhs)} {enc.term(claim.rhs)}))")
    decls = [f"(declare-fun |{n}| () Real)" for n in sorted(claim.symbols())]
    decls += [f"(declare-fun {t} () Real)" for t in enc.names]
    notes = [f"; {t} (a free real)" for t in enc.abstracted]
    text = "\n".join(["(set-logic QF_NRA)", *notes, *decls, *(f"(assert {c})" for c in enc.defs + body),
                      "(check-sat)"])
    if len(text) > MAX_QUERY:
        raise NotEncodable(f"a query of more than {MAX_QUERY} characters")
    return text, enc.abstracted


_CVC5: dict[str, str] = {}
ANSWERS = ("unsat", "sat", "unknown", "net")


def _cvc5_run(query: str) -> str:
    """cvc5's answer to ``query`` in this process, within :data:`CVC5_RLIMIT` resource units
    per check (a count of its steps, not a clock)."""
    import cvc5
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("rlimit-per", str(CVC5_RLIMIT))
    symbols = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, query, "certificate")
    answer = "unknown"
    try:
        while not (cmd := parser.nextCommand()).isNull():
            said = cmd.invoke(solver, symbols).strip()
            if said:
                answer = said if said in ("sat", "unsat") else "unknown"
    except RuntimeError:
        answer = "unknown"
    return answer


def _cvc5_child(query: str) -> str:
    """:func:`_cvc5_run` in a forked child whose CPU time (not wall-clock: the same under any
    load) is capped at :data:`CVC5_NET_CPU` seconds: "net" if that cap stopped it."""
    import os
    import resource
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:                                   # the child: answer, write, exit
        try:
            os.close(r)
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            resource.setrlimit(resource.RLIMIT_CPU, (CVC5_NET_CPU, CVC5_NET_CPU + 1))
            os.write(w, _cvc5_run(query).encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as pipe:
        said = pipe.read().decode(errors="replace")
    os.waitpid(pid, 0)
    return said if said in ANSWERS[:3] else "net"


def cvc5_answer(query: str) -> str:
    """cvc5's answer to ``query`` ("unsat", "sat", "unknown" within its work limit, "net"
    when its CPU-time net stopped it), or "absent" when cvc5 is not installed. Its limit is
    :data:`CVC5_RLIMIT` resource units; its nonlinear-coverings procedure does not count
    them (a 10-variable claim of anon2025 ran > 180 s), so it runs in a forked child with a
    CPU-time net. No wall clock: a busy machine gives the same answers."""
    if query in _CVC5:
        return _CVC5[query]
    try:
        import cvc5  # noqa: F401
    except ImportError:
        return "absent"
    import os
    answer = _cvc5_child(query) if hasattr(os, "fork") else _cvc5_run(query)
    if len(_CVC5) < 4096:
        _CVC5[query] = answer
    return answer


def _smt(cert, claim: Claim, out: Recheck, depth: int = 0, solver: bool = True) -> None:
    by = _get(cert, "by", str)
    try:
        query, free = _encode(claim)
    except NotEncodable as e:
        raise Invalid(f"the claim is outside the smt encoding ({e})") from None
    if _get(cert, "query", str) != query:
        raise Invalid("the query is not the exact encoding of the claim's negation")
    if not solver:
        # the cheap recheck (decide's, for a verdict whose certificate is not handed out):
        # the query is the claim's encoding, but nobody re-proved it in this run
        out.not_rechecked.append(f"not rechecked: {by}'s proof (cvc5's re-proof runs on request: "
                                 "boundcalc recheck FILE)")
        out.reason = f"certificate attached, not rechecked ({by}'s proof)"
        return
    answer = cvc5_answer(query)
    if answer == "sat" and not free:
        raise Invalid("cvc5 finds a point where the claim fails (sat)")
    if answer == "unsat":
        out.reason = ("smt: cvc5 finds the exact encoding of the claim's negation unsatisfiable" if not free else
                      f"smt: cvc5 finds the claim's negation unsatisfiable for any values of {len(free)} terms "
                      "taken as free reals (so for their true values too)")
        return
    why = {"absent": "cvc5 not installed", "sat": "cvc5 finds a model of the query, whose free reals "
           f"({len(free)}) may take values their terms cannot: no refutation, no proof",
           "net": f"cvc5 stopped by its CPU-time net ({CVC5_NET_CPU} s) before an answer"}.get(
               answer, f"cvc5 undecided within its work limit ({CVC5_RLIMIT} resource units)")
    out.trusted.append(f"trusted: {by} ({why})")
    out.reason = f"trusted: {by}"


# ----------------------------------------------------------------------------- pieces
MAX_FOLD_BITS = 4096            # an integer power folded only below this many bits (prover/fold.py's)


def _fold(n: Node) -> Node:
    """``n`` with its rational constant subtrees folded, zero terms and unit factors dropped
    and (b**p)**q written b**(p*q) for integers p, q, sums and products flattened: each an
    identity wherever ``n`` is defined. Two trees with the same fold have the same value at
    every point where both are defined (a sub-certificate's claim is the goal as its decision
    read it, constants folded: :func:`_same` compares the claim it must be with it)."""
    memo: dict[int, Node] = {}

    def go(t: Node) -> Node:
        if id(t) in memo:
            return memo[id(t)]
        kids = t.children()
        new = tuple(go(c) for c in kids)
        r = t if all(a is b for a, b in zip(new, kids)) else t._rebuild(new)
        if isinstance(r, (Add, Mul, Pow)):
            r = _fold_arith(r)
        memo[id(t)] = r
        return r
    return go(n)


def _fold_arith(n: Node) -> Node:
    kids = n.children()
    if all(isinstance(k, Num) for k in kids):
        vals = [k.value for k in kids]            # type: ignore[attr-defined]
        if isinstance(n, Add):
            return Num(sum(vals, Fraction(0)))
        if isinstance(n, Mul):
            out = Fraction(1)
            for v in vals:
                out *= v
            return Num(out)
        b, e = vals
        if e.denominator == 1 and not (b == 0 and e <= 0) and abs(e.numerator) * max(
                abs(b.numerator).bit_length(), b.denominator.bit_length(), 1) <= MAX_FOLD_BITS:
            return Num(b ** e.numerator)
        return n
    if isinstance(n, (Add, Mul)):
        unit = Fraction(0) if isinstance(n, Add) else Fraction(1)
        kept = [k for k in kids if not (isinstance(k, Num) and k.value == unit)]
        flat: list[Node] = []
        for k in kept:
            flat += list(k.args) if type(k) is type(n) else [k]    # type: ignore[attr-defined]
        nums = [k.value for k in flat if isinstance(k, Num)]        # type: ignore[attr-defined]
        if isinstance(n, Mul) and len(nums) > 1 and 0 not in nums:   # the numbers of a product as one
            c = Fraction(1)
            for v in nums:
                c *= v
            flat = [Num(c)] * (c != 1) + [k for k in flat if not isinstance(k, Num)]
        if not flat:
            return Num(unit)
        return flat[0] if len(flat) == 1 else type(n)(tuple(flat))
    base, ex = kids
    if (isinstance(base, Pow) and isinstance(ex, Num) and isinstance(base.exp, Num)
            and ex.value.denominator == 1 and base.exp.value.denominator == 1):
        e = base.exp.value * ex.value
        return base.base if e == 1 else Pow(base.base, Num(e))
    return n


def _same(x: Node, y: Node) -> bool:
    return _fold(x) == _fold(y)


def _is(given: Claim, lhs: Node, rel: str, rhs: Node, domains: dict[str, Domain],
        assumptions: list[tuple[Node, str, Node]], what: str) -> None:
    """``given`` (a sub-certificate's claim) is ``lhs rel rhs`` on ``domains`` under
    ``assumptions`` up to :func:`_fold`, its domains those of the symbols it uses (each the
    same); Invalid otherwise."""
    if given.rel != rel or not _same(given.lhs, lhs) or not _same(given.rhs, rhs):
        raise Invalid(f"{what}: its claim is not the one the argument needs")
    for n, d in given.domains.items():
        if domains.get(n) != d:
            raise Invalid(f"{what}: the domain of {n} is not the one the argument needs")
    if len(given.assumptions) != len(assumptions) or not all(
            r == s and _same(a, c) and _same(b, e) for (a, r, b), (c, s, e) in zip(given.assumptions, assumptions)):
        raise Invalid(f"{what}: its assumptions are not the claim's")


def _sub(cert, key: str, out: Recheck, depth: int, solver: bool) -> Claim:
    """The claim of the sub-certificate ``cert[key]``, once it checks."""
    s = _get(cert, key, dict)
    claim = read_claim(_get(s, "claim", dict))
    _check(s, out, depth + 1, solver)
    return claim


def _negated(u: Node) -> Node:
    """``-u`` as prover/cases.py writes it (a leading number negated, else a factor -1)."""
    if isinstance(u, Mul) and u.args and isinstance(u.args[0], Num):
        c, rest = -u.args[0].value, u.args[1:]
        if c == 1:
            return rest[0] if len(rest) == 1 else Mul(rest)
        return Mul((Num(c), *rest))
    if isinstance(u, Num):
        return Num(-u.value)
    return Mul((Num(Fraction(-1)), u))


def _drop_abs(node: Node, signs: dict[Node, int]) -> Node:
    """``node`` with every ``abs(u)`` whose ``u`` (its own abs dropped first) has a sign in
    ``signs`` (each shown by its sub-certificate; ``u`` exactly that tree) replaced by ``u``
    or ``-u``."""
    from .expr.nodes import Func

    def f(n: Node) -> Node | None:
        if not (isinstance(n, Func) and n.name == "abs" and len(n.args) == 1):
            return None
        inner = _drop_abs(n.args[0], signs)
        s = signs.get(inner)
        return Func("abs", (inner,)) if s is None else (inner if s > 0 else _negated(inner))
    return node.map(f)


def _cases(cert, claim: Claim, out: Recheck, depth: int, solver: bool) -> None:
    """Pieces covering the domain (the ``cases`` row of the docs' table)."""
    from itertools import product
    if claim.rel not in ("<=", "<", ">=", ">"):
        raise Invalid("a case split of an equality")
    cuts = _get(cert, "cuts", list)
    if len(set(cuts)) != len(cuts) or not all(isinstance(v, str) and v in claim.domains for v in cuts):
        raise Invalid("a cut of a symbol the claim has no domain for")
    seen: dict[tuple, set] = {}
    for i, piece in enumerate(_get(cert, "pieces", list)):
        halves, case = _case_piece(piece, i, claim, cuts, out, depth, solver)
        seen.setdefault(tuple(halves[v] for v in cuts), set()).add(case)
    for combo in product("+-", repeat=len(cuts)):
        if not (None in seen.get(combo, set()) or {"+", "-"} <= seen.get(combo, set())):
            raise Invalid("the pieces do not cover the domain (" + ", ".join(
                f"{v} {'>=' if h == '+' else '<='} 0" for v, h in zip(cuts, combo)) + " missing)")
    out.reason = f"cases: {len(seen)} part(s) of the domain cut at 0 along {len(cuts)} symbol(s), each proved"


def _case_piece(piece, i: int, claim: Claim, cuts: list, out: Recheck, depth: int, solver: bool):
    """One piece of a ``cases`` certificate checked: its claim re-derived (its halves, the
    absolute values its sign facts drop, its case) and its proof of that claim. Its halves
    and case."""
    from .expr.nodes import Func, Sym, substitute
    halves = _get(piece, "halves", dict)
    if sorted(halves) != sorted(cuts) or not set(halves.values()) <= {"+", "-"}:
        raise Invalid(f"piece {i}: not one half of each cut")
    doms, flip = dict(claim.domains), {}
    for v, h in halves.items():
        d = claim.domains[v]
        doms[v] = (Domain(False, Fraction(0), True, d.hi, d.hi_closed) if h == "+" else
                   Domain(False, Fraction(0), True, None if d.lo is None else -d.lo, d.lo_closed))
        if h == "-":                          # v <= 0 written with v -> -v: a bijection onto [0, -lo]
            flip[v] = Mul((Num(Fraction(-1)), Sym(v)))
    a, b = substitute(claim.lhs, flip), substitute(claim.rhs, flip)
    extra = [(substitute(x, flip), r, substitute(y, flip)) for x, r, y in claim.assumptions]
    signs: dict[Node, int] = {}
    for j, fact in enumerate(_get(piece, "signs", list)):
        u, s = _expr(_get(fact, "of")), _get(fact, "sign")
        if s not in ("+", "-"):
            raise Invalid(f"piece {i}: a sign {s!r}")
        got = _sub(fact, "proof", out, depth, solver)
        _is(got, u, ">=" if s == "+" else "<=", Num(Fraction(0)), doms, extra, f"piece {i}, sign {j}")
        signs[u] = 1 if s == "+" else -1
    a, b = _drop_abs(a, signs), _drop_abs(b, signs)
    case = _get(piece, "case")
    if case is not None:                      # |A| <= B as A <= B and -A <= B
        small, big = (a, b) if claim.rel in ("<=", "<") else (b, a)
        if case not in ("+", "-") or not (isinstance(small, Func) and small.name == "abs"):
            raise Invalid(f"piece {i}: a case {case!r} of a side that is not an absolute value")
        inner = small.args[0] if case == "+" else _negated(small.args[0])
        a, b = (inner, big) if claim.rel in ("<=", "<") else (big, inner)
        a, b = _drop_abs(a, signs), _drop_abs(b, signs)
    _is(_sub(piece, "proof", out, depth, solver), a, claim.rel, b, doms, extra, f"piece {i}")
    return halves, case


def _monotone(cert, claim: Claim, out: Recheck, depth: int, solver: bool) -> None:
    """A reduction to a face by a derivative's sign (the ``monotone`` row of the docs' table)."""
    from .expr.nodes import substitute
    v, end = _get(cert, "var", str), _get(cert, "end", str)
    if claim.rel not in ("<=", "<", ">=", ">") or end not in ("lo", "hi"):
        raise Invalid("a monotonicity argument needs an inequality and an end 'lo' or 'hi'")
    d = claim.domains.get(v)
    e = None if d is None else (d.lo if end == "lo" else d.hi)
    if d is None or d.integer or e is None or not (d.lo_closed if end == "lo" else d.hi_closed):
        raise Invalid(f"{v} has no closed finite {end} end")
    if any(v in x.symbols() | y.symbols() for x, _, y in claim.assumptions):
        raise Invalid(f"{v} occurs in an assumption: the set where they hold is not a cylinder along it")
    if v not in claim.lhs.symbols() | claim.rhs.symbols():
        raise Invalid(f"{v} does not occur in the claim")
    dg = _expr(_get(cert, "derivative"))
    deriv = dg if end == "lo" else Mul((Num(Fraction(-1)), dg))
    sign = _sub(cert, "sign", out, depth, solver)
    _is(sign, deriv, ">=", Num(Fraction(0)), claim.domains, claim.assumptions, "the derivative's sign")
    at = {v: Num(e)}
    rest = {n: dom for n, dom in claim.domains.items() if n != v}
    face = _sub(cert, "face", out, depth, solver)
    _is(face, substitute(claim.lhs, at), claim.rel, substitute(claim.rhs, at), rest, claim.assumptions, "the face")
    g = "lhs - rhs" if claim.rel in (">=", ">") else "rhs - lhs"
    out.trusted.append(f"trusted: SymPy derivative (d/d{v} of {g} is the certificate's 'derivative')")
    out.trusted.append(f"trusted: the monotonicity layer ({g} and its derivative in {v} defined on the whole "
                       "domain: continuously differentiable along every segment)")
    out.reason = f"monotone: the least value along {v} at {v} = {e}, the face proved"


# ----------------------------------------------------------------------------- derivatives
_HALF, _ONE, _MONE = Num(Fraction(1, 2)), Num(Fraction(1)), Num(Fraction(-1))


def derivative(n: Node, x: str) -> Node:
    """d/dx of ``n`` by the rules of the calculus (sums, products, powers, exp, log, sqrt,
    sin, cos, tan, tanh, atan, erf), the checker's own: valid wherever every function it
    names is differentiable (where the derivative's definedness conditions hold strictly).
    Invalid for anything else."""
    from .expr.nodes import Const, Func
    if x not in n.symbols():
        return Num(Fraction(0))
    if isinstance(n, Sym):
        return _ONE
    if isinstance(n, Add):
        return _fold(Add(tuple(derivative(t, x) for t in n.args)))
    if isinstance(n, Mul):
        terms = [Mul(n.args[:i] + (derivative(f, x),) + n.args[i + 1:]) for i, f in enumerate(n.args)
                 if x in f.symbols()]
        return _fold(Add(tuple(terms)))
    if isinstance(n, Pow):
        b, e = n.base, n.exp
        if x not in e.symbols():
            if isinstance(e, Num) and e.value == 1:
                return derivative(b, x)
            return _fold(Mul((e, Pow(b, _fold(Add((e, _MONE)))), derivative(b, x))))
        return _fold(Mul((n, Add((Mul((derivative(e, x), Func("log", (b,)))),
                                  Mul((e, derivative(b, x), Pow(b, _MONE))))))))
    if isinstance(n, Func) and len(n.args) == 1:
        u = n.args[0]
        du = derivative(u, x)
        outer = {"exp": lambda: n, "log": lambda: Pow(u, _MONE), "sqrt": lambda: Mul((_HALF, Pow(n, _MONE))),
                 "sin": lambda: Func("cos", (u,)), "cos": lambda: Mul((_MONE, Func("sin", (u,)))),
                 "tan": lambda: Add((_ONE, Pow(n, Num(Fraction(2))))),
                 "tanh": lambda: Add((_ONE, Mul((_MONE, Pow(n, Num(Fraction(2))))))),
                 "atan": lambda: Pow(Add((_ONE, Pow(u, Num(Fraction(2))))), _MONE),
                 "erf": lambda: Mul((Num(Fraction(2)), Pow(Const("pi"), Num(Fraction(-1, 2))),
                                     Func("exp", (Mul((_MONE, Pow(u, Num(Fraction(2))))),))))}.get(n.name)
        if outer is not None:
            return _fold(Mul((outer(), du)))
    raise Invalid(f"the checker does not differentiate {type(n).__name__} {getattr(n, 'name', '')}".strip())


_AT: dict[tuple[str, Fraction], int] = {
    (f, Fraction(a)): v for f, a, v in (("sin", 0, 0), ("tan", 0, 0), ("tanh", 0, 0), ("atan", 0, 0), ("erf", 0, 0),
                                        ("log", 1, 0), ("exp", 0, 1), ("cos", 0, 1), ("sqrt", 0, 0), ("sqrt", 1, 1))}


def exact_value(n: Node, env: dict[str, Fraction]) -> Fraction | None:
    """The exact value of ``n`` at ``env`` where rational arithmetic, the values of
    :data:`_AT` (sin 0 = 0, log 1 = 0, ...) and factorials of natural numbers give it, a product with a factor exactly 0 and
    the others defined there (ball arithmetic) being 0; None otherwise."""
    from .backends import arb as A
    from .expr.exact import NotExact, evaluate_exact
    from .expr.nodes import Func
    if isinstance(n, Add):
        terms = [exact_value(t, env) for t in n.args]
        return None if None in terms else sum((v for v in terms if v is not None), Fraction(0))
    if isinstance(n, Mul):
        vals = [exact_value(f, env) for f in n.args]
        if 0 in vals:
            try:
                for f, v in zip(n.args, vals):
                    if v is None:
                        A.enclose(f, env, prec=64)            # defined there (raises otherwise)
            except (A.Undefined, A.Unresolved, A.TooLarge):
                return None
            return Fraction(0)
        if None in vals:
            return None
        out = Fraction(1)
        for v in vals:
            out *= v                                          # type: ignore[operator]
        return out
    if isinstance(n, Func) and len(n.args) == 1:
        u = exact_value(n.args[0], env)
        if u is not None and (n.name, u) in _AT:
            return Fraction(_AT[(n.name, u)])
        k = None if u is None or u.denominator != 1 else int(u) - (n.name == "gamma")   # gamma(k + 1) = k!
        if n.name in ("factorial", "gamma") and k is not None and 0 <= k <= MAX_CHECKED:
            return Fraction(math.factorial(k))
    if isinstance(n, Func) and n.name in ("min", "max", "abs") and n.args:
        vals = [exact_value(a, env) for a in n.args]
        if None not in vals:
            return {"min": min, "max": max, "abs": abs}[n.name](*vals)      # type: ignore[operator]
    if isinstance(n, Pow):
        b, e = exact_value(n.base, env), exact_value(n.exp, env)
        if b is None or e is None:
            return None
        n, env = Pow(Num(b), Num(e)), {}
    try:
        return evaluate_exact(n, env) if _bits(n) + 64 * len(env) <= MAX_EXACT_BITS else None
    except (NotExact, ZeroDivisionError, KeyError, ValueError, OverflowError):
        return None


def _inside(d: Domain, x: Fraction) -> bool:
    return ((d.lo is None or d.lo < x or (d.lo == x and d.lo_closed))
            and (d.hi is None or x < d.hi or (d.hi == x and d.hi_closed)))


def _covered(parts: list[Domain], d: Domain) -> bool:
    """Whether the intervals ``parts`` cover the real interval ``d``: tested at every end of
    them and of ``d``, between consecutive ends and beyond the extreme ones (membership in an
    interval is constant between consecutive ends, so these points decide it)."""
    ends = sorted({e for p in [*parts, d] for e in (p.lo, p.hi) if e is not None})
    if not ends:
        pts = [Fraction(0)]
    else:
        pts = ends + [(a + b) / 2 for a, b in itertools.pairwise(ends)] + [ends[0] - 1, ends[-1] + 1]
    return all(any(_inside(p, x) for p in parts) for x in pts if _inside(d, x))


def _closure(d: Domain) -> Domain:
    return Domain(False, d.lo, d.lo is not None, d.hi, d.hi is not None)


def _zero_at(g: Node, x: str, e: Fraction, what: str, out: Recheck) -> None:
    """``g(e) = 0``: by exact evaluation where it applies, else listed as SymPy's."""
    v = exact_value(g, {x: e})
    if v is not None:
        if v != 0:
            raise Invalid(f"{what} is not 0 at {x} = {e}")
        return
    if _sign_at_or_none(g, {x: e}) not in (None, 0):
        raise Invalid(f"{what} is not 0 at {x} = {e}")
    out.trusted.append(f"trusted: SymPy ({what} = 0 exactly at {x} = {e})")


def _smooth(*nodes: Node) -> bool:
    """Whether ``nodes`` use smooth functions only (continuous, and smooth, where defined)."""
    from .expr.nodes import Func
    from .expr.singularities import SMOOTH_FUNCTIONS, is_smooth_language
    return all(is_smooth_language(n) and not any(isinstance(t, Func) and t.name not in SMOOTH_FUNCTIONS
                                                 for t in n.unique_nodes()) for n in nodes)


def _sign_at_or_none(g: Node, env) -> int | None:
    with contextlib.suppress(Invalid):
        return _sign_at(g, env)
    return None


def _enclosure_sign(g: Node, box: dict) -> int | None:
    """+1 / -1 when the arb enclosure of ``g`` over the closed box ``box`` (symbol -> (lo,
    hi) or a number) is > 0 / < 0."""
    from .backends import arb as A
    try:
        lo, hi = A.enclose_interval(g, {k: v if not isinstance(v, tuple) or v[0] != v[1] else v[0]
                                        for k, v in box.items()}, prec=128)
    except (A.Undefined, A.Unresolved, A.TooLarge):
        return None
    return 1 if lo > 0 else (-1 if hi < 0 else None)


def _defined_on(nodes: list[Node], box: dict) -> bool:
    """Every definedness condition of ``nodes`` holds strictly over the closed ``box`` (one
    enclosure each): all of them are then smooth on a neighbourhood of it."""
    from .expr.singularities import definedness
    for n in nodes:
        for c in definedness(n):
            s = _enclosure_sign(c.expr, box) if c.expr.symbols() else _sign_at_or_none(c.expr, {})
            if not (s == 1 or (s == -1 and c.op == "!=")):
                return False
    return True


def taylor_derivatives(g: Node, names: list[str]) -> tuple[dict, dict] | None:
    """The checker's gradient and Hessian (i <= j) of ``g`` in ``names``, or None."""
    try:
        grad = {x: derivative(g, x) for x in names}
        return grad, {(x, y): derivative(grad[x], y) for i, x in enumerate(names) for y in names[i:]}
    except Invalid:
        return None


def taylor_lower(g: Node, box: dict[str, tuple[Fraction, Fraction]], prec: int, ders: tuple | None = None):
    """A lower bound (an arb) of ``g`` over the closed ``box`` by the second-order Taylor form
    at its centre m, or None: ``g(x) = g(m) + grad g(m).h + (1/2) h^T H(xi) h`` (h = x - m, xi
    in the convex box), with the checker's own derivatives (``ders``: :func:`taylor_derivatives`),
    g(m), grad g(m) balls at m, each Hessian entry enclosed over the box, h_i in [-r_i, r_i],
    h_i^2 in [0, r_i^2]; None unless g and those derivatives are defined strictly over the box."""
    from flint import arb

    from .backends import arb as A
    names = sorted(box)
    ders = taylor_derivatives(g, names) if ders is None else ders
    if not ders:
        return None
    grad, hess = ders
    try:
        if not _defined_on([g, *grad.values(), *hess.values()], box):
            return None
        mid = {x: (lo + hi) / 2 for x, (lo, hi) in box.items()}
        with A.precision(prec):
            r = {x: A.ball((hi - lo) / 2) for x, (lo, hi) in box.items()}
            total = A.enclose(g, mid, prec=prec)
            for x in names:                    # grad g(m).h, h_x in [-r_x, r_x]
                total += A.enclose(grad[x], mid, prec=prec) * r[x] * arb(0, 1)
            for (x, y), h in hess.items():     # H_xy h_x h_y (twice, x != y); (1/2) H_xx h_x^2 >= 0 or
                lo, hi = A.enclose_interval(h, box, prec=prec)     # >= (1/2) lower(H_xx) r_x^2
                if x != y:
                    total += lo.union(hi) * r[x] * r[y] * arb(0, 1)
                elif lo < 0:
                    total += lo * r[x] * r[x] / 2
            return total.lower()
    except (A.Undefined, A.Unresolved, A.TooLarge):
        return None


def _ends(cert, claim: Claim, out: Recheck, depth: int, solver: bool) -> None:
    """One symbol's domain cut into pieces, each closed by its argument (the ``ends`` row of
    the docs' table)."""
    x = _get(cert, "var", str)
    if claim.rel not in ("<=", "<", ">=", ">") or claim.assumptions or claim.symbols() != {x}:
        raise Invalid("an ends argument is of an inequality in its one symbol, without assumptions")
    g = sub(claim.lhs, claim.rhs) if claim.rel in (">=", ">") else sub(claim.rhs, claim.lhs)
    if not _smooth(g):
        raise Invalid("an ends argument needs smooth functions only (continuous where defined)")
    strict, dom = claim.rel in ("<", ">"), claim.domains[x]
    real = Domain(False, dom.lo, dom.lo_closed, dom.hi, dom.hi_closed)
    parts = []
    for i, piece in enumerate(_get(cert, "pieces", list)):
        by = _get(piece, "by", str)
        d = _domain({**piece, "integer": False})                # the piece's interval
        what = f"piece {i} ({by})"
        if by == "middle":
            _is(_sub(piece, "proof", out, depth, solver), g, ">" if strict else ">=", Num(Fraction(0)),
                {x: d}, [], what)
            parts.append(d)
        elif by == "taylor":
            _taylor_piece(piece, g, x, d, strict, real, what, out)
            parts.append(d)
        elif by == "monotone":
            _monotone_piece(piece, g, x, d, strict, real, what, out, depth, solver)
            parts.append(_closure(d))          # g is continuous where defined: the ends follow
        else:
            raise Invalid(f"{what}: unknown argument")
    if not _covered(parts, real):
        raise Invalid("the pieces do not cover the domain")
    out.reason = f"ends: {len(parts)} piece(s) cover the domain of {x}, each closed by its argument"


def _taylor_piece(piece, g: Node, x: str, d: Domain, strict: bool, real: Domain, what: str, out: Recheck) -> None:
    """Taylor at the piece's end ``at``: g, ..., g^(k-1) vanish there, g^(k) has the sign
    that makes g(x) = g^(k)(xi) (x - e)^k / k! positive over the closed piece. The
    derivatives are the checker's own (:func:`derivative`) where their enclosure closes the
    piece, else the certificate's (SymPy's: then trusted)."""
    given = [g] + [_expr(t) for t in _get(piece, "derivatives", list)]
    at, k = _get(piece, "at", str), len(given) - 1
    e = d.lo if at == "lo" else d.hi if at == "hi" else None
    if e is None or d.lo is None or d.hi is None:
        raise Invalid(f"{what}: not a bounded piece with a finite end {at!r}")
    if k >= 1 and strict and _inside(real, e) and _inside(d, e):
        raise Invalid(f"{what}: g = 0 at {x} = {e}, a point of the domain: '>' fails there")
    want = 1 if at == "lo" or k % 2 == 0 else -1
    own: list[Node] = [g]
    try:
        for _ in range(k):
            own.append(derivative(own[-1], x))
    except Invalid:
        own = []
    for ders in ([own] if own else []) + [given]:
        # every definedness condition strict over the closed piece: g is C^k on it
        if _defined_on(ders, {x: (d.lo, d.hi)}) and _enclosure_sign(ders[k], {x: (d.lo, d.hi)}) == want:
            break
    else:
        raise Invalid(f"{what}: the order-{k} derivative is not of the sign needed over the closed piece "
                      "(or not defined on it)")
    for j in range(k):
        _zero_at(ders[j], x, e, "g" if j == 0 else f"the order-{j} derivative", out)
    if ders is given and k:
        out.trusted.append(f"trusted: SymPy derivative (the derivatives of g in {x} up to order {k})")


def _monotone_piece(piece, g: Node, x: str, d: Domain, strict: bool, real: Domain, what: str, out: Recheck,
                    depth: int, solver: bool) -> None:
    """g monotone on the piece by a proved sign of ``direction`` * g', least at ``least``."""
    dg = _expr(_get(piece, "derivative"))
    direction, least = _get(piece, "direction"), _get(piece, "least", dict)
    if direction not in (1, -1):
        raise Invalid(f"{what}: a direction {direction!r}")
    tight = bool(_get(piece, "strict", bool))
    slope = dg if direction == 1 else Mul((Num(Fraction(-1)), dg))
    _is(_sub(piece, "proof", out, depth, solver), slope, ">" if tight else ">=", Num(Fraction(0)), {x: d}, [],
        f"{what}: the slope")
    e = d.lo if direction == 1 else d.hi               # where g is least on the piece
    how = _get(least, "by", str)
    if how == "cut":                                   # a closed end of the piece, g > 0 there
        if e is None or not (d.lo_closed if direction == 1 else d.hi_closed) or _sign_at(g, {x: e}) <= 0:
            raise Invalid(f"{what}: g is not > 0 at the closed end where it is least")
    elif how == "point":
        if e is None or _sign_at(g, {x: e}) <= 0:
            raise Invalid(f"{what}: g is not > 0 at the end where it is least")
    elif how == "zero":
        if e is None:
            raise Invalid(f"{what}: no finite end where g is least")
        _zero_at(g, x, e, "g", out)
        if strict and (not tight or _inside(real, e)):
            raise Invalid(f"{what}: g tends to 0 at {x} = {e}: '>' needs a strict slope and the end outside")
    elif how == "limit":
        lim = _expr(_get(least, "value"))
        s = 0 if lim == Num(Fraction(0)) else _sign_at(lim, {})
        if s < 0 or (s == 0 and strict and (not tight or (e is not None and _inside(real, e)))):
            raise Invalid(f"{what}: the limit of g at its end does not give the relation")
        where = "infinity" if e is None else f"{x} = {e}"
        out.trusted.append(f"trusted: SymPy limit (the limit of g at {where} is {_get(least, 'value')})")
    else:
        raise Invalid(f"{what}: g least by {how!r}")
    out.trusted.append(f"trusted: SymPy derivative (g' in {x})")
    out.trusted.append(f"trusted: the ends layer (g and g' defined on the piece {what}: the mean value theorem)")


def _convexity(cert, claim: Claim, out: Recheck, depth: int, solver: bool) -> None:
    """A Jensen instance (prover/convexity.py): ``f`` (in ``var`` t alone), ``scale`` c,
    ``weights`` {x_i: w_i > 0} summing to 1, the ``single`` side and its ``arg``, ``second``
    (f'' of c*f: trusted to SymPy, named), ``sign`` (the certificate of f'' >= 0, or -f'' >=
    0, on t in the hull H of the x_i's real domains), ``defined`` (each definedness condition
    of c*f and f'' > 0 on H). Checked as polynomial identities, each f(.) an opaque symbol
    (:func:`_zero_polynomial`): the single side is c*f(arg), arg = sum w_i x_i, the other side
    sum c*w_i*f(x_i). c*f is then C^2 and convex (concave) on H: Jensen, non-strict."""
    from .expr.nodes import substitute
    from .expr.singularities import definedness
    t, single = _get(cert, "var", str), _get(cert, "single", str)
    f, c, arg = _expr(_get(cert, "f")), _num(_get(cert, "scale")), _expr(_get(cert, "arg"))
    w, f2 = {x: _num(v) for x, v in _get(cert, "weights", dict).items()}, _expr(_get(cert, "second"))
    if (claim.rel not in ("<=", ">=") or single not in ("lhs", "rhs") or t in claim.domains or c == 0
            or f.symbols() != {t} or len(w) < 2 or any(v <= 0 for v in w.values()) or sum(w.values()) != 1
            or not set(w) <= set(claim.domains) or not _smooth(f, f2)):    # (f, f'' smooth: C^2 on the hull)
        raise Invalid("not a Jensen instance: its relation, weights, smooth function or variable")
    one, mean = (claim.lhs, claim.rhs) if single == "lhs" else (claim.rhs, claim.lhs)
    u = {x: Sym(f"{t}_{x}") for x in ("",) + tuple(w)}
    if any(v.name in claim.domains for v in u.values()):     # (an opaque symbol must be new)
        raise Invalid("an opaque symbol's name is a symbol of the claim")

    def opaque(side: Node, at: dict) -> Node:
        targets = {_fold(substitute(f, {t: where})): u[x] for x, where in at.items()}
        return _fold(side).map(lambda n: targets.get(n))
    _zero_polynomial(sub(opaque(one, {"": arg}), Mul((Num(c), u[""]))))
    _zero_polynomial(sub(arg, Add(tuple(Mul((Num(v), Sym(x))) for x, v in w.items()))))
    _zero_polynomial(sub(opaque(mean, {x: Sym(x) for x in w}),
                         Add(tuple(Mul((Num(c * v), u[x])) for x, v in w.items()))))
    ds = [replace(claim.domains[x], integer=False) for x in w]
    los, his = [d.lo for d in ds if d.lo is not None], [d.hi for d in ds if d.hi is not None]
    lo, hi = min(los) if len(los) == len(ds) else None, max(his) if len(his) == len(ds) else None
    hull = Domain(False, lo, any(d.lo == lo and d.lo_closed for d in ds), hi, any(d.hi == hi and d.hi_closed for d in ds))
    cf = Mul((Num(c), f))
    concave = (single == "lhs") == (claim.rel == ">=")      # c*f(mean) >= the mean of c*f
    _is(_sub(cert, "sign", out, depth, solver), Mul((Num(Fraction(-1)), f2)) if concave else f2, ">=",
        Num(Fraction(0)), {t: hull}, [], "the sign of f''")
    out.trusted.append(f"trusted: SymPy derivative (the certificate's 'second' is d^2/d{t}^2 of scale*f)")
    defined = _subs(cert, "defined", out, depth, solver)
    for cond in definedness(cf) + definedness(f2):
        if not cond.expr.symbols() and (_sign_at(cond.expr, {}) > 0 or cond.op == "!=" and _sign_at(cond.expr, {}) < 0):
            continue
        e = _nonzero_base(cond.expr) if cond.op == "!=" else cond.expr
        signs = [e] + ([Mul((Num(Fraction(-1)), e))] if cond.op == "!=" else [])
        if not any(_found(defined, e, ">", Num(Fraction(0)), {t: hull}, []) for e in signs):
            raise Invalid("a definedness condition of c*f or f'' is not proved on the hull")
    out.reason = f"convexity: f'' of one sign on the hull of the {len(w)} points, Jensen's inequality"


MAX_CHECKED = 5000              # integers an `induction` certificate checks one by one


def _int_ends(d: Domain) -> tuple[int | None, int | None]:
    """The least and greatest integers of ``d`` (None: unbounded)."""
    lo = hi = None
    if d.lo is not None:
        lo = math.floor(d.lo) + 1 if (d.lo.denominator == 1 and not d.lo_closed) else math.ceil(d.lo)
    if d.hi is not None:
        hi = math.ceil(d.hi) - 1 if (d.hi.denominator == 1 and not d.hi_closed) else math.floor(d.hi)
    return lo, hi


def _at_integer(g: Node, n: str, k: int, strict: bool) -> bool:
    """Whether ``g >= 0`` (``> 0``) at ``n = k``; False where ``g`` is certainly undefined
    there (the relation says nothing at such a point), Invalid where it fails or is undecided."""
    from .backends import arb as A
    from .expr.nodes import substitute
    try:
        A.enclose(substitute(g, {n: Num(Fraction(k))}), {}, prec=64)
    except A.Undefined:
        return False
    except (A.Unresolved, A.TooLarge, ValueError, ZeroDivisionError, OverflowError):
        pass
    v = exact_value(g, {n: Fraction(k)})
    s = ((v > 0) - (v < 0)) if v is not None else _sign_at(g, {n: Fraction(k)})
    if s < 0 or (strict and s == 0):
        raise Invalid(f"the claim fails at {n} = {k}")
    return True


def _induction(cert, claim: Claim, out: Recheck, depth: int, solver: bool) -> None:
    """A relation in one integer symbol (the ``induction`` row of the docs' table)."""
    n = _get(cert, "var", str)
    d = claim.domains.get(n)
    if (claim.rel not in ("<=", "<", ">=", ">") or claim.assumptions or claim.symbols() != {n} or d is None
            or not d.integer):
        raise Invalid("an induction is of an inequality in one integer symbol, without assumptions")
    g = sub(claim.lhs, claim.rhs) if claim.rel in (">=", ">") else sub(claim.rhs, claim.lhs)
    op = ">" if claim.rel in ("<", ">") else ">="
    lo, hi = _int_ends(d)
    checked = _get(cert, "checked", list)
    if len(checked) != 2 or not all(isinstance(k, int) and not isinstance(k, bool) for k in checked):
        raise Invalid("'checked' is not [first, last]")
    first, last = checked
    if lo is None or first != lo or last - first > MAX_CHECKED:
        raise Invalid(f"the integers checked do not start at the domain's least integer {lo} (or are too many)")
    defined = {k for k in range(first, last + 1) if (hi is None or k <= hi) and _at_integer(g, n, k, op == ">")}
    step = _get(cert, "step", dict)
    by = _get(step, "by", str)
    if by == "none":
        if hi is None or last < hi:
            raise Invalid("the integers checked do not reach the domain's greatest integer")
        out.reason = f"induction: every integer of the domain checked ({len(defined)} where defined)"
        return
    n0 = _get(step, "from", int)
    if by not in ("relaxation", "step", "opaque", "ratio", "limit") or n0 < lo or (by == "ratio" and n0 < 1) or (
            by == "limit" and hi is not None):
        raise Invalid(f"an induction step {by!r} from {n0}")
    if by in ("relaxation", "limit") and last < n0 - 1:
        raise Invalid(f"the integers below n0 = {n0} are not all checked")
    if by in ("step", "opaque", "ratio") and (last < n0 or n0 not in defined):
        raise Invalid(f"the base case {n} = {n0} is not checked (or g is undefined there)")
    _step(step, by, g, op, n, n0, hi, out, depth, solver)
    out.reason = f"induction: {n} = {first}..{last} checked, the {by.replace('step', 'inductive')} step from {n0} proved"


def _step(step, by: str, g: Node, op: str, n: str, n0: int, hi: int | None, out: Recheck, depth: int,
          solver: bool) -> None:
    """An induction's step from n0, its ``proof`` of a claim on the reals from n0: ``g op 0``
    (relaxation), ``g op 0 => next op 0`` (step), ``hyp op 0 => next op 0`` for every F > 0 of
    ``symbols`` (opaque), ``ratio >= 0`` (g = A - B: A(k) op B(k) gives A(k + 1) op B(k + 1)),
    ``decrease >= 0`` (> 0 if ``strict``: a sequence non-increasing to ``limit`` L, L - ``target``
    >= 0, or > 0 or strict for ``>``). What SymPy derived (next, hyp, ratio, decrease, L) is trusted."""
    real = {n: Domain(False, Fraction(n0), True, None if hi is None else Fraction(hi), hi is not None)}
    zero, proof = Num(Fraction(0)), _sub(step, "proof", out, depth, solver)
    if by == "relaxation":
        _is(proof, g, op, zero, real, [], "the real relaxation")
        return
    if by in ("ratio", "limit"):
        tight = by == "limit" and _get(step, "strict", bool)
        _is(proof, _expr(_get(step, by if by == "ratio" else "decrease")), ">" if tight else ">=", zero, real, [],
            f"the {by} step")
        why = {"ratio": "g = A - B with A, B > 0 from n = 1 and 'ratio' = log(A(n + 1)/A(n)) - log(B(n + 1)/B(n))",
               "limit": "the sequence (g, or A/B for g = A - B with A, B > 0) and its 'decrease' (s(n) - s(n + 1), "
                        "or log(s(n)/s(n + 1)))"}[by]
        out.trusted.append(f"trusted: SymPy (the {by} step: {why})")
        if by == "ratio":
            return
        lim = _get(step, "limit", str)
        side = _sign_at(sub(_expr(lim), Num(Fraction(_get(step, "target", int)))), {})
        if side < 0 or (side == 0 and op == ">" and not tight):
            raise Invalid("the limit of the sequence does not give the relation")
        out.trusted.append(f"trusted: SymPy limit (the sequence's limit at infinity is {lim})")
        if _get(step, "form", str) == "ratio":
            return
    nxt = _expr(_get(step, "next")) if by != "limit" else g
    if by == "opaque":
        doms = {k: _domain(v) for k, v in _get(step, "symbols", dict).items()}
        if not doms or any(d != Domain(False, Fraction(0), False, None, False) or k in real for k, d in doms.items()):
            raise Invalid("the opaque step's symbols are not each F > 0")
        _is(proof, nxt, op, zero, {**real, **doms}, [(_expr(_get(step, "hyp")), op, zero)], "the opaque step")
        out.trusted.append("trusted: SymPy (the opaque step: 'hyp' and 'next' are g and g(n + 1) with each "
                           "factorial/gamma of n + c a symbol F > 0, factorial(n + c + 1) = (n + c + 1)*F)")
    elif by == "step":
        _is(proof, nxt, op, zero, real, [(g, op, zero)], "the inductive step")
        out.trusted.append(f"trusted: SymPy (the step's 'next' is g at {n} + 1)")
    from .expr.singularities import definedness
    if any(c.expr.symbols() for c in definedness(g)):
        out.trusted.append(f"trusted: the integer layer (g defined at every integer from {n0}: no break in the "
                           "chain of steps)")
    elif not all(_sign_at(c.expr, {}) > 0 or (c.op == "!=" and _sign_at(c.expr, {}) < 0) for c in definedness(g)):
        raise Invalid("g is undefined everywhere")


def _check(cert, out: Recheck, depth: int = 0, solver: bool = True) -> None:
    if depth > 16:
        raise Invalid("certificates nested more than 16 deep")
    kind = _get(cert, "kind", str)
    if kind not in KINDS:
        raise Invalid(f"unknown kind {kind!r}")
    out.kinds.append(kind)
    if kind == "trusted":
        by = _get(cert, "by", str)
        out.trusted.append(f"trusted: {by}" + (f" ({cert['how']})" if isinstance(cert.get("how"), str) else ""))
        out.reason = f"trusted: {by}"
        return
    if kind == "rewrite":
        read_claim(_get(cert, "claim", dict))
        sub_cert = _get(cert, "sub", dict)
        read_claim(_get(sub_cert, "claim", dict))
        out.trusted.append(f"trusted: rewrite ({_get(cert, 'rule', str)}; prover/rewrite.py's equivalence)")
        _check(sub_cert, out, depth + 1, solver)
        return
    {"counterexample": _counterexample, "exact": _exact, "boxes": _boxes, "smt": _smt, "cases": _cases,
     "monotone": _monotone, "ends": _ends, "induction": _induction, "convexity": _convexity}[kind](
        cert, read_claim(_get(cert, "claim", dict)), out, depth, solver)


SPOT_VALUES = (Fraction(1, 3), Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(7, 2),
               Fraction(10), Fraction(-1, 2), Fraction(-1), Fraction(-3), Fraction(100))
MAX_SPOTS = 64


def _spot_values(d: Domain) -> list[Fraction]:
    """A few exact values of ``d``: its ends where closed, its midpoint where bounded, and
    :data:`SPOT_VALUES` (shifted by the lower end) that lie in it; integers on an integer domain."""
    vals = [v for v in (d.lo if d.lo_closed else None, d.hi if d.hi_closed else None) if v is not None]
    if d.lo is not None and d.hi is not None:
        vals.append((d.lo + d.hi) / 2)
    base = d.lo if d.lo is not None else Fraction(0)
    vals += [base + v for v in SPOT_VALUES if v > 0] + list(SPOT_VALUES)
    if d.integer:
        vals = [Fraction(int(v) + (1 if v > int(v) else 0)) for v in vals]
    return list(dict.fromkeys(v for v in vals if d.contains(v)))[:4]      # in order, once each


def _spot_check(claim: Claim) -> None:
    """A proof's claim must hold at every exact point tried (a grid of :func:`_spot_values`, at
    most :data:`MAX_SPOTS` points, where the assumptions hold and both sides are certified): an
    edited claim fails here whatever its proof says, ``trusted`` steps included."""
    names = sorted(claim.symbols())
    grids = [_spot_values(claim.domains[n]) for n in names]
    for k, combo in enumerate(itertools.product(*grids)):
        if k >= MAX_SPOTS:
            return
        env = dict(zip(names, combo))
        try:
            if not all(_holds(rel, _sign_at(sub(a, b), env)) for a, rel, b in claim.assumptions):
                continue
            ok = _holds(claim.rel, _sign_at(sub(claim.lhs, claim.rhs), env))
        except Invalid:
            continue                    # undefined or unresolved there: no evidence either way
        if not ok:
            shown = ", ".join(f"{n} = {v}" for n, v in env.items())
            raise Invalid(f"the claim fails at {shown} (exact point, certified sign)")


def recheck(cert, *, spot: bool = True, solver: bool = True) -> Recheck:
    """Re-verify the certificate ``cert`` (a parsed JSON object, in the vocabulary of the module docstring):
    valid or not, with the reason and the facts taken on trust. A proof's claim is also
    evaluated at exact sample points (:func:`_spot_check`), so an edited claim is rejected even
    when its proof is taken on trust (``spot=False``: the proof alone, for testing its kinds).
    ``solver=False``: the cheap recheck -- every step in exact rationals and arb as always,
    but an ``smt`` step's re-proof by cvc5 not run (its query still compared with the
    claim's encoding), listed in ``not_rechecked`` and never counted complete.
    Never raises on a malformed certificate."""
    out = Recheck(False, "")
    try:
        proof = isinstance(cert, dict) and cert.get("kind") != "counterexample" and cert.get("verdict") != "disproved"
        if spot and proof and isinstance(cert.get("claim"), dict):      # only a proof's claim holds at every point
            _spot_check(read_claim(cert["claim"]))
        _check(cert, out, solver=solver)
    except Invalid as e:
        return Recheck(False, f"invalid: {e}", out.trusted, out.kinds, out.not_rechecked)
    except (RecursionError, OverflowError, MemoryError, ValueError, TypeError) as e:
        return Recheck(False, f"invalid: {type(e).__name__}: {e}", out.trusted, out.kinds, out.not_rechecked)
    out.valid = True
    return out
