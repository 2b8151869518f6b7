"""NumPy back end: compile an expression to a vectorised float64 function.

Where float64 overflows or underflows to a non-finite value, :func:`evaluate_grid`
recomputes those entries with mpmath (object array), so no value silently becomes
``inf``.
"""
from __future__ import annotations

import operator
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import ExpressionError
from ..expr.indexed import Vector, component
from ..expr.nodes import Add, BigOp, Const, EmptyRange, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym, expand
from ..expr.visitor import Visitor, handles, top_down

_FUNCS: dict[str, Callable] = {
    "sqrt": np.sqrt, "exp": np.exp, "abs": np.abs, "floor": np.floor, "ceil": np.ceil,
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "tanh": np.tanh, "atan": np.arctan,
}


def compile_numpy(node: Node) -> Callable[..., np.ndarray]:
    """A function ``f(**arrays) -> ndarray`` (float64, broadcasting)."""
    fn = _compile(node)

    def f(**env):
        with np.errstate(all="ignore"):
            return np.asarray(fn({k: _array(v) for k, v in env.items()}), dtype=np.float64)
    return f


def _array(v):
    """An environment value as float64: a :class:`Vector` (an indexed symbol's values) keeps
    its entries, each as an array."""
    if isinstance(v, Vector):
        return v.map(lambda x: np.asarray(x, dtype=np.float64))
    return np.asarray(v, dtype=np.float64)


Compiled = Callable[[dict], Any]


def _const(c: float) -> Compiled:
    return lambda env: c


class _Compile(Visitor[Compiled]):
    """Tree -> a function of the environment of float64 arrays (see :func:`compile_numpy`)."""

    def visit_Num(self, node: Num, args: list) -> Compiled:
        return _const(float(node.value))

    def visit_Sym(self, node: Sym, args: list) -> Compiled:
        name = node.name
        return lambda env: env[name]

    def visit_Const(self, node: Const, args: list) -> Compiled:
        return _const(float(np.pi if node.name == "pi" else np.e))

    @handles(Add, Mul)
    def _fold(self, node: Add | Mul, parts: list[Compiled]) -> Compiled:
        # a sum starts from 0 as Python's sum() did (0 + -0.0 is 0.0), a product from its
        # first factor
        op = operator.add if isinstance(node, Add) else operator.mul
        first = (lambda env: 0 + parts[0](env)) if isinstance(node, Add) else parts[0]
        rest = parts[1:]

        def fold(env):
            out = first(env)
            for p in rest:
                out = op(out, p(env))
            return out
        return fold

    def visit_Pow(self, node: Pow, parts: list[Compiled]) -> Compiled:
        b, e = parts
        if isinstance(node.exp, Num) and node.exp.value.denominator == 1:
            k = float(node.exp.value.numerator)
            if k == 0:                 # 0**0 is undefined (expr.singularities)
                return lambda env: np.where(np.asarray(b(env), dtype=np.float64) == 0, np.nan, 1.0)
            return lambda env: np.power(np.asarray(b(env), dtype=np.float64), k)
        return lambda env: np.power(np.asarray(b(env), dtype=np.float64), e(env))

    def visit_Func(self, node: Func, parts: list[Compiled]) -> Compiled:
        n = node.name
        if n == "log":
            if len(parts) == 2:
                def logb(env):         # base 1 is undefined (expr.singularities), not +-inf
                    base = np.asarray(parts[1](env), dtype=np.float64)
                    return np.log(parts[0](env)) / np.where(base == 1, np.nan, np.log(base))
                return logb
            return lambda env: np.log(parts[0](env))
        if n in ("min", "max"):
            red = np.minimum if n == "min" else np.maximum

            def mm(env):
                out = parts[0](env)
                for p in parts[1:]:
                    out = red(out, p(env))
                return out
            return mm
        if n == "erf":
            from scipy.special import erf
            return lambda env: erf(parts[0](env))
        if n in ("gamma", "factorial"):
            from scipy.special import gamma
            shift = 0.0 if n == "gamma" else 1.0

            def gam(env):                  # poles give nan (expr.singularities), not +-inf
                x = np.asarray(parts[0](env), dtype=np.float64) + shift
                return np.where((x <= 0) & (x == np.floor(x)), np.nan, gamma(x))
            return gam
        if n == "binomial":
            from scipy.special import binom

            def bino(env):
                a = np.asarray(parts[0](env), dtype=np.float64)
                b = np.asarray(parts[1](env), dtype=np.float64)
                return np.where((a < 0) | (b < 0), np.nan, binom(a, b))
            return bino
        f = _FUNCS[n]
        return lambda env: f(parts[0](env))

    @top_down
    def visit_Rel(self, node: Rel) -> Compiled:
        raise ExpressionError("a relation has no numeric value")

    def visit_Ref(self, node: Ref, args: list) -> Compiled:
        raise ExpressionError(f"cannot compile node {node!r}")

    def visit_Indexed(self, node: Indexed, parts: list[Compiled]) -> Compiled:
        name, index = node.name, parts[0]

        def look(env):
            k = np.asarray(index(env), dtype=np.float64)
            if k.ndim:
                raise ExpressionError(f"{name}[...]: the index varies over the grid")
            return component(env[name], Fraction(float(k)), name)
        return look

    def visit_BigOp(self, node: BigOp, parts: list[Compiled]) -> Compiled:
        """Written out for each distinct integer range on the grid (compiled once per
        range); a non-integer or empty range gives nan (undefined)."""
        lo_f, hi_f = parts[1], parts[2]
        cache: dict[tuple[int, int], Compiled | None] = {}

        def term(lo: float, hi: float) -> Compiled | None:
            if lo != int(lo) or hi != int(hi):
                return None
            key = (int(lo), int(hi))
            if key not in cache:
                try:
                    cache[key] = _compile(expand(node, *key))
                except EmptyRange:
                    cache[key] = None
            return cache[key]

        def big(env):
            lo = np.asarray(lo_f(env), dtype=np.float64)
            hi = np.asarray(hi_f(env), dtype=np.float64)
            if lo.ndim == 0 and hi.ndim == 0:
                f = term(float(lo), float(hi)) if np.isfinite(lo) and np.isfinite(hi) else None
                return np.nan if f is None else f(env)
            lo, hi = np.broadcast_arrays(lo, hi)
            out: Any = np.nan
            for a, b in set(zip(lo.ravel().tolist(), hi.ravel().tolist())):
                f = term(a, b) if np.isfinite(a) and np.isfinite(b) else None
                if f is not None:
                    out = np.where((lo == a) & (hi == b), f(env), out)
            return out
        return big


def _compile(node: Node) -> Compiled:
    return _Compile().walk(node)


def evaluate_grid(node: Node, grids: dict[str, object], *, fallback_digits: int = 17):
    """Evaluate on broadcast grids. Returns a float64 array when every entry is finite,
    else an object array in which the non-finite entries are exact mpmath values."""
    f = compile_numpy(node)
    arrays = {k: _array(v) for k, v in grids.items()}
    out = np.asarray(f(**arrays))
    bad = ~np.isfinite(out)
    if not bad.any():
        return out
    from . import mp as mpb
    plain = {k: a for k, a in arrays.items() if not isinstance(a, Vector)}
    shape = np.broadcast_shapes(out.shape, *(a.shape for a in plain.values()))
    full = {k: np.broadcast_to(a, shape) for k, a in plain.items()}
    vectors = {k: a.map(lambda x: Fraction(float(x))) for k, a in arrays.items() if isinstance(a, Vector)}
    obj = np.broadcast_to(out, shape).astype(object)
    bad_full = np.broadcast_to(bad, shape)
    for idx in (i for i in np.ndindex(shape) if bad_full[i]):      # (a 0-d grid too)
        env: dict = {k: Fraction(float(a[idx])) for k, a in full.items()}
        env.update(vectors)
        try:
            obj[idx] = mpb.evaluate(node, env, digits=fallback_digits)
        except (ExpressionError, ValueError, TypeError):
            obj[idx] = float("nan")
    return obj
