"""The paper's bounds (Cor. 2, Thm. 1, Prop. 3, Sec. 5.3) for one configuration and its
measurements.
"""
from __future__ import annotations

from typing import Any

from ...mpmath_import import mpmath
from .settings import PAPER


def _f(fid):
    from ...services.formula import formula
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
    noise = {"Z": _num(m["Z"]), "Z_mu": _num(m["Z_mu"]), "Z_nu": _num(m["Z_nu"])}
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
        g = {"B_Phi": _num(B_Phi), "K": K, "gamma": _num(gamma)}
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
