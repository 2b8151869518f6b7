"""The min-training-loss study: Fig. 1's slope under several horizons, step sizes and width
ranges.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..settings import as_int
from .laws import _slope_txt, _yerr, scaling_laws, slope_verdict
from .measure import _points
from .settings import PAPER, eta_of, parse_settings
from .timing import estimate_seconds

STUDY_BASE = {"widths": "8,16,32,64,128", "n": 500, "pool": 2048, "tau": 1000, "eta": "paper", "seeds": 3}
STUDY_FULL = {"seeds": 5}
# (name, what the condition changes in the base settings); "eta_sqrt_tau": k sets eta = k/sqrt(tau)
# at the base's tau.  Each condition's label is written from the settings it ran with.
MINLOSS_CONDITIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("baseline", {}),
    ("shorter horizon", {"tau": 250}),
    ("paper's horizon", {"tau": 4000}),
    ("authors' step", {"eta_sqrt_tau": 1.75}),
    ("larger step", {"eta_sqrt_tau": 4.0}),
    ("wider widths", {"widths": "32,64,128,256"}),
)
# The reduced study (about 5 minutes on 2 cores with --jobs 2): the horizon and step-size
# conditions only, on half the samples and widths 8-64, 5 seeds (3 seeds left intervals of
# half-width 0.4); --full runs every condition on STUDY_BASE.
MINLOSS_REDUCED = {"n": 250, "widths": "8,16,32,64", "seeds": 5}
MINLOSS_REDUCED_CONDITIONS = (0, 1, 2, 4)
LOSS_METRICS = (("min_train_loss", "min_(s<tau) training loss of ProjGD (Thm. 1)"),
                ("eps_app_sup", "approximation error sup_j |f_lin(phi~) - y~| (Lemma 5)"))


def eta_text(c: dict) -> str:
    """The step size as a multiple of 1/sqrt(tau): '1/sqrt(tau)' (the paper's), '1.75/sqrt(tau)'."""
    if c["eta"] == "paper":
        return "1/sqrt(tau)"
    return f"{float(c['eta']) * math.sqrt(c['tau']):.3g}/sqrt(tau)"


def _study_condition(label: str, c: dict, seed: int, **kw) -> dict:
    pts = _points(c, seed, desc=f"arda2026 {label}", **kw)
    seeds = [seed + k for k in range(c["seeds"])]
    laws = scaling_laws(c["widths"], seeds, pts, LOSS_METRICS)
    by_m = {m: [p for p in pts if p["m"] == m] for m in c["widths"]}
    ml = laws["min_train_loss"]
    return {"label": label, "settings": {**c, "eta_used": eta_of(c)}, "widths": c["widths"], "seeds": seeds,
            "min_loss_mean": ml["mean"], "min_loss_intervals": ml["intervals"], "fit": ml["fit"],
            "eps_app_fit": laws["eps_app_sup"]["fit"],
            "initial_loss_mean": [float(np.mean([p["initial_loss"] for p in by_m[m]])) for m in c["widths"]],
            "final_over_initial": [float(np.mean([p["min_train_loss"] / p["initial_loss"] for p in by_m[m]]))
                                   for m in c["widths"]],
            "estimated_cpu_seconds": estimate_seconds(c)}


MINLOSS_DESCRIPTION = ("Why the min training loss of Fig. 1 falls more slowly than m^(-1/2): its slope under "
                       "several horizons tau, step sizes eta and width ranges (same data and seeds).")


def run_minloss(*, seed: int = 0, full: bool = False, jobs: int = 1, backend: str = "loky",
                scheduler: str | None = None, cache_dir=None, plot_dir=None, progress: bool = True,
                conditions=None, **settings) -> dict:
    """Reproduction 'arda2026-minloss': why does min_s L^(phi^(s)) fall more slowly than m^(-1/2)?

    Fits the log-log slope of the minimum training loss under each condition of
    :data:`MINLOSS_CONDITIONS` (horizon tau, step size eta, width range), same data and seeds.
    Reduced: conditions :data:`MINLOSS_REDUCED_CONDITIONS` (tau = 250, 1000, 4000 and
    eta = 4/sqrt(tau)) with n = 250, widths 8-64, pool 2048, 5 seeds; ``full``: every condition
    with n = 500, widths 8-128 (32-256 for the width condition), 3 seeds.  ``conditions``
    (indices) and settings override (tests shrink the sizes)."""
    base = {**STUDY_BASE, **({} if full else MINLOSS_REDUCED), **settings}
    seed = as_int("seed", seed)
    if conditions is None:
        conditions = range(len(MINLOSS_CONDITIONS)) if full else MINLOSS_REDUCED_CONDITIONS
    idx = list(conditions)
    kw = {"jobs": jobs, "backend": backend, "scheduler": scheduler, "cache_dir": cache_dir, "progress": progress}
    results = []
    for i in idx:
        name, over = MINLOSS_CONDITIONS[i]
        over = dict(over)
        k = over.pop("eta_sqrt_tau", None)
        c = parse_settings({**base, **over})          # settings set the base, the condition varies it
        if k is not None:
            c = parse_settings({**base, **over, "eta": k / math.sqrt(c["tau"])})
        results.append(_study_condition(f"{name}: tau = {c['tau']}, eta = {eta_text(c)}", c, seed, **kw))
    out = {"name": "arda2026-minloss", "paper": PAPER, "full": bool(full),
           "description": MINLOSS_DESCRIPTION,
           "conditions": results, "plots": []}
    out["paper_vs_ours"], out["conclusions"] = _minloss_summary(results)
    if plot_dir is not None:
        out["plots"] = plot_minloss(out, plot_dir)
    return out


def _minloss_summary(results: list[dict]):
    from ..paper_vs_ours import row

    rows, notes = [], []
    for r in results:
        v, why = slope_verdict(r["fit"])
        st = r["settings"]
        rows.append(row(f"slope of min training loss vs m; {r['label']} (widths {r['widths'][0]}-"
                        f"{r['widths'][-1]}, n = {st['n']})", "-0.5",
                        "Sec. 6.1 / Fig. 1 (right panel), Theorem 1", _slope_txt(r["fit"]), v,
                        why + f"; min loss / initial loss at the largest m = {r['final_over_initial'][-1]:.3g}"))
    taus = sorted((r["settings"]["tau"], r["fit"]["slope"]) for r in results
                  if r["fit"] and r["settings"]["eta"] == "paper" and r["widths"] == results[0]["widths"])
    if len(taus) > 1:
        notes.append("horizon (eta = 1/sqrt(tau), same widths): " +
                     ", ".join(f"tau = {t}: slope {s:.3f}" for t, s in taus))
    etas = sorted((r["settings"]["eta_used"], r["fit"]["slope"]) for r in results
                  if r["fit"] and r["settings"]["tau"] == results[0]["settings"]["tau"]
                  and r["widths"] == results[0]["widths"])
    if len(etas) > 1:
        notes.append(f"step size (tau = {results[0]['settings']['tau']}): " +
                     ", ".join(f"eta = {e:.4g}: slope {s:.3f}" for e, s in etas))
    for r in results:
        if r["widths"] != results[0]["widths"] and r["fit"]:
            notes.append(f"{r['label']}: slope {r['fit']['slope']:.3f}")
    notes.append("every slope above: mean of per-seed least-squares slopes with a 95% Student-t interval "
                 f"over {len(results[0]['seeds'])} seeds")
    return rows, notes


def plot_minloss(out: dict, plot_dir) -> list[str]:
    return _plot_minloss(out["conditions"], plot_dir)


def _plot_minloss(results: list[dict], plot_dir) -> list[str]:
    from pathlib import Path

    from ...reports import plots

    plot_dir = Path(plot_dir)
    plot_dir.mkdir(parents=True, exist_ok=True)
    series = {}
    for r in results:
        if r["fit"] is None:
            continue
        law = {"mean": r["min_loss_mean"], "intervals": r["min_loss_intervals"]}
        s = r["settings"]
        # from the settings it ran with, in the paper's symbols
        eta = eta_text(s).replace("/sqrt(tau)", r"/\sqrt{\tau}")
        short = f"$\\tau = {s['tau']}$, $\\eta = {eta}$"
        if r["widths"] != results[0]["widths"]:
            short += f", widths {r['widths'][0]}-{r['widths'][-1]}"
        series[short] = {"x": r["widths"], "y": r["min_loss_mean"], "yerr": _yerr(law), "fit": r["fit"]}
    return [str(p) for p in plots.scaling(series, plot_dir / "arda2026-minloss",
                                          title="Arda et al. (2026): min training loss vs width",
                                          xlabel="width $m$", ylabel=r"$\min_{s<\tau}$ training loss")]
