"""The activation (tanh) with its derivatives and the bounds sigma-bar of the paper.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .params import Array


@dataclass(frozen=True)
class Activation:
    """sigma with its first two derivatives and the bounds sigma_bar = (sigma_0, sigma_1, sigma_2)
    of eq. (3): |sigma| <= sigma_0, |sigma'| <= sigma_1, |sigma''| <= sigma_2."""

    name: str
    f: Callable[[Array], Array]
    d1: Callable[[Array], Array]
    d2: Callable[[Array], Array]
    sigma_bar: tuple[float, float, float]
    fd1: Callable[[Array], tuple[Array, Array]] | None = None

    def f_d1(self, u: Array) -> tuple[Array, Array]:
        """(sigma(u), sigma'(u)) from one evaluation where the activation allows it."""
        return self.fd1(u) if self.fd1 is not None else (self.f(u), self.d1(u))


def _tanh_f_d1(u):
    t = np.tanh(u)
    return t, 1.0 - t * t


def _tanh_d1(u):
    t = np.tanh(u)
    return 1.0 - t * t


def _tanh_d2(u):
    t = np.tanh(u)
    return -2.0 * t * (1.0 - t * t)


TANH = Activation("tanh", np.tanh, _tanh_d1, _tanh_d2, (1.0, 1.0, 4.0 / (3.0 * np.sqrt(3.0))), _tanh_f_d1)


def activation(act: str | Activation = "tanh",
               sigma_bar: tuple[float, float, float] | None = None) -> Activation:
    """The activation to use; ``sigma_bar`` overrides the bound triple (all must be > 0)."""
    if isinstance(act, Activation):
        a = act
    elif act == "tanh":
        a = TANH
    else:
        raise ValueError(f"unknown activation {act!r}; pass 'tanh' or an Activation")
    if sigma_bar is not None:
        sb = tuple(float(s) for s in sigma_bar)
        if len(sb) != 3 or not all(np.isfinite(s) and s > 0 for s in sb):
            raise ValueError(f"sigma_bar must be three positive numbers, got {sigma_bar!r}")
        a = Activation(a.name, a.f, a.d1, a.d2, sb, a.fd1)
    return a
