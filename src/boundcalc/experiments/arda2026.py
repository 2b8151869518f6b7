"""Experiments for Arda, Cayci & Eryilmaz (2026): bounds beside measurements across widths.

Setting of Sec. 6.1 (formula sheet ``notes/arda2026.md``): clipped-Gaussian inputs
(max_t ||x_t|| <= 1), a teacher in F_nu given by a transportation mapping with R anchors,
labels = Monte-Carlo estimate of eq. (10) over an IID pool of ``pool`` heads
(``engine.data.transport``), the shallow transformer of eqs. (2)-(4) with query q_X = X_T,
tanh, paired symmetric initialisation, ProjGD onto Omega_rho for tau steps with eta.

For every width m and seed (``measure_width``):

* eps_lin: sup_j (and mean_j, what the authors' code reports) |f - f_lin| at the
  adversarial boundary point of Omega_rho (the authors' code, notes Sec. 6.1) and, as an
  extra check of Lemma 3, at the last ProjGD iterate (any point of Omega_rho);
* eps_app: sup_j |f_lin(X_j; phi~) - y~_j| with phi~ the transported parameters of eq. (11)
  and y~ the MC teacher labels (the paper's experimental metric; Lemma 5 bounds the
  distance to the exact f~(X_j; v), the MC labels add their own error ~ pool^{-1/2});
* min_{s<tau} L^_n(phi^(s)) of ProjGD (Theorem 1's left-hand side);
* max_i ||U_i^(0)||: whether the event E_{U,m}(delta') of Definition 1 happened.

Bounds are evaluated with ``boundcalc.formula`` at the sizes used; tanh has
sigma_bar = (1, 1, 4/(3 sqrt 3)).  Theorem 1 hides a constant (and eps_CoF another): both
set to 1, said in the 'constant' column.
"""
from __future__ import annotations

import functools
import math
import time
from typing import Any

import numpy as np

from . import Reproduction
from .settings import as_float, as_int, bad, check_known

PAPER = "arda2026"
SIGMA = (1.0, 1.0, 4.0 / (3.0 * math.sqrt(3.0)))      # tanh: sup|s|, sup|s'|, sup|s''|

SETTINGS: dict[str, tuple[object, str]] = {
    "widths": ("8,16,32,64", "comma-separated even widths m (number of heads)"),
    "d": (8, "token dimension"),
    "T": (16, "tokens per input"),
    "n": (500, "training samples"),
    "R": (16, "teacher anchors"),
    "pool": (2048, "teacher Monte-Carlo pool size m~ (paper: 8192)"),
    "nu": ("3,3,3", "teacher norm budget (nu_c, nu_u, nu_w)"),
    "rho": ("3,3,3", "projection radii (rho_c, rho_u, rho_w)"),
    "tau": (300, "ProjGD steps"),
    "eta": ("paper", "step size: 'paper' = 1/sqrt(tau) (Theorem 1), or a number"),
    "weights": ("uniform", "teacher anchor weights: uniform (paper, 1/R) | signed (authors' code)"),
    "teacher": ("paper", "teacher features: paper (X^T W q_X) | authors-code (X^T diag(W) q_X, the "
                         "einsum('kdd,bd->bkd') of the authors' data.py)"),
    "seeds": (1, "number of seeds (seed, seed+1, ...); table shows the worst case over seeds"),
    "delta": (0.05, "failure probability delta of Lemma 5"),
    "delta_prime": (0.05, "failure probability delta' of Definition 1"),
    "dtype": ("float64", "precision of the ProjGD steps: float64 | float32 (a float32 run also trains "
                         "its first seed in float64 and records the difference)"),
}


def _triple(name, v) -> tuple[float, float, float]:
    parts = v.split(",") if isinstance(v, str) else list(v) if isinstance(v, (list, tuple)) else None
    if parts is None or len(parts) != 3:
        bad(name, f"expected three numbers 'a,b,c', got {v!r}")
    t = tuple(as_float(name, p) for p in parts)
    if any(x <= 0 for x in t):
        bad(name, f"all three must be > 0, got {v!r}")
    return t


def _widths(v) -> list[int]:
    parts = v.split(",") if isinstance(v, str) else list(v) if isinstance(v, (list, tuple)) else [v]
    ws = [as_int("widths", p) for p in parts if not (isinstance(p, str) and not p.strip())]
    if not ws:
        bad("widths", "needs at least one width")
    for w in ws:
        if w < 2 or w % 2:
            bad("widths", f"every width must be a positive even integer (paired heads), got {w}")
    if len(set(ws)) != len(ws):
        bad("widths", f"widths must be distinct, got {ws}")
    return sorted(ws)


def parse_settings(settings: dict) -> dict:
    """Defaults + ``settings`` (CLI strings allowed), converted and validated."""
    check_known(settings, SETTINGS, PAPER)
    s = {k: v[0] for k, v in SETTINGS.items()}
    s.update(settings)
    c: dict[str, Any] = {"widths": _widths(s["widths"])}
    for k in ("d", "T", "n", "R", "pool", "tau", "seeds"):
        c[k] = as_int(k, s[k])
        if c[k] < 1:
            bad(k, f"must be a positive integer, got {s[k]!r}")
    if c["T"] < 2:      # one token: softmax = 1 whatever W is, so W has no gradient (no boundary direction)
        bad("T", f"must be at least 2, got {s['T']!r}: with one token the attention weight is 1 whatever "
                 "W is, so the W block of the model (and of Lemma 3's boundary point) has no direction")
    c["nu"] = _triple("nu", s["nu"])
    c["rho"] = _triple("rho", s["rho"])
    e = s["eta"]
    if isinstance(e, str) and e.strip() == "paper":
        c["eta"] = "paper"
    else:
        c["eta"] = as_float("eta", e)
        if c["eta"] <= 0:
            bad("eta", f"must be > 0 (or 'paper'), got {e!r}")
    w = str(s["weights"]).strip()
    if w not in ("uniform", "signed"):
        bad("weights", f"must be 'uniform' or 'signed', got {s['weights']!r}")
    c["weights"] = w
    t = str(s["teacher"]).strip()
    if t not in ("paper", "authors-code"):
        bad("teacher", f"must be 'paper' or 'authors-code', got {s['teacher']!r}")
    c["teacher"] = t
    for k in ("delta", "delta_prime"):
        c[k] = as_float(k, s[k])
        if not 0 < c[k] < 1:
            bad(k, f"must lie in (0, 1), got {s[k]!r}")
    if c["delta"] + c["delta_prime"] >= 1:
        bad("delta", "delta + delta_prime must be < 1 (Theorem 1's probability 1 - delta - delta')")
    from .precision import parse_dtype
    c["dtype"] = parse_dtype(s["dtype"], bad)
    return c


def eta_of(c: dict) -> float:
    return 1.0 / math.sqrt(c["tau"]) if c["eta"] == "paper" else float(c["eta"])


# ----------------------------------------------------------------------------- measurement
@functools.lru_cache(maxsize=4)
def _data(n, d, T, R, nu, pool, weights, seed, teacher="paper"):
    from ..engine.data import transport
    return transport.teacher_student_data(n, d, T, R=R, nu=nu, pool_size=pool, weights=weights,
                                          seed=seed, teacher=teacher)


def measure_width(config: dict) -> dict:
    """One (width m, seed) point: the Sec. 6.1 measurements (JSON in/out, for ``sweep.run``).

    ``config``: the keys d, T, n, R, pool, nu, rho, tau, eta, weights (and optionally
    teacher, default 'paper') of :data:`SETTINGS` (parsed), ``m`` and ``seed``.  The data set depends on ``seed`` only (shared across
    widths); the initialisation is drawn from seed ``1_000_003 * seed + m``."""
    from ..engine import arda2026 as A

    m, seed = int(config["m"]), int(config["seed"])
    nu, rho = tuple(config["nu"]), tuple(config["rho"])
    data = _data(config["n"], config["d"], config["T"], config["R"], nu, config["pool"],
                 config["weights"], seed, config.get("teacher", "paper"))
    X, y = data.X, data.y
    p0 = A.paired_init(m, config["d"], seed=1_000_003 * seed + m)
    bp = A.boundary_point(p0, rho, kind="adversarial", X=X)
    lin_sup, lin_mean = A.linearization_error(bp, p0, X)
    app_sup, app_mean = A.approximation_error(p0, data.teacher, X, y)
    eta = 1.0 / math.sqrt(config["tau"]) if config["eta"] == "paper" else float(config["eta"])
    t0 = time.perf_counter()
    t1 = time.process_time()
    run = A.proj_gd(p0, X, y, eta=eta, steps=config["tau"], rho=rho, dtype=config.get("dtype", "float64"))
    train_seconds = time.perf_counter() - t0
    train_cpu_seconds = time.process_time() - t1   # calibrates the time model (CPU_SECONDS_PER_*)
    lin_tr_sup, lin_tr_mean = A.linearization_error(run.params, p0, X)
    return {
        "m": m, "seed": seed, "eta": eta,
        "eps_lin_sup": lin_sup, "eps_lin_mean": lin_mean,
        "eps_lin_trained_sup": lin_tr_sup, "eps_lin_trained_mean": lin_tr_mean,
        "eps_app_sup": app_sup, "eps_app_mean": app_mean,
        "min_train_loss": run.min_train_loss, "initial_loss": float(run.train_loss[0]),
        "final_loss": float(A.loss(run.params, X, y)),
        "label_mean_square": float(np.mean(y ** 2)),
        "max_U0_norm": float(np.max(np.linalg.norm(p0.U, axis=1))),
        "train_seconds": train_seconds, "train_cpu_seconds": train_cpu_seconds,
        "dtype": config.get("dtype", "float64"),
    }


def _points(c: dict, seed: int, *, jobs=1, backend="loky", scheduler=None, cache_dir=None,
            progress=True, desc="") -> list[dict]:
    from ..reports import sweep
    base = {k: (list(v) if isinstance(v, tuple) else v) for k, v in c.items()
            if k in ("d", "T", "n", "R", "pool", "nu", "rho", "tau", "eta", "weights", "teacher", "dtype")}
    configs = [{**base, "m": m, "seed": seed + k} for k in range(c["seeds"]) for m in c["widths"]]
    from ..engine.arda2026 import memory_estimate
    from ..engine.budget import check_memory
    m_max = max(c["widths"])
    check_memory(memory_estimate(c, m_max), f"{PAPER} width m={m_max} (d={c['d']}, n={c['n']}, pool={c['pool']})")
    return sweep.run(measure_width, configs, jobs=jobs, backend=backend, scheduler=scheduler,
                     cache_dir=cache_dir, progress=progress, desc=desc)


# ----------------------------------------------------------------------------- bounds
def _f(fid):
    from .. import formula
    return formula(f"{PAPER}.{fid}")


def _num(x) -> str:
    return repr(float(x))


def bounds_at(c: dict, m: int) -> dict:
    """B_lin, B_app, U0 radius and Theorem 1's bound (with its terms) at width m."""
    s0, s1, s2 = (_num(v) for v in SIGMA)
    rc, ru, rw = (_num(v) for v in c["rho"])
    nc, nu_, nw = (_num(v) for v in c["nu"])
    dp, de = _num(c["delta_prime"]), _num(c["delta"])
    d, n, tau = c["d"], c["n"], c["tau"]
    lin = dict(d=d, delta_prime=dp, m=m, rho_c=rc, rho_u=ru, rho_w=rw, sigma_1=s1, sigma_2=s2)
    app = dict(delta=de, m=m, n=n, nu_c=nc, nu_u=nu_, nu_w=nw, sigma_0=s0, sigma_1=s1)
    thm = {**lin, **app, "tau": tau}
    out = {"B_lin": _f("B_lin").evaluate(**lin), "B_app": _f("B_app").evaluate(**app),
           "U0_radius": _f("U0_radius").evaluate(d=d, delta_prime=dp, m=m),
           "thm1_min": _f("thm1_min").evaluate(**thm)}
    for t in ("thm1_opt", "thm1_app", "thm1_lin", "thm1_cof"):
        F = _f(t)
        out[t] = F.evaluate(**{k: v for k, v in thm.items() if k in F.symbol_table})
    return out


def _g3(v) -> str:
    """A certified value to 3 significant digits, also beyond the double range (a radius
    of 1e300 makes Theorem 1's terms ~1e1199; float() of them would overflow)."""
    import mpmath
    return mpmath.nstr(v.mpf, 3)


# ----------------------------------------------------------------------------- compare
def compare(*, seed: int = 0, jobs: int = 1, cache_dir=None, **settings):
    """Lemma 3, Lemma 5 and Theorem 1 of Arda et al. (2026) beside measurements, per width."""
    from ..reports.table import Row, Table

    c = parse_settings(settings)
    seed = as_int("seed", seed)
    pts = _points(c, seed, jobs=jobs, cache_dir=cache_dir, progress=False, desc="arda2026 compare")
    eta = eta_of(c)
    rows: list[Row] = []
    seeds = [seed + k for k in range(c["seeds"])]
    over = "" if len(seeds) == 1 else f"worst case (max) over seeds {seeds}; "
    radius_ok = all(r >= v for r, v in zip(c["rho"], c["nu"]))
    step_ok = abs(eta * math.sqrt(c["tau"]) - 1.0) <= 1e-12
    for m in c["widths"]:
        P = [p for p in pts if p["m"] == m]
        b = bounds_at(c, m)
        worst = {k: max(p[k] for p in P) for k in P[0] if isinstance(P[0][k], float)}
        e_ok = float(b["U0_radius"]) >= worst["max_U0_norm"]
        ev = (f"event E_{{U,m}}(delta'): max_i ||U_i^(0)|| = {worst['max_U0_norm']:.3g} <= "
              f"{float(b['U0_radius']):.3g}")
        rows.append(Row(f"m={m}: eps_lin (sup_j) at boundary of Omega_rho", "Lemma 3", latex=rf"m={m}\colon \sup_j \epsilon_{{\mathrm{{lin}}}} \text{{ on }} \partial\Omega_\rho", bound=b["B_lin"],
                        measured=worst["eps_lin_sup"], formula="arda2026.B_lin", hypotheses_met=e_ok,
                        hypotheses=ev, constant=b["B_lin"].qualifier,
                        note=over + "adversarial boundary point of the authors' code (notes Sec. 6.1)"))
        rows.append(Row(f"m={m}: eps_lin (mean_j) at boundary (authors' code metric)", "Lemma 3 / Fig. 1", latex=rf"m={m}\colon \operatorname{{mean}}_j \epsilon_{{\mathrm{{lin}}}} \text{{ on }} \partial\Omega_\rho",
                        bound=b["B_lin"], measured=worst["eps_lin_mean"], kind="info",
                        formula="arda2026.B_lin", constant=b["B_lin"].qualifier,
                        note="Lemma 3 bounds the sup; the mean is what the authors plot"))
        rows.append(Row(f"m={m}: eps_lin (sup_j) at the last ProjGD iterate", "Lemma 3", latex=rf"m={m}\colon \sup_j \epsilon_{{\mathrm{{lin}}}} \text{{, last iterate}}", bound=b["B_lin"],
                        measured=worst["eps_lin_trained_sup"], formula="arda2026.B_lin",
                        hypotheses_met=e_ok, hypotheses=ev, constant=b["B_lin"].qualifier,
                        note=over + "the iterate lies in Omega_rho by projection"))
        rows.append(Row(f"m={m}: eps_app (sup_j) vs MC teacher labels", "Lemma 5", latex=rf"m={m}\colon \sup_j \epsilon_{{\mathrm{{app}}}}", bound=b["B_app"],
                        measured=worst["eps_app_sup"], formula="arda2026.B_app", hypotheses_met=True,
                        hypotheses="f* in F_nu (teacher built in V_nu); probability 1 - delta",
                        constant=b["B_app"].qualifier + " (v1 constants)",
                        note=over + f"target: Monte-Carlo labels over a pool of {c['pool']} heads (the "
                                    "paper's metric); Lemma 5 is stated for the exact f~(X; v)"))
        rows.append(Row(f"m={m}: min_(s<tau) train loss of ProjGD", "Thm. 1 (first display)", latex=rf"m={m}\colon \min_{{s<\tau}} \widehat{{\mathcal L}}_n(\varphi^{{(s)}})",
                        bound=b["thm1_min"], measured=worst["min_train_loss"], formula="arda2026.thm1_min",
                        hypotheses_met=bool(e_ok and radius_ok and step_ok),
                        hypotheses=f"rho >= nu: {'yes' if radius_ok else 'no'}; eta = 1/sqrt(tau): "
                                   f"{'yes' if step_ok else 'no'}; {ev}",
                        constant=b["thm1_min"].qualifier,
                        note=over + "terms: opt L1^4/sqrt(tau) = {}, L1 B_app = {}, L1 B_lin = {}, "
                                    "L1 eps_CoF = {}; labels' mean square (loss at phi^(0)) = {:.3g}".format(
                                        *(_g3(b[t]) for t in ("thm1_opt", "thm1_app", "thm1_lin", "thm1_cof")),
                                        worst["label_mean_square"])))
        rows.append(Row(f"m={m}: event E_{{U,m}}(delta') (max_i ||U_i^(0)|| within radius)", "Definition 1", latex=rf"m={m}\colon \mathcal E_{{U,m}}(\delta')\colon \max_i \|U_i^{{(0)}}\|",
                        bound=b["U0_radius"], measured=worst["max_U0_norm"], kind="condition", holds=e_ok,
                        formula="arda2026.U0_radius", constant=b["U0_radius"].qualifier,
                        note="holds iff measured norm <= radius (probability >= 1 - delta')"))
    for blk, r, v in zip(("c", "u", "w"), c["rho"], c["nu"]):
        rows.append(Row(f"projection radius rho_{blk} >= nu_{blk}", "Thm. 1, Remark 10", latex=rf"\text{{radius }} \rho_{blk} \geq \nu_{blk}", bound=v, measured=r,
                        kind="condition", formula=f"arda2026.thm1_radius_{blk}", constant="exact constant"))
    rows.append(Row("step size eta = 1/sqrt(tau)", "Thm. 1", latex=r"\text{step size } \eta = 1/\sqrt{\tau}", bound=1.0 / math.sqrt(c["tau"]), measured=eta,
                    kind="condition", holds=step_ok, formula="arda2026.thm1_step", constant="exact constant",
                    note="holds iff eta used equals 1/sqrt(tau) (to 1e-12 relative)"))
    notes = [f"Sec. 6.1 teacher-student setting, seeds {seeds}; the data set depends on the seed only; "
             f"tau = {c['tau']}, eta = {eta:.6g}, n = {c['n']}, pool = {c['pool']}, anchor weights {c['weights']}, "
             f"teacher {c['teacher']}" + (" (the authors' code: diag(W_k) in the teacher's attention scores, "
                                          "full W_k in the model)." if c["teacher"] != "paper" else "."),
             "tanh: sigma_bar = (1, 1, 4/(3 sqrt 3)). Lemma 3/5 and Theorem 1 are v1's printed forms "
             "(v2 constants unrecoverable, notes Sec. 9).",
             "Theorem 1 hides a constant depending on (sigma_bar, nu, rho) and eps_CoF another: both set to 1."]
    return Table(paper=PAPER, title="Arda et al. (2026), Sec. 6.1: bounds beside measurements across widths",
                 settings={**c, "eta_used": eta}, seed=seed, rows=rows, notes=notes)


# ----------------------------------------------------------------------------- reproduction
FULL = {"widths": "8,16,32,64,128,256", "d": 8, "T": 16, "n": 5000, "R": 16, "pool": 8192, "nu": "3,3,3",
        "rho": "3,3,3", "tau": 4000, "eta": "paper", "weights": "uniform", "teacher": "paper", "seeds": 10}
REDUCED = {"widths": "8,16,32,64,128", "n": 1000, "pool": 4096, "tau": 1000, "seeds": 4}
SHORT = {"eps_lin_sup": "eps_lin sup (Lemma 3)", "eps_lin_mean": "eps_lin mean (authors' code)",
         "eps_app_sup": "eps_app sup (Lemma 5)", "min_train_loss": "min train loss (Thm. 1)"}
METRICS = (("eps_lin_sup", "linearization error sup_j |f - f_lin| (Lemma 3)"),
           ("eps_lin_mean", "linearization error mean_j |f - f_lin| (authors' code metric)"),
           ("eps_app_sup", "approximation error sup_j |f_lin(phi~) - y~| (Lemma 5)"),
           ("min_train_loss", "min_(s<tau) training loss of ProjGD (Thm. 1)"))
# The time model, in CPU seconds of one core (``time.process_time`` of the worker: what a
# point costs whatever else shares the machine; wall time on a loaded machine is longer).
# The ProjGD training of one (m, seed) point costs n * tau * (CPU_SECONDS_PER_N_TAU[dtype] +
# CPU_SECONDS_PER_N_M_TAU[dtype] * m) CPU seconds, fitted (fit_point_seconds, relative least
# squares) to the `train_cpu_seconds` of the 10-seed recording at the paper's sizes
# (examples/arda2026-fig1/full: n = 5000, tau = 4000, --set dtype=float32, 2 jobs,
# 2026-11-27, 4487 s of wall time): float32 from its 60 points (m = 8: 17.5 s ... m = 256:
# 250 s, each within 17% of the fit while the machine's load average went from 0.4 to 28 and
# the points' wall seconds from 1.0x to 7x their CPU seconds), float64 from the six points of
# seed 0 it trains again in float64 (m = 8: 23.9 s ... m = 256: 421 s, each within 8%; the
# JSON keeps their total as the precision check's train_cpu_speedup). The test
# test_time_model_holds_on_the_recordings holds every recorded point to its estimate.
# Each seed's teacher labels (n = 5000, pool 8192) cost 9.0 CPU seconds (measured alone,
# pools 512-8192, linear in n * pool).
CPU_SECONDS_PER_N_TAU = {"float64": 5.30e-7, "float32": 5.55e-7}
CPU_SECONDS_PER_N_M_TAU = {"float64": 7.74e-8, "float32": 4.46e-8}
LABEL_SECONDS_PER_N_POOL = 9.0 / (5000 * 8192)
PAPER_SOURCE = ("Sec. 6.1: 'the fitted slopes are in close agreement with the predicted m^(-1/2) rate' "
                "(numerical slopes only inside Fig. 1, not in the text)")
SLOPE_TOLERANCE = 0.1


def estimate_seconds(c: dict) -> float:
    """CPU seconds of a sweep (one core; the time model above): every point's training, each
    seed's teacher labels once, and for a float32 run its float64 check of the first seed."""
    per_seed = sum(point_seconds(c, m) for m in c["widths"])
    label = LABEL_SECONDS_PER_N_POOL * c["n"] * c["pool"]
    check = sum(point_seconds({**c, "dtype": "float64"}, m) for m in c["widths"]) \
        if c.get("dtype", "float64") != "float64" else 0.0
    return c["seeds"] * (per_seed + label) + check


def point_seconds(c: dict, m: int) -> float:
    """CPU seconds of one (width m, seed) point's training in ``c["dtype"]`` (the time model)."""
    dt = c.get("dtype", "float64")
    return c["n"] * c["tau"] * (CPU_SECONDS_PER_N_TAU[dt] + CPU_SECONDS_PER_N_M_TAU[dt] * m)


def estimate_wall_seconds(c: dict, workers: int) -> float:
    """Wall seconds of the sweep on ``workers`` single-threaded workers with a core each (one
    per core, e.g. a Dask cluster of that many worker processes) and nothing else running:
    the points, in the order the sweep submits them (seed by seed, widths ascending), each
    go to the worker that frees first (list scheduling, what joblib and Dask do with
    equal-priority tasks); each seed's teacher labels are paid once by every worker that
    runs a point of that seed (the labels are cached per process).  A float32 run then runs
    its float64 check of the first seed as a second sweep.  A lower bound is
    max(CPU seconds / workers, longest point); on a shared machine the wall time is longer
    (the recordings say by how much)."""
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers!r}")
    tasks = [(point_seconds(c, m), s) for s in range(c["seeds"]) for m in c["widths"]]
    wall = _list_schedule(tasks, workers, LABEL_SECONDS_PER_N_POOL * c["n"] * c["pool"])
    if c.get("dtype", "float64") != "float64":
        c64 = {**c, "dtype": "float64"}
        wall += _list_schedule([(point_seconds(c64, m), 0) for m in c["widths"]], workers, 0.0)
    return wall


def _list_schedule(tasks: list, workers: int, label: float) -> float:
    """Makespan of (seconds, seed) tasks taken in order by the first free of ``workers``,
    each worker paying ``label`` once per seed it meets."""
    import heapq

    free = [(0.0, w) for w in range(workers)]
    seen: list[set] = [set() for _ in range(workers)]
    for t, seed in tasks:
        at, w = heapq.heappop(free)
        if seed not in seen[w]:
            seen[w].add(seed)
            t += label
        heapq.heappush(free, (at + t, w))
    return max(at for at, _ in free)


def fit_point_seconds(points, n: int, tau: int, key: str = "train_cpu_seconds") -> tuple[float, float]:
    """(per n*tau, per n*m*tau) seconds from recorded points' ``key``: least squares of
    seconds / (n tau) on (1, m), relative (each point weighted by 1/its time)."""
    ms = np.array([p["m"] for p in points], dtype=float)
    ts = np.array([p[key] for p in points], dtype=float) / (n * tau)
    w = 1.0 / ts
    a, b = np.linalg.lstsq(np.c_[np.ones_like(ms), ms] * w[:, None], ts * w, rcond=None)[0]
    return float(a), float(b)


def scaling_laws(widths, seeds, pts, metrics=METRICS) -> dict:
    """Per metric: values per seed, mean/median per width, Student-t intervals per width and the
    log-log slope with its interval over seeds (``reports.fit``), beside the predicted -1/2."""
    from ..reports import fit
    from ..reports.intervals import mean_interval

    by = {(p["m"], p["seed"]): p for p in pts}
    laws = {}
    for key, label in metrics:
        ys = [[by[(m, s)][key] for m in widths] for s in seeds]
        cols = [[y[i] for y in ys] for i in range(len(widths))]
        law: dict[str, Any] = {"label": label, "per_seed": ys,
                               "mean": [float(np.mean(c)) for c in cols],
                               "median": [float(np.median(c)) for c in cols],
                               "intervals": [mean_interval(c) for c in cols],
                               "predicted_slope": -0.5}
        if all(v > 0 for y in ys for v in y):
            f = fit.loglog_slope(widths, ys)
            law["fit"] = {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in f.items()}
            lo, hi = law["fit"]["ci_low"], law["fit"]["ci_high"]
            law["contains_predicted"] = None if lo is None else bool(lo <= -0.5 <= hi)
        else:
            law["fit"] = None
            law["contains_predicted"] = None
        laws[key] = law
    return laws


PRECISION_METRICS = (("final_loss", "final training loss"), ("min_train_loss", "min training loss (Thm. 1)"),
                     ("eps_lin_trained_sup", "eps_lin sup at the last iterate"))


def _slope_txt(f) -> str:
    if f is None:
        return "-"
    if f["ci_low"] is None:
        return f"{f['slope']:.3f} (1 seed, no interval)"
    return f"{f['slope']:.3f} [{f['ci_low']:.3f}, {f['ci_high']:.3f}]"


def slope_verdict(f) -> tuple[str, str]:
    """(verdict, why) for a fitted slope against the predicted -1/2."""
    if f is None:
        return "not comparable", "no fit (a value was <= 0)"
    s, lo, hi = f["slope"], f["ci_low"], f["ci_high"]
    if lo is None:
        if abs(s + 0.5) <= SLOPE_TOLERANCE:
            return "reproduced", f"slope within {SLOPE_TOLERANCE} of -1/2 (1 seed, no interval)"
        return "not reproduced", f"slope {s:.3f} differs from -1/2 by more than {SLOPE_TOLERANCE} (1 seed)"
    if (hi - lo) / 2 > 2 * SLOPE_TOLERANCE:
        return "not comparable", (f"interval half-width {(hi - lo) / 2:.2f} is too wide to decide "
                                  f"({f['n_seeds']} seeds)")
    if lo <= -0.5 <= hi:
        return "reproduced", "the 95% interval of the slope contains -1/2"
    if abs(s + 0.5) <= SLOPE_TOLERANCE:
        return "reproduced", (f"slope within {SLOPE_TOLERANCE} of -1/2 ('close agreement'; the interval "
                              "excludes -1/2 exactly)")
    return "not reproduced", (f"slope {s:.3f} differs from -1/2 by more than {SLOPE_TOLERANCE} and its "
                              "interval excludes -1/2")


def _fig1_rows(laws: dict, where: str) -> list[dict]:
    from .paper_vs_ours import row

    rows = []
    for key, law in laws.items():
        v, why = slope_verdict(law["fit"])
        if key == "eps_lin_mean":
            why += "; the authors' code plots this mean, the paper's text the sup"
        rows.append(row(f"log-log slope of {law['label']} vs m{where}", "-0.5", PAPER_SOURCE,
                        _slope_txt(law["fit"]), v, why))
    return rows


def run_fig1(*, seed: int = 0, full: bool = False, jobs: int = 1, backend: str = "loky",
             scheduler: str | None = None, cache_dir=None, plot_dir=None, progress: bool = True,
             **settings) -> dict:
    """Reproduction 'arda2026-fig1': the three error-vs-width scaling laws of Fig. 1.

    Reduced default (``full=False``): widths 8..128, n = 1000, pool 4096, tau = 1000, 4 seeds.
    ``full=True``: the paper's sizes (d = 8, T = 16, n = 5000, pool 8192, nu = rho = (3,3,3),
    tau = 4000, eta = 1/sqrt(tau), 10 seeds; widths 8..256 from the authors' README [inferred:
    v1 lists 8,16,64,128,256], R = 16 anchors [code, inferred]).  Any setting of
    :data:`SETTINGS` overrides (tests shrink the sizes), e.g. ``teacher='authors-code'``."""
    c = parse_settings({**(FULL if full else {**FULL, **REDUCED}), **settings})
    seed = as_int("seed", seed)
    if len(c["widths"]) < 2:
        bad("widths", "a scaling law needs at least two widths")
    pts = _points(c, seed, jobs=jobs, backend=backend, scheduler=scheduler, cache_dir=cache_dir,
                  progress=progress, desc="arda2026-fig1")
    widths, seeds = c["widths"], [seed + k for k in range(c["seeds"])]
    laws = scaling_laws(widths, seeds, pts)
    accuracy = None
    if c["dtype"] != "float64":          # the first seed again in float64: what float32 changed
        ref = _points({**c, "dtype": "float64", "seeds": 1}, seed, jobs=jobs, backend=backend,
                      scheduler=scheduler, cache_dir=cache_dir, progress=progress,
                      desc="arda2026-fig1 float64 check")
        from .precision import precision_check
        accuracy = precision_check("m", widths, seed, [p for p in pts if p["seed"] == seed], ref, c["dtype"],
                                   PRECISION_METRICS)
    bounds = {}
    for m in widths:
        b = bounds_at(c, m)
        # a double, or the certified decimal where the bound is beyond the doubles (a radius of 1e300)
        bounds[str(m)] = {k: b[k].float if b[k].float is not None else str(b[k])
                          for k in ("B_lin", "B_app", "thm1_min")}
    out = {
        "name": "arda2026-fig1", "paper": PAPER, "full": bool(full),
        "description": REPRODUCTIONS["arda2026-fig1"].description,
        "settings": {**c, "eta_used": eta_of(c)}, "widths": widths, "seeds": seeds,
        "laws": laws, "bounds": bounds, "points": pts, "precision_check": accuracy,
        "paper_reported": {
            "predicted_slope": -0.5,
            "note": "Paper (Sec. 6.1): 'the fitted slopes are in close agreement with the predicted m^(-1/2) "
                    "rate'; the numerical slopes appear only inside Fig. 1 and are not recoverable from the "
                    "text. Paper sizes: m~ = 8192, d = 8, T = 16, n = 5000, nu = (3,3,3), rho = nu, tau = 4000, "
                    "eta = 1/sqrt(tau), 10 seeds. Inferred from the authors' code: widths 8..256, R = 16, "
                    "adversarial boundary point; the code reports the mean (not sup) linearization error, "
                    "uses eta = 1.75/sqrt(tau), trains on 80% of n and computes the teacher with diag(W_k) "
                    "(--teacher authors-code)."},
        "intervals_method": "per width: mean over seeds with a two-sided 95% Student-t interval "
                            "(reports.intervals.mean_interval); slopes: per-seed least squares, "
                            "Student-t interval of their mean (reports.fit)",
        "plots": [],
    }
    out.update(rows_fig1(out))                       # paper_vs_ours, not_run
    if plot_dir is not None:
        out["plots"] = _plot_fig1(out, plot_dir)
    return out


def rows_fig1(out: dict) -> dict:
    """The paper-vs-ours rows and the not-run estimate, from the reproduction's JSON alone
    (``record --replot`` re-derives them)."""
    where = "" if out["settings"].get("teacher", "paper") == "paper" else " (authors'-code teacher)"
    derived = {"paper_vs_ours": _fig1_rows(out["laws"], where)}
    if len(out["seeds"]) < FULL["seeds"]:
        full = parse_settings(FULL)
        f32 = {**full, "dtype": "float32"}
        derived["not_run"] = [f"the paper's sizes with its 10 seeds (6 widths x 10 seeds, n = 5000, tau = 4000) are "
                              f"estimated at {estimate_seconds(full) / 3600:.1f} CPU-hours in float64 "
                              f"({estimate_seconds(f32) / 3600:.1f} in float32 with its float64 check; "
                              f"{estimate_wall_seconds(f32, 2) / 3600:.1f} h of wall time on 2 free cores) by the "
                              "time model fitted to the CPU seconds of the points recorded at those sizes"]
    return derived


def _yerr(law) -> list[list[float]]:
    lo, hi = [], []
    for m, iv in zip(law["mean"], law["intervals"]):
        if iv["low"] is None:
            lo.append(0.0)
            hi.append(0.0)
        else:      # clipped below at half the mean (log axes)
            lo.append(min(m - iv["low"], 0.5 * m))
            hi.append(iv["high"] - m)
    return [lo, hi]


def _plot_fig1(out: dict, plot_dir) -> list[str]:
    from pathlib import Path

    from ..reports import plots

    plot_dir = Path(plot_dir)
    plot_dir.mkdir(parents=True, exist_ok=True)
    x = out["widths"]
    series = {}
    for key, law in out["laws"].items():
        if law["fit"] is None:
            continue
        series[SHORT[key]] = {"x": x, "y": law["mean"], "yerr": _yerr(law), "fit": law["fit"]}
    teacher = out["settings"].get("teacher", "paper")
    stem = "arda2026-fig1" if teacher == "paper" else "arda2026-fig1-authors-code-teacher"
    return [str(p) for p in plots.scaling(series, plot_dir / stem,
                                          title="Arda et al. (2026), Fig. 1 (predicted slope -1/2)",
                                          xlabel="width m", ylabel="error / loss")]


def render_fig1(out: dict):
    """Rich table of an 'arda2026-fig1' result."""
    from rich.console import Group
    from rich.table import Table as RTable

    from .paper_vs_ours import rich_table

    t = RTable(title=f"arda2026-fig1: fitted log-log slopes vs width ({'full' if out['full'] else 'reduced'} "
                     f"sizes, seeds {out['seeds']}, teacher {out['settings'].get('teacher', 'paper')})")
    for col in ("quantity", *[f"m={m}" for m in out["widths"]], "slope", "95% interval (Student-t)",
                "paper predicts"):
        t.add_column(col, justify="right" if col != "quantity" else "left")
    for key, law in out["laws"].items():
        f = law["fit"]
        t.add_row(law["label"], *[f"{v:.3g}" for v in law["mean"]],
                  "-" if f is None else f"{f['slope']:.3f}",
                  "-" if f is None or f["ci_low"] is None else f"[{f['ci_low']:.3f}, {f['ci_high']:.3f}]",
                  "-0.5")
    t.caption = out["paper_reported"]["note"]
    parts = [t, rich_table(out["paper_vs_ours"])]
    if out.get("precision_check"):
        from .precision import precision_rich
        parts.append(precision_rich(out["precision_check"]))
    return Group(*parts)


# ----------------------------------------------------------------------------- studies
STUDY_BASE = {"widths": "8,16,32,64,128", "n": 500, "pool": 2048, "tau": 1000, "eta": "paper", "seeds": 3}
STUDY_FULL = {"seeds": 5}
# (name, what the condition changes in the base settings); "eta_sqrt_tau": k sets eta = k/sqrt(tau)
# at the base's tau.  Each condition's label is written from the settings it ran with.
MINLOSS_CONDITIONS = (
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
    kw = dict(jobs=jobs, backend=backend, scheduler=scheduler, cache_dir=cache_dir, progress=progress)
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
           "description": REPRODUCTIONS["arda2026-minloss"].description,
           "conditions": results, "plots": []}
    out["paper_vs_ours"], out["conclusions"] = _minloss_summary(results)
    if plot_dir is not None:
        out["plots"] = plot_minloss(out, plot_dir)
    return out


def _minloss_summary(results: list[dict]):
    from .paper_vs_ours import row

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

    from ..reports import plots

    plot_dir = Path(plot_dir)
    plot_dir.mkdir(parents=True, exist_ok=True)
    series = {}
    for r in results:
        if r["fit"] is None:
            continue
        law = {"mean": r["min_loss_mean"], "intervals": r["min_loss_intervals"]}
        s = r["settings"]
        short = f"tau = {s['tau']}, eta = {eta_text(s)}"        # from the settings it ran with
        if r["widths"] != results[0]["widths"]:
            short += f", widths {r['widths'][0]}-{r['widths'][-1]}"
        series[short] = {"x": r["widths"], "y": r["min_loss_mean"], "yerr": _yerr(law), "fit": r["fit"]}
    return [str(p) for p in plots.scaling(series, plot_dir / "arda2026-minloss",
                                          title="Arda et al. (2026): min training loss vs width",
                                          xlabel="width m", ylabel="min_(s<tau) training loss")]


def render_minloss(out: dict):
    from rich.console import Group

    from .paper_vs_ours import rich_table
    return Group(rich_table(out["paper_vs_ours"], "arda2026-minloss: min-loss slope under each condition"),
                 *out["conclusions"])


def label_difference(c: dict, seed: int) -> dict:
    """Teacher labels of the two variants on the same inputs, anchors and pool."""
    a = _data(c["n"], c["d"], c["T"], c["R"], tuple(c["nu"]), c["pool"], c["weights"], seed, "paper").y
    b = _data(c["n"], c["d"], c["T"], c["R"], tuple(c["nu"]), c["pool"], c["weights"], seed, "authors-code").y
    return {"seed": seed, "rms_paper": float(np.sqrt(np.mean(a ** 2))), "rms_authors_code": float(np.sqrt(np.mean(b ** 2))),
            "relative_l2_difference": float(np.linalg.norm(a - b) / np.linalg.norm(a)),
            "correlation": float(np.corrcoef(a, b)[0, 1]),
            "max_abs_difference": float(np.max(np.abs(a - b)))}


def run_teacher(*, seed: int = 0, full: bool = False, jobs: int = 1, backend: str = "loky",
                scheduler: str | None = None, cache_dir=None, plot_dir=None, progress: bool = True,
                **settings) -> dict:
    """Reproduction 'arda2026-teacher': the paper's teacher against the authors' code's
    (diag(W_k)), same inputs/anchors/pool/seeds: how far the labels differ, and the Fig. 1
    slopes under each.  Sizes as :data:`STUDY_BASE` (``full``: 5 seeds)."""
    from ..reports.intervals import describe, mean_interval
    from .paper_vs_ours import row

    if "teacher" in settings:
        bad("teacher", "arda2026-teacher runs both teachers (paper and authors-code) itself; "
                       "use arda2026-fig1 --teacher for one of them")
    base = {**STUDY_BASE, **(STUDY_FULL if full else {}), **settings}
    seed = as_int("seed", seed)
    kw = dict(jobs=jobs, backend=backend, scheduler=scheduler, cache_dir=cache_dir, progress=progress)
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
           "description": REPRODUCTIONS["arda2026-teacher"].description,
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
        f"label rms: paper's teacher {np.mean([d['rms_paper'] for d in diffs]):.3g}, authors' code's "
        f"{np.mean([d['rms_authors_code'] for d in diffs]):.3g} (mean over seeds)",
        "the student is the paper's model (full W_k) under both teachers, as in the authors' model.py "
        "(einsum 'mdk,bk->bmd'); only the labels change; eps_lin does not depend on them"]
    if plot_dir is not None:
        out["plots"] = plot_teacher(out, plot_dir)
    return out


def plot_teacher(out: dict, plot_dir) -> list[str]:
    return _plot_teacher({t: p["laws"] for t, p in out["per_teacher"].items()}, out["settings"]["widths"],
                         plot_dir)


def _plot_teacher(laws_by_teacher: dict, widths, plot_dir) -> list[str]:
    from pathlib import Path

    from ..reports import plots
    series = {}
    for t, laws in laws_by_teacher.items():
        for key, short in (("eps_app_sup", "eps_app"), ("min_train_loss", "min loss")):
            law = laws[key]
            if law["fit"] is not None:
                series[f"{short}, {t}"] = {"x": widths, "y": law["mean"], "yerr": _yerr(law), "fit": law["fit"]}
    Path(plot_dir).mkdir(parents=True, exist_ok=True)
    return [str(x) for x in plots.scaling(series, Path(plot_dir) / "arda2026-teacher",
                                          title="Arda et al. (2026): paper's teacher vs authors' code's",
                                          xlabel="width m", ylabel="error / loss")]


def render_teacher(out: dict):
    from rich.console import Group

    from .paper_vs_ours import rich_table
    return Group(rich_table(out["paper_vs_ours"], "arda2026-teacher"), *out["conclusions"])


REPRODUCTIONS = {
    "arda2026-fig1": Reproduction(
        name="arda2026-fig1",
        description="Fig. 1 (Sec. 6.1): linearization error, approximation error and min training loss of "
                    "ProjGD vs width m on the teacher-student task, log-log slopes with 95% Student-t "
                    "intervals over seeds beside the predicted -1/2.",
        run=run_fig1, render=render_fig1, rows=rows_fig1, settings=tuple(SETTINGS), plot=_plot_fig1),
    "arda2026-minloss": Reproduction(
        name="arda2026-minloss",
        description="Why the min training loss of Fig. 1 falls more slowly than m^(-1/2): its slope under "
                    "several horizons tau, step sizes eta and width ranges (same data and seeds).",
        run=run_minloss, render=render_minloss, settings=tuple(SETTINGS), plot=plot_minloss),
    "arda2026-teacher": Reproduction(
        name="arda2026-teacher",
        description="The paper's teacher (W_k q_X) vs the authors' code's (diag(W_k) q_X): label difference "
                    "and the Fig. 1 slopes under each.",
        run=run_teacher, render=render_teacher, settings=tuple(k for k in SETTINGS if k != "teacher"),
        plot=plot_teacher),
}
