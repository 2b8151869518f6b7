"""Deora et al. (2023), multi-head attention: how many heads, samples and steps do the
theorems ask for?

Run: python examples/deora2023_heads_and_samples.py
Writes deora2023-heads-and-samples.md next to this script (or into $BOUNDCALC_EXAMPLES_OUT).
BOUNDCALC_EXAMPLES_QUICK=1 uses smaller engine sizes (what CI runs).
"""
from __future__ import annotations

import os
from pathlib import Path

import boundcalc
from boundcalc.services.require import require, to_json

QUICK = os.environ.get("BOUNDCALC_EXAMPLES_QUICK") == "1"
OUT = Path(os.environ.get("BOUNDCALC_EXAMPLES_OUT") or Path(__file__).resolve().parent)
lines = ["# Deora et al. (2023): heads, samples and steps", ""]

# 1. The least number of heads for tokens of dimension 16 and context length 8 (Sec. 5 data
#    model DM1 after the first phase; every other input at the setting's defaults).
heads = to_json(require("deora2023", None, {"d": "16", "T": "8"}))
lines += ["## Least number of heads H (`boundcalc require-heads --d 16 --T 8`)", "",
          f"H = {heads['H']}, binding: {heads['binding']}", "",
          "| condition | least H | status | constant | certificate |", "|---|---:|---|---|---|"]
for r in heads["requirements"]:
    c = r["certificate"]
    lines.append(f"| {r['id']} | {r['H']} | {r['status']} | {r['qualifier']} | "
                 f"holds at {c['holds_at']}, fails at {c['fails_at']} |")

# 2. Inverse queries: the least n for which Cor. 2's generalization gap is below 0.05, and the
#    least K for which its training-loss bound is below 0.1 (step size eta = 0.5).
lines += ["", "## Inverse queries (`boundcalc require VAR --setting dm1 --target ...`)", ""]
for var, target in (("n", "gen_gap_cor2 <= 0.05"), ("K", "train_loss_cor2 <= 0.1")):
    res = require("deora2023", "dm1", {"d": "16", "T": "8", "eta": "0.5"}, var=var, target=target)
    r = to_json(res)["requirements"][0]
    lines.append(f"- least {var} with `{target}`: **{r[var]}** ({r['qualifier']}; certificate: holds at "
                 f"{r['certificate']['holds_at']}, fails at {r['certificate']['fails_at']}; monotone: {r['monotone']})")

# 3. Numbers far outside the double range are ordinary: beta_2 at R = 10^100.
b2 = boundcalc.formula("deora2023.beta2").evaluate(T=8, d=16, R="1e100", theta_2inf=2, H=64, digits=25)
lines += ["", "## A value beyond the double range", "",
          f"beta_2(T=8, d=16, R=1e100, theta_2inf=2, H=64) = {b2}  [{b2.qualifier}; 25 certified digits]"]

# 4. The bounds beside what the NumPy engine measures (small sizes).
from boundcalc.experiments import experiment_module  # noqa: E402  (NumPy: imported only here)

sizes = dict(n1=40, n=40, K=10, H=4, T=4, d=8, M=2, n_test=40) if QUICK else dict(n1=200, n=200, K=50)
table = experiment_module("deora2023").compare(seed=0, cache_dir=False, **sizes)
frame = table.to_frame()
lines += ["", f"## Bounds beside measurements ({', '.join(f'{k}={v}' for k, v in sizes.items())})", "",
          table.to_markdown()]

OUT.mkdir(parents=True, exist_ok=True)
(OUT / "deora2023-heads-and-samples.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
frame.to_csv(OUT / "deora2023-heads-and-samples.csv", index=False)
print("\n".join(lines[:12]))
print(f"wrote {OUT / 'deora2023-heads-and-samples.md'} and .csv")
