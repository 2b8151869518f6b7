"""The DM1 reproduction (Sec. 5): the sweep over n and seeds, its rows and its plots.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...errors import BoundcalcError
from ...reports.plots import styled
from ..settings import as_bool, as_int
from .bounds import bounds_for
from .measure import measure, measure_seeds
from .settings import PAPER, parse_settings


def dm1_point(config: dict) -> dict:
    """One (n, seed) point of the sweep: measurements + Cor. 2 bounds as floats (None if N/A)."""
    return _with_bounds(config, measure(config))


def dm1_points(config: dict) -> dict:
    """The points of every seed of ``config["seeds"]`` at one n, their second phases run as
    one batch (:func:`measure_seeds`): {"points": [dm1_point of each seed]}."""
    return {"points": [_with_bounds(config, m) for m in measure_seeds(config)]}


def _with_bounds(config: dict, m: dict) -> dict:
    c = parse_settings({k: v for k, v in config.items() if k not in ("seed", "seeds")})
    b = bounds_for(c, m)

    def fl(k):
        v = b.get(k)
        if v is None:
            return None
        x = getattr(v, "mpf", v)
        try:
            f = float(x)
        except (OverflowError, TypeError):
            return None
        return f if math.isfinite(f) else None

    m.update({"gamma_star": fl("gamma_star"), "gamma_prop2": fl("gamma_prop2"),
              "train_loss_cor2": fl("train_loss_cor2"), "gen_gap_cor2": fl("gen_gap_cor2"),
              "gamma_attn_limit": fl("gamma_attn_limit"),
              "H_cor2_log10": (math.log10(int(b["H_cor2"])) if b.get("H_cor2") else None),
              "H_prop2_log10": (math.log10(int(b["H_prop2"])) if b.get("H_prop2") else None),
              "eta_max_cor2": fl("eta_max_cor2")})
    return m


# The seeds of one n run as one batch up to this n: there a step is dominated by per-call
# work and the batch pays (CPU time per step, H = 32, 5 seeds, loaded machine: 1.6x at
# n = 100-400, 1.2x at n = 800); above it each seed is its own sweep task, so that the largest
# points, which dominate a --full run, still spread over the workers.
BATCH_MAX_N = 800

PRECISION_METRICS = (("train_loss", "train loss after K steps"), ("test_loss", "test loss"),
                     ("margin_normalised", "normalised margin"))


DM1_DESCRIPTION = ("Two-phase training on DM1 (Sec. 5): NTK margin after phase 1, margin GD reaches, "
                   "train/test loss and Cor. 2's bounds vs the sample size n, over seeds.")


def run_dm1(*, seed: int = 0, full: bool = False, jobs: int = 1, backend: str = "loky",
            scheduler: str | None = None, cache_dir=None, plot_dir=None, progress: bool = True,
            ns=None, seeds: int | None = None, k_equals_n=None, **settings) -> dict:
    """Reproduction 'deora2023-dm1': margins and losses on DM1 vs the second-phase sample size n.

    Default ns = (100, 200, 400, 800), 3 seeds (seed, seed+1, ...); ``full=True``: ns up to 3200,
    5 seeds, K = n (Cor. 2 applied with K = n, as in the paper's discussion after Prop. 2);
    ``k_equals_n=True`` uses K = n at any sizes.
    ``ns``/``seeds``/settings override (tests shrink them)."""
    from ...runs import sweep

    ns = _dm1_ns(ns, full)
    nseeds = as_int("seeds", seeds if seeds is not None else (5 if full else 3))
    if nseeds < 1:
        raise BoundcalcError(f"option --seeds: must be >= 1, got {seeds!r}")
    base = parse_settings(settings)
    K_eq_n = (full if k_equals_n is None else as_bool("k_equals_n", k_equals_n)) and "K" not in settings
    configs = []     # the seeds of a small n as one batch (dm1_points); a large n one task per seed
    for n in ns:
        seeds_n = [int(seed) + k for k in range(nseeds)]
        for group in ([seeds_n] if n <= BATCH_MAX_N else [[sd] for sd in seeds_n]):
            cfg = {**base, "n": n, "seeds": group}
            if K_eq_n:
                cfg["K"] = n
            configs.append(cfg)
    from ...engine.budget import check_memory
    from ...engine.deora2023 import memory_estimate
    # a batch holds every seed's samples and parameters; NTK Grams are built one at a time
    need = lambda c: memory_estimate(c) + (len(c["seeds"]) - 1) * (memory_estimate(c) - 2e8)
    big = max(configs, key=need)
    check_memory(need(big), f"deora2023-dm1 batch of {len(big['seeds'])} seed(s) (n1={big['n1']}, n={big['n']}, "
                            f"n_test={big['n_test']}, T={big['T']}, d={big['d']}, H={big['H']}, K={big['K']})")
    res = [pt for grp in sweep.run(dm1_points, configs, jobs=jobs, backend=backend, scheduler=scheduler,
                                   cache_dir=cache_dir, progress=progress, desc="deora2023-dm1")
           for pt in grp["points"]]
    accuracy = None
    if base["dtype"] != "float64":       # the first seed again in float64: what float32 changed
        from ..precision import precision_check
        ref = [pt for grp in sweep.run(dm1_points, [dict(c, dtype="float64", seeds=[int(seed)]) for c in configs
                                                if int(seed) in c["seeds"]],
                                       jobs=jobs, backend=backend, scheduler=scheduler, cache_dir=cache_dir,
                                       progress=progress, desc="deora2023-dm1 float64 check")
               for pt in grp["points"]]
        accuracy = precision_check("n", ns, int(seed), [r for r in res if r["seed"] == int(seed)], ref,
                                   base["dtype"], PRECISION_METRICS)
    per_n = _dm1_per_n(res, ns, nseeds)
    out = {
        "name": "deora2023-dm1",
        "paper": PAPER,
        "description": DM1_DESCRIPTION,
        "settings": {k: v for k, v in base.items() if k != "n"} | ({"K": "n"} if K_eq_n else {}),
        "ns": ns, "seeds": [int(seed) + k for k in range(nseeds)],
        "per_n": per_n, "points": res, "precision_check": accuracy,
        "paper_reported": {"note": "The paper (main body) reports no numbers for DM1 experiments (they are in "
                                   "an appendix not available); it predicts train loss and expected gap "
                                   "O~(1/(eta gamma_*^2 n)) for K = n (Sec. 5.1), and gamma_attn = S sqrt(T)/sqrt 2 "
                                   "as the margin of saturated attention (Sec. 5.3)."},
        "plots": [],
        "full": bool(full),
        "intervals_method": "mean over seeds with a two-sided 95% Student-t interval "
                            "(reports.intervals.mean_interval)",
    }
    out["paper_vs_ours"], out["conclusions"] = _dm1_rows(out, K_eq_n)
    if not full:     # second phase costs ~ n K per point (n1, n_test and the SVM are smaller)
        ours = nseeds * sum(n * (n if K_eq_n else base["K"]) for n in ns)
        paper = 5 * sum(n * n for n in (100, 200, 400, 800, 1600, 3200))
        out["not_run"] = [(f"--full (ns up to 3200, K = n, 5 seeds) costs about {paper / ours:.0f} times this run "
                          "(second-phase GD ~ n K per point)")]
    if plot_dir is not None:
        out["plots"] = plot_dm1(out, plot_dir)
    return out


def _dm1_ns(ns, full: bool) -> list[int]:
    """The sizes n: given (a list, or text '100,200'), else the default or --full ones."""
    if ns is None:
        ns = (100, 200, 400, 800, 1600, 3200) if full else (100, 200, 400, 800)
    if isinstance(ns, str):
        ns = [as_int("ns", t) for t in ns.split(",") if t.strip()]
    ns = [as_int("ns", x) for x in ns]
    if not ns or min(ns) < 1:
        raise BoundcalcError(f"option --ns: needs positive integers, got {ns!r}")
    return ns


def _dm1_per_n(res: list, ns: list, nseeds: int) -> list[dict]:
    """Each n's measurements over the seeds: mean, sd and a 95% interval of each quantity."""
    from ...runs.intervals import mean_interval

    keys = ("gamma_ntk", "gamma_star", "gamma_prop2", "margin_normalised", "train_loss", "test_loss", "gap",
            "test_error", "train_loss_cor2", "gen_gap_cor2", "B_Phi", "B_2", "dist", "gamma_attn_limit",
            "H_cor2_log10", "H_prop2_log10", "eta_max_cor2")
    per_n = []
    for i, n in enumerate(ns):
        rs = res[i * nseeds:(i + 1) * nseeds]
        row: dict[str, Any] = {"n": n}
        for k in keys:
            vals = [r[k] for r in rs if r.get(k) is not None]
            iv = mean_interval(vals) if vals else None
            row[k] = {"mean": iv["mean"] if iv else None, "sd": iv["sd"] if iv else None,
                      "low": iv["low"] if iv else None, "high": iv["high"] if iv else None,
                      "method": iv["method"] if iv else None, "values": vals}
        per_n.append(row)
    return per_n


def rows_dm1(out: dict):
    """The paper-vs-ours rows and conclusions, from the reproduction's JSON alone."""
    rows, conclusions = _dm1_rows(out, out["settings"].get("K") == "n")
    return {"paper_vs_ours": rows, "conclusions": conclusions}


def plot_dm1(out: dict, plot_dir) -> list[str]:
    """The losses, margins and bounds-vs-measurements figures, from the reproduction's JSON alone."""
    return _plot_dm1(out, plot_dir) + _plot_dm1_bounds(out, plot_dir)


SEC51 = ("Sec. 5.1: with K = n, train loss and expected generalization gap are O~(1/(eta gamma_*^2 n)) "
         "(Cor. 2 applied after Prop. 2)")
SEC53 = "Sec. 5.3: the margin of saturated attention is gamma_attn = S sqrt(T)/sqrt(2)"


def _loss_fit(out: dict, key: str):
    from ...runs import fit
    ns = [r["n"] for r in out["per_n"]]
    ys = list(zip(*[r[key]["values"] for r in out["per_n"]]))
    if not ys or any(len(r[key]["values"]) != len(out["seeds"]) for r in out["per_n"]) \
            or any(v <= 0 for y in ys for v in y) or len(ns) < 2:
        return None
    return fit.loglog_slope(ns, [list(y) for y in ys])


def _gap_as_upper_rate(out: dict, K_eq_n: bool) -> dict:
    """The gap row when some (n, seed) gap is <= 0 (no log-log fit): the paper's O~(1/n) is an
    upper rate, so compare the upper ends of the 95% intervals with the 1/n line through the
    first n."""
    from ..paper_vs_ours import row

    q = "generalization gap (test - train) vs n: upper 95% end against the 1/n line through the first n"
    pn = [r for r in out["per_n"] if r["gap"]["high"] is not None]
    if not K_eq_n:
        return row(q, "O~(1/n) (an upper rate)", SEC51, "-", "not comparable",
                   "K is fixed here, the paper's rate is for K = n (run --full)")
    if len(pn) < 2 or pn[0]["gap"]["high"] <= 0:
        return row(q, "O~(1/n) (an upper rate)", SEC51, "-", "not comparable",
                   "fewer than two sizes with an interval, or no positive gap at the first n")
    n0, u0 = pn[0]["n"], pn[0]["gap"]["high"]
    ratios = [r["gap"]["high"] / (u0 * n0 / r["n"]) for r in pn]
    zero_from = next((r["n"] for r in pn if r["gap"]["low"] <= 0 <= r["gap"]["high"]), None)
    ours = (f"upper end / (1/n line) = {ratios[-1]:.3g} at n = {pn[-1]['n']} (max {max(ratios[1:]):.3g}); "
            f"gap {pn[0]['gap']['mean']:.3g} [{pn[0]['gap']['low']:.3g}, {u0:.3g}] at n = {n0}")
    tail = (f"; from n = {zero_from} its interval contains 0 (below what the {out['settings'].get('n_test', '')}"
            "-sample test set resolves)" if zero_from else "")
    if all(x <= 1.0 for x in ratios):
        return row(q, "O~(1/n) (an upper rate)", SEC51, ours, "reproduced",
                   "every upper 95% end lies on or below the 1/n line: the gap falls at least as fast as 1/n"
                   + tail)
    return row(q, "O~(1/n) (an upper rate)", SEC51, ours, "not reproduced",
               "an upper 95% end lies above the 1/n line through the first n" + tail)


def _dm1_rows(out: dict, K_eq_n: bool):
    from ..paper_vs_ours import row

    rows, notes = [], []
    for key, label in (("train_loss", "train loss"), ("gap", "generalization gap (test - train)")):
        f = _loss_fit(out, key)
        if f is None and key == "gap":
            rows.append(_gap_as_upper_rate(out, K_eq_n))
            continue
        if f is None:
            rows.append(row(f"log-log slope of the {label} vs n", "-1 (up to logs)", SEC51, "-", "not comparable",
                            "a value <= 0 at some (n, seed): no log-log fit"))
            continue
        txt = (f"{f['slope']:.3f} [{f['ci_low']:.3f}, {f['ci_high']:.3f}]" if f["n_seeds"] > 1
               else f"{f['slope']:.3f} (1 seed)")
        if not K_eq_n:
            v, why = "not comparable", "K is fixed here, the paper's rate is for K = n (run --full)"
        elif f["n_seeds"] > 1 and f["ci_low"] <= -1.0 <= f["ci_high"]:
            v, why = "reproduced", "the 95% Student-t interval of the slope contains -1"
        elif abs(f["slope"] + 1.0) <= 0.2:
            v, why = "reproduced", "slope within 0.2 of -1 (log factors allowed)"
        else:
            v, why = "not reproduced", f"slope {f['slope']:.3f} is more than 0.2 from -1"
        rows.append(row(f"log-log slope of the {label} vs n", "-1 (up to logs)", SEC51, txt, v, why))
    pn = out["per_n"]
    held = all(r["train_loss_cor2"]["mean"] is not None and r["train_loss_cor2"]["mean"] >= r["train_loss"]["mean"]
               for r in pn)
    ratio = [r["train_loss_cor2"]["mean"] / r["train_loss"]["mean"] for r in pn
             if r["train_loss_cor2"]["mean"] and r["train_loss"]["mean"]]
    hmin = min((r["H_cor2_log10"]["mean"] for r in pn if r["H_cor2_log10"]["mean"] is not None), default=None)
    rows.append(row("Cor. 2 train-loss bound >= measured train loss, every n", "a theorem (no number)",
                    "Cor. 2", ("yes" if held else "no") + (f"; bound/measured {min(ratio):.3g} to {max(ratio):.3g}"
                                                          if ratio else ""),
                    "not comparable",
                    "the hypotheses are not met at these sizes (H used = "
                    f"{out['settings'].get('H')}, Cor. 2 needs H >= 10^{hmin:.1f})" if hmin is not None else
                    "Cor. 2 not applicable (non-positive NTK margin)"))
    mg = [r["margin_normalised"]["mean"] / r["gamma_attn_limit"]["mean"] for r in pn
          if r["margin_normalised"]["mean"] is not None and r["gamma_attn_limit"]["mean"]]
    if mg:
        rows.append(row("margin reached by GD per unit ||U|| / gamma_attn", "-> 1 as attention saturates",
                        SEC53, f"{mg[0]:.3g} (n = {pn[0]['n']}) to {mg[-1]:.3g} (n = {pn[-1]['n']})",
                        "not comparable", "finite K and eta: attention does not saturate; the paper predicts "
                                          "the limit, not a value at finite K"))
    notes.append("the paper reports no DM1 numbers in its main body (the appendix with its DM1 experiments is "
                 "not available): every row compares with a stated rate or limit")
    return rows, notes


@styled
def _dm1_losses_panel(ax, pn: list, x) -> None:
    """The top panel: measured losses and the Cor. 2 bounds across n, 95% bars over seeds."""
    from ...reports import plots as rp

    def ser(key):
        y = [r[key]["mean"] for r in pn]
        if any(v is None or v <= 0 for v in y):
            return None
        lo = [r[key]["mean"] - r[key]["low"] if r[key]["low"] is not None else 0.0 for r in pn]
        hi = [r[key]["high"] - r[key]["mean"] if r[key]["high"] is not None else 0.0 for r in pn]
        return np.array(y), [np.minimum(lo, 0.5 * np.array(y)), hi]

    blue, vermillion, green = rp.PALETTE[0], rp.PALETTE[1], rp.PALETTE[2]
    for key, lab, marker, ls, col, mfc in (
            ("train_loss", "train loss (measured)", "o", "-", blue, None),
            ("train_loss_cor2", "Cor. 2 train-loss bound ($C = 1$)", "s", "--", blue, None),
            ("test_loss", "test loss (measured; open: it overlies the train loss)", "o", ":", vermillion, "none"),
            ("gen_gap_cor2", "Cor. 2 gap bound ($C = 1$)", "D", "-.", green, None)):
        s_ = ser(key)
        if s_ is not None:
            ax.errorbar(x, s_[0], yerr=s_[1], marker=marker, ls=ls, color=col, label=lab, mfc=mfc,
                        ms=rp.rc()["lines.markersize"] * (1.6 if mfc else 1.0))
    gaps = [abs(r["gap"]["mean"]) for r in pn if r["gap"]["mean"] is not None]
    if len(gaps) == len(x) and all(g > 0 for g in gaps):
        ax.plot(x, gaps, marker="^", ls=(0, (8, 2)), color=green, label="|test $-$ train| (measured)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("second-phase samples $n$")
    ax.set_ylabel("logistic loss (log scale)")
    ax.set_title("bounds (hypotheses unmet) vs measured; bars: 95% Student-$t$ over seeds")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=1 if rp.width() < 4 else 2)


def _dm1_hypotheses_panel(bx, out: dict, pn: list, x) -> None:
    """The bottom panel: each Cor. 2 / Prop. 2 hypothesis as needed/used across n."""
    from ...reports import plots as rp

    H = float(out["settings"].get("H", 1))
    hyps = []
    missing = []
    for key, lab in (("H_cor2_log10", "Cor. 2: $H$ needed / $H$ used"),
                     ("H_prop2_log10", "Prop. 2: $H$ needed / $H$ used")):
        y = [r[key]["mean"] for r in pn]
        if all(v is not None for v in y):
            hyps.append((lab, np.array([10.0 ** v / H for v in y])))
        else:
            missing.append(lab.split(":")[0] + (r": $\gamma_* \leq 0$ at some $n$, no head count suffices"
                                                if key == "H_prop2_log10" else r": NTK margin $\leq 0$ at some $n$"))
    eta = float(out["settings"].get("eta", 1.0))
    y = [r["eta_max_cor2"]["mean"] for r in pn]
    if all(v is not None and v > 0 for v in y):
        hyps.append((r"Cor. 2: $\eta$ used / $\eta$ allowed", np.array([eta / v for v in y])))
    for i, (lab, ratio) in enumerate(hyps):
        st = rp.series_style(i)
        extra = ""
        if len(x) >= 2 and np.all(ratio > 0):
            b, a = np.polyfit(np.log(x), np.log(ratio), 1)
            if b < 0 and ratio[-1] > 1:
                n_star = math.exp(min(-a / b, 700.0))
                if n_star <= 1e12:
                    extra = f"; would hold from $n \\approx$ {rp.num(n_star)} (log-log extrapolation)"
                    bx.axvline(n_star, color=st["color"], ls=":", lw=0.8)
                else:
                    extra = "; not before $n > 10^{12}$ (log-log extrapolation)"
            elif ratio[-1] <= 1 and ratio[0] > 1:
                extra = "; holds within the range"
            elif b >= 0 and ratio[-1] > 1:
                extra = "; flat or growing in $n$: more samples alone do not meet it"
        size = (f"holds from $H$ = {rp.num(ratio[-1] * H)}" if "needed" in lab else
                f"holds for $\\eta \\leq$ {rp.num(eta / ratio[-1])}")
        bx.plot(x, ratio, marker=st["marker"], ls=st["ls"], color=st["color"], mfc=None if i % 2 == 0 else "none",
                label=f"{lab} = {rp.num(ratio[-1])} at $n$ = {x[-1]:g} ({size})" + ("\n" + extra[2:] if extra else ""))
    bx.axhline(1.0, color="0.3", ls="--", lw=0.8, label="hypothesis holds below this line")
    for m_ in missing:                    # a hypothesis with no ratio to plot: said in the legend
        bx.plot([], [], " ", label=m_)
    bx.set_xscale("log")
    bx.set_yscale("log")
    bx.set_xlabel("second-phase samples $n$")
    bx.set_ylabel("needed / used (holds where $\\leq 1$)")
    bx.set_title("Cor. 2 / Prop. 2 hypotheses at each $n$")
    bx.grid(True, which="major", alpha=0.3)
    bx.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=1)


@styled              # the figure and its texts made in the style (fonts are taken when a text is made)
def _plot_dm1_bounds(out: dict, plot_dir) -> list[str]:
    """Bound vs measurement across n (log scale), and each Cor. 2 / Prop. 2 hypothesis as
    needed/used (it holds where the curve is <= 1; the n where a log-log fit of it would reach 1
    is marked when that extrapolation is finite, labelled as extrapolated). Two panels one
    above the other, each with its own legend (the paper's width: reports.plots)."""
    from pathlib import Path

    from ...reports import plots as rp

    plot_dir = Path(plot_dir)
    plot_dir.mkdir(parents=True, exist_ok=True)
    pn = out["per_n"]
    x = np.array([r["n"] for r in pn], dtype=float)
    fig = rp.figure(rp.width() * (1.75 if rp.width() < 4 else 1.2))
    ax, bx = fig.add_subplot(2, 1, 1), fig.add_subplot(2, 1, 2)

    _dm1_losses_panel(ax, pn, x)
    _dm1_hypotheses_panel(bx, out, pn, x)
    for a_ in (ax, bx):                   # tick labels at the sizes run (log minor labels overlapped)
        rp._ticks_at(a_, set(x.tolist()))
    fig.suptitle("Deora et al. (2023), DM1: bounds vs measurements across $n$ (log scales)")
    return [str(o) for o in rp.save(fig, plot_dir / "deora2023-dm1-bounds")]


def _plot_dm1(out: dict, plot_dir) -> list[str]:
    from pathlib import Path

    from ...reports import plots

    plot_dir = Path(plot_dir)
    plot_dir.mkdir(parents=True, exist_ok=True)
    x = [r["n"] for r in out["per_n"]]

    def series(key):
        ys = [r[key]["mean"] for r in out["per_n"]]
        if any(y is None or y <= 0 for y in ys):
            return None
        err = [r[key]["sd"] if r[key]["sd"] is not None else 0.0 for r in out["per_n"]]
        return {"x": x, "y": ys, "yerr": err, "fit": None}

    paths: list[str] = []
    loss = {lab: s for lab, key in (("train loss (measured)", "train_loss"), ("test loss (measured)", "test_loss"),
                                    ("|test $-$ train| gap (measured)", None),
                                    ("Cor. 2 train-loss bound", "train_loss_cor2"),
                                    ("Cor. 2 gap bound", "gen_gap_cor2"))
            if key and (s := series(key)) is not None}
    gaps = [abs(r["gap"]["mean"]) for r in out["per_n"] if r["gap"]["mean"] is not None]
    if len(gaps) == len(x) and all(g > 0 for g in gaps):
        loss["|test $-$ train| gap (measured)"] = {"x": x, "y": gaps, "yerr": None, "fit": None}
    paths += [str(p) for p in plots.scaling(loss, plot_dir / "deora2023-dm1-losses",
                                            title="Deora et al. (2023), DM1: losses vs $n$",
                                            xlabel="second-phase samples $n$", ylabel="logistic loss")]
    mar = {lab: s for lab, key in ((r"NTK margin of $\theta^{(1)}$ (measured)", "gamma_ntk"),
                                   (r"margin reached by GD, per unit $\|\tilde U\|$ (measured)", "margin_normalised"),
                                   (r"$\gamma_*/2$ (Prop. 2)", "gamma_prop2"),
                                   (r"$\gamma_{\mathrm{attn}} = S\sqrt{T}/\sqrt{2}$", "gamma_attn_limit"))
           if (s := series(key)) is not None}
    paths += [str(p) for p in plots.scaling(mar, plot_dir / "deora2023-dm1-margins",
                                            title="Deora et al. (2023), DM1: margins vs $n$",
                                            xlabel="second-phase samples $n$", ylabel="margin")]
    return paths
