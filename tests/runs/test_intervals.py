"""runs.intervals (the one interval function of every reproduction) and the fit's method."""
import math

import numpy as np
import pytest
from scipy import stats

from boundcalc.errors import BoundcalcError
from boundcalc.runs import fit
from boundcalc.runs.intervals import contains, describe, mean_interval, t_quantile


def test_student_t_matches_scipy_and_textbook_quantiles():
    # textbook two-sided 95% quantiles: t_{0.975,1} = 12.706, t_{0.975,3} = 3.182, t_{0.975,9} = 2.262
    assert t_quantile(0.95, 1) == pytest.approx(12.7062047, abs=1e-6)
    assert t_quantile(0.95, 3) == pytest.approx(3.1824463, abs=1e-6)
    assert t_quantile(0.95, 9) == pytest.approx(2.2621572, abs=1e-6)
    v = [1.0, 2.0, 3.0, 4.0, 5.0]            # mean 3, sd sqrt(2.5), t_{0.975,4} = 2.7764451
    iv = mean_interval(v)
    half = 2.7764451 * math.sqrt(2.5) / math.sqrt(5)
    assert (iv["mean"], iv["n"]) == (3.0, 5)
    assert iv["low"] == pytest.approx(3 - half, abs=1e-6) and iv["high"] == pytest.approx(3 + half, abs=1e-6)
    lo, hi = stats.t.interval(0.90, 4, loc=3.0, scale=stats.sem(v))
    iv90 = mean_interval(v, confidence=0.90)
    assert (iv90["low"], iv90["high"]) == (pytest.approx(lo, rel=1e-12), pytest.approx(hi, rel=1e-12))
    assert "Student-t" in iv["method"] and "4 degrees of freedom" in iv["method"]
    # 4 seeds: the interval is t/1.96 = 1.62 times wider than the normal one
    w = [0.3, 0.1, 0.4, 0.2]
    iv4 = mean_interval(w)
    assert (iv4["high"] - iv4["mean"]) / (1.96 * np.std(w, ddof=1) / 2) == pytest.approx(3.1824463 / 1.96, rel=1e-6)
    assert contains(iv4, 0.25) and not contains(iv4, 0.9)
    assert "95% Student-t, 4 seeds" in describe(iv4)


def test_single_value_constant_values_and_bootstrap():
    one = mean_interval([0.7])
    assert one["low"] is None and one["high"] is None and "no interval" in one["method"]
    assert contains(one, 0.7) is None and "no interval" in describe(one)
    const = mean_interval([2.0, 2.0, 2.0])
    assert const["low"] == const["high"] == 2.0
    rng = np.random.default_rng(1)
    x = rng.normal(10.0, 2.0, size=200)
    b = mean_interval(x, method="bootstrap", resamples=4000, seed=3)
    t = mean_interval(x)
    assert "bootstrap" in b["method"] and "4000 resamples" in b["method"]
    # large n: bootstrap and Student-t agree to within a few percent of the width
    assert b["low"] == pytest.approx(t["low"], abs=0.1) and b["high"] == pytest.approx(t["high"], abs=0.1)
    assert mean_interval(x, method="bootstrap", resamples=4000, seed=3) == b       # seeded
    small = mean_interval([1.0, 2.0, 3.0, 10.0], method="bootstrap", resamples=2000)
    assert 1.0 <= small["low"] <= small["high"] <= 10.0   # never beyond the observed range


@pytest.mark.parametrize("bad,kw", [([], {}), ([1.0, float("nan")], {}), ("abc", {}),
                                    ([1.0, 2.0], {"method": "normal"}), ([1.0, 2.0], {"confidence": 1.5}),
                                    ([1.0, 2.0], {"method": "bootstrap", "resamples": 5})])
def test_bad_input_is_a_boundcalc_error(bad, kw):
    with pytest.raises(BoundcalcError):
        mean_interval(bad, **kw)


def test_fit_interval_is_the_t_interval_of_per_seed_slopes_and_names_it():
    x = [8, 16, 32, 64]
    ys = [[3 * m ** -0.5 * (1 + 0.05 * k) ** (i % 2) for i, m in enumerate(x)] for k in range(4)]
    f = fit.loglog_slope(x, ys)
    slopes = [np.polyfit(np.log(x), np.log(y), 1)[0] for y in ys]
    lo, hi = stats.t.interval(0.95, 3, loc=np.mean(slopes), scale=stats.sem(slopes))
    assert f["ci_low"] == pytest.approx(lo, rel=1e-9) and f["ci_high"] == pytest.approx(hi, rel=1e-9)
    assert "Student-t" in f["method"] and "least-squares" in f["method"]
    assert "Student-t" in fit.describe(f)
    fb = fit.loglog_slope(x, ys, method="bootstrap")
    assert "bootstrap" in fb["method"] and "bootstrap" in fit.describe(fb)
