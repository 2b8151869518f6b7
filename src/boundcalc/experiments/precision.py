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
                    metrics, *, slopes: bool = True, unit: str | None = None, extra: dict | None = None) -> dict:
    """``pts``: the reduced-precision points of ``seed`` (one per size, keyed by ``size_key``),
    ``ref``: the same points in float64; ``metrics``: (key, label) pairs.  A value that is
    None in either precision (e.g. a correlation undefined at p = 0) is left out of that
    quantity's differences (``compared`` counts the sizes used).  ``slopes=False`` when the
    sizes are not a scale (panels, cells); ``unit`` says what was run twice (default
    'seed N'); ``extra`` adds fields (e.g. agreement counts) to the record."""
    from ..runs import fit

    a = {p[size_key]: p for p in pts}
    b = {p[size_key]: p for p in ref}
    rows = []
    for key, label in metrics:
        both = [x for x in sizes if a[x].get(key) is not None and b[x].get(key) is not None]
        rel = [abs(a[x][key] - b[x][key]) / abs(b[x][key]) if b[x][key] else abs(a[x][key]) for x in both]
        ys = ([[a[x][key] for x in sizes]], [[b[x][key] for x in sizes]])
        fits = [fit.loglog_slope(sizes, y)["slope"] if slopes and len(sizes) > 1 and len(both) == len(sizes)
                and all(v > 0 for v in y[0]) else None for y in ys]
        rows.append({"quantity": label, "key": key, "max_rel_diff": max(rel) if rel else None,
                     "rel_diff_per_size": [rel[both.index(x)] if x in both else None for x in sizes],
                     "compared": len(both), f"slope_{dtype}": fits[0], "slope_float64": fits[1]})
    cpu = [a[x].get("train_cpu_seconds") for x in sizes] + [b[x].get("train_cpu_seconds") for x in sizes]
    k = len(sizes)
    known = [c for c in cpu if c is not None]
    speed = None if len(known) < len(cpu) or not sum(known[:k]) else sum(known[k:]) / sum(known[:k])
    unit = unit or f"seed {seed}"
    out = {"dtype": dtype, "seed": seed, "size_key": size_key, "sizes": list(sizes), "rows": rows,
           "train_cpu_speedup": speed,
           "note": f"{unit} trained in {dtype} and again in float64 (same data, initialisation and "
                   f"steps); relative differences |{dtype} - float64| / |float64| over {size_key} = "
                   f"{', '.join(str(x) for x in sizes)}"}
    return {**out, **(extra or {})}


def _has_slopes(pc: dict) -> bool:
    dt = pc["dtype"]
    return any(r.get(f"slope_{dt}") is not None or r.get("slope_float64") is not None for r in pc["rows"])


def precision_markdown(pc: dict) -> list[str]:
    dt = pc["dtype"]
    slopes = _has_slopes(pc)             # no slope columns over panels or cells
    out = [f"## Accuracy of {dt} against float64", "", pc["note"] + ".", "",
           "| quantity | max relative difference |" + (f" slope ({dt}) | slope (float64) |" if slopes else ""),
           "|---|---|" + ("---|---|" if slopes else "")]
    for r in pc["rows"]:
        sl = [r.get(f"slope_{dt}"), r.get("slope_float64")] if slopes else []
        out.append(f"| {r['quantity']} | {_rel(r['max_rel_diff'])} |"
                   + "".join(" - |" if v is None else f" {v:.4f} |" for v in sl))
    if pc.get("train_cpu_speedup"):
        out += ["", f"Training CPU time, float64 / {dt}: {pc['train_cpu_speedup']:.2f}x."]
    for line in pc.get("agreement", ()):
        out += ["", line + "."]
    return out + [""]


def _rel(v) -> str:
    return "-" if v is None else f"{v:.2e}"


def precision_rich(pc: dict):
    from rich.table import Table as RTable

    dt = pc["dtype"]
    slopes = _has_slopes(pc)
    a = RTable(title=f"accuracy of {dt} against float64 ({pc['note'].split(' trained in ')[0]}, "
                     f"every {pc['size_key']})")
    for col in ("quantity", "max relative difference") + ((f"slope ({dt})", "slope (float64)") if slopes else ()):
        a.add_column(col, justify="right" if col != "quantity" else "left")
    for r in pc["rows"]:
        sl = (r.get(f"slope_{dt}"), r.get("slope_float64")) if slopes else ()
        a.add_row(r["quantity"], _rel(r["max_rel_diff"]), *("-" if v is None else f"{v:.4f}" for v in sl))
    if pc.get("agreement"):
        a.caption = "; ".join(pc["agreement"])
    return a
