"""Projected GD and SGD (Thm. 1) and the memory estimate of a run.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import ops
from .activation import Activation, activation
from .heads import head_terms
from .model import _loss_and_grad, input_scale
from .params import (
    Array,
    ShallowParams,
    _check_rho,
    _check_same,
    _check_X,
    _check_y,
    _query,
)


def _radial(x: Array, x0: Array, radius: float, axes: tuple) -> Array:
    if np.isinf(radius):
        return x
    diff = x - x0
    nrm = np.sqrt(np.sum(diff * diff, axis=axes, keepdims=True))
    fac = np.minimum(1.0, radius / np.maximum(nrm, 1e-300))
    return x0 + fac * diff


def project(params: ShallowParams, params0: ShallowParams, rho) -> ShallowParams:
    """Euclidean projection Pi_Omega_rho onto Omega_rho (Definition 2): each head's c_i, U_i,
    W_i is radially rescaled onto its ball of radius rho_(c,u,w)/sqrt(m) around its initial
    value (the product of balls makes the projection separable).  Returns a new object."""
    _check_same(params, params0)
    r = _check_rho(rho) / np.sqrt(params.m)
    return ShallowParams(_radial(params.c[:, None], params0.c[:, None], r[0], (1,))[:, 0],
                         _radial(params.U, params0.U, r[1], (1,)),
                         _radial(params.W, params0.W, r[2], (1, 2)))


def _mse(p: ShallowParams, X: Array, q: Array, y: Array, A: Activation) -> float:
    t = head_terms(p.U, p.W, X, q)
    return float(np.mean((A.f(t.pre) @ p.c / np.sqrt(p.m) - y) ** 2))


def _norm(g: ShallowParams) -> float:
    return float(np.sqrt(g.c @ g.c + np.sum(g.U * g.U) + np.sum(g.W * g.W)))


def _descend_project(p: ShallowParams, g: ShallowParams, params0: ShallowParams, eta: float,
                     rho: Array) -> ShallowParams:
    p.c -= eta * g.c
    p.U -= eta * g.U
    p.W -= eta * g.W
    return project(p, params0, rho)


def proj_gd_step(params: ShallowParams, params0: ShallowParams, X: Array, y: Array, *,
                 eta: float, rho, query="last", act: str | Activation = "tanh",
                 chunk: int | None = None, dtype="float64") -> tuple[ShallowParams, float, float]:
    """One ProjGD step Pi_Omega_rho(phi - eta grad L^_n(phi)) (Sec. 3.3), phi0 = ``params0``.

    Returns (new parameters, L^_n(phi) before the step, ||grad L^_n(phi)||); ``params`` is
    updated in place before the projection.  ``chunk``: samples per fused block (None: auto);
    ``dtype``: 'float64' or 'float32' for the forward/backward arithmetic (:func:`check_dtype`).
    """
    A = activation(act)
    rho = _check_rho(rho)
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be a positive number, got {eta!r}")
    _check_same(params, params0)
    X = _check_X(X, params.d)
    y = _check_y(y, X.shape[0])
    L, g = _loss_and_grad(params, X, _query(X, query), y, A, chunk=chunk, dtype=check_dtype(dtype))
    return _descend_project(params, g, params0, eta, rho), L, _norm(g)


@dataclass
class ProjResult:
    """Outcome of ProjGD / ProjSGD.  Histories hold the value at phi^(s) *before* step s."""

    params: ShallowParams              # phi^(tau)
    average: ShallowParams             # bar phi^(tau) = (1/tau) sum_{s<tau} phi^(s)
    train_loss: Array                  # L^_n(phi^(s)) (ProjGD) / full-batch loss (ProjSGD, if tracked)
    grad_norm: Array                   # ||grad L^_{B_s}(phi^(s))||
    test_loss: Array = field(default_factory=lambda: np.empty(0))
    test_steps: Array = field(default_factory=lambda: np.empty(0, dtype=int))

    @property
    def min_train_loss(self) -> float:
        """min_{s < tau} L^_n(phi^(s)) (Theorem 1, left-hand side)."""
        return float(np.min(self.train_loss))


check_dtype = ops.check_dtype


def _train(params0, X, y, *, eta, steps, rho, query, act, batch, seed, X_test, y_test,
           eval_every, track_full_loss, dtype="float64"):
    A = activation(act)
    dt = check_dtype(dtype)
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be a positive number, got {eta!r}")
    if int(steps) != steps or steps < 1:
        raise ValueError(f"steps must be a positive integer, got {steps!r}")
    rho = _check_rho(rho)
    X = _check_X(X, params0.d)
    y = _check_y(y, X.shape[0])
    q = _query(X, query)
    scale = input_scale(X, q)
    Xt = np.ascontiguousarray(X.transpose(0, 2, 1))
    Xl, Xtl, ql, yl = (a.astype(dt) for a in (X, Xt, q, y))    # cast once, not per step
    if (X_test is None) != (y_test is None):
        raise ValueError("give both X_test and y_test, or neither")
    if X_test is not None:
        X_test = _check_X(X_test, params0.d)
        y_test = _check_y(y_test, X_test.shape[0])
        q_test = _query(X_test, query)
    n = X.shape[0]
    g = ops.rng(seed) if batch is not None else None
    p = params0.copy()
    acc = ShallowParams(np.zeros_like(p.c), np.zeros_like(p.U), np.zeros_like(p.W))
    tl = np.full(steps, np.nan)
    gn = np.empty(steps)
    test_loss, test_steps = [], []
    for s in range(steps):
        if X_test is not None and eval_every and s % eval_every == 0:
            test_loss.append(_mse(p, X_test, q_test, y_test, A))
            test_steps.append(s)
        acc.c += p.c
        acc.U += p.U
        acc.W += p.W
        if batch is None:
            tl[s], gr = _loss_and_grad(p, Xl, ql, yl, A, Xtl, dtype=dt, scale=scale)
        else:
            assert g is not None                                # made above when batch is given
            idx = g.integers(0, n, size=batch)                  # J_s iid Unif([n])
            if track_full_loss:
                tl[s] = _mse(p, X, q, y, A)
            _, gr = _loss_and_grad(p, Xl[idx], ql[idx], yl[idx], A, dtype=dt, scale=scale)
        gn[s] = _norm(gr)
        p = _descend_project(p, gr, params0, eta, rho)
    if X_test is not None and eval_every:
        test_loss.append(_mse(p, X_test, q_test, y_test, A))
        test_steps.append(steps)
    avg = ShallowParams(acc.c / steps, acc.U / steps, acc.W / steps)
    return ProjResult(p, avg, tl, gn, np.asarray(test_loss), np.asarray(test_steps, dtype=int))


def proj_gd(params0: ShallowParams, X: Array, y: Array, *, eta: float, steps: int, rho,
            query="last", act: str | Activation = "tanh", X_test=None, y_test=None,
            eval_every: int = 0, dtype="float64") -> ProjResult:
    """ProjGD (Sec. 3.3): phi^(s+1) = Pi_Omega_rho(phi^(s) - eta grad L^_n(phi^(s))), s < steps,
    from phi^(0) = ``params0`` (also the centre of Omega_rho).  rho = (inf, inf, inf) is plain GD.
    ``dtype`` 'float32' runs each forward/backward pass in single precision; the iterates,
    their average and the projection stay float64."""
    return _train(params0, X, y, eta=eta, steps=steps, rho=rho, query=query, act=act,
                  batch=None, seed=None, X_test=X_test, y_test=y_test, eval_every=eval_every,
                  track_full_loss=True, dtype=dtype)


def proj_sgd(params0: ShallowParams, X: Array, y: Array, *, eta: float, steps: int, rho,
             seed: int | None = None, batch_size: int = 1, query="last",
             act: str | Activation = "tanh", track_full_loss: bool = False, X_test=None,
             y_test=None, eval_every: int = 0, dtype="float64") -> ProjResult:
    """ProjSGD (Sec. 3.3): as ProjGD with the gradient of L^_{B_s}, B_s = {J_s}, J_s iid
    Unif([n]) (``batch_size`` > 1 draws that many iid indices).  With ``track_full_loss``
    the full-batch L^_n(phi^(s)) is recorded each step (costly); otherwise train_loss is NaN."""
    if int(batch_size) != batch_size or batch_size < 1:
        raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
    return _train(params0, X, y, eta=eta, steps=steps, rho=rho, query=query, act=act,
                  batch=int(batch_size), seed=seed, X_test=X_test, y_test=y_test,
                  eval_every=eval_every, track_full_loss=track_full_loss, dtype=dtype)


def memory_estimate(c: dict, m: int) -> float:
    """Bytes one width-m run needs before anything is allocated (see
    :mod:`boundcalc.engine.budget`): parameters W (m, d, d), U (m, d) with gradients,
    accumulators and boundary directions, per-sample head features, the data and the
    teacher pool."""
    d, n, T, pool = c["d"], c["n"], c.get("T", 8), c["pool"]
    return 8.0 * (8 * m * d * d + 4 * n * m * d + 2 * n * T * d + 2 * pool * d * d)
