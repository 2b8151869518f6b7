"""Rich output of the reproduction (a terminal table from its JSON).
"""
from __future__ import annotations


def render_table1(data: dict):
    from rich.console import Group
    from rich.table import Table as RTable

    from boundcalc.experiments.paper_vs_ours import rich_table
    from boundcalc.runs.intervals import describe

    su = data["setup"]
    ours = RTable(title=f"Ours: {su['data']}; {su['epochs']} epochs, n_test = {su['n_test']}, seeds {su['seeds']}")
    for col in ("d_m", "N", "lowest test loss (95% Student-t)", "epoch", "test error there"):
        ours.add_column(col, justify="right")
    for c in data["ours"]:
        ours.add_row(str(c["d_m"]), str(c["N"]), describe(c["lowest_test_loss"], 4), describe(c["epoch"], 3),
                     describe(c["test_error_at_lowest"], 3))
    parts = [ours, rich_table(data["paper_vs_ours"], f"Paper's Table 1 ({data['paper']['data']}) vs ours")]
    if data.get("precision_check"):
        from boundcalc.experiments.precision import precision_rich
        parts.append(precision_rich(data["precision_check"]))
    if data.get("plots"):
        parts.append("plots: " + ", ".join(data["plots"]))
    return Group(*parts)
