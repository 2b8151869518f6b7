"""Markdown: the comparison table (``compare --format markdown``) and the check report
(``check --markdown``; examples/check/report.md). Text is escaped by
:func:`boundcalc.reports.escape.md_cell` (the one Markdown escaper)."""
from __future__ import annotations

from ..escape import md_cell, md_code, md_math
from .base import Printer


class MarkdownPrinter(Printer):
    format = "markdown"

    # -- the comparison table
    def _print_Table(self, t) -> str:
        from .cells import caption, display_frame, notes
        body = display_frame(t).map(md_cell).to_markdown(
            index=False, tablefmt="pipe", disable_numparse=True,
            colalign=("left", "left", "right", "right", "right", "center", "left", "left"))
        lines = [f"### {md_cell(t.paper)}: {md_cell(t.title)}", "", md_cell(caption(t)), "", body]
        extra = notes(t)
        if extra:
            lines += ["", "Notes:", ""] + [f"- {md_cell(n)}" for n in extra]
        return "\n".join(lines) + "\n"

    # -- the check report
    def _finding(self, f, pad: str) -> list[str]:
        from . import evidence as ev_
        out = [(f"{pad}- **{md_cell(f.severity)}** {md_code(f.check)} ({md_cell(f.kind)}; {md_cell(f.reason)}) "
               f"— {md_cell(f.location)}  "), f"{pad}  {md_cell(f.message)}  "]
        if f.note:
            out.append(f"{pad}  note: {md_cell(f.note)}  ")
        for line in ev_.added_lines(f) + ev_.strength_lines(f):
            out.append(f"{pad}  {md_cell(line)}  ")
        ev = f.evidence
        keys = ev_.typeset_keys(ev)
        names = dict(getattr(f, "notation", None) or {})
        if any(k in ev_.EXPRESSIONS for k in keys):
            defs, exprs, more = ev_.expressions(ev)
            names = {**more, **names}
            for sym, sub in defs:
                out.append(f"{pad}  where {md_math(f'{ev_.latex(sym, names)} = {ev_.latex(sub, names)}')}  ")
            for label, _, e in exprs:
                out.append(f"{pad}  {md_cell(label)}: {md_math(ev_.latex(e, names))}  ")
        if "counterexample" in keys:
            out.append(f"{pad}  counterexample: {md_math(ev_.point_latex(ev['counterexample'], names))}  ")
        rest = ev_.evidence_text(ev, skip=keys)
        if rest:
            out.append(f"{pad}  evidence: {md_cell(rest)}  ")
        out.append(f"{pad}  re-run: {md_code(f.rerun)}" + (f"  ·  Python: {md_code(f.api)}" if f.kind == "measured" else ""))
        return out

    def _print_Report(self, report) -> str:
        d = report.to_json()
        out = self._report_summary(report, d)
        for p in report.papers:
            out += self._report_paper(report, d, p)
        out += self._report_assumptions(d)
        out += self._report_passed(report)
        return "\n".join(out) + "\n"

    def _report_summary(self, report, d) -> list[str]:
        """The title, the counts, and what the grades and the evidence mean."""
        from ...verdicts import Grade
        out = [f"# boundcalc check: {md_cell(', '.join(report.papers))}", ""]
        cmd = f"boundcalc check{'' if len(report.papers) > 1 else ' ' + report.papers[0]} --markdown{report.options}"
        out.append(f"{d['checks_run']} checks in {d['seconds']} s (wall clock). Reproduce: {md_code(cmd)}.")
        out += ["", "## Counts", "", "| paper | error | warning | (of which undecided) | note | passed |",
                "|---|---:|---:|---:|---:|---:|"]
        for p, k in list(d["counts_by_paper"].items()) + [("**all**", d["counts"])]:
            out.append(f"| {p if p == '**all**' else md_cell(p)} | {k['error']} | {k['warning']} | {k['undecided']} | {k['note']} | {k['ok']} |")
        if d["counts"].get(Grade.CONDITIONAL):
            out += ["", (f"Conditional passes: {d['counts'][Grade.CONDITIONAL]} (pass only under an assumption added "
                    "by us, not a quoted hypothesis of the paper; listed with each; warnings under `--strict`).")]
        extra = {g: d["counts"][g] for g in (Grade.CANNOT_FAIL, Grade.IDENTITY) if d["counts"].get(g)}
        if extra:
            out += ["", "Not counted as passes: " + ", ".join(f"{n} {g}" for g, n in extra.items())
                    + " (cannot fail: catches no mutant of the paper's side under --strength; identity: records an "
                    "identity (`identity = true`) or is a tautology of the encoding)."]
        if d.get("strength"):
            s = d["strength"]
            out += ["", (f"Strength (--strength): {s['mutated']} passes mutated, {s['mutants']} mutants, {s['killed']} "
                    f"killed ({s['paper_killed']} of the paper's side); {s['passes_killing_some']} of "
                    f"{s['mutated']} passes catch a mutant of the paper's side, {s['cannot_fail']} cannot fail.")]
        out += ["", "Findings by reason: " + ", ".join(f"{md_cell(r or 'none')}: {n}" for r, n in d["counts_by_reason"].items()),
                "", "Findings by kind: " + ", ".join(f"{md_cell(k)}: {n}" for k, n in d["counts_by_kind"].items())
                + " (a consequence is listed under the root finding that explains it)",
                "", ("Grades: **error** = false as printed (or an invalid bound); **warning** = imprecise "
                "(polylog factor, larger constant, vacuous) or undecided; **note** = rests on a reading of "
                "garbled text, on comparing versions, or on sampling only, or evaluates a result outside the "
                "hypotheses the paper states it under (\"outside the hypotheses\")."),
                "", ("Evidence: the expressions compared and the counterexample are typeset in the paper's "
                "notation (an expression over 120 characters gets named subterms A, B, … defined first); "
                "report.json keeps SymPy's text.")]
        return out

    def _report_paper(self, report, d, p) -> list[str]:
        """One paper's findings (each with its consequences), coverage and step coverage."""
        from ...verdicts import GRADES
        out: list[str] = []
        fs = sorted((f for f in report.findings if f.paper == p), key=lambda f: GRADES.index(f.severity))
        out += ["", f"## {md_cell(p)}", ""]
        if not fs:
            out.append("No findings.")
        shown = {f"{x.paper}.{x.check}" for x in fs}
        for f in (x for x in fs if not x.root or x.root not in shown):
            out += self._finding(f, "")
            if f.root:                       # its root was not run in this report (--only)
                out.append(f"  consequence of {md_code(f.root)} ({md_cell(f.because)})")
            for c in (x for x in report.findings if x.root == f"{f.paper}.{f.check}"):
                out.append(f"  - consequence ({md_cell(c.because)}):")
                out += self._finding(c, "    ")
        cov = d["coverage"].get(p) or []
        if cov:
            audited = sum(r["status"] == "audited" for r in cov)
            out += ["", f"### Coverage of {md_cell(p)}: {audited}/{len(cov)} numbered results audited", "",
                    "| result | status | checks (grade) |", "|---|---|---|"]
            for r in cov:
                checks = ", ".join(f"{c['id']} ({c.get('grade', '?')})" for c in r["checks"]) or "—"
                out.append(f"| {md_cell(r['result'])} | {md_cell(r['status'])} | {md_cell(checks)} |")
        out += step_table(d.get("step_coverage", {}).get(p))
        return out

    def _report_assumptions(self, d) -> list[str]:
        """The assumptions the checks add (beyond the papers' hypotheses), a table."""
        out: list[str] = []
        if d.get("added_assumptions"):
            out += ["", "## Assumptions the checks add", "",
                    ("Added by us: beyond the hypotheses of the results they cover (`[[hypotheses]]`, quoted from "
                    "the papers); `assume` entries and numbers substituted for symbols."), "",
                    "| check | assumption | kind | needed by the pass | reason | grade |", "|---|---|---|---|---|---|"]
            for a in d["added_assumptions"]:
                need = {True: "yes", False: "no"}.get(a.get("needed"), "—")
                out.append(f"| {md_cell(a['paper'] + '.' + a['check'])} | {md_code(a['assumption'], table=True)} | "
                           f"{md_cell(a['kind'])} | {need} | {md_cell(a['reason']) or '**none given**'} | "
                           f"{md_cell(a['grade'])} |")
        return out

    def _report_passed(self, report) -> list[str]:
        """The passed checks, a table (with the mutants each caught under --strength)."""
        from ...verdicts import Grade
        out: list[str] = []
        passed = [r for r in report.results if r.severity is Grade.OK]
        if passed:
            from . import evidence as ev_
            st = report.strength
            out += ["", "## Passed", "", "| check | kind | message |" + (" mutants caught (--strength) |" if st else ""),
                    "|---|---|---|" + ("---|" if st else "")]
            for r in passed:
                out.append(f"| {md_cell(r.paper + '.' + r.check)} | {md_cell(r.kind)} | {md_cell(r.message)} |"
                           + (f" {md_cell('; '.join(ev_.strength_lines(r)))} |" if st else ""))
        return out



def _pct(sc: dict) -> str:
    """Step coverage as a percentage to one decimal, never rounded up to a threshold
    (35/37 is 94.6%, not 95%); whole numbers without a decimal."""
    x = f"{1000 * sc['checked'] // sc['displayed'] / 10:.1f}"      # rounded down (integers: exact)
    return x.removesuffix(".0") + "%"


def step_table(sc: dict | None) -> list[str]:
    """Markdown lines: a paper's step coverage (checked / displayed proof steps) and its steps."""
    if not sc or not sc["displayed"]:
        return []
    un = [r["id"] for r in sc["steps"] if r["status"] != "checked"]
    out = ["", (f"### Step coverage: {sc['checked']}/{sc['displayed']} displayed proof steps checked "
               f"({_pct(sc)})"), "", *([f"Not checked: {md_cell(', '.join(un))}.", ""] if un else []),
           "| step | result | place | status | checks (grade) |", "|---|---|---|---|---|"]
    for r in sc["steps"]:
        checks = ", ".join(f"{c['id']} ({c.get('grade', '?')})" for c in r["checks"]) or "—"
        out.append(f"| {md_cell(r['id'])} | {md_cell(r['result'])} | {md_cell(r['place'])} | {md_cell(r['status'])} | "
                   f"{md_cell(checks)} |")
    return out


def to_markdown(obj, **settings) -> str:
    """``obj`` as Markdown."""
    return MarkdownPrinter(**settings).doprint(obj)
