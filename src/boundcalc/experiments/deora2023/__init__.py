"""Experiments for Deora, Ghaderi, Taheri & Thrampoulidis (2023): bounds beside measurements.

:func:`compare` runs the two-phase scheme of Sec. 5.1 on the tokenized mixture DM1
(``boundcalc.engine.data.dm1``), measures every input the paper's bounds need, evaluates
the formulas (``boundcalc.formula``) with those measured inputs and returns a
:class:`boundcalc.reports.table.Table`.

What is measured (all on the realised sample, seed-reproducible):

* phase 1: theta^(1) = one GD step from 0 on n1 fresh samples with per-head step
  alpha_h sqrt(H), alpha_h IID Unif{-1,+1} (``engine.deora2023.first_phase``);
* phase 2: K full-batch GD steps of size eta on n fresh samples (logistic loss);
* R, Z, Z_mu, Z_nu: the realised noise levels of the second-phase sample (the maximum over
  its noise tokens, Assumption 3); R is at least max_t ||x_t||;
* B_2 = max_h ||theta_h^(1)|| (P1), B_Phi = max_i |Phi~(X_i; theta^(1))| (P2);
* gamma_NTK: the NTK margin of theta^(1) on the second-phase sample with the paper's
  normalisation (P3): max_{||theta*|| = sqrt 2} min_i y_i <grad Phi~(X_i; theta^(1)), theta*>,
  by a hard-margin SVM on the NTK Gram matrix;
* the margin GD reaches: min_i y_i Phi~(X_i; theta^(K+1)) / ||U~^(K+1)||_F, i.e. the margin
  per unit decoder norm.  This is the normalisation of Prop. 3, whose margins gamma_attn
  are those of (U_opt, Gamma W_opt) with ||U_opt||_F = 1 and an unnormalised (large) W:
  Phi is linear in U, the softmax is not scale-invariant in W.  (A single head (U, W) copied
  into H heads as U_h = U / sqrt(H), W_h = W has Phi~ = Phi and ||U~|| = ||U||.)
* train loss L̂(theta^(K+1)) on the n samples, test loss on n_test fresh samples, their
  difference (one realisation of the gap whose expectation Cor. 2 bounds), and
  ||theta^(K+1) - theta^(1)||.

Constants the paper hides (C in >~) are set to 1 and every such row says so.
"""
from __future__ import annotations

from .bounds import bounds_for
from .compare import compare
from .dm1 import (
    BATCH_MAX_N,
    DM1_DESCRIPTION,
    PRECISION_METRICS,
    SEC51,
    SEC53,
    dm1_point,
    dm1_points,
    plot_dm1,
    rows_dm1,
    run_dm1,
)
from .dm1 import _gap_as_upper_rate as _gap_as_upper_rate
from .measure import measure, measure_seeds
from .render import render_dm1
from .reproductions import REPRODUCTIONS
from .settings import PAPER, SCALE_RANGE, SETTINGS, parse_settings

__all__ = [
    "BATCH_MAX_N", "DM1_DESCRIPTION", "PAPER", "PRECISION_METRICS", "REPRODUCTIONS", "SCALE_RANGE",
    "SEC51", "SEC53", "SETTINGS", "bounds_for", "compare", "dm1_point", "dm1_points", "measure",
    "measure_seeds", "parse_settings", "plot_dm1", "render_dm1", "rows_dm1", "run_dm1",
]
