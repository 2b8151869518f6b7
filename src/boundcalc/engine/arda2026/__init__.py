"""Shallow multi-head transformer of Arda, Cayci & Eryilmaz (2026), NumPy engine.

Formulas from ``shared/papers/notes/arda2026.md`` (v1 numbering; v2 keeps (2)-(4)).
Inputs X in R^{d x T} (tokens are *columns*), batches X: (n, d, T); query q_X (not trained),
by default the last token q_X = X_T as in the experiments (Sec. 6.1).

    a(X; W_i) = X softmax(X^T W_i q_X)            in R^d   (2)  softmax over the T tokens
    h(X; theta_i) = sigma(U_i^T a(X; W_i))        in R     (3)  theta_i = (U_i, vec W_i)
    f(X; phi) = m^{-1/2} sum_i c_i h(X; theta_i)  in R     (4)  phi_i = (c_i, U_i, vec W_i)

with m heads (= width), W_i in R^{d x d}, U_i in R^d, c_i in R.  Squared loss
L^_n(phi) = (1/n) sum_j (f(X_j; phi) - y_j)^2 (Sec. 3.3).  Symmetric paired initialisation
(Sec. 5.2): heads i and i + m/2 share (U, W) and have opposite c, so f(.; phi^(0)) = 0.
ProjGD / ProjSGD project after every step onto Omega_rho (Definition 2): per head,
|c_i - c_i^(0)| <= rho_c/sqrt m, ||U_i - U_i^(0)|| <= rho_u/sqrt m, ||W_i - W_i^(0)||_F <= rho_w/sqrt m,
i.e. each block is radially rescaled onto its own ball around its initial value.

Flat vectors order the parameters per head: (c_i, U_i, W_i row-major) -- a fixed
permutation of the paper's (c_i, U_i, vec W_i) (vec stacks columns); norms are unaffected.

Everything is vectorised over samples and heads: the per-head logits are one GEMM
(q W^T) and stacks of n small GEMMs with layout (n, m, .).
"""
from __future__ import annotations

from .activation import TANH, Activation, activation
from .diagnostics import (
    Distances,
    TransportMap,
    approximation_error,
    boundary_point,
    distance,
    f_lin,
    grad_norm,
    in_domain,
    linearization_error,
    transported_params,
)
from .heads import HeadTerms, head_MU, head_terms, random_features
from .model import _loss_and_grad as _loss_and_grad
from .model import forward, input_scale, logit_bound, loss, loss_and_grad, model_jvp
from .params import Array, ShallowParams, paired_init
from .training import (
    ProjResult,
    check_dtype,
    memory_estimate,
    proj_gd,
    proj_gd_step,
    proj_sgd,
    project,
)

__all__ = [
    "TANH", "Activation", "Array", "Distances", "HeadTerms", "ProjResult", "ShallowParams",
    "TransportMap", "activation", "approximation_error", "boundary_point", "check_dtype",
    "distance", "f_lin", "forward", "grad_norm", "head_MU", "head_terms", "in_domain",
    "input_scale", "linearization_error", "logit_bound", "loss", "loss_and_grad", "memory_estimate",
    "model_jvp", "paired_init", "proj_gd", "proj_gd_step", "proj_sgd", "project", "random_features",
    "transported_params",
]
