"""The time model of a reproduction: CPU seconds per point, fitted to the recordings, and
the wall-clock estimate of a list schedule.
"""
from __future__ import annotations

import numpy as np

# The time model, in CPU seconds of one core (``time.process_time`` of the worker: what a
# point costs whatever else shares the machine; wall time on a loaded machine is longer).
# The ProjGD training of one (m, seed) point costs n * tau * (CPU_SECONDS_PER_N_TAU[dtype] +
# CPU_SECONDS_PER_N_M_TAU[dtype] * m) CPU seconds, fitted (fit_point_seconds, relative least
# squares) to the `train_cpu_seconds` of the 10-seed recording at the paper's sizes
# (examples/arda2026-fig1/full: n = 5000, tau = 4000, --set dtype=float32, 2 jobs,
# 2026-11-27, 4487 s of wall time): float32 from its 60 points (m = 8: 17.5 s ... m = 256:
# 250 s, each within 17% of the fit while the machine's load average went from 0.4 to 28 and
# the points' wall seconds from 1.0x to 7x their CPU seconds), float64 from the six points of
# seed 0 it trains again in float64 (m = 8: 23.9 s ... m = 256: 421 s, each within 8%; the
# JSON keeps their total as the precision check's train_cpu_speedup). The test
# test_time_model_holds_on_the_recordings holds every recorded point to its estimate.
# Each seed's teacher labels (n = 5000, pool 8192) cost 9.0 CPU seconds (measured alone,
# pools 512-8192, linear in n * pool).
CPU_SECONDS_PER_N_TAU = {"float64": 5.30e-7, "float32": 5.55e-7}
CPU_SECONDS_PER_N_M_TAU = {"float64": 7.74e-8, "float32": 4.46e-8}
LABEL_SECONDS_PER_N_POOL = 9.0 / (5000 * 8192)


def estimate_seconds(c: dict) -> float:
    """CPU seconds of a sweep (one core; the time model above): every point's training, each
    seed's teacher labels once, and for a float32 run its float64 check of the first seed."""
    per_seed = sum(point_seconds(c, m) for m in c["widths"])
    label = LABEL_SECONDS_PER_N_POOL * c["n"] * c["pool"]
    check = sum(point_seconds({**c, "dtype": "float64"}, m) for m in c["widths"]) \
        if c.get("dtype", "float64") != "float64" else 0.0
    return c["seeds"] * (per_seed + label) + check


def point_seconds(c: dict, m: int) -> float:
    """CPU seconds of one (width m, seed) point's training in ``c["dtype"]`` (the time model)."""
    dt = c.get("dtype", "float64")
    return c["n"] * c["tau"] * (CPU_SECONDS_PER_N_TAU[dt] + CPU_SECONDS_PER_N_M_TAU[dt] * m)


def estimate_wall_seconds(c: dict, workers: int) -> float:
    """Wall seconds of the sweep on ``workers`` single-threaded workers with a core each (one
    per core, e.g. a Dask cluster of that many worker processes) and nothing else running:
    the points, in the order the sweep submits them (seed by seed, widths ascending), each
    go to the worker that frees first (list scheduling, what joblib and Dask do with
    equal-priority tasks); each seed's teacher labels are paid once by every worker that
    runs a point of that seed (the labels are cached per process).  A float32 run then runs
    its float64 check of the first seed as a second sweep.  A lower bound is
    max(CPU seconds / workers, longest point); on a shared machine the wall time is longer
    (the recordings say by how much)."""
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers!r}")
    tasks = [(point_seconds(c, m), s) for s in range(c["seeds"]) for m in c["widths"]]
    wall = _list_schedule(tasks, workers, LABEL_SECONDS_PER_N_POOL * c["n"] * c["pool"])
    if c.get("dtype", "float64") != "float64":
        c64 = {**c, "dtype": "float64"}
        wall += _list_schedule([(point_seconds(c64, m), 0) for m in c["widths"]], workers, 0.0)
    return wall


def _list_schedule(tasks: list, workers: int, label: float) -> float:
    """Makespan of (seconds, seed) tasks taken in order by the first free of ``workers``,
    each worker paying ``label`` once per seed it meets."""
    import heapq

    free = [(0.0, w) for w in range(workers)]
    seen: list[set] = [set() for _ in range(workers)]
    for t, seed in tasks:
        at, w = heapq.heappop(free)
        if seed not in seen[w]:
            seen[w].add(seed)
            t += label
        heapq.heappush(free, (at + t, w))
    return max(at for at, _ in free)


def fit_point_seconds(points, n: int, tau: int, key: str = "train_cpu_seconds") -> tuple[float, float]:
    """(per n*tau, per n*m*tau) seconds from recorded points' ``key``: least squares of
    seconds / (n tau) on (1, m), relative (each point weighted by 1/its time)."""
    ms = np.array([p["m"] for p in points], dtype=float)
    ts = np.array([p[key] for p in points], dtype=float) / (n * tau)
    w = 1.0 / ts
    a, b = np.linalg.lstsq(np.c_[np.ones_like(ms), ms] * w[:, None], ts * w, rcond=None)[0]
    return float(a), float(b)
