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
    """Counts per grade and per paper, then each finding: grade, check, location, message,
    its evidence and the command that re-runs it; then the coverage of each paper."""
    from rich.markup import escape as _x
    c = console()
    data = report.to_json()
    n = data["counts"]

    def counts(k):
        return (f"{k['error']} error(s), {k['warning']} warning(s) ({k['undecided']} undecided), "
                f"{k['note']} note(s), {k['ok']} passed")
    c.print(f"[bold]boundcalc check[/bold] {_x(', '.join(report.papers))}: {data['checks_run']} checks in "
            f"{data['seconds']} s — {counts(n)}")
    if len(report.papers) > 1:
        for p, k in data["counts_by_paper"].items():
            c.print(f"  {_x(p)}: {counts(k)}")
    style = {"error": "[red]error[/red]", "warning": "[yellow]warning[/yellow]", "note": "[cyan]note[/cyan]"}
    if not report.findings:
        c.print("no findings: every check run passed")
    for f in sorted(report.findings, key=lambda f: ("error", "warning", "note").index(f.severity)):
        c.print(f"{style[f.severity]} [bold]{_x(f.paper)}.{_x(f.check)}[/bold] ({_x(f.kind)}; {_x(f.reason)}) "
                f"— {_x(f.location)}")
        c.print(f"  {_x(f.message)}")
        ev = "; ".join(f"{k}: {v}" for k, v in f.evidence.items() if v not in (None, {}, [], ""))
        if ev:
            c.print(f"  evidence: {_x(ev[:600] + (' …' if len(ev) > 600 else ''))}")
        c.print(f"  re-run: {_x(f.rerun)}" + (f"   |   python: {_x(f.api)}" if f.kind == "measured" else ""))
    for p, rows in (data.get("coverage") or {}).items():
        if rows:
            un = [r["result"] for r in rows if r["status"] == "unaudited"]
            c.print(f"coverage {_x(p)}: {len(rows) - len(un)}/{len(rows)} numbered results audited"
                    + (f"; unaudited: {_x(', '.join(un))}" if un else ""))


def print_coverage(paper: str, rows: list[dict]) -> None:
    """Every numbered result of a paper with the checks covering it (none: unaudited)."""
    from rich.markup import escape as _x
    c = console()
    t = table(f"coverage of {paper}: {sum(r['status'] == 'audited' for r in rows)}/{len(rows)} numbered "
              f"results audited", ["result", "status", "checks"])
    for r in rows:
        checks = ", ".join(ch["id"] + (f" ({ch['grade']})" if "grade" in ch else "") for ch in r["checks"])
        t.add_row(_x(r["result"]), "[red]unaudited[/red]" if r["status"] == "unaudited" else "audited",
                  _x(checks or "—"))
    c.print(t)
