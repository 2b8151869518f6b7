"""Multi-head attention of Deora, Ghaderi, Taheri & Thrampoulidis (2023), NumPy engine.

Model (eq. (2)), for a token matrix X = [x_1 .. x_T]^T in R^{T x d}:

    Phi(X; U_h, W_h)  = < U_h , softmax(X W_h X^T) X >          (eq. (1); row-wise softmax)
    Phi~(X; theta)    = H^{-1/2} sum_h Phi(X; U_h, W_h)          (eq. (2))

with per-head parameters theta_h = (U_h, W_h), W_h in R^{d x d} and the decoder U_h in
one of three forms (Sec. 2, footnote *):

* ``'full'``    U_h in R^{T x d} trainable              (parameter array U: (H, T, d))
* ``'pooling'`` U_h = 1_T u_h^T, u_h in R^d trainable   (parameter array U: (H, d))
* ``'last'``    U_h = [0 .. 0 u_h]^T, u_h in R^d        (parameter array U: (H, d))

Empirical risk  L^(theta) = (1/n) sum_i l(y_i Phi~(X_i; theta)), l = logistic (Sec. 2),
minimised by full-batch GD  theta <- theta - eta grad L^(theta).

Flat vectors follow the paper's ordering theta~ = concat_h theta_h, theta_h = concat(U_h, W_h)
(each block row-major).  All arrays are float64; batches are X: (n, T, d), y: (n,) in {-1,+1}.

Implementation: every training step is vectorised over samples *and* heads.  Internally the
decoder is expanded to U_eff in layout (T_q, H, d) and the attention tensors are kept
key-major, (n, T, T_q*H) (key token; query token, head), so every contraction is one GEMM
or a stack of per-sample GEMMs, and the softmax reductions run along a strided axis.
For ``'last'`` only the last query row is ever computed (T_q = 1).  A training step is
fused (forward + backward) and processed in cache-sized blocks of samples with
single-threaded BLAS (see :func:`_loss_grad_blocks`).
Gradients are analytic (Lemma 1); Hessian-vector products are the exact directional
derivative of that analytic gradient (forward-over-reverse written by hand, no dense Hessian).
"""
from __future__ import annotations

from .diagnostics import (
    B2,
    B_Phi,
    Distances,
    distance,
    grad_norm,
    hessian_extreme_eigenvalues,
    margins,
    norm_2inf,
)
from .kernels import _backward as _backward
from .kernels import _forward as _forward
from .kernels import _loss_grad_batch as _loss_grad_batch
from .kernels import _loss_grad_blocks as _loss_grad_blocks
from .kernels import _softmax_keys_inplace as _softmax_keys_inplace
from .kernels import _to_params as _to_params
from .kernels import logit_bound
from .model import (
    forward,
    head_outputs,
    hvp,
    loss,
    loss_and_grad,
    model_hvp,
    model_jvp,
    model_vjp,
)
from .ntk import NTKMargin, ntk_features, ntk_gram, ntk_margin
from .params import DECODERS, Array, MHAParams, init_gaussian, init_zero
from .prop1 import decoder_matrix, head_gradient_norms, head_hessian_norm, prop1_bounds
from .training import (
    TrainResult,
    TwoPhaseResult,
    first_phase,
    gd_step,
    memory_estimate,
    train,
    train_batch,
    two_phase,
)

__all__ = [
    "B2", "DECODERS", "Array", "B_Phi", "Distances", "MHAParams", "NTKMargin", "TrainResult",
    "TwoPhaseResult", "decoder_matrix", "distance", "first_phase", "forward", "gd_step",
    "grad_norm", "head_gradient_norms", "head_hessian_norm", "head_outputs",
    "hessian_extreme_eigenvalues", "hvp", "init_gaussian", "init_zero", "logit_bound", "loss",
    "loss_and_grad", "margins", "memory_estimate", "model_hvp", "model_jvp", "model_vjp",
    "norm_2inf", "ntk_features", "ntk_gram", "ntk_margin", "prop1_bounds", "train", "train_batch",
    "two_phase",
]
