"""Bench case for deora2023: one full-batch GD step of the H-head attention model (eq. (2)).

Interface shared by every ``bench/torch_<paper>.py`` (see ``bench/engine.py``):

    CONFIG: str                      human-readable configuration
    setup(seed: int = 0) -> (numpy_step, torch_step, flops_per_step)

``numpy_step()`` / ``torch_step()`` each perform ONE full-batch training step (forward +
backward + parameter update, in place on their own copy of the same initial state and the
same batch); ``torch_step`` is None when torch is not installed.  ``flops_per_step`` counts
2 x multiply-adds of the numpy step's matrix products (elementwise work ignored).

Configuration (issue 4): n = 1024 samples of DM1 (T = 16, d = 16, M = 4, zeta = 1/4),
H = 64 heads, 'full' decoder, logistic loss, eta = 0.1, started from the first-phase iterate
theta^(1) (Sec. 5.1) plus a small random W so the softmax is not uniform.
"""
from __future__ import annotations

import numpy as np

from boundcalc.engine import deora2023 as D
from boundcalc.engine.data.dm1 import make_dm1

N, T, d, H, ETA = 1024, 16, 16, 64, 0.1
CONFIG = f"n={N} T={T} d={d} H={H} decoder=full logistic float64"


def flops(n: int, T: int, d: int, H: int, Tq: int) -> float:
    """Matrix-product FLOPs of deora2023._loss_grad_blocks (K = Tq*H query rows)."""
    K = Tq * H
    return float(4 * n * Tq * H * d * d + 8 * n * T * K * d + 4 * n * K * d)


def _data(seed: int):
    dm = make_dm1(T=T, d=d, M=4, S=1.0, zeta=0.25, z_mu=0.05, z_nu=0.2, z_perp_norm=0.3)
    s1, s2 = dm.sample(256, seed=seed), dm.sample(N, seed=seed + 1)
    p, _ = D.first_phase(s1.X, s1.y, H, "full", seed=seed)
    p.W += 0.05 * np.random.default_rng(seed).standard_normal(p.W.shape)
    return p, np.ascontiguousarray(s2.X), s2.y


def _torch_step_factory(p: D.MHAParams, X: np.ndarray, y: np.ndarray):
    try:
        import torch
    except ImportError:
        return None, None
    Xt = torch.tensor(X, dtype=torch.float64)
    yt = torch.tensor(y, dtype=torch.float64)
    U = torch.tensor(p.U, dtype=torch.float64, requires_grad=True)
    W = torch.tensor(p.W, dtype=torch.float64, requires_grad=True)
    n = X.shape[0]

    def step():
        # same vectorised formulation: one GEMM for X W, batched GEMMs for logits and S X
        Wr = W.permute(1, 0, 2).reshape(d, H * d)
        A = (Xt.reshape(n * T, d) @ Wr).reshape(n, T * H, d)
        S = torch.softmax(A @ Xt.transpose(1, 2), dim=-1)
        O = S @ Xt
        phi = (O.reshape(n, -1) @ U.permute(1, 0, 2).reshape(-1)) / H ** 0.5
        loss = torch.nn.functional.softplus(-yt * phi).mean()
        loss.backward()
        with torch.no_grad():
            U.sub_(ETA * U.grad)
            W.sub_(ETA * W.grad)
            U.grad = None
            W.grad = None
        return loss

    return step, (U, W)


def setup(seed: int = 0):
    p, X, y = _data(seed)
    pn = p.copy()

    def numpy_step():
        return D.gd_step(pn, X, y, ETA)

    torch_step, state = _torch_step_factory(p.copy(), X, y)
    if torch_step is not None:            # both implementations must agree on one step
        ref = p.copy()
        D.gd_step(ref, X, y, ETA)
        chk, st = _torch_step_factory(p.copy(), X, y)
        chk()
        err = max(np.max(np.abs(st[0].detach().numpy() - ref.U)),
                  np.max(np.abs(st[1].detach().numpy() - ref.W)))
        if err > 1e-10:
            raise RuntimeError(f"torch and numpy deora2023 steps disagree (max diff {err:.3g})")
    return numpy_step, torch_step, flops(N, T, d, H, T)
