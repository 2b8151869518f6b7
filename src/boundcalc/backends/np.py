"""NumPy back end: compile an expression to a vectorised float64 function.

Where float64 overflows or underflows to a non-finite value, :func:`evaluate_grid`
recomputes those entries with mpmath (object array), so no value silently becomes
``inf``.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Callable

import numpy as np

from ..errors import ExpressionError
from ..expr.nodes import Add, Const, Func, Mul, Node, Num, Pow, Rel, Sym

_FUNCS: dict[str, Callable] = {
    "sqrt": np.sqrt, "exp": np.exp, "abs": np.abs, "floor": np.floor, "ceil": np.ceil,
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "tanh": np.tanh, "atan": np.arctan,
}


def compile_numpy(node: Node) -> Callable[..., np.ndarray]:
    """A function ``f(**arrays) -> ndarray`` (float64, broadcasting)."""
    fn = _compile(node)

    def f(**env):
        with np.errstate(all="ignore"):
            return np.asarray(fn({k: np.asarray(v, dtype=np.float64) for k, v in env.items()}),
                              dtype=np.float64)
    return f


def _compile(node: Node):
    if isinstance(node, Num):
        c = float(node.value)
        return lambda env: c
    if isinstance(node, Sym):
        name = node.name
        return lambda env: env[name]
    if isinstance(node, Const):
        c = float(np.pi if node.name == "pi" else np.e)
        return lambda env: c
    if isinstance(node, Add):
        parts = [_compile(a) for a in node.args]
        return lambda env: sum(p(env) for p in parts)
    if isinstance(node, Mul):
        parts = [_compile(a) for a in node.args]

        def mul(env):
            out = parts[0](env)
            for p in parts[1:]:
                out = out * p(env)
            return out
        return mul
    if isinstance(node, Pow):
        b = _compile(node.base)
        if isinstance(node.exp, Num) and node.exp.value.denominator == 1:
            k = float(node.exp.value.numerator)
            if k == 0:                 # 0**0 is undefined (expr.singularities)
                return lambda env: np.where(np.asarray(b(env), dtype=np.float64) == 0, np.nan, 1.0)
            return lambda env: np.power(np.asarray(b(env), dtype=np.float64), k)
        e = _compile(node.exp)
        return lambda env: np.power(np.asarray(b(env), dtype=np.float64), e(env))
    if isinstance(node, Func):
        parts = [_compile(a) for a in node.args]
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
        f = _FUNCS[n]
        return lambda env: f(parts[0](env))
    if isinstance(node, Rel):
        raise ExpressionError("a relation has no numeric value")
    raise ExpressionError(f"cannot compile node {node!r}")


def evaluate_grid(node: Node, grids: dict[str, object], *, fallback_digits: int = 17):
    """Evaluate on broadcast grids. Returns a float64 array when every entry is finite,
    else an object array in which the non-finite entries are exact mpmath values."""
    f = compile_numpy(node)
    arrays = {k: np.asarray(v, dtype=np.float64) for k, v in grids.items()}
    out = np.asarray(f(**arrays))
    bad = ~np.isfinite(out)
    if not bad.any():
        return out
    from . import mp as mpb
    shape = np.broadcast_shapes(*(a.shape for a in arrays.values())) if arrays else ()
    full = {k: np.broadcast_to(a, shape) for k, a in arrays.items()}
    obj = np.broadcast_to(out, shape).astype(object)
    for idx in zip(*np.nonzero(np.broadcast_to(bad, shape))):
        env = {k: Fraction(float(a[idx])) for k, a in full.items()}
        try:
            obj[idx] = mpb.evaluate(node, env, digits=fallback_digits)
        except ExpressionError:
            obj[idx] = float("nan")
    return obj
