"""App. E, Fig. 9: the over-parameterisation study (trials, summary, rows, findings, plots).
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from boundcalc.experiments.settings import as_int, as_int_list
from boundcalc.experiments.settings import check_seed as _check_seed
from boundcalc.experiments.settings import derive_seed as _seed
from boundcalc.experiments.settings import require as _require

from ...reports.plots import styled
from .instance import _scores
from .render import _fmt
from .settings import _dtype

FIG9_D = (2, 5, 10, 100, 300, 500)
FIG9_PAPER = {
    "avg_correlation_saturated": 0.997,
    "prob_gap_negative": "< 0.01",
    "avg_correlation_gap_negative": "> 0.99",
    "bars": "only in the image (not recoverable from the text)",
    "qualitative": [
        "small d (d = 2): tall red bar (softmax not saturated, finite-norm solutions)",
        "larger d: GD almost always converges to an LMM direction",
        "the share of GMM convergence grows with d",
    ],
}


FIG9_BATCH = 100          # trials of one d advanced together by the batched GD (engine.gd_p)


def fig9_trials(config: dict) -> dict:
    """A batch of App.-E trials of one d (JSON in and out): for each seed of
    ``config["seeds"]`` a random instance (n, T, d), p(0) = p0_scale N(0, I), normalised GD,
    then the Fig.-9 classification of the last iterate. The GD of the whole batch runs as
    one problem with a leading trial axis; if any trial diverges, every trial is rerun
    alone, so that a divergence is reported exactly as for one trial."""
    from boundcalc.engine import ops
    from boundcalc.engine import tarzanagh2023 as tz
    from boundcalc.engine.budget import Divergence
    from boundcalc.engine.data import tokens

    n, T, d = int(config["n"]), int(config["T"]), int(config["d"])
    seeds = [int(x) for x in config["seeds"]]
    data = [tokens.appendix_e(n, T, d, seed=_seed(sd, 1)) for sd in seeds]
    p0 = np.stack([float(config["p0_scale"]) * ops.rng(_seed(sd, 2)).standard_normal(d) for sd in seeds])
    kw = {"lr": float(config["lr"]), "steps": int(config["steps"]), "loss": config["loss"], "normalized": True,
              "dtype": config.get("dtype", "float64")}
    try:
        ps = tz.gd_p(np.stack([x.keys for x in data]), np.stack([_scores(x) for x in data]), p0, **kw)["p"]
    except Divergence:
        ps = [tz.gd_p(x.keys, _scores(x), p, **kw)["p"] for x, p in zip(data, p0)]
    fin = lambda x: float(x) if math.isfinite(x) else None
    out = []
    for x, p in zip(data, ps):
        rep = tz.selection_report(x, p, sat_tol=float(config["sat_tol"]))
        out.append({
            "saturation": rep.saturation,
            "saturated": bool(rep.saturated),
            "feasible": bool(rep.svm.feasible),
            "lmm": bool(rep.saturated and rep.locally_optimal),
            "gmm": bool(rep.saturated and rep.globally_optimal),
            "correlation": fin(rep.correlation),
            "score_gap": fin(rep.score_gap),
            "p_norm": float(np.linalg.norm(p)),
        })
    return {"trials": out}


def _summarise_fig9(results: list[dict]) -> dict:
    N = len(results)
    sat = [r for r in results if r["saturated"]]
    corr_sat = [r["correlation"] for r in sat if r["correlation"] is not None]
    neg = [r for r in sat if r["score_gap"] is not None and r["score_gap"] < 0]
    corr_neg = [r["correlation"] for r in neg if r["correlation"] is not None]
    pct = lambda k: 100.0 * k / N if N else None
    return {
        "trials": N,
        "pct_not_saturated": pct(N - len(sat)),
        "pct_lmm": pct(sum(r["lmm"] for r in results)),
        "pct_gmm": pct(sum(r["gmm"] for r in results)),
        "pct_saturated_not_lmm": pct(sum(r["saturated"] and not r["lmm"] for r in results)),
        "avg_correlation_saturated": float(np.mean(corr_sat)) if corr_sat else None,
        "min_correlation_saturated": float(np.min(corr_sat)) if corr_sat else None,
        "prob_gap_negative_saturated": len(neg) / len(sat) if sat else None,
        "prob_gap_negative_all": len(neg) / N if N else None,
        "avg_correlation_gap_negative": float(np.mean(corr_neg)) if corr_neg else None,
        "n_gap_negative": len(neg),
        "score_gaps": sorted(r["score_gap"] for r in sat if r["score_gap"] is not None),
    }


FIG9_DESCRIPTION = ("App. E, Fig. 9: n = 4, T = 6, d in {2,...,500}, random trials of normalised GD; "
                    "% non-saturated / LMM / GMM, correlation with the max-margin direction, P(gamma-bar < 0)")


def run_fig9(*, seed: int = 0, full: bool = False, jobs: int = 1, backend: str = "loky",
             scheduler=None, cache_dir=None, plot_dir=None, progress: bool = True,
             trials: int | None = None, steps: int | None = None, dims=None, dtype: str = "float64") -> dict:
    """App. E / Fig. 9. ``full``: 1000 trials x 1000 iterations per d (the paper's size);
    default 100 trials x 1000 iterations. ``trials``/``steps``/``dims`` override the sizes.
    ``dtype='float32'`` runs the GD steps in single precision and the first batch of each d
    again in float64, recording the differences (``precision_check``)."""
    from boundcalc.runs import sweep

    seed = _check_seed(seed)
    dtype = _dtype(dtype)
    trials = (1000 if full else 100) if trials is None else as_int("trials", trials)
    steps = 1000 if steps is None else as_int("steps", steps)
    dims = tuple(FIG9_D if dims is None else as_int_list("dims", dims))
    _require(isinstance(trials, int) and trials >= 1, "trials", "a positive integer", trials)
    _require(isinstance(steps, int) and steps >= 1, "steps", "a positive integer", steps)
    _require(len(dims) > 0 and all(isinstance(x, int) and x >= 1 for x in dims), "dims",
             "a non-empty list of positive integers", dims)
    base = {"n": 4, "T": 6, "lr": 1.0, "steps": steps, "loss": "logistic", "p0_scale": 0.01,
            "sat_tol": 1e-5, "dtype": dtype}
    configs = [dict(base, d=d, seeds=[_seed(seed, d, k) for k in range(k0, min(k0 + FIG9_BATCH, trials))])
               for d in dims for k0 in range(0, trials, FIG9_BATCH)]
    from boundcalc.engine import tarzanagh2023 as tz
    from boundcalc.engine.budget import check_memory
    batch = min(FIG9_BATCH, trials)          # trials advanced together: each holds its own arrays
    check_memory(batch * tz.memory_estimate({**base, "d": max(dims)}),
                 f"tarzanagh2023-fig9 batch of {batch} trials (steps={steps}, d={max(dims)})")
    batches = sweep.run(fig9_trials, configs, jobs=jobs, backend=backend, scheduler=scheduler,
                        cache_dir=cache_dir, progress=progress, desc="fig9 trial batches")
    res = [r for b in batches for r in b["trials"]]
    per_d = {}
    for j, d in enumerate(dims):
        per_d[str(d)] = _summarise_fig9(res[j * trials:(j + 1) * trials])
    accuracy = None
    if dtype != "float64":           # the first batch of each d again in float64
        firsts = [next(c for c in configs if c["d"] == d) for d in dims]
        ref = sweep.run(fig9_trials, [dict(c, dtype="float64") for c in firsts], jobs=jobs, backend=backend,
                        scheduler=scheduler, cache_dir=cache_dir, progress=progress,
                        desc="fig9 float64 check")
        got = [b for c, b in zip(configs, batches) if c in firsts]
        accuracy = _fig9_precision(dims, seed, got, ref, dtype)
    out: dict[str, Any] = {
        "name": "tarzanagh2023-fig9",
        "setup": {**base, "dims": list(dims), "trials_per_d": trials, "seed": seed, "full": full,
                  "init": "p(0) = 0.01 N(0, I) (not stated in the paper; the repository's default)",
                  "paper_size": "1000 trials x 1000 iterations per d",
                  "reduced": not (trials >= 1000 and steps >= 1000)},
        "per_d": per_d,
        "paper": FIG9_PAPER,
        "precision_check": accuracy,
    }
    out["findings"] = _fig9_findings(per_d, dims)
    out["full"] = bool(full)
    out["description"] = FIG9_DESCRIPTION
    out["paper_vs_ours"] = _fig9_rows(res, per_d, dims, out["findings"])
    if plot_dir is not None:
        out["plots"] = plot_fig9(out, plot_dir)
    return out


FIG9_PRECISION_METRICS = (("correlation", "correlation with p^mm(alpha)"), ("saturation", "saturation s-bar"),
                          ("p_norm", "||p|| after the last step"))
CLASSES = ("saturated", "lmm", "gmm")


def _fig9_precision(dims, seed: int, got: list[dict], ref: list[dict], dtype: str) -> dict:
    """The first trial of each d in both precisions (``precision_check``) and, over the whole
    first batch of each d, how many trials land in the same Fig.-9 class."""
    from boundcalc.experiments.precision import precision_check

    first = lambda batches: [dict(b["trials"][0], d=d) for d, b in zip(dims, batches)]
    same = [sum(all(x[k] == y[k] for k in CLASSES) for x, y in zip(a["trials"], b["trials"]))
            for a, b in zip(got, ref)]
    sizes = [len(b["trials"]) for b in got]
    line = ("Fig.-9 class (saturated / LMM / GMM) the same in both precisions: "
            + ", ".join(f"d = {d}: {k} of {m}" for d, k, m in zip(dims, same, sizes)) + " (first batch of each d)")
    return precision_check("d", list(dims), seed, first(got), first(ref), dtype, FIG9_PRECISION_METRICS,
                           slopes=False, unit="the first trial of each d",
                           extra={"agreement": [line], "same_class": same, "compared_trials": sizes})


def plot_fig9(out: dict, plot_dir) -> list[str]:
    """Fig. 9 (a)/(c) bars and the Fig. 9(b)/10 score-gap histograms, from the JSON alone."""
    dims = [int(d) for d in out["per_d"]]
    return _plot_fig9(out["per_d"], dims, Path(plot_dir)) + _plot_fig9_gaps(out["per_d"], dims, Path(plot_dir))


FIG9_QUOTES = {
    "corr": "App. E: 'The average correlation coefficient between p(t) and its associated LMM/GMM direction "
            "is 0.997'",
    "neg": "App. E: 'we found this happens less than 1% of the problems, that is, Prob(gamma-bar < 0) < 0.01'",
    "corr_neg": "App. E: 'over the instances gamma-bar < 0, gradient descent solution is still > 0.99 "
                "correlated with the max-margin solution in average'",
    "bars": "App. E, Fig. 9(a) (bar heights only in the image)",
}


def _fig9_rows(res: list[dict], per_d: dict, dims, findings: list[dict]) -> list[dict]:
    from boundcalc.experiments.paper_vs_ours import row
    from boundcalc.runs.intervals import mean_interval

    sat = [r for r in res if r["saturated"]]
    rows = []
    corr = [r["correlation"] for r in sat if r["correlation"] is not None]
    if corr:
        iv = mean_interval(corr)
        ok = iv["low"] is not None and abs(iv["mean"] - 0.997) <= 0.005
        rows.append(row("average correlation of p(t) with its LMM/GMM direction (saturated runs, all d)",
                        "0.997", FIG9_QUOTES["corr"], None, "reproduced" if ok else "not reproduced",
                        f"over {len(corr)} saturated trials; " + ("within 0.005 of the paper's 0.997" if ok else
                                                                   "more than 0.005 from 0.997"), interval=iv,
                        unit="trials"))
    gaps = [r for r in sat if r["score_gap"] is not None]
    if gaps:
        neg = [1.0 if r["score_gap"] < 0 else 0.0 for r in gaps]
        iv = mean_interval(neg)
        k = int(sum(neg))
        ok = iv["mean"] < 0.01
        rows.append(row("Prob(gamma-bar < 0) among saturated runs (all d)", "< 0.01", FIG9_QUOTES["neg"],
                        f"{iv['mean']:.4f} ({k} of {len(neg)})" + (
                            f", 95% Student-t [{iv['low']:.4f}, {iv['high']:.4f}]" if iv["low"] is not None and k else ""),
                        "reproduced" if ok else "not reproduced",
                        f"{k} negative gaps in {len(neg)} saturated trials" + (
                            "; a proportion near 0 with few events: the t-interval of the mean of indicators "
                            "is only indicative" if k else "")))
        cn = [r["correlation"] for r in gaps if r["score_gap"] < 0 and r["correlation"] is not None]
        if cn:
            iv = mean_interval(cn)
            rows.append(row("average correlation with p^mm(alpha) when gamma-bar < 0", "> 0.99",
                            FIG9_QUOTES["corr_neg"], None, "reproduced" if iv["mean"] > 0.99 else "not reproduced",
                            f"{len(cn)} trials", interval=iv, unit="trials"))
        else:
            rows.append(row("average correlation with p^mm(alpha) when gamma-bar < 0", "> 0.99",
                            FIG9_QUOTES["corr_neg"], "-", "not comparable", "no trial with gamma-bar < 0"))
    for f in findings:
        if f["claim"].startswith("average correlation") or f["claim"].startswith("Prob("):
            continue
        ours = f["ours"]
        ours = ", ".join(f"d={k}: {_fmt(v, 3)}" for k, v in ours.items()) if isinstance(ours, dict) else _fmt(ours)
        rows.append(row(f["claim"], str(f["paper"]), FIG9_QUOTES["bars"], ours + " (% of trials)",
                        "reproduced" if f["reproduced"] else "not reproduced",
                        "qualitative claim: the bar heights are not in the text"))
    return rows


def _plot_fig9_gaps(per_d: dict, dims, plot_dir: Path) -> list[str]:
    """Fig. 9(b): histogram of the score gap gamma-bar over saturated trials (bins of width
    0.005 < 0.01), and Fig. 10: its cumulative distribution with a dashed line at 0, for the
    paper's d in {5, 10, 100} that were run (else every d run)."""
    show = [str(d) for d in dims if d in (5, 10, 100)] or [str(d) for d in dims]
    show = [d for d in show if per_d[d]["score_gaps"]]
    if not show:
        return []
    plot_dir.mkdir(parents=True, exist_ok=True)
    return [str(o) for o in _draw_fig9_gaps(per_d, show, plot_dir)]


@styled
def _draw_fig9_gaps(per_d: dict, show: list, plot_dir: Path) -> list:
    from ...reports import plots as rp
    allg = np.concatenate([per_d[d]["score_gaps"] for d in show])
    lo, hi = min(-0.2, float(allg.min())), max(1.2, float(allg.max()))
    bins = np.arange(np.floor(lo / 0.005) * 0.005, hi + 0.005, 0.005)
    gap = r"$\bar{\gamma}$"            # the paper's minimum score gap
    fig = rp.figure(ratio=0.7)
    ax = fig.add_subplot(1, 1, 1)
    for i, d in enumerate(show):
        g = np.asarray(per_d[d]["score_gaps"])
        st = rp.series_style(i)
        ax.hist(g, bins=bins, weights=np.full(g.size, 1.0 / g.size), histtype="step", color=st["color"],
                ls=st["ls"], label=f"$d = {d}$ ({g.size} saturated trials, {int(np.sum(g < 0))} with {gap} < 0)")
    ax.axvline(0.0, color="0.5", ls="--", lw=0.8, label=f"{gap} = 0")
    ax.set_xlabel(f"minimum score gap {gap} (saturated trials)")
    ax.set_ylabel("fraction of trials per bin (width 0.005)")
    ax.set_title("Tarzanagh et al. 2023, Fig. 9(b) reproduced (ours, sampled)")
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center")
    outs = rp.save(fig, plot_dir / "tarzanagh2023-fig9b")
    fig = rp.figure(ratio=0.7)
    ax = fig.add_subplot(1, 1, 1)
    for i, d in enumerate(show):
        g = np.sort(np.asarray(per_d[d]["score_gaps"]))
        st = rp.series_style(i)
        ax.step(g, np.arange(1, g.size + 1) / g.size, where="post", color=st["color"], ls=st["ls"],
                label=f"$d = {d}$")
    ax.axvline(0.0, color="0.5", ls="--", lw=0.8, label=f"{gap} = 0")
    ax.set_xlabel(f"minimum score gap {gap} (saturated trials)")
    ax.set_ylabel("cumulative probability")
    ax.set_title("Tarzanagh et al. 2023, Fig. 10 reproduced (ours, sampled)")
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=min(4, len(show) + 1))
    return outs + rp.save(fig, plot_dir / "tarzanagh2023-fig10")


def _fig9_findings(per_d: dict, dims) -> list[dict]:
    ds = [str(d) for d in dims]
    nots = [per_d[d]["pct_not_saturated"] for d in ds]
    found = [{"claim": "the non-saturated share is largest at the smallest d",
              "paper": "tall red bar at d = 2",
              "ours": {d: per_d[d]["pct_not_saturated"] for d in ds},
              "reproduced": bool(nots[0] == max(nots))}]
    big = [d for d in ds if int(d) >= 10]
    if big:
        shares = {d: (100.0 * per_d[d]["pct_lmm"] / (100 - per_d[d]["pct_not_saturated"])
                      if per_d[d]["pct_not_saturated"] < 100 else None) for d in big}
        found.append({"claim": "for d >= 10 almost every saturated run converges to an LMM (>= 95% of saturated runs)",
                      "paper": "LMM almost always for larger d", "ours": shares,
                      "reproduced": all(v is not None and v >= 95.0 for v in shares.values())})
    gm = [per_d[d]["pct_gmm"] for d in ds]
    found.append({"claim": "the GMM share grows with d (largest d above smallest d, and "
                           "positive rank correlation with d)",
                  "paper": "probability of GMM convergence increases with d",
                  "ours": dict(zip(ds, gm)),
                  "reproduced": bool(len(gm) > 1 and gm[-1] > gm[0] and _spearman(dims, gm) > 0)})
    cs = [per_d[d]["avg_correlation_saturated"] for d in ds if per_d[d]["avg_correlation_saturated"] is not None]
    found.append({"claim": "average correlation with the LMM/GMM direction (saturated runs) ~ 0.997",
                  "paper": 0.997, "ours": float(np.mean(cs)) if cs else None,
                  "reproduced": bool(cs and np.mean(cs) >= 0.99)})
    neg = [per_d[d]["prob_gap_negative_saturated"] for d in ds if per_d[d]["prob_gap_negative_saturated"] is not None]
    found.append({"claim": "Prob(gamma-bar < 0) < 0.01 among saturated runs",
                  "paper": "< 0.01", "ours": {d: per_d[d]["prob_gap_negative_saturated"] for d in ds},
                  "reproduced": bool(neg and max(neg) < 0.01)})
    return found


def _spearman(x, y) -> float:
    rx = np.argsort(np.argsort(np.asarray(x, float)))
    ry = np.argsort(np.argsort(np.asarray(y, float)))
    if np.std(rx) == 0 or np.std(ry) == 0:
        return 0.0
    return float(np.corrcoef(rx, ry)[0, 1])


def _plot_fig9(per_d: dict, dims, plot_dir: Path) -> list[str]:
    plot_dir.mkdir(parents=True, exist_ok=True)
    return [str(o) for o in _draw_fig9(per_d, dims, plot_dir)]


@styled
def _draw_fig9(per_d: dict, dims, plot_dir: Path) -> list:
    """Fig. 9(a): the share of trials per outcome at each d, grouped bars, each outcome its own
    colour and hatch (told apart in grey print too)."""
    from ...reports import plots as rp
    ds = [str(d) for d in dims]
    fig = rp.figure(ratio=0.6)
    ax = fig.add_subplot(1, 1, 1)
    x = np.arange(len(ds))
    w = 0.27
    for k, (off, key, label, hatch) in enumerate(((-w, "pct_not_saturated", "not saturated", "//"),
                                                   (0.0, "pct_lmm", "LMM (incl. GMM)", ""),
                                                   (w, "pct_gmm", "GMM", ".."))):
        ax.bar(x + off, [per_d[d][key] for d in ds], w, color=rp.PALETTE[k], hatch=hatch, edgecolor="white",
               lw=0.3, label=label)
    ax.set_xticks(x, ds)
    ax.set_xlabel("token dimension $d$")
    ax.set_ylabel("share of trials (%, ours)")
    ax.set_title("Tarzanagh et al. 2023, Fig. 9(a) reproduced ($n = 4$, $T = 6$)")
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=3)
    return rp.save(fig, plot_dir / "tarzanagh2023-fig9")
