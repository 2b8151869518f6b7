"""The measurement: ProjGD at one width on the teacher-student data, over widths and seeds
(a sweep).
"""
from __future__ import annotations

import functools
import math
import time

import numpy as np

from .settings import PAPER


@functools.lru_cache(maxsize=4)
def _data(n, d, T, R, nu, pool, weights, seed, teacher="paper"):
    from ...engine.data import transport
    return transport.teacher_student_data(n, d, T, R=R, nu=nu, pool_size=pool, weights=weights,
                                          seed=seed, teacher=teacher)


def measure_width(config: dict) -> dict:
    """One (width m, seed) point: the Sec. 6.1 measurements (JSON in/out, for ``sweep.run``).

    ``config``: the keys d, T, n, R, pool, nu, rho, tau, eta, weights (and optionally
    teacher, default 'paper') of :data:`SETTINGS` (parsed), ``m`` and ``seed``.  The data set depends on ``seed`` only (shared across
    widths); the initialisation is drawn from seed ``1_000_003 * seed + m``."""
    from ...engine import arda2026 as A

    m, seed = int(config["m"]), int(config["seed"])
    nu, rho = tuple(config["nu"]), tuple(config["rho"])
    data = _data(config["n"], config["d"], config["T"], config["R"], nu, config["pool"],
                 config["weights"], seed, config.get("teacher", "paper"))
    X, y = data.X, data.y
    p0 = A.paired_init(m, config["d"], seed=1_000_003 * seed + m)
    bp = A.boundary_point(p0, rho, kind="adversarial", X=X)
    lin_sup, lin_mean = A.linearization_error(bp, p0, X)
    app_sup, app_mean = A.approximation_error(p0, data.teacher, X, y)
    eta = 1.0 / math.sqrt(config["tau"]) if config["eta"] == "paper" else float(config["eta"])
    t0 = time.perf_counter()
    t1 = time.process_time()
    run = A.proj_gd(p0, X, y, eta=eta, steps=config["tau"], rho=rho, dtype=config.get("dtype", "float64"))
    train_seconds = time.perf_counter() - t0
    train_cpu_seconds = time.process_time() - t1   # calibrates the time model (CPU_SECONDS_PER_*)
    lin_tr_sup, lin_tr_mean = A.linearization_error(run.params, p0, X)
    return {
        "m": m, "seed": seed, "eta": eta,
        "eps_lin_sup": lin_sup, "eps_lin_mean": lin_mean,
        "eps_lin_trained_sup": lin_tr_sup, "eps_lin_trained_mean": lin_tr_mean,
        "eps_app_sup": app_sup, "eps_app_mean": app_mean,
        "min_train_loss": run.min_train_loss, "initial_loss": float(run.train_loss[0]),
        "final_loss": float(A.loss(run.params, X, y)),
        "label_mean_square": float(np.mean(y ** 2)),
        "max_U0_norm": float(np.max(np.linalg.norm(p0.U, axis=1))),
        "train_seconds": train_seconds, "train_cpu_seconds": train_cpu_seconds,
        "dtype": config.get("dtype", "float64"),
    }


def _points(c: dict, seed: int, *, jobs=1, backend="loky", scheduler=None, cache_dir=None,
            progress=True, desc="") -> list[dict]:
    from ...runs import sweep
    base = {k: (list(v) if isinstance(v, tuple) else v) for k, v in c.items()
            if k in ("d", "T", "n", "R", "pool", "nu", "rho", "tau", "eta", "weights", "teacher", "dtype")}
    configs = [{**base, "m": m, "seed": seed + k} for k in range(c["seeds"]) for m in c["widths"]]
    from ...engine.arda2026 import memory_estimate
    from ...engine.budget import check_memory
    m_max = max(c["widths"])
    check_memory(memory_estimate(c, m_max), f"{PAPER} width m={m_max} (d={c['d']}, n={c['n']}, pool={c['pool']})")
    return sweep.run(measure_width, configs, jobs=jobs, backend=backend, scheduler=scheduler,
                     cache_dir=cache_dir, progress=progress, desc=desc)


def label_difference(c: dict, seed: int) -> dict:
    """Teacher labels of the two variants on the same inputs, anchors and pool."""
    a = _data(c["n"], c["d"], c["T"], c["R"], tuple(c["nu"]), c["pool"], c["weights"], seed, "paper").y
    b = _data(c["n"], c["d"], c["T"], c["R"], tuple(c["nu"]), c["pool"], c["weights"], seed, "authors-code").y
    return {"seed": seed, "rms_paper": float(np.sqrt(np.mean(a ** 2))), "rms_authors_code": float(np.sqrt(np.mean(b ** 2))),
            "relative_l2_difference": float(np.linalg.norm(a - b) / np.linalg.norm(a)),
            "correlation": float(np.corrcoef(a, b)[0, 1]),
            "max_abs_difference": float(np.max(np.abs(a - b)))}
