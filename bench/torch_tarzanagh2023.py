"""Benchmark: one full-batch GD step of the Tarzanagh et al. 2023 attention model, NumPy
engine vs PyTorch CPU (autograd), both float64 and vectorised over samples.

Step: joint GD on (v, p) with W fixed and the logistic loss (Sec. 3),
L(v, p) = (1/n) sum_i log(1 + exp(-Y_i v^T X_i^T S(X_i W^T p))), on an App. E-style
instance (tokens and v uniform on the sphere, W = I) scaled up to n = 256, T = 32, d = 64.

``setup(seed)`` returns dict(numpy_step, torch_step, flops, config[, check]): each step
callable performs one update of its own copy of (v, p); ``check()`` returns the largest
absolute difference between the two implementations' gradients at the initial point.
``torch_step`` is None (and ``check`` absent) when torch is not installed.
"""
from __future__ import annotations

import numpy as np

from boundcalc.engine import tarzanagh2023 as tz
from boundcalc.engine.data.tokens import appendix_e

N, T, D = 256, 32, 64
LR = 0.1


def flops(n: int = N, t: int = T, d: int = D) -> float:
    """Multiply-adds x2 of one step: keys X W^T (2 n T d^2), scores K p, X v, the two
    gradient contractions K^T g and X^T s (2 n T d each), plus O(n T) softmax/loss work."""
    return 2.0 * n * t * d * d + 8.0 * n * t * d + 10.0 * n * t


def setup(seed: int) -> dict:
    data = appendix_e(n=N, T=T, d=D, seed=seed)
    X, Y, W = data.X, data.Y, data.W
    p0 = 0.1 * np.random.default_rng(seed + 1).standard_normal(D)
    state = {"v": data.v.copy(), "p": p0.copy()}

    def numpy_step():
        _, gv, gp, _ = tz.value_and_grads(X, Y, state["v"], W, state["p"], "logistic")
        state["v"] = state["v"] - LR * gv
        state["p"] = state["p"] - LR * gp

    out = {"numpy_step": numpy_step, "torch_step": None, "flops": flops(),
           "config": f"tarzanagh2023 joint (v,p) GD step, logistic, n={N} T={T} d={D}, float64"}
    try:
        import torch
    except ImportError:
        return out

    tX, tY, tW = (torch.tensor(a, dtype=torch.float64) for a in (X, Y, W))
    tv = torch.tensor(data.v, dtype=torch.float64, requires_grad=True)
    tp = torch.tensor(p0, dtype=torch.float64, requires_grad=True)

    def torch_loss(v, p):
        K = tX @ tW.T                                   # (n, T, d)
        s = torch.softmax(K @ p, dim=1)                 # (n, T)
        f = torch.einsum("nt,ntd,d->n", s, tX, v)
        return torch.nn.functional.softplus(-tY * f).mean()

    def torch_step():
        loss = torch_loss(tv, tp)
        gv, gp = torch.autograd.grad(loss, (tv, tp))
        with torch.no_grad():
            tv.sub_(LR * gv)
            tp.sub_(LR * gp)

    def check() -> float:
        v0 = torch.tensor(data.v, dtype=torch.float64, requires_grad=True)
        q0 = torch.tensor(p0, dtype=torch.float64, requires_grad=True)
        gv, gp = torch.autograd.grad(torch_loss(v0, q0), (v0, q0))
        _, nv, npg, _ = tz.value_and_grads(X, Y, data.v, W, p0, "logistic")
        return float(max(np.max(np.abs(gv.numpy() - nv)), np.max(np.abs(gp.numpy() - npg))))

    out["torch_step"] = torch_step
    out["check"] = check
    return out
