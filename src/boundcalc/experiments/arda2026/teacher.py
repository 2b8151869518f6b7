"""The teacher study: the paper's teacher against the authors' code's.
"""
from __future__ import annotations

import numpy as np

from ..settings import as_int, bad
from .laws import PAPER_SOURCE, _slope_txt, _yerr, scaling_laws, slope_verdict
from .measure import _points, label_difference
from .minloss import STUDY_BASE, STUDY_FULL
from .settings import PAPER, parse_settings

TEACHER_DESCRIPTION = ("The paper's teacher (W_k q_X) vs the authors' code's (diag(W_k) q_X): label difference "
                       "and the Fig. 1 slopes under each.")


def run_teacher(*, seed: int = 0, full: bool = False, jobs: int = 1, backend: str = "loky",
                scheduler: str | None = None, cache_dir=None, plot_dir=None, progress: bool = True,
                **settings) -> dict:
    """Reproduction 'arda2026-teacher': the paper's teacher against the authors' code's
    (diag(W_k)), same inputs/anchors/pool/seeds: how far the labels differ, and the Fig. 1
    slopes under each.  Sizes as :data:`STUDY_BASE` (``full``: 5 seeds)."""
    from ...runs.intervals import describe, mean_interval
    from ..paper_vs_ours import row

    if "teacher" in settings:
        bad("teacher", "arda2026-teacher runs both teachers (paper and authors-code) itself; "
                       "use arda2026-fig1 --teacher for one of them")
    base = {**STUDY_BASE, **(STUDY_FULL if full else {}), **settings}
    seed = as_int("seed", seed)
    kw = {"jobs": jobs, "backend": backend, "scheduler": scheduler, "cache_dir": cache_dir, "progress": progress}
    per = {}
    for t in ("paper", "authors-code"):
        c = parse_settings({**base, "teacher": t})
        pts = _points(c, seed, desc=f"arda2026 teacher={t}", **kw)
        seeds = [seed + k for k in range(c["seeds"])]
        per[t] = {"laws": scaling_laws(c["widths"], seeds, pts), "settings": c}
    c = per["paper"]["settings"]
    seeds = [seed + k for k in range(c["seeds"])]
    diffs = [label_difference(c, s) for s in seeds]
    rel = mean_interval([d["relative_l2_difference"] for d in diffs])
    cor = mean_interval([d["correlation"] for d in diffs])
    rows = [row("labels: ||y_paper - y_code|| / ||y_paper||", "-",
                "authors' data.py: einsum('kdd,bd->bkd', W, X_T) (diagonal of W_k); paper Sec. 6.1: W_k q_X",
                None, "not comparable", "the paper states no such number; it measures how far the two "
                "teachers' labels are apart on the same inputs", interval=rel),
            row("labels: correlation(y_paper, y_code)", "-", "as above", None, "not comparable",
                "same inputs, anchors and pool; only W_k vs diag(W_k) differs", interval=cor)]
    for key in ("eps_app_sup", "min_train_loss"):       # eps_lin does not depend on the labels
        law, other = per["paper"]["laws"][key], per["authors-code"]["laws"][key]
        for t, lw in (("paper", law), ("authors-code", other)):
            v, why = slope_verdict(lw["fit"])
            rows.append(row(f"slope of {lw['label']} vs m, {t} teacher", "-0.5", PAPER_SOURCE,
                            _slope_txt(lw["fit"]), v, why))
    out = {"name": "arda2026-teacher", "paper": PAPER, "full": bool(full),
           "description": TEACHER_DESCRIPTION,
           "settings": {k: (list(v) if isinstance(v, tuple) else v) for k, v in c.items() if k != "teacher"},
           "label_differences": diffs, "relative_difference": rel, "correlation": cor,
           "per_teacher": {t: {"laws": p["laws"]} for t, p in per.items()},
           "paper_vs_ours": rows, "plots": []}
    slope = {t: {k: (p["laws"][k]["fit"] or {}).get("slope") for k in p["laws"]} for t, p in per.items()}
    out["conclusions"] = [
        f"labels differ by {describe(rel)} in relative l2 norm, correlation {describe(cor, 4)}",
        "slopes (paper teacher -> authors'-code teacher): " + "; ".join(
            f"{k}: {slope['paper'][k]:.3f} -> {slope['authors-code'][k]:.3f}" for k in slope["paper"]
            if slope["paper"][k] is not None and slope["authors-code"][k] is not None),
        (f"label rms: paper's teacher {np.mean([d['rms_paper'] for d in diffs]):.3g}, authors' code's "
        f"{np.mean([d['rms_authors_code'] for d in diffs]):.3g} (mean over seeds)"),
        ("the student is the paper's model (full W_k) under both teachers, as in the authors' model.py "
        "(einsum 'mdk,bk->bmd'); only the labels change; eps_lin does not depend on them")]
    if plot_dir is not None:
        out["plots"] = plot_teacher(out, plot_dir)
    return out


def plot_teacher(out: dict, plot_dir) -> list[str]:
    return _plot_teacher({t: p["laws"] for t, p in out["per_teacher"].items()}, out["settings"]["widths"],
                         plot_dir)


def _plot_teacher(laws_by_teacher: dict, widths, plot_dir) -> list[str]:
    from pathlib import Path

    from ...reports import plots
    series = {}
    for t, laws in laws_by_teacher.items():
        for key, short in (("eps_app_sup", r"$\varepsilon_{\mathrm{app}}$"), ("min_train_loss", "min loss")):
            law = laws[key]
            if law["fit"] is not None:
                series[f"{short}, {t}"] = {"x": widths, "y": law["mean"], "yerr": _yerr(law), "fit": law["fit"]}
    Path(plot_dir).mkdir(parents=True, exist_ok=True)
    return [str(x) for x in plots.scaling(series, Path(plot_dir) / "arda2026-teacher",
                                          title="Arda et al. (2026): paper's teacher vs authors' code's",
                                          xlabel="width $m$", ylabel="error / loss")]
