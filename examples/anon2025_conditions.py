"""Anonymous (2025), a shallow transformer trained by GD: the width its generalization
theorem needs at the paper's MNIST sizes, and what happens to its alpha conditions
(an honest 'no admissible value' where there is none).

Run: python examples/anon2025_conditions.py
Writes anon2025-conditions.md and .csv next to this script (or into
$BOUNDCALC_EXAMPLES_OUT). BOUNDCALC_EXAMPLES_QUICK=1 uses smaller sizes (what CI runs).
"""
from __future__ import annotations

import os
from pathlib import Path

from boundcalc.errors import BoundcalcError
from boundcalc.services.require import require, to_json

QUICK = os.environ.get("BOUNDCALC_EXAMPLES_QUICK") == "1"
OUT = Path(os.environ.get("BOUNDCALC_EXAMPLES_OUT") or Path(__file__).resolve().parent)
lines = ["# Anonymous (2025): width and alpha conditions at the MNIST sizes of Table 1", ""]

# 1. The least model width d_m of the width condition (up to its constant C_w = 1).
lines += ["| N | least d_m | certificate | constant |", "|---:|---:|---|---|"]
for N in ("400", "1200", "10000"):
    data = to_json(require("anon2025", f"mnist_width_N{N}", {}))
    r = data["requirements"][0]
    lines.append(f"| {N} | {data['d_m']} | holds at {r['certificate']['holds_at']}, fails at "
                 f"{r['certificate']['fails_at']} | {r['qualifier']} |")

# 2. The least alpha = sigma_min(F_pre^0) each condition of Lemma 4 asks for, at d_m = 64.
data = to_json(require("anon2025", "mnist_dm64_N400", {}))
lines += ["", "Lemma 4 at d_m = 64, N = 400: least alpha per condition: "
          + "; ".join(f"{r['id']}: {r['alpha']}" for r in data["requirements"])
          + f". {data['note']}"]

# 3. A question without an answer is answered as such.
try:
    require("anon2025", "mnist_width_N400", {}, var="d_m", target="d_m <= 0")
except BoundcalcError as e:
    lines += ["", f"`--target 'd_m <= 0'`: {e}"]

# 4. Bounds beside GD on real digits (small sizes).
from boundcalc.experiments import experiment_module  # noqa: E402  (NumPy: imported only here)

sizes = dict(N=30, epochs=20, n_test=30) if QUICK else dict(N=50, epochs=200)
table = experiment_module("anon2025").compare(seed=0, cache_dir=False, **sizes)
lines += ["", f"## Bounds beside measurements ({', '.join(f'{k}={v}' for k, v in sizes.items())})", "",
          table.to_markdown()]

OUT.mkdir(parents=True, exist_ok=True)
(OUT / "anon2025-conditions.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
table.to_frame().to_csv(OUT / "anon2025-conditions.csv", index=False)
print("\n".join(lines[:10]))
print(f"wrote {OUT / 'anon2025-conditions.md'} and .csv")
