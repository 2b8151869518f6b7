"""Rich output of the reproductions (terminal tables from their JSON).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import RenderableType


def _fmt(x, digits: int = 4) -> str:
    if x is None:
        return "-"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        return f"{x:.{digits}g}"
    return str(x)


def render_fig9(data: dict):
    from rich.console import Group
    from rich.table import Table as RTable

    su = data["setup"]
    t = RTable(title=f"Tarzanagh et al. 2023, App. E / Fig. 9 (ours: {su['trials_per_d']} trials x "
                     f"{su['steps']} iterations per d; paper: 1000 x 1000)")
    for col in ("d", "% not saturated", "% LMM (incl. GMM)", "% GMM", "% saturated, not LMM",
                "avg corr (saturated)", "P(gap<0 | saturated)", "avg corr (gap<0)"):
        t.add_column(col, justify="right")
    for d, r in data["per_d"].items():
        t.add_row(d, _fmt(r["pct_not_saturated"], 3), _fmt(r["pct_lmm"], 3), _fmt(r["pct_gmm"], 3),
                  _fmt(r["pct_saturated_not_lmm"], 3), _fmt(r["avg_correlation_saturated"], 6),
                  _fmt(r["prob_gap_negative_saturated"], 3), _fmt(r["avg_correlation_gap_negative"], 4))
    f = RTable(title="Paper's findings vs ours")
    for col in ("claim", "paper", "ours", "reproduced"):
        f.add_column(col)
    for r in data["findings"]:
        ours = r["ours"]
        ours = ", ".join(f"{k}: {_fmt(v, 3)}" for k, v in ours.items()) if isinstance(ours, dict) else _fmt(ours, 5)
        f.add_row(r["claim"], str(r["paper"]), ours, "yes" if r["reproduced"] else "NO")
    parts: list[RenderableType] = [t, f, f"init: {su['init']}"]
    if data.get("paper_vs_ours"):
        from boundcalc.experiments.paper_vs_ours import rich_table
        parts.append(rich_table(data["paper_vs_ours"]))
    _add_precision(parts, data)
    if data.get("plots"):
        parts.append("plots: " + ", ".join(data["plots"]))
    return Group(*parts)


def render_fig1(data: dict):
    from rich.console import Group
    from rich.table import Table as RTable

    parts: list[RenderableType] = []
    for key, panel in data["panels"].items():
        t = RTable(title=f"Fig. 1({key}) — {panel['instance']}; paper: {panel['paper']}")
        for col in ("p(0)", "||p(T)||", "alpha", "converged to", "corr", "saturation"):
            t.add_column(col)
        for r in panel["runs"]:
            t.add_row(str([round(x, 2) for x in r["p0"]]), _fmt(r["p_norm"]), str(r["alpha"]),
                      r["converged_to"], f"{r['best_correlation']:.6f}", f"{r['saturation']:.6f}")
        dirs = "; ".join(f"{k}: alpha={v['alpha']}, p={[round(x, 4) for x in v['p']]}"
                         for k, v in panel["directions"].items())
        parts += [t, "directions: " + dirs]
    if data.get("paper_vs_ours"):
        from boundcalc.experiments.paper_vs_ours import rich_table
        parts.append(rich_table(data["paper_vs_ours"]))
    _add_precision(parts, data)
    if data.get("plots"):
        parts.append("plots: " + ", ".join(data["plots"]))
    return Group(*parts)


def render_fig3(data: dict):
    from rich.table import Table as RTable

    t = RTable(title=f"Fig. 3 — joint normalised GD on (v, p), {data['setup']['steps']} steps")
    for col in ("panel", "corr(v, v^mm)", "corr(p, p^mm)", "corr(p, p^relax)", "v^mm/||v^mm|| (paper [0,1])",
                "avg max softmax", "avg logistic prob.", "paper"):
        t.add_column(col)
    for key, p in data["panels"].items():
        t.add_row(key, f"{p['corr_v_vmm']:.6f}", f"{p['corr_p_pmm']:.6f}", f"{p['corr_p_prelax']:.6f}",
                  str([round(x, 4) for x in p["v_mm_unit"]]), f"{p['avg_max_softmax']:.6f}",
                  f"{p['avg_logistic_probability']:.6f}", p["paper"])
    from rich.console import Group

    parts: list[RenderableType] = [t]
    if data.get("paper_vs_ours"):
        from boundcalc.experiments.paper_vs_ours import rich_table
        parts.append(rich_table(data["paper_vs_ours"]))
    _add_precision(parts, data)
    return Group(*parts) if len(parts) > 1 else t


def _add_precision(parts: list, data: dict) -> None:
    if data.get("precision_check"):
        from boundcalc.experiments.precision import precision_rich
        parts.append(precision_rich(data["precision_check"]))
