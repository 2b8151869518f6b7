# %% [markdown]
# # boundcalc walkthrough: four papers, as DataFrames
#
# A percent-format notebook (open it in Jupyter with jupytext, in VS Code or in Spyder as
# cells, or run it as a script: `python examples/walkthrough.py`). It writes its tables
# as CSV files next to itself (or into `$BOUNDCALC_EXAMPLES_OUT`);
# `BOUNDCALC_EXAMPLES_QUICK=1` keeps the engine runs small (what CI runs).

# %%
import os
from pathlib import Path

import boundcalc

QUICK = os.environ.get("BOUNDCALC_EXAMPLES_QUICK") == "1"
HERE = Path(__file__).resolve().parent if "__file__" in globals() else Path.cwd()
OUT = Path(os.environ.get("BOUNDCALC_EXAMPLES_OUT") or HERE)
OUT.mkdir(parents=True, exist_ok=True)

# %% [markdown]
# ## The papers and their formulas

# %%
papers = boundcalc.papers().to_frame()
papers

# %%
formulas = boundcalc.formulas().to_frame()
formulas.to_csv(OUT / "walkthrough-formulas.csv", index=False)
formulas.groupby(["paper", "kind"]).size() if "paper" in formulas else formulas.head()

# %% [markdown]
# One formula, evaluated with certified digits (10^100 is an ordinary number here):

# %%
beta2 = boundcalc.formula("deora2023.beta2")
v = beta2.evaluate(T=8, d=16, R="1e100", theta_2inf=2, H=64, digits=20)
print(v, "|", v.qualifier)

# %% [markdown]
# ## Inverse questions: least or largest values with certificates
#
# Deora et al.: the least number of heads, and the least sample size n for which Cor. 2's
# generalization gap is below 0.05. Arda et al.: the least width for a target epsilon.
# Tarzanagh et al.: the largest step size. Anonymous (2025): the least width d_m.

# %%
from boundcalc.services.require import require, to_json

queries = [
    ("deora2023", None, {"d": "16", "T": "8"}, "H", None),
    ("deora2023", "dm1", {"d": "16", "T": "8", "eta": "0.5"}, "n", "gen_gap_cor2 <= 0.05"),
    ("arda2026", "fig1", {"delta": "0.05", "epsilon": "0.1"}, "m", None),
    ("tarzanagh2023", "fig1a", {}, "eta", None),
    ("anon2025", "mnist_width_N400", {}, "d_m", None),
]
rows = []
for paper, setting, values, var, target in queries:
    d = to_json(require(paper, setting, values, var=var, target=target))
    b = next(r for r in d["requirements"] if r["id"] == d["binding"])
    rows.append({"paper": paper, "setting": d["setting"], "question": f"{d['direction']} {var}"
                 + (f" with {target}" if target else ""), "answer": str(d[var]), "binding": d["binding"],
                 "holds at": b["certificate"].get("holds_at"), "fails at": b["certificate"].get("fails_at"),
                 "constant": b["qualifier"]})
import pandas as pd  # noqa: E402

answers = pd.DataFrame(rows)
answers.to_csv(OUT / "walkthrough-answers.csv", index=False)
answers

# %% [markdown]
# ## A comparison: bounds beside what the engine measures, as a DataFrame

# %%
from boundcalc.experiments import experiment_module  # noqa: E402

sizes = dict(steps=50, hessian_points=2, random_points=2) if QUICK else dict(steps=1000)
table = experiment_module("tarzanagh2023").compare(seed=0, cache_dir=False, **sizes)
comparison = table.to_frame()
comparison.to_csv(OUT / "walkthrough-comparison.csv", index=False)
comparison.head()

# %% [markdown]
# ## A check report as a DataFrame
#
# The audit of Tarzanagh et al.'s smoothness constant (its restatement and derivations),
# and of the template paper `examples/my_paper.toml` (see CONTRIBUTING.md).

# %%
from boundcalc.services.check import run_checks  # noqa: E402

report = run_checks("tarzanagh2023", only=["L_p_restated", "L_p_from_proof", "logistic_derivative"])
checks = report.to_frame()
mine = run_checks("my_paper", formulas_path=[str(HERE / "my_paper.toml")]).to_frame()
checks = pd.concat([checks, mine], ignore_index=True)
checks.to_csv(OUT / "walkthrough-checks.csv", index=False)
checks[["paper", "check", "kind", "severity", "message"]]
