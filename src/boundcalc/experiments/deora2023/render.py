"""Rich output of the reproduction (a terminal table from its JSON).
"""
from __future__ import annotations


def render_dm1(out: dict):
    """Rich table of a 'deora2023-dm1' result."""
    from rich.table import Table as RTable

    t = RTable(title="deora2023-dm1: DM1, mean over seeds " + str(out["seeds"]))
    cols = [("n", None), ("NTK margin", "gamma_ntk"), ("gamma_*/2", "gamma_prop2"),
            ("GD margin/||U||", "margin_normalised"), ("train loss", "train_loss"),
            ("Cor.2 train bound", "train_loss_cor2"), ("gap", "gap"), ("Cor.2 gap bound", "gen_gap_cor2"),
            ("test err", "test_error"), ("log10 H Cor.2", "H_cor2_log10")]
    for c, _ in cols:
        t.add_column(c, justify="right")
    for r in out["per_n"]:
        cells = [str(r["n"])]
        for _, k in cols[1:]:
            v = r[k]["mean"]
            cells.append("-" if v is None else f"{v:.4g}")
        t.add_row(*cells)
    t.caption = out["paper_reported"]["note"]
    from rich.console import Group

    from ..paper_vs_ours import rich_table
    from ..precision import precision_rich
    parts = [t] + ([rich_table(out["paper_vs_ours"])] if out.get("paper_vs_ours") else [])
    if out.get("precision_check"):
        parts.append(precision_rich(out["precision_check"]))
    return Group(*parts)
