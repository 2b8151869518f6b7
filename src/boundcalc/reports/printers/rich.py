"""rich: renderables for a terminal. :func:`to_rich` gives a renderable (a comparison
table); :func:`print_rich` prints a record that is several lines and tables (the check
report, a ``require`` answer, a paper's coverage) to a console. Text is escaped by
:func:`boundcalc.reports.escape.terminal` (control characters shown, rich markup escaped)."""
from __future__ import annotations

from typing import ClassVar

from .base import Printer


def _e(x) -> str:
    from ..escape import terminal
    return terminal(x)


class RichPrinter(Printer):
    """Renderables (``to_rich``)."""
    format = "rich"

    def _print_Table(self, t):
        from .cells import rich_table
        return rich_table(t)


def to_rich(obj, **settings):
    """``obj`` as a rich renderable."""
    return RichPrinter(**settings).doprint(obj)


class RichConsolePrinter(Printer):
    """Records printed line by line on a console (``print_rich``)."""
    format = "rich"
    _default_settings: ClassVar[dict] = {"console": None, "explain": False}

    @property
    def c(self):
        return self._settings["console"]

    def _print_Table(self, t):
        from .cells import rich_table
        self.c.print(rich_table(t))

    def _say(self, text: str) -> None:
        """A plain line: every character as written (no markup), control characters shown."""
        from ..escape import terminal
        self.c.print(terminal(text, markup=False), markup=False)

    # -- list / show
    def _print_FormulaListing(self, r):
        t = simple_table(f"{len(r.entries)} formulas", ["id", "kind", "name", "source", "status"])
        for e in r.entries:
            t.add_row(*(_e(str(x)) for x in (e.id, e.kind, e.name, e.source, e.status)))
        self.c.print(t)

    def _print_FormulaDetails(self, f):
        say = self._say
        self.c.print(f"[bold]{_e(f.id)}[/bold] — {_e(f.name)}  ({_e(f.kind)}, {_e(f.status)})")
        say(f"source: {f.source}")
        say(f"expr:   {f.expr}")
        if f.latex_printed:
            say(f"latex (as printed): {f.latex_printed}")
            read = f.latex_read
            if "refused" in read:
                say(f"latex read as: not read ({read['refused']})")
            else:
                say(f"latex read as: {read['text']}")
                say(f"  typeset:     {read['latex']}")
                for rel in read["chain"]:
                    say(f"  and states:  {rel}")
        if f.uses:
            say("uses:   " + ", ".join(f.uses))
        say(f.qualifier)
        if f.note:
            say(f"note:   {f.note}")
        t = simple_table("symbols", ["symbol", "domain", "role", "default", "description"])
        for n, s in f.symbols.items():
            t.add_row(*(_e(str(x)) for x in (n, s["domain"], s["role"], s["default"] or "", s["description"])))
        self.c.print(t)

    # -- reproduce --list (the descriptions are the experiments' own text, not a user's)
    def _print_ReproductionListing(self, r):
        t = simple_table(f"{len(r.entries)} reproductions", ["name", "description", "settings (--NAME VALUE)"])
        for e in r.entries:
            t.add_row(e.name, e.description, " ".join(e.settings) or "-")
        self.c.print(t)
        for paper, why in r.unavailable.items():
            self.c.print(f"[yellow]{paper}: {why}[/yellow]")

    # -- require
    def _print_RequireResult(self, res):
        self._print_dict(res.to_json())

    def _print_dict(self, data):
        """A ``require`` answer as its JSON data (what ``--json`` prints)."""
        if "requirements" not in data:
            from ...errors import BoundcalcError
            raise BoundcalcError("no rich printer for this dict")
        _require(self.c, data, self._settings["explain"])

    # -- check
    def _finding(self, f):
        from . import evidence as ev_
        c = self.c
        style = {"error": "[red]error[/red]", "warning": "[yellow]warning[/yellow]", "note": "[cyan]note[/cyan]",
                 "cannot fail": "[magenta]cannot fail[/magenta]", "identity": "[blue]identity[/blue]",
                 "conditional": "[green]conditional[/green]"}
        c.print(f"{style[f.severity]} [bold]{_e(f.paper)}.{_e(f.check)}[/bold] ({_e(f.kind)}; {_e(f.reason)}) "
                f"— {_e(ev_.readable(f.location))}", soft_wrap=False)          # wrapped at the console's width
        body = self._body
        body(f.message)
        if f.note:
            body(f"note: {f.note}")
        for line in ev_.added_lines(f):
            body(line)
        for line in ev_.strength_lines(f):
            body(line)
        ev = f.evidence
        keys = ev_.typeset_keys(ev)
        if any(k in ev_.EXPRESSIONS for k in keys):
            defs, exprs, _ = ev_.expressions(ev)
            for sym, sub in defs:
                body(f"where {sym} = {ev_.text(sub)}")
            for label, _, e in exprs:
                body(f"{label}: {ev_.text(e)}")
        if "counterexample" in keys:
            body(f"counterexample: {ev_.point_text(ev['counterexample'])}")
        rest = ev_.evidence_text(ev, 600, skip=keys)
        if rest:
            body(f"evidence: {rest}")
        # a command stays on one line, to be copied whole
        c.print(f"  re-run: {_e(f.rerun)}" + (f"   |   python: {_e(f.api)}" if f.kind == "measured" else ""),
                soft_wrap=True)

    def _body(self, text: str) -> None:
        """A line of a finding, two spaces in, wrapped at spaces to the console's width (the
        terminal's, ``COLUMNS``, or 200 for a pipe), its continuation lines four spaces in; in
        the one notation of the report's expressions (:func:`.evidence.readable`: ``d^(3/2)``,
        ``√(T)``, ``θ``, never SymPy's ``d**(3/2)`` beside them)."""
        import textwrap

        from .evidence import readable
        width = max(40, self.c.width)
        for piece in textwrap.wrap(readable(str(text)), width=width, initial_indent="  ", subsequent_indent="    ",
                                   break_long_words=True, break_on_hyphens=False) or ["  "]:
            self.c.print(_e(piece), soft_wrap=True)

    def _print_Report(self, report):
        from ...verdicts import GRADES, Grade
        c = self.c
        data = report.to_json()
        n = data["counts"]

        def counts(k):
            return (f"{k['error']} error(s), {k['warning']} warning(s) ({k['undecided']} undecided), "
                    f"{k['note']} note(s), {k['ok']} passed"
                    + "".join(f", {k[g]} {g}" for g in ("conditional", "cannot fail", "identity") if k.get(g)))
        und = data.get("undecided") or {}
        why = (f"; checks left undecided: {sum(und.values())} (" + ", ".join(f"{_e(k)}: {v}" for k, v in und.items())
               + ")" if und else "")
        c.print(f"[bold]boundcalc check[/bold] {_e(', '.join(report.papers))}: {data['checks_run']} checks in "
                f"{data['seconds']} s — {counts(n)}{why}", soft_wrap=True)   # whole: scripts read it
        if len(report.papers) > 1:
            for p, k in data["counts_by_paper"].items():
                c.print(f"  {_e(p)}: {counts(k)}", soft_wrap=True)
        if data.get("strength"):
            s = data["strength"]
            c.print(f"strength: {s['mutated']} passes mutated, {s['mutants']} mutants, {s['killed']} killed "
                    f"({s['paper_killed']} of the paper's side); {s['passes_killing_some']}/{s['mutated']} passes "
                    f"catch a mutant of the paper's side, {s['cannot_fail']} cannot fail")
            from . import evidence as ev_
            for r in report.results:
                if r.severity is Grade.OK and r.strength is not None:
                    c.print(f"  {_e(r.paper)}.{_e(r.check)}: " + _e("; ".join(ev_.strength_lines(r))))
        if not report.findings:
            c.print("no findings: every check run passed")
        for f in sorted(report.findings, key=lambda f: GRADES.index(f.severity)):
            self._finding(f)
        for p, rows in (data.get("coverage") or {}).items():
            if rows:
                un = [r["result"] for r in rows if r["status"] == "unaudited"]
                c.print(f"coverage {_e(p)}: {len(rows) - len(un)}/{len(rows)} numbered results audited"
                        + (f"; unaudited: {_e(', '.join(un))}" if un else ""), soft_wrap=False)
        for p, sc in (data.get("step_coverage") or {}).items():
            if sc and sc["displayed"]:
                un = [r["id"] for r in sc["steps"] if r["status"] != "checked"]
                c.print(f"step coverage {_e(p)}: {sc['checked']}/{sc['displayed']} displayed proof steps checked "
                        f"({_pct(sc)})" + (f"; not checked: {_e(', '.join(un))}" if un else ""), soft_wrap=False)


    def _print_CoverageReport(self, r):
        for k in r.papers:
            print_coverage(k, r.results[k], self.c)
            print_steps(k, r.steps[k], self.c)


def print_rich(obj, **settings) -> None:
    """Print ``obj`` on ``console`` (default: a new rich console). ``explain``: a
    ``require`` answer with every input, derived value and certificate."""
    if settings.get("console") is None:
        from rich.console import Console
        settings["console"] = Console()
    RichConsolePrinter(**settings).doprint(obj)


def simple_table(title: str, columns: list[str]):
    """A rich table with a left-justified title; the first column does not wrap."""
    from rich.table import Table

    from ..escape import terminal
    t = Table(title=terminal(title), title_justify="left", show_lines=False)
    for i, c in enumerate(columns):
        t.add_column(c, overflow="fold", no_wrap=(i == 0))
    return t


def print_coverage(paper: str, rows: list[dict], console) -> None:
    """Every numbered result of a paper with the checks covering it (none: unaudited)."""
    if not rows:
        console.print(f"{_e(paper)} lists no numbered results ({_e('[paper] results')} in its formula file): "
                      "nothing to cover")
        return
    t = simple_table(f"coverage of {paper}: {sum(r['status'] == 'audited' for r in rows)}/{len(rows)} numbered "
              f"results audited", ["result", "status", "checks"])
    for r in rows:
        checks = ", ".join(ch["id"] + (f" ({ch['grade']})" if "grade" in ch else "") for ch in r["checks"])
        t.add_row(_e(r["result"]), "[red]unaudited[/red]" if r["status"] == "unaudited" else "audited",
                  _e(checks or "—"))
    console.print(t)



def _pct(sc: dict) -> str:
    """Step coverage as a percentage to one decimal, never rounded up to a threshold
    (35/37 is 94.6%, not 95%); whole numbers without a decimal."""
    x = f"{1000 * sc['checked'] // sc['displayed'] / 10:.1f}"      # rounded down (integers: exact)
    return x.removesuffix(".0") + "%"


def print_steps(paper: str, sc: dict, console) -> None:
    """A paper's displayed proof steps with their place and the checks covering each."""
    if not sc["displayed"]:
        console.print(f"{_e(paper)} lists no displayed proof steps ({_e('[[steps]]')} in its formula file)")
        return
    t = simple_table(f"steps of {paper}: {sc['declared']}/{sc['displayed']} displayed proof steps have a "
                     f"check not flagged an identity (not run: `check {paper}` reports those it decides)",
                     ["step", "result", "place", "checks"])
    for r in sc["steps"]:
        names = ", ".join(ch["id"] + (" (identity)" if ch.get("identity") else "") for ch in r["checks"])
        t.add_row(_e(r["id"]), _e(r["result"]), _e(r["place"]),
                  _e(names) if r["checks"] else "[red]unchecked[/red]")
    console.print(t)


# ---------------------------------------------------------------------------- require
def _short_qualifier(q: str) -> str:
    return q.replace("up to the absolute constant(s) ", "up to ") if q != "exact constant" else "exact"


def _cert_text(r: dict, var: str) -> str:
    from ...verdicts import RequireOutcome
    c = r["certificate"]
    if r["result"] == RequireOutcome.NOT_MONOTONE:
        return "counterexample" if c.get("counterexample") else "not monotone"
    if r["result"] == RequireOutcome.HOLDS_EVERYWHERE:
        return "holds on the whole domain" + (f" ({c['proof']})" if c.get("proof") else "")
    if r["result"] == RequireOutcome.UNDECIDED:
        return "undecided"
    if c.get("fails_at") is None:
        return f"the end of {var}'s domain"
    if c.get("note", "").startswith(("infimum", "supremum")):
        return c["note"]
    if "relative_gap" in c:
        return f"fails {'above' if r['direction'] == 'greatest' else 'below'} (rel. {c['relative_gap']})"
    return f"{var}{'-' if r['direction'] == 'least' else '+'}1 fails"


def _require(c, data: dict, explain: bool = False) -> None:
    """The answer first: one headline (value, binding condition, status, qualifier), then a
    compact requirements table that fits 80 columns; ``explain`` adds every input, derived
    value, certificate and the monotonicity evidence."""
    var = data["var"]
    reqs = data["requirements"]
    b = next(r for r in reqs if r["id"] == data["binding"])
    word = "least" if data["direction"] == "least" else "largest"
    paper = data["setting"].split(".")[0] + "."

    def short(fid):
        return fid.removeprefix(paper)

    _require_headline(c, data, b, word, short, explain)
    _require_table(c, data, reqs, word, short)
    _require_certs(c, reqs, var, short)
    if data.get("skipped"):
        c.print(_e(f"not involving {var}: {', '.join(data['skipped'])}"))
    if not explain:
        _require_brief(c, data, reqs, var, word)
        return
    _require_explained(c, data, reqs)


def _require_headline(c, data: dict, b: dict, word: str, short, explain: bool) -> None:
    """The answer (value, binding condition, status, qualifier), feasibility, what was asked."""
    from ...verdicts import RequireOutcome
    var = data["var"]
    if data[var] is not None:
        head = word if data.get("attained", True) is not False else \
            ("infimum" if word == "least" else "supremum") + " (not attained)"
        c.print(f"[bold]{_e(head)} {_e(var)} = {_e(data[var])}[/bold]  binding: {_e(short(b['id']))} "
                f"({_e(b['status'])}; {_e(b['qualifier'])})", soft_wrap=False)
    else:
        verb = "" if b["result"].startswith("holds") else "is "
        c.print(f"[bold]no {_e(word)} {_e(var)}[/bold]: {_e(short(b['id']))} {verb}{_e(b['result'])}"
                + (f" ({_e(b['monotone'])})" if b["result"] == RequireOutcome.NOT_MONOTONE else ""))
    if data.get("feasible") is False:
        c.print("[bold]infeasible[/bold]: the least values exceed the largest allowed ones")
    what = f"{data['setting']}: {data['setting_name']}"
    if data.get("target"):
        what = f"target {data['target']} in {data['setting']}"
    if data.get("range"):
        what += f"; searched only {data['range']}"
    c.print(_e(what), overflow="ellipsis", no_wrap=not explain, soft_wrap=explain)


def _require_table(c, data: dict, reqs: list, word: str, short) -> None:
    """The requirements, a compact table that fits 80 columns (the binding one first)."""
    from rich import box
    from rich.table import Table
    var = data["var"]
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


def _require_certs(c, reqs: list, var: str, short) -> None:
    """What is certified of each value, and the counterexamples of the non-monotone ones."""
    from ...verdicts import RequireOutcome
    certs = {short(r["id"]): _cert_text(r, var) for r in reqs if r["result"] != RequireOutcome.NOT_MONOTONE}
    if len(set(certs.values())) == 1:
        c.print(_e(f"certified: each value holds, {next(iter(certs.values()))}"), soft_wrap=False)
    elif certs:
        c.print(_e("certified: " + "; ".join(f"{k}: {v}" for k, v in certs.items())), soft_wrap=False)
    for r in reqs:
        if r["result"] == RequireOutcome.NOT_MONOTONE and r["certificate"].get("counterexample"):
            c.print(_e(f"not monotone in {var} ({short(r['id'])}): counterexample "
                       f"{r['certificate']['counterexample']}"), soft_wrap=False)


def _require_brief(c, data: dict, reqs: list, var: str, word: str) -> None:
    """Without --explain: how monotonicity was shown, in one line where it was read from the trees."""
    how = {r["monotone"] for r in reqs}
    if all(h.startswith("the expression is monotone") for h in how):
        scope = f"the {word} in the range {data['range']}" if data.get("range") else f"the global {word}"
        c.print(_e(f"monotone in {var} (read from each expression): each is {scope}."),
                soft_wrap=False)
    else:
        for h in sorted(how):
            c.print(_e(f"monotone: {h}"), soft_wrap=False)
    c.print(_e("--explain: inputs, derived values, certificates; --json for scripts"), soft_wrap=False)


def _require_explained(c, data: dict, reqs: list) -> None:
    """--explain: every input, derived value, certificate and the monotonicity evidence."""
    t = simple_table("inputs (every value used; 'default' = not given on the command line)",
              ["symbol", "value", "from", "description"])
    for k, v in data["inputs"].items():
        t.add_row(_e(k), _e(v["value"]), _e(v["from"]), _e(v["description"]))
    c.print(t)
    if data["derived"]:
        t = simple_table("derived quantities", ["symbol", "value", "= expression", "from"])
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
