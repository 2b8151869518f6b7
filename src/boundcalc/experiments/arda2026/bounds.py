"""The paper's bounds (Lemmas 3, 4, Thm. 1) at one width.
"""
from __future__ import annotations

from .settings import PAPER, SIGMA


def _f(fid):
    from ...services.formula import formula
    return formula(f"{PAPER}.{fid}")


def _num(x) -> str:
    return repr(float(x))


def bounds_at(c: dict, m: int) -> dict:
    """B_lin, B_app, U0 radius and Theorem 1's bound (with its terms) at width m."""
    s0, s1, s2 = (_num(v) for v in SIGMA)
    rc, ru, rw = (_num(v) for v in c["rho"])
    nc, nu_, nw = (_num(v) for v in c["nu"])
    dp, de = _num(c["delta_prime"]), _num(c["delta"])
    d, n, tau = c["d"], c["n"], c["tau"]
    lin = {"d": d, "delta_prime": dp, "m": m, "rho_c": rc, "rho_u": ru, "rho_w": rw, "sigma_1": s1, "sigma_2": s2}
    app = {"delta": de, "m": m, "n": n, "nu_c": nc, "nu_u": nu_, "nu_w": nw, "sigma_0": s0, "sigma_1": s1}
    thm = {**lin, **app, "tau": tau}
    out = {"B_lin": _f("B_lin").evaluate(**lin), "B_app": _f("B_app").evaluate(**app),
           "U0_radius": _f("U0_radius").evaluate(d=d, delta_prime=dp, m=m),
           "thm1_min": _f("thm1_min").evaluate(**thm)}
    for t in ("thm1_opt", "thm1_app", "thm1_lin", "thm1_cof"):
        F = _f(t)
        out[t] = F.evaluate(**{k: v for k, v in thm.items() if k in F.symbol_table})
    return out
