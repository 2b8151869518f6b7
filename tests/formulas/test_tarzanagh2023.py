"""Pins every formula of formulas/tarzanagh2023.toml to values recomputed by hand.

Each expected value is typed from the paper (Tarzanagh, Li, Zhang, Oymak, NeurIPS 2023)
and its formula sheet notes/tarzanagh2023.md with mpmath, independently of the TOML:
the paper's own quantities (Theta = 1/||p^mm||, A = max||k||/Theta, ...) are written out
here again. Every formula is checked at a small input and at a huge input (value beyond
the double range whenever the formula can get there), to ~30 significant digits.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

import mpmath as mp
import pytest

import boundcalc
from boundcalc.registry import get_registry
from boundcalc.services.require import require

PAPER = "tarzanagh2023"
REL = mp.mpf(10) ** -30
# Expected values are computed at 60 digits; the global mpmath precision is restored at the
# end of this module so that boundcalc is called at the ambient (default) precision.
_SAVED_DPS = mp.mp.dps
mp.mp.dps = 60


def M(x) -> mp.mpf:
    return mp.mpf(x)


def value(name: str, **vals) -> mp.mpf:
    return boundcalc.formula(f"{PAPER}.{name}").evaluate(digits=40, **vals).mpf


def close(got, expected) -> bool:
    with mp.workdps(60):
        return mp.almosteq(got, expected, rel_eps=REL, abs_eps=0)


# ------------------------------------------------------------------ paper formulas (hand-typed)
def Lp_ref(M0, M1, v, W, X4, X3):
    # (6)/(24): L_p = (1/n) sum_i (M0 ||v||^2 ||W||^2 ||X_i||^4 + 3 M1 ||v|| ||W||^2 ||X_i||^3)
    return M(M0) * M(v) ** 2 * M(W) ** 2 * M(X4) + 3 * M(M1) * M(v) * M(W) ** 2 * M(X3)


def theta(pmm):
    return 1 / M(pmm)


def A_ref(Kmax, pmm):
    # (32): A = max ||k_it|| / Theta
    return M(Kmax) / theta(pmm)


def mfac(delta):
    return max(M(2), 1 / M(delta))


LP_SMALL = {"M0": "0.25", "M1": "1", "v_norm": "1.5", "W_norm": "2", "X4_mean": "3", "X3_mean": "2.5"}
LP_HUGE = {"M0": "0.25", "M1": "1", "v_norm": "1e150", "W_norm": "1e100", "X4_mean": "1e200", "X3_mean": "1e150"}


def lp_of(d):
    return Lp_ref(d["M0"], d["M1"], d["v_norm"], d["W_norm"], d["X4_mean"], d["X3_mean"])


# Lemma 7 / Theorem 3 inputs
L7_SMALL = {"pmm_norm": "1.3", "K_max": "0.9", "delta": "0.07", "T": 5, "Gamma": "1.4", "gamma_gap_min": "0.3",
                "gamma_gap_bar_max": "1.1", "ell_min": "0.2", "ell_max": "0.9", "A_bar": "1.7"}
L7_HUGE = {"pmm_norm": "1e400", "K_max": "0.9", "delta": "0.07", "T": 5, "Gamma": "1.4", "gamma_gap_min": "0.3",
               "gamma_gap_bar_max": "1.1", "ell_min": "0.2", "ell_max": "0.9", "A_bar": "1.7"}


def C41(d):
    return 2 * M(d["ell_max"]) * M(d["gamma_gap_bar_max"])


def c41(d):
    return M(d["ell_min"]) * M(d["gamma_gap_min"]) / 8


def sub(d, *names):
    return {k: d[k] for k in names}


CASES = []  # (formula, inputs, expected)


def case(name, vals, expected):
    CASES.append(pytest.param(name, vals, expected, id=f"{name}-{len([c for c in CASES if c.values[0] == name])}"))


# ---- Sec. 2, Lemma 6
case("gamma_it", {"Y": -1, "v_dot_x": "0.75"}, M(-1) * M("0.75"))
case("gamma_it", {"Y": 1, "v_dot_x": "3e400"}, M("3e400"))
for d in (LP_SMALL, LP_HUGE):
    case("L_p", d, lp_of(d))
    case("L_p_24", d, lp_of(d))
    case("eta_max", d, 1 / lp_of(d))
case("L_p_max", {"M0": "0.25", "M1": "1", "v_norm": "1.5", "W_norm": "2", "X_norm_max": "1.2"},
     M("0.25") * M("1.5") ** 2 * 4 * M("1.2") ** 4 + 3 * M("1.5") * 4 * M("1.2") ** 3)
case("L_p_max", {"M0": "0.25", "M1": "1", "v_norm": "1", "W_norm": "1", "X_norm_max": "1e120"},
     M("0.25") * M("1e120") ** 4 + 3 * M("1e120") ** 3)
case("L_p_proof", {"M0": "0.25", "M1": "1", "gamma_norm_max": "2.5", "K_norm_max": "1.1"},
     M("0.25") * M("2.5") ** 2 * M("1.1") ** 2 + 3 * M("1.1") ** 2 * M("2.5"))
case("L_p_proof", {"M0": "0.25", "M1": "1", "gamma_norm_max": "1e200", "K_norm_max": "1e200"},
     M("0.25") * M("1e200") ** 4 + 3 * M("1e200") ** 3)
for d, eta in ((LP_SMALL, "0.01"), (LP_HUGE, "1e-300")):
    L = lp_of(d)
    case("descent_coeff", {**d, "eta": eta}, M(eta) * (1 - L * M(eta) / 2))
case("descent_coeff", {**LP_SMALL, "eta": "1e400"}, M("1e400") - lp_of(LP_SMALL) * M("1e800") / 2)
case("descent_25", {"eta": "0.3"}, M("0.15"))
case("descent_25", {"eta": "4e400"}, M("2e400"))
case("grad_sum_30", {"eta": "0.1", "L0": "0.69", "L_star": "0.01"}, 2 / M("0.1") * (M("0.69") - M("0.01")))
case("grad_sum_30", {"eta": "1e-300", "L0": "100", "L_star": "0"}, M(2) * M(100) * M("1e300"))
case("eta_W_lemma1", {"eta": "0.5", "u_norm": "2"}, M("0.125"))
case("eta_W_lemma1", {"eta": "1", "u_norm": "1e-200"}, M("1e400"))

# ---- App. A, B.1
case("key_lemma", {"Gamma": "1.5", "A_q": "0.4", "s1": "0.9"}, 2 * M("1.5") * M("0.4") * M("0.1") ** 2)
case("key_lemma", {"Gamma": "1e200", "A_q": "1e200", "s1": "0"}, M(2) * M("1e400"))
case("corr_lb_22", {"a_gap": "1.2", "gamma_gap": "0.5", "s1": "0.8"}, M("1.2") * M("0.5") * M("0.8") * M("0.2"))
case("corr_lb_22", {"a_gap": "1e300", "gamma_gap": "1e300", "s1": "0.5"}, M("1e600") / 4)


def grad15a(p, k1, k2, g1, g2):
    # (15a) for n = 1, T = 2, d = 1: l'(gamma^T s) K^T S'(Kp) gamma, logistic l'(z) = -1/(1 + e^z)
    p, k1, k2, g1, g2 = map(M, (p, k1, k2, g1, g2))
    s1 = 1 / (1 + mp.exp((k2 - k1) * p))
    s2 = 1 - s1
    z = g1 * s1 + g2 * s2
    dl = -1 / (1 + mp.exp(z))
    return dl * (k1 * s1 * (g1 - z) + k2 * s2 * (g2 - z))


def grad14a(p, w, x1, x2, Y):
    # (14a) with (12a)-(12b), n = 1, T = 2, d = 1, psi = tanh, logistic loss: mpmath's derivative of
    # L(p) = log(1 + exp(-Y tanh(x^T softmax(x w p)))) (a second method: no chain rule typed here)
    w, x1, x2, Y = map(M, (w, x1, x2, Y))

    def L(q):
        e1, e2 = mp.exp(x1 * w * q), mp.exp(x2 * w * q)
        return mp.log1p(mp.exp(-Y * mp.tanh((x1 * e1 + x2 * e2) / (e1 + e2))))
    return mp.diff(L, M(p))


case("grad_14a_scalar", {"p1": "0.6", "w_11": "1.7", "tok_x1": "1.1", "tok_x2": "-0.5", "Y": "-1"},
     grad14a("0.6", "1.7", "1.1", "-0.5", "-1"))
# p = 0: s_1 = s_2 = 1/2, z = 0, so l'(0) Y W (x_1 - x_2)^2/4 psi'(0) = -(1/2) 1e400 (4/4) = -5e399
case("grad_14a_scalar", {"p1": "0", "w_11": "1e400", "tok_x1": "1", "tok_x2": "-1", "Y": "1"}, M("-5e399"))


case("grad_15a_scalar", {"p1": "0.7", "k_1": "1.3", "k_2": "-0.4", "gamma_1": "0.9", "gamma_2": "-0.2"},
     grad15a("0.7", "1.3", "-0.4", "0.9", "-0.2"))
case("grad_15a_scalar", {"p1": "0", "k_1": "1e300", "k_2": "-1e300", "gamma_1": "1e300", "gamma_2": "-1e300"},
     M(-1) / 2 * M("2e300") * M("2e300") / 4)

# ---- Lemma 5
case("Theta", {"pmm_norm": "0.8"}, M("1.25"))
case("Theta", {"pmm_norm": "1e-400"}, M("1e400"))
case("M_bar_lemma5", {"K_max": "2", "pmm_norm": "3"}, M(6))
case("M_bar_lemma5", {"K_max": "1e200", "pmm_norm": "1e200"}, M("1e400"))
case("eps_lemma5", {"pi_slack": "0.1", "K_max": "2"}, M("0.025"))
case("eps_lemma5", {"pi_slack": "1e300", "K_max": "1e-300"}, M("5e599"))
case("pi_prime_lemma5", {"K_max": "2", "pmm_norm": "1.5", "T": 4, "R": "10", "nu_eps": "0.3"},
     2 * (M(2) / theta("1.5")) * 4 * mp.exp(-M(10) * theta("1.5") * M("0.3")) - M("0.3"))
case("pi_prime_lemma5", {"K_max": "1e300", "pmm_norm": "1e300", "T": 4, "R": "1", "nu_eps": "0.3"},
     2 * M("1e600") * 4 * mp.exp(-M("1e-300") * M("0.3")) - M("0.3"))
case("R_pi_lemma5", {"K_max": "2", "pmm_norm": "1.5", "T": 4, "pi_slack": "0.05", "nu_eps": "0.3"},
     mp.log(2 * M(2) * M("1.5") * 4 / M("0.05")) / (M("0.3") * theta("1.5")))
case("R_pi_lemma5", {"K_max": "2", "pmm_norm": "1e400", "T": 4, "pi_slack": "0.05", "nu_eps": "0.3"},
     mp.log(2 * M(2) * M("1e400") * 4 / M("0.05")) * M("1e400") / M("0.3"))
case("pi_target", {"pi_slack": "0.2"}, M("0.2"))
case("pi_target", {"pi_slack": "1e400"}, M("1e400"))

# ---- Lemma 7
for d in (L7_SMALL, L7_HUGE):
    A = A_ref(d["K_max"], d["pmm_norm"])
    th = theta(d["pmm_norm"])
    case("A", sub(d, "K_max", "pmm_norm"), A)
    case("R_Q", sub(d, "T", "delta", "pmm_norm"), mp.log(d["T"]) / (M(d["delta"]) * th))
    case("R_mu", sub(d, "T", "delta", "pmm_norm", "K_max", "Gamma", "gamma_gap_min"),
         mfac(d["delta"]) / th * mp.log(64 * d["T"] * M(d["Gamma"]) * A / M(d["gamma_gap_min"])))
case("mu_max", {"delta": "0.07", "K_max": "0.9", "pmm_norm": "1.3"},
     (M("0.07") / (M("0.9") * M("1.3"))) ** 2 / 8)
case("mu_max", {"delta": "3", "K_max": "1e-200", "pmm_norm": "1e-200"}, (M("0.5") / M("1e-400")) ** 2 / 8)
case("cone_deviation", {"K_max": "0.9", "pmm_norm": "1.3", "mu": "0.01"},
     2 * mp.sqrt(2) * M("0.9") * M("1.3") * mp.sqrt(M("0.01")))
case("cone_deviation", {"K_max": "1e200", "pmm_norm": "1e200", "mu": "0.5"},
     2 * mp.sqrt(2) * M("1e400") * mp.sqrt(M("0.5")))
case("cone_tolerance", {"delta": "0.07"}, M("0.07"))
case("cone_tolerance", {"delta": "1e400"}, M("0.5"))
case("softmax_tail_35", {"T": 6, "R": "3", "pmm_norm": "2"}, 6 * mp.exp(-M(3) / M(2) / 2))
case("softmax_tail_35", {"T": 6, "R": "1e-300", "pmm_norm": "1e-300"}, 6 * mp.exp(M(-1) / 2))
case("Q_ratio_35", {"T": 6, "R": "3", "pmm_norm": "2", "delta": "0.1"}, 6 * mp.exp(-M(3) * M("0.1") / 2))
case("Q_ratio_35", {"T": 6, "R": "1", "pmm_norm": "1", "delta": "1e-30"}, 6 * mp.exp(-M("1e-30")))
case("cond38_tail", {"T": 6, "R": "3", "pmm_norm": "2"}, 4 * 6 * mp.exp(-M(3) / 4))
case("cond38_tail", {"T": 10**400, "R": "1e-300", "pmm_norm": "1"}, 4 * M("1e400") * mp.exp(-M("1e-300") / 2))
case("cond38_Q", {"T": 6, "R": "3", "pmm_norm": "2", "delta": "0.1"}, 6 * mp.exp(-M("0.15")))
case("cond38_Q", {"T": 10**400, "R": "1e-300", "pmm_norm": "1", "delta": "1"}, M("1e400") * mp.exp(-M("1e-300")))
case("cond38_target", {"gamma_gap_min": "0.3", "Gamma": "1.4", "K_max": "0.9", "pmm_norm": "1.3"},
     M("0.3") / (16 * M("1.4") * M("0.9") * M("1.3")))
case("cond38_target", {"gamma_gap_min": "1e300", "Gamma": "1", "K_max": "1e-100", "pmm_norm": "1"},
     M("1e400") / 16)
case("cond_L3_tail", {"T": 6, "R": "3", "pmm_norm": "2"}, 24 * mp.exp(-M("0.75")))
case("cond_L3_tail", {"T": 10**400, "R": "2e-300", "pmm_norm": "1"}, 4 * M("1e400") * mp.exp(-M("1e-300")))
case("cond_L3_target", {"pi_slack": "0.5", "gamma_gap_min": "0.3", "Gamma": "1.4", "K_max": "0.9", "pmm_norm": "1.3"},
     M("0.5") * M("0.3") / (24 * M("1.4") * M("0.9") * M("1.3")))
case("cond_L3_target", {"pi_slack": "1e300", "gamma_gap_min": "1e300", "Gamma": "1", "K_max": "1", "pmm_norm": "1"},
     M("1e600") / 24)
case("C0_min_L3", {"pi_slack": "0.5"}, M(96))
case("C0_min_L3", {"pi_slack": "1e400"}, 64 * M("1e400"))
case("B_loss", {"v_norm": "2", "x_max": "0.5"}, M(1))
case("B_loss", {"v_norm": "1e200", "x_max": "1e200"}, M("1e400"))
for d in (L7_SMALL, {"ell_min": "1e300", "ell_max": "1e300", "gamma_gap_min": "1e300", "gamma_gap_bar_max": "1e300",
                         "A_bar": "1e-300", "pmm_norm": "1e-300", "T": 5}):
    C, c = C41(d), c41(d)
    case("C_41", sub(d, "ell_max", "gamma_gap_bar_max"), C)
    case("c_41", sub(d, "ell_min", "gamma_gap_min"), c)
    case("corr_ratio_31c", sub(d, "ell_min", "gamma_gap_min", "ell_max", "gamma_gap_bar_max", "A_bar"),
         c / (C * M(d["A_bar"])))
    case("corr_ratio_31c_unit",
         sub(d, "ell_min", "gamma_gap_min", "ell_max", "gamma_gap_bar_max", "A_bar", "pmm_norm"),
         c / (C * M(d["A_bar"]) * M(d["pmm_norm"])))
    case("corr_ratio_56", sub(d, "ell_min", "gamma_gap_min", "ell_max", "gamma_gap_bar_max", "A_bar", "pmm_norm"),
         c / (C * theta(d["pmm_norm"]) * M(d["A_bar"])))
    case("corr_ratio_56_corrected",
         sub(d, "ell_min", "gamma_gap_min", "ell_max", "gamma_gap_bar_max", "A_bar", "pmm_norm"),
         c * theta(d["pmm_norm"]) / (C * M(d["A_bar"])))
case("corr_ub_31a", {"ell_max": "0.9", "gamma_gap_bar_max": "1.1", "q_mean": "0.01"}, 2 * M("0.9") * M("1.1") * M("0.01"))
case("corr_ub_31a", {"ell_max": "1e200", "gamma_gap_bar_max": "1e200", "q_mean": "1"}, 2 * M("1e400"))
case("corr_lb_31a", {"ell_min": "0.2", "gamma_gap_min": "0.3", "q_mean": "0.01"}, M("0.2") * M("0.3") / 8 * M("0.01"))
case("corr_lb_31a", {"ell_min": "1e200", "gamma_gap_min": "8e200", "q_mean": "1"}, M("1e400"))
case("grad_bound_31b", {"A_bar": "1.7", "ell_max": "0.9", "gamma_gap_bar_max": "1.1", "q_mean": "0.01"},
     M("1.7") * 2 * M("0.9") * M("1.1") * M("0.01"))
case("grad_bound_31b", {"A_bar": "1e200", "ell_max": "1e100", "gamma_gap_bar_max": "1e100", "q_mean": "1"},
     2 * M("1e400"))
case("grad_bound_31b_exp", {"A_bar": "1.7", "ell_max": "0.9", "gamma_gap_bar_max": "1.1", "T": 5, "R": "4", "pmm_norm": "1.3"},
     M("1.7") * 2 * M("0.9") * M("1.1") * 5 * mp.exp(-M(4) / M("1.3") / 2))
case("grad_bound_31b_exp", {"A_bar": "1e200", "ell_max": "1e100", "gamma_gap_bar_max": "1e100", "T": 5, "R": "1", "pmm_norm": "1e300"},
     2 * M("1e400") * 5 * mp.exp(-M("1e-300") / 2))
for d, pi in ((L7_SMALL, "0.05"), (L7_HUGE, "0.05")):
    A, th = A_ref(d["K_max"], d["pmm_norm"]), theta(d["pmm_norm"])
    base = sub(d, "T", "delta", "pmm_norm", "K_max", "Gamma", "gamma_gap_min")
    case("R_pi", {**base, "C0": "7", "pi_slack": pi},
         mfac(d["delta"]) / th * mp.log(M(7) * d["T"] * M(d["Gamma"]) * A / (M(pi) * M(d["gamma_gap_min"]))))
    case("R_pi_scen2_a", {**sub(d, "T", "pmm_norm", "K_max", "Gamma", "gamma_gap_min"), "pi_slack": pi, "nu_eps": "0.2"},
         mp.log(8 * M(d["Gamma"]) * A * d["T"] / (M(pi) * M(d["gamma_gap_min"]))) / (M("0.2") * th))
    case("R_pi_scen2_b", {**sub(d, "T", "pmm_norm", "K_max", "Gamma", "gamma_gap_min", "ell_min", "ell_max"),
                          "pi_slack": pi, "nu_eps": "0.2", "n": 3},
         mp.log(8 * 3 * M(d["Gamma"]) * A * d["T"] * 2 * M(d["ell_max"])
                / (M(d["ell_min"]) * M(d["gamma_gap_min"]) * M(pi))) / ((2 * M("0.2") + M(pi) / 2) * th))
case("C0_min_46", {"pi_slack": "0.25"}, M(16))
case("C0_min_46", {"pi_slack": "1e400"}, M("6.4e401"))

# ---- Theorem 2 proof
case("pi_of_eps", {"eps": "0.2"}, M("0.25"))
case("pi_of_eps", {"eps": "0.99999999999999999999999999999999999999999"}, M("0.99999999999999999999999999999999999999999") / M("1e-41"))
case("C_eps_eta", {"corr_eps": "5", "eps": "0.1", "p_norm_eps": "5.2", "eta": "0.5", "L_eps": "0.3", "L_star": "0.1"},
     M(5) - M("0.9") * M("5.2") - 2 * M("0.5") * M("0.9") * (M("0.3") - M("0.1")))
case("C_eps_eta", {"corr_eps": "1e400", "eps": "0.5", "p_norm_eps": "1", "eta": "1", "L_eps": "1", "L_star": "0"},
     M("1e400") - M("0.5") - 2 * M("0.5"))
case("corr_lb_thm2", {"corr_eps": "5", "eps": "0.1", "p_norm_eps": "5.2", "eta": "0.5", "L_eps": "0.3", "L_star": "0.1", "p_norm": "40"},
     1 - M("0.1") + (M(5) - M("0.9") * M("5.2") - M("0.9") * M("0.2")) / 40)
case("corr_lb_thm2", {"corr_eps": "1e400", "eps": "0.5", "p_norm_eps": "1", "eta": "1", "L_eps": "1", "L_star": "0", "p_norm": "1e-10"},
     M("0.5") + (M("1e400") - M("1.5")) / M("1e-10"))

# ---- Theorem 3 proof
for d in (L7_SMALL, L7_HUGE):
    A, th = A_ref(d["K_max"], d["pmm_norm"]), theta(d["pmm_norm"])
    base = sub(d, "T", "delta", "pmm_norm", "K_max", "Gamma", "gamma_gap_min")
    G = M(d["Gamma"]) * d["T"] * A / M(d["gamma_gap_min"])
    case("R_eps", {**base, "C0": "7", "eps": "0.01"},
         mfac(d["delta"]) / th * mp.log((1 - M("0.01")) * 7 * G / M("0.01")))
    case("R0_57", {**base, "C0": "7", "mu": "0.002"},
         mfac(d["delta"]) / th * mp.log((2 - M("0.002")) * 7 * G / M("0.002")))
case("C0_min_eps", {"eps": "0.2"}, M(16))
case("C0_min_eps", {"eps": "0.9999999999999999999999999999999999999999999"},
     64 * M("0.9999999999999999999999999999999999999999999") / M("1e-43"))
case("C0_min_57", {"mu": "0.5"}, 64 * M("0.5") / M("1.5"))
case("C0_min_57", {"mu": "1e-400"}, 64 * M("1e-400") / (2 - M("1e-400")))
case("C1_54", {"eta": "0.1", "rho": "0.3", "p_norm": "20", "grad_norm": "0.05"},
     1 + M("0.1") * M("0.3") / 20 + M("0.01") * M("0.0025") / 20)   # eta^2 g^2/||p|| (REFEREE3)
case("C1_54", {"eta": "1e200", "rho": "1e200", "p_norm": "1", "grad_norm": "1"}, 1 + M("1e400") + M("1e400"))
case("eta_55", {"mu": "0.01", "eps": "0.004", "rho": "0.3", "grad_norm": "0.05"},
     (M("0.01") - M("0.004")) / (1 - M("0.01")) * M("0.3") / M("0.0025"))
case("eta_55", {"mu": "0.01", "eps": "0.004", "rho": "1", "grad_norm": "1e-200"},
     (M("0.006") / M("0.99")) * M("1e400"))


def eta56_parts(d, R0, corrected=False):
    C, c, th = C41(d), c41(d), theta(d["pmm_norm"])
    F = c * th / (C * M(d["A_bar"])) if corrected else c / (C * th * M(d["A_bar"]))
    return F / (M(d["A_bar"]) * C * d["T"] * mp.exp(-M(R0) * th / 2))


T3_SMALL = {**L7_SMALL}
T3_HUGE = {**L7_SMALL, "pmm_norm": "0.5"}
for d, R0 in ((T3_SMALL, "6"), (T3_HUGE, "2000")):
    grad_in = sub(d, "ell_min", "gamma_gap_min", "ell_max", "gamma_gap_bar_max", "A_bar", "pmm_norm", "T")
    mu, eps = M("0.01"), M("0.003")
    case("eta_56_eps", {**grad_in, "mu": "0.01", "eps": "0.003", "R0": R0},
         (mu - eps) / (1 - mu) / (1 - eps) * eta56_parts(d, R0))
    case("eta_56", {**grad_in, "mu": "0.01", "R0": R0},
         mu / (2 * (1 - mu) * (1 - mu / 2)) * eta56_parts(d, R0))
    C, c, th = C41(d), c41(d), theta(d["pmm_norm"])
    C2 = (1 - mu) * M(d["A_bar"]) ** 2 * C ** 2 * th / c
    C2c = (1 - mu) * M(d["A_bar"]) ** 2 * C ** 2 / (c * th)
    c2_in = sub(d, "ell_min", "gamma_gap_min", "ell_max", "gamma_gap_bar_max", "A_bar", "pmm_norm")
    case("C2_58", {**c2_in, "mu": "0.01"}, C2)
    case("C2_58_corrected", {**c2_in, "mu": "0.01"}, C2c)
    case("eta_58", {**grad_in, "mu": "0.01", "R0": R0}, mu / (2 - mu) / (C2 * d["T"]) * mp.exp(M(R0) * th / 2))
for lp in (LP_SMALL, LP_HUGE):
    d = L7_SMALL
    L = lp_of(lp)
    mu = M("0.01")
    C, c, th = C41(d), c41(d), theta(d["pmm_norm"])
    A = A_ref(d["K_max"], d["pmm_norm"])
    C2 = (1 - mu) * M(d["A_bar"]) ** 2 * C ** 2 * th / c
    C2c = (1 - mu) * M(d["A_bar"]) ** 2 * C ** 2 / (c * th)
    ins = {**lp, **sub(d, "ell_min", "gamma_gap_min", "ell_max", "gamma_gap_bar_max", "A_bar", "pmm_norm", "T"),
           "mu": "0.01"}
    case("R0_58", ins, 2 / th * mp.log((2 - mu) * C2 * d["T"] / (mu * L)))
    case("R0_58_corrected", ins, 2 / th * mp.log((2 - mu) * C2c * d["T"] / (mu * L)))
    ins3 = {**ins, **sub(d, "K_max", "Gamma", "delta"), "C0": "7"}
    C3 = max(M(7) * M(d["Gamma"]) * A / M(d["gamma_gap_min"]), C2 / L)
    C3c = max(M(7) * M(d["Gamma"]) * A / M(d["gamma_gap_min"]), C2c / L)
    case("C3", {k: v for k, v in ins3.items() if k not in ("T", "delta")}, C3)
    case("R0_combined", ins3, mfac(d["delta"]) / th * mp.log((2 - mu) * C3 * d["T"] / mu))
    case("R0_combined_corrected", ins3, mfac(d["delta"]) / th * mp.log((2 - mu) * C3c * d["T"] / mu))
# a huge C3 / R0_combined: ||p^mm|| huge
dH = {**L7_SMALL, "pmm_norm": "1e300"}
ins = {**LP_SMALL, **sub(dH, "ell_min", "gamma_gap_min", "ell_max", "gamma_gap_bar_max", "A_bar", "pmm_norm", "T",
                          "K_max", "Gamma", "delta"), "mu": "0.01", "C0": "7"}
A = A_ref(dH["K_max"], dH["pmm_norm"])
C2H = (1 - M("0.01")) * M(dH["A_bar"]) ** 2 * C41(dH) ** 2 * theta(dH["pmm_norm"]) / c41(dH)
C3H = max(M(7) * M(dH["Gamma"]) * A / M(dH["gamma_gap_min"]), C2H / lp_of(LP_SMALL))
case("C3", {k: v for k, v in ins.items() if k not in ("T", "delta")}, C3H)
case("R0_combined", ins, mfac(dH["delta"]) / theta(dH["pmm_norm"]) * mp.log((2 - M("0.01")) * C3H * dH["T"] / M("0.01")))

# ---- Lemma 8, Theorem 7
case("R_lemma8", {"T": 6, "Gamma_q": "0.5"}, mp.log(6) / M("0.5"))
case("R_lemma8", {"T": 6, "Gamma_q": "1e-400", "C_lemma8": "3"}, 3 * mp.log(6) * M("1e400"))
case("Gamma_qprime_lb", {"Gamma_q": "0.4", "eps_7": "0.1", "Gamma_mm": "0.6"}, (M("0.4") + M("0.06")) / M("1.1"))
case("Gamma_qprime_lb", {"Gamma_q": "1e400", "eps_7": "1", "Gamma_mm": "1e400"}, M("1e400"))
case("delta_thm7", {"eps_7": "0.1", "Gamma_mm": "0.6", "Gamma_q": "0.4", "M_k": "2"}, M("0.1") * M("0.2") / 8)
case("delta_thm7", {"eps_7": "1e200", "Gamma_mm": "1e200", "Gamma_q": "1", "M_k": "0.25"}, M("1e200") * (M("1e200") - 1))
# Lemma 8, proof: R(delta_Gamma) = log(2n M+ K+ T/(M- K-))/delta_Gamma (case 1) and
# log(2n M+ K+ T/(M- kappa))/min(delta_q, delta_Gamma) (case 2), solved from the printed inequalities
L8 = {"n": 3, "M_plus": "2", "K_plus": "1.5", "T": 4, "M_minus": "0.5"}
case("R_lemma8_case1", {**L8, "K_minus": "0.25", "delta_Gamma": "0.2"},
     mp.log(2 * 3 * M(2) * M("1.5") * 4 / (M("0.5") * M("0.25"))) / M("0.2"))
case("R_lemma8_case1", {**L8, "K_minus": "0.25", "delta_Gamma": "1e-400"},
     mp.log(2 * 3 * M(2) * M("1.5") * 4 / (M("0.5") * M("0.25"))) * M("1e400"))
case("R_lemma8_case2", {**L8, "kappa8": "0.1", "delta_q": "0.3", "delta_Gamma": "0.7"},
     mp.log(2 * 3 * M(2) * M("1.5") * 4 / (M("0.5") * M("0.1"))) / M("0.3"))
case("R_lemma8_case2", {**L8, "kappa8": "0.1", "delta_q": "0.3", "delta_Gamma": "1e-400"},
     mp.log(2 * 3 * M(2) * M("1.5") * 4 / (M("0.5") * M("0.1"))) * M("1e400"))

# ---- Lemma 11
case("lemma11_margin", {"gap_pair": "0.6", "gamma_bar": "0.2"}, M(3))
case("lemma11_margin", {"gap_pair": "1e200", "gamma_bar": "1e-200"}, M("1e400"))
case("pmm_norm_lemma11", {"Wt_pinv_v_norm": "1.5", "gamma_bar": "0.1"}, M(15))
case("pmm_norm_lemma11", {"Wt_pinv_v_norm": "1e200", "gamma_bar": "1e-200"}, M("1e400"))

# ---- Sec. 4
case("nnz_hat", {"s_l2": "0.5"}, M(4))           # ||s||_1 = 1 by default (softmax)
case("nnz_hat", {"s_l1": "2", "s_l2": "1e-200"}, M(2) * M("1e400"))
case("nnz_hat_level", {"s_l2": "0.5", "T": 16}, M(4) / 16)
case("nnz_hat_level", {"s_l2": "1e-300", "T": 256}, M("1e600") / 256)
case("loss_logistic", {"u_arg": "0"}, mp.log(2))
case("loss_logistic", {"u_arg": "-1e400"}, M("1e400"))
case("abs_dloss_logistic", {"u_arg": "1"}, 1 / (1 + mp.e))
case("abs_dloss_logistic", {"u_arg": "-1e10"}, 1 / (1 + mp.exp(M("-1e10"))))  # -> 1: bounded by 1
case("grad_scale_corr", {"gamma_opt": "3"}, M(3))
case("grad_scale_corr", {"gamma_opt": "1e400"}, M("1e400"))
case("grad_scale_logistic", {"gamma_opt": "2"}, 2 / (1 + mp.exp(2)))
with mp.workdps(700):  # e^(1e400) needs ~400 extra digits for its argument reduction
    _g = M("1e400") / (1 + mp.exp(M("1e400")))
case("grad_scale_logistic", {"gamma_opt": "1e400"}, +_g)  # bounded by 0.28: extreme tiny value
case("grad_scale_logistic_approx", {"gamma_opt": "2"}, 2 * mp.exp(-2))
case("grad_scale_logistic_approx", {"gamma_opt": "1e-400"}, M("1e-400") * mp.exp(M("-1e-400")))

# ---- Sec. 3, App. C
case("Gamma_label", {"vmm_norm": "4"}, M("0.25"))
case("Gamma_label", {"vmm_norm": "1e-400"}, M("1e400"))
case("Gamma_exampleC", {"a_norm": "2.5"}, M("2.5"))
case("Gamma_exampleC", {"a_norm": "1e400"}, M("1e400"))
case("nu_exampleC", {"a_norm": "2.5", "x_rest_max": "1.75"}, M("0.75"))
case("nu_exampleC", {"a_norm": "1e400", "x_rest_max": "1"}, M("1e400") - 1)
case("q_star_71", {"T": 6, "R": "10", "Xi": "0.3"}, 6 * mp.exp(-3))
case("q_star_71", {"T": 10**400, "R": "1e-10", "Xi": "1"}, M("1e400") * mp.exp(-M("1e-10")))
case("q_hat_72", {"T": 6, "R": "10", "Xi": "0.3", "gamma_c": "0.2"}, mp.exp(-M("0.8") * 3) / 6)
case("q_hat_72", {"T": 6, "R": "1e5", "Xi": "1", "gamma_c": "0.5"}, mp.exp(-M(50000)) / 6)  # <= 1/T: cannot be huge
case("eps_max_74", {"M_x": "2", "T": 6, "Xi": "0.3", "R": "10"}, 12 * mp.exp(-3))
case("eps_max_74", {"M_x": "1e400", "T": 6, "Xi": "0.3", "R": "10"}, M("6e400") * mp.exp(-3))
case("loss_ub_74", {"r": "5", "M_x": "2", "T": 6, "Xi": "0.3", "R": "10", "Gamma_lab": "0.7"},
     mp.exp(5 * 2 * 6 * mp.exp(-3)) * mp.exp(-5 * M("0.7")))
case("loss_ub_74", {"r": "1e3", "M_x": "2", "T": 6, "Xi": "1", "R": "1e-30", "Gamma_lab": "0.7"},
     mp.exp(M(12000) * mp.exp(-M("1e-30")) - 700))
case("loss_lb_75", {"r": "5", "nu_C": "0.4", "T": 6, "gamma_c": "0.2", "Xi": "0.3", "R": "10", "Gamma_lab": "0.7", "n": 3},
     mp.exp(5 * M("0.4") / 6 * mp.exp(-M("0.8") * 3)) * mp.exp(-5 * M("0.7")) / 6)
case("loss_lb_75", {"r": "1e3", "nu_C": "12", "T": 6, "gamma_c": "0.5", "Xi": "1", "R": "1e-30", "Gamma_lab": "0.7", "n": 3},
     mp.exp(M(2000) * mp.exp(-M("0.5e-30")) - 700) / 6)
case("R0_thm5", {"M_x": "2", "T": 6, "nu_C": "0.4", "gamma_c": "0.2", "Xi": "0.3"}, mp.log(2 * 36 / M("0.4")) / (M("0.2") * M("0.3")))
case("R0_thm5", {"M_x": "2", "T": 6, "nu_C": "0.4", "gamma_c": "0.2", "Xi": "1e-400"}, mp.log(180) / M("0.2") * M("1e400"))
case("R0_80", {"T": 6, "M_x": "2", "Gamma_lab": "0.7", "upsilon": "0.1", "eps_rlx": "0.05", "Xi": "0.3", "gamma_c": "0.2"},
     mp.log(6 * 2 / (M("0.7") * M("0.1"))) / (M("0.05") * M("0.3") * M("0.9")))
case("R0_80", {"T": 6, "M_x": "2", "Gamma_lab": "0.7", "upsilon": "0.1", "eps_rlx": "1e-400", "Xi": "1", "gamma_c": "0.2"},
     mp.log(12 / M("0.07")) / M("0.9") * M("1e400"))
case("R0_thm6", {"M_x": "2", "T": 6, "nu_C": "0.4", "gamma_c": "0.2", "Xi": "0.3"}, 2 * mp.log(180) / M("0.06"))
case("R0_thm6", {"M_x": "2", "T": 6, "nu_C": "0.4", "gamma_c": "0.2", "Xi": "1e-400"}, 10 * mp.log(180) * M("1e400"))
case("r_min_thm6", {"n": 4, "gamma_c": "0.3"}, 3 * mp.log(8) / M("0.3"))
case("r_min_thm6", {"n": 4, "gamma_c": "1e-400"}, 3 * mp.log(8) * M("1e400"))

# ---- App. D
case("R0_thm8", {"T": 6, "gamma_c": "0.3", "Xi": "0.5"}, 3 * mp.log(6) / M("0.15"))
case("R0_thm8", {"T": 6, "gamma_c": "0.3", "Xi": "1e-400"}, 10 * mp.log(6) * M("1e400"))
case("rho0_thm8", {"T": 6, "gamma_c": "0.3", "Xi": "0.5"}, -M("0.5") * 3 * mp.log(6) / M("0.15") - mp.log(6))
case("rho0_thm8", {"T": 6, "gamma_c": "1e-400", "Xi": "0.5"}, -3 * mp.log(6) * M("1e400") - mp.log(6))
case("one_plus_Delta_thm8", {"gamma_c": "0.3"}, (1 - M("0.1")) / (1 - M("0.2")))
case("one_plus_Delta_thm8", {"gamma_c": "0.99999999999999999999999999999999999999"},
     (1 - M("0.99999999999999999999999999999999999999") / 3) / (1 - 2 * M("0.99999999999999999999999999999999999999") / 3))
case("Delta_thm8", {"gamma_c": "0.3"}, M("0.3") / M("2.4"))
case("Delta_thm8", {"gamma_c": "1e-400"}, M("1e-400") / (3 - M("2e-400")))
case("C_plus_14", {"B_l": "2", "C_l": "0.5", "nu_max": "1.5"}, M(4))
case("C_plus_14", {"B_l": "1e200", "C_l": "1e200", "nu_max": "1"}, M("1e200") * (M("1e200") + 1))
case("C_minus_14", {"A_l": "0.5", "eps_l": "0.2", "nu_min": "0.8", "n": 4}, M("0.5") * M("0.2") * M("0.8") / 4)
case("C_minus_14", {"A_l": "1e200", "eps_l": "1e200", "nu_min": "1", "n": 4}, M("1e400") / 4)
TH14 = {"B_l": "2", "C_l": "0.5", "nu_max": "1.5", "A_l": "0.5", "eps_l": "0.2", "nu_min": "0.8", "n": 4}
th14 = M(4) / (M("0.5") * M("0.2") * M("0.8") / 4)
case("Theta_14", TH14, th14)
case("Theta_14", {**TH14, "A_l": "1e-400"}, M(4) / (M("1e-400") * M("0.2") * M("0.8") / 4))
case("rho_14", {**TH14, "Delta": "0.25"}, -2 * (1 + 4) * mp.log(th14))
case("rho_14", {**TH14, "Delta": "1e-400"}, -2 * (1 + M("1e400")) * mp.log(th14))
case("C_thm1", {"gamma_min_all": "-0.3"}, M("0.3"))
case("C_thm1", {"gamma_min_all": "-1e400"}, M("1e400"))
case("C_thm1", {"gamma_min_all": "0.2"}, M(0))
case("eps_thm1", {"score_ratio_max": "0.7"}, M("0.3"))
case("eps_thm1", {"score_ratio_max": "-1e400"}, 1 + M("1e400"))

VALUE_CASES = CASES
mp.mp.dps = _SAVED_DPS


@pytest.mark.parametrize("name,vals,expected", VALUE_CASES)
def test_formula_value(name, vals, expected):
    got = value(name, **vals)
    assert close(got, expected), f"{name}: {mp.nstr(got, 35)} vs {mp.nstr(expected, 35)}"


def test_every_value_formula_is_pinned():
    pinned = {c.values[0] for c in VALUE_CASES}
    values = {f.id.split(".", 1)[1] for f in boundcalc.formulas(paper=PAPER) if f.kind in ("definition", "bound")}
    assert values - pinned == set()


def test_huge_values_leave_double_range():
    # the huge inputs above really leave the double range where the formula can
    v = value("L_p", **LP_HUGE)
    with mp.workdps(60):
        assert v > mp.mpf("1e308")
    with pytest.raises(OverflowError):
        float(boundcalc.formula(f"{PAPER}.L_p").evaluate(digits=30, **LP_HUGE))
    v = value("R0_57", **sub(L7_HUGE, "T", "delta", "pmm_norm", "K_max", "Gamma", "gamma_gap_min"),
              C0="7", mu="0.002")
    with mp.workdps(60):
        assert v > mp.mpf("1e400")


def test_value_independent_of_ambient_precision():
    # evaluate(digits=30) must not depend on the caller's mpmath precision
    with mp.workdps(60):
        expected = lp_of(LP_HUGE)
    with mp.workprec(53):
        got = value("L_p", **LP_HUGE)
    assert close(got, expected)
    with mp.workprec(53):
        got = value("loss_logistic", u_arg="-1e400")
    with mp.workdps(60):
        assert close(got, mp.mpf(10) ** 400)


# ------------------------------------------------------------------ requirements
def _just(x, rel):
    """x (1 + rel) as a 45-digit decimal string."""
    with mp.workdps(60):
        return mp.nstr(x * (1 + mp.mpf(rel)), 45)


def test_step_size_requirement():
    with mp.workdps(60):
        L = lp_of(LP_SMALL)
        eta_max = 1 / L                                    # eta <= 1/L_p (Lemma 6, Thms 2, 3)
    f = boundcalc.formula(f"{PAPER}.step_size")
    assert f.holds(eta=_just(eta_max, "-1e-25"), **LP_SMALL)
    assert not f.holds(eta=_just(eta_max, "1e-25"), **LP_SMALL)


def test_mu_cone_requirement():
    with mp.workdps(60):
        mu_max = (mp.mpf("0.07") / (mp.mpf("0.9") * mp.mpf("1.3"))) ** 2 / 8  # (32)
    f = boundcalc.formula(f"{PAPER}.mu_cone")
    ins = {"delta": "0.07", "K_max": "0.9", "pmm_norm": "1.3"}
    assert f.holds(mu=_just(mu_max, "-1e-25"), **ins)
    assert not f.holds(mu=_just(mu_max, "1e-25"), **ins)


def test_init_radius_requirement():
    d = sub(L7_SMALL, "T", "delta", "pmm_norm", "K_max", "Gamma", "gamma_gap_min")
    with mp.workdps(60):
        A = A_ref(d["K_max"], d["pmm_norm"])
        R0 = mfac(d["delta"]) * M(d["pmm_norm"]) * mp.log((2 - M("0.002")) * 7 * d["T"] * M(d["Gamma"]) * A
                                                          / (M("0.002") * M(d["gamma_gap_min"])))
    f = boundcalc.formula(f"{PAPER}.init_radius")
    assert f.holds(p0_norm=_just(R0, "1e-25"), C0="7", mu="0.002", **d)
    assert not f.holds(p0_norm=_just(R0, "-1e-25"), C0="7", mu="0.002", **d)


# ------------------------------------------------------------------ settings (experiments)
def _spectral(rows):
    with mp.workdps(60):
        X = mp.matrix([[mp.mpf(a) for a in r] for r in rows])
        return mp.sqrt(max(mp.eigsy(X.T * X)[0]))


FIG1A = [["-0.1", "1", "1"], ["1", "0", "0.9"], ["0", "0", "0.9"]]   # rows (key, score), v = e_3
FIG1B = [["-0.1", "1", "1"], ["1", "0", "0.9"], ["0", "0", "0"]]


def test_fig1b_setting_radius():
    # Fig. 1(b): keys (-0.1, 1), (1, 0), (0, 0); alpha = token (1, 0); p^mm = (1, 0);
    # delta = (1.1 - 1)/2; A = sqrt(1.01); Gamma = 1; gamma_gap_min = 0.9.
    with mp.workdps(60):
        A = mp.sqrt(mp.mpf("1.01"))
        mu = (mp.mpf("0.05") / A) ** 2 / 8                  # (32)
        assert mp.almosteq(mu, mp.mpf(1) / 3232, rel_eps=REL)
        C0 = 64 * mu / (2 - mu)                             # smallest C0 of (57)
        R0 = 20 * mp.log((2 - mu) * C0 * 3 * 1 * A / (mu * mp.mpf("0.9")))   # (57), max(2, 1/delta) = 20
    res = require(PAPER, "fig1b", {})
    assert res.var == "p0_norm"
    (r,) = res.results
    with mp.workdps(60):
        assert mp.almosteq(mp.mpf(r.solution.value), R0, rel_eps=mp.mpf(10) ** -12)
        assert 107 < R0 < 108   # far above the experiment's ||p(0)|| <= 1.5


def test_fig1_settings_step_size():
    # L_p of (24) for n = 1, v = e_3, W = diag(1, 1, 0), logistic loss (M0 = 1/4, M1 = 1):
    # 1/4 ||X||^4 + 3 ||X||^3 with the spectral norm of X = [(key, score)] computed here.
    for name, rows in (("fig1a", FIG1A), ("fig1b", FIG1B)):
        s = _spectral(rows)
        with mp.workdps(60):
            L = s ** 4 / 4 + 3 * s ** 3
        vals = get_registry().paper(PAPER).settings[name].values
        got = boundcalc.formula(f"{PAPER}.L_p").evaluate(
            digits=35, **{k: vals[k] for k in ("M0", "M1", "v_norm", "W_norm", "X4_mean", "X3_mean")}).mpf
        assert close(got, L)
    (r,) = require(PAPER, "fig1a", {}).results
    s = _spectral(FIG1A)
    with mp.workdps(60):
        assert mp.almosteq(mp.mpf(r.solution.value), 1 / (s ** 4 / 4 + 3 * s ** 3), rel_eps=mp.mpf(10) ** -12)


def test_fig9_setting_step_size():
    # unit tokens, T = 6: ||X_i||^2 <= T, so L_p <= 1/4 T^2 + 3 T^(3/2)
    (r,) = require(PAPER, "fig9", {}).results
    with mp.workdps(60):
        T = mp.mpf(6)
        assert mp.almosteq(mp.mpf(r.solution.value), 1 / (T ** 2 / 4 + 3 * T ** mp.mpf(1.5)),
                           rel_eps=mp.mpf(10) ** -12)


# ------------------------------------------------------------------ declared checks
def test_checks_declared():
    paper = get_registry().paper(PAPER)
    ids = [c.id for c in paper.checks]
    assert {"L_p_restated", "factor_56_from_lemma7", "R_pi_gives_L3_tail", "fig1b_init_radius",
            "logistic_bias_exact", "grad_15a_fd", "R0_58_solves"} <= set(ids)
    assert len(ids) == len(set(ids))


def test_fig1b_radius_is_outside_the_proof_not_vacuous():
    """Fig. 1(b) starts GD inside the radius (57) asks it to start beyond: R^0_mu =
    20 log(64 T K_max / (10 gamma_gap_min)) at T = 3, K_max = sqrt(101)/10, gap 0.9 (by hand:
    107.357), against the figure's norms <= 1.5 — a note on the proof's radius, not a vacuity."""
    from boundcalc.services.check import run_checks
    (f,) = run_checks(PAPER, only=["fig1b_init_radius"]).results
    with mp.workdps(40):
        want = 20 * mp.log(64 * 3 * (mp.sqrt(101) / 10) / mp.mpf("0.9"))
    assert f.severity == "note" and f.reason == "outside the proof's radius"
    assert mp.almosteq(mp.mpf(f.evidence["radius"]), want, rel_eps=1e-9)
    assert f.note.startswith("Not a vacuous bound")


def test_printed_gradient_matches_finite_differences():
    # independent confirmation of the identity checks: (15a) instance and |l'| of the logistic loss
    with mp.workdps(60):
        def L(p):
            s1 = 1 / (1 + mp.exp((mp.mpf("-0.4") - mp.mpf("1.3")) * p))
            return mp.log1p(mp.exp(-(mp.mpf("0.9") * s1 + mp.mpf("-0.2") * (1 - s1))))
        fd = mp.diff(L, mp.mpf("0.7"))
        fd2 = mp.diff(lambda u: mp.log1p(mp.exp(-u)), 1)
    got = value("grad_15a_scalar", p1="0.7", k_1="1.3", k_2="-0.4", gamma_1="0.9", gamma_2="-0.2")
    assert close(got, fd)
    v = value("abs_dloss_logistic", u_arg="1")
    with mp.workdps(60):
        assert close(-v, fd2)


# ------------------------------------------------------------------ second reading (issue 10)
# issue 35: a pass that needs one of its `assume` entries (it fails when re-run without them:
# an assumption added by us, not a quoted [[hypotheses]] entry) is "conditional"; a tautology of
# the encoding (a side that cancels, a claim that is its own assumption up to a positive factor)
# or a check marked identity = true is "identity". Fifth reading: lemma3_T2_instance's and
# fig3a_vmm_optimal's assumptions are Lemma 3's definitions and (SVM)'s constraints, quoted
# [[hypotheses]] (ok); exampleC_nu_positive's claim nu = ||a|| - sup ||x_it|| > 0 is its assumption
# ||x_it|| < ||a|| (identity). Sixth reading: exampleC_vmm_feasible's Y_i^2 = 1 is (ERM)'s, quoted (ok);
# lemma4_T2_instance now inherits Lemma 4's and Assumption B's quoted hypotheses, and its claim holds
# without them (a polynomial identity of the T = 2 instance the check wrote): identity
NEW_CHECKS = {
    "lemma3_T2_instance": "ok", "lemma4_T2_instance": "identity", "cls_row_transpose": "ok",
    "abstract_model_transpose": "note", "lemma1_grad_W": "ok", "lemma1_update": "ok",
    "assumptionA_logistic_M0": "identity", "assumptionA_logistic_second_derivative": "identity",
    "assumptionA_logistic_M1": "identity", "assumptionA_logistic_decreasing": "identity", "attsvm_selects": "identity",
    "thm1_eps_positive": "warning", "cone_7_distance": "ok", "thm7_margin_gap": "conditional",
    "exampleC_nu_positive": "identity", "grad_sum_from_25": "ok", "lemma8_sandwich_radius": "identity",
    "mu_below_one": "ok", "exampleC_vmm_feasible": "ok", "fig3a_vmm_optimal": "ok",
    "fig3a_vmm_feasible": "ok", "fig3b_yellow_not_support": "ok", "softmax_tail_from_33": "conditional",
    "ratio_31c_from_31a_31b": "ok", "factor_31c_unit_at_most_one": "conditional", "factor_56_at_most_one": "note",
    "C1_54_bounds_norm_growth": "conditional", "thm1_C_lower_85": "conditional",
    "lemma8_case1_threshold": "identity", "lemma8_case2_order": "ok", "logistic_bias_fig5_scores": "conditional",
    "logistic_below_exp": "identity", "logistic_lower_75": "ok", "thm5_74_from_eps_max": "conditional", "thm5_73_from_72": "ok",
}


def test_every_numbered_result_is_covered():
    from boundcalc.services.check import coverage
    rows = coverage(PAPER)
    main = ["eq. (1)", "eq. (2)", "eq. (3)", "eq. (4)", "eq. (5)", "eq. (ERM)", "Lemma 1", "Assumption A",
            "eq. (6)", "eq. (ATT-SVM)", "Definition 1", "Thm. 1", "Assumption B", "Thm. 2", "Lemma 2",
            "Definition 2", "eq. (7)", "eq. (8)", "Thm. 3", "Thm. 4", "eq. (9)", "eq. (SVM)",
            "Assumption C", "Thm. 5", "eq. (10)", "Thm. 6", "Sec. 4"]
    assert [r["result"] for r in rows][:len(main)] == main
    assert [r["result"] for r in rows if r["status"] != "audited"] == []


def test_second_reading_checks_grades():
    from boundcalc.services.check import run_checks
    rep = run_checks(PAPER, only=list(NEW_CHECKS))
    assert {r.check: r.severity for r in rep.results} == NEW_CHECKS


def _attn_terms(a, s, g):
    """a^T diag(s) gamma - a^T s s^T gamma for vectors of any length."""
    return mp.fsum(ai * si * gi for ai, si, gi in zip(a, s, g)) \
        - mp.fsum(ai * si for ai, si in zip(a, s)) * mp.fsum(si * gi for si, gi in zip(s, g))


def test_lemmas_3_and_4_on_random_two_token_inputs():
    """Lemma 3's bound and Lemma 4's identity (21) for T = 2, computed from the softmax
    Jacobian directly (random a, gamma, s_1; 60 digits)."""
    rng = __import__("random").Random(7)
    with mp.workdps(60):
        for _ in range(200):
            a = [M(rng.uniform(-3, 3)) for _ in range(2)]
            g = [M(rng.uniform(-3, 3)) for _ in range(2)]
            s1 = M(rng.random())
            s = [s1, 1 - s1]
            lhs = _attn_terms(a, s, g)
            A, Gam = max(abs(a[0]), abs(a[1])), abs(g[0] - g[1])
            lemma3 = abs(lhs - (a[0] - a[1]) * s[1] * (g[0] - g[1]))
            assert lemma3 <= 2 * Gam * A * (1 - s1) ** 2 + M(10) ** -50
            assert mp.almosteq(lhs, (a[0] - a[1]) * (g[0] - g[1]) * s1 * (1 - s1), rel_eps=M(10) ** -40,
                               abs_eps=M(10) ** -50)


def test_lemma1_gradient_descent_on_p_and_W_agree():
    """Lemma 1 on a d = 2, T = 2 instance: GD on p (step eta) and on W (step eta/||u||^2) from
    W(0) = u p(0)^T/||u||^2 keep W(t)^T u = p(t) (gradients by finite differences)."""
    with mp.workdps(40):
        X = mp.matrix([[M("0.3"), M("-1.1")], [M("1.4"), M("0.2")]])   # rows = tokens
        v = mp.matrix([M("0.7"), M("-0.5")])
        u = mp.matrix([M("1.5"), M("0.4")])
        Y, eta = 1, M("0.3")

        def loss_of_logits(z):
            e = [mp.exp(z[0]), mp.exp(z[1])]
            s = [e[0] / (e[0] + e[1]), e[1] / (e[0] + e[1])]
            f = sum(s[t] * sum(X[t, j] * v[j] for j in range(2)) for t in range(2))
            return mp.log1p(mp.exp(-Y * f))

        def Lp(p):
            return loss_of_logits([sum(X[t, j] * p[j] for j in range(2)) for t in range(2)])

        def LW(W):
            Wtu = [sum(W[i, j] * u[i] for i in range(2)) for j in range(2)]     # W^T u
            return Lp(Wtu)

        def grad(fun, x, shape):
            out = mp.matrix(*shape)
            h = M(10) ** -15
            for idx in (list(range(shape[0])) if shape[1] == 1 else
                        [(i, j) for i in range(shape[0]) for j in range(shape[1])]):
                xp, xm = x.copy(), x.copy()
                xp[idx] += h
                xm[idx] -= h
                out[idx] = (fun(xp) - fun(xm)) / (2 * h)
            return out

        p = mp.matrix([M("0.2"), M("-0.6")])
        un2 = u[0] ** 2 + u[1] ** 2
        W = mp.matrix(2, 2)
        for i in range(2):
            for j in range(2):
                W[i, j] = u[i] * p[j] / un2
        for _ in range(3):
            p = p - eta * grad(Lp, p, (2, 1))
            W = W - eta / un2 * grad(LW, W, (2, 2))
            Wtu = [sum(W[i, j] * u[i] for i in range(2)) for j in range(2)]
            assert all(abs(Wtu[j] - p[j]) < M(10) ** -20 for j in range(2))


def test_abstract_logits_differ_from_eq5_for_a_nonsymmetric_W():
    with mp.workdps(60):
        W = [[M(1), M(2)], [M(0), M(1)]]
        x, p = [M(1), M(0)], [M(0), M(1)]
        pTWx = sum(p[i] * W[i][j] * x[j] for i in range(2) for j in range(2))       # [CLS] row of (4)
        xTWtp = sum(x[j] * W[i][j] * p[i] for i in range(2) for j in range(2))      # (5): x^T W^T p
        xTWp = sum(x[i] * W[i][j] * p[j] for i in range(2) for j in range(2))       # abstract: x^T W p
    assert pTWx == xTWtp == 0 and xTWp == 2


def test_theorem1_proof_step_needs_a_positive_optimal_score():
    """1 - gamma_t/gamma_opt > 0 fails for gamma_opt = -1 > gamma_t = -2; shifting both scores
    by 3 (2 > 1) restores it."""
    with mp.workdps(60):
        assert 1 - M(-2) / M(-1) == -1
        assert 1 - M(1) / M(2) == M(1) / 2


def test_theorem7_gap_handed_to_lemma8():
    """(Gamma_q + eps Gamma)/(1 + eps) - (Gamma_q + M delta) with delta = eps (Gamma - Gamma_q)/(4M)
    is eps (Gamma - Gamma_q)(1/(1 + eps) - 1/4): at least eps (Gamma - Gamma_q)/4 iff eps <= 1."""
    vals = {"Gamma_q": "0.3", "Gamma_mm": "0.8", "eps_7": "0.5", "M_k": "2.5"}
    lb = value("Gamma_qprime_lb", Gamma_q="0.3", Gamma_mm="0.8", eps_7="0.5")
    d = value("delta_thm7", **vals)
    with mp.workdps(60):
        gq, g, e, m = M("0.3"), M("0.8"), M("0.5"), M("2.5")
        assert close(lb, (gq + e * g) / (1 + e))
        assert close(d, e * (g - gq) / (4 * m))
        gap = (gq + e * g) / (1 + e) - (gq + m * e * (g - gq) / (4 * m))
        assert gap >= e * (g - gq) / 4
        e2 = M(2)
        assert (gq + e2 * g) / (1 + e2) - (gq + e2 * (g - gq) / 4) < e2 * (g - gq) / 4


def test_printed_factor_of_56_can_exceed_one():
    """c/(C Theta A_bar) (the printed reading of (56)) against c Theta/(C A_bar) (Lemma 7 for the
    unit direction): with ||p^mm|| = 10 (Theta = 1/10), A_bar = 1/10 (A_bar/Theta = 1) and
    c/C = 1/16, the first is 100/16 = 6.25 > 1 -- impossible for a lower bound on a cosine --
    the second 1/16."""
    vals = {"ell_min": "1", "ell_max": "1", "gamma_gap_min": "1", "gamma_gap_bar_max": "1", "A_bar": "0.1", "pmm_norm": "10"}
    with mp.workdps(60):
        c, C, theta, abar = M(1) / 8, M(2), M(1) / 10, M(1) / 10
        assert close(value("corr_ratio_56", **vals), c / (C * theta * abar))
        assert close(value("corr_ratio_31c_unit", **vals), c * theta / (C * abar))
        assert mp.almosteq(c / (C * theta * abar), M(25) / 4) and mp.almosteq(c * theta / (C * abar), M(1) / 16)


def test_logistic_gradient_scale_at_fig5_scores():
    """gamma e^{-gamma}/(1 + e^{-gamma}): largest at gamma ~ 1.28 (so not decreasing on [1, 100]),
    but its value at 1 exceeds its value at every C >= 2 (it is decreasing from 1.28 on and
    f(2) < f(1))."""
    with mp.workdps(60):
        f = lambda g: g * mp.exp(-g) / (1 + mp.exp(-g))
        peak = mp.findroot(lambda g: mp.diff(f, g), 1.3)
        assert 1.27 < peak < 1.29 and f(peak) > f(1)
        assert f(2) < f(1) and all(f(M(c)) < f(1) for c in list(range(2, 11)) + [100])
        expected = f(M(2))
    assert close(value("grad_scale_logistic", gamma_opt="2"), expected)


def test_logistic_loss_between_the_bounds_of_74_and_75():
    """min(e^{-z}/2, log 2) <= log(1 + e^{-z}) <= e^{-z} on a grid of z in [-20, 20] (60 digits)."""
    with mp.workdps(60):
        for k in range(-200, 201):
            z = M(k) / 10
            val = mp.log1p(mp.exp(-z))
            assert min(mp.exp(-z) / 2, mp.log(2)) <= val <= mp.exp(-z)


# ------------------------------------------------------------------ issue 35: displayed steps, grades
# mu_below_one (and the R_mu/R0 checks of Lemma 7 / Thm. 3) rest on
# Gamma >= gamma_gap_min, A = K_max ||p^mm|| >= 1/2 and (57)'s C0 >= 64 mu/(2 - mu): quoted
# [[hypotheses]] of Thm. 3 / Lemma 7 (the referee's reading), so their passes are ok
STEP_CHECKS = {
    "combined_covers_58": "identity", "eq58_restates_56": "ok", "lemma5_scen1_23": "conditional",
    "lemma6_descent_25": "ok", "lemma7_50_neighbour_mass_T3": "conditional",
    "thm5_76_loss_lower": "conditional", "lemma12_quadrant_77": "conditional", "grad_14a_fd": "ok",
    "cone_invariance_55": "conditional",
}


def test_step_checks_grades_and_strength():
    """The checks of the displayed steps: grades, and each pass catches a mutant of the paper's side."""
    from boundcalc.services.check import run_checks
    rep = run_checks(PAPER, only=list(STEP_CHECKS), strength=True)
    got = {r.check: r for r in rep.results}
    assert {k: r.severity for k, r in got.items()} == STEP_CHECKS
    for k, r in got.items():
        if r.severity != "identity":    # combined_covers_58: max(a, b) >= b (sixth reading), no pass
            assert r.strength["paper_killed"] >= 1, k
    assert got["eq58_restates_56"].reading == "garbled"
    assert not got["combined_covers_58"].added


def test_hypotheses_of_theorem_3_hold_by_hand():
    """Gamma >= gamma_gap_min and K_max ||p^mm|| >= 1/2 on a random instance (T = 3, d = 2): gamma_gap =
    gamma_1 - max_{t in T_i} gamma_t <= sup |gamma_t - gamma_tau|; p^mm feasible for (ATT-SVM) forces
    2 max ||k|| ||p^mm|| >= 1 (Cauchy-Schwarz). With C0 = 64 mu/(2 - mu) the log of the combined
    radius is log(64 T Gamma A/gamma_gap_min) >= log(32 T) > 0."""
    rng = __import__("random").Random(35)
    with mp.workdps(40):
        for _ in range(200):
            k = [(M(rng.uniform(-3, 3)), M(rng.uniform(-3, 3))) for _ in range(3)]
            # the min-norm p with (k_1 - k_t)^T p >= 1 (t = 2, 3) has norm >= 1/max_t ||k_1 - k_t||
            d = [mp.sqrt((k[0][0] - k[t][0]) ** 2 + (k[0][1] - k[t][1]) ** 2) for t in (1, 2)]
            pmm_lb = 1 / max(d)
            kmax = max(mp.sqrt(a * a + b * b) for a, b in k)
            assert kmax * pmm_lb >= M(1) / 2
            g = [M(rng.uniform(-2, 2)) for _ in range(3)]
            gap = g[0] - max(g[1], g[2])
            Gamma = max(abs(a - b) for a in g for b in g)
            assert gap <= Gamma
        mu = M("0.3")
        C0 = 64 * mu / (2 - mu)
        T, Gam, A, gmin = M(3), M(1), M(1) / 2, M(1)
        C3 = C0 * Gam * A / gmin
        assert mp.almosteq((2 - mu) * C3 * T / mu, 64 * T * Gam * A / gmin)
        assert mp.log((2 - mu) * C3 * T / mu) > 0


def test_lemma5_scenario1_bracket_bound():
    """eps = pi/(2M): X(p-bar) <= X(p^mm) + 2 M eps = X(p^mm) + pi <= (1 + pi) X(p^mm) when X(p^mm) >= 1;
    with eps = pi/M the same bound fails at X(p^mm) = 1."""
    got = value("eps_lemma5", pi_slack="0.3", K_max="2.5")
    with mp.workdps(60):
        pi_, K = M("0.3"), M("2.5")
        assert close(got, pi_ / (2 * K))
        for xbar in (M(1), M("1.7"), M(40)):
            xa = xbar + 2 * K * pi_ / (2 * K)
            assert xa <= (1 + pi_) * xbar
        assert M(1) + 2 * K * pi_ / K > (1 + pi_) * 1


def test_lemma6_descent_on_a_quadratic():
    """(25) on f(p) = (L/2) p^2 (L-smooth): one GD step with eta <= 1/L decreases f by at least
    (eta/2) f'(p)^2, and by less than that with eta = 1.9/L (the factor 1 - L eta/2 < 1/2 there)."""
    with mp.workdps(40):
        L, p = M(3), M("1.3")
        f = lambda x: L * x * x / 2
        g = L * p
        for eta in (1 / L, M("0.2") / L):
            assert f(p - eta * g) <= f(p) - eta / 2 * g * g
        eta = M("1.9") / L
        assert f(p - eta * g) > f(p) - eta / 2 * g * g


def test_lemma7_neighbour_mass_behind_50():
    """T = 3 softmax at radius R: with a_1 the top score and a_1 - a_2 <= 1 - 2 nu, s_2 >= e^{-R(1 - 2 nu)}/3."""
    rng = __import__("random").Random(50)
    with mp.workdps(40):
        for _ in range(300):
            R, nu = M(rng.uniform(0.1, 30)), M(rng.uniform(0.01, 0.49))
            d2 = M(rng.uniform(0, float(1 - 2 * nu)))
            d3 = M(rng.uniform(0, 5))
            s2 = mp.exp(-R * d2) / (1 + mp.exp(-R * d2) + mp.exp(-R * d3))
            assert s2 >= mp.exp(-R * (1 - 2 * nu)) / 3


def test_thm5_loss_lower_bound_after_76():
    """(1/n) log(1 + e^{-m}) >= (1/(2n)) e^{gamma Gamma r/2} e^{-Gamma r} for 0 <= m <= (1 - gamma/2) Gamma r;
    with e^{gamma Gamma r} in place of e^{gamma Gamma r/2} it fails at m = (1 - gamma/2) Gamma r, r = 20."""
    rng = __import__("random").Random(76)
    with mp.workdps(40):
        for _ in range(300):
            n, g, G, r = M(rng.randint(1, 50)), M(rng.uniform(0.01, 0.99)), M(rng.uniform(0.1, 3)), M(rng.uniform(0.1, 40))
            m = M(rng.uniform(0, float((1 - g / 2) * G * r)))
            assert mp.log1p(mp.exp(-m)) / n >= mp.exp(g * G * r / 2) * mp.exp(-G * r) / (2 * n)
        g, G, r, n = M("0.5"), M(1), M(20), M(1)
        m = (1 - g / 2) * G * r
        assert mp.log1p(mp.exp(-m)) / n < mp.exp(g * G * r) * mp.exp(-G * r) / (2 * n)


def test_lemma12_selected_weight_at_most_half():
    """s_{alpha} = e^{z_a}/(e^{z_a} + e^{z_t} + rest) <= 1/2 once z_t > z_a (Lemma 12's contradiction)."""
    rng = __import__("random").Random(77)
    with mp.workdps(40):
        for _ in range(300):
            za = M(rng.uniform(-5, 5))
            zt = za + M(rng.uniform(1e-6, 5))
            rest = mp.fsum(mp.exp(M(rng.uniform(-5, 5))) for _ in range(rng.randint(0, 4)))
            s_a = mp.exp(za) / (mp.exp(za) + mp.exp(zt) + rest)
            assert s_a <= M(1) / 2


def test_gradient_14a_matches_finite_differences():
    """(14a) with (12a)-(12b), n = 1, T = 2, d = 1, psi = tanh, logistic loss: mpmath's derivative of
    L(p) = log(1 + exp(-Y tanh(x^T softmax(x W p)))) against the formula."""
    at = {"p1": "0.6", "w_11": "1.7", "tok_x1": "1.1", "tok_x2": "-0.5", "Y": "-1"}
    with mp.workdps(60):
        x1, x2, w, Y = M("1.1"), M("-0.5"), M("1.7"), M(-1)

        def L(p):
            e1, e2 = mp.exp(x1 * w * p), mp.exp(x2 * w * p)
            return mp.log1p(mp.exp(-Y * mp.tanh((x1 * e1 + x2 * e2) / (e1 + e2))))
        fd = mp.diff(L, M("0.6"))
    assert close(value("grad_14a_scalar", **at), fd)


def test_cone_invariance_55_by_hand():
    """REFEREE3 re-encoding: (1 - mu + eta rho (1 - eps)/P)/C_1 >= 1 - mu with C_1 = 1 + eta rho/P +
    eta^2 g^2/P (P = ||p(t)||) under eta <= (mu - eps)/(1 - mu) rho/g^2 of (55)-(56), for EVERY
    P > 0 (300 random points, 40 digits; P from 10^-3 to 10^3); the difference is the paper's
    last line eta/(C_1 P)((mu - eps) rho - eta (1 - mu) g^2), exactly 0 at the bound. The old
    encoding (numerator without /P, C_1 with P^2) failed at P = 1/2 — the artefact the referee
    rejected; the misprinted step size (1 - eps)/(1 - mu) rho/g^2 fails (0.600 < 0.9)."""
    rng = __import__("random").Random(55)
    with mp.workdps(40):
        def c1(rho, g, P, eta):
            return 1 + eta * rho / P + eta ** 2 * g ** 2 / P

        def lhs(mu, eps, rho, g, P, eta):
            return (1 - mu + eta * rho * (1 - eps) / P) / c1(rho, g, P, eta)
        for _ in range(300):
            mu = M(rng.uniform(0.01, 0.99))
            eps = mu * M(rng.uniform(0.001, 0.999))
            rho, g, P = M(rng.uniform(0.01, 10)), M(rng.uniform(0.01, 10)), 10 ** M(rng.uniform(-3, 3))
            eta = (mu - eps) / (1 - mu) * rho / g ** 2 * M(rng.uniform(0, 1))
            d = lhs(mu, eps, rho, g, P, eta) - (1 - mu)
            assert d >= 0
            assert close(d, eta / (c1(rho, g, P, eta) * P) * ((mu - eps) * rho - eta * (1 - mu) * g ** 2))
        mu, eps, rho, g = M("0.1"), M("0.05"), M(1), M(1)
        eta = (mu - eps) / (1 - mu) * rho / g ** 2
        for P in (M(1) / 100, M(1) / 2, M(1), M(100)):
            assert abs(lhs(mu, eps, rho, g, P, eta) - (1 - mu)) < M(10) ** -35
        # the old encoding's failure at P = 1/2
        old = (1 - mu + eta * rho * (1 - eps)) / (1 + eta * rho * 2 + eta ** 2 * g ** 2 * 4)
        assert old < 1 - mu
        bad = (1 - eps) / (1 - mu) * rho / g ** 2
        assert mp.nstr(lhs(mu, eps, rho, g, M(1), bad), 3) == "0.6"
    got = value("C1_54", eta="0.5", rho="2", p_norm="0.5", grad_norm="3")
    with mp.workdps(40):
        assert close(got, 1 + M("0.5") * 2 / M("0.5") + M("0.25") * 9 / M("0.5"))


def test_C1_54_norm_growth_needs_half():
    """(54): ||p - eta grad L||/||p|| = sqrt(1 + 2x + y) <= 1 + x + y/2 <= C_1 needs ||p|| >= 1/2 for
    y/2 = eta^2 g^2/(2P^2) <= eta^2 g^2/P; at P = 1/4, x = 0 (rho -> 0), eta g = 1/2 the ratio is
    sqrt 5 > C_1 = 2. The check quotes ||p(t)|| >= 1/2 and passes (conditional)."""
    from boundcalc.services.check import run_checks
    with mp.workdps(40):
        rng = __import__("random").Random(54)
        for _ in range(300):
            P = M(rng.uniform(0.5, 50))
            eta, g, rho = M(rng.uniform(0, 3)), M(rng.uniform(0, 3)), M(rng.uniform(0, 3))
            x = M(rng.uniform(-1, 1)) * min(eta * g / P, eta * rho / P) if rng.random() < 0.5 \
                else M(rng.uniform(float(-eta * g / P), float(eta * rho / P)))
            assert mp.sqrt(1 + 2 * x + eta ** 2 * g ** 2 / P ** 2) <= 1 + eta * rho / P + eta ** 2 * g ** 2 / P
        assert mp.sqrt(5) > 1 + (M(1) / 4) / (M(1) / 4)
    (f,) = run_checks(PAPER, only=["C1_54_bounds_norm_growth"]).results
    assert f.severity == "conditional"
    assert [a["assumption"] for a in f.added if a["needed"]][-1] == "p_norm >= 1/2"


# ------------------------------------------------------------------ issue 35: passes that could not fail
# identity: textbook facts and restatements (no display of the paper is checked)
IDENTITY_35 = ("logistic_below_exp", "assumptionA_logistic_decreasing", "corr_loss_bias", "lemma11_feasible")


def test_textbook_facts_and_restatements_are_identities():
    from boundcalc.services.check import run_checks
    rep = run_checks(PAPER, only=list(IDENTITY_35))
    assert {r.check: r.severity for r in rep.results} == dict.fromkeys(IDENTITY_35, "identity")


# REFEREE3: the logistic loss's M0, M1 and l'' are the formula sheet's values, not the paper's
LOGISTIC_SHEET = ("assumptionA_logistic_M0", "assumptionA_logistic_M1", "assumptionA_logistic_second_derivative")


def test_logistic_constants_of_the_sheet_are_recorded_not_passes():
    """The paper names the logistic loss under Assumption A but prints no M0, M1 or l'': the notes
    mark 1/4 and 1 as 'my values', so the three checks are identities with that reason; the values
    themselves are right (by hand: l''(u) = e^{-u}/(1 + e^{-u})^2 = 1/(4 cosh^2(u/2)) <= 1/4, equal
    at u = 0; |l'| = 1/(1 + e^u) < 1), checked here at 50 digits on a grid."""
    import os
    from pathlib import Path

    from boundcalc.services.check import run_checks
    root = Path(os.environ.get("BOUNDCALC_PAPERS", Path(__file__).resolve().parents[3] / "shared" / "papers"))
    notes = root / "notes" / "tarzanagh2023.md"
    if notes.exists():                 # the sheet's own words (absent outside the project's machine)
        assert "$M_0=1/4$ and $M_1=1$ (my values)" in notes.read_text()
    rep = {r.check: r for r in run_checks(PAPER, only=list(LOGISTIC_SHEET)).results}
    for cid in LOGISTIC_SHEET:
        assert rep[cid].severity == "identity" and "my values" in rep[cid].note
    with mp.workdps(50):
        for k in range(-200, 201):
            u = M(k) / 10
            l2 = mp.exp(-u) / (1 + mp.exp(-u)) ** 2
            assert close(l2, 1 / (4 * mp.cosh(u / 2) ** 2)) and l2 <= M(1) / 4
            assert mp.exp(-u) / (1 + mp.exp(-u)) < 1
        assert mp.exp(0) / (1 + mp.exp(0)) ** 2 == M(1) / 4
        assert close(mp.diff(lambda u: mp.exp(-u) / (1 + mp.exp(-u)), M("0.3")),
                     -mp.exp(M("-0.3")) / (1 + mp.exp(M("-0.3"))) ** 2)


def test_softmax_tail_of_35_and_71_by_hand():
    """T = 3, selected token 1, both tail terms at their bound y = e^{-x} (x = R Theta/2 for (35),
    R Xi for (71)): the mass 2y/(1 + 2y) is at most 3y for every x >= 0 (50 digits), and the
    misprints the rewritten checks catch fail: 3e^{-2x} (exponent doubled) at x = 2 and 4, y alone
    (T dropped) at x = 1."""
    with mp.workdps(50):
        for k in range(401):
            y = mp.exp(-M(k) / 20)
            assert 2 * y / (1 + 2 * y) <= 3 * y
        mass = lambda x: 2 * mp.exp(-x) / (1 + 2 * mp.exp(-x))
        assert mass(2) > 3 * mp.exp(-4) and mp.nstr(mass(2), 3) == "0.213" and mp.nstr(3 * mp.exp(-4), 2) == "0.055"
        assert mass(4) > 3 * mp.exp(-8) and mp.nstr(mass(4), 3) == "0.0353"
        assert mass(1) > mp.exp(-1)


# (check, where the paper's display is encoded, a misprint of it) -- each must turn the pass into
# an error; check --strength's operators (an exponent of a power moved, a term of a sum dropped)
# have no site in these products, so the misprints are planted here
MISPRINTS_35 = [
    ("softmax_tail_from_33", 'expr = "T*exp(-R*Theta/2)"', 'expr = "T*exp(-R*Theta)"'),     # (35)'s exponent
    ("thm5_71_softmax_tail_T3", 'expr = "T*exp(-R*Xi)"', 'expr = "exp(-R*Xi)"'),            # (71)'s T dropped
    ("lemma7_sandwich_lower", 'rhs = "(l7S + l7Q)*l7gg/8"', 'rhs = "(l7S + l7Q)*l7gg/4"'),  # 1/8 -> 1/4
    ("lemma7_case2_upper", 'rhs = "2*l7AoT*l7S*l7ggb"', 'rhs = "l7AoT*l7S*l7ggb"'),         # the factor 2 dropped
    ("lemma7_36_Q_term", 'rhs = "2*Gamma*A_q*s_q3"', 'rhs = "Gamma*A_q*s_q3"'),             # 2 Gamma A -> Gamma A
    ("thm1_C_lower_85", 'expr = "-min(gamma_min_all, 0)"', 'expr = "min(gamma_min_all, 0)"'),  # C's sign
    ("nnz_at_least_1", 'expr = "s_l1/s_l2**2"', 'expr = "s_l2**2/s_l1"'),                    # the ratio inverted
    ("logistic_bias_approx", 'expr = "gamma_opt*exp(-gamma_opt)"', 'expr = "gamma_opt**2*exp(-gamma_opt)"'),
]


def _planted_run(tmp_path, text: str, ids: list[str]) -> dict:
    import json
    # a user file may not redefine a shipped paper: the (planted) copy is a paper of its own
    assert text.count('key = "tarzanagh2023"') == 1
    f = tmp_path / "planted2023.toml"
    f.write_text(text.replace('key = "tarzanagh2023"', 'key = "planted2023"'), encoding="utf-8")
    only = [a for c in ids for a in ("--only", c)]
    from support import cli  # in process (issue 37): the real entry point
    p = cli(["check", "--formulas", str(f), "planted2023", *only, "--json", "--no-timings"])
    return json.loads(p.stdout)


def test_planted_misprints_of_the_paper_fail_the_checks(tmp_path):
    from boundcalc.registry.registry import packaged_dir
    src = (packaged_dir() / "tarzanagh2023.toml").read_text(encoding="utf-8")
    ids = [c for c, _, _ in MISPRINTS_35]
    clean = _planted_run(tmp_path, src, ids)            # the control: as shipped, no finding
    assert clean["counts"]["error"] == 0 and clean["checks_run"] == len(ids), clean["counts"]
    planted = src
    for _, old, new in MISPRINTS_35:
        assert planted.count(old) == 1, old
        planted = planted.replace(old, new)
    out = _planted_run(tmp_path, planted, ids)
    rows = {r["check"]: r["severity"] for r in out["findings"]}
    assert out["counts"]["error"] == len(ids), out["counts"]
    assert rows == dict.fromkeys(ids, "error"), rows


# ------------------------------------------------------------------ issue 35: steps l7_33 and l2_via_l11
EQ33_CHECKS = {"eq33_neighbour_vs_non": "conditional", "eq33_optimal_vs_non": "conditional",
               "eq33_neighbour_lower": "conditional", "eq33_neighbour_upper": "conditional",
               "lemma11_witness_projection": "ok"}


def test_eq33_and_lemma11_checks_grades_and_strength():
    """(33)'s four inequalities pass only under their (quoted, partly reconstructed) premises, and
    each pass, like Lemma 11's measured projection, catches a mutant of the paper's side."""
    from boundcalc.services.check import run_checks
    rep = run_checks(PAPER, only=list(EQ33_CHECKS), strength=True)
    got = {r.check: r for r in rep.results}
    assert {k: r.severity for k, r in got.items()} == EQ33_CHECKS
    for k, r in got.items():
        if r.severity != "identity":    # combined_covers_58: max(a, b) >= b (sixth reading), no pass
            assert r.strength["paper_killed"] >= 1, k
    for k in EQ33_CHECKS:
        if k.startswith("eq33_"):
            assert got[k].reading == "garbled"
            assert any(a["assumption"] == "mu <= mu_max" for a in got[k].added), k


def test_eq33_by_hand_tight_at_the_edge_of_the_cone():
    """(32)-(33) by hand: with mu = (1/8)(min(1/2, delta)/A)^2 the deviation bound 2 sqrt(2) A sqrt(mu)
    is min(1/2, delta) exactly, and at gap = 2 delta, deviation -min(1/2, delta) the first two
    inequalities of (33) hold with equality (delta <= 1/2): so 'delta' cannot be replaced by a larger
    multiple of delta, nor '1/2' and '3/2' by tighter numbers."""
    with mp.workdps(60):
        for A, delta in ((M(2), M("0.3")), (M("0.7"), M("0.05")), (M(3), M(2))):
            tol = min(M(1) / 2, delta)
            mu = (tol / A) ** 2 / 8
            dev = 2 * mp.sqrt(2) * A * mp.sqrt(mu)
            assert mp.almosteq(dev, tol, rel_eps=REL)
            first = 2 * delta - dev                       # (k_t - k_tau)^T q at the edge
            second = 1 + 2 * delta - dev                  # (k_alpha - k_tau)^T q, svm_nb = 1
            low, high = 1 - dev, 1 + dev                  # (k_alpha - k_t)^T q, t in T_i
            assert first >= delta - REL and second >= 1 + delta - REL
            assert low >= M(1) / 2 - REL and high <= M(3) / 2 + REL
            if delta <= M(1) / 2:
                assert mp.almosteq(first, delta, rel_eps=REL) and mp.almosteq(second, 1 + delta, rel_eps=REL)
            else:
                assert mp.almosteq(low, M(1) / 2, rel_eps=REL) and mp.almosteq(high, M(3) / 2, rel_eps=REL)


def test_lemma11_projection_by_hand():
    """Lemma 11 with NumPy by hand (not through the measurement): for v in range(W^T) and a rank-3 W
    of size 6, (W x_1 - W x_2)^T (W^T)^+ v = (x_1 - x_2)^T v; with W^+ in place of (W^T)^+, or a v
    outside range(W^T), the two sides differ (so the measured check can fail). The measurement at
    the check's sizes gives gap/gamma_bar = 0.75/0.25 = 3 for several seeds."""
    import numpy as np

    from boundcalc.engine.measurements import measure
    g = np.random.default_rng(11)
    W = g.standard_normal((6, 3)) @ g.standard_normal((3, 6))
    v_in, v_out = W.T @ g.standard_normal(6), g.standard_normal(6)
    x1, x2 = g.standard_normal(6), g.standard_normal(6)
    def lhs(P, v):
        return float((W @ x1 - W @ x2) @ (P @ v))
    assert abs(lhs(np.linalg.pinv(W.T), v_in) - (x1 - x2) @ v_in) < 1e-9
    assert abs(lhs(np.linalg.pinv(W), v_in) - (x1 - x2) @ v_in) > 1e-3
    assert abs(lhs(np.linalg.pinv(W.T), v_out) - (x1 - x2) @ v_out) > 1e-3
    for seed in range(3):
        val = measure("tarzanagh2023.lemma11_witness_margin", n=4, T=3, d=6, rank=3,
                      gamma_bar=0.25, gap_pair=0.75, seed=seed)
        assert abs(val - 3) < 1e-9


# ------------------------------------------------ issue 35 (referee 4): quoted hypotheses, not added ones
QUOTED_35 = {
    # the definitions of l'_min / l'_max (proof of Lemma 7, after (40)): l'_min <= -l'_i <= l'_max
    "lemma7_41_C": "Lemma 7", "lemma7_41_c": "Lemma 7",
    # the proof's choice 'C0 >= 64 pi to ensure R = R_pi >= R_mu' (after (46))
    "R_pi_above_R_mu": "Lemma 7",
    # the proof's 'when R >= R0 := 2 log(M T^2/nu)/(gamma Xi)' (after (82)) and 'whenever R >= R0' (before (80))
    "thm6_threshold": "Thm. 6", "thm6_non_support": "Thm. 6",
}


def test_quoted_hypotheses_make_conditionals_ok():
    """Each of these passed only under an `assume` entry whose reason quoted the paper's own
    definition or choice (conditional, 'added by us'); stated as [[hypotheses]] of the result
    with the quote they are the paper's: ok, nothing added. Each still needs its hypothesis
    (by hand: thm6_threshold at R = 0, M = T = nu = 1 compares 1 >= 1, but at M = 2 it is
    1 >= 2, false; R_pi >= R_mu needs the C0 choice), so the hypothesis is used, not idle."""
    from boundcalc.services.check import run_checks
    got = {f.check: f for f in run_checks("tarzanagh2023", only=list(QUOTED_35)).results}
    for cid, result in QUOTED_35.items():
        f = got[cid]
        assert f.severity == "ok", (cid, f.severity, f.message)
        assert not f.added, (cid, f.added)
        froms = [h["from"] for h in f.evidence.get("hypotheses", [])]
        assert any(result in x for x in froms) and "added by the check" not in froms, (cid, froms)


# --------------------------------------------------------------------------- issue 35, fifth referee reading
QUOTED_35_5 = {
    # (SVM)'s constraints Y_i v^T r_i >= 1 at Fig. 3(a)'s printed optimal tokens and labels
    "fig3a_vmm_optimal": "eq. (SVM)", "lemma3_T2_instance": "Lemma 3",
    # Lemma 6: 'the function L(p) is Lp-smooth' and 'if eta <= 1/Lp'
    "lemma6_descent_25": "Lemma 6",
    # Lemma 3's definitions: s a softmax vector, A = sup_t |k_t^T q|, Gamma = sup |gamma_t - gamma_tau|
    "lemma3_T3_instance_upper": "Lemma 3", "lemma3_T3_instance_lower": "Lemma 3",
}


def test_quoted_hypotheses_make_conditionals_ok_fifth_reading():
    """Every assumption these passed under was a hypothesis or definition the paper states
    (their reasons quoted it): as [[hypotheses]] they are the paper's, ok, nothing added."""
    import tomllib
    from pathlib import Path

    from boundcalc.services.check import run_checks
    # each quote is word for word in the text or the formula sheet
    root = Path("/work/shared/papers")
    if (root / "notes" / "tarzanagh2023.md").exists():
        body = (root / "notes" / "tarzanagh2023.md").read_text("utf-8") + \
            (root / "003_04b0af99deb573f1.txt").read_text("utf-8")
        data = tomllib.loads((Path(__file__).resolve().parents[2] / "formulas" / "tarzanagh2023.toml").read_text("utf-8"))
        hyps = [h for h in data["hypotheses"] if h["result"] in ("Lemma 3", "Lemma 6", "eq. (SVM)", "Definition 2")
                or h.get("expr") == "gap_nbr_non >= 2*delta"]
        assert len(hyps) == 15   # sixth reading: (ERM)'s labels, an eq. (SVM) hypothesis
        for h in hyps:
            assert h["quote"] in body, h["quote"]
    got = {f.check: f for f in run_checks(PAPER, only=list(QUOTED_35_5)).results}
    for cid, result in QUOTED_35_5.items():
        f = got[cid]
        assert f.severity == "ok", (cid, f.severity, f.message)
        assert not f.added, (cid, f.added)
        froms = [h["from"] for h in f.evidence.get("hypotheses", [])]
        assert any(result in x for x in froms) and "added by the check" not in froms, (cid, froms)


def test_eq33_lists_only_the_reconstructions_as_added():
    """(33) from delta's definition (32) and Definition 2 (quoted hypotheses) and the two
    reconstructed parts, the deviation bound and mu <= mu_max [R]: conditional, and only those
    two are listed as added by us."""
    from boundcalc.services.check import run_checks
    ids = ["eq33_neighbour_vs_non", "eq33_optimal_vs_non", "eq33_neighbour_lower", "eq33_neighbour_upper"]
    got = {f.check: f for f in run_checks(PAPER, only=ids).results}
    for cid in ids:
        f = got[cid]
        assert f.severity == "conditional", (cid, f.severity, f.message)
        assert sorted(x["assumption"] for x in f.added) == ["abs(dev_q) <= cone_deviation", "mu <= mu_max"], f.added
        froms = {h["from"] for h in f.evidence["hypotheses"]}
        assert "Definition 2" in froms or "Lemma 7" in froms, (cid, froms)


def test_nnz_ends_restate_their_assumption():
    """nnz_hat = s_l1/s_l2^2 >= 1 assuming s_l2^2 <= s_l1, and <= T assuming T s_l2^2 >= s_l1^2,
    both at s_l1 = 1: the claim is the assumption divided by s_l2^2 > 0: identity (tautology),
    not a pass."""
    from boundcalc.services.check import run_checks
    got = {f.check: f for f in run_checks(PAPER, only=["nnz_at_least_1", "nnz_at_most_T"]).results}
    for cid, a in (("nnz_at_least_1", "s_l2**2 <= s_l1"), ("nnz_at_most_T", "T*s_l2**2 >= s_l1**2")):
        f = got[cid]
        assert (f.severity, f.reason) == ("identity", "tautology"), (cid, f.severity, f.message)
        assert f"its own assumption {a}" in f.message and "s_l1 = 1" in f.message, f.message
    # the rule's edge: thm2_eq52_from_summing_51's claim is its assumption L_t >= L_star times
    # 2 eta (1 - eps)/||p(t)||, a factor of the named formula's symbols (eps, eta, p_norm), not of
    # the assumption's: (52)'s constant is checked, the pass stays (conditional)
    (g,) = run_checks(PAPER, only=["thm2_eq52_from_summing_51"]).results
    assert g.severity == "conditional", (g.severity, g.message)


def test_thm8_bounds_rest_on_the_proofs_quoted_threshold():
    """Seventh referee reading, item 5 (issue 35, h35-cov): the proof of Thm. 8 prints 'Set R0 =
    3 gamma^-1 Xi^-1 log T ... rho0 >= log(q*max) implies R >= R0 and log T <= gamma Xi R/3': a
    quoted [[hypotheses]] entry of Thm. 8, no longer an assumption added by us, so thm8_qhat and
    thm8_qstar are ok. By hand at the threshold log T = gamma Xi R/3 (gamma = 0.3, Xi = 0.5, R = 20,
    so log T = 1): -(1 - gamma) Xi R - log T = -7 - 1 = -8 >= -(1 - 2 gamma/3) Xi R = -8 (equality),
    and -Xi R + log T = -10 + 1 = -9 <= -(1 - gamma/3) Xi R = -9 (equality): the bounds are tight
    at R0, so a threshold with 2 for 3 (log T = gamma Xi R/2 = 1.5) fails both (-8.5 < -8; -8.5 > -9)."""
    import tomllib
    from pathlib import Path

    import mpmath

    from boundcalc.services.check import run_checks
    g, xi, r = mpmath.mpf("0.3"), mpmath.mpf("0.5"), mpmath.mpf(20)
    logT = g * xi * r / 3
    assert mpmath.almosteq(logT, 1, 1e-25)
    assert mpmath.almosteq(-(1 - g) * xi * r - logT, -(1 - 2 * g / 3) * xi * r, 1e-25)
    assert mpmath.almosteq(-xi * r + logT, -(1 - g / 3) * xi * r, 1e-25)
    logT2 = g * xi * r / 2
    assert -(1 - g) * xi * r - logT2 < -(1 - 2 * g / 3) * xi * r and -xi * r + logT2 > -(1 - g / 3) * xi * r
    data = tomllib.loads((Path(__file__).resolve().parents[2] / "formulas" / "tarzanagh2023.toml").read_text("utf-8"))
    (h,) = [h for h in data["hypotheses"] if h["result"] == "Thm. 8"]
    assert h["expr"] == "R >= 3*log(T)/(gamma_c*Xi)"
    txt = Path("/work/shared/papers/003_04b0af99deb573f1.txt")
    if txt.exists():
        assert h["quote"] in txt.read_text("utf-8")
    got = {f.check: f for f in run_checks(PAPER, only=["thm8_qhat", "thm8_qstar"]).results}
    for cid, f in got.items():
        assert f.severity == "ok" and not f.added, (cid, f.severity, f.added, f.message)
        assert "Thm. 8" in [x["from"] for x in f.evidence["hypotheses"]], cid


# ------------------------------------------------------------------ eighth referee reading (issue 35)
RECONSTRUCTED_DENOMINATORS = ["R_eps_from_R_pi", "R0_57_from_R_eps", "R0_58_solves"]


def test_reconstructed_denominators_say_only_the_numerators_are_tested():
    """(46), R_eps, (57) and (58) keep only their numerators in the text; the denominators and the
    '/Theta log' are the sheet's [R], forced by the relations these checks test. By hand: 1/pi at
    pi = eps/(1 - eps) is (1 - eps)/eps, R_eps's argument over C_0 T Gamma A / gamma^gap_min; at
    eps = mu/2 that is (2 - mu)/mu, (57)'s; and mu/(2 - mu)/(C_2 T) exp(R Theta/2) at
    R = (2/Theta) log((2 - mu) C_2 T/(mu L_p)) is 1/L_p. A printed numerator (1 + eps) breaks the
    first (the ratio is (1 + eps)/(1 - eps) != 1), so the passes test the surviving numerators: they
    stay 'ok', and each says it rests on one reading of garbled text."""
    from boundcalc.services.check import run_checks
    with mp.workdps(50):
        eps, mu, C2T, Lp, th = M("0.15"), M("0.3"), M("7.5"), M("2.25"), M("0.8")
        pi = eps / (1 - eps)
        assert mp.almosteq(1 / pi, (1 - eps) / eps, rel_eps=M(10) ** -45)
        assert mp.almosteq((1 - mu / 2) / (mu / 2), (2 - mu) / mu, rel_eps=M(10) ** -45)
        R = 2 / th * mp.log((2 - mu) * C2T / (mu * Lp))
        assert mp.almosteq(mu / (2 - mu) / C2T * mp.exp(R * th / 2), 1 / Lp, rel_eps=M(10) ** -45)
        assert not mp.almosteq((1 + eps) / eps, 1 / pi, rel_eps=M(10) ** -3)
    got = {f.check: f for f in run_checks(PAPER, only=RECONSTRUCTED_DENOMINATORS).results}
    for cid in RECONSTRUCTED_DENOMINATORS:
        f = got[cid]
        assert (f.severity, f.reading) == ("ok", "garbled"), (cid, f.severity, f.reading)
        assert "surviving" in f.note and "[R]" in f.note and "reconstruction" in f.note, cid


def test_cone_7_distance_can_fail_on_the_quoted_cone():
    """(7)'s cone condition <q/||q||, p^mm/||p^mm||> >= 1 - mu is a quoted hypothesis of eq. (7), no
    longer an assumption of ours, so the check is the proof of Lemma 7's step 'q pmm 2/ pmm 2 2µ'
    (||q - p^mm||^2/||p^mm||^2 <= 2 mu for ||q|| = ||p^mm||) against the paper's (7), not its own
    assumption restated. By hand: ||q - p||^2/||p||^2 = 2 - 2 cos at ||q|| = ||p||, and cos >= 1 - mu
    gives 2(1 - cos) <= 2 mu, attained at cos = 1 - mu; so a printed '<= mu' fails there (2 mu > mu)
    and the grade is 'ok', with the hypothesis dropped by --strength caught."""
    from boundcalc.services.check import run_checks
    with mp.workdps(40):
        mu, pn = M("0.3"), M("2.5")
        q = [pn * (1 - mu), pn * mp.sqrt(1 - (1 - mu) ** 2)]          # ||q|| = ||p||, cos = 1 - mu
        dist2 = (q[0] - pn) ** 2 + q[1] ** 2
        assert mp.almosteq(dist2 / pn ** 2, 2 * mu, rel_eps=M(10) ** -35) and dist2 / pn ** 2 > mu
    data = tomllib.loads((Path(__file__).resolve().parents[2] / "formulas" / f"{PAPER}.toml")
                                       .read_text(encoding="utf-8"))
    hyp = [h for h in data["hypotheses"] if h.get("expr") == "cos_qp >= 1 - mu"]
    assert [h["result"] for h in hyp] == ["eq. (7)"]
    text = Path("/work/shared/papers/003_04b0af99deb573f1.txt")
    if text.exists():                                    # the quote, word for word in the text copy
        assert hyp[0]["quote"] in text.read_text(encoding="utf-8")
    (f,) = run_checks(PAPER, only=["cone_7_distance"], strength=True).results
    assert (f.severity, f.added) == ("ok", []), (f.severity, f.message)
    assert "premise: drop 'cos_qp >= 1 - mu'" in f.strength["paper_caught"], f.strength


def test_quoted_premises_make_ab_51_and_36_Q_term_ok():
    """ab_inequality_51's 'for any a, b > 0' (proof of Thm. 2) and lemma7_36_Q_term's |a_t| <= A,
    |gamma_1 - gamma_3| <= Gamma (the proof of Lemma 7's definitions of A and Gamma) are quoted
    [[hypotheses]] now, each quote word for word in the text copy, so the passes are 'ok' with nothing
    added by us. They can fail (by hand): (a^2 - b^2)/(2b) - (a - b) = (a - b)^2/(2b) is -2 at
    a = 1, b = -1; and at a_1 = -a_3 = A, gamma_1 - gamma_3 = Gamma the Q term is 2 Gamma A s_3
    exactly, so a printed Gamma A fails (the planted misprint of MISPRINTS_35)."""
    from boundcalc.services.check import run_checks
    with mp.workdps(30):
        a, b = M(1), M(-1)
        assert (a ** 2 - b ** 2) / (2 * b) - (a - b) == -2
        A, G, s3 = M("1.5"), M("0.75"), M("0.25")                    # dyadic: exact in binary
        assert abs((A - -A) * s3 * G) == 2 * G * A * s3 > G * A * s3
    data = tomllib.loads((Path(__file__).resolve().parents[2] / "formulas" / f"{PAPER}.toml")
                         .read_text(encoding="utf-8"))
    text = Path("/work/shared/papers/003_04b0af99deb573f1.txt")
    body = text.read_text(encoding="utf-8") if text.exists() else None
    for expr, result in (("a_aux > 0", "Thm. 2"), ("b_aux > 0", "Thm. 2"), ("abs(att_a3) <= A_q", "Lemma 7"),
                         ("abs(gamma_1 - gamma_3) <= Gamma", "Lemma 7")):
        (h,) = [h for h in data["hypotheses"] if h.get("expr") == expr and h["result"] == result]
        if body is not None:
            assert h["quote"] in body, expr
    got = {f.check: f for f in run_checks(PAPER, only=["ab_inequality_51", "lemma7_36_Q_term"]).results}
    for cid, f in got.items():
        assert (f.severity, f.added) == ("ok", []), (cid, f.severity, f.message)


def test_lemma7_42_T3_ok_and_sandwich_lower_conditional_on_what_is_ours():
    """lemma7_42_T3's four premises (Case 2's 'a1 - at <= ||k1 - kt|| ||q|| <= A-bar/Theta' and the
    definition of gamma-bar^gap, at t = 2, 3) are quoted hypotheses of Lemma 7: 'ok', nothing added.
    It can fail (by hand): at d_t = A-bar/Theta = 2, G_t = gamma-bar = 1, s_2 = s_3 = 1/4 the left side
    sum_t d_t s_t G_t = 1 equals (A-bar/Theta)(s_2 + s_3) gamma-bar exactly, so a (42) printed without
    its A-bar/Theta (right side 1/2) fails. lemma7_sandwich_lower keeps two assume entries, the Case 1
    bound Y >= S gamma^gap/2 (a hypothesis of Lemma 7 would reach the Case 2 check, which shares Y)
    and (37) with our step 2 Gamma A ((1 - s_1)^2 + Q) <= 4 Gamma A max(...): still 'conditional',
    both needed (without Y's bound, Y = 0, E = S gamma/4 gives X = -S gamma/4 < (S + Q) gamma/8)."""
    from boundcalc.services.check import run_checks
    d, G, s2, s3 = M(2), M(1), M(1) / 4, M(1) / 4
    assert d * s2 * G + d * s3 * G == d * (s2 + s3) * G == 1 > (s2 + s3) * G
    S, Q, gg = M(1), M(1) / 2, M(1)
    assert 0 - S * gg / 4 < (S + Q) * gg / 8
    got = {f.check: f for f in run_checks(PAPER, only=["lemma7_42_T3", "lemma7_sandwich_lower"]).results}
    assert (got["lemma7_42_T3"].severity, got["lemma7_42_T3"].added) == ("ok", [])
    f = got["lemma7_sandwich_lower"]
    assert f.severity == "conditional", f.message
    assert {(a["assumption"], a["needed"]) for a in f.added} == {("l7Y >= l7S*l7gg/2", True),
                                                                  ("l7E <= l7S*l7gg/4", True)}
    hyps = {h["hypothesis"] for h in f.evidence["hypotheses"] if h["from"] == "Lemma 7"}
    assert {"l7X >= l7Y - l7E", "l7Q <= l7S"} <= hyps, hyps
