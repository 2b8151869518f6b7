"""Measurements of a state: distances from the initialisation, norms, margins, gradient norm,
extreme Hessian eigenvalues.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import ops
from .kernels import _forward
from .model import forward, hvp, loss_and_grad
from .params import Array, MHAParams, _check_same, _check_X, _check_y


@dataclass
class Distances:
    """||theta - theta_0|| in total, per head, and per block (U, W), per head and in total."""

    total: float
    per_head: Array
    U_per_head: Array
    W_per_head: Array
    U_total: float
    W_total: float


def distance(params: MHAParams, params0: MHAParams) -> Distances:
    """Distances of theta from a reference theta_0 (Thm. 1 bounds ||theta^(K) - theta^(0)||)."""
    _check_same(params, params0)
    H = params.H
    du = np.sqrt(np.sum((params.U - params0.U).reshape(H, -1) ** 2, axis=1))
    dw = np.sqrt(np.sum((params.W - params0.W).reshape(H, -1) ** 2, axis=1))
    ph = np.sqrt(du ** 2 + dw ** 2)
    return Distances(float(np.sqrt(np.sum(ph ** 2))), ph, du, dw,
                     float(np.sqrt(np.sum(du ** 2))), float(np.sqrt(np.sum(dw ** 2))))


def norm_2inf(params: MHAParams) -> float:
    """||theta~||_{2,inf} := max_h ||theta_h|| (Sec. 2)."""
    H = params.H
    return float(np.max(np.sqrt(np.sum(params.U.reshape(H, -1) ** 2, axis=1)
                                + np.sum(params.W.reshape(H, -1) ** 2, axis=1))))


def B2(params0: MHAParams) -> float:
    """P1 of Definition 1: the smallest B_2 with ||theta_h^(0)|| <= B_2 for all h (max_h ||theta_h^(0)||)."""
    return norm_2inf(params0)


def B_Phi(params0: MHAParams, X: Array) -> float:
    """P2 of Definition 1: max_i |Phi~(X_i; theta^(0))|."""
    return float(np.max(np.abs(forward(params0, X))))


def margins(params: MHAParams, X: Array, y: Array) -> Array:
    """Per-sample margins y_i Phi~(X_i; theta)."""
    X = _check_X(params, X)
    return _check_y(y, X.shape[0]) * _forward(params, X).phi


def grad_norm(params: MHAParams, X: Array, y: Array, loss: str = "logistic") -> float:
    """||grad L^(theta)||."""
    _, g = loss_and_grad(params, X, y, loss)
    return float(np.linalg.norm(g.flat()))


def hessian_extreme_eigenvalues(params: MHAParams, X: Array, y: Array,
                                loss: str = "logistic", tol: float = 1e-8, seed: int = 0,
                                dense_below: int = 200) -> tuple[float, float]:
    """(lambda_min, lambda_max) of grad^2 L^(theta) by Lanczos on exact HVPs (Cor. 1 (2)-(3)).

    Below ``dense_below`` parameters the Hessian is assembled from HVP columns instead.
    """
    X = _check_X(params, X)
    y = _check_y(y, X.shape[0])
    return ops.extreme_eigenvalues(lambda v: hvp(params, X, y, v, loss).flat(), params.size,
                                   tol=tol, seed=seed, dense_below=dense_below)
