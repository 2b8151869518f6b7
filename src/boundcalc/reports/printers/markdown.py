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
        """The table with its text typeset as the LaTeX table and the HTML page read it
        (:func:`..latex.ascii_math_parts`): math in ``$...$``, the settings as code."""
        import pandas as pd

        from ..latex import label_parts, markdown_pieces, markdown_text
        from ..numfmt import yesno
        from .cells import COLUMNS, cells, notes, setting_options
        rows = []
        for r in t.rows:
            cs = cells(r)
            rows.append([markdown_pieces(label_parts(r), table=True), markdown_text(cs[1], table=True),
                         *(_md_number(v) for v in cs[2:5]), md_cell(cs[5]),
                         md_cell(yesno(r.hypotheses_met))           # yes/no, then the hypotheses
                         + (f" ({markdown_text(r.hypotheses, table=True)})" if r.hypotheses else ""),
                         markdown_text(cs[7], table=True)])
        body = pd.DataFrame(rows, columns=list(COLUMNS)).to_markdown(
            index=False, tablefmt="pipe", disable_numparse=True,
            colalign=("left", "left", "right", "right", "right", "center", "left", "left"))
        settings = ", ".join(md_code(o) for o in setting_options(t)) or "none"
        seed = f"; seed {t.seed}" if t.seed is not None else ""
        lines = [f"### {md_cell(t.paper)}: {markdown_text(t.title)}", "", f"settings: {settings}{seed}", "", body]
        extra = notes(t)
        if extra:
            lines += ["", "Notes:", ""] + [f"- {markdown_text(n)}" for n in extra]
        return "\n".join(lines) + "\n"

    # -- the check report
    def _finding(self, f, pad: str) -> list[str]:
        from ..latex import names_of
        with names_of(f.paper):        # its text names that paper's symbols in its notation
            return self._finding_in(f, pad)

    def _finding_in(self, f, pad: str) -> list[str]:
        from ..latex import markdown_pieces, markdown_text, quote_parts
        from . import evidence as ev_
        out = [(f"{pad}- **{md_cell(f.severity)}** {md_code(f.check)} ({md_cell(f.kind)}; {md_cell(f.reason)}) "
               f"— {markdown_text(f.location)}  "), f"{pad}  {markdown_text(ev_.sympy_ascii(f.message))}  "]
        if f.note:
            out.append(f"{pad}  note: {markdown_text(f.note)}  ")
        # the assumption in the ASCII convention, its reason quoting the paper's $...$ math
        for line in ev_.added_lines(f, text=lambda s: md_cell(s, inline=True),
                                    assumption=lambda a: markdown_text(ev_.sympy_ascii(a)),
                                    reason=lambda r: markdown_pieces(quote_parts(r))):
            out.append(f"{pad}  {line}  ")
        for line in ev_.strength_lines(f):
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
        if rest:                             # as the record holds it (report.json's keys, SymPy's text)
            out.append(f"{pad}  evidence: {md_code(rest)}  ")
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
                out.append(f"  consequence of {md_code(f.root)} ({_text(f.because, f.paper)})")
            for c in (x for x in report.findings if x.root == f"{f.paper}.{f.check}"):
                out.append(f"  - consequence ({_text(c.because, c.paper)}):")
                out += self._finding(c, "    ")
        cov = d["coverage"].get(p) or []
        if cov:
            audited = sum(r["status"] == "audited" for r in cov)
            out += ["", f"### Coverage of {md_cell(p)}: {audited}/{len(cov)} numbered results audited", "",
                    "| result | status | checks (grade) |", "|---|---|---|"]
            for r in cov:
                out.append(f"| {_text(r['result'], p, table=True)} | {md_cell(r['status'])} | {_checks(r)} |")
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
            from ..latex import markdown_pieces, names_of, quote_parts
            for a in d["added_assumptions"]:
                need = {True: "yes", False: "no"}.get(a.get("needed"), "—")
                with names_of(a["paper"]):     # the reason quotes the paper's $...$ math
                    reason = markdown_pieces(quote_parts(a["reason"]), table=True)
                out.append(f"| {md_code(a['paper'] + '.' + a['check'], table=True)} | "
                           f"{md_code(a['assumption'], table=True)} | "
                           f"{md_cell(a['kind'])} | {need} | {reason or '**none given**'} | "
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
            from ..latex import markdown_text, names_of
            for r in passed:
                with names_of(r.paper):
                    message = markdown_text(ev_.sympy_ascii(r.message), table=True)
                out.append(f"| {md_code(r.paper + '.' + r.check, table=True)} | {md_cell(r.kind)} | {message} |"
                           + (f" {md_cell('; '.join(ev_.strength_lines(r)))} |" if st else ""))
        return out



def _checks(r: dict) -> str:
    """A coverage row's checks, each its id (code) and grade."""
    return ", ".join(f"{md_code(c['id'], table=True)} ({md_cell(c.get('grade', '?'))})" for c in r["checks"]) or "—"


def _text(s: str, paper: str | None = None, table: bool = False) -> str:
    """Words in the ASCII convention as Markdown, in ``paper``'s notation."""
    from ..latex import markdown_text, names_of
    with names_of(paper):
        return markdown_text(str(s), table=table)


def _md_number(cell: str) -> str:
    """A number cell (``fmt_human``): a power of ten as math, a true minus."""
    import re
    if re.fullmatch(r"-?[\d.]+e-?\d+", cell):
        from ..latex import num_math
        return md_math(num_math(cell))
    return md_cell(cell.replace("-", "\N{MINUS SIGN}") if re.fullmatch(r"-[\d.]+", cell) else cell)


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
               f"({_pct(sc)})"), "", *([f"Not checked: {', '.join(md_code(x) for x in un)}.", ""] if un else []),
           "| step | result | place | status | checks (grade) |", "|---|---|---|---|---|"]
    for r in sc["steps"]:
        out.append(f"| {md_code(r['id'], table=True)} | {md_cell(r['result'])} | {_text(r['place'], table=True)} | "
                   f"{md_cell(r['status'])} | {_checks(r)} |")
    return out


def to_markdown(obj, **settings) -> str:
    """``obj`` as Markdown."""
    return MarkdownPrinter(**settings).doprint(obj)
