"""Benchmark: one full-batch GD step of the anon2025 shallow transformer (self-attention
with 1/sqrt(d_m) scaling, ReLU with W_H = I, average pooling, linear output), NumPy engine
vs PyTorch CPU (autograd), both float64 and vectorised over samples.

Instance: MNIST-sized token sequences (d_s = 16 tokens of d = 64, the App. B token
dimension), N = 256 inputs drawn uniformly in [0, 1] (pixel-like; no data files needed),
labels +-1, LeCun initialisation, d_m = 64, logistic (two-class cross-entropy) loss.

``setup(seed)`` returns dict(numpy_step, torch_step, flops, config[, check]): each step
callable performs one GD update of its own copy of theta; ``check()`` returns the largest
absolute difference between the two gradients at theta^0. ``torch_step`` is None (and
``check`` absent) when torch is not installed.
"""
from __future__ import annotations

import numpy as np

from boundcalc.engine import anon2025 as an
from boundcalc.engine import ops

N, DS, D, DM = 256, 16, 64, 64
LR = 0.1


def flops(n: int = N, ds: int = DS, d: int = D, dm: int = DM) -> float:
    """2 x multiply-adds: Q, K, V and their weight gradients (6 GEMMs of n ds d dm), the
    score/attention products forward (2) and backward (4) (n ds^2 dm each), plus the
    O(n ds dm + n ds^2) element-wise work."""
    return 12.0 * n * ds * d * dm + 12.0 * n * ds * ds * dm + 10.0 * n * ds * (dm + ds)


def setup(seed: int) -> dict:
    g = ops.rng(seed)
    X = g.random((N, DS, D))
    y = np.where(g.random(N) < 0.5, -1.0, 1.0)
    theta0 = an.init_lecun(D, DM, seed)
    state = {"theta": theta0}

    def numpy_step():
        _, grad = an.value_and_grad(state["theta"], X, y, "logistic")
        state["theta"] = state["theta"].axpy(-LR, grad)

    out = {"numpy_step": numpy_step, "torch_step": None, "flops": flops(),
           "config": f"anon2025 GD step, logistic, N={N} d_s={DS} d={D} d_m={DM}, float64"}
    try:
        import torch
    except ImportError:
        return out

    tX, ty = torch.tensor(X), torch.tensor(y)
    names = ("WQ", "WK", "WV", "wO")
    params = [torch.tensor(getattr(theta0, k), dtype=torch.float64, requires_grad=True)
              for k in names]

    def torch_loss(WQ, WK, WV, wO):
        Q, K, V = tX @ WQ.T, tX @ WK.T, tX @ WV.T                       # (N, d_s, d_m)
        B = torch.softmax(Q @ K.transpose(1, 2) / DM ** 0.5, dim=-1)    # rows beta_i
        F = torch.relu(B @ V).mean(dim=1)                               # F_pre (N, d_m)
        return torch.nn.functional.softplus(-ty * (F @ wO)).mean()

    def torch_step():
        grads = torch.autograd.grad(torch_loss(*params), params)
        with torch.no_grad():
            for prm, gr in zip(params, grads):
                prm.sub_(LR * gr)

    def check() -> float:
        fresh = [torch.tensor(getattr(theta0, k), dtype=torch.float64, requires_grad=True)
                 for k in names]
        tg = torch.autograd.grad(torch_loss(*fresh), fresh)
        _, ng = an.value_and_grad(theta0, X, y, "logistic")
        return float(max(np.max(np.abs(a.numpy() - getattr(ng, k))) for a, k in zip(tg, names)))

    out["torch_step"] = torch_step
    out["check"] = check
    return out
