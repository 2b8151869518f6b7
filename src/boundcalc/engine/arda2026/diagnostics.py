"""Linearisation, transport and measurements of a state: f_lin, the linearisation and
approximation errors, boundary points, distances, gradient norm.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import ops
from .activation import Activation, activation
from .heads import head_MU, head_terms
from .model import forward, loss_and_grad, model_jvp
from .params import Array, ShallowParams, _check_rho, _check_X, _check_y, _query


def f_lin(params: ShallowParams, params0: ShallowParams, X: Array, query="last",
          act: str | Activation = "tanh") -> Array:
    """Linear model of Definition 3: f(X; phi0) + <grad f(X; phi0), phi - phi0>."""
    return forward(params0, X, query, act) + model_jvp(params0, X, params - params0, query, act)


def linearization_error(params: ShallowParams, params0: ShallowParams, X: Array, query="last",
                        act: str | Activation = "tanh") -> tuple[float, float]:
    """(sup_j, mean_j) of |f(X_j; phi) - f_lin(X_j; phi)|.  The sup is eps_lin of Lemma 3;
    the mean is what the authors' code reports (notes Sec. 6.1)."""
    e = np.abs(forward(params, X, query, act) - f_lin(params, params0, X, query, act))
    return float(np.max(e)), float(np.mean(e))


def _unit_rows(G: Array, axes: tuple) -> Array:
    nrm = np.sqrt(np.sum(G * G, axis=axes, keepdims=True))
    if np.any(nrm == 0):
        raise ValueError("a head's direction has zero norm; cannot place it on the sphere")
    return G / nrm


def boundary_point(params0: ShallowParams, rho, *, kind: str = "random", X: Array | None = None,
                   seed: int | None = None, query="last",
                   act: str | Activation = "tanh") -> ShallowParams:
    """A point of Omega_rho with every block on its sphere of radius rho_(c,u,w)/sqrt(m).

    ``kind='random'``: c_i +- rho_c/sqrt m with random signs, U_i and W_i in uniformly random
    directions.  ``kind='adversarial'`` (the authors' code, notes Sec. 6.1): Delta c_i = +rho_c/sqrt m,
    Delta U_i, Delta W_i along the gradient at phi0 of sum_j h(X_j; theta_i) (needs ``X``).
    """
    r = _check_rho(rho)
    if not np.all(np.isfinite(r)):
        raise ValueError("boundary points need finite radii")
    r = r / np.sqrt(params0.m)
    m, d = params0.m, params0.d
    if kind == "random":
        g = ops.rng(seed)
        dc = g.choice(np.array([-1.0, 1.0]), size=m)
        dU = _unit_rows(g.standard_normal((m, d)), (1,))
        dW = _unit_rows(g.standard_normal((m, d, d)), (1, 2))
    elif kind == "adversarial":
        if X is None:
            raise ValueError("kind='adversarial' needs the inputs X")
        A = activation(act)
        X = _check_X(X, d)
        q = _query(X, query)
        t = head_terms(params0.U, params0.W, X, q)
        s1 = A.d1(t.pre)                                    # d h / d pre
        dU = _unit_rows(np.einsum("nk,nkd->kd", s1, t.a), (1,))
        gWq = s1[..., None] * head_MU(t, X)
        dW = _unit_rows((gWq.reshape(X.shape[0], m * d).T @ q).reshape(m, d, d), (1, 2))
        dc = np.ones(m)
    else:
        raise ValueError(f"kind must be 'random' or 'adversarial', got {kind!r}")
    return ShallowParams(params0.c + r[0] * dc, params0.U + r[1] * dU, params0.W + r[2] * dW)


TransportMap = Callable[[Array, Array, Array], tuple[Array, Array, Array]]


def transported_params(params0: ShallowParams, v: TransportMap | tuple) -> ShallowParams:
    """phi~ of eq. (11) (v2; (10) in v1), for a transportation mapping v:

        c~_i = c_i^(0) + m^{-1/2} v_c(phi_i^(0)),  U~_i = U_i^(0) + c_i^(0) m^{-1/2} v_u(phi_i^(0)),
        W~_i = W_i^(0) + c_i^(0) m^{-1/2} v_w(phi_i^(0)).

    ``v`` is a callable (c (k,), U (k,d), W (k,d,d)) -> (v_c (k,), v_u (k,d), v_w (k,d,d)), or
    that triple already evaluated at the m initial heads.
    """
    m, d = params0.m, params0.d
    vc, vu, vw = v(params0.c, params0.U, params0.W) if callable(v) else v
    vc, vu, vw = (np.asarray(a, dtype=np.float64) for a in (vc, vu, vw))
    if vc.shape != (m,) or vu.shape != (m, d) or vw.shape != (m, d, d):
        raise ValueError(f"v must give shapes ({m},), ({m},{d}), ({m},{d},{d}); "
                         f"got {vc.shape}, {vu.shape}, {vw.shape}")
    s = 1.0 / np.sqrt(m)
    c0 = params0.c
    return ShallowParams(c0 + s * vc, params0.U + (s * c0)[:, None] * vu,
                         params0.W + (s * c0)[:, None, None] * vw)


def approximation_error(params0: ShallowParams, v: TransportMap | tuple, X: Array, target: Array,
                        query="last", act: str | Activation = "tanh") -> tuple[float, float]:
    """(sup_j, mean_j) of |f_lin(X_j; phi~) - target_j|, phi~ the transported parameters.

    With target = f~(X_j; v) this is eps_app of Lemma 5; the experiments (Sec. 6.1) use the
    Monte-Carlo teacher labels y~_j as target.
    """
    tilde = transported_params(params0, v)
    e = np.abs(f_lin(tilde, params0, X, query, act) - _check_y(target, np.shape(X)[0]))
    return float(np.max(e)), float(np.mean(e))


@dataclass
class Distances:
    """||phi_i - phi_i^(0)|| per head, and per block (c, U, W) per head."""

    per_head: Array
    c: Array
    U: Array
    W: Array
    total: float


def distance(params: ShallowParams, params0: ShallowParams) -> Distances:
    """Per-head distances to the initialisation (compare with rho / sqrt(m), Definition 2)."""
    D = params - params0
    dc = np.abs(D.c)
    du = np.linalg.norm(D.U, axis=1)
    dw = np.sqrt(np.sum(D.W ** 2, axis=(1, 2)))
    ph = np.sqrt(dc ** 2 + du ** 2 + dw ** 2)
    return Distances(ph, dc, du, dw, float(np.sqrt(np.sum(ph ** 2))))


def grad_norm(params: ShallowParams, X: Array, y: Array, query="last",
              act: str | Activation = "tanh") -> float:
    """||grad L^_n(phi)||."""
    return float(np.linalg.norm(loss_and_grad(params, X, y, query, act)[1].flat()))


def in_domain(X: Array, tol: float = 1e-12) -> bool:
    """Whether every token has norm <= 1, i.e. X in the input set of Sec. 3.1."""
    X = np.asarray(X, dtype=np.float64)
    return bool(np.all(np.linalg.norm(X, axis=1) <= 1.0 + tol))
