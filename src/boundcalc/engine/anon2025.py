"""The shallow transformer of anon2025, *Generalization bound for a Shallow Transformer
trained using Gradient Descent* (Sec. 3.1.2, Sec. 4.3, App. B): forward pass, analytic
gradients, full-batch gradient descent and the norm quantities of its Lemma 4/Theorem 5.

Model (Sec. 3.1.2), for one input X in R^{d_s x d} (array X of shape (N, d_s, d)):

    beta_i = softmax( X W_K^T W_Q x_i / sqrt(d_m) )          (row i of the attention)
    z_i    = W_V X^T beta_i                                   (self-attention, A_1)
    k_i    = ReLU(z_i)                                        (feed-forward, W_H = I)
    f_pre  = (1/d_s) sum_i k_i                                (average pooling, a_3)
    f(X)   = w_O^T f_pre                                      (output layer)

with W_Q, W_K, W_V in R^{d_m x d} and w_O in R^{d_m}; theta = {W_Q, W_K, W_V, w_O}.
LeCun initialisation (Sec. 3.1.3): W_Q, W_K, W_V entries N(0, 1/d), w_O entries N(0, 1/d_m).

Losses: ``'logistic'``: L_S = (1/N) sum_n log(1 + exp(-y_n f(X_n))), y in {-1, +1}
(the two-class cross-entropy of App. B, 1-Lipschitz in f as Sec. 3.1.4 requires);
``'squared'``: Phi(theta) = 1/2 ||f(theta) - y||_2^2 (Sec. 4.3; a sum, not a mean).
ReLU'(0) is taken as 0. Everything is float64 and vectorised over the N inputs, except
that :func:`train` takes ``dtype='float32'``: each GD step's forward and backward pass then
runs in single precision, while the iterates, their updates, the radii and every recorded
test-set number stay float64 (as in the other engines, ``ops.check_dtype``).
"""
from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from boundcalc.engine import ops

Array = np.ndarray

LOSSES = ("logistic", "squared")


@dataclass(frozen=True)
class Params:
    """theta = {W_Q, W_K, W_V (d_m, d), w_O (d_m,)}."""

    WQ: Array
    WK: Array
    WV: Array
    wO: Array

    def __post_init__(self):
        arrs = [np.asarray(getattr(self, f.name), dtype=np.float64) for f in fields(self)]
        WQ, WK, WV, wO = arrs
        if WQ.ndim != 2:
            raise ValueError(f"WQ must be a (d_m, d) matrix, got shape {WQ.shape}")
        for name, a in (("WK", WK), ("WV", WV)):
            if a.shape != WQ.shape:
                raise ValueError(f"{name} must have the shape of WQ {WQ.shape}, got {a.shape}")
        if wO.shape != (WQ.shape[0],):
            raise ValueError(f"wO must have shape ({WQ.shape[0]},), got {wO.shape}")
        for f, a in zip(fields(self), arrs):
            object.__setattr__(self, f.name, a)

    @property
    def dims(self) -> tuple[int, int]:
        """(d_m, d)."""
        return self.WQ.shape

    def vector(self) -> Array:
        """theta flattened as [W_Q, W_K, W_V, w_O] (row-major)."""
        return np.concatenate([self.WQ.ravel(), self.WK.ravel(), self.WV.ravel(), self.wO])

    @classmethod
    def from_vector(cls, vec, dm: int, d: int) -> Params:
        vec = np.asarray(vec, dtype=np.float64)
        if vec.shape != (3 * dm * d + dm,):
            raise ValueError(f"vector must have length {3 * dm * d + dm}, got {vec.shape}")
        k = dm * d
        return cls(vec[:k].reshape(dm, d), vec[k:2 * k].reshape(dm, d),
                   vec[2 * k:3 * k].reshape(dm, d), vec[3 * k:])

    def axpy(self, a: float, other: Params) -> Params:
        """self + a * other."""
        return Params(self.WQ + a * other.WQ, self.WK + a * other.WK,
                      self.WV + a * other.WV, self.wO + a * other.wO)

    def norm(self) -> float:
        """||theta||_2 = sqrt(sum of squared Frobenius norms) (Sec. 4.1)."""
        return float(np.sqrt(sum(np.sum(getattr(self, f.name) ** 2) for f in fields(self))))


def init_lecun(d: int, dm: int, seed: int) -> Params:
    """LeCun initialisation (Sec. 3.1.3); draws W_Q, W_K, W_V, w_O in this order from
    ``ops.rng(seed)``."""
    for name, val in (("d", d), ("dm", dm)):
        if int(val) != val or val < 1:
            raise ValueError(f"{name} must be a positive integer, got {val!r}")
    g = ops.rng(seed)
    sd = 1.0 / np.sqrt(d)
    WQ = sd * g.standard_normal((dm, d))
    WK = sd * g.standard_normal((dm, d))
    WV = sd * g.standard_normal((dm, d))
    wO = g.standard_normal(dm) / np.sqrt(dm)
    return Params(WQ, WK, WV, wO)


def _check_X(X, params: Params) -> Array:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 3:
        raise ValueError(f"X must have shape (N, d_s, d), got {X.shape}")
    if X.shape[2] != params.dims[1]:
        raise ValueError(f"X has token dimension {X.shape[2]} but the weights expect "
                         f"{params.dims[1]}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or inf")
    return X


def _check_y(y, N: int, loss: str) -> Array:
    if loss not in LOSSES:
        raise ValueError(f"unknown loss {loss!r}; choose one of {LOSSES}")
    y = np.asarray(y, dtype=np.float64)
    if y.shape != (N,):
        raise ValueError(f"y must have shape ({N},), got {y.shape}")
    if loss == "logistic" and not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("the logistic loss needs labels y in {-1, +1}")
    return y


@dataclass(frozen=True)
class _Cache:
    X: Array
    Q: Array      # (N, d_s, d_m) queries X W_Q^T
    K: Array      # keys X W_K^T
    V: Array      # values X W_V^T
    B: Array      # (N, d_s, d_s) attention, row i = beta_i
    Z: Array      # (N, d_s, d_m) rows z_i
    F: Array      # (N, d_m) F_pre
    f: Array      # (N,) outputs


def _forward(params: Params, X, dtype=np.float64) -> _Cache:
    """The forward pass, in ``dtype`` (weights and inputs cast; float64 leaves them alone)."""
    X = _check_X(X, params)
    dm = params.dims[0]
    WQ, WK, WV, wO, X = (a if a.dtype == dtype else a.astype(dtype)
                         for a in (params.WQ, params.WK, params.WV, params.wO, X))
    N, ds, d = X.shape
    Xf = X.reshape(N * ds, d)
    Q = (Xf @ WQ.T).reshape(N, ds, dm)
    K = (Xf @ WK.T).reshape(N, ds, dm)
    V = (Xf @ WV.T).reshape(N, ds, dm)
    B = ops.softmax(Q @ K.transpose(0, 2, 1) / np.sqrt(dm).astype(dtype), axis=-1)
    Z = B @ V
    F = np.mean(np.maximum(Z, 0.0), axis=1)
    return _Cache(X, Q, K, V, B, Z, F, F @ wO)


def predict(params: Params, X) -> Array:
    """f(X_n) for every input: (N,)."""
    return _forward(params, X).f


def features(params: Params, X) -> Array:
    """F_pre = [f_pre(X_n)]_n, the last hidden layer (N, d_m) (Sec. 3.1.2)."""
    return _forward(params, X).F


def _loss_and_dlogit(f: Array, y: Array, loss: str) -> tuple[float, Array]:
    if loss == "logistic":
        m = y * f
        return float(np.mean(ops.logistic(m))), y * ops.logistic_d1(m) / f.shape[0]
    r = f - y
    return float(0.5 * r @ r), r


def loss_value(params: Params, X, y, loss: str = "logistic") -> float:
    """L_S (mean logistic) or Phi (1/2 sum of squares) at theta."""
    c = _forward(params, X)
    return _loss_and_dlogit(c.f, _check_y(y, c.f.shape[0], loss), loss)[0]


def value_and_grad(params: Params, X, y, loss: str = "logistic") -> tuple[float, Params]:
    """(loss, gradient) by reverse mode through the model (vectorised over inputs)."""
    val, g, _ = _value_grad_outputs(params, X, y, loss)
    return val, g


def _value_grad_outputs(params: Params, X, y, loss: str, dtype=np.float64) -> tuple[float, Params, Array]:
    """(loss, gradient, outputs f) by reverse mode; ``dtype`` float32 computes them in single
    precision (the gradient is returned as float64 :class:`Params`, the outputs as float64)."""
    c = _forward(params, X, dtype)
    y = _check_y(y, c.f.shape[0], loss).astype(dtype)
    val, gf = _loss_and_dlogit(c.f, y, loss)
    dm = params.dims[0]
    ds = c.X.shape[1]
    wO = params.wO.astype(dtype)
    g_wO = c.F.T @ gf
    gZ = (gf[:, None, None] * wO[None, None, :] / ds) * (c.Z > 0)
    gB = gZ @ c.V.transpose(0, 2, 1)
    gV = c.B.transpose(0, 2, 1) @ gZ
    gS = c.B * (gB - np.sum(gB * c.B, axis=-1, keepdims=True)) / np.sqrt(dm).astype(dtype)
    gQ = gS @ c.K
    gK = gS.transpose(0, 2, 1) @ c.Q
    Xf = c.X.reshape(-1, c.X.shape[2])                  # sum over inputs and tokens as one GEMM
    g = Params(gQ.reshape(-1, dm).T @ Xf, gK.reshape(-1, dm).T @ Xf,
               gV.reshape(-1, dm).T @ Xf, g_wO)
    return float(val), g, c.f.astype(np.float64)


# --- measurements ---------------------------------------------------------------------

def alpha_min_singular(params0: Params, X) -> float:
    """alpha = sigma_min(F_pre^0) (Sec. 4.3): the smallest of the min(N, d_m) singular
    values of the (N, d_m) feature matrix at initialisation."""
    return float(np.linalg.svd(features(params0, X), compute_uv=False)[-1])


def input_radius(X) -> float:
    """R_X = max_n ||X_n||_F / sqrt(d_s), the least R_X with ||X_n||_F <= sqrt(d_s) R_X
    (Lemma 1, Assumption 3)."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 3:
        raise ValueError(f"X must have shape (N, d_s, d), got {X.shape}")
    return float(np.max(np.linalg.norm(X, axis=(1, 2))) / np.sqrt(X.shape[1]))


@dataclass(frozen=True)
class NormQuantities:
    """Lemma 1/4, Theorem 5: radii R_Q = sup_t ||W_Q^t - W_Q^0||_F (same for K, V; R_O with
    the l2 norm of w_O), R = sqrt(R_Q^2 + R_K^2 + R_V^2 + R_O^2) (Sec. 4.1),
    eta_Q = ||W_Q^0||_F + R_Q (K, V likewise), eta_O = ||w_O^0||_2 + R_O,
    xi_Q = ||W_Q^0||_2 + R_Q (spectral norm; K, V likewise)."""

    R_Q: float
    R_K: float
    R_V: float
    R_O: float
    R: float
    eta_Q: float
    eta_K: float
    eta_V: float
    eta_O: float
    xi_Q: float
    xi_K: float
    xi_V: float


def norm_quantities(params0: Params, R_Q: float, R_K: float, R_V: float, R_O: float
                    ) -> NormQuantities:
    """eta's and xi's of Lemma 4 from the initial weights and the radii."""
    for name, r in (("R_Q", R_Q), ("R_K", R_K), ("R_V", R_V), ("R_O", R_O)):
        if not np.isfinite(r) or r < 0:
            raise ValueError(f"{name} must be a finite non-negative number, got {r}")
    fro = lambda A: float(np.linalg.norm(A))
    spec = lambda A: float(np.linalg.norm(A, 2))
    p = params0
    return NormQuantities(
        R_Q, R_K, R_V, R_O, float(np.sqrt(R_Q**2 + R_K**2 + R_V**2 + R_O**2)),
        fro(p.WQ) + R_Q, fro(p.WK) + R_K, fro(p.WV) + R_V, fro(p.wO) + R_O,
        spec(p.WQ) + R_Q, spec(p.WK) + R_K, spec(p.WV) + R_V)


def distances(params: Params, params0: Params) -> tuple[float, float, float, float]:
    """(||W_Q - W_Q^0||_F, ||W_K - W_K^0||_F, ||W_V - W_V^0||_F, ||w_O - w_O^0||_2)."""
    return (float(np.linalg.norm(params.WQ - params0.WQ)),
            float(np.linalg.norm(params.WK - params0.WK)),
            float(np.linalg.norm(params.WV - params0.WV)),
            float(np.linalg.norm(params.wO - params0.wO)))


# --- gradient descent -----------------------------------------------------------------

@dataclass(frozen=True)
class History:
    """Record of ``train``. Per recorded step (index ``step``, (k,)): ``train_loss``,
    ``test_loss`` (NaN without test data), ``train_error``/``test_error`` (fraction with
    sign f != y), ``grad_norm`` (||grad theta||_2), ``dist`` (k, 4): distances to theta^0 in
    the order Q, K, V, O. ``radii``: (R_Q, R_K, R_V, R_O) = the maxima of the distances
    over *every* step 0..t'. ``norms``: the eta's and xi's for these radii; ``alpha``:
    sigma_min(F_pre^0) on the training inputs; ``R_X``: input radius of the training set;
    ``params``: theta^{t'}."""

    step: Array
    train_loss: Array
    test_loss: Array
    train_error: Array
    test_error: Array
    grad_norm: Array
    dist: Array
    radii: tuple[float, float, float, float]
    norms: NormQuantities
    alpha: float
    R_X: float
    params: Params


def _error(f: Array, y: Array) -> float:
    return float(np.mean(np.where(f >= 0, 1.0, -1.0) != np.sign(y)))


def train(params0: Params, X, y, *, lr: float, steps: int, loss: str = "logistic",
          X_test=None, y_test=None, record_every: int = 1, dtype="float64") -> History:
    """Full-batch GD of Sec. 3.1.4: theta^{t+1} = theta^t - lr * grad L(theta^t), t < steps.

    Records at steps 0, r, 2r, ... and ``steps``; the radii are tracked at every step.
    ``dtype`` 'float32': each step's forward/backward pass on the training set in single
    precision (the recorded training loss and error are that pass's); theta, the radii and
    the test-set losses stay float64.
    """
    dt = ops.check_dtype(dtype)
    ops.check_schedule(lr, steps, record_every)
    X = _check_X(X, params0)
    y = _check_y(y, X.shape[0], loss)
    has_test = X_test is not None
    if has_test:
        X_test = _check_X(X_test, params0)
        y_test = _check_y(y_test, X_test.shape[0], loss)
    elif y_test is not None:
        raise ValueError("y_test given without X_test")
    rec: dict[str, list] = {k: [] for k in ("step", "tr", "te", "etr", "ete", "gn", "dist")}
    radii = np.zeros(4)
    theta = params0
    for t in range(steps + 1):
        val, g, f = _value_grad_outputs(theta, X, y, loss, dt)
        dist = np.array(distances(theta, params0))
        if not (np.isfinite(val) and np.isfinite(dist).all()):
            from .budget import Divergence  # non-finite loss or iterate: stop here
            raise Divergence(t, "loss or iterate")
        radii = np.maximum(radii, dist)
        if t % record_every == 0 or t == steps:
            rec["step"].append(t)
            rec["tr"].append(val)
            rec["etr"].append(_error(f, y))
            if has_test:
                ft = predict(theta, X_test)
                rec["te"].append(_loss_and_dlogit(ft, y_test, loss)[0])
                rec["ete"].append(_error(ft, y_test))
            else:
                rec["te"].append(np.nan)
                rec["ete"].append(np.nan)
            rec["gn"].append(g.norm())
            rec["dist"].append(dist)
        if t == steps:
            break
        theta = theta.axpy(-lr, g)
    r = (float(radii[0]), float(radii[1]), float(radii[2]), float(radii[3]))
    return History(np.array(rec["step"]), np.array(rec["tr"]), np.array(rec["te"]),
                   np.array(rec["etr"]), np.array(rec["ete"]), np.array(rec["gn"]),
                   np.array(rec["dist"]), r, norm_quantities(params0, *r),
                   alpha_min_singular(params0, X), input_radius(X), theta)


def memory_estimate(d_m: int, N: int, n_test: int, epochs: int, T: int = 8, d: int = 8) -> float:
    """Bytes a training run needs before anything is allocated (see
    :mod:`boundcalc.engine.budget`): parameters and gradients (3 d_m x d + d_m, a few
    copies), activations of the N + n_test images (T tokens, width d_m, a few per
    token), and the per-epoch history (7 Python floats/arrays per step). T and d default
    to the 8 x 8 digits' tokens (pass them for other data)."""
    return 8.0 * (8 * (3 * d_m * d + d_m) + 6 * (N + n_test) * T * (d_m + T)) + 120.0 * (epochs + 1)
