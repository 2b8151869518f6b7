"""Vectorised random points in symbol domains, for counterexample searches.

Points are drawn with NumPy (log-uniform on wide positive ranges, uniform otherwise,
rounded on integer domains, corners of the box first) and expressions are evaluated
on all of them at once by the NumPy back end; only the few promising points are then
re-checked with exact or interval arithmetic. Sampling finds counterexamples; it never
proves anything.

Soundness contract: this module proves nothing and disproves nothing: it only proposes
points, which the callers re-check exactly or in ball arithmetic.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..backends.np import compile_numpy
from ..expr.domains import Domain
from ..expr.nodes import Node


def box_for(d: Domain) -> tuple[float, float]:
    """The box sampled for a domain: :meth:`Domain.default_range` as floats."""
    a, b = d.default_range()
    return float(a), float(b)


def sample(domains: dict[str, Domain], n: int, seed: int = 0,
           ranges: dict[str, tuple[float, float]] | None = None) -> dict[str, np.ndarray]:
    """``n`` random points of the domains (symbol -> array), corners of the box first;
    ``ranges`` overrides a symbol's box."""
    rng = np.random.default_rng(seed)
    names = sorted(domains)
    out = {}
    k = len(names)
    corners = min(2 ** min(k, 10), n // 4)
    for i, name in enumerate(names):
        lo, hi = (ranges or {}).get(name) or box_for(domains[name])
        if lo > 0 and hi / lo > 10:
            x = np.exp(rng.uniform(np.log(lo), np.log(hi), n))
        else:
            x = rng.uniform(lo, hi, n)
        if corners:
            x[:corners] = np.where((np.arange(corners) >> i) & 1, hi, lo)
        if domains[name].integer:
            x = np.clip(np.round(x), np.ceil(lo), np.floor(hi))
        out[name] = x
    return out


def values(node: Node, points: dict[str, np.ndarray]) -> np.ndarray:
    """``node`` at every point of ``points`` (the NumPy back end; floats, NaN where undefined)."""
    f = compile_numpy(node)
    return f(**{k: v for k, v in points.items() if k in node.symbols()}) + np.zeros(
        len(next(iter(points.values()))) if points else 1)


def point(points: dict[str, np.ndarray], i: int) -> dict[str, Fraction]:
    """The i-th sample as exact rationals (shortest decimal of each double)."""
    return {k: Fraction(repr(float(v[i]))) for k, v in points.items()}
