"""bench/peak.py prints a line for every model and size issue 20 asks for, in both precisions."""
import numpy as np
from support import load_bench


def test_peak_has_every_line_in_both_precisions():
    peak = load_bench("peak")
    lines = {(size, np.dtype(dt).name) for model in peak.MODELS for size, dt, _, _ in peak.CASES[model]()}
    sizes = {s for s, _ in lines}
    for m in (8, 64, 256):
        assert any(s.startswith("arda2026 ") and s.endswith(f" m={m}") for s in sizes), m
    for model in ("deora2023", "tarzanagh2023"):
        assert any(s.startswith(model + " ") for s in sizes), model
    for s in sizes:                                         # every line also in float32
        assert (s, "float64") in lines and (s, "float32") in lines, s


def test_ceiling_times_the_products_of_every_line():
    """--ceiling looks each line's products up by (size, dtype): the same keys as the steps."""
    peak = load_bench("peak")
    for model in peak.MODELS:
        steps = {(size, np.dtype(dt).name) for size, dt, _, _ in peak.CASES[model]()}
        products = {(size, np.dtype(dt).name) for size, dt, _ in peak.PRODUCTS[model]()}
        assert products == steps, model
