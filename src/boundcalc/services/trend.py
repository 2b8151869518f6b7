"""The direction of an expression in one variable read from its tree alone, every sign
certified in ball arithmetic (no SymPy): sums of same-direction terms, products with a
certified sign, powers of a positive base, increasing functions. Used by the search for a
value (:mod:`.solve`), by :mod:`.monotone` and by :mod:`.continuity`."""
from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction

from ..backends import mp as mpb
from ..expr.domains import Domain
from ..expr.nodes import Add, BigOp, Const, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym, sub
from ..expr.visitor import DESCEND, Visitor, handles, top_down

_INCREASING = {"sqrt", "exp", "log", "atan", "tanh", "erf", "floor", "ceil", "min", "max"}


def trend(node, var: str, env: dict, domain: Domain) -> int | None:
    """+1 if ``node`` is non-decreasing in ``var`` over ``domain`` (the other symbols at
    their values in ``env``), -1 if non-increasing, 0 if it does not depend on ``var``,
    None if the expression tree does not show it. Every sign used is certified."""
    try:
        return _Trend(var, env, domain).dir(node)
    except RecursionError:
        return None


Info = tuple["int | None", "int | None"]


class _Trend(Visitor[Info]):
    """(direction, sign over the domain) of each subtree: +1 means non-decreasing in
    ``var`` / >= 0, -1 non-increasing / <= 0, 0 free of ``var``, None unknown."""

    def __init__(self, var, env, domain):
        super().__init__()
        self.var, self.env, self.domain = var, env, domain

    def const_sign(self, node) -> int | None:
        return mpb.decide_sign(node, self.env)

    def dir(self, node) -> int | None:
        return self.walk(node)[0]

    def enter(self, node):
        if self.var not in node.symbols():
            return 0, self.const_sign(node)
        return DESCEND

    def visit_Sym(self, node: Sym, args: list) -> Info:
        d = self.domain
        sign = 1 if d.lo is not None and d.lo >= 0 else (-1 if d.hi is not None and d.hi <= 0 else None)
        return 1, sign

    def visit_Add(self, node: Add, parts: list[Info]) -> Info:
        dirs = {p[0] for p in parts}
        if None in dirs or (1 in dirs and -1 in dirs):
            return None, None
        d = 1 if 1 in dirs else -1
        signs = {p[1] for p in parts}
        sign = 1 if signs == {1} else (-1 if signs == {-1} else self.end_sign(node, d))
        return d, sign

    def visit_Mul(self, node: Mul) -> Generator[Node, Info, Info]:
        acc = yield node.args[0]
        for a in node.args[1:]:
            acc = self.mul(acc, (yield a))
            if acc[0] is None:
                return None, None
        return acc

    def visit_Func(self, node: Func) -> Generator[Node, Info, Info]:
        parts = []
        for a in node.args:
            parts.append((yield a))
        if node.name in _INCREASING:
            if node.name == "log" and len(node.args) == 2:
                x, b = node.args
                return (yield Mul((Func("log", (x,)), Pow(Func("log", (b,)), Num(Fraction(-1))))))
            dirs = {p[0] for p in parts} - {0}
            if None in dirs or len(dirs) > 1:
                return None, None
            d = dirs.pop() if dirs else 0
            sign = {"sqrt": 1, "exp": 1}.get(node.name)
            if sign is None and node.name in ("atan", "tanh", "erf"):
                sign = parts[0][1]
            if sign is None:
                sign = self.end_sign(node, d)
            return d, sign
        if node.name == "abs":
            d, s = parts[0]
            if d is None or s is None:
                return None, None
            return d * s, 1
        return None, None

    @handles(Num, Const, Ref, Rel, Indexed, BigOp)     # (free of var: enter; else no rule)
    @top_down
    def _unknown(self, node: Node) -> Info:
        return None, None

    def mul(self, a, b):
        (da, sa), (db, sb) = a, b
        if da is None or db is None:
            return None, None
        sign = None if sa is None or sb is None else sa * sb
        if da == 0 or db == 0:
            (_, sc), (dv, _) = (a, b) if da == 0 else (b, a)
            if sc is None:
                return None, None
            return dv * sc if sc else 0, sign
        if sa is None or sb is None or sa == 0 or sb == 0:
            return None, None
        # write each factor as sign * (a non-negative function): directions of the magnitudes
        ma, mb = da * sa, db * sb
        if ma != mb:
            return None, None
        return ma * sa * sb, sign

    def visit_Pow(self, node: Pow) -> Generator[Node, Info, Info]:
        base, exp = node.base, node.exp
        db, sb = yield base
        de, se = yield exp
        if db is None or de is None:
            return None, None
        if de == 0:
            if db == 0:
                return 0, self.const_sign(node)
            if isinstance(exp, Num) and exp.value.denominator == 1 and sb is not None:
                k = exp.value.numerator
                if k % 2 == 1 and k > 0:
                    return db, sb
                if k % 2 == 0 and k > 0:
                    return db * sb, 1
            if sb != 1 or se is None:
                return None, None
            return (db * se if se else 0), 1
        # variable exponent: a positive constant base c ** f is monotone like f (c > 1)
        if db == 0:
            if self.const_sign(base) != 1:
                return None, None
            s1 = self.const_sign(sub(base, Num(Fraction(1))))
            if s1 is None:
                return None, None
            return de * s1, 1
        return (yield Func("exp", (Mul((exp, Func("log", (base,)))),)))

    def end_sign(self, node, d) -> int | None:
        """Sign over the domain of a monotone function from its value at the end where it
        is smallest (>= 0 there: >= 0 everywhere) or largest (<= 0 there: <= 0)."""
        dom = self.domain
        lo = dom.lo if dom.lo is not None and dom.lo_closed else None
        hi = dom.hi if dom.hi is not None and dom.hi_closed else None
        low_end, high_end = (lo, hi) if d >= 0 else (hi, lo)
        for end, want in ((low_end, 1), (high_end, -1)):
            if end is None:
                continue
            e = dict(self.env)
            e[self.var] = end
            s = mpb.decide_sign(node, e)
            if s is not None and s * want >= 0:
                return want
        return None
