"""Arda et al. (2026), shallow transformers trained by projected GD: how wide must the
network be for Lemma 5's approximation error to drop below a target, and how do the
bounds compare with the engine's measurements across widths?

Run: python examples/arda2026_width.py
Writes arda2026-width.md and arda2026-width.csv next to this script (or into
$BOUNDCALC_EXAMPLES_OUT). BOUNDCALC_EXAMPLES_QUICK=1 uses smaller sizes (what CI runs).
"""
from __future__ import annotations

import os
from pathlib import Path

import boundcalc
from boundcalc.services.require import require, to_json

QUICK = os.environ.get("BOUNDCALC_EXAMPLES_QUICK") == "1"
OUT = Path(os.environ.get("BOUNDCALC_EXAMPLES_OUT") or Path(__file__).resolve().parent)
lines = ["# Arda et al. (2026): width needed for a target approximation error", ""]

# 1. The least width m for which Lemma 5's epsilon-condition holds, at the Sec. 6.1 values
#    (d = 8, T = 16, n = 5000, nu = (3, 3, 3), tanh) with delta = 0.05, for three targets.
lines += ["## Least width m (`boundcalc require m --setting fig1 --delta 0.05 --epsilon E`)", "",
          "| epsilon | least m | certificate | constant |", "|---:|---:|---|---|"]
for eps in ("1", "0.5", "0.1"):
    data = to_json(require("arda2026", "fig1", {"delta": "0.05", "epsilon": eps}))
    r = data["requirements"][0]
    lines.append(f"| {eps} | {data['m']} | holds at {r['certificate']['holds_at']}, fails at "
                 f"{r['certificate']['fails_at']} | {r['qualifier']} |")

# 2. The same question asked of the bound itself: the least m with B_app <= 0.5.
res = to_json(require("arda2026", "fig1", {"delta": "0.05"}, var="m", target="B_app <= 0.5"))
r = res["requirements"][0]
lines += ["", f"Least m with `B_app <= 0.5` (`--target`): **{res['m']}** (monotone: {r['monotone']})"]

# 3. B_app across widths (certified values from the formula file).
f = boundcalc.formula("arda2026.B_app")
vals = {k: v for k, v in {"d": 8, "T": 16, "n": 5000, "delta": "0.05", "nu_c": 3, "nu_u": 3, "nu_w": 3,
                          "sigma_0": 1, "sigma_1": 1}.items() if k in f.symbol_table}
lines += ["", "## Lemma 5's bound B_app across widths", "", "| m | B_app |", "|---:|---:|"]
for m in (8, 64, 512, 4096):
    lines.append(f"| {m} | {f.evaluate(m=m, digits=6, **vals)} |")

# 4. Bounds beside measurements (projected GD on the teacher-student data of Sec. 6.1).
from boundcalc.experiments import experiment_module  # noqa: E402  (NumPy: imported only here)

sizes = dict(widths="8,16", n=100, tau=50, pool=256) if QUICK else dict(widths="8,16,32,64", n=500, tau=300)
table = experiment_module("arda2026").compare(seed=0, cache_dir=False, **sizes)
lines += ["", f"## Bounds beside measurements ({', '.join(f'{k}={v}' for k, v in sizes.items())})", "",
          table.to_markdown()]

OUT.mkdir(parents=True, exist_ok=True)
(OUT / "arda2026-width.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
table.to_frame().to_csv(OUT / "arda2026-width.csv", index=False)
print("\n".join(lines[:10]))
print(f"wrote {OUT / 'arda2026-width.md'} and .csv")
