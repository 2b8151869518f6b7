"""The "paper vs ours" table every reproduction carries, and its Markdown/rich forms.

A row is a dict (JSON-ready)::

    {"quantity": ..., "paper": "0.1048", "source": "Table 1 (App. B): '64 400 0.1048 147'",
     "ours": "0.0931 [0.0712, 0.115]", "interval": <runs.intervals dict or None>,
     "method": "95% Student-t, 5 seeds", "verdict": "reproduced" | "not reproduced" |
     "not comparable" | "not reproduced (data not shipped)" | "not run", "why": one line}

``source`` says where the paper's number comes from (section, table or figure, with a short
quote); ``why`` is the one-line reason for the verdict.
"""
from __future__ import annotations

from ..reports.escape import md_cell as _cell

VERDICTS = ("reproduced", "not reproduced", "not comparable", "not reproduced (data not shipped)",
            "partly reproduced", "not run")


def row(quantity: str, paper, source: str, ours, verdict: str, why: str, *, interval=None,
        unit: str = "seeds") -> dict:
    """One row; ``ours`` may be a number, a string, or None (then the interval's mean);
    ``unit`` names what the interval runs over (seeds, trials)."""
    from ..runs.intervals import describe, short_method

    if verdict not in VERDICTS:
        raise ValueError(f"unknown verdict {verdict!r}; use one of {VERDICTS}")
    if ours is None and interval is not None:
        ours_txt = describe(interval, 4).replace(" seeds)", f" {unit})")
    elif isinstance(ours, float):
        ours_txt = f"{ours:.4g}"
    else:
        ours_txt = "-" if ours is None else str(ours)
    return {"quantity": quantity, "paper": paper if isinstance(paper, str) else
            ("-" if paper is None else f"{paper:g}"),
            "source": source, "ours": ours_txt, "interval": interval,
            "method": short_method(interval).replace(" seeds", f" {unit}") if interval is not None else None,
            "verdict": verdict, "why": why}


def to_markdown(rows: list[dict]) -> str:
    """A Markdown table: quantity | paper | where in the paper | ours | verdict | why."""
    lines = ["| quantity | paper | where in the paper | ours (interval) | verdict | why |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| " + " | ".join(_cell(r[k]) for k in ("quantity", "paper", "source", "ours",
                                                               "verdict", "why")) + " |")
    return "\n".join(lines) + "\n"


def rich_table(rows: list[dict], title: str = "Paper vs ours"):
    from rich.table import Table as RTable

    t = RTable(title=title)
    for col in ("quantity", "paper", "where in the paper", "ours (interval)", "verdict", "why"):
        t.add_column(col)
    for r in rows:
        t.add_row(*(str(r[k]) for k in ("quantity", "paper", "source", "ours", "verdict", "why")))
    return t


def _wall_time(data: dict, wall_seconds: float) -> str:
    """The wall-time sentence: the machine, niceness, jobs and load the run saw, and how many of
    its sweep points were read from the cache rather than computed (when recorded)."""
    note = f" ({data['wall_time_note']})" if data.get("wall_time_note") else ""
    m = data.get("machine")
    if not m:       # recordings made before the machine was recorded: all ran under nice 19
        text = f"Wall time: {wall_seconds:.0f} s on the shared 2-core machine (nice 19){note}."
    else:
        load = m["load_average_1min"]
        text = (f"Wall time: {wall_seconds:.0f} s on a {data['cpu_count']}-core machine ({m['jobs']} job"
                f"{'s' if m['jobs'] != 1 else ''}, nice {m['niceness']}; 1-minute load average {load[0]:.1f} "
                f"at the start, {load[1]:.1f} at the end){note}.")
    pts = data.get("sweep_points") or {}
    if pts.get("from_cache"):
        total = pts["from_cache"] + pts["computed"]
        text += (f" {pts['from_cache']} of its {total} sweep points were read from the cache (computed "
                 f"by an earlier run of the same code): the wall time covers the other {pts['computed']}.")
    return text


def markdown_report(data: dict, *, wall_seconds: float | None = None, command: str | None = None) -> str:
    """The Markdown page of a reproduction result: paper-vs-ours table, conclusions, plots."""
    from pathlib import Path

    name = data.get("name", "reproduction")
    full = data.get("full", data.get("setup", {}).get("full", False))
    # title_note / history_note: a recording's own annotations, kept in its JSON so that a
    # --replot (which rewrites this page) keeps them
    out = [f"# {name} ({data.get('title_note') or ('full' if full else 'reduced') + ' sizes'})", ""]
    if data.get("description"):
        out += [data["description"], ""]
    if command:
        out += [f"Command: `{command}`", ""]
    if data.get("history_note"):
        out += [data["history_note"], ""]
    if wall_seconds is not None:
        out += [_wall_time(data, wall_seconds), ""]
    if data.get("figures_note"):
        note = data["figures_note"]
        out += [f"{note[:1].upper()}{note[1:]}.", ""]
    out += ["## Paper vs ours", "", to_markdown(data.get("paper_vs_ours", []))]
    if data.get("precision_check"):
        from .precision import precision_markdown
        out += precision_markdown(data["precision_check"])
    if data.get("conclusions"):
        out += ["## Conclusions", ""] + [f"- {c}" for c in data["conclusions"]] + [""]
    if data.get("not_run"):
        out += ["## Not run", ""] + [f"- {c}" for c in data["not_run"]] + [""]
    pngs = [p for p in data.get("plots", []) if str(p).endswith(".png")]
    if pngs:
        out += ["## Figures", ""] + [f"![{Path(p).stem}]({Path(p).name})" for p in pngs] + [""]
    return "\n".join(out)
