"""The attention model of Tarzanagh, Li, Zhang, Oymak (NeurIPS 2023), *Max-Margin Token
Selection in Attention Mechanism*: analytic gradients, Hessian-vector products, (normalised)
gradient descent and the measurements of its theorems and experiments.

Model (eq. (1)/(5), with the transpose convention of ``notes/tarzanagh2023.md`` §1):

    f(X) = v^T X^T S(K p),   K = X W^T  (k_t = W x_t),   S = softmax,
    L(v, p, W) = (1/n) sum_i l(Y_i f(X_i))                                      (1)/(ERM)

X_i in R^{T x d} (array X of shape (n, T, d)), Y_i in {-1, +1}, loss l in
{'logistic', 'exponential', 'correlation'} (``ops.margin_loss``).
Token scores (Def. 1): gamma_it = Y_i v^T x_it, so Y_i f(X_i) = gamma_i^T s_i.

Gradients (App. A, (15a)-(15b)), with s_i = S(K_i p), S'(a) = diag(S(a)) - S(a)S(a)^T
and l'_i = l'(Y_i f(X_i)):

    grad_p L = (1/n) sum_i l'_i K_i^T S'(K_i p) gamma_i                          (15a)
    grad_W L = (1/n) sum_i l'_i p gamma_i^T S'(K_i p) X_i                        (15b)
    grad_v L = (1/n) sum_i l'_i Y_i X_i^T s_i

Everything is float64 and vectorised over the n inputs (no Python loop over samples),
except that GD (:func:`gd_p`, :func:`train`) takes ``dtype='float32'``: each step's
forward/backward arithmetic then runs in single precision while the iterates, their updates
and every recorded number stay float64 (as in the other engines, ``ops.check_dtype``).
The SVM problems ((ATT-SVM), (SVM), (10), Defs. 2-3) live in ``engine.svm``.
"""
from __future__ import annotations

from .measurements import (
    JointMaxMargin,
    SelectionReport,
    correlation,
    gmm,
    joint_max_margin,
    logistic_probability,
    max_attention,
    saturation,
    selection_report,
    soft_nnz,
)
from .model import (
    Array,
    attention,
    attention_features,
    grad_p,
    grad_v,
    grad_W,
    hessian_extremes_p,
    hvp_p,
    hvp_p_operator,
    keys,
    loss_value,
    predict,
    value_and_grads,
)
from .smoothness import loss_constants, smoothness_bound
from .training import Trajectory, gd_p, memory_estimate, train, trajectory_bytes

__all__ = [
    "Array", "JointMaxMargin", "SelectionReport", "Trajectory", "attention", "attention_features",
    "correlation", "gd_p", "gmm", "grad_W", "grad_p", "grad_v", "hessian_extremes_p", "hvp_p",
    "hvp_p_operator", "joint_max_margin", "keys", "logistic_probability", "loss_constants",
    "loss_value", "max_attention", "memory_estimate", "predict", "saturation", "selection_report",
    "smoothness_bound", "soft_nnz", "train", "trajectory_bytes", "value_and_grads",
]
