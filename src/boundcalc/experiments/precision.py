"""The accuracy of a reduced-precision (float32) reproduction against float64.

A reproduction run with ``dtype='float32'`` trains its first seed again in float64 (same
data, initialisation and steps) and records, for each quantity that training produces, the
relative difference over the sweep's sizes and the log-log slope over the sizes in both
precisions (one seed, no interval). :func:`precision_check` builds that record from the two
sets of points; :func:`precision_markdown` prints it (``paper_vs_ours.markdown_report``) and
:func:`precision_rich` renders it for the terminal.
"""
from __future__ import annotations

DTYPES = ("float64", "float32")


def parse_dtype(v, bad) -> str:
    """'float64' or 'float32' (``bad(name, why)`` raises the reproduction's setting error)."""
    t = str(v).strip()
    if t not in DTYPES:
        bad("dtype", f"must be 'float64' or 'float32', got {v!r}")
    return t


def precision_check(size_key: str, sizes, seed: int, pts: list[dict], ref: list[dict], dtype: str,
                    metrics) -> dict:
    """``pts``: the reduced-precision points of ``seed`` (one per size, keyed by ``size_key``),
    ``ref``: the same points in float64; ``metrics``: (key, label) pairs."""
    from ..reports import fit

    a = {p[size_key]: p for p in pts}
    b = {p[size_key]: p for p in ref}
    rows = []
    for key, label in metrics:
        rel = [abs(a[x][key] - b[x][key]) / abs(b[x][key]) if b[x][key] else abs(a[x][key]) for x in sizes]
        ys = ([[a[x][key] for x in sizes]], [[b[x][key] for x in sizes]])
        slopes = [fit.loglog_slope(sizes, y)["slope"] if len(sizes) > 1 and all(v > 0 for v in y[0]) else None
                  for y in ys]
        rows.append({"quantity": label, "key": key, "max_rel_diff": max(rel), "rel_diff_per_size": rel,
                     f"slope_{dtype}": slopes[0], "slope_float64": slopes[1]})
    cpu = [a[x].get("train_cpu_seconds") for x in sizes] + [b[x].get("train_cpu_seconds") for x in sizes]
    k = len(sizes)
    speed = None if None in cpu else sum(cpu[k:]) / sum(cpu[:k])
    return {"dtype": dtype, "seed": seed, "size_key": size_key, "sizes": list(sizes), "rows": rows,
            "train_cpu_speedup": speed,
            "note": f"seed {seed} trained in {dtype} and again in float64 (same data, initialisation and "
                    f"steps); relative differences |{dtype} - float64| / |float64| over {size_key} = "
                    f"{', '.join(str(x) for x in sizes)}"}


def precision_markdown(pc: dict) -> list[str]:
    dt = pc["dtype"]
    out = [f"## Accuracy of {dt} against float64", "", pc["note"] + ".", "",
           f"| quantity | max relative difference | slope ({dt}) | slope (float64) |",
           "|---|---|---|---|"]
    for r in pc["rows"]:
        sl = [r.get(f"slope_{dt}"), r.get("slope_float64")]
        out.append(f"| {r['quantity']} | {r['max_rel_diff']:.2e} | "
                   + " | ".join("-" if v is None else f"{v:.4f}" for v in sl) + " |")
    if pc.get("train_cpu_speedup"):
        out += ["", f"Training CPU time, float64 / {dt}: {pc['train_cpu_speedup']:.2f}x."]
    return out + [""]


def precision_rich(pc: dict):
    from rich.table import Table as RTable

    dt = pc["dtype"]
    a = RTable(title=f"accuracy of {dt} against float64 (seed {pc['seed']}, every {pc['size_key']})")
    for col in ("quantity", "max relative difference", f"slope ({dt})", "slope (float64)"):
        a.add_column(col, justify="right" if col != "quantity" else "left")
    for r in pc["rows"]:
        a.add_row(r["quantity"], f"{r['max_rel_diff']:.2e}",
                  *("-" if v is None else f"{v:.4f}" for v in (r.get(f"slope_{dt}"), r.get("slope_float64"))))
    return a
