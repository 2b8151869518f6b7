"""Gradient descent: on p from precomputed keys (``gd_p``, batched over trials) and on p, W or
(v, p) (``train``), with the memory estimates of a run.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boundcalc.engine import ops
from boundcalc.engine.data.tokens import TokenDataset

from .measurements import correlation, max_attention
from .model import Array, _grad_p_keys, value_and_grads


def gd_p(keys: Array, gamma: Array, p0: Array, *, lr: float, steps: int, loss: str,
         normalized: bool, record=(), dtype="float64") -> dict:
    """GD (3) on p alone (W, v fixed, through the keys and scores) from p0:
    p <- p - lr g, or p <- p - lr g/||g|| (``normalized``). Returns the final p, the
    gradient norm at every iterate 0..steps and the iterates at the steps in ``record``.

    With a leading batch axis (see :func:`_grad_p_keys`) B independent problems advance in
    lock-step: p0 (B, d), the results (B, d), (B, steps + 1) and {step: (B, d)}. A
    non-finite gradient or iterate raises :class:`~boundcalc.engine.budget.Divergence`
    (batched: naming the first problem that diverged, ``where="problem b"``).
    ``dtype`` 'float32' evaluates each gradient (15a) in single precision (keys and scores
    cast once); p, its update and the recorded norms stay float64.
    """
    from ..budget import Divergence

    _, d1, _ = ops.margin_loss(loss)
    dt = ops.check_dtype(dtype)
    keys = np.asarray(keys, dtype=dt)
    gamma = np.asarray(gamma, dtype=dt)
    p = np.array(p0, dtype=np.float64)
    batched = keys.ndim == 4
    gnorm = np.empty(p.shape[:-1] + (steps + 1,))
    rec = {}
    want = {int(r) for r in record}
    for t in range(steps + 1):
        g, _ = _grad_p_keys(keys, gamma, p if dt == np.float64 else p.astype(dt), d1)
        g = np.asarray(g, dtype=np.float64)
        norm = (lambda a: np.linalg.norm(a, axis=-1)) if batched else np.linalg.norm
        gn = norm(g)
        ok = np.isfinite(gn) & np.isfinite(norm(p))
        if not np.all(ok):
            raise Divergence(t, "gradient or iterate",
                             f"problem {int(np.flatnonzero(~ok)[0])}" if batched else "")
        gnorm[..., t] = gn
        if t in want:
            rec[t] = p.copy()
        if t == steps:
            break
        if not normalized:
            p = p - lr * g
        elif batched:
            pos = gn > 0
            p = p - np.where(pos, lr / np.where(pos, gn, 1.0), 0.0)[:, None] * g
        elif gn > 0:
            p = p - (lr / float(gn)) * g
    return {"p": p, "grad_norm": gnorm, "record": rec}


@dataclass(frozen=True)
class Trajectory:
    """Recorded iterates of ``train``: index ``step`` (k,), parameters ``p`` (k, d), ``v``
    (k, d), ``W`` (k, d, d), ``loss`` (k,), ``grad_norm`` (k,) (Euclidean/Frobenius norm of
    the gradient of the trained block(s) at that iterate), ``max_attention`` (k,) and, if a
    reference direction was given, ``correlation`` (k,) = <p/||p||, ref/||ref||> (NaN at p = 0)."""

    step: Array
    p: Array
    v: Array
    W: Array
    loss: Array
    grad_norm: Array
    max_attention: Array
    correlation: Array | None


_PARAMS = ("p", "W", "vp")


def _unit(g: Array) -> Array:
    n = np.linalg.norm(g)
    return g / n if n > 0 else np.zeros_like(g)


def train(data: TokenDataset, *, params: str = "p", lr: float, steps: int,
          loss: str = "logistic", normalized: bool = False, p0=None, v0=None, W0=None,
          reference=None, record_every: int = 1, dtype="float64") -> Trajectory:
    """Full-batch gradient descent (3) on (1).

    params: 'p' (v, W fixed), 'W' (v, p fixed; Lemma 1's GD on W with p = u) or 'vp'
    (joint, W fixed). Update x <- x - lr * g, or with ``normalized`` x <- x - lr * g/||g||
    (App. E; for 'vp' each block's gradient is normalised separately; a zero gradient
    gives a zero step). Defaults: p0 = data.inits['p0'] if it is a single vector else 0,
    v0 = data.v (or data.inits['v0']), W0 = data.W. Records steps 0, r, 2r, ... and the last.
    ``dtype`` 'float32': each step's loss and gradients in single precision
    (:func:`value_and_grads`); the iterates and the recorded values stay float64.
    """
    dt = ops.check_dtype(dtype)
    if params not in _PARAMS:
        raise ValueError(f"params must be one of {_PARAMS}, got {params!r}")
    ops.check_schedule(lr, steps, record_every)
    ops.margin_loss(loss)
    d = data.X.shape[2]

    def pick(val, key, fallback):
        if val is not None:
            return np.array(val, dtype=np.float64)
        init = data.inits.get(key)
        if isinstance(init, np.ndarray):
            return init.astype(np.float64).copy()
        return fallback

    p = pick(p0, "p0", np.zeros(d))
    v = pick(v0, "v0", None if data.v is None else data.v.copy())
    if v is None:
        raise ValueError("no head v: pass v0 (the data set does not fix one)")
    W = np.array(data.W if W0 is None else W0, dtype=np.float64)
    ref = None if reference is None else np.asarray(reference, dtype=np.float64)
    X, Y = data.X, data.Y
    rec: dict[str, list] = {k: [] for k in ("step", "p", "v", "W", "loss", "gn", "att", "corr")}

    def record(t, val, g):
        rec["step"].append(t)
        rec["p"].append(p.copy())
        rec["v"].append(v.copy())
        rec["W"].append(W.copy())
        rec["loss"].append(val)
        rec["gn"].append(g)
        rec["att"].append(max_attention(X, W, p))
        if ref is not None:
            rec["corr"].append(correlation(p, ref) if np.any(p) else np.nan)

    for t in range(steps + 1):
        val, gv, gp, gW = value_and_grads(X, Y, v, W, p, loss, dt)
        if params == "p":
            gnorm = float(np.linalg.norm(gp))
        elif params == "W":
            gnorm = float(np.linalg.norm(gW))
        else:
            gnorm = float(np.sqrt(gv @ gv + gp @ gp))
        if t % record_every == 0 or t == steps:
            record(t, val, gnorm)
        if t == steps:
            break
        if params == "p":
            p = p - lr * (_unit(gp) if normalized else gp)
        elif params == "W":
            W = W - lr * (_unit(gW) if normalized else gW)
        else:
            v, p = (v - lr * (_unit(gv) if normalized else gv),
                    p - lr * (_unit(gp) if normalized else gp))
    return Trajectory(np.array(rec["step"]), np.array(rec["p"]), np.array(rec["v"]),
                      np.array(rec["W"]), np.array(rec["loss"]), np.array(rec["gn"]),
                      np.array(rec["att"]), np.array(rec["corr"]) if ref is not None else None)


def memory_estimate(s: dict) -> float:
    """Bytes a compare configuration needs before anything is allocated (see
    :mod:`boundcalc.engine.budget`): the per-step gradient-norm record, the token arrays,
    d x d Hessians and the recorded iterates."""
    n, T, d = s.get("n", 4), s.get("T", 2), s.get("d", 10)
    pts = s.get("hessian_points", 20) + s.get("random_points", 20) + 1
    return 8.0 * ((s["steps"] + 1) + 4 * n * T * d + 6 * d * d + pts * d)


def trajectory_bytes(steps: int, d: int, record_every: int = 1) -> float:
    """Bytes :func:`train` needs for its :class:`Trajectory` (checked against the budget of
    :mod:`boundcalc.engine.budget` before a run): per recorded step, Python lists of the
    copies of p, v and W and five scalars, then the arrays they become.  Measured with
    tracemalloc at d = 2: ~680 bytes per step at the peak; this charges 600 + 16 (d^2 + 2d + 5)."""
    records = steps // max(1, int(record_every)) + 2
    return float(records) * (600.0 + 16.0 * (d * d + 2 * d + 5))
