"""Tarzanagh et al. (2023), max-margin token selection: the largest step size the
convergence theorems allow at the paper's own instances, and the bounds beside the
engine's gradient descent.

Run: python examples/tarzanagh2023_step_size.py
Writes tarzanagh2023-step-size.md and .csv next to this script (or into
$BOUNDCALC_EXAMPLES_OUT). BOUNDCALC_EXAMPLES_QUICK=1 uses fewer steps (what CI runs).
"""
from __future__ import annotations

import os
from pathlib import Path

from boundcalc.services.require import require, to_json

QUICK = os.environ.get("BOUNDCALC_EXAMPLES_QUICK") == "1"
OUT = Path(os.environ.get("BOUNDCALC_EXAMPLES_OUT") or Path(__file__).resolve().parent)
lines = ["# Tarzanagh et al. (2023): the largest step size the theorems allow", ""]

# 1. eta <= 1/L_p (the smoothness constant (24)) at the instances of Fig. 1(a) and Fig. 9.
lines += ["| setting | largest eta | = 1/L_p | certificate |", "|---|---:|---|---|"]
for setting in ("fig1a", "fig9"):
    data = to_json(require("tarzanagh2023", setting, {}, var="eta"))
    r = data["requirements"][0]
    lines.append(f"| {data['setting']} | {data['eta']} | {r['id']} | holds at {r['certificate']['holds_at'][:22]}..., "
                 f"fails {r['certificate']['relative_gap']} above (relative) |")

# 2. The initial radius Theorem 3 needs at Fig. 1(b) (local convergence).
data = to_json(require("tarzanagh2023", "fig1b", {}))
lines += ["", f"Fig. 1(b): the least ||p(0)|| of Theorem 3 (57) is {data['p0_norm']} "
              f"(the experiment starts at ||p(0)|| <= 1.5)."]

# 3. Bounds beside normalised GD on the Appendix-E instance.
from boundcalc.experiments import experiment_module  # noqa: E402  (NumPy: imported only here)

sizes = dict(steps=50, hessian_points=2, random_points=2) if QUICK else dict(steps=1000)
table = experiment_module("tarzanagh2023").compare(seed=0, cache_dir=False, **sizes)
lines += ["", f"## Bounds beside measurements ({', '.join(f'{k}={v}' for k, v in sizes.items())})", "",
          table.to_markdown()]

OUT.mkdir(parents=True, exist_ok=True)
(OUT / "tarzanagh2023-step-size.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
table.to_frame().to_csv(OUT / "tarzanagh2023-step-size.csv", index=False)
print("\n".join(lines[:8]))
print(f"wrote {OUT / 'tarzanagh2023-step-size.md'} and .csv")
