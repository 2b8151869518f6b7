"""runs.fit.loglog_slope against hand computation and scipy.stats.linregress."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from boundcalc.errors import BoundcalcError
from boundcalc.runs.fit import describe, loglog_slope


def test_exact_power_law():
    x = [2, 4, 8, 16]
    y = [3.0 * v ** -0.5 for v in x]
    f = loglog_slope(x, [y, y])
    assert f["slope"] == pytest.approx(-0.5, abs=1e-12)
    assert f["intercept"] == pytest.approx(math.log(3.0), abs=1e-12)
    assert f["r2"] == pytest.approx(1.0, abs=1e-12)
    assert f["ci_low"] == pytest.approx(-0.5, abs=1e-12) and f["ci_high"] == pytest.approx(-0.5, abs=1e-12)
    assert f["n_seeds"] == 2


def test_hand_computed_two_seeds():
    # seed 0: y = x (slope 1); seed 1: y = x^3 (slope 3) -> mean 2, sd sqrt(2),
    # half-width t_{0.975,1} * sqrt(2) / sqrt(2) = 12.7062...
    x = [1.0, 10.0, 100.0]
    f = loglog_slope(x, [x, [v ** 3 for v in x]])
    assert f["slope"] == pytest.approx(2.0)
    assert f["ci_high"] - 2.0 == pytest.approx(12.706204736174707, rel=1e-9)
    assert f["slopes"] == pytest.approx([1.0, 3.0])


def test_noisy_power_law_matches_linregress():
    rng = np.random.default_rng(7)
    x = np.array([8, 16, 32, 64, 128, 256], dtype=float)
    ys = [2.0 * x ** 1.5 * np.exp(0.05 * rng.standard_normal(x.size)) for _ in range(6)]
    f = loglog_slope(x.tolist(), [y.tolist() for y in ys])
    fits = [stats.linregress(np.log(x), np.log(y)) for y in ys]
    slopes = np.array([r.slope for r in fits])
    assert f["slopes"] == pytest.approx(slopes.tolist(), rel=1e-12)
    assert f["slope"] == pytest.approx(slopes.mean(), rel=1e-12)
    assert f["intercept"] == pytest.approx(np.mean([r.intercept for r in fits]), rel=1e-12)
    assert f["r2"] == pytest.approx(np.mean([r.rvalue ** 2 for r in fits]), rel=1e-12)
    lo, hi = stats.t.interval(0.95, len(slopes) - 1, loc=slopes.mean(), scale=stats.sem(slopes))
    assert (f["ci_low"], f["ci_high"]) == pytest.approx((lo, hi), rel=1e-12)
    assert f["ci_low"] < 1.5 < f["ci_high"]
    assert "seeds" in describe(f)


def test_one_seed_has_no_interval():
    f = loglog_slope([1, 2, 4], [[1, 2, 4]])
    assert f["slope"] == pytest.approx(1.0) and math.isnan(f["ci_low"]) and f["n_seeds"] == 1
    assert "no interval" in describe(f)


@pytest.mark.parametrize("x, ys, msg", [
    ([1], [[1]], "at least 2"),
    ([1, 1], [[1, 2]], "distinct"),
    ([0, 1], [[1, 2]], "positive"),
    ([1, 2], [[1, -2]], "seed #0"),
    ([1, 2], [[1, 2], [1, 2, 3]], "seed #1"),
    ([1, 2], [], "non-empty"),
])
def test_bad_input(x, ys, msg):
    with pytest.raises(BoundcalcError, match=msg):
        loglog_slope(x, ys)
