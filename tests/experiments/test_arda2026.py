"""End-to-end checks of boundcalc.experiments.arda2026 on small configurations."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

import boundcalc
from boundcalc.engine import arda2026 as A
from boundcalc.engine.data import transport
from boundcalc.errors import BoundcalcError
from boundcalc.experiments import arda2026 as X
from boundcalc.reports.table import Table

SMALL = {"widths": "4,8", "d": 3, "T": 4, "n": 40, "R": 4, "pool": 64, "tau": 20}


from support import row as _row


@pytest.fixture(scope="module")
def table():
    return X.compare(seed=2, cache_dir=False, **SMALL)


def _recompute(m, seed=2):
    """Independent recomputation: data, init, boundary point, errors and plain ProjGD written out."""
    data = transport.teacher_student_data(40, 3, 4, R=4, nu=(3.0, 3.0, 3.0), pool_size=64, seed=seed)
    X_, y = data.X, data.y
    p0 = A.paired_init(m, 3, seed=1_000_003 * seed + m)
    bp = A.boundary_point(p0, (3, 3, 3), kind="adversarial", X=X_)
    # f_lin(phi) = <grad f(phi0), phi - phi0> by central finite differences along phi - phi0
    D = bp - p0
    h = 1e-5
    flin = (A.forward(p0 + D.like(h * D.flat()), X_) - A.forward(p0 + D.like(-h * D.flat()), X_)) / (2 * h)
    lin = np.abs(A.forward(bp, X_) - flin)
    eta = 1 / math.sqrt(20)
    p, losses = p0.copy(), []
    for _ in range(20):
        L, g = A.loss_and_grad(p, X_, y)
        losses.append(L)
        p = A.project(p.like(p.flat() - eta * g.flat()), p0, (3, 3, 3))
    return lin, min(losses), float(np.max(np.linalg.norm(p0.U, axis=1)))


def test_compare_measurements_match_recomputation(table):
    assert isinstance(table, Table) and table.paper == "arda2026"
    for m in (4, 8):
        lin, min_loss, u0 = _recompute(m)
        assert _row(table, f"m={m}: eps_lin (sup_j) at boundary").measured == pytest.approx(lin.max(), rel=1e-5)
        assert _row(table, f"m={m}: eps_lin (mean_j)").measured == pytest.approx(lin.mean(), rel=1e-5)
        assert _row(table, f"m={m}: min_(s<tau)").measured == pytest.approx(min_loss, rel=1e-10)
        assert _row(table, f"m={m}: event E_{{U,m}}").measured == pytest.approx(u0, rel=1e-12)


def test_bounds_are_the_formulas(table):
    s2 = 4 / (3 * math.sqrt(3))
    for m in (4, 8):
        # B_lin by hand (Lemma 3 with Lemma 2's L1, L2 and eq. (9)'s B_U)
        BU = math.sqrt(3) + math.sqrt(2 * math.log(m / (2 * 0.05))) + 3 / math.sqrt(m)
        L1 = math.sqrt(1 + BU ** 2)
        L2 = s2 * (1 + BU ** 2) + 8 * L1
        blin = (L1 * 3 * math.sqrt(18) + L2 * 18) / math.sqrt(m)
        assert float(_row(table, f"m={m}: eps_lin (sup_j) at boundary").bound) == pytest.approx(blin, rel=1e-12)
        bapp = 2 * 9 * math.sqrt(2 * math.log(2 * 40 / 0.05) / m)
        assert float(_row(table, f"m={m}: eps_app").bound) == pytest.approx(bapp, rel=1e-12)
        thm = boundcalc.formula("arda2026.thm1_min").evaluate(
            d=3, delta="0.05", delta_prime="0.05", m=m, n=40, nu_c=3, nu_u=3, nu_w=3, rho_c=3, rho_u=3, rho_w=3,
            sigma_0=1, sigma_1=1, sigma_2=repr(s2), tau=20)
        r = _row(table, f"m={m}: min_(s<tau)")
        assert float(r.bound) == pytest.approx(float(thm), rel=1e-12)
        assert "C_thm1_min (set to 1)" in r.constant
        assert r.hypotheses_met is True
    assert all(r.holds for r in table.rows if r.kind == "condition")


def test_hypotheses_rows_flag_violations():
    t = X.compare(seed=2, cache_dir=False, **{**SMALL, "widths": "4", "rho": "1,3,3", "eta": "0.1"})
    assert _row(t, "projection radius rho_c").holds is False
    assert _row(t, "step size").holds is False
    assert _row(t, "m=4: min_(s<tau)").hypotheses_met is False


def test_seed_reproducible(table):
    again = X.compare(seed=2, cache_dir=False, **SMALL)
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(table.to_json(), sort_keys=True)


@pytest.mark.parametrize("bad, name", [({"widths": "3,8"}, "--widths"), ({"rho": "1,2"}, "--rho"),
                                       ({"eta": "-1"}, "--eta"), ({"tau": "0"}, "--tau"),
                                       ({"weights": "x"}, "--weights"), ({"delta": "2"}, "--delta"),
                                       ({"nope": 1}, "--nope")])
def test_bad_settings_name_the_option(bad, name):
    with pytest.raises(BoundcalcError, match=name):
        X.compare(cache_dir=False, **{**SMALL, **bad})


def test_reproduction_tiny(tmp_path):
    rep = X.REPRODUCTIONS["arda2026-fig1"]
    kw = {"seed": 0, "cache_dir": False, "progress": False, "widths": "4,8,16", "d": 3, "T": 4, "n": 30, "R": 3, "pool": 64, "tau": 10,
              "seeds": 2}
    out = rep.run(plot_dir=tmp_path, **kw)
    json.dumps(out)
    assert out["widths"] == [4, 8, 16] and out["seeds"] == [0, 1]
    law = out["laws"]["eps_lin_sup"]
    assert law["predicted_slope"] == -0.5
    # the fitted slope is the mean over seeds of the per-seed least-squares slopes
    lx = np.log([4, 8, 16])
    slopes = [np.polyfit(lx, np.log(ys), 1)[0] for ys in law["per_seed"]]
    assert law["fit"]["slope"] == pytest.approx(np.mean(slopes), rel=1e-10)
    assert law["fit"]["ci_low"] <= law["fit"]["slope"] <= law["fit"]["ci_high"]
    one = X.measure_width({**{k: v for k, v in X.parse_settings(
        {k: v for k, v in kw.items() if k in X.SETTINGS}).items() if k not in ("widths", "seeds",
                                                                               "delta", "delta_prime")},
        "m": 8, "seed": 1})
    assert law["per_seed"][1][1] == one["eps_lin_sup"]
    assert out["plots"]
    again = rep.run(**kw)
    assert json.dumps(again["laws"]) == json.dumps(out["laws"])
    rep.render(out)
    with pytest.raises(BoundcalcError, match="--widths"):
        rep.run(**{**kw, "widths": "8"})


TINY = {"widths": "4,8,16", "d": 3, "T": 4, "n": 30, "R": 3, "pool": 64, "tau": 10, "seeds": 2}


def test_fig1_intervals_are_student_t_and_rows_carry_verdicts():
    out = X.run_fig1(seed=0, cache_dir=False, progress=False, **TINY)
    law = out["laws"]["eps_app_sup"]
    for i, iv in enumerate(law["intervals"]):           # t_{0.975, 1} = 12.706, not 1.96
        v = [ys[i] for ys in law["per_seed"]]
        assert iv["high"] - iv["mean"] == pytest.approx(12.706204736 * np.std(v, ddof=1) / math.sqrt(2), rel=1e-8)
    assert "ci95_halfwidth" not in law
    rows = out["paper_vs_ours"]
    assert len(rows) == 4 and all(r["paper"] == "-0.5" and "Sec. 6.1" in r["source"] for r in rows)
    assert all(r["verdict"] in ("reproduced", "not reproduced", "not comparable") for r in rows)
    assert "Student-t" in out["intervals_method"]


def test_fig1_float32_records_its_accuracy_against_float64():
    from boundcalc.experiments.paper_vs_ours import markdown_report

    out = X.run_fig1(seed=0, cache_dir=False, progress=False, **{**TINY, "tau": 40}, dtype="float32")
    pc = out["precision_check"]
    assert pc["dtype"] == "float32" and pc["seed"] == 0 and pc["size_key"] == "m" and pc["sizes"] == [4, 8, 16]
    assert all(p["dtype"] == "float32" for p in out["points"])
    # the float64 reference computed here, independently of the recording
    ref = {p["m"]: p for p in X._points({**X.parse_settings({**TINY, "tau": 40}), "seeds": 1}, 0,
                                        cache_dir=False, progress=False)}
    got = {p["m"]: p for p in out["points"] if p["seed"] == 0}
    final = next(r for r in pc["rows"] if r["key"] == "final_loss")
    want = max(abs(got[m]["final_loss"] - ref[m]["final_loss"]) / ref[m]["final_loss"] for m in (4, 8, 16))
    assert final["max_rel_diff"] == pytest.approx(want, rel=1e-12)
    assert 0 < final["max_rel_diff"] < 1e-4                      # float32 changed something, a little
    assert abs(final["slope_float32"] - final["slope_float64"]) < 1e-3
    assert "## Accuracy of float32 against float64" in markdown_report(out)
    assert X.run_fig1(seed=0, cache_dir=False, progress=False, **TINY)["precision_check"] is None
    with pytest.raises(BoundcalcError, match="dtype"):
        X.run_fig1(seed=0, cache_dir=False, progress=False, **TINY, dtype="half")


def test_slope_verdicts():
    f = lambda s, lo, hi, n=4: {"slope": s, "ci_low": lo, "ci_high": hi, "n_seeds": n}
    assert X.slope_verdict(f(-0.48, -0.55, -0.41))[0] == "reproduced"
    assert X.slope_verdict(f(-0.243, -0.296, -0.190))[0] == "not reproduced"
    assert X.slope_verdict(f(-0.45, -0.47, -0.43))[0] == "reproduced"          # within 0.1, interval excludes
    assert X.slope_verdict(f(-0.1, -3.0, 2.8))[0] == "not comparable"           # too wide to decide
    assert X.slope_verdict(f(-0.5, None, None, 1))[0] == "reproduced"
    assert X.slope_verdict(None)[0] == "not comparable"


def test_teacher_variant_setting_and_study():
    with pytest.raises(BoundcalcError, match="--teacher"):
        X.parse_settings({"teacher": "code"})
    with pytest.raises(BoundcalcError, match="--teacher: arda2026-teacher runs both"):
        X.run_teacher(seed=0, cache_dir=False, progress=False, teacher="paper", **TINY)
    assert "teacher" not in X.REPRODUCTIONS["arda2026-teacher"].settings
    out = X.run_teacher(seed=0, cache_dir=False, progress=False, **TINY)
    diffs = out["label_differences"]
    a = transport.teacher_student_data(30, 3, 4, R=3, pool_size=64, seed=1).y
    b = transport.teacher_student_data(30, 3, 4, R=3, pool_size=64, seed=1, teacher="authors-code").y
    assert diffs[1]["relative_l2_difference"] == pytest.approx(np.linalg.norm(a - b) / np.linalg.norm(a), rel=1e-12)
    assert diffs[1]["correlation"] == pytest.approx(np.corrcoef(a, b)[0, 1], rel=1e-12)
    # eps_lin does not depend on the labels; eps_app does
    pl, cl = out["per_teacher"]["paper"]["laws"], out["per_teacher"]["authors-code"]["laws"]
    assert pl["eps_lin_sup"]["per_seed"] == cl["eps_lin_sup"]["per_seed"]
    assert pl["eps_app_sup"]["per_seed"] != cl["eps_app_sup"]["per_seed"]
    assert any("labels" in r["quantity"] for r in out["paper_vs_ours"])
    X.render_teacher(out)


def test_minloss_study_conditions(tmp_path):
    out = X.run_minloss(seed=0, cache_dir=False, progress=False, conditions=[0, 1, 3], plot_dir=tmp_path,
                        **{**TINY, "tau": 12})
    labels = [c["label"] for c in out["conditions"]]
    # each label is written from the settings the condition ran with (a --tau moves the baseline)
    assert labels == ["baseline: tau = 12, eta = 1/sqrt(tau)", "shorter horizon: tau = 250, eta = 1/sqrt(tau)",
                      "authors' step: tau = 12, eta = 1.75/sqrt(tau)"]
    taus = [c["settings"]["tau"] for c in out["conditions"]]
    assert taus == [12, 250, 12]                # settings set the base, each condition varies it
    assert out["conditions"][2]["settings"]["eta_used"] == pytest.approx(1.75 / math.sqrt(12), rel=1e-15)
    base = out["conditions"][0]
    assert base["min_loss_mean"][0] == pytest.approx(np.mean([p for p in (
        X.measure_width({**{k: (list(v) if isinstance(v, tuple) else v) for k, v in base["settings"].items()
                           if k in ("d", "T", "n", "R", "pool", "nu", "rho", "tau", "eta", "weights", "teacher")},
                         "m": 4, "seed": s})["min_train_loss"] for s in (0, 1))]), rel=1e-12)
    assert len(out["paper_vs_ours"]) == 3 and out["plots"]
    X.render_minloss(out)


def test_minloss_reduced_and_full_presets(monkeypatch):
    # Reduced (under 10 min on 2 cores): tau = 250 / 1000 / 4000 and eta = 4/sqrt(tau) on n = 250,
    # widths 8-64; --full: all six conditions on n = 500, widths 8-128.  The training is replaced by
    # a recorder, so this checks which configurations run_minloss asks for.
    seen = {}

    def fake(label, c, seed, **kw):
        seen.setdefault("runs", []).append((label, c["n"], tuple(c["widths"]), c["tau"], eta_of(c), c["seeds"]))
        return {"label": label, "settings": {**c, "eta_used": eta_of(c)}, "widths": c["widths"],
                "seeds": [0, 1, 2], "fit": None, "final_over_initial": [1.0]}

    eta_of = X.eta_of
    monkeypatch.setattr(X.minloss, "_study_condition", fake)   # where run_minloss looks it up
    X.run_minloss(seed=0, progress=False)
    red = seen.pop("runs")
    assert [(r[1], r[2], r[3]) for r in red] == [(250, (8, 16, 32, 64), t) for t in (1000, 250, 4000, 1000)]
    assert red[3][4] == pytest.approx(4 / math.sqrt(1000)) and red[0][4] == pytest.approx(1 / math.sqrt(1000))
    assert {r[5] for r in red} == {5}
    X.run_minloss(seed=0, progress=False, full=True)
    full = seen.pop("runs")
    assert len(full) == 6 and {r[1] for r in full} == {500} and {r[5] for r in full} == {3}
    assert [r[2] for r in full] == [(8, 16, 32, 64, 128)] * 5 + [(32, 64, 128, 256)]


# A recorded point's CPU seconds lie within CPU_FACTOR of the time model's estimate, either
# way (the model is fitted to them). Points recorded before CPU seconds were (wall seconds
# only, the engine before its fused steps, nice 19 on a shared machine) took WALL_FACTORS
# times their CPU estimate: never less (wall >= CPU, and that engine was slower), at most 7x.
CPU_FACTOR = 1.25
WALL_FACTORS = (1.0, 7.0)


def test_time_model_holds_on_the_recordings():
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "examples"
    recs = sorted(root.glob("arda2026-fig1/*/arda2026-fig1.json"))
    if not recs:
        pytest.skip("examples/ not next to the tests (installed elsewhere)")
    import json
    checked = {"cpu": 0, "wall": 0}
    for rec in recs:
        for k, v in check_recording_against_time_model(json.loads(rec.read_text()), str(rec)).items():
            checked[k] += v
    assert checked["cpu"] + checked["wall"] >= 24


def check_recording_against_time_model(data: dict, where: str) -> dict:
    """Hold every point of an arda2026-fig1 recording to the time model; returns how many
    points were checked on CPU seconds and on wall seconds."""
    c = X.parse_settings({k: v for k, v in data["settings"].items() if k in X.SETTINGS})
    checked = {"cpu": 0, "wall": 0}
    for p in data["points"]:
        est = X.point_seconds({**c, "dtype": p.get("dtype", "float64")}, p["m"])
        if "train_cpu_seconds" in p:
            assert 1 / CPU_FACTOR <= p["train_cpu_seconds"] / est <= CPU_FACTOR, (where, p["m"], p["seed"], est)
            checked["cpu"] += 1
        elif "train_seconds" in p:
            assert WALL_FACTORS[0] <= p["train_seconds"] / est <= WALL_FACTORS[1], (where, p["m"], p["seed"], est)
            checked["wall"] += 1
    at_paper_sizes = (c["n"], c["tau"]) == (5000, 4000)
    # the constants are the fit to a recording at the paper's sizes (per dtype, >= 2 widths)
    for dt in ("float64", "float32"):
        pts = [p for p in data["points"] if p.get("dtype") == dt and "train_cpu_seconds" in p]
        if at_paper_sizes and len({p["m"] for p in pts}) >= 2:
            a, b = X.fit_point_seconds(pts, 5000, 4000)
            assert a == pytest.approx(X.CPU_SECONDS_PER_N_TAU[dt], rel=0.1), where
            assert b == pytest.approx(X.CPU_SECONDS_PER_N_M_TAU[dt], rel=0.05), where
    # a float32 recording's float64 check: its recorded CPU time (float64 / float32 ratio
    # times the float32 seed's CPU seconds) against the float64 model
    pc = data.get("precision_check")
    if pc and pc.get("train_cpu_speedup"):
        first = [p for p in data["points"] if p["seed"] == pc["seed"]]
        f64 = pc["train_cpu_speedup"] * sum(p["train_cpu_seconds"] for p in first)
        est = sum(X.point_seconds({**c, "dtype": "float64"}, p["m"]) for p in first)
        assert 1 / CPU_FACTOR <= f64 / est <= CPU_FACTOR, (where, f64, est)
        if at_paper_sizes:
            assert f64 == pytest.approx(est, rel=0.05), where
        checked["cpu"] += len(first)
    return checked


def test_time_model_is_linear_in_n_tau_and_m_and_counts_the_float64_check():
    c = {**X.parse_settings(X.FULL), "seeds": 1}
    for dt in ("float64", "float32"):
        cd = {**c, "dtype": dt}
        a, b = X.CPU_SECONDS_PER_N_TAU[dt], X.CPU_SECONDS_PER_N_M_TAU[dt]
        assert X.point_seconds(cd, 64) == pytest.approx(5000 * 4000 * (a + 64 * b), rel=1e-12)
    lab = X.LABEL_SECONDS_PER_N_POOL * 5000 * 8192
    assert lab == pytest.approx(9.0)
    f64 = sum(X.point_seconds(c, m) for m in c["widths"])
    f32 = sum(X.point_seconds({**c, "dtype": "float32"}, m) for m in c["widths"])
    assert X.estimate_seconds(c) == pytest.approx(f64 + lab, rel=1e-12)
    assert X.estimate_seconds({**c, "dtype": "float32"}) == pytest.approx(f32 + lab + f64, rel=1e-12)


def test_wall_time_estimate_on_several_workers_is_list_scheduling_by_hand():
    c = {"n": 1, "tau": 1, "widths": [8, 64], "seeds": 2, "pool": 1}
    a, b = X.CPU_SECONDS_PER_N_TAU["float64"], X.CPU_SECONDS_PER_N_M_TAU["float64"]
    t8, t64 = a + 8 * b, a + 64 * b
    lab = X.LABEL_SECONDS_PER_N_POOL
    # one worker: everything in a row, the labels of each seed once
    assert X.estimate_wall_seconds(c, 1) == pytest.approx(2 * (t8 + t64) + 2 * lab, rel=1e-12)
    # two workers, submission order (s0 m8, s0 m64, s1 m8, s1 m64): w0 takes s0 m8, w1 s0 m64;
    # w0 frees first and takes s1 m8 (new labels), and, still first free (2 t8 + 2 lab <
    # t64 + lab here), s1 m64
    assert 2 * t8 + 2 * lab < t64 + lab
    assert X.estimate_wall_seconds(c, 2) == pytest.approx(2 * t8 + 2 * lab + t64, rel=1e-12)
    # as many workers as points: the longest point and its labels
    assert X.estimate_wall_seconds(c, 4) == pytest.approx(t64 + lab, rel=1e-12)
    # float32: the float64 check of seed 0 follows as a second sweep (labels cached)
    a32, b32 = X.CPU_SECONDS_PER_N_TAU["float32"], X.CPU_SECONDS_PER_N_M_TAU["float32"]
    c32 = {**c, "dtype": "float32"}
    assert X.estimate_wall_seconds(c32, 4) == pytest.approx(a32 + 64 * b32 + lab + t64, rel=1e-12)
    full = X.parse_settings(X.FULL)
    total = X.estimate_seconds(full)
    for w in (2, 16):
        est = X.estimate_wall_seconds(full, w)
        assert max(total / w, X.point_seconds(full, 256)) <= est * (1 + 1e-12)
        assert est <= total / w + X.point_seconds(full, 256) + 10 * lab
    with pytest.raises(ValueError):
        X.estimate_wall_seconds(c, 0)
