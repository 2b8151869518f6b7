"""Named engine measurements, for the ``measured`` checks of ``boundcalc check``.

A ``measured`` check (formula files, ``[[checks]] kind = "measured"``) compares a closed
form the paper states with what the NumPy engine computes on the paper's data model. It
names one of the measurements below, gives the sizes (``at``) and the seed; the
measurement returns a number (or an array of numbers). Each measurement is a short,
explicit recipe over the paper's engine module (:mod:`.deora2023`, :mod:`.data.dm1`, ...):
the model and data code live there, not here.

Reproduce any measurement from Python::

    from boundcalc.engine.measurements import measure
    measure("deora2023.first_phase_coefficient", T=8, d=12, M=3, n1=2000, zeta=0.25, S=1, seed=0)

Importing this module is cheap (NumPy is imported inside each measurement), so the
formula-file loader can validate measurement names.
"""
from __future__ import annotations


class Measurement:
    def __init__(self, name: str, fn, sizes: tuple[str, ...], description: str):
        self.name, self.fn, self.sizes, self.description = name, fn, sizes, description


MEASUREMENTS: dict[str, Measurement] = {}


def _register(name: str, sizes: tuple[str, ...], description: str):
    def deco(fn):
        MEASUREMENTS[name] = Measurement(name, fn, sizes, description)
        return fn
    return deco


def measure(name: str, *, seed: int = 0, **sizes):
    """Run a named measurement at the given sizes (every size it needs, nothing else)."""
    from ..errors import BoundcalcError
    if name not in MEASUREMENTS:
        raise BoundcalcError(f"unknown measurement {name!r} (known: {', '.join(sorted(MEASUREMENTS))})")
    m = MEASUREMENTS[name]
    missing = [s for s in m.sizes if s not in sizes]
    extra = [s for s in sizes if s not in m.sizes]
    if missing or extra:
        raise BoundcalcError(f"measurement {name!r} takes sizes {', '.join(m.sizes)}"
                             + (f"; missing {', '.join(missing)}" if missing else "")
                             + (f"; unknown {', '.join(extra)}" if extra else ""))
    return m.fn(seed=int(seed), **sizes)


def _int(name, v) -> int:
    from ..errors import BoundcalcError
    if float(v) != int(float(v)):
        raise BoundcalcError(f"size {name} must be an integer, got {v!r}")
    return int(float(v))


# ----------------------------------------------------------------------------- deora2023
@_register("deora2023.first_phase_coefficient", ("T", "d", "M", "n1", "zeta", "S"),
           "coefficient c of u_* in the rows of U_h^(1)/alpha_h after Lemma 2's first phase "
           "(logistic loss, 'full' decoder, DM1 with small noise): the least-squares c of "
           "U_h^(1)/alpha_h ~ c 1_T u_*^T, averaged over 2 heads")
def _first_phase_coefficient(*, T, d, M, n1, zeta, S, seed):
    import numpy as np

    from . import deora2023 as D
    from .data.dm1 import make_dm1
    dm = make_dm1(_int("T", T), _int("d", d), _int("M", M), S=float(S), zeta=float(zeta),
                  z_mu=0.05, z_nu=0.2, z_perp_norm=0.3 if _int("d", d) > _int("M", M) + 2 else 0.0)
    s = dm.sample(_int("n1", n1), seed=seed)
    p1, alphas = D.first_phase(s.X, s.y, 2, "full", seed=seed + 1, loss="logistic")
    u = dm.u_star
    coef = [float(np.mean(p1.U[h] @ u) / (u @ u) / alphas[h]) for h in range(2)]
    return float(np.mean(coef))


@_register("deora2023.pooling_decoder_difference", ("T",),
           "max |Phi(X; U = u 1_T^T) - Phi(X; U = 1_T u^T)| / max |Phi(X; 1_T u^T)| over 64 random "
           "samples, one head, random W, at d = T (the only case where u 1_T^T, which is d x T, "
           "can stand for the T x d decoder); the engine's 'pooling' decoder is 1_T u^T")
def _pooling_decoder_difference(*, T, seed):
    import numpy as np

    from . import deora2023 as D
    T = _int("T", T)
    d = T
    g = np.random.default_rng(seed)
    X = g.standard_normal((64, T, d))
    W = g.standard_normal((1, d, d)) / np.sqrt(d)
    u = g.standard_normal((1, d))
    engine = D.forward(D.MHAParams(u, W, "pooling"), X)                      # U = 1_T u^T
    printed = D.forward(D.MHAParams(np.outer(u[0], np.ones(T))[None], W, "full"), X)   # U = u 1_T^T
    return float(np.max(np.abs(printed - engine)) / np.max(np.abs(engine)))


@_register("deora2023.softmax_jacobian_11", ("v1", "v2"),
           "entry (1,1) of the Jacobian of the softmax phi(v) = exp(v)/sum exp(v) at v = (v1, v2), "
           "by central differences of the engine's softmax (step 1e-6)")
def _softmax_jacobian_11(*, v1, v2, seed):
    import numpy as np

    from . import deora2023 as D

    def phi1(a):
        z = np.array([[[a], [float(v2)]]])        # (n=1, T=2 keys, K=1)
        return D._softmax_keys_inplace(z)[0, 0, 0]
    h = 1e-6
    return float((phi1(float(v1) + h) - phi1(float(v1) - h)) / (2 * h))


def _sec52_target(*, H, T, d, M, n1, zeta, S, seed):
    """First-phase heads theta_h^(1) on DM1 (H heads), the per-head targets theta_*(theta_h^(1)) =
    (U_*/||U_*||_F, sign(alpha_h) W_*/||W_*||_F) of Sec. 5.2 stacked WITHOUT the 1/sqrt(H), and a
    fresh DM1 sample (X, y) of 16 inputs."""
    import numpy as np

    from . import deora2023 as D
    from .data.dm1 import make_dm1
    T, d, M, H = _int("T", T), _int("d", d), _int("M", M), _int("H", H)
    dm = make_dm1(T, d, M, S=float(S), zeta=float(zeta), z_mu=0.05, z_nu=0.2,
                  z_perp_norm=0.3 if d > M + 2 else 0.0)
    s1 = dm.sample(_int("n1", n1), seed=seed)
    p1, alphas = D.first_phase(s1.X, s1.y, H, "full", seed=seed + 1, loss="logistic")
    Ubar = dm.U_star / np.linalg.norm(dm.U_star)
    Wbar = dm.W_star / np.linalg.norm(dm.W_star)
    V = D.MHAParams(np.stack([Ubar] * H), np.stack([np.sign(a) * Wbar for a in alphas]), "full")
    s2 = dm.sample(16, seed=seed + 2)
    return D, p1, V, s2.X, s2.y


def _margin_fd(D, params, V, X, y) -> float:
    """sum_i y_i <grad Phi~(X_i; params), V> by central differences (step 1e-5) of the model's
    forward pass (eq. (2), its 1/sqrt(H) included)."""
    import numpy as np
    h = 1e-5
    up = D.MHAParams(params.U + h * V.U, params.W + h * V.W, params.decoder)
    dn = D.MHAParams(params.U - h * V.U, params.W - h * V.W, params.decoder)
    return float(np.sum(y * (D.forward(up, X) - D.forward(dn, X))) / (2 * h))


@_register("deora2023.sec52_margin_scale", ("H", "T", "d", "M", "n1", "zeta", "S"),
           "the scale c for which the H-head target c concat(theta_*(theta_h^(1))) has the multi-head NTK "
           "margin sum_i y_i <grad Phi~(X_i; theta~^(1)), .> equal to the mean over heads of the single-head "
           "margins sum_i y_i <grad Phi(X_i; theta_h^(1)), theta_*(theta_h^(1))>: c = (mean single-head "
           "margin)/(multi-head margin of the unscaled concat), both by central differences of the engine's "
           "forward pass (eq. (2) with H heads; one head for the single-head model), first-phase heads on "
           "DM1 (small noise), 16 fresh inputs")
def _sec52_margin_scale(*, H, T, d, M, n1, zeta, S, seed):
    D, p1, V, X, y = _sec52_target(H=H, T=T, d=d, M=M, n1=n1, zeta=zeta, S=S, seed=seed)
    multi = _margin_fd(D, p1, V, X, y)
    single = [_margin_fd(D, D.MHAParams(p1.U[h:h + 1], p1.W[h:h + 1], "full"),
                         D.MHAParams(V.U[h:h + 1], V.W[h:h + 1], "full"), X, y) for h in range(p1.H)]
    return float(sum(single) / len(single) / multi)


# ----------------------------------------------------------------------------- anon2025
@_register("anon2025.rademacher_rows_ratio", ("N", "d_s", "d_m", "K"),
           "R_S(F) / ((1/d_s) sum_i R_S(G_i)) for the class of K LeCun-initialised parameter sets "
           "(a finite subclass of F_R for R large enough) on N Gaussian inputs X_n in R^{d_s x d_m}: "
           "f = (1/d_s) sum_i g_i with g_i(X) = w_O^T sigma_r(row i of the attention output) (Sec. 3.1.2), "
           "each empirical Rademacher complexity (1/N) E_eps max_k sum_n eps_n h_k(X_n) computed exactly "
           "over all 2^N sign vectors")
def _rademacher_rows_ratio(*, N, d_s, d_m, K, seed):
    import itertools

    import numpy as np

    from . import anon2025 as A
    N, ds, dm, K = _int("N", N), _int("d_s", d_s), _int("d_m", d_m), _int("K", K)
    from ..errors import BoundcalcError
    if N > 16:
        raise BoundcalcError(f"anon2025.rademacher_rows_ratio enumerates 2^N sign vectors: N = {N} > 16")
    X = np.random.default_rng(seed).standard_normal((N, ds, dm))
    rows = np.empty((K, N, ds))                 # g_{k,i}(X_n)
    for k in range(K):
        p = A.init_lecun(dm, dm, seed + 1 + k)
        rows[k] = np.maximum(A._forward(p, X).Z, 0.0) @ p.wO
    eps = np.array(list(itertools.product((-1.0, 1.0), repeat=N)))     # (2^N, N)

    def rad(vals):                              # vals (K, N): (1/N) E max_k sum_n eps_n vals[k, n]
        return float(np.mean(np.max(eps @ vals.T, axis=1)) / N)
    r_f = rad(rows.mean(axis=2))
    r_g = np.mean([rad(rows[:, :, i]) for i in range(ds)])
    return r_f / r_g


# ----------------------------------------------------------------------------- tarzanagh2023
@_register("tarzanagh2023.lemma11_witness_margin", ("n", "T", "d", "rank", "gamma_bar", "gap_pair"),
           "(k_{1 opt_1} - k_{12})^T p for Lemma 11's witness p = gamma_bar^{-1} (W^T)^+ v (NumPy pinv; "
           "gamma_bar the least gap gamma_{i opt_i} - gamma_it computed from the data), keys k_it = W x_it, "
           "on n Gaussian inputs of T tokens in R^d with Y_i = 1, a Gaussian d x d W of rank `rank` and v = W^T w in "
           "range(W^T); the tokens are moved along v so that the scores v^T x_it have least gap gamma_bar "
           "(attained at input 2, token 2) and gap gap_pair at input 1, token 2 (opt_i = token 1)")
def _lemma11_witness_margin(*, n, T, d, rank, gamma_bar, gap_pair, seed):
    import numpy as np

    from ..errors import BoundcalcError
    from .tarzanagh2023.model import keys
    n, T, d, r = _int("n", n), _int("T", T), _int("d", d), _int("rank", rank)
    gb, gp = float(gamma_bar), float(gap_pair)
    if n < 2 or T < 2 or not 1 <= r <= d or not 0 < gb <= gp:
        raise BoundcalcError("tarzanagh2023.lemma11_witness_margin needs n >= 2, T >= 2, "
                             "1 <= rank <= d and 0 < gamma_bar <= gap_pair")
    g = np.random.default_rng(seed)
    W = g.standard_normal((d, r)) @ g.standard_normal((r, d))        # rank r (almost surely)
    v = W.T @ g.standard_normal(d)                                    # v in range(W^T)
    X = g.standard_normal((n, T, d))
    gaps = gb + g.uniform(0.0, 1.0, size=(n, T))                      # gamma_{i1} - gamma_it >= gamma_bar
    gaps[:, 0] = 0.0
    gaps[0, 1], gaps[1, 1] = gp, gb
    target = g.standard_normal((n, 1)) - gaps                         # scores: token 1 the optimum
    X += ((target - X @ v) / (v @ v))[:, :, None] * v                 # now v^T x_it = target_it
    scores = X @ v                                                    # gamma_it (Y_i = 1)
    opt = np.argmax(scores, axis=1)
    others = np.ones((n, T), dtype=bool)
    others[np.arange(n), opt] = False
    gbar = float(np.min((scores[np.arange(n), opt][:, None] - scores)[others]))
    p = np.linalg.pinv(W.T) @ v / gbar
    K = keys(X, W)                                                    # k_it = W x_it
    return float((K[0, opt[0]] - K[0, 1]) @ p)
