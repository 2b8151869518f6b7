"""Training: GD steps, full-batch GD (one run or several seeds batched), the two phases of
Sec. 5 and the memory estimate of a run.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import ops
from .diagnostics import distance
from .kernels import _loss_grad_batch, _loss_grad_blocks, _to_params
from .model import _risk, loss_and_grad
from .params import Array, MHAParams, _check_same, _check_X, _check_y, init_zero


def gd_step(params: MHAParams, X: Array, y: Array, eta: float, loss: str = "logistic",
            chunk: int | None = None, dtype=np.float64) -> tuple[MHAParams, float, float]:
    """One full-batch GD step theta <- theta - eta grad L^(theta), in place.

    Returns (params, L^(theta) before the step, ||grad L^(theta)||).  ``X`` (C-contiguous
    float64, or already of ``dtype``) and ``y`` are assumed validated (use :func:`train` for
    checked input). ``dtype`` 'float32' runs the forward/backward pass in single precision;
    the parameters stay float64.
    """
    L, gUe, gWr = _loss_grad_blocks(params, X, y, loss, chunk, dtype)
    return params, L, _descend(params, gUe, gWr, eta)


def _descend(params: MHAParams, gUe: Array, gWr: Array, eta: float) -> float:
    """theta <- theta - eta g in place, g from the internal layouts; returns ||g||."""
    g = _to_params(params, gUe, gWr)
    gn = float(np.sqrt(np.sum(g.U ** 2) + np.sum(g.W ** 2)))
    params.U -= eta * g.U
    params.W -= eta * g.W
    return gn


@dataclass
class TrainResult:
    """Final parameters and the per-step history (values *before* each update)."""

    params: MHAParams
    train_loss: Array
    grad_norm: Array
    dist_init: Array                      # ||theta^(k) - theta_start||
    test_loss: Array = field(default_factory=lambda: np.empty(0))
    test_steps: Array = field(default_factory=lambda: np.empty(0, dtype=int))


def train(params: MHAParams, X: Array, y: Array, *, eta: float, steps: int,
          loss: str = "logistic", X_test: Array | None = None, y_test: Array | None = None,
          eval_every: int = 0, dtype="float64") -> TrainResult:
    """Full-batch GD for ``steps`` iterations from a copy of ``params`` (Sec. 2, "Training").

    With test data and ``eval_every > 0`` the test loss is recorded every ``eval_every``
    steps and after the last one. ``dtype`` 'float32' runs each forward/backward pass in
    single precision (iterates, distances and test losses stay float64).
    """
    dt = ops.check_dtype(dtype)
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be a positive number, got {eta!r}")
    if int(steps) != steps or steps < 0:
        raise ValueError(f"steps must be a non-negative integer, got {steps!r}")
    ops.margin_loss(loss)
    X = _check_X(params, X)
    y = _check_y(y, X.shape[0])
    if (X_test is None) != (y_test is None):
        raise ValueError("give both X_test and y_test, or neither")
    test: tuple[Array, Array] | None = None
    if X_test is not None and y_test is not None:
        X_test = _check_X(params, X_test)
        test = (X_test, _check_y(y_test, X_test.shape[0]))
    start = params.copy()
    p = params.copy()
    Xs = X.astype(dt)                                   # cast once, not per step
    tl, gn, dist = np.empty(steps), np.empty(steps), np.empty(steps)
    test_loss, test_steps = [], []
    for k in range(steps):
        if test is not None and eval_every and k % eval_every == 0:
            test_loss.append(_risk(p, *test, loss))
            test_steps.append(k)
        dist[k] = distance(p, start).total
        _, tl[k], gn[k] = gd_step(p, Xs, y, eta, loss, dtype=dt)
        if not (np.isfinite(tl[k]) and np.isfinite(gn[k]) and np.isfinite(dist[k])):
            from ..budget import Divergence  # non-finite loss, gradient or iterate norm
            raise Divergence(k, "loss or iterate")
    if steps and not np.isfinite(distance(p, start).total):
        from ..budget import Divergence
        raise Divergence(steps, "iterate")
    if test is not None and eval_every:
        test_loss.append(_risk(p, *test, loss))
        test_steps.append(steps)
    return TrainResult(p, tl, gn, dist, np.asarray(test_loss), np.asarray(test_steps, dtype=int))


def train_batch(plist: list, X: Array, y: Array, *, eta: float, steps: int, loss: str = "logistic",
                dtype="float64") -> list[TrainResult]:
    """:func:`train` (without test data) of B independent problems of one shape in lock-step:
    ``plist`` B :class:`MHAParams` (one decoder and size), X (B, n, T, d), y (B, n).  Every
    step is one call of the batched kernel (:func:`_loss_grad_batch`, the problem axis a
    leading batch axis); each problem gets the arithmetic it gets alone, so the results
    equal B calls of :func:`train` (to rounding of the stacked products, tested to 1e-12).
    A non-finite loss, gradient or iterate raises :class:`~boundcalc.engine.budget.Divergence`
    naming the first problem that diverged (``where="problem b"``)."""
    dt = ops.check_dtype(dtype)
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be a positive number, got {eta!r}")
    if int(steps) != steps or steps < 0:
        raise ValueError(f"steps must be a non-negative integer, got {steps!r}")
    ops.margin_loss(loss)
    plist = list(plist)
    X = np.asarray(X, dtype=np.float64)
    if not plist or X.ndim != 4 or X.shape[0] != len(plist):
        raise ValueError(f"X must have shape (B, n, T, d) with B = {len(plist)} problems, got {X.shape}")
    for p in plist[1:]:
        _check_same(plist[0], p)
    X = np.stack([_check_X(p, x) for p, x in zip(plist, X)])
    if not (np.ndim(y) == 2 and len(y) == len(plist)):
        raise ValueError(f"y must have shape ({len(plist)}, {X.shape[1]})")
    y = np.stack([_check_y(v, X.shape[1]) for v in np.asarray(y, dtype=np.float64)])
    starts = [p.copy() for p in plist]
    ps = [p.copy() for p in plist]
    Xs = X.astype(dt)
    nb = len(ps)
    tl, gn, dist = np.empty((nb, steps)), np.empty((nb, steps)), np.empty((nb, steps))
    for k in range(steps):
        dist[:, k] = [distance(p, q).total for p, q in zip(ps, starts)]
        tl[:, k], gUe, gWr = _loss_grad_batch(ps, Xs, y, loss, None, dt)
        gn[:, k] = [_descend(p, gUe[b], gWr[b], eta) for b, p in enumerate(ps)]
        ok = np.isfinite(tl[:, k]) & np.isfinite(gn[:, k]) & np.isfinite(dist[:, k])
        if not ok.all():
            from ..budget import Divergence
            raise Divergence(k, "loss or iterate", f"problem {int(np.flatnonzero(~ok)[0])}")
    if steps:
        bad = [b for b, (p, q) in enumerate(zip(ps, starts)) if not np.isfinite(distance(p, q).total)]
        if bad:
            from ..budget import Divergence
            raise Divergence(steps, "iterate", f"problem {bad[0]}")
    return [TrainResult(p, tl[b], gn[b], dist[b]) for b, p in enumerate(ps)]


def first_phase(X1: Array, y1: Array, H: int, decoder: str = "full", *,
                alphas: Array | None = None, seed: int | None = None,
                loss: str = "logistic") -> tuple[MHAParams, Array]:
    """First phase of Sec. 5.1: one GD step from zero with per-head step alpha_h sqrt(H).

        theta_h^(1) = theta_h^(0) - alpha_h sqrt(H) grad_{theta_h} L^_{n1}(theta^(0)),  theta^(0) = 0,

    alpha_h IID Unif{-1, +1} (Prop. 2) drawn from ``seed`` unless ``alphas`` is given.
    Returns (theta^(1), alphas).  At theta = 0 the attention is uniform and the decoder
    gradient vanishes, so (Lemma 2) W_h^(1) = 0 and, for the 'full' decoder, every row of
    U_h^(1) is alpha_h v with v = (1/n1) sum_i (-l'(0)) y_i xbar_i (xbar_i the mean token;
    -l'(0) = 1/2 for the logistic loss).  ('pooling': u_h^(1) = alpha_h T v; 'last': alpha_h v.)
    Note: on DM1 with equiprobable labels v = (zeta/4) u_* + O(n1^{-1/2}); Lemma 2 prints the
    leading term as (zeta/2) u_* (a factor 2 apart, see the engine notes).
    """
    X1 = np.asarray(X1, dtype=np.float64)
    if X1.ndim != 3:
        raise ValueError(f"X1 must have shape (n1, T, d), got {X1.shape}")
    _, T, d = X1.shape
    theta0 = init_zero(H, T, d, decoder)
    if alphas is None:
        alphas = ops.rng(seed).choice(np.array([-1.0, 1.0]), size=H)
    alphas = np.asarray(alphas, dtype=np.float64)
    if alphas.shape != (H,):
        raise ValueError(f"alphas must have shape ({H},), got {alphas.shape}")
    _, g = loss_and_grad(theta0, X1, y1, loss)
    k = -alphas * np.sqrt(H)
    U1 = k.reshape((H,) + (1,) * (g.U.ndim - 1)) * g.U
    W1 = k[:, None, None] * g.W
    return MHAParams(U1, W1, decoder), alphas


@dataclass
class TwoPhaseResult:
    """Sec. 5.1: theta^(1) from the first phase, its step signs alpha_h, and the second-phase run."""

    theta1: MHAParams
    alphas: Array
    run: TrainResult


def two_phase(X1: Array, y1: Array, X: Array, y: Array, H: int, decoder: str = "full", *,
              eta: float, steps: int, seed: int | None = None, loss: str = "logistic",
              X_test: Array | None = None, y_test: Array | None = None,
              eval_every: int = 0) -> TwoPhaseResult:
    """The two-phase scheme of Sec. 5.1: :func:`first_phase` on (X1, y1) (n1 samples), then
    K = ``steps`` GD steps of size eta on the n fresh samples (X, y), starting at theta^(1)."""
    theta1, alphas = first_phase(X1, y1, H, decoder, seed=seed, loss=loss)
    run = train(theta1, X, y, eta=eta, steps=steps, loss=loss, X_test=X_test, y_test=y_test,
                eval_every=eval_every)
    return TwoPhaseResult(theta1, alphas, run)


def memory_estimate(c: dict) -> float:
    """Bytes a compare/measure configuration of this model needs, before anything is
    allocated (checked against the budget of :mod:`boundcalc.engine.budget`): the token
    arrays of the three sample sets, the parameters and their gradients, per-head
    attention scores, the n x n NTK Gram matrix (its Jacobians are chunked to 2e8 bytes)
    and the per-step records."""
    n_all = c["n1"] + c["n"] + c["n_test"]
    T, d, H = c["T"], c["d"], c["H"]
    return 8.0 * (2 * n_all * T * d + 6 * H * (T * d + d * d) + c["n"] ** 2 + 3 * c["K"]
                  + 3 * max(c["n1"], c["n"], c["n_test"]) * H * T * T) + 2e8
