"""End-to-end checks of boundcalc.experiments.deora2023 on small configurations."""
from __future__ import annotations

import json

import numpy as np
import pytest

import boundcalc
from boundcalc.engine import deora2023 as E
from boundcalc.engine import ops
from boundcalc.engine.data import dm1
from boundcalc.errors import BoundcalcError
from boundcalc.experiments import deora2023 as X
from boundcalc.reports.table import Table

SMALL = {"T": 4, "d": 8, "M": 2, "H": 8, "n1": 60, "n": 40, "K": 15, "n_test": 100, "eta": 0.5}


from support import row as _row


@pytest.fixture(scope="module")
def table():
    return X.compare(seed=3, **SMALL)


def _retrain(seed=3, **kw):
    """Independent re-run of the two-phase scheme with the documented seed order."""
    c = {**{k: v[0] for k, v in X.SETTINGS.items()}, **SMALL, **kw}
    D = dm1.make_dm1(c["T"], c["d"], c["M"], c["S"], c["zeta"], z_mu=c["z_mu"], z_nu=c["z_nu"],
                     z_perp_norm=c["z_perp"])
    g = ops.rng(seed)
    s1, s, st = D.sample(c["n1"], g), D.sample(c["n"], g), D.sample(c["n_test"], g)
    alphas = g.choice(np.array([-1.0, 1.0]), size=c["H"])
    th1, _ = E.first_phase(s1.X, s1.y, c["H"], "full", alphas=alphas)
    p = th1.copy()
    for _ in range(c["K"]):           # plain GD written out here, not via engine.train
        _L, gr = E.loss_and_grad(p, s.X, s.y)
        p.U -= c["eta"] * gr.U
        p.W -= c["eta"] * gr.W
    return D, s, st, th1, p


def test_compare_numbers_match_an_independent_rerun(table):
    assert isinstance(table, Table) and table.paper == "deora2023" and table.seed == 3
    _D, s, st, th1, p = _retrain()
    # B_2 = max_h ||theta_h^(1)|| and B_Phi = max_i |Phi~(X_i; theta^(1))| from first principles
    b2 = max(np.sqrt(np.sum(th1.U[h] ** 2) + np.sum(th1.W[h] ** 2)) for h in range(th1.H))
    assert _row(table, "B_2").measured == pytest.approx(b2, rel=1e-12)
    phi = np.array([sum(np.sum(th1.U[h] * (ops.softmax(x @ th1.W[h] @ x.T, axis=-1) @ x)) for h in range(th1.H))
                    for x in s.X]) / np.sqrt(th1.H)
    assert _row(table, "B_Phi").measured == pytest.approx(np.max(np.abs(phi)), rel=1e-10)
    # losses and the normalised margin after K steps
    tl = float(np.mean(np.logaddexp(0, -s.y * E.forward(p, s.X))))
    te = float(np.mean(np.logaddexp(0, -st.y * E.forward(p, st.X))))
    assert _row(table, "train loss").measured == pytest.approx(tl, rel=1e-9)
    assert _row(table, "generalization gap").measured == pytest.approx(te - tl, rel=1e-7, abs=1e-12)
    marg = np.min(s.y * E.forward(p, s.X)) / np.linalg.norm(p.U)
    assert _row(table, "margin reached by GD vs gamma_attn(eps)").measured == pytest.approx(marg, rel=1e-9)
    d = np.sqrt(np.sum((p.U - th1.U) ** 2) + np.sum((p.W - th1.W) ** 2))
    assert _row(table, "iterate distance").measured == pytest.approx(d, rel=1e-9)


def test_ntk_margin_is_a_feasible_svm_value(table):
    """The measured NTK margin: the returned theta* (norm sqrt 2) attains it on the features."""
    _D, s, _st, th1, _p = _retrain()
    gamma = _row(table, "NTK margin").measured
    nm = E.ntk_margin(th1, s.X, s.y)
    F = E.ntk_features(th1, s.X)
    ts = nm.theta_star.flat()
    assert np.linalg.norm(ts) == pytest.approx(np.sqrt(2))
    assert np.min(s.y * (F @ ts)) == pytest.approx(gamma, rel=1e-5)


def test_bounds_are_the_formulas_at_the_measured_inputs(table):
    c = table.settings
    r = _row(table, "train loss")
    gamma = _row(table, "NTK margin").measured
    bphi = max(1.0, _row(table, "B_Phi").measured)
    want = boundcalc.formula("deora2023.train_loss_cor2").evaluate(B_Phi=repr(bphi), K=c["K"], eta=repr(c["eta"]),
                                                                   gamma=repr(gamma))
    assert float(r.bound) == pytest.approx(float(want), rel=1e-12)
    # by hand: 2/K + 5 (2 B_Phi + log K)^2 / (4 gamma^2 eta K)
    K, eta = c["K"], c["eta"]
    assert float(r.bound) == pytest.approx(2 / K + 5 * (2 * bphi + np.log(K)) ** 2 / (4 * gamma ** 2 * eta * K))
    gap = _row(table, "generalization gap")
    assert float(gap.bound) == pytest.approx(17 * (2 * bphi + np.log(K)) ** 2 / (gamma ** 2 * eta * c["n"]))
    # gamma_*/2 with the realised noise levels and P = realised ||p||
    P = _row(table, "first-phase error").measured
    _D, s, *_ = _retrain()
    gs = boundcalc.formula("deora2023.gamma_prop2").evaluate(
        M=c["M"], P=repr(P), S=repr(c["S"]), T=c["T"], zeta=repr(c["zeta"]), Z=repr(s.Z), Z_mu=repr(s.Z_mu),
        Z_nu=repr(s.Z_nu))
    assert float(_row(table, "NTK margin").bound) == pytest.approx(float(gs), rel=1e-12)
    assert _row(table, "NTK margin").kind == "lower"
    assert float(_row(table, "margin reached by GD vs gamma_attn (eps").bound) == pytest.approx(
        c["S"] * np.sqrt(c["T"]) / np.sqrt(2))
    # head condition: the least H of Cor. 2 (C = 1), checked against the relation itself
    hr = _row(table, "heads: Cor. 2")
    assert hr.kind == "condition" and hr.measured == c["H"] and "C" in hr.constant
    F = boundcalc.formula("deora2023.heads_cor2")
    R = max(1.0, s.R, float(np.max(np.linalg.norm(s.X, axis=2))))
    args = {"B_2": repr(max(1.0, _row(table, "B_2").measured)), "B_Phi": repr(bphi), "K": K, "R": repr(R), "T": c["T"],
                "d": c["d"], "gamma": repr(gamma)}
    assert F.holds(H=int(hr.bound), **args) and not F.holds(H=int(hr.bound) - 1, **args)
    assert r.hypotheses_met is (c["H"] >= int(hr.bound) and _row(table, "step size").holds)
    assert _row(table, "step size").holds is (c["eta"] <= float(_row(table, "step size").bound))


def test_seed_reproducible_and_json(table):
    again = X.compare(seed=3, **SMALL)
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(table.to_json(), sort_keys=True)
    other = X.compare(seed=4, **SMALL)
    assert _row(other, "train loss").measured != _row(table, "train loss").measured


def test_cli_strings_are_parsed():
    t = X.compare(seed="1", **{k: str(v) for k, v in SMALL.items()}, decoder="pooling", P="lemma2")
    assert t.settings["H"] == 8 and t.settings["decoder"] == "pooling"
    assert "C" in _row(t, "first-phase error").constant


@pytest.mark.parametrize("bad, name", [({"H": "0"}, "--H"), ({"zeta": "0.3"}, "--zeta"), ({"eta": "x"}, "--eta"),
                                       ({"decoder": "mlp"}, "--decoder"), ({"d": 4}, "--d"),
                                       ({"P": "-1"}, "--P"), ({"bogus": 1}, "--bogus")])
def test_bad_settings_name_the_option(bad, name):
    with pytest.raises(BoundcalcError, match=name):
        X.compare(**{**SMALL, **bad})


def test_reproduction_tiny(tmp_path):
    rep = X.REPRODUCTIONS["deora2023-dm1"]
    kw = {"seed": 0, "cache_dir": False, "progress": False, "ns": (20, 40), "seeds": 2, "T": 4, "d": 8, "M": 2, "H": 4, "n1": 40, "K": 5,
              "n_test": 50}
    out = rep.run(plot_dir=tmp_path, **kw)
    json.dumps(out)
    assert out["ns"] == [20, 40] and out["seeds"] == [0, 1]
    assert len(out["points"]) == 4 and all(p["n"] in (20, 40) for p in out["points"])
    # the numbers are those of the single-point measurement (the seeds ran as one batch)
    one = X.measure({**X.parse_settings({k: v for k, v in kw.items()
                                         if k in X.SETTINGS}), "n": 40, "seed": 1})
    assert out["points"][3]["train_loss"] == pytest.approx(one["train_loss"], rel=1e-12)
    assert out["per_n"][1]["train_loss"]["mean"] == pytest.approx(
        np.mean([out["points"][2]["train_loss"], out["points"][3]["train_loss"]]))
    assert out["plots"] and all((tmp_path / p).exists() or __import__("os").path.exists(p) for p in out["plots"])
    again = rep.run(**kw)
    assert json.dumps(again["per_n"]) == json.dumps(out["per_n"])
    rep.render(out)


def test_dm1_paper_vs_ours_and_bounds_plot(tmp_path):
    kw = {"seed": 0, "cache_dir": False, "progress": False, "ns": (20, 40, 80), "seeds": 2, "T": 4, "d": 8, "M": 2, "H": 2, "n1": 20,
              "K": 3, "n_test": 20}
    out = X.run_dm1(plot_dir=tmp_path, **kw)
    rows = {r["quantity"]: r for r in out["paper_vs_ours"]}
    tr = rows["log-log slope of the train loss vs n"]
    assert tr["verdict"] == "not comparable" and "K = n" in tr["why"]      # K fixed: not the paper's regime
    # the slope is the mean of per-seed least-squares slopes over n
    lx = np.log([20, 40, 80])
    per = [[p["train_loss"] for p in out["points"] if p["seed"] == s] for s in (0, 1)]
    assert tr["ours"].startswith(f"{np.mean([np.polyfit(lx, np.log(y), 1)[0] for y in per]):.3f}")
    for r in out["per_n"]:                      # Student-t intervals over the 2 seeds
        v = r["train_loss"]["values"]
        assert r["train_loss"]["high"] == pytest.approx(np.mean(v) + 12.706204736 * np.std(v, ddof=1) / np.sqrt(2))
    assert any(q.startswith("Cor. 2 train-loss bound") for q in rows)
    assert (tmp_path / "deora2023-dm1-bounds.png").stat().st_size > 1000


def _per_n(gaps: dict) -> dict:
    # per-n gap intervals (mean, low, high) as mean_interval would give them
    return {"settings": {"K": "n", "n_test": 2000},
            "per_n": [{"n": n, "gap": {"mean": m, "low": lo, "high": hi}} for n, (m, lo, hi) in gaps.items()]}


def test_gap_as_an_upper_rate():
    # the 1/n line through the first upper end: 4e-4 * 100 / n = 2e-4 at 200, 1e-4 at 400
    ok = X._gap_as_upper_rate(_per_n({100: (2e-4, 1e-5, 4e-4), 200: (5e-5, -1e-5, 1.9e-4),
                                      400: (1e-6, -2e-5, 9e-5)}), True)
    assert ok["verdict"] == "reproduced" and "from n = 200 its interval contains 0" in ok["why"]
    assert "0.9 at n = 400" in ok["ours"]                      # 9e-5 / 1e-4
    bad = X._gap_as_upper_rate(_per_n({100: (2e-4, 0, 4e-4), 200: (2e-4, 1e-4, 2.1e-4)}), True)
    assert bad["verdict"] == "not reproduced"                 # 2.1e-4 > 2e-4
    assert X._gap_as_upper_rate(_per_n({100: (2e-4, 0, 4e-4), 200: (1e-5, 0, 2e-5)}), False)["verdict"] == \
        "not comparable"                                      # K fixed: the rate is for K = n
    assert X._gap_as_upper_rate(_per_n({100: (-1e-5, -2e-5, -1e-6), 200: (1e-5, 0, 2e-5)}), True)["verdict"] == \
        "not comparable"                                      # no positive gap to anchor the line


def test_dm1_float32_records_its_accuracy_against_float64():
    from boundcalc.experiments.paper_vs_ours import markdown_report

    kw = {"seed": 0, "cache_dir": False, "progress": False, "ns": (20, 40, 80), "seeds": 2, "T": 4, "d": 8, "M": 2, "H": 2, "n1": 20,
              "K": 5, "n_test": 20}
    out = X.run_dm1(dtype="float32", **kw)
    pc = out["precision_check"]
    assert pc["dtype"] == "float32" and pc["size_key"] == "n" and pc["sizes"] == [20, 40, 80]
    ref = X.run_dm1(**{**kw, "seeds": 1})                   # float64, computed here
    assert ref["precision_check"] is None
    got = {p["n"]: p for p in out["points"] if p["seed"] == 0}
    want = {p["n"]: p for p in ref["points"]}
    row = next(r for r in pc["rows"] if r["key"] == "train_loss")
    rel = max(abs(got[n]["train_loss"] - want[n]["train_loss"]) / want[n]["train_loss"] for n in (20, 40, 80))
    assert row["max_rel_diff"] == pytest.approx(rel, rel=1e-12) and 0 < rel < 1e-4
    assert "## Accuracy of float32 against float64" in markdown_report(out)
    with pytest.raises(BoundcalcError, match="dtype"):
        X.run_dm1(dtype="bfloat16", **kw)


def test_dm1_seeds_batched_equal_each_seed_alone():
    """deora2023-dm1 trains the seeds of one n as one batch (a leading batch axis): every
    recorded number equals that of the seed's point computed alone, to 1e-12."""
    cfg = {**X.parse_settings({"T": 4, "d": 8, "M": 2, "H": 3, "n1": 30, "n": 90, "K": 8, "n_test": 40}), "seeds": [3, 4, 5]}
    got = X.dm1_points(cfg)["points"]
    assert [p["seed"] for p in got] == [3, 4, 5]
    for p in got:
        one = X.dm1_point({**{k: v for k, v in cfg.items() if k != "seeds"}, "seed": p["seed"]})
        assert p.keys() == one.keys()
        for k, v in one.items():
            if k == "train_cpu_seconds":
                assert p[k] > 0
            elif isinstance(v, float):
                assert p[k] == pytest.approx(v, rel=1e-12, abs=1e-15), k
            else:
                assert p[k] == v, k
        assert one["train_loss"] < one["train_loss_start"]          # it trained


def test_dm1_batches_small_n_only(monkeypatch):
    """Seeds of an n up to BATCH_MAX_N share one sweep task; above it each seed is its own
    task (the large points must still spread over the workers)."""
    from boundcalc.runs import sweep

    seen = []
    real = sweep.run
    monkeypatch.setattr(sweep, "run", lambda fn, configs, **kw: seen.extend(
        (c["n"], tuple(c["seeds"])) for c in configs) or real(fn, configs, **kw))
    monkeypatch.setattr(X.dm1, "BATCH_MAX_N", 30)   # where run_dm1 reads it
    out = X.run_dm1(seed=0, cache_dir=False, progress=False, ns=(20, 40), seeds=2, T=4, d=8, M=2, H=2, n1=20,
                    K=3, n_test=20)
    assert seen == [(20, (0, 1)), (40, (0,)), (40, (1,))]
    assert [(p["n"], p["seed"]) for p in out["points"]] == [(20, 0), (20, 1), (40, 0), (40, 1)]
