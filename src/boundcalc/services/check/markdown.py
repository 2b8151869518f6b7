"""The check report as Markdown (``boundcalc check --markdown``; examples/check/report.md)."""
from __future__ import annotations

from ...reports.escape import md_cell as _cell
from .common import GRADES as GRADE_ORDER


def evidence_text(ev: dict, limit: int = 700) -> str:
    """A finding's evidence on one line (order rows compacted), cut at ``limit`` characters."""
    parts = []
    for k, v in ev.items():
        if v in (None, {}, [], ""):
            continue
        if k == "per_variable" and isinstance(v, list):
            v = ", ".join(f"{r['var']} -> {r['limit']} [{r['regime']}]: {r['exact']} vs {r['stated']} "
                          f"({'holds' if r['holds'] else 'fails'})" for r in v)
        parts.append(f"{k}: {v}")
    text = "; ".join(parts)
    return text if len(text) <= limit else text[:limit] + " …"


def _finding(f, pad: str) -> list[str]:
    out = [f"{pad}- **{f.severity}** `{f.check}` ({f.kind}; {f.reason}) — {f.location}  ",
           f"{pad}  {f.message}  "]
    ev = evidence_text(f.evidence)
    if ev:
        out.append(f"{pad}  evidence: {ev}  ")
    out.append(f"{pad}  re-run: `{f.rerun}`" + (f"  ·  Python: `{f.api}`" if f.kind == "measured" else ""))
    return out


def to_markdown(report) -> str:
    d = report.to_json()
    out = [f"# boundcalc check: {', '.join(report.papers)}", ""]
    out.append(f"{d['checks_run']} checks in {d['seconds']} s (wall clock). Reproduce: "
               f"`boundcalc check{'' if len(report.papers) > 1 else ' ' + report.papers[0]} --markdown{report.options}`.")
    out += ["", "## Counts", "", "| paper | error | warning | (of which undecided) | note | passed |",
            "|---|---:|---:|---:|---:|---:|"]
    for p, k in list(d["counts_by_paper"].items()) + [("**all**", d["counts"])]:
        out.append(f"| {p} | {k['error']} | {k['warning']} | {k['undecided']} | {k['note']} | {k['ok']} |")
    extra = {g: d["counts"][g] for g in ("cannot fail", "identity") if d["counts"].get(g)}
    if extra:
        out += ["", "Not counted as passes: " + ", ".join(f"{n} {g}" for g, n in extra.items())
                + " (cannot fail: kills no mutant of its claim under --strength; identity: records an "
                "identity, marked `identity = true`)."]
    if d.get("strength"):
        s = d["strength"]
        out += ["", f"Strength (--strength): {s['mutated']} passes mutated, {s['mutants']} mutants, {s['killed']} "
                f"killed; {s['passes_killing_some']} of {s['mutated']} passes kill at least one, "
                f"{s['cannot_fail']} cannot fail."]
    out += ["", "Findings by reason: " + ", ".join(f"{r or 'none'}: {n}" for r, n in d["counts_by_reason"].items()),
            "", "Findings by kind: " + ", ".join(f"{k}: {n}" for k, n in d["counts_by_kind"].items())
            + " (a consequence is listed under the root finding that explains it)",
            "", "Grades: **error** = false as printed (or an invalid bound); **warning** = imprecise "
            "(polylog factor, larger constant, vacuous) or undecided; **note** = rests on a reading of "
            "garbled text, on comparing versions, or on sampling only, or evaluates a result outside the "
            "hypotheses the paper states it under (\"outside the hypotheses\")."]
    for p in report.papers:
        fs = sorted((f for f in report.findings if f.paper == p),
                    key=lambda f: GRADE_ORDER.index(f.severity))
        out += ["", f"## {p}", ""]
        if not fs:
            out.append("No findings.")
        shown = {f"{x.paper}.{x.check}" for x in fs}
        for f in (x for x in fs if not x.root or x.root not in shown):
            out += _finding(f, "")
            if f.root:                       # its root was not run in this report (--only)
                out.append(f"  consequence of `{f.root}` ({f.because})")
            for c in (x for x in report.findings if x.root == f"{f.paper}.{f.check}"):
                out.append(f"  - consequence ({c.because}):")
                out += _finding(c, "    ")
        cov = d["coverage"].get(p) or []
        if cov:
            audited = sum(r["status"] == "audited" for r in cov)
            out += ["", f"### Coverage of {p}: {audited}/{len(cov)} numbered results audited", "",
                    "| result | status | checks (grade) |", "|---|---|---|"]
            for r in cov:
                checks = ", ".join(f"{c['id']} ({c.get('grade', '?')})" for c in r["checks"]) or "—"
                out.append(f"| {_cell(r['result'])} | {r['status']} | {_cell(checks)} |")
    if d.get("added_assumptions"):
        out += ["", "## Assumptions the checks add", "",
                "Beyond the hypotheses of the results they cover (`[[hypotheses]]`, quoted from the papers).", "",
                "| check | assumption | reason | grade |", "|---|---|---|---|"]
        for a in d["added_assumptions"]:
            out.append(f"| {a['paper']}.{a['check']} | `{_cell(a['assumption'])}` | "
                       f"{_cell(a['reason']) or '**none given**'} | {a['grade']} |")
    passed = [r for r in report.results if r.severity == "ok"]
    if passed:
        out += ["", "## Passed", "", "| check | kind | message |", "|---|---|---|"]
        for r in passed:
            out.append(f"| {r.paper}.{r.check} | {r.kind} | {_cell(r.message)} |")
    return "\n".join(out) + "\n"
