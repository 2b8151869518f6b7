"""SMT layer: nonlinear real arithmetic with z3 after naming non-polynomial terms.

Every square root, fractional power, log, exp, tanh, atan, erf, sin, cos, tan (and
integer powers too large to expand) becomes a fresh real variable ``F`` with its defining
constraint where there is one (``s >= 0, s**2 = x`` for ``sqrt(x)``) and the facts of
:mod:`.facts` about ``F = f(u)`` (range, sign, tangent and secant bounds), plus pairwise
monotonicity facts between named terms of the same increasing function. ``abs``, ``min``,
``max`` are exact (if-then-else); ``floor``/``ceil`` keep only ``u - 1 < F <= u``; ``pi``
and ``E`` are variables between rational bounds, and so is a constant built on another named
constant (``sqrt(log(40))``, ``(324 + 12*3**(1/3))**(3/2)``: the exact endpoints of its ball
enclosure), whose exact definition makes z3 work without counting its resource limit.
Integer symbols are relaxed to reals.

The result is an over-approximation of the real problem: if z3 finds no real point that
satisfies the domains, the assumptions, the definedness conditions of every term and the
facts while violating the relation (``unsat``), the relation is proved. A ``sat`` answer
proves nothing unless nothing was named (then z3's model is a candidate counterexample,
certified later with ball arithmetic by the caller). Every call has a work budget (z3's
``rlimit``, deterministic, charged to the work clock of :mod:`.budget`) and a safety net on
the CPU time of the thread that runs it (counted when it fires, :func:`_check`); running
out is ``unknown``. z3 is imported here only, and each
call uses its own z3 context (thread-safe).

Soundness contract: "proved" means z3 found the over-approximation unsatisfiable (every
named term keeps only true facts, :mod:`.facts`), so the relation holds wherever both
sides are defined; "sat" is never a disproof by itself (a model is only a candidate the
caller certifies); running out of rlimit or the CPU-time net is "unknown".

Bracketing (``bracket=d``, MetiTarski-style): each named ``exp``, ``log``, ``tanh``,
``atan``, ``erf``, ``tan`` term ``F = f(u)`` also gets the entries of :mod:`.fbounds` of degree
``d - 4`` to ``d`` (and the linear ones; ``bracket=-d``: the range-reduced log entries
up to degree ``d`` instead), each as ``range(u) -> den(u) F <= num(u)`` (or ``>=``). Every entry is a
theorem proved in the tests, so the problem stays an over-approximation: ``unsat`` is a
proof, and ``sat`` is never a disproof (no model is returned when anything was named).
The entries z3 needed are read from its unsat core and named in the outcome
(``SmtOutcome.brackets``).
"""
from __future__ import annotations

import operator
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..expr.domains import Domain
from ..expr.nodes import Add, BigOp, Const, EmptyRange, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym, expand
from ..expr.printing import to_text
from ..expr.visitor import Visitor, handles, top_down
from ..verdicts import SmtStatus
from . import facts as FX
from . import fbounds as FB
from .goal import Reformulation

# Budgets are work, not time, so that a verdict does not depend on the machine's load:
# z3's resource limit (``rlimit``, deterministic) is RLIMIT_PER_MS units per millisecond of
# the budget asked for (about a millisecond of one unloaded core); a safety net stops z3
# after budget.Z3_SAFETY times the budget (at least budget.MIN_Z3_NET seconds) of the CPU
# time of the thread that runs it (:func:`_check`; a loaded machine multiplies wall time,
# not CPU time: issue 37 saw a 158 ms budget take 14 s of wall clock for 1.6 s of CPU).
RLIMIT_PER_MS = 400
MAX_EXPAND_POWER = 12          # x**k with |k| above this is named, not multiplied out
MAX_ROOT_DEN = 6               # u**(p/q) with q above this is named without its defining equation
MAX_EXPAND_TERMS = 12         # a sum/product over a numeric range of at most this many terms is written out
MAX_NAMED = 40                 # more named terms than this: give up (size budget)
TOWER_PREC = 128               # bits of the enclosure of a constant over a named constant (Translator.tower)
MAX_PAIRS_PER_FUNCTION = 12    # pairwise facts among at most this many terms of one function
BRACKETED = ("exp", "log", "tanh", "atan", "erf", "tan")   # named functions that get fbounds entries
BRACKET_SPAN = 4               # with bracket=d, entries of degree d-4 .. d (and the linear ones)
# the degrees tried in turn by the decision procedure; a negative one -d: the range-reduced
# log entries (about 2, 8, 32) of degree up to d instead of the others
BRACKET_DEGREES = (3, 5, 7, -2, 9, -4, 11, 13)
BRACKET_CALLS = 12             # z3 calls of the bracketing step per decision (its work budget)


class TooBig(Exception):
    """The problem exceeds the SMT layer's size budget."""


@dataclass
class SmtOutcome:
    status: SmtStatus
    named: list[str] = field(default_factory=list)
    model: dict | None = None         # symbol -> Fraction (only when nothing was named)
    reason: str = ""
    brackets: list = field(default_factory=list)   # fbounds entries in z3's unsat core

    def __post_init__(self):
        self.status = SmtStatus(self.status)      # a misspelt status fails here


class _Kit:
    def __init__(self, z3, ctx, translator=None):
        self.z3, self.ctx = z3, ctx
        self.translator = translator

    @property
    def pi(self):
        from ..expr.nodes import Const as _C
        return self.translator.tr(_C("pi"))

    def q(self, p, q=1):
        return self.z3.Q(p, q, self.ctx)

    def imp(self, a, b):
        return self.z3.Implies(a, b)

    def all(self, *cs):
        return self.z3.And(*cs)


class _Translator(Visitor):
    """Tree -> z3 term, naming the non-polynomial terms (see the module docstring). Equal
    subtrees are translated once (``memo_by_value``): a repeated ``sqrt(x)`` is one named
    term."""
    memo_by_value = True

    def __init__(self, z3, ctx):
        super().__init__()
        self.z3, self.ctx = z3, ctx
        self.kit = _Kit(z3, ctx, self)
        self.vars: dict[str, object] = {}
        self.side: list = []             # definedness conditions and facts
        self.named: list[tuple[str, str, Any, Any, Node]] = []   # (label, func, u, F, arg): z3 terms
        self.consts: dict[str, object] = {}
        self.fresh = 0
        self.bracket: int | None = None  # max degree of the fbounds entries to add
        self.tracked: list = []          # (indicator, entry) of the bracketing constraints
        self.domains: dict[str, Domain] = {}    # set by decide_smt: integer facts, indexed components

    # -- helpers
    def val(self, x: Fraction):
        return self.z3.Q(x.numerator, x.denominator, self.ctx) if x.denominator != 1 else \
            self.z3.RealVal(x.numerator, self.ctx)

    def new(self, label: str):
        self.fresh += 1
        if len(self.named) >= MAX_NAMED:
            raise TooBig(f"more than {MAX_NAMED} named terms")
        return self.z3.Real(f"_n{self.fresh}", self.ctx)

    def name(self, label: str, func: str, u, arg: Node):
        F = self.new(label)
        self.named.append((label, func, u, F, arg))
        for _, fact in FX.FACTS.get(func, ()):
            self.side.append(fact(u, F, self.kit))
        if self.bracket is not None and func in BRACKETED:
            self.add_brackets(func, u, F)
        return F

    def add_brackets(self, func: str, u, F) -> None:
        """The entries of :mod:`.fbounds` for ``F = func(u)`` up to degree ``self.bracket``,
        each behind its own indicator (for the unsat core)."""
        z3 = self.z3
        level = self.bracket if self.bracket is not None else 0
        deg, reduced = (level, False) if level > 0 else (-level, True)
        for b in FB.bounds_for(func, max_degree=deg):
            if (b.degree < deg - BRACKET_SPAN and b.degree > 1) or b.reduced != reduced:
                continue            # the lower degrees are implied nearly everywhere
            rng = []
            if b.lo is not None:
                rng.append(u >= self.val(b.lo) if b.lo_closed else u > self.val(b.lo))
            if b.hi is not None:
                rng.append(u <= self.val(b.hi) if b.hi_closed else u < self.val(b.hi))
            num, den = self.horner(b.num, u), self.horner(b.den, u)
            rel = den * F <= num if b.side == "upper" else den * F >= num
            ind = z3.Bool(f"_b{len(self.tracked)}", self.ctx)
            self.tracked.append((ind, b))
            self.side.append(z3.Implies(ind, z3.Implies(z3.And(*rng), rel) if rng else rel))

    def horner(self, coeffs, u):
        out = self.val(coeffs[-1])
        for c in reversed(coeffs[:-1]):
            out = out * u + self.val(c) if c != 0 else out * u
        return out

    def power(self, b, k: int):
        out = b
        for _ in range(k - 1):
            out = out * b
        return out

    # -- translation
    def tr(self, node: Node):
        return self.walk(node)

    def visit_Num(self, node: Num, args: list):
        return self.val(node.value)

    def visit_Sym(self, node: Sym, args: list):
        if node.name not in self.vars:
            self.vars[node.name] = self.z3.Real(node.name, self.ctx)
        return self.vars[node.name]

    def visit_Const(self, node: Const, args: list):
        if node.name not in self.consts:
            c = self.z3.Real(f"_{node.name}", self.ctx)
            lo, hi = ((Fraction(314159265, 10 ** 8), Fraction(314159266, 10 ** 8)) if node.name == "pi"
                      else (Fraction(271828182, 10 ** 8), Fraction(271828183, 10 ** 8)))
            self.side += [c > self.val(lo), c < self.val(hi)]
            self.consts[node.name] = c
        return self.consts[node.name]

    @handles(Add, Mul)
    def _fold(self, node: Add | Mul, args: list):
        op = operator.add if isinstance(node, Add) else operator.mul
        out = args[0]
        for a in args[1:]:
            out = op(out, a)
        return out

    @handles(Rel, Ref)
    @top_down
    def _untranslatable(self, node: Node):
        raise TooBig(f"cannot translate {type(node).__name__}")

    def tower(self, node: Node):
        """A constant with a named term inside it (``(324 + 12*3**(1/3))**(3/2)``,
        ``sqrt(log(40))``) as a variable between the exact endpoints of its ball enclosure, or
        None. Its exact definition would be an equation over another defined constant — a
        tower of algebraic numbers on which z3's nlsat works without counting its resource
        limit (a size guard, budget.py); the enclosure keeps the problem an
        over-approximation (no model is returned with it)."""
        if node.symbols():
            return None
        if not any(n is not node and (isinstance(n, Func) and n.name not in ("abs", "min", "max")
                                      or isinstance(n, Pow) and not (isinstance(n.exp, Num)
                                                                     and n.exp.value.denominator == 1))
                   for n in node.unique_nodes()):
            return None
        from ..backends import arb as A
        try:
            lo, hi = A.enclose_interval(node, {}, prec=TOWER_PREC)
        except (A.Undefined, A.Unresolved, A.TooLarge, ValueError, ZeroDivisionError):
            return None
        label = "_c" + to_text(node)
        if label not in self.consts:
            x = self.z3.Real(f"_c{len(self.consts)}", self.ctx)
            self.side += [x >= self.val(A.to_fraction(lo)), x <= self.val(A.to_fraction(hi))]
            self.consts[label] = x
        return self.consts[label]

    def visit_Pow(self, node: Pow):
        z3 = self.z3
        c = self.tower(node)
        if c is not None:
            return c
        b = yield node.base
        if isinstance(node.exp, Num):
            e = node.exp.value
            if e.denominator == 1:
                k = e.numerator
                if k == 0:
                    return self.val(Fraction(1))
                if abs(k) <= MAX_EXPAND_POWER:
                    p = self.power(b, abs(k))
                    if k > 0:
                        return p
                    R = self.new(to_text(node))
                    self.named.append((to_text(node), "recip", p, R, node))
                    self.side.append(R * p == 1)
                    return R
                P = self.name(to_text(node), f"pow{k}", b, node.base)
                if k % 2 == 0:
                    self.side.append(P >= 0) if k > 0 else self.side.append(P > 0)
                    self.side.append(z3.Implies(b == 0, P == 0) if k > 0 else b != 0)
                else:
                    self.side += [z3.Implies(b > 0, P > 0), z3.Implies(b < 0, P < 0)]
                self.side += [z3.Implies(b >= 1, P >= 1) if k > 0 else z3.Implies(b >= 1, P <= 1),
                              z3.Implies(z3.And(b > 0, b <= 1), P <= 1) if k > 0 else z3.Implies(z3.And(b > 0, b <= 1), P >= 1)]
                return P
            p, q = e.numerator, e.denominator
            label = to_text(node)
            s = self.name(label, f"root{e}" if p > 0 else f"rpow{e}", b, node.base)
            self.side.append(b >= 0 if p > 0 else b > 0)
            self.side.append(s >= 0 if p > 0 else s > 0)
            if q <= MAX_ROOT_DEN and abs(p) <= MAX_EXPAND_POWER:
                lhs = self.power(s, q)
                if p > 0:
                    self.side.append(lhs == self.power(b, p))
                else:
                    self.side.append(lhs * self.power(b, -p) == 1)
            else:
                self.side += [z3.Implies(b >= 1, s >= 1) if p > 0 else z3.Implies(b >= 1, s <= 1),
                              z3.Implies(b <= 1, s <= 1) if p > 0 else z3.Implies(b <= 1, s >= 1)]
            return s
        # b ** e with a non-constant exponent: exp(e * log(b)) for b > 0, and 0 at b = 0
        # (defined there when e > 0). The log is taken of b' = b if b > 0 else 1, so that its
        # facts hold whatever b is.
        e = yield node.exp
        integer = _integer_valued(node.exp, self.domains)
        # an integer-valued exponent: defined for a negative base too (expr.singularities), so
        # b >= 0 is no hypothesis; b ** e is exp(e log b) for b > 0, 0 at b = 0 (then e > 0),
        # +-1 at b = -1, and otherwise unknown (a fresh variable with no facts)
        self.side += [z3.Implies(b == 0, e > 0)] if integer else [b >= 0, z3.Implies(b == 0, e > 0)]
        b_pos = z3.If(b > 0, b, self.val(Fraction(1)))
        L = self._named_func("log", node.base, b_pos)
        arg = Mul((node.exp, Func("log", (node.base,))))
        E = self._named_func("exp", arg, e * L, label=to_text(node))
        if not integer:
            return z3.If(b > 0, E, self.val(Fraction(0)))
        P = self.new(to_text(node))
        one = self.val(Fraction(1))
        self.side += [z3.Implies(b > 0, P == E), z3.Implies(b == 0, P == 0),
                      z3.Implies(b == -1, z3.Or(P == one, P == -one)),
                      # |b| <= 1 and an integer e >= 0: |b ** e| <= 1 (true at every integer point)
                      z3.Implies(z3.And(e >= 0, b >= -one, b <= one), z3.And(P <= one, P >= -one))]
        return P

    def _named_func(self, func, arg: Node, u, label=None):
        key = Func(func, (arg,))
        got = self.memo.get(key)
        if got is not None:
            return got
        F = self.name(label or to_text(key), func, u, arg)
        self.memo[key] = F
        return F

    def visit_Func(self, node: Func):
        z3 = self.z3
        name = node.name
        c = self.tower(node)
        if c is not None:
            return c
        if name == "sqrt":
            return (yield Pow(node.args[0], Num(Fraction(1, 2))))
        args = []
        for a in node.args:
            args.append((yield a))
        u = args[0]
        if name == "abs":
            return z3.If(u >= 0, u, -u)
        if name in ("min", "max"):
            out = args[0]
            for a in args[1:]:
                out = z3.If(a < out, a, out) if name == "min" else z3.If(a > out, a, out)
            return out
        if name in ("floor", "ceil"):
            F = self.new(to_text(node))
            self.side += [F <= u, F > u - 1] if name == "floor" else [F >= u, F < u + 1]
            return F
        if name == "log":
            self.side.append(u > 0)
            L = self._named_func("log", node.args[0], u)
            if len(node.args) == 2:
                self.side.append(args[1] > 0)
                Lb = self._named_func("log", node.args[1], args[1])
                R = self.new(to_text(node))
                self.side += [Lb != 0, R * Lb == L]
                return R
            return L
        if name in FX.FACTS:
            return self._named_func(name, node.args[0], u)
        if name in ("gamma", "factorial", "binomial"):
            return self._gamma_like(node, args)
        raise TooBig(f"no SMT encoding for {name}")

    # -- factorial, gamma, binomial: uninterpreted, with the facts of GAMMA_FACTS (real
    # arguments) and INTEGER_FACTS (integer-valued arguments, by the domains), each proved
    # in the tests (tests/prover/test_smt_nodes.py) against mpmath
    def _gamma_like(self, node: Func, args: list):
        key = node
        got = self.memo.get(("gamma_like", key))
        if got is not None:
            return got
        F = self.new(to_text(node))
        self.named.append((to_text(node), node.name, args[0], F, node))
        if node.name == "binomial":
            n, k = args
            self.side += [n >= 0, k >= 0]
            if all(_integer_valued(a, self.domains) for a in node.args):
                self.side += [f(n, k, F, self.kit) for _, f in BINOMIAL_INTEGER_FACTS]
        else:
            g = args[0] + (1 if node.name == "factorial" else 0)       # the gamma argument
            self.side += [f(g, F, self.kit) for _, f in GAMMA_FACTS]
            if node.name == "factorial" and _integer_valued(node.args[0], self.domains):
                self.side += [f(args[0], F, self.kit) for _, f in FACTORIAL_INTEGER_FACTS]
        self.memo[("gamma_like", key)] = F
        return F

    @top_down
    def visit_Indexed(self, node: Indexed):
        """``s[k]`` for a number k: a variable of its own (in ``s``'s domain); a symbolic
        index is beyond this layer (sums over symbolic ranges are, too)."""
        k = node.index
        if not (isinstance(k, Num) and k.value.denominator == 1):
            raise TooBig("an indexed symbol with a symbolic index")
        label = f"{node.name}[{k.value.numerator}]"
        if label not in self.consts:
            x = self.z3.Real(label, self.ctx)
            if node.name in self.domains:
                self.side += _domain_constraints(self.z3, x, self.domains[node.name], self.ctx)
            self.consts[label] = x           # (no model from z3 then: components are not symbols)
        return self.consts[label]

    def visit_BigOp(self, node: BigOp):
        """Written out when the range is given by numbers of at most MAX_EXPAND_TERMS terms."""
        lo, hi = node.lo, node.hi
        if not all(isinstance(e, Num) and e.value.denominator == 1 for e in (lo, hi)):
            raise TooBig(f"{node.op} over a symbolic range")
        assert isinstance(lo, Num) and isinstance(hi, Num)
        a, b = lo.value.numerator, hi.value.numerator
        if b - a + 1 > MAX_EXPAND_TERMS:
            raise TooBig(f"{node.op} over more than {MAX_EXPAND_TERMS} terms")
        try:
            return (yield expand(node, a, b))
        except EmptyRange:
            raise TooBig(f"{node.op} over an empty range") from None

    def pair_facts(self):
        """Facts between the named terms: the log of a named root, quotients of named exps,
        exp and log as inverses, monotonicity (and each function's pair facts) between every
        two terms of one function, sin^2 + cos^2 = 1."""
        by: dict[str, list] = {}
        for label, func, u, F, arg in self.named:
            by.setdefault(func, []).append((u, F, arg))
        self._root_logs(by)
        self._exp_quotients(by)
        self._inverses(by)
        for func, items in by.items():
            self._monotone_pairs(func, items[:MAX_PAIRS_PER_FUNCTION])
        sins = {arg: F for _, func, _, F, arg in self.named if func == "sin"}
        for _, func, _, F, arg in self.named:
            if func == "cos" and arg in sins:
                self.side.append(sins[arg] * sins[arg] + F * F == 1)

    def _root_logs(self, by: dict) -> None:
        """log(u**(p/q)) = (p/q) log(u): a named root of a named log's argument gets the log facts."""
        log_of = {arg: L for _, func, _, L, arg in self.named if func == "log"}
        for _, func, u, s_, arg in list(self.named):
            if func.startswith("root") and arg in log_of:
                e = Fraction(func[4:])
                Ls = self.val(e) * log_of[arg]
                for _, fact in FX.FACTS["log"]:
                    self.side.append(fact(s_, Ls, self.kit))
                by.setdefault("log", []).append((s_, Ls, None))

    def _exp_quotients(self, by: dict) -> None:
        """exp(u1) = exp(u1 - u2) exp(u2): the quotient of two named exps is a named exp too."""
        exps0 = list(by.get("exp", ()))[:4]
        for i in range(len(exps0)):
            for j in range(i + 1, len(exps0)):
                (u1, E1, _), (u2, E2, _) = exps0[i], exps0[j]
                W = self.z3.Real(f"_w{id(E1)}_{id(E2)}", self.ctx)
                for _, fact in FX.FACTS["exp"]:
                    self.side.append(fact(u1 - u2, W, self.kit))
                self.side.append(E1 == W * E2)
                by["exp"].append((u1 - u2, W, None))

    def _inverses(self, by: dict) -> None:
        """exp and log are inverse: exp(log(v)) = v, exp(-log(v)) = 1/v, log(exp(u)) = u enter
        the other function's group as known values, so that monotonicity links them."""
        logs, exps = list(by.get("log", ())), list(by.get("exp", ()))
        if logs and exps:
            for v, L, arg in logs[:MAX_PAIRS_PER_FUNCTION // 2]:
                R = self.z3.Real(f"_inv{id(L)}", self.ctx)
                self.side.append(R * v == 1)
                by["exp"].append((L, v, None))
                by["exp"].append((-L, R, None))
            for u, E, arg in exps[:MAX_PAIRS_PER_FUNCTION // 2]:
                by["log"].append((E, u, None))

    def _monotone_pairs(self, func: str, items: list) -> None:
        """Between every two named terms of ``func``: monotonicity (increasing functions, odd
        powers, roots; even powers on u >= 0) and the function's pair facts."""
        inc = func in FX.INCREASING or (func.startswith("root")) or (
            func.startswith("pow") and int(func[3:]) % 2 == 1 and int(func[3:]) > 0)
        even_pos = func.startswith("pow") and int(func[3:]) > 0 and int(func[3:]) % 2 == 0
        for i in range(len(items)):
            for j in range(len(items)):
                if i == j:
                    continue
                (u1, F1, _), (u2, F2, _) = items[i], items[j]
                if inc:
                    self.side.append(FX.monotone_pair(u1, F1, u2, F2, self.kit))
                elif even_pos:
                    self.side.append(self.z3.Implies(self.z3.And(u1 >= 0, u1 <= u2), F1 <= F2))
                for _, fact in FX.PAIR_FACTS.get(func, ()):
                    self.side.append(fact(u1, F1, u2, F2, self.kit))


def _integer_valued(node: Node, domains: dict[str, Domain]) -> bool:
    """Whether ``node`` takes only integer values where it is defined, by its shape and
    the domains (:func:`boundcalc.expr.singularities.is_integer_valued`, the one test)."""
    from ..expr.singularities import is_integer_valued
    return is_integer_valued(node, frozenset(n for n, d in domains.items() if d.integer))


#: facts about F = gamma(g) for every real g where gamma is defined (not a pole); the
#: minimum of gamma on (0, oo) is 0.885603194... at g = 1.461632...
GAMMA_FACTS = [
    ("gamma(g) > 0 for g > 0", lambda g, F, K: K.imp(g > 0, F > 0)),
    ("gamma(g) >= 0.8856 for g > 0", lambda g, F, K: K.imp(g > 0, F >= K.q(8856, 10000))),
    ("gamma(g) <= 1 for 1 <= g <= 2", lambda g, F, K: K.imp(K.all(g >= 1, g <= 2), F <= 1)),
    ("gamma(g) >= 1 for g >= 2", lambda g, F, K: K.imp(g >= 2, F >= 1)),
    ("gamma(g) >= g - 1 for g >= 3", lambda g, F, K: K.imp(g >= 3, F >= g - 1)),
    ("g gamma(g) = gamma(g + 1) >= 0.8856 for 0 < g <= 1",
     lambda g, F, K: K.imp(K.all(g > 0, g <= 1), g * F >= K.q(8856, 10000))),
]

#: facts about F = n! for an integer-valued n (the relaxation to reals keeps them true at
#: every integer point, which is all the real problem needs)
FACTORIAL_INTEGER_FACTS = [
    ("n! >= 1 for integer n >= 0", lambda n, F, K: K.imp(n >= 0, F >= 1)),
    ("n! >= n for integer n >= 0", lambda n, F, K: K.imp(n >= 0, F >= n)),
    ("n! >= n (n - 1) for integer n >= 0", lambda n, F, K: K.imp(n >= 0, F >= n * (n - 1))),
    ("n! >= n (n - 1) (n - 2) for integer n >= 0", lambda n, F, K: K.imp(n >= 0, F >= n * (n - 1) * (n - 2))),
    ("n! >= 2 n - 2 for integer n >= 1",
     lambda n, F, K: K.imp(n >= 1, F >= 2 * n - 2)),
    ("n! = 1 at n = 0, 1", lambda n, F, K: K.imp(K.all(n >= 0, n <= 1), F == 1)),
]

#: facts about F = binomial(n, k) for integer-valued n, k >= 0
BINOMIAL_INTEGER_FACTS = [
    ("binomial(n, k) >= 1 for integers 0 <= k <= n", lambda n, k, F, K: K.imp(K.all(k >= 0, k <= n), F >= 1)),
    ("binomial(n, k) = 0 for integers k > n >= 0", lambda n, k, F, K: K.imp(k > n, F == 0)),
    ("binomial(n, 0) = 1", lambda n, k, F, K: K.imp(k == 0, F == 1)),
    ("binomial(n, 1) = n", lambda n, k, F, K: K.imp(K.all(k == 1, n >= 1), F == n)),
    ("binomial(n, n) = 1", lambda n, k, F, K: K.imp(k == n, F == 1)),
    ("binomial(n, k) >= n for integers 1 <= k <= n - 1", lambda n, k, F, K: K.imp(K.all(k >= 1, k <= n - 1), F >= n)),
]


def generalize(g: Node, extra, domains: dict[str, Domain], sign_of) -> Reformulation | None:
    """Replace each maximal repeated subterm (at least 4 nodes, occurring twice or more) by
    a fresh symbol with the sign ``sign_of(subterm)`` proves ("positive"/"nonnegative").
    Proving the generalized goal for every value of the fresh symbols proves the original
    (a strengthening); returns the :class:`.goal.Reformulation` (goal, extra, domains,
    labels) or None."""
    counts: dict[Node, int] = {}
    sizes: dict[Node, int] = {}
    visits = 0

    def size(n: Node) -> int:
        if n not in sizes:
            sizes[n] = 1 + sum(size(c) for c in n.children())
        return sizes[n]
    for root in [g] + [r.lhs for r in extra] + [r.rhs for r in extra]:
        for n in root.walk():
            visits += 1
            if visits > 20000:
                return None
            if not isinstance(n, (Num, Sym)) and n.symbols():
                counts[n] = counts.get(n, 0) + 1
    cands = sorted((n for n, c in counts.items() if c >= 2 and size(n) >= 4), key=size, reverse=True)[:40]
    def inner(n: Node, m: Node) -> int:
        return sum(1 for x in n.walk() if x == m)
    # a repeated subterm that also occurs outside a bigger repeated one is named instead of
    # the bigger one (naming sqrt(P/N) would hide its link with sqrt(N/P): name P)
    skip = set()
    for n in cands:
        for m in cands:
            if m is not n and size(m) < size(n) and counts[m] > counts[n] * inner(n, m) > 0:
                skip.add(n)
                break
    chosen: list[Node] = []
    for n in cands:
        if n in skip or any(n in set(c.walk()) for c in chosen):
            continue
        chosen.append(n)
        if len(chosen) >= 6:
            break
    mapping, doms, labels = {}, dict(domains), []
    for i, n in enumerate(chosen):
        sg = sign_of(n)
        if sg not in ("positive", "nonnegative"):
            continue
        name = f"_g{i}"
        mapping[n] = Sym(name)
        doms[name] = Domain(lo=Fraction(0), lo_closed=sg == "nonnegative")
        labels.append(f"{to_text(n)} as {name}")     # the name the later text uses
    if not mapping:
        return None
    rep = lambda m: mapping.get(m) if not isinstance(m, (Num, Sym)) else None
    g2 = g.map(rep)
    extra2 = [Rel(r.op, r.lhs.map(rep), r.rhs.map(rep)) for r in extra]
    return Reformulation(g2, extra2, doms, labels)


def _domain_constraints(z3, x, d: Domain, ctx):
    out = []
    q = lambda v: z3.Q(v.numerator, v.denominator, ctx)
    if d.lo is not None:
        out.append(x >= q(d.lo) if d.lo_closed else x > q(d.lo))
    if d.hi is not None:
        out.append(x <= q(d.hi) if d.hi_closed else x < q(d.hi))
    return out


def decide_smt(goal: Node, op: str, domains: dict[str, Domain], extra=(), *, timeout_ms: int = 3000,
               want_model: bool = True, bracket: int | None = None) -> SmtOutcome:
    """Is ``goal op 0`` (op in >=, >, ==) true at every point of the domains where the
    assumptions ``extra`` hold and every term is defined? ``bracket``: add the function
    bounds of :mod:`.fbounds` up to that degree (see the module docstring)."""
    import z3
    ctx = z3.Context()
    t = _Translator(z3, ctx)
    t.bracket = bracket
    t.domains = domains
    try:
        return _decide_smt(z3, ctx, t, goal, op, domains, extra, timeout_ms, want_model)
    finally:
        # break the translator <-> kit cycle: freed by reference counting, every z3 object
        # goes before its Context (in a cycle, the garbage collector may delete the Context
        # first, and z3 then aborts the process in Z3_dec_ref)
        t.kit.translator = None
        t.kit = None  # type: ignore[assignment]  # the translator is not used after this


def _decide_smt(z3, ctx, t, goal, op, domains, extra, timeout_ms, want_model) -> SmtOutcome:
    try:
        g = t.tr(goal)
        hyps = [t.tr(r.lhs) - t.tr(r.rhs) for r in extra]
        t.pair_facts()
    except TooBig as e:
        return SmtOutcome(SmtStatus.UNKNOWN, reason=f"size budget: {e}")
    except (z3.Z3Exception, RecursionError) as e:
        return SmtOutcome(SmtStatus.UNKNOWN, reason=f"translation failed: {e}")
    s = z3.SolverFor("QF_NRA", ctx=ctx)
    from .budget import MIN_Z3_NET, Z3_SAFETY
    s.set("rlimit", RLIMIT_PER_MS * max(1, int(timeout_ms)))
    net = max(Z3_SAFETY * int(timeout_ms) / 1000, MIN_Z3_NET)     # seconds, a safety net
    for n, x in t.vars.items():
        if n in domains:
            s.add(*_domain_constraints(z3, x, domains[n], ctx))
    for r, h in zip(extra, hyps):
        s.add({"<=": h <= 0, ">=": h >= 0, "<": h < 0, ">": h > 0, "==": h == 0}[r.op])
    s.add(*t.side)
    s.add({">=": g < 0, ">": g <= 0, "==": g != 0}[op])
    named = [lbl for lbl, *_ in t.named]
    if t.bracket is not None and not t.tracked:
        return SmtOutcome(SmtStatus.UNKNOWN, named, reason="nothing to bracket")
    fired = [False]
    try:
        res = _check(s, ctx, [ind for ind, _ in t.tracked], net, fired)
    except z3.Z3Exception as e:
        _charge(s)
        return SmtOutcome(SmtStatus.UNKNOWN, named, reason=str(e))
    _charge(s)
    if res == z3.unsat:
        used = []
        if t.tracked:
            core = {str(c) for c in s.unsat_core()}
            used = [b for ind, b in t.tracked if str(ind) in core]
        return SmtOutcome(SmtStatus.PROVED, named, brackets=used)
    if res == z3.sat:
        model = None
        if want_model and not t.named and not t.consts:
            m = s.model()
            model = {}
            for n, x in t.vars.items():
                v = m.eval(x, model_completion=True)
                model[n] = _to_fraction(z3, v)
        return SmtOutcome(SmtStatus.SAT, named, model, reason="z3 found a point violating the relation"
                          + (" of the relaxed problem" if t.named else ""))
    why = s.reason_unknown()
    if fired[0]:
        # the net, not the work budget, stopped z3 (budget.py); z3 says "canceled" also when
        # its rlimit runs out inside a tactic, so the flag of the net decides
        from .budget import safety_net_hit
        safety_net_hit(f"z3's {_NET_CLOCK} ({net:g} s for a budget of {timeout_ms} ms)")
        return SmtOutcome(SmtStatus.UNKNOWN, named, reason=f"safety net: z3: {why}")
    return SmtOutcome(SmtStatus.UNKNOWN, named, reason=("budget: " if "resource" in why or "timeout" in why else "")
                      + f"z3: {why}")


#: what z3's safety net counts: the CPU time of the thread running z3 where the platform has
#: per-thread CPU clocks (Linux and most Unix), else z3's own wall-clock timeout
_NET_CLOCK = "CPU time" if hasattr(time, "pthread_getcpuclockid") else "wall clock"
_NET_POLL = 0.05              # wall seconds between two looks of the net at the CPU clock


def _check(s, ctx, assumptions, net: float, fired: list[bool]):
    """``s.check(*assumptions)`` with a safety net of ``net`` seconds of the CPU time of
    this thread (the one z3 runs in: the Python bindings release the GIL during the call):
    a watcher thread reads this thread's CPU clock and interrupts z3's context
    (``ctx.interrupt()``, thread-safe) once it passes; ``fired[0]`` says that it did. CPU
    time, not wall time: on a loaded machine z3 gets less of the processor, not more work,
    so whether the net fires does not depend on the load (issue 37: beside two busy
    processes a 158 ms budget took 14 s of wall clock, and a wall-clock net turned a
    verdict into "unknown (safety net)"). Where there are no per-thread CPU clocks, z3's own
    wall-clock ``timeout`` is the net."""
    import threading
    if _NET_CLOCK != "CPU time":
        s.set("timeout", int(1000 * net))
        started = time.perf_counter()
        try:
            return s.check(*assumptions)
        finally:
            fired[0] = time.perf_counter() - started >= 0.95 * net
    clk = time.pthread_getcpuclockid(threading.get_ident())
    deadline = time.clock_gettime(clk) + net
    done = threading.Event()

    def watch() -> None:
        while not done.wait(_NET_POLL):
            if time.clock_gettime(clk) > deadline:
                fired[0] = True
                ctx.interrupt()
                return

    watcher = threading.Thread(target=watch, name="z3-cpu-net", daemon=True)
    watcher.start()
    try:
        return s.check(*assumptions)
    finally:
        done.set()
        watcher.join()


def _charge(s) -> None:
    """Charge the work clock (:func:`.budget.charge`) with the resource count z3 used."""
    from .budget import charge
    try:
        used = s.statistics().get_key_value("rlimit count")
    except Exception:             # no such statistic (z3 answered before counting)
        return
    charge(used / (RLIMIT_PER_MS * 1000))


def _to_fraction(z3, v) -> Fraction:
    if z3.is_rational_value(v):
        return Fraction(v.numerator_as_long(), v.denominator_as_long())
    if z3.is_algebraic_value(v):
        a = v.approx(30)
        return Fraction(a.numerator_as_long(), a.denominator_as_long())
    return Fraction(0)
