"""Rich output of the reproductions (terminal tables from their JSON).
"""
from __future__ import annotations


def render_fig1(out: dict):
    """Rich table of an 'arda2026-fig1' result."""
    from rich.console import Group
    from rich.table import Table as RTable

    from ..paper_vs_ours import rich_table

    t = RTable(title=f"arda2026-fig1: fitted log-log slopes vs width ({'full' if out['full'] else 'reduced'} "
                     f"sizes, seeds {out['seeds']}, teacher {out['settings'].get('teacher', 'paper')})")
    for col in ("quantity", *[f"m={m}" for m in out["widths"]], "slope", "95% interval (Student-t)",
                "paper predicts"):
        t.add_column(col, justify="right" if col != "quantity" else "left")
    for law in out["laws"].values():
        f = law["fit"]
        t.add_row(law["label"], *[f"{v:.3g}" for v in law["mean"]],
                  "-" if f is None else f"{f['slope']:.3f}",
                  "-" if f is None or f["ci_low"] is None else f"[{f['ci_low']:.3f}, {f['ci_high']:.3f}]",
                  "-0.5")
    t.caption = out["paper_reported"]["note"]
    parts = [t, rich_table(out["paper_vs_ours"])]
    if out.get("precision_check"):
        from ..precision import precision_rich
        parts.append(precision_rich(out["precision_check"]))
    return Group(*parts)


def render_minloss(out: dict):
    from rich.console import Group

    from ..paper_vs_ours import rich_table
    return Group(rich_table(out["paper_vs_ours"], "arda2026-minloss: min-loss slope under each condition"),
                 *out["conclusions"])


def render_teacher(out: dict):
    from rich.console import Group

    from ..paper_vs_ours import rich_table
    return Group(rich_table(out["paper_vs_ours"], "arda2026-teacher"), *out["conclusions"])
