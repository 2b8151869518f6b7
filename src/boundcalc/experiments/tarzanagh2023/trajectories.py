"""What the Fig. 1 and Fig. 3 runs share: the memory check of their trajectories, the
float32-vs-float64 check of a panel, and the guard of a replot.
"""
from __future__ import annotations


def _panel_precision(seed: int, got: list[dict], ref: list[dict], dtype: str, metrics, unit: str) -> dict:
    """``precision_check`` over panels, with the direction each run reached in both precisions."""
    from boundcalc.experiments.precision import precision_check

    keys = [g["panel"] for g in got]
    same = [g.get("converged_to") == r.get("converged_to") for g, r in zip(got, ref)]
    extra = {}
    if "converged_to" in got[0]:
        extra["agreement"] = ["direction reached the same in both precisions: "
                              + ", ".join(f"panel {k}: {'yes' if s else 'NO'}" for k, s in zip(keys, same))]
    return precision_check("panel", keys, seed, got, ref, dtype, metrics, slopes=False, unit=unit, extra=extra)


def _require_paths(present: bool, name: str):
    from boundcalc.errors import BoundcalcError
    if not present:
        raise BoundcalcError(f"{name}: this recording keeps no trajectories (recorded before they were "
                             "stored); record it again to redraw its figures")


def _check_trajectories(name: str, steps: int, datasets) -> None:
    """Refuse a reproduction whose recorded GD trajectories (one at a time) exceed the memory
    budget, before it runs (engine.budget; --max-memory)."""
    from boundcalc.engine import tarzanagh2023 as tz
    from boundcalc.engine.budget import check_memory
    d = max(data.X.shape[2] for data in datasets)
    check_memory(tz.trajectory_bytes(steps, d), f"{name} (steps={steps}, d={d})")
