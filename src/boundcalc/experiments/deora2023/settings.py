"""The settings of ``compare`` and the reproduction, parsed and checked.
"""
from __future__ import annotations

from typing import Any

from ...errors import BoundcalcError
from ..settings import as_float, as_int, bad, check_known

PAPER = "deora2023"

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
    "P": ("measured", ("first-phase error bound P of Lemma 2: 'measured' (realised ||p||, see notes), "
                      "'lemma2' (eq. (6) with its constant C = 1) or a number >= 0")),
    "dtype": ("float64", ("precision of the second-phase GD steps: float64 | float32 (deora2023-dm1 in "
                         "float32 also trains its first seed in float64 and records the difference)")),
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
    from ..precision import parse_dtype
    out["dtype"] = parse_dtype(s["dtype"], bad)
    return out
