"""Bench case for arda2026: one full-batch ProjGD step of the shallow transformer (eqs. (2)-(4)).

Interface: see ``bench/torch_deora2023.py`` (``CONFIG``, ``setup(seed) -> (numpy_step,
torch_step, flops_per_step)``).

Configuration (issue 4): n = 4000 teacher-student samples (Sec. 6.1 inputs, d = 8, T = 16,
q_X = X_T), width m = 64 paired heads, tanh, squared loss, eta = 1.75/sqrt(4000) (authors'
code), projection radii rho = (3, 3, 3).  Labels are random (the step cost does not depend
on them; the teacher's Monte-Carlo labels would only slow the setup).
"""
from __future__ import annotations

import numpy as np

from boundcalc.engine import arda2026 as A
from boundcalc.engine.data.transport import clipped_gaussian_inputs

N, d, T, M = 4000, 8, 16, 64
ETA = 1.75 / np.sqrt(4000)
RHO = np.array([3.0, 3.0, 3.0])
CONFIG = f"n={N} d={d} T={T} m={M} tanh squared-loss ProjGD float64"


def flops(n: int, d: int, T: int, m: int) -> float:
    """Matrix-product FLOPs of arda2026._loss_and_grad."""
    return float(4 * n * d * d * m + 8 * n * T * d * m + 2 * n * T * m + 2 * n * m * d + 2 * n * m)


def _torch_step_factory(p0: A.ShallowParams, X: np.ndarray, y: np.ndarray):
    try:
        import torch
    except ImportError:
        return None, None
    n = X.shape[0]
    Xt = torch.tensor(X, dtype=torch.float64)
    qt = Xt[:, :, -1].contiguous()
    yt = torch.tensor(y, dtype=torch.float64)
    P = [torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in (p0.c, p0.U, p0.W)]
    P0 = [torch.tensor(a, dtype=torch.float64) for a in (p0.c, p0.U, p0.W)]
    r = torch.tensor(RHO / np.sqrt(M), dtype=torch.float64)
    dims = (None, (1,), (1, 2))

    def step():
        c, U, W = P
        Wq = (qt @ W.reshape(M * d, d).T).reshape(n, M, d)         # W_i q_X
        al = torch.softmax(Wq @ Xt, dim=-1)                         # (n, m, T)
        a = al @ Xt.transpose(1, 2)                                 # (n, m, d)
        f = torch.tanh((a * U).sum(-1)) @ c / M ** 0.5
        loss = ((f - yt) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            for k in range(3):
                x, x0 = P[k], P0[k]
                x.sub_(ETA * x.grad)
                x.grad = None
                diff = x - x0
                nrm = diff.abs() if dims[k] is None else torch.linalg.vector_norm(
                    diff, dim=dims[k], keepdim=True)
                x.copy_(x0 + diff * torch.clamp(r[k] / nrm.clamp_min(1e-300), max=1.0))
        return loss

    return step, P


def setup(seed: int = 0):
    g = np.random.default_rng(seed)
    X = clipped_gaussian_inputs(N, d, T, g)
    y = 0.1 * g.standard_normal(N)
    p0 = A.paired_init(M, d, seed=seed)
    state = {"p": p0.copy()}

    def numpy_step():
        state["p"], L, _ = A.proj_gd_step(state["p"], p0, X, y, eta=ETA, rho=RHO)
        return L

    torch_step, _ = _torch_step_factory(p0, X, y)
    if torch_step is not None:            # both implementations must agree on two steps
        ref = p0.copy()
        for _ in range(2):
            ref, _, _ = A.proj_gd_step(ref, p0, X, y, eta=ETA, rho=RHO)
        chk, P = _torch_step_factory(p0, X, y)
        chk()
        chk()
        err = max(np.max(np.abs(t.detach().numpy() - a)) for t, a in zip(P, (ref.c, ref.U, ref.W)))
        if err > 1e-10:
            raise RuntimeError(f"torch and numpy arda2026 steps disagree (max diff {err:.3g})")
    return numpy_step, torch_step, flops(N, d, T, M)
