"""The settings of ``compare`` and the reproductions, parsed and checked.
"""
from __future__ import annotations

import math
from typing import Any

from ..settings import as_float, as_int, bad, check_known

PAPER = "arda2026"
SIGMA = (1.0, 1.0, 4.0 / (3.0 * math.sqrt(3.0)))      # tanh: sup|s|, sup|s'|, sup|s''|

SETTINGS: dict[str, tuple[object, str]] = {
    "widths": ("8,16,32,64", "comma-separated even widths m (number of heads)"),
    "d": (8, "token dimension"),
    "T": (16, "tokens per input"),
    "n": (500, "training samples"),
    "R": (16, "teacher anchors"),
    "pool": (2048, "teacher Monte-Carlo pool size m~ (paper: 8192)"),
    "nu": ("3,3,3", "teacher norm budget (nu_c, nu_u, nu_w)"),
    "rho": ("3,3,3", "projection radii (rho_c, rho_u, rho_w)"),
    "tau": (300, "ProjGD steps"),
    "eta": ("paper", "step size: 'paper' = 1/sqrt(tau) (Theorem 1), or a number"),
    "weights": ("uniform", "teacher anchor weights: uniform (paper, 1/R) | signed (authors' code)"),
    "teacher": ("paper", ("teacher features: paper (X^T W q_X) | authors-code (X^T diag(W) q_X, the "
                         "einsum('kdd,bd->bkd') of the authors' data.py)")),
    "seeds": (1, "number of seeds (seed, seed+1, ...); table shows the worst case over seeds"),
    "delta": (0.05, "failure probability delta of Lemma 5"),
    "delta_prime": (0.05, "failure probability delta' of Definition 1"),
    "dtype": ("float64", ("precision of the ProjGD steps: float64 | float32 (a float32 run also trains "
                         "its first seed in float64 and records the difference)")),
}


def _triple(name, v) -> tuple[float, float, float]:
    parts = v.split(",") if isinstance(v, str) else list(v) if isinstance(v, (list, tuple)) else None
    if parts is None or len(parts) != 3:
        bad(name, f"expected three numbers 'a,b,c', got {v!r}")
    t = (as_float(name, parts[0]), as_float(name, parts[1]), as_float(name, parts[2]))
    if any(x <= 0 for x in t):
        bad(name, f"all three must be > 0, got {v!r}")
    return t


def _widths(v) -> list[int]:
    parts = v.split(",") if isinstance(v, str) else list(v) if isinstance(v, (list, tuple)) else [v]
    ws = [as_int("widths", p) for p in parts if not (isinstance(p, str) and not p.strip())]
    if not ws:
        bad("widths", "needs at least one width")
    for w in ws:
        if w < 2 or w % 2:
            bad("widths", f"every width must be a positive even integer (paired heads), got {w}")
    if len(set(ws)) != len(ws):
        bad("widths", f"widths must be distinct, got {ws}")
    return sorted(ws)


def parse_settings(settings: dict) -> dict:
    """Defaults + ``settings`` (CLI strings allowed), converted and validated."""
    check_known(settings, SETTINGS, PAPER)
    s = {k: v[0] for k, v in SETTINGS.items()}
    s.update(settings)
    c: dict[str, Any] = {"widths": _widths(s["widths"])}
    for k in ("d", "T", "n", "R", "pool", "tau", "seeds"):
        c[k] = as_int(k, s[k])
        if c[k] < 1:
            bad(k, f"must be a positive integer, got {s[k]!r}")
    if c["T"] < 2:      # one token: softmax = 1 whatever W is, so W has no gradient (no boundary direction)
        bad("T", f"must be at least 2, got {s['T']!r}: with one token the attention weight is 1 whatever "
                 "W is, so the W block of the model (and of Lemma 3's boundary point) has no direction")
    c["nu"] = _triple("nu", s["nu"])
    c["rho"] = _triple("rho", s["rho"])
    e = s["eta"]
    if isinstance(e, str) and e.strip() == "paper":
        c["eta"] = "paper"
    else:
        c["eta"] = as_float("eta", e)
        if c["eta"] <= 0:
            bad("eta", f"must be > 0 (or 'paper'), got {e!r}")
    w = str(s["weights"]).strip()
    if w not in ("uniform", "signed"):
        bad("weights", f"must be 'uniform' or 'signed', got {s['weights']!r}")
    c["weights"] = w
    t = str(s["teacher"]).strip()
    if t not in ("paper", "authors-code"):
        bad("teacher", f"must be 'paper' or 'authors-code', got {s['teacher']!r}")
    c["teacher"] = t
    for k in ("delta", "delta_prime"):
        c[k] = as_float(k, s[k])
        if not 0 < c[k] < 1:
            bad(k, f"must lie in (0, 1), got {s[k]!r}")
    if c["delta"] + c["delta_prime"] >= 1:
        bad("delta", "delta + delta_prime must be < 1 (Theorem 1's probability 1 - delta - delta')")
    from ..precision import parse_dtype
    c["dtype"] = parse_dtype(s["dtype"], bad)
    return c


def eta_of(c: dict) -> float:
    return 1.0 / math.sqrt(c["tau"]) if c["eta"] == "paper" else float(c["eta"])
