"""The settings of ``compare`` and the paper's Table 1.
"""
from __future__ import annotations

from typing import Any

from boundcalc.experiments.settings import require as _require

PAPER = "anon2025"
N_IMAGES = 360   # digits 0 and 1 in scikit-learn's 8x8 digits

SETTINGS: dict[str, tuple[object, str]] = {
    "d_m": (64, "model dimension d_m (paper: 64, 1024, 4096)"),
    "N": (50, "training examples (paper: 400, 1200, 10000 on MNIST; here at most 360 - n_test)"),
    "n_test": (100, "held-out test images estimating the true loss"),
    "epochs": (200, "full-batch GD steps (one step = one epoch)"),
    "lr": (0.1, "GD learning rate (paper: 0.1)"),
    "delta": (0.05, "confidence parameter delta of Theorem 5"),
    "dtype": ("float64", "precision of the GD steps: float64 | float32 (iterates and test losses stay float64)"),
}

# Table 1 of the paper (App. B, "Lowest test loss and the epoch at which it was achieved for
# different values of d_m and N"; MNIST 0 vs 1, one run per cell)
PAPER_TABLE1: list[dict[str, Any]] = [
    {"d_m": 64, "N": 400, "lowest_test_loss": 0.1048, "epoch": 147},
    {"d_m": 64, "N": 1200, "lowest_test_loss": 0.0668, "epoch": 165},
    {"d_m": 64, "N": 10000, "lowest_test_loss": 0.0263, "epoch": 546},
    {"d_m": 1024, "N": 400, "lowest_test_loss": 0.1839, "epoch": 95},
    {"d_m": 1024, "N": 1200, "lowest_test_loss": 0.0760, "epoch": 271},
    {"d_m": 1024, "N": 10000, "lowest_test_loss": 0.0045, "epoch": 251},
    {"d_m": 4096, "N": 400, "lowest_test_loss": 0.1269, "epoch": 139},
    {"d_m": 4096, "N": 1200, "lowest_test_loss": 0.0899, "epoch": 169},
    {"d_m": 4096, "N": 10000, "lowest_test_loss": 0.0123, "epoch": 312},
]


def _check(s: dict) -> None:
    _require(s["d_m"] >= 1, "d_m", "a positive integer", s["d_m"])
    _require(1 <= s["n_test"] <= N_IMAGES - 2, "n_test", f"an integer in [1, {N_IMAGES - 2}]", s["n_test"])
    _require(2 <= s["N"] <= N_IMAGES - s["n_test"], "N",
             f"an integer in [2, {N_IMAGES - s['n_test']}] (360 images minus n_test)", s["N"])
    _require(s["epochs"] >= 1, "epochs", "a positive integer", s["epochs"])
    _require(s["lr"] > 0, "lr", "a positive number", s["lr"])
    _require(0 < s["delta"] < 1, "delta", "in (0, 1)", s["delta"])
    from boundcalc.experiments.precision import parse_dtype
    from boundcalc.experiments.settings import bad
    s["dtype"] = parse_dtype(s["dtype"], bad)
