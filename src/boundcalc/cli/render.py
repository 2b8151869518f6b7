"""Rich renderings of command results (people-facing; JSON is the stable interface)."""
from __future__ import annotations

from .output import console, table


def _e(x) -> str:
    from rich.markup import escape
    return escape(str(x))


def _short_qualifier(q: str) -> str:
    return q.replace("up to the absolute constant(s) ", "up to ") if q != "exact constant" else "exact"


def _cert_text(r: dict, var: str) -> str:
    c = r["certificate"]
    if r["result"] == "not monotone":
        return "counterexample" if c.get("counterexample") else "not monotone"
    if r["result"] == "holds everywhere":
        return "holds on the whole domain" + (f" ({c['proof']})" if c.get("proof") else "")
    if r["result"] == "undecided":
        return "undecided"
    if c.get("fails_at") is None:
        return f"the end of {var}'s domain"
    if c.get("note", "").startswith(("infimum", "supremum")):
        return c["note"]
    if "relative_gap" in c:
        return f"fails {'above' if r['direction'] == 'greatest' else 'below'} (rel. {c['relative_gap']})"
    return f"{var}{'-' if r['direction'] == 'least' else '+'}1 fails"


def print_require(data: dict, explain: bool = False) -> None:
    """The answer first: one headline (value, binding condition, status, qualifier), then a
    compact requirements table that fits 80 columns; ``explain`` adds every input, derived
    value, certificate and the monotonicity evidence."""
    from rich import box
    from rich.table import Table
    c = console()
    var = data["var"]
    reqs = data["requirements"]
    b = next(r for r in reqs if r["id"] == data["binding"])
    word = "least" if data["direction"] == "least" else "largest"
    paper = data["setting"].split(".")[0] + "."

    def short(fid):
        return fid[len(paper):] if fid.startswith(paper) else fid

    if data[var] is not None:
        head = word if data.get("attained", True) is not False else \
            ("infimum" if word == "least" else "supremum") + " (not attained)"
        c.print(f"[bold]{_e(head)} {_e(var)} = {_e(data[var])}[/bold]  binding: {_e(short(b['id']))} "
                f"({_e(b['status'])}; {_e(b['qualifier'])})", soft_wrap=False)
    else:
        verb = "" if b["result"].startswith("holds") else "is "
        c.print(f"[bold]no {_e(word)} {_e(var)}[/bold]: {_e(short(b['id']))} {verb}{_e(b['result'])}"
                + (f" ({_e(b['monotone'])})" if b["result"] == "not monotone" else ""))
    if data.get("feasible") is False:
        c.print("[bold]infeasible[/bold]: the least values exceed the largest allowed ones")
    what = f"{data['setting']}: {data['setting_name']}"
    if data.get("target"):
        what = f"target {data['target']} in {data['setting']}"
    c.print(_e(what), overflow="ellipsis", no_wrap=not explain, soft_wrap=explain)
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
    t.add_column(f"{word} {var}", no_wrap=True, overflow="fold")
    t.add_column("condition", no_wrap=True)
    t.add_column("status", no_wrap=True)
    t.add_column("constant", no_wrap=True, overflow="ellipsis")
    for r in sorted(reqs, key=lambda r: r["id"] != data["binding"]):
        val = "—" if r[var] is None else str(r[var])
        mark = " ◀" if r["id"] == data["binding"] and len(reqs) > 1 else ""
        t.add_row(_e(val + mark), _e(short(r["id"])), _e(r["status"]),
                  _e(_short_qualifier(r["qualifier"])))
    c.print(t)
    certs = {short(r["id"]): _cert_text(r, var) for r in reqs if r["result"] != "not monotone"}
    if len(set(certs.values())) == 1:
        c.print(_e(f"certified: each value holds, {next(iter(certs.values()))}"), soft_wrap=False)
    elif certs:
        c.print(_e("certified: " + "; ".join(f"{k}: {v}" for k, v in certs.items())), soft_wrap=False)
    for r in reqs:
        if r["result"] == "not monotone" and r["certificate"].get("counterexample"):
            c.print(_e(f"not monotone in {var} ({short(r['id'])}): counterexample "
                       f"{r['certificate']['counterexample']}"), soft_wrap=False)
    if data.get("skipped"):
        c.print(_e(f"not involving {var}: {', '.join(data['skipped'])}"))
    if not explain:
        how = {r["monotone"] for r in reqs}
        if all(h.startswith("the expression is monotone") for h in how):
            c.print(_e(f"monotone in {var} (read from each expression): each is the global {word}."),
                    soft_wrap=False)
        else:
            for h in sorted(how):
                c.print(_e(f"monotone: {h}"), soft_wrap=False)
        c.print(_e("--explain: inputs, derived values, certificates; --json for scripts"), soft_wrap=False)
        return
    t = table("inputs (every value used; 'default' = not given on the command line)",
              ["symbol", "value", "from", "description"])
    for k, v in data["inputs"].items():
        t.add_row(_e(k), _e(v["value"]), _e(v["from"]), _e(v["description"]))
    c.print(t)
    if data["derived"]:
        t = table("derived quantities", ["symbol", "value", "= expression", "from"])
        for k, v in data["derived"].items():
            t.add_row(_e(k), _e(v["value"] or "—"), _e(v["expression"]), _e(v["from"]))
        c.print(t)
    c.print(f"source: {_e(data['source'])}")
    for r in reqs:
        c.print(f"[bold]{_e(r['id'])}[/bold]: {_e(r['name'])}")
        if r["qualifier"] != "exact constant":
            c.print(f"  {_e(r['qualifier'])}")
        c.print(f"  monotone: {_e(r['monotone'])}")
        for k, v in r["certificate"].items():
            if v is not None:
                c.print(f"  {_e(k)}: {_e(v)}")
        if r.get("note"):
            c.print(f"  note: {_e(r['note'])}")
    if data.get("note"):
        c.print(f"setting note: {_e(data['note'])}")


def print_check(report) -> None:
    """Counts per grade and per paper, then each finding: grade, check, location, message,
    its evidence and the command that re-runs it; then the coverage of each paper."""
    from rich.markup import escape as _x
    from ..services.check.common import GRADES
    from ..services.check.markdown import evidence_text
    c = console()
    data = report.to_json()
    n = data["counts"]

    def counts(k):
        return (f"{k['error']} error(s), {k['warning']} warning(s) ({k['undecided']} undecided), "
                f"{k['note']} note(s), {k['ok']} passed"
                + "".join(f", {k[g]} {g}" for g in ("cannot fail", "identity") if k.get(g)))
    c.print(f"[bold]boundcalc check[/bold] {_x(', '.join(report.papers))}: {data['checks_run']} checks in "
            f"{data['seconds']} s — {counts(n)}")
    if len(report.papers) > 1:
        for p, k in data["counts_by_paper"].items():
            c.print(f"  {_x(p)}: {counts(k)}")
    if data.get("strength"):
        s = data["strength"]
        c.print(f"strength: {s['mutated']} passes mutated, {s['mutants']} mutants, {s['killed']} killed; "
                f"{s['passes_killing_some']}/{s['mutated']} passes kill one or more, {s['cannot_fail']} cannot fail")
    style = {"error": "[red]error[/red]", "warning": "[yellow]warning[/yellow]", "note": "[cyan]note[/cyan]",
             "cannot fail": "[magenta]cannot fail[/magenta]", "identity": "[blue]identity[/blue]"}
    if not report.findings:
        c.print("no findings: every check run passed")
    for f in sorted(report.findings, key=lambda f: GRADES.index(f.severity)):
        c.print(f"{style[f.severity]} [bold]{_x(f.paper)}.{_x(f.check)}[/bold] ({_x(f.kind)}; {_x(f.reason)}) "
                f"— {_x(f.location)}")
        c.print(f"  {_x(f.message)}")
        ev = evidence_text(f.evidence, 600)
        if ev:
            c.print(f"  evidence: {_x(ev)}")
        c.print(f"  re-run: {_x(f.rerun)}" + (f"   |   python: {_x(f.api)}" if f.kind == "measured" else ""))
    for p, rows in (data.get("coverage") or {}).items():
        if rows:
            un = [r["result"] for r in rows if r["status"] == "unaudited"]
            c.print(f"coverage {_x(p)}: {len(rows) - len(un)}/{len(rows)} numbered results audited"
                    + (f"; unaudited: {_x(', '.join(un))}" if un else ""))
    for p, sc in (data.get("step_coverage") or {}).items():
        if sc and sc["displayed"]:
            un = [r["id"] for r in sc["steps"] if r["status"] != "checked"]
            c.print(f"step coverage {_x(p)}: {sc['checked']}/{sc['displayed']} displayed proof steps checked "
                    f"({100 * sc['coverage']:.0f}%)" + (f"; not checked: {_x(', '.join(un))}" if un else ""))


def print_coverage(paper: str, rows: list[dict]) -> None:
    """Every numbered result of a paper with the checks covering it (none: unaudited)."""
    from rich.markup import escape as _x
    c = console()
    if not rows:
        c.print(f"{_x(paper)} lists no numbered results ({_x('[paper] results')} in its formula file): nothing to cover")
        return
    t = table(f"coverage of {paper}: {sum(r['status'] == 'audited' for r in rows)}/{len(rows)} numbered "
              f"results audited", ["result", "status", "checks"])
    for r in rows:
        checks = ", ".join(ch["id"] + (f" ({ch['grade']})" if "grade" in ch else "") for ch in r["checks"])
        t.add_row(_x(r["result"]), "[red]unaudited[/red]" if r["status"] == "unaudited" else "audited",
                  _x(checks or "—"))
    c.print(t)


def print_steps(paper: str, sc: dict) -> None:
    """A paper's displayed proof steps with their place and the checks covering each."""
    from rich.markup import escape as _x
    c = console()
    if not sc["displayed"]:
        c.print(f"{_x(paper)} lists no displayed proof steps ({_x('[[steps]]')} in its formula file)")
        return
    t = table(f"steps of {paper}: {sum(r['status'] != 'unchecked' for r in sc['steps'])}/{sc['displayed']} "
              f"displayed proof steps have a check", ["step", "result", "place", "checks"])
    for r in sc["steps"]:
        t.add_row(_x(r["id"]), _x(r["result"]), _x(r["place"]),
                  _x(", ".join(ch["id"] for ch in r["checks"])) if r["checks"] else "[red]unchecked[/red]")
    c.print(t)
