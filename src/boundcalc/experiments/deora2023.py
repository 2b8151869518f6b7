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

import math
import time
from typing import Any

import mpmath
import numpy as np

from ..errors import BoundcalcError
from . import Reproduction
from .settings import as_bool, as_float, as_int, bad, check_known

PAPER = "deora2023"

# ----------------------------------------------------------------------------- settings
# name -> (default, help)
SETTINGS: dict[str, tuple[object, str]] = {
    "T": (8, "context length (tokens per sequence)"),
    "d": (16, "token dimension (needs d >= M + 3 when z_perp > 0)"),
    "M": (4, "number of label-irrelevant patterns nu_1..nu_M"),
    "S": (1.0, "signal strength: norm of every pattern"),
    "zeta": (0.5, "fraction of label-relevant tokens (zeta*T must be an integer)"),
    "z_mu": (0.05, "noise level: |<z, mu_+->| <= z_mu (uniform)"),
    "z_nu": (0.05, "noise level: |<z, nu_l>| <= z_nu / M (uniform)"),
    "z_perp": (0.1, "norm of the noise component orthogonal to the patterns"),
    "H": (32, "number of heads"),
    "decoder": ("full", "decoder form: full | pooling | last"),
    "n1": (200, "first-phase samples"),
    "n": (200, "second-phase (training) samples"),
    "K": (100, "second-phase GD steps"),
    "eta": (1.0, "second-phase step size"),
    "n_test": (2000, "test samples (for the test loss)"),
    "delta": (0.05, "failure probability delta in Prop. 2 / Lemma 2"),
    "eps": (0.01, "softmax leakage eps of Prop. 3 (for gamma_attn(eps))"),
    "P": ("measured", "first-phase error bound P of Lemma 2: 'measured' (realised ||p||, see notes), "
                      "'lemma2' (eq. (6) with its constant C = 1) or a number >= 0"),
    "dtype": ("float64", "precision of the second-phase GD steps: float64 | float32 (deora2023-dm1 in "
                         "float32 also trains its first seed in float64 and records the difference)"),
}

_INT = ("T", "d", "M", "H", "n1", "n", "K", "n_test")
_POS = ("S", "eta")
_NONNEG = ("z_mu", "z_nu", "z_perp")
# The float64 engine forms products up to about the 8th power of the token scale (the NTK
# Gram of the attention gradients: features ~ ||x||^3 U, squared), and DM1 divides by S^2:
# outside these decades they overflow or underflow to 0 and the measurements are NaN.  At
# 1e30 the 8th power is 1e240, which leaves 1e68 for the sizes (n, T, H, d) in the sums.
SCALE_RANGE = (1e-30, 1e30)


def parse_settings(settings: dict) -> dict:
    """Defaults + ``settings`` (strings from the CLI allowed), converted and validated."""
    check_known(settings, SETTINGS, PAPER)
    s = {k: v[0] for k, v in SETTINGS.items()}
    s.update(settings)
    out: dict[str, Any] = {}
    for k in _INT:
        out[k] = as_int(k, s[k])
        if out[k] < 1:
            bad(k, f"must be a positive integer, got {s[k]!r}")
    for k in ("S", "zeta", "z_mu", "z_nu", "z_perp", "eta", "delta", "eps"):
        out[k] = as_float(k, s[k])
    for k in _POS:
        if out[k] <= 0:
            bad(k, f"must be > 0, got {s[k]!r}")
    for k in _NONNEG:
        if out[k] < 0:
            bad(k, f"must be >= 0, got {s[k]!r}")
    lo, hi = SCALE_RANGE
    if not lo <= out["S"] <= hi:
        bad("S", f"S = {s['S']} is outside [{lo:g}, {hi:g}], the token scales the float64 engine can "
                 "represent for this model (its NTK Gram grows like the 8th power of the token norm)")
    for k in ("z_mu", "z_nu", "z_perp"):
        if out[k] > hi:
            bad(k, f"{k} = {s[k]} is above {hi:g}, the largest token scale the float64 engine can represent "
                   f"for this model (valid: 0 <= {k} <= {hi:g})")
    for k in ("zeta", "delta", "eps"):
        if not 0 < out[k] < 1:
            bad(k, f"must lie in (0, 1), got {s[k]!r}")
    dec = str(s["decoder"]).strip()
    if dec not in ("full", "pooling", "last"):
        bad("decoder", f"must be one of full, pooling, last; got {s['decoder']!r}")
    out["decoder"] = dec
    P = s["P"]
    if isinstance(P, str) and P.strip() in ("measured", "lemma2"):
        out["P"] = P.strip()
    else:
        try:
            out["P"] = as_float("P", P)
        except BoundcalcError:
            bad("P", f"must be 'measured', 'lemma2' or a number >= 0, got {P!r}")
        if out["P"] < 0:
            bad("P", f"must be >= 0, got {P!r}")
    k = out["zeta"] * out["T"]
    if abs(k - round(k)) > 1e-9 or round(k) < 1:
        bad("zeta", f"zeta * T = {k:g} must be a positive integer (|R| = zeta T)")
    if out["d"] < out["M"] + 2:
        bad("d", f"d = {out['d']} is too small: DM1 needs d >= M + 2 = {out['M'] + 2}")
    if out["z_perp"] > 0 and out["d"] < out["M"] + 3:
        bad("d", f"d = {out['d']} leaves no room for orthogonal noise: z_perp > 0 needs d >= M + 3 = {out['M'] + 3}")
    from .precision import parse_dtype
    out["dtype"] = parse_dtype(s["dtype"], bad)
    return out


# ----------------------------------------------------------------------------- measurement
def _first_phase_vector(theta1, alphas, T: int) -> np.ndarray:
    """The vector v with U_h^(1) = alpha_h 1_T v^T (Lemma 2), read off head 0."""
    U0 = theta1.U[0]
    if theta1.decoder == "full":
        return U0[0] / alphas[0]
    if theta1.decoder == "pooling":          # u_h = alpha_h T v
        return U0 / (alphas[0] * T)
    return U0 / alphas[0]                    # 'last': u_h = alpha_h v


def measure(config: dict) -> dict:
    """Train the two-phase scheme at one configuration and return every measured number.

    ``config`` = parsed settings + ``seed``.  Module-level and JSON-in/JSON-out so that it can
    be run by ``boundcalc.reports.sweep.run``.  One generator (seeded by ``seed``) draws, in
    order: the first-phase sample, the second-phase sample, the test sample, the alphas.
    """
    from ..engine import deora2023 as E

    c = parse_settings({k: v for k, v in config.items() if k != "seed"})
    prep = _prepare(c, int(config.get("seed", 0)))
    t1 = time.process_time()
    run = E.train(prep["theta1"], prep["s"].X, prep["s"].y, eta=c["eta"], steps=c["K"], dtype=c["dtype"])
    return _measured(c, prep, run, time.process_time() - t1)


def measure_seeds(config: dict) -> list[dict]:
    """:func:`measure` for every seed of ``config["seeds"]`` (one shape: the same settings),
    with the second-phase GD of all of them run as one batch (``engine.deora2023.train_batch``,
    the seed a leading batch axis); each point equals :func:`measure` of its seed alone (to
    rounding, tested to 1e-12), except ``train_cpu_seconds``, the batch's CPU time shared
    equally.  If the batch diverges, each seed is run alone, so that the divergence is
    reported as for one point (naming its seed)."""
    from ..engine import deora2023 as E
    from ..engine.budget import Divergence
    from ..reports.sweep import _call

    seeds = [int(x) for x in config["seeds"]]
    one = {k: v for k, v in config.items() if k != "seeds"}
    c = parse_settings(one)
    preps = [_prepare(c, sd) for sd in seeds]
    t1 = time.process_time()
    try:
        runs = E.train_batch([p["theta1"] for p in preps], np.stack([p["s"].X for p in preps]),
                             np.stack([p["s"].y for p in preps]), eta=c["eta"], steps=c["K"], dtype=c["dtype"])
    except Divergence:
        return [_call(measure, dict(one, seed=sd)) for sd in seeds]
    cpu = (time.process_time() - t1) / len(seeds)
    return [_measured(c, p, r, cpu) for p, r in zip(preps, runs)]


def _prepare(c: dict, seed: int) -> dict:
    """Everything of a point before the second phase: the samples, theta^(1) and its NTK margin."""
    from ..engine import deora2023 as E
    from ..engine import ops
    from ..engine.data import dm1

    D = dm1.make_dm1(c["T"], c["d"], c["M"], c["S"], c["zeta"], z_mu=c["z_mu"], z_nu=c["z_nu"],
                     z_perp_norm=c["z_perp"])
    g = ops.rng(seed)
    s1 = D.sample(c["n1"], g)
    s = D.sample(c["n"], g)
    st = D.sample(c["n_test"], g)
    alphas = g.choice(np.array([-1.0, 1.0]), size=c["H"])
    theta1, _ = E.first_phase(s1.X, s1.y, c["H"], c["decoder"], alphas=alphas)
    return {"seed": seed, "D": D, "s": s, "st": st, "alphas": alphas, "theta1": theta1,
            "ntk": E.ntk_margin(theta1, s.X, s.y)}


def _measured(c: dict, prep: dict, run, train_cpu_seconds: float) -> dict:
    """The point's numbers from its preparation and its second-phase run."""
    from ..engine import deora2023 as E

    s, st, D, theta1, ntk = prep["s"], prep["st"], prep["D"], prep["theta1"], prep["ntk"]
    pK = run.params
    marg = E.margins(pK, s.X, s.y)
    unorm = float(np.linalg.norm(pK.U))
    v = _first_phase_vector(theta1, prep["alphas"], c["T"])
    p_actual = float(np.linalg.norm(v - (c["zeta"] / 4.0) * D.u_star))
    p_printed = float(np.linalg.norm(v - (c["zeta"] / 2.0) * D.u_star))
    train_loss = E.loss(pK, s.X, s.y)
    test_loss = E.loss(pK, st.X, st.y)
    test_err = float(np.mean(st.y * E.forward(pK, st.X) <= 0))
    return {
        "seed": prep["seed"], "n": c["n"], "H": c["H"], "K": c["K"],
        "R": s.R, "Z": s.Z, "Z_mu": s.Z_mu, "Z_nu": s.Z_nu,
        "max_token_norm": float(np.max(np.linalg.norm(s.X, axis=2))),
        "B_2": E.B2(theta1), "B_Phi": E.B_Phi(theta1, s.X),
        "gamma_ntk": float(ntk.gamma), "ntk_status": ntk.status,
        "p_norm": p_actual, "p_norm_printed_lemma2": p_printed,
        "margin_min": float(np.min(marg)), "decoder_norm": unorm,
        "margin_normalised": float(np.min(marg)) / unorm,
        "train_loss_start": float(run.train_loss[0]) if c["K"] else train_loss,
        "train_loss": float(train_loss), "test_loss": float(test_loss),
        "gap": float(test_loss - train_loss), "test_error": test_err,
        "dist": E.distance(pK, theta1).total,
        "dtype": c["dtype"], "train_cpu_seconds": train_cpu_seconds,
    }


# ----------------------------------------------------------------------------- bounds
def _f(fid):
    from .. import formula
    return formula(f"{PAPER}.{fid}")


def _num(x) -> str:
    """A float as an exact decimal string for boundcalc (avoids binary noise in Fractions)."""
    return repr(float(x))


def bounds_for(c: dict, m: dict) -> dict:
    """Evaluate the paper's formulas at the measured inputs ``m`` and settings ``c``.

    Returns a dict of boundcalc Values / numbers (and the inputs actually used)."""
    S, T, M, zeta, n, K, d = c["S"], c["T"], c["M"], c["zeta"], c["n"], c["K"], c["d"]
    R = max(1.0, m["R"], m["max_token_norm"])        # Assumption 1 needs R >= 1 (symbol domain)
    out: dict[str, Any] = {"R_used": R}
    if c["P"] == "measured":
        P = m["p_norm"]
        out["P_source"] = "realised ||p|| = ||v - (zeta/4) u_*|| (see notes)"
    elif c["P"] == "lemma2":
        Pv = _f("P_lemma2").evaluate(S=_num(S), Z=_num(m["Z"]), d=d, n1=c["n1"], delta=_num(c["delta"]))
        P = float(Pv)
        out["P_source"] = f"Lemma 2, eq. (6), {Pv.qualifier}"
    else:
        P = float(c["P"])
        out["P_source"] = "given"
    out["P"] = P
    noise = dict(Z=_num(m["Z"]), Z_mu=_num(m["Z_mu"]), Z_nu=_num(m["Z_nu"]))
    out["gamma_star"] = _f("gamma_star").evaluate(M=M, P=_num(P), S=_num(S), T=T, zeta=_num(zeta), **noise)
    out["gamma_prop2"] = _f("gamma_prop2").evaluate(M=M, P=_num(P), S=_num(S), T=T, zeta=_num(zeta), **noise)
    out["B2_prop2"] = _f("B2").evaluate(P=_num(P), S=_num(S), T=T)
    out["BPhi_prop2"] = _f("B_Phi").evaluate(P=_num(P), R=_num(R), S=_num(S), T=T, n=n, delta=_num(c["delta"]))
    out["gamma_attn"] = _f("gamma_attn").evaluate(S=_num(S), T=T, Z_mu=noise["Z_mu"], eps=_num(c["eps"]))
    out["gamma_attn_limit"] = _f("gamma_attn_limit").evaluate(S=_num(S), T=T)
    out["noise_prop3"] = bool(_f("noise_prop3").holds(S=_num(S), Z_mu=_num(max(m["Z_mu"], m["Z_nu"]))))
    # Cor. 2 with the measured good-initialisation constants (P1-P3 hold with these values)
    gamma = m["gamma_ntk"]
    out["cor2_applicable"] = gamma > 0 and K >= 1
    B_Phi = max(1.0, m["B_Phi"])                      # P2 with any B_Phi >= measured; domain B_Phi >= 1
    B_2 = max(1.0, m["B_2"])
    out["B_Phi_used"], out["B_2_used"] = B_Phi, B_2
    if out["cor2_applicable"]:
        g = dict(B_Phi=_num(B_Phi), K=K, gamma=_num(gamma))
        out["g0"] = _f("g0").evaluate(**g)
        out["train_loss_cor2"] = _f("train_loss_cor2").evaluate(eta=_num(c["eta"]), **g)
        out["gen_gap_cor2"] = _f("gen_gap_cor2").evaluate(eta=_num(c["eta"]), n=n, **g)
        hc = _f("heads_cor2")
        out["H_cor2"] = int(hc.solve("H", B_2=_num(B_2), R=_num(R), T=T, d=d, **g).value)
        ec = _f("eta_cor2")
        _, rhs = ec.sides(eta=_num(c["eta"]), R=_num(R), T=T, d=d, **g)
        out["eta_max_cor2"] = rhs
        out["eta_ok"] = bool(ec.holds(eta=_num(c["eta"]), R=_num(R), T=T, d=d, **g))
        dist0 = out["g0"].mpf
        out["iterate_dist_thm1"] = _f("iterate_dist_thm1").evaluate(dist0=dist0)
        out["H_thm1_sketch"] = int(_f("heads_thm1_sketch").solve(
            "H", R=_num(R), T=T, d=d, dist0=dist0, theta_2inf=mpmath.mpf(_num(m["B_2"])) + dist0).value)
    gs = out["gamma_star"].mpf
    if gs > 0:
        out["H_prop2"] = int(_f("heads_prop2").solve("H", P=_num(P), R=_num(R), S=_num(S), T=T, n=n,
                                                    delta=_num(c["delta"]), gamma_star=gs).value)
    else:
        out["H_prop2"] = None
    return out


# ----------------------------------------------------------------------------- compare
def _const(v) -> str:
    q = v.qualifier
    return q if q == "exact constant" else q


def compare(*, seed: int = 0, jobs: int = 1, cache_dir=None, **settings):
    """Bounds of Deora et al. (2023) beside measurements on DM1 (see the module docstring)."""
    from ..reports.table import Row, Table, diverged_table

    c = parse_settings(settings)
    seed = as_int("seed", seed)
    from ..engine.budget import Divergence, check_memory, numpy_quiet
    from ..engine.deora2023 import memory_estimate
    check_memory(memory_estimate(c), f"{PAPER} compare (n1={c['n1']}, n={c['n']}, n_test={c['n_test']}, "
                                     f"T={c['T']}, d={c['d']}, H={c['H']}, K={c['K']})")
    try:
        with numpy_quiet():
            m = measure({**c, "seed": seed})
    except Divergence as e:
        return diverged_table(PAPER, "Deora et al. (2023) on DM1", c, seed, run="second-phase GD",
                              source="Sec. 5.1", error=e, step_name="eta", step_value=c["eta"])
    b = bounds_for(c, m)
    H, eta = c["H"], c["eta"]
    rows: list[Row] = []
    rows.append(Row("first-phase error ||p|| (P used in (7))", "Lemma 2, eq. (6)", latex=r"first-phase error $\|p\|$ ($P$ used in (7))", bound=b["P"],
                    measured=m["p_norm"], kind="info",
                    formula="deora2023.P_lemma2" if c["P"] == "lemma2" else "",
                    constant="up to the absolute constant C (= 1)" if c["P"] == "lemma2" else "",
                    note=f"P: {b['P_source']}. Realised U_h^(1) = alpha_h 1_T v^T with v ~ (zeta/4) u_* "
                         f"(logistic -l'(0) = 1/2); Lemma 2 prints (zeta/2) u_*, from which "
                         f"||v - (zeta/2) u_*|| = {m['p_norm_printed_lemma2']:.4g}."))
    # P3: NTK margin after phase 1
    gs = b["gamma_star"]
    rows.append(Row("NTK margin of theta^(1): gamma_*/2 <= gamma_NTK", "Prop. 2 (P3), eq. (7)", latex=r"NTK margin of $\theta^{(1)}$: $\gamma_*/2 \leq \gamma_{\mathrm{NTK}}$",
                    bound=b["gamma_prop2"], measured=m["gamma_ntk"], kind="lower",
                    formula="deora2023.gamma_prop2", hypotheses_met=(H >= b["H_prop2"]) if b["H_prop2"] else False,
                    hypotheses=(f"needs sqrt(H) >~ R^4 T (S+P) sqrt(2 log(n/delta)) / gamma_* (C = 1): "
                                f"H >= {b['H_prop2']}, used H = {H}" if b["H_prop2"]
                                else f"gamma_* = {mpmath.nstr(gs.mpf, 4)} <= 0: Prop. 2 asserts no positive margin"),
                    constant=_const(gs),
                    note="measured: max over ||theta*|| = sqrt 2 of min_i y_i ⟨∇Phi~(X_i; theta^(1)), theta*⟩ "
                         "on the n second-phase samples (hard-margin SVM on the NTK Gram); the paper claims "
                         "gamma_NTK >= gamma_*/2 with probability 1 - delta over the alphas. "
                         "gamma_* itself = " + mpmath.nstr(gs.mpf, 6) + "."))
    # P1, P2
    rows.append(Row("B_2 = max_h ||theta_h^(1)||", "Prop. 2 (P1)", latex=r"$B_2 = \max_h \|\theta_h^{(1)}\|$", bound=b["B2_prop2"], measured=m["B_2"],
                    formula="deora2023.B2", constant=_const(b["B2_prop2"]), hypotheses_met=True,
                    hypotheses="almost surely, given ||p|| <= P",
                    note="bound sqrt(T)(S + P) assumes Lemma 2's leading term (zeta/2) u_*"))
    rows.append(Row("B_Phi = max_i |Phi~(X_i; theta^(1))|", "Prop. 2 (P2)", latex=r"$B_\Phi = \max_i |\tilde\Phi(X_i; \theta^{(1)})|$", bound=b["BPhi_prop2"],
                    measured=m["B_Phi"], formula="deora2023.B_Phi", constant=_const(b["BPhi_prop2"]),
                    hypotheses_met=True, hypotheses=f"probability 1 - delta, delta = {c['delta']}",
                    note=f"R = {b['R_used']:.4g} (realised, Assumption 3)"))
    # margins GD reaches
    na = b["noise_prop3"]
    rows.append(Row("margin reached by GD vs gamma_attn(eps)", "Prop. 3, eq. (11)", latex=r"margin reached by GD vs $\gamma_{\mathrm{attn}}(\epsilon)$", bound=b["gamma_attn"],
                    measured=m["margin_normalised"], kind="info", formula="deora2023.gamma_attn",
                    constant=_const(b["gamma_attn"]), hypotheses_met=na,
                    hypotheses=f"Z_mu = Z_nu <= S^2/8 (realised Z̄ = {max(m['Z_mu'], m['Z_nu']):.3g})",
                    note=f"eps = {c['eps']}. measured: min_i y_i Phi~(X_i; theta^(K+1)) / ||U~^(K+1)||_F "
                         f"(margin per unit decoder norm; unnormalised min margin {m['margin_min']:.4g}, "
                         f"||U~|| = {m['decoder_norm']:.4g}). gamma_attn is what saturated attention "
                         f"achieves (Prop. 3); the paper asks whether GD reaches it: not a bound on GD."))
    rows.append(Row("margin reached by GD vs gamma_attn (eps -> 0)", "Sec. 5.3, after eq. (11)", latex=r"margin reached by GD vs $\gamma_{\mathrm{attn}}$ ($\epsilon \to 0$)",
                    bound=b["gamma_attn_limit"], measured=m["margin_normalised"], kind="info",
                    formula="deora2023.gamma_attn_limit", constant=_const(b["gamma_attn_limit"]),
                    note="same normalisation as the row above"))
    if b["cor2_applicable"]:
        hyp_H = H >= b["H_cor2"]
        hyp_eta = b["eta_ok"]
        met = bool(hyp_H and hyp_eta)
        hyp = (f"needs H >= {_fmt_int(b['H_cor2'])} (C = 1), used H = {H}; "
               f"needs eta <= {mpmath.nstr(b['eta_max_cor2'].mpf, 3)}, used eta = {eta}")
        inputs = (f"evaluated with the measured gamma = gamma_NTK = {m['gamma_ntk']:.4g}, "
                  f"B_Phi = {b['B_Phi_used']:.4g} (max(1, measured)), K = {c['K']}, eta = {eta}")
        rows.append(Row("train loss L̂(theta^(K))", "Cor. 2", latex=r"\text{train loss } \widehat L(\tilde\theta^{(K)})", bound=b["train_loss_cor2"],
                        measured=m["train_loss"], formula="deora2023.train_loss_cor2",
                        hypotheses_met=met, hypotheses=hyp, constant=_const(b["train_loss_cor2"]),
                        note=inputs))
        rows.append(Row("generalization gap L(theta^(K)) - L̂(theta^(K))", "Cor. 2",
                        latex=r"\text{generalization gap } L(\tilde\theta^{(K)}) - \widehat L(\tilde\theta^{(K)})",
                        bound=b["gen_gap_cor2"], measured=m["gap"], formula="deora2023.gen_gap_cor2",
                        hypotheses_met=met, hypotheses=hyp, constant=_const(b["gen_gap_cor2"]),
                        note=f"the bound is on the expected gap; measured: one realisation, test loss on "
                             f"n_test = {c['n_test']} fresh samples minus train loss. " + inputs))
        rows.append(Row("iterate distance ||theta^(K) - theta^(1)||", "Thm. 1, eq. (4)", latex=r"iterate distance $\|\theta^{(K)} - \theta^{(1)}\|$",
                        bound=b["iterate_dist_thm1"], measured=m["dist"], formula="deora2023.iterate_dist_thm1",
                        hypotheses_met=bool(H >= b["H_thm1_sketch"] and hyp_eta),
                        hypotheses=f"target at distance g_0(1/K) = {mpmath.nstr(b['g0'].mpf, 4)} "
                                   f"(Cor. 2's realizing parameter); H >= {_fmt_int(b['H_thm1_sketch'])} "
                                   f"(sketch condition), used H = {H}",
                        constant=_const(b["iterate_dist_thm1"]),
                        note="bound 4 ||theta - theta^(0)|| with ||theta - theta^(0)|| = g_0(1/K)"))
        rows.append(Row("heads: Cor. 2 (good initialization)", "Cor. 2", bound=b["H_cor2"], measured=H,
                        kind="condition", formula="deora2023.heads_cor2",
                        constant="up to absolute constant C (= 1)",
                        hypotheses="sqrt(H) >~ d sqrt(T) R^5 B_2^2 g_0(1/K)^3"))
        rows.append(Row("heads: Thm. 1 (explicit, from the proof sketch)", "Sec. 6.1, (18) + Lemma 10",
                        bound=b["H_thm1_sketch"], measured=H, kind="condition",
                        formula="deora2023.heads_thm1_sketch", constant="exact constant",
                        note="||theta~||_{2,∞} := B_2 + g_0(1/K) (upper bound for the target)"))
        rows.append(Row("step size: Cor. 2 (required max eta vs eta used)", "Cor. 2", latex=r"step size: Cor.~2 (required max $\eta$ vs $\eta$ used)",
                        bound=b["eta_max_cor2"], measured=eta, kind="condition", holds=hyp_eta,
                        formula="deora2023.eta_cor2", constant=_const(b["eta_max_cor2"]),
                        note="holds iff eta used <= required maximum (rho(K) with C = 1)"))
    else:
        rows.append(Row("Cor. 2 bounds", "Cor. 2", kind="info",
                        note=f"not evaluated: measured NTK margin gamma = {m['gamma_ntk']:.4g} is not positive "
                             f"(data not NTK-separable at theta^(1)) or K = 0"))
    rows.append(Row("heads: Prop. 2 (P3)", "Prop. 2 (P3)", bound=b["H_prop2"], measured=H, kind="condition",
                    formula="deora2023.heads_prop2", constant="up to absolute constant C (= 1)",
                    holds=(H >= b["H_prop2"]) if b["H_prop2"] is not None else False,
                    note="" if b["H_prop2"] is not None else "gamma_* <= 0: no H satisfies it"))
    rows.append(Row("noise: Prop. 3 (Z̄ <= S^2/8)", "Prop. 3", latex=r"noise: Prop.~3 ($\bar Z \leq S^2/8$)", bound=c["S"] ** 2 / 8,
                    measured=max(m["Z_mu"], m["Z_nu"]), kind="condition", holds=na,
                    formula="deora2023.noise_prop3", constant="exact constant",
                    note="holds iff measured noise level <= bound"))
    settings_used = dict(c)
    notes = [
        f"DM1 with patterns S e_1..S e_(M+2); noise uniform (engine.data.dm1); realised R = {m['R']:.4g}, "
        f"Z = {m['Z']:.4g}, Z_mu = {m['Z_mu']:.4g}, Z_nu = {m['Z_nu']:.4g}.",
        f"train loss before phase 2 {m['train_loss_start']:.4g}, after {m['train_loss']:.4g}; test loss "
        f"{m['test_loss']:.4g}, test error {m['test_error']:.4g}.",
        "Hidden constants of >~ / <~ are set to 1 (column 'constant').",
        "Lemma 2 prints U_h^(1) = alpha_h 1_T ((zeta/2) u_* + p)^T; with the logistic loss the realised leading "
        "term is (zeta/4) u_* (factor -l'(0) = 1/2). P = 'measured' uses ||v - (zeta/4) u_*||, the estimation "
        "error Lemma 2 intends.",
    ]
    return Table(paper=PAPER, title="Deora et al. (2023) on DM1: bounds beside measurements",
                 settings=settings_used, seed=seed, rows=rows, notes=notes)


def _fmt_int(x) -> str:
    x = int(x)
    return str(x) if x < 10 ** 6 else mpmath.nstr(mpmath.mpf(x), 3)


# ----------------------------------------------------------------------------- reproduction
def dm1_point(config: dict) -> dict:
    """One (n, seed) point of the sweep: measurements + Cor. 2 bounds as floats (None if N/A)."""
    return _with_bounds(config, measure(config))


def dm1_points(config: dict) -> dict:
    """The points of every seed of ``config["seeds"]`` at one n, their second phases run as
    one batch (:func:`measure_seeds`): {"points": [dm1_point of each seed]}."""
    return {"points": [_with_bounds(config, m) for m in measure_seeds(config)]}


def _with_bounds(config: dict, m: dict) -> dict:
    c = parse_settings({k: v for k, v in config.items() if k not in ("seed", "seeds")})
    b = bounds_for(c, m)

    def fl(k):
        v = b.get(k)
        if v is None:
            return None
        x = getattr(v, "mpf", v)
        try:
            f = float(x)
        except (OverflowError, TypeError):
            return None
        return f if math.isfinite(f) else None

    m.update({"gamma_star": fl("gamma_star"), "gamma_prop2": fl("gamma_prop2"),
              "train_loss_cor2": fl("train_loss_cor2"), "gen_gap_cor2": fl("gen_gap_cor2"),
              "gamma_attn_limit": fl("gamma_attn_limit"),
              "H_cor2_log10": (math.log10(int(b["H_cor2"])) if b.get("H_cor2") else None),
              "H_prop2_log10": (math.log10(int(b["H_prop2"])) if b.get("H_prop2") else None),
              "eta_max_cor2": fl("eta_max_cor2")})
    return m


# The seeds of one n run as one batch up to this n: there a step is dominated by per-call
# work and the batch pays (CPU time per step, H = 32, 5 seeds, loaded machine: 1.6x at
# n = 100-400, 1.2x at n = 800); above it each seed is its own sweep task, so that the largest
# points, which dominate a --full run, still spread over the workers.
BATCH_MAX_N = 800

PRECISION_METRICS = (("train_loss", "train loss after K steps"), ("test_loss", "test loss"),
                     ("margin_normalised", "normalised margin"))


def run_dm1(*, seed: int = 0, full: bool = False, jobs: int = 1, backend: str = "loky",
            scheduler: str | None = None, cache_dir=None, plot_dir=None, progress: bool = True,
            ns=None, seeds: int | None = None, k_equals_n=None, **settings) -> dict:
    """Reproduction 'deora2023-dm1': margins and losses on DM1 vs the second-phase sample size n.

    Default ns = (100, 200, 400, 800), 3 seeds (seed, seed+1, ...); ``full=True``: ns up to 3200,
    5 seeds, K = n (Cor. 2 applied with K = n, as in the paper's discussion after Prop. 2);
    ``k_equals_n=True`` uses K = n at any sizes.
    ``ns``/``seeds``/settings override (tests shrink them)."""
    from ..reports import sweep

    if ns is None:
        ns = (100, 200, 400, 800, 1600, 3200) if full else (100, 200, 400, 800)
    if isinstance(ns, str):
        ns = [as_int("ns", t) for t in ns.split(",") if t.strip()]
    ns = [as_int("ns", x) for x in ns]
    if not ns or min(ns) < 1:
        raise BoundcalcError(f"option --ns: needs positive integers, got {ns!r}")
    nseeds = as_int("seeds", seeds if seeds is not None else (5 if full else 3))
    if nseeds < 1:
        raise BoundcalcError(f"option --seeds: must be >= 1, got {seeds!r}")
    base = parse_settings(settings)
    K_eq_n = (full if k_equals_n is None else as_bool("k_equals_n", k_equals_n)) and "K" not in settings
    configs = []     # the seeds of a small n as one batch (dm1_points); a large n one task per seed
    for n in ns:
        seeds_n = [int(seed) + k for k in range(nseeds)]
        for group in ([seeds_n] if n <= BATCH_MAX_N else [[sd] for sd in seeds_n]):
            cfg = {**base, "n": n, "seeds": group}
            if K_eq_n:
                cfg["K"] = n
            configs.append(cfg)
    from ..engine.budget import check_memory
    from ..engine.deora2023 import memory_estimate
    # a batch holds every seed's samples and parameters; NTK Grams are built one at a time
    need = lambda c: memory_estimate(c) + (len(c["seeds"]) - 1) * (memory_estimate(c) - 2e8)
    big = max(configs, key=need)
    check_memory(need(big), f"deora2023-dm1 batch of {len(big['seeds'])} seed(s) (n1={big['n1']}, n={big['n']}, "
                            f"n_test={big['n_test']}, T={big['T']}, d={big['d']}, H={big['H']}, K={big['K']})")
    res = [pt for grp in sweep.run(dm1_points, configs, jobs=jobs, backend=backend, scheduler=scheduler,
                                   cache_dir=cache_dir, progress=progress, desc="deora2023-dm1")
           for pt in grp["points"]]
    accuracy = None
    if base["dtype"] != "float64":       # the first seed again in float64: what float32 changed
        from .precision import precision_check
        ref = [pt for grp in sweep.run(dm1_points, [dict(c, dtype="float64", seeds=[int(seed)]) for c in configs
                                                if int(seed) in c["seeds"]],
                                       jobs=jobs, backend=backend, scheduler=scheduler, cache_dir=cache_dir,
                                       progress=progress, desc="deora2023-dm1 float64 check")
               for pt in grp["points"]]
        accuracy = precision_check("n", ns, int(seed), [r for r in res if r["seed"] == int(seed)], ref,
                                   base["dtype"], PRECISION_METRICS)
    from ..reports.intervals import mean_interval

    keys = ("gamma_ntk", "gamma_star", "gamma_prop2", "margin_normalised", "train_loss", "test_loss", "gap",
            "test_error", "train_loss_cor2", "gen_gap_cor2", "B_Phi", "B_2", "dist", "gamma_attn_limit",
            "H_cor2_log10", "H_prop2_log10", "eta_max_cor2")
    per_n = []
    for i, n in enumerate(ns):
        rs = res[i * nseeds:(i + 1) * nseeds]
        row: dict[str, Any] = {"n": n}
        for k in keys:
            vals = [r[k] for r in rs if r.get(k) is not None]
            iv = mean_interval(vals) if vals else None
            row[k] = {"mean": iv["mean"] if iv else None, "sd": iv["sd"] if iv else None,
                      "low": iv["low"] if iv else None, "high": iv["high"] if iv else None,
                      "method": iv["method"] if iv else None, "values": vals}
        per_n.append(row)
    out = {
        "name": "deora2023-dm1",
        "paper": PAPER,
        "description": REPRODUCTIONS["deora2023-dm1"].description,
        "settings": {k: v for k, v in base.items() if k != "n"} | ({"K": "n"} if K_eq_n else {}),
        "ns": ns, "seeds": [int(seed) + k for k in range(nseeds)],
        "per_n": per_n, "points": res, "precision_check": accuracy,
        "paper_reported": {"note": "The paper (main body) reports no numbers for DM1 experiments (they are in "
                                   "an appendix not available); it predicts train loss and expected gap "
                                   "O~(1/(eta gamma_*^2 n)) for K = n (Sec. 5.1), and gamma_attn = S sqrt(T)/sqrt 2 "
                                   "as the margin of saturated attention (Sec. 5.3)."},
        "plots": [],
        "full": bool(full),
        "intervals_method": "mean over seeds with a two-sided 95% Student-t interval "
                            "(reports.intervals.mean_interval)",
    }
    out["paper_vs_ours"], out["conclusions"] = _dm1_rows(out, K_eq_n)
    if not full:     # second phase costs ~ n K per point (n1, n_test and the SVM are smaller)
        ours = nseeds * sum(n * (n if K_eq_n else base["K"]) for n in ns)
        paper = 5 * sum(n * n for n in (100, 200, 400, 800, 1600, 3200))
        out["not_run"] = [f"--full (ns up to 3200, K = n, 5 seeds) costs about {paper / ours:.0f} times this run "
                          "(second-phase GD ~ n K per point)"]
    if plot_dir is not None:
        out["plots"] = plot_dm1(out, plot_dir)
    return out


def rows_dm1(out: dict):
    """The paper-vs-ours rows and conclusions, from the reproduction's JSON alone."""
    rows, conclusions = _dm1_rows(out, out["settings"].get("K") == "n")
    return {"paper_vs_ours": rows, "conclusions": conclusions}


def plot_dm1(out: dict, plot_dir) -> list[str]:
    """The losses, margins and bounds-vs-measurements figures, from the reproduction's JSON alone."""
    return _plot_dm1(out, plot_dir) + _plot_dm1_bounds(out, plot_dir)


SEC51 = ("Sec. 5.1: with K = n, train loss and expected generalization gap are O~(1/(eta gamma_*^2 n)) "
         "(Cor. 2 applied after Prop. 2)")
SEC53 = "Sec. 5.3: the margin of saturated attention is gamma_attn = S sqrt(T)/sqrt(2)"


def _loss_fit(out: dict, key: str):
    from ..reports import fit
    ns = [r["n"] for r in out["per_n"]]
    ys = list(zip(*[r[key]["values"] for r in out["per_n"]]))
    if not ys or any(len(r[key]["values"]) != len(out["seeds"]) for r in out["per_n"]) \
            or any(v <= 0 for y in ys for v in y) or len(ns) < 2:
        return None
    return fit.loglog_slope(ns, [list(y) for y in ys])


def _gap_as_upper_rate(out: dict, K_eq_n: bool) -> dict:
    """The gap row when some (n, seed) gap is <= 0 (no log-log fit): the paper's O~(1/n) is an
    upper rate, so compare the upper ends of the 95% intervals with the 1/n line through the
    first n."""
    from .paper_vs_ours import row

    q = "generalization gap (test - train) vs n: upper 95% end against the 1/n line through the first n"
    pn = [r for r in out["per_n"] if r["gap"]["high"] is not None]
    if not K_eq_n:
        return row(q, "O~(1/n) (an upper rate)", SEC51, "-", "not comparable",
                   "K is fixed here, the paper's rate is for K = n (run --full)")
    if len(pn) < 2 or pn[0]["gap"]["high"] <= 0:
        return row(q, "O~(1/n) (an upper rate)", SEC51, "-", "not comparable",
                   "fewer than two sizes with an interval, or no positive gap at the first n")
    n0, u0 = pn[0]["n"], pn[0]["gap"]["high"]
    ratios = [r["gap"]["high"] / (u0 * n0 / r["n"]) for r in pn]
    zero_from = next((r["n"] for r in pn if r["gap"]["low"] <= 0 <= r["gap"]["high"]), None)
    ours = (f"upper end / (1/n line) = {ratios[-1]:.3g} at n = {pn[-1]['n']} (max {max(ratios[1:]):.3g}); "
            f"gap {pn[0]['gap']['mean']:.3g} [{pn[0]['gap']['low']:.3g}, {u0:.3g}] at n = {n0}")
    tail = (f"; from n = {zero_from} its interval contains 0 (below what the {out['settings'].get('n_test', '')}"
            "-sample test set resolves)" if zero_from else "")
    if all(x <= 1.0 for x in ratios):
        return row(q, "O~(1/n) (an upper rate)", SEC51, ours, "reproduced",
                   "every upper 95% end lies on or below the 1/n line: the gap falls at least as fast as 1/n"
                   + tail)
    return row(q, "O~(1/n) (an upper rate)", SEC51, ours, "not reproduced",
               "an upper 95% end lies above the 1/n line through the first n" + tail)


def _dm1_rows(out: dict, K_eq_n: bool):
    from .paper_vs_ours import row

    rows, notes = [], []
    for key, label in (("train_loss", "train loss"), ("gap", "generalization gap (test - train)")):
        f = _loss_fit(out, key)
        if f is None and key == "gap":
            rows.append(_gap_as_upper_rate(out, K_eq_n))
            continue
        if f is None:
            rows.append(row(f"log-log slope of the {label} vs n", "-1 (up to logs)", SEC51, "-", "not comparable",
                            "a value <= 0 at some (n, seed): no log-log fit"))
            continue
        txt = (f"{f['slope']:.3f} [{f['ci_low']:.3f}, {f['ci_high']:.3f}]" if f["n_seeds"] > 1
               else f"{f['slope']:.3f} (1 seed)")
        if not K_eq_n:
            v, why = "not comparable", "K is fixed here, the paper's rate is for K = n (run --full)"
        elif f["n_seeds"] > 1 and f["ci_low"] <= -1.0 <= f["ci_high"]:
            v, why = "reproduced", "the 95% Student-t interval of the slope contains -1"
        elif abs(f["slope"] + 1.0) <= 0.2:
            v, why = "reproduced", "slope within 0.2 of -1 (log factors allowed)"
        else:
            v, why = "not reproduced", f"slope {f['slope']:.3f} is more than 0.2 from -1"
        rows.append(row(f"log-log slope of the {label} vs n", "-1 (up to logs)", SEC51, txt, v, why))
    pn = out["per_n"]
    held = all(r["train_loss_cor2"]["mean"] is not None and r["train_loss_cor2"]["mean"] >= r["train_loss"]["mean"]
               for r in pn)
    ratio = [r["train_loss_cor2"]["mean"] / r["train_loss"]["mean"] for r in pn
             if r["train_loss_cor2"]["mean"] and r["train_loss"]["mean"]]
    hmin = min((r["H_cor2_log10"]["mean"] for r in pn if r["H_cor2_log10"]["mean"] is not None), default=None)
    rows.append(row("Cor. 2 train-loss bound >= measured train loss, every n", "a theorem (no number)",
                    "Cor. 2", ("yes" if held else "no") + (f"; bound/measured {min(ratio):.3g} to {max(ratio):.3g}"
                                                          if ratio else ""),
                    "not comparable",
                    "the hypotheses are not met at these sizes (H used = "
                    f"{out['settings'].get('H')}, Cor. 2 needs H >= 10^{hmin:.1f})" if hmin is not None else
                    "Cor. 2 not applicable (non-positive NTK margin)"))
    mg = [r["margin_normalised"]["mean"] / r["gamma_attn_limit"]["mean"] for r in pn
          if r["margin_normalised"]["mean"] is not None and r["gamma_attn_limit"]["mean"]]
    if mg:
        rows.append(row("margin reached by GD per unit ||U|| / gamma_attn", "-> 1 as attention saturates",
                        SEC53, f"{mg[0]:.3g} (n = {pn[0]['n']}) to {mg[-1]:.3g} (n = {pn[-1]['n']})",
                        "not comparable", "finite K and eta: attention does not saturate; the paper predicts "
                                          "the limit, not a value at finite K"))
    notes.append("the paper reports no DM1 numbers in its main body (the appendix with its DM1 experiments is "
                 "not available): every row compares with a stated rate or limit")
    return rows, notes


def _plot_dm1_bounds(out: dict, plot_dir) -> list[str]:
    """Bound vs measurement across n (log scale), and each Cor. 2 / Prop. 2 hypothesis as
    needed/used (it holds where the curve is <= 1; the n where a log-log fit of it would reach 1
    is marked when that extrapolation is finite, labelled as extrapolated)."""
    from pathlib import Path

    from matplotlib.figure import Figure

    plot_dir = Path(plot_dir)
    plot_dir.mkdir(parents=True, exist_ok=True)
    pn = out["per_n"]
    x = np.array([r["n"] for r in pn], dtype=float)
    fig = Figure(figsize=(12, 5.6), layout="constrained")
    ax, bx = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)

    def ser(key):
        y = [r[key]["mean"] for r in pn]
        if any(v is None or v <= 0 for v in y):
            return None
        lo = [r[key]["mean"] - r[key]["low"] if r[key]["low"] is not None else 0.0 for r in pn]
        hi = [r[key]["high"] - r[key]["mean"] if r[key]["high"] is not None else 0.0 for r in pn]
        return np.array(y), [np.minimum(lo, 0.5 * np.array(y)), hi]

    for key, lab, style, col, mfc in (("train_loss", "train loss (measured)", "o-", "C0", None),
                                      ("train_loss_cor2", "Cor. 2 train-loss bound (C = 1)", "s--", "C0", None),
                                      ("test_loss", "test loss (measured; open: it overlies the train loss)",
                                       "o:", "C1", "none"),
                                      ("gen_gap_cor2", "Cor. 2 gap bound (C = 1)", "s--", "C2", None)):
        s_ = ser(key)
        if s_ is not None:
            ax.errorbar(x, s_[0], yerr=s_[1], fmt=style, color=col, alpha=1.0 if "o" in style else 0.7,
                        capsize=3, label=lab, mfc=mfc, ms=9 if mfc else 6)
    gaps = [abs(r["gap"]["mean"]) for r in pn if r["gap"]["mean"] is not None]
    if len(gaps) == len(x) and all(g > 0 for g in gaps):
        ax.plot(x, gaps, "^-", color="C2", label="|test - train| (measured)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("second-phase samples n")
    ax.set_ylabel("logistic loss (log scale)")
    ax.set_title("bounds (hypotheses unmet) vs measured\nbars: 95% Student-t over seeds", fontsize="medium")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.14))
    H = float(out["settings"].get("H", 1))
    hyps = []
    missing = []
    for key, lab in (("H_cor2_log10", "Cor. 2: H needed / H used"), ("H_prop2_log10", "Prop. 2: H needed / H used")):
        y = [r[key]["mean"] for r in pn]
        if all(v is not None for v in y):
            hyps.append((lab, np.array([10.0 ** v / H for v in y])))
        else:
            missing.append(lab.split(":")[0] + (": gamma_* <= 0 at some n, no head count suffices"
                                                if key == "H_prop2_log10" else ": NTK margin <= 0 at some n"))
    eta = float(out["settings"].get("eta", 1.0))
    y = [r["eta_max_cor2"]["mean"] for r in pn]
    if all(v is not None and v > 0 for v in y):
        hyps.append(("Cor. 2: eta used / eta allowed", np.array([eta / v for v in y])))
    for i, (lab, ratio) in enumerate(hyps):
        extra = ""
        if len(x) >= 2 and np.all(ratio > 0):
            b, a = np.polyfit(np.log(x), np.log(ratio), 1)
            if b < 0 and ratio[-1] > 1:
                n_star = math.exp(min(-a / b, 700.0))
                if n_star <= 1e12:
                    extra = f"; would hold from n ~ {n_star:.2g} (log-log extrapolation)"
                    bx.axvline(n_star, color=f"C{i}", ls=":", lw=1)
                else:
                    extra = "; not before n > 1e12 (log-log extrapolation)"
            elif ratio[-1] <= 1 and ratio[0] > 1:
                extra = "; holds within the range"
            elif b >= 0 and ratio[-1] > 1:
                extra = "; flat or growing in n: more samples alone do not meet it"
        size = (f"holds from H = {ratio[-1] * H:.2g}" if "H needed" in lab else
                f"holds for eta <= {eta / ratio[-1]:.2g}")
        bx.plot(x, ratio, "o-" if i % 2 == 0 else "s--", color=f"C{i}", mfc=None if i % 2 == 0 else "none",
                ms=6 if i % 2 == 0 else 9,
                label=f"{lab} = {ratio[-1]:.2g} at n = {x[-1]:g} ({size})" + ("\n" + extra[2:] if extra else ""))
    bx.axhline(1.0, color="0.3", ls="--", lw=1, label="hypothesis holds below this line")
    for m_ in missing:                    # a hypothesis with no ratio to plot: said in the legend
        bx.plot([], [], " ", label=m_)
    bx.set_xscale("log")
    bx.set_yscale("log")
    bx.set_xlabel("second-phase samples n")
    bx.set_ylabel("needed / used (hypothesis holds where <= 1)")
    bx.set_title("Cor. 2 / Prop. 2 hypotheses at each n")
    bx.grid(True, which="both", alpha=0.3)
    bx.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.14))
    from ..reports.plots import _ticks_at
    for a_ in (ax, bx):                   # tick labels at the sizes run (log minor labels overlapped)
        _ticks_at(a_, set(x.tolist()))
    fig.suptitle("Deora et al. (2023), DM1: bounds vs measurements across n (log scales)")
    outs = [plot_dir / "deora2023-dm1-bounds.png", plot_dir / "deora2023-dm1-bounds.pdf"]
    fig.savefig(outs[0], dpi=150)
    fig.savefig(outs[1], metadata={"CreationDate": None})
    return [str(o) for o in outs]


def _plot_dm1(out: dict, plot_dir) -> list[str]:
    from pathlib import Path

    from ..reports import plots

    plot_dir = Path(plot_dir)
    plot_dir.mkdir(parents=True, exist_ok=True)
    x = [r["n"] for r in out["per_n"]]

    def series(key):
        ys = [r[key]["mean"] for r in out["per_n"]]
        if any(y is None or y <= 0 for y in ys):
            return None
        err = [r[key]["sd"] if r[key]["sd"] is not None else 0.0 for r in out["per_n"]]
        return {"x": x, "y": ys, "yerr": err, "fit": None}

    paths: list[str] = []
    loss = {lab: s for lab, key in (("train loss (measured)", "train_loss"), ("test loss (measured)", "test_loss"),
                                    ("|test - train| gap (measured)", None),
                                    ("Cor. 2 train-loss bound", "train_loss_cor2"),
                                    ("Cor. 2 gap bound", "gen_gap_cor2"))
            if key and (s := series(key)) is not None}
    gaps = [abs(r["gap"]["mean"]) for r in out["per_n"] if r["gap"]["mean"] is not None]
    if len(gaps) == len(x) and all(g > 0 for g in gaps):
        loss["|test - train| gap (measured)"] = {"x": x, "y": gaps, "yerr": None, "fit": None}
    paths += [str(p) for p in plots.scaling(loss, plot_dir / "deora2023-dm1-losses",
                                            title="Deora et al. (2023), DM1: losses vs n",
                                            xlabel="second-phase samples n", ylabel="logistic loss")]
    mar = {lab: s for lab, key in (("NTK margin of theta^(1) (measured)", "gamma_ntk"),
                                   ("margin reached by GD, per unit ||U|| (measured)", "margin_normalised"),
                                   ("gamma_*/2 (Prop. 2)", "gamma_prop2"),
                                   ("gamma_attn = S sqrt(T)/sqrt 2", "gamma_attn_limit"))
           if (s := series(key)) is not None}
    paths += [str(p) for p in plots.scaling(mar, plot_dir / "deora2023-dm1-margins",
                                            title="Deora et al. (2023), DM1: margins vs n",
                                            xlabel="second-phase samples n", ylabel="margin")]
    return paths


def render_dm1(out: dict):
    """Rich table of a 'deora2023-dm1' result."""
    from rich.table import Table as RTable

    t = RTable(title="deora2023-dm1: DM1, mean over seeds " + str(out["seeds"]))
    cols = [("n", None), ("NTK margin", "gamma_ntk"), ("gamma_*/2", "gamma_prop2"),
            ("GD margin/||U||", "margin_normalised"), ("train loss", "train_loss"),
            ("Cor.2 train bound", "train_loss_cor2"), ("gap", "gap"), ("Cor.2 gap bound", "gen_gap_cor2"),
            ("test err", "test_error"), ("log10 H Cor.2", "H_cor2_log10")]
    for c, _ in cols:
        t.add_column(c, justify="right")
    for r in out["per_n"]:
        cells = [str(r["n"])]
        for _, k in cols[1:]:
            v = r[k]["mean"]
            cells.append("-" if v is None else f"{v:.4g}")
        t.add_row(*cells)
    t.caption = out["paper_reported"]["note"]
    from rich.console import Group

    from .paper_vs_ours import rich_table
    from .precision import precision_rich
    parts = [t] + ([rich_table(out["paper_vs_ours"])] if out.get("paper_vs_ours") else [])
    if out.get("precision_check"):
        parts.append(precision_rich(out["precision_check"]))
    return Group(*parts)


REPRODUCTIONS = {"deora2023-dm1": Reproduction(
    name="deora2023-dm1",
    description="Two-phase training on DM1 (Sec. 5): NTK margin after phase 1, margin GD reaches, "
                "train/test loss and Cor. 2's bounds vs the sample size n, over seeds.",
    run=run_dm1, render=render_dm1, plot=plot_dm1, rows=rows_dm1, settings=("ns", "seeds", "k_equals_n", *(k for k in SETTINGS if k != "n")))}
