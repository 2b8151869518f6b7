"""``compare``: the paper's bounds beside what ProjGD measures.
"""
from __future__ import annotations

import math

from ..settings import as_int
from .bounds import bounds_at
from .measure import _points
from .settings import PAPER, eta_of, parse_settings


def _g3(v) -> str:
    """A certified value to 3 significant digits, also beyond the double range (a radius
    of 1e300 makes Theorem 1's terms ~1e1199; float() of them would overflow)."""
    from ...mpmath_import import mpmath
    return mpmath.nstr(v.mpf, 3)


def compare(*, seed: int = 0, jobs: int = 1, cache_dir=None, **settings):
    """Lemma 3, Lemma 5 and Theorem 1 of Arda et al. (2026) beside measurements, per width."""
    from ...reports.table import Row, Table

    c = parse_settings(settings)
    seed = as_int("seed", seed)
    pts = _points(c, seed, jobs=jobs, cache_dir=cache_dir, progress=False, desc="arda2026 compare")
    eta = eta_of(c)
    rows: list[Row] = []
    seeds = [seed + k for k in range(c["seeds"])]
    over = "" if len(seeds) == 1 else f"worst case (max) over seeds {seeds}; "
    radius_ok = all(r >= v for r, v in zip(c["rho"], c["nu"]))
    step_ok = abs(eta * math.sqrt(c["tau"]) - 1.0) <= 1e-12
    for m in c["widths"]:
        P = [p for p in pts if p["m"] == m]
        b = bounds_at(c, m)
        worst = {k: max(p[k] for p in P) for k in P[0] if isinstance(P[0][k], float)}
        e_ok = float(b["U0_radius"]) >= worst["max_U0_norm"]
        ev = (f"event E_{{U,m}}(delta'): max_i ||U_i^(0)|| = {worst['max_U0_norm']:.3g} <= "
              f"{float(b['U0_radius']):.3g}")
        rows.append(Row(f"m={m}: eps_lin (sup_j) at boundary of Omega_rho", "Lemma 3", latex=rf"m={m}\colon \sup_j \epsilon_{{\mathrm{{lin}}}} \text{{ on }} \partial\Omega_\rho", bound=b["B_lin"],
                        measured=worst["eps_lin_sup"], formula="arda2026.B_lin", hypotheses_met=e_ok,
                        hypotheses=ev, constant=b["B_lin"].qualifier,
                        note=over + "adversarial boundary point of the authors' code (notes Sec. 6.1)"))
        rows.append(Row(f"m={m}: eps_lin (mean_j) at boundary (authors' code metric)", "Lemma 3 / Fig. 1", latex=rf"m={m}\colon \operatorname{{mean}}_j \epsilon_{{\mathrm{{lin}}}} \text{{ on }} \partial\Omega_\rho",
                        bound=b["B_lin"], measured=worst["eps_lin_mean"], kind="info",
                        formula="arda2026.B_lin", constant=b["B_lin"].qualifier,
                        note="Lemma 3 bounds the sup; the mean is what the authors plot"))
        rows.append(Row(f"m={m}: eps_lin (sup_j) at the last ProjGD iterate", "Lemma 3", latex=rf"m={m}\colon \sup_j \epsilon_{{\mathrm{{lin}}}} \text{{, last iterate}}", bound=b["B_lin"],
                        measured=worst["eps_lin_trained_sup"], formula="arda2026.B_lin",
                        hypotheses_met=e_ok, hypotheses=ev, constant=b["B_lin"].qualifier,
                        note=over + "the iterate lies in Omega_rho by projection"))
        rows.append(Row(f"m={m}: eps_app (sup_j) vs MC teacher labels", "Lemma 5", latex=rf"m={m}\colon \sup_j \epsilon_{{\mathrm{{app}}}}", bound=b["B_app"],
                        measured=worst["eps_app_sup"], formula="arda2026.B_app", hypotheses_met=True,
                        hypotheses="f* in F_nu (teacher built in V_nu); probability 1 - delta",
                        constant=b["B_app"].qualifier + " (v1 constants)",
                        note=over + f"target: Monte-Carlo labels over a pool of {c['pool']} heads (the "
                                    "paper's metric); Lemma 5 is stated for the exact f~(X; v)"))
        rows.append(Row(f"m={m}: min_(s<tau) train loss of ProjGD", "Thm. 1 (first display)", latex=rf"m={m}\colon \min_{{s<\tau}} \widehat{{\mathcal L}}_n(\varphi^{{(s)}})",
                        bound=b["thm1_min"], measured=worst["min_train_loss"], formula="arda2026.thm1_min",
                        hypotheses_met=bool(e_ok and radius_ok and step_ok),
                        hypotheses=f"rho >= nu: {'yes' if radius_ok else 'no'}; eta = 1/sqrt(tau): "
                                   f"{'yes' if step_ok else 'no'}; {ev}",
                        constant=b["thm1_min"].qualifier,
                        note=over + "terms: L_(1,m)^4/sqrt(tau) = {}, L_(1,m) B_app = {}, L_(1,m) B_lin = {}, "
                                    "L_(1,m) eps_CoF = {}; labels' mean square (loss at phi^(0)) = {:.3g}".format(
                                        *(_g3(b[t]) for t in ("thm1_opt", "thm1_app", "thm1_lin", "thm1_cof")),
                                        worst["label_mean_square"])))
        rows.append(Row(f"m={m}: event E_{{U,m}}(delta') (max_i ||U_i^(0)|| within radius)", "Definition 1", latex=rf"m={m}\colon \mathcal E_{{U,m}}(\delta')\colon \max_i \|U_i^{{(0)}}\|",
                        bound=b["U0_radius"], measured=worst["max_U0_norm"], kind="condition", holds=e_ok,
                        formula="arda2026.U0_radius", constant=b["U0_radius"].qualifier,
                        note="holds iff measured norm <= radius (probability >= 1 - delta')"))
    for blk, r, v in zip(("c", "u", "w"), c["rho"], c["nu"]):
        rows.append(Row(f"projection radius rho_{blk} >= nu_{blk}", "Thm. 1, Remark 10", latex=rf"\text{{radius }} \rho_{blk} \geq \nu_{blk}", bound=v, measured=r,
                        kind="condition", formula=f"arda2026.thm1_radius_{blk}", constant="exact constant"))
    rows.append(Row("step size eta = 1/sqrt(tau)", "Thm. 1", latex=r"\text{step size } \eta = 1/\sqrt{\tau}", bound=1.0 / math.sqrt(c["tau"]), measured=eta,
                    kind="condition", holds=step_ok, formula="arda2026.thm1_step", constant="exact constant",
                    note="holds iff eta used equals 1/sqrt(tau) (to 1e-12 relative)"))
    notes = [f"Sec. 6.1 teacher-student setting, seeds {seeds}; the data set depends on the seed only; "
             f"tau = {c['tau']}, eta = {eta:.6g}, n = {c['n']}, pool = {c['pool']}, anchor weights {c['weights']}, "
             f"teacher {c['teacher']}" + (" (the authors' code: diag(W_k) in the teacher's attention scores, "
                                          "full W_k in the model)." if c["teacher"] != "paper" else "."),
             ("tanh: sigma_bar = (1, 1, 4/(3 sqrt 3)). Lemma 3/5 and Theorem 1 are v1's printed forms "
             "(v2 constants unrecoverable, notes Sec. 9)."),
             "Theorem 1 hides a constant depending on (sigma_bar, nu, rho) and eps_CoF another: both set to 1."]
    return Table(paper=PAPER, title="Arda et al. (2026), Sec. 6.1: bounds beside measurements across widths",
                 settings={**c, "eta_used": eta}, seed=seed, rows=rows, notes=notes)
