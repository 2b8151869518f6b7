"""Rich renderings of command results (people-facing; JSON is the stable interface)."""
from __future__ import annotations

from .output import console, table


def print_require(data: dict) -> None:
    c = console()
    var = data["var"]
    c.print(f"[bold]{data['setting']}[/bold] — {data['setting_name']}")
    c.print(f"source: {data['source']}")
    t = table("inputs (every value used; 'default' = not given on the command line)",
              ["symbol", "value", "from", "description"])
    for k, v in data["inputs"].items():
        t.add_row(k, v["value"], v["from"], v["description"])
    c.print(t)
    if data["derived"]:
        t = table("derived quantities", ["symbol", "value", "= expression", "from"])
        for k, v in data["derived"].items():
            t.add_row(k, v["value"] or "(given)", v["expression"], v["from"])
        c.print(t)
    t = table(f"requirements on {var}", [f"least {var}" if True else var, "condition", "source",
                                         "status", "constant"])
    for r in data["requirements"]:
        val = str(r[var])
        if r["direction"] == "greatest":
            val = f"<= {val}"
        mark = " ◀ binds" if r["id"] == data["binding"] else ""
        t.add_row(val + mark, f"{r['id']}: {r['name']}", r["source"], r["status"], r["qualifier"])
    c.print(t)
    b = next(r for r in data["requirements"] if r["id"] == data["binding"])
    c.print(f"[bold]{var} = {data[var]}[/bold] (binding: {data['binding']}, {b['status']}, {b['qualifier']})")
    for r in data["requirements"]:
        cert = ", ".join(f"{k}: {v}" for k, v in r["certificate"].items())
        c.print(f"  certificate {r['id']}: {cert}")
    if data.get("note"):
        c.print(f"note: {data['note']}")


def print_check(report) -> None:
    c = console()
    data = report.to_json()
    counts = data["counts"]
    c.print(f"[bold]boundcalc check[/bold] {', '.join(report.papers)}: {data['checks_run']} checks in "
            f"{data['seconds']} s — {counts['error']} error(s), {counts['warning']} warning(s), "
            f"{counts['note']} note(s), {counts['ok']} passed")
    if not report.findings:
        c.print("no findings: every declared check passed")
        return
    t = table("findings", ["severity", "check", "location", "message", "evidence"])
    style = {"error": "[red]error[/red]", "warning": "[yellow]warning[/yellow]", "note": "note"}
    for f in report.findings:
        ev = "; ".join(f"{k}: {v}" for k, v in f.evidence.items() if v not in (None, {}, []))
        t.add_row(style[f.severity], f"{f.paper}.{f.check}", f.location, f.message, ev)
    c.print(t)
