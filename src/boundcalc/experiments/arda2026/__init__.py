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

from .bounds import bounds_at
from .compare import compare
from .fig1 import (
    FIG1_DESCRIPTION,
    FULL,
    PRECISION_METRICS,
    REDUCED,
    SHORT,
    rows_fig1,
    run_fig1,
)
from .laws import METRICS, PAPER_SOURCE, SLOPE_TOLERANCE, scaling_laws, slope_verdict
from .measure import _points as _points
from .measure import label_difference, measure_width
from .minloss import (
    LOSS_METRICS,
    MINLOSS_CONDITIONS,
    MINLOSS_DESCRIPTION,
    MINLOSS_REDUCED,
    MINLOSS_REDUCED_CONDITIONS,
    STUDY_BASE,
    STUDY_FULL,
    eta_text,
    plot_minloss,
    run_minloss,
)
from .render import render_fig1, render_minloss, render_teacher
from .reproductions import REPRODUCTIONS
from .settings import PAPER, SETTINGS, SIGMA, eta_of, parse_settings
from .teacher import TEACHER_DESCRIPTION, plot_teacher, run_teacher
from .timing import (
    CPU_SECONDS_PER_N_M_TAU,
    CPU_SECONDS_PER_N_TAU,
    LABEL_SECONDS_PER_N_POOL,
    estimate_seconds,
    estimate_wall_seconds,
    fit_point_seconds,
    point_seconds,
)

__all__ = [
    "CPU_SECONDS_PER_N_M_TAU", "CPU_SECONDS_PER_N_TAU", "FIG1_DESCRIPTION", "FULL",
    "LABEL_SECONDS_PER_N_POOL", "LOSS_METRICS", "METRICS", "MINLOSS_CONDITIONS",
    "MINLOSS_DESCRIPTION", "MINLOSS_REDUCED", "MINLOSS_REDUCED_CONDITIONS", "PAPER", "PAPER_SOURCE",
    "PRECISION_METRICS", "REDUCED", "REPRODUCTIONS", "SETTINGS", "SHORT", "SIGMA",
    "SLOPE_TOLERANCE", "STUDY_BASE", "STUDY_FULL", "TEACHER_DESCRIPTION", "bounds_at", "compare",
    "estimate_seconds", "estimate_wall_seconds", "eta_of", "eta_text", "fit_point_seconds",
    "label_difference", "measure_width", "parse_settings", "plot_minloss", "plot_teacher",
    "point_seconds", "render_fig1", "render_minloss", "render_teacher", "rows_fig1", "run_fig1",
    "run_minloss", "run_teacher", "scaling_laws", "slope_verdict",
]
