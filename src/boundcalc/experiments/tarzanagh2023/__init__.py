"""Experiments of Tarzanagh, Li, Zhang, Oymak (NeurIPS 2023), *Max-Margin Token Selection
in Attention Mechanism*: the bounds of the paper beside what the NumPy engine measures,
and reproductions of its experiments (App. E, Figs. 1, 3 and 9).

* ``compare(...)``: gradient descent on p (v, W fixed) on an App.-E random instance or a
  worked example of Fig. 1, with

  - L_p of (6)/(24) evaluated with the instance's norms vs the local smoothness measured
    as max |eigenvalue| of the Hessian of L(p) along the trajectory and at random points;
  - the step-size condition eta <= 1/L_p (Lemma 6, Thms 2-3) vs the step GD took (for
    normalised GD the effective step lr/||grad L(p(t))||);
  - the correlation <p(t)/||p(t)||, p^mm/||p^mm||> reached vs its limit 1 (Thm 3, and the
    GMM of Thm 2), the softmax saturation (App. E), and
  - the cone constants of Lemma 7 / Thm 3 evaluable on the instance (Theta, delta and mu
    of (32), R-bar_mu of (39), R^0_mu of (57)) against the initialisation and the
    trajectory (condition rows).

* ``REPRODUCTIONS``: ``tarzanagh2023-fig9`` (App. E over-parameterisation study),
  ``tarzanagh2023-fig1`` (worked examples, Thms 2-3) and ``tarzanagh2023-fig3`` (joint
  (v, p) training, Thms 5-6).

GD on p uses the engine's ``tarzanagh2023.gd_p``: (15a) evaluated from precomputed keys
K_i = X_i W^T and scores gamma_i = Y_i X_i v (``tarzanagh2023.train`` recomputes X W^T and
the W-gradient at every step, which costs O(n T d^2) per step and dominates at d = 500),
with the Fig. 9 trials of one d run as one batch (a leading trial axis). The tests check
``gd_p`` against ``train`` iterate by iterate, and a batch against its trials one by one.
"""
from __future__ import annotations

from .compare import compare
from .fig1 import FIG1_DESCRIPTION, FIG1_PRECISION_METRICS, plot_fig1, run_fig1
from .fig3 import FIG3_DESCRIPTION, FIG3_PRECISION_METRICS, plot_fig3, run_fig3
from .fig9 import (
    CLASSES,
    FIG9_BATCH,
    FIG9_D,
    FIG9_DESCRIPTION,
    FIG9_PAPER,
    FIG9_PRECISION_METRICS,
    FIG9_QUOTES,
    fig9_trials,
    plot_fig9,
    run_fig9,
)
from .fig9 import _plot_fig9 as _plot_fig9
from .render import render_fig1, render_fig3, render_fig9
from .reproductions import REPRODUCTIONS
from .settings import INSTANCES, LOSSES, PAPER, SETTINGS

__all__ = [
    "CLASSES", "FIG1_DESCRIPTION", "FIG1_PRECISION_METRICS", "FIG3_DESCRIPTION",
    "FIG3_PRECISION_METRICS", "FIG9_BATCH", "FIG9_D", "FIG9_DESCRIPTION", "FIG9_PAPER",
    "FIG9_PRECISION_METRICS", "FIG9_QUOTES", "INSTANCES", "LOSSES", "PAPER", "REPRODUCTIONS",
    "SETTINGS", "compare", "fig9_trials", "plot_fig1", "plot_fig3", "plot_fig9", "render_fig1",
    "render_fig3", "render_fig9", "run_fig1", "run_fig3", "run_fig9",
]
