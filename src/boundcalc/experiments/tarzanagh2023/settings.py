"""The settings of ``compare`` and their checks (instance, loss, precision).
"""
from __future__ import annotations

from boundcalc.experiments.settings import require as _require

PAPER = "tarzanagh2023"
INSTANCES = ("appendix_e", "fig1a", "fig1b", "fig1c")
LOSSES = ("logistic", "exponential", "correlation")

SETTINGS: dict[str, tuple[object, str]] = {
    "instance": ("appendix_e", "data: appendix_e (App. E random instance) | fig1a | fig1b | fig1c"),
    "n": (4, "inputs (appendix_e only; paper: 4)"),
    "T": (6, "tokens per input (appendix_e only; paper: 6)"),
    "d": (10, "token dimension (appendix_e only; paper: 2..500)"),
    "steps": (1000, "gradient-descent iterations (paper: 1000)"),
    "lr": (1.0, "learning rate (paper App. E: 1 with normalised GD)"),
    "loss": ("logistic", "loss: logistic | exponential | correlation"),
    "normalized": (True, "normalised GD p <- p - lr grad/||grad|| (App. E) instead of plain GD"),
    "p0_scale": (0.01, "p(0) = p0_scale * N(0, I) (the repository's PromptAttn init is 0.01 N(0, I))"),
    "hessian_points": (20, "trajectory points at which the Hessian spectrum is measured"),
    "random_points": (20, "random points p (norms up to ||p(final)||) at which it is measured"),
    "sat_tol": (1e-5, "saturation threshold: s-bar >= 1 - sat_tol (App. E: 1e-5)"),
    "dtype": ("float64", "precision of the GD steps on p: float64 | float32 (iterates stay float64)"),
}


def _check_common(s: dict) -> None:
    _require(s["steps"] >= 1, "steps", "a positive integer", s["steps"])
    _require(s["lr"] > 0, "lr", "a positive number", s["lr"])
    _require(s["loss"] in LOSSES, "loss", f"one of {', '.join(LOSSES)}", s["loss"])
    _require(s["p0_scale"] >= 0, "p0_scale", "a non-negative number", s["p0_scale"])
    _require(0 < s["sat_tol"] < 1, "sat_tol", "in (0, 1)", s["sat_tol"])
    s["dtype"] = _dtype(s["dtype"])


def _dtype(v) -> str:
    from boundcalc.experiments.precision import parse_dtype
    from boundcalc.experiments.settings import bad
    return parse_dtype(v, bad)
