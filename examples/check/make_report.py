"""Regenerate examples/check/report.md, report.json and report.html: `boundcalc check` over
the four papers, run once (the same as `boundcalc check --markdown`, `boundcalc check --json`
and `boundcalc check --html report.html`). The screenshot report.png is taken from
report.html by tests/reports/printers/test_html_browser.py (headless Chromium).

    python examples/check/make_report.py
    python examples/check/make_report.py --verify    # write nothing: do the committed grades hold?

``--verify`` runs the same checks and compares each check's grade (severity and reason) with
the committed report.json, printing every difference; exit 1 when there is one.
tests/test_examples.py runs a fixed sample of the checks the same way on every CI run.
"""
import json
import os
import sys
from pathlib import Path

from boundcalc.services.check import run_checks

HERE = Path(__file__).resolve().parent


def grades(report_json: dict) -> dict[tuple[str, str], tuple[str, str]]:
    """(paper, check) -> (severity, reason) of every check in a report's JSON."""
    return {(r["paper"], r["check"]): (r["severity"], r["reason"])
            for r in report_json["findings"] + report_json["passed"]}


def differences(committed: dict, fresh: dict) -> list[str]:
    """One line per check whose grade differs, or that only one of the two reports has,
    among the checks the fresh report ran."""
    old, new = grades(committed), grades(fresh)
    return [f"{p}.{c}: committed {old.get((p, c), 'absent')}, fresh {g}"
            for (p, c), g in sorted(new.items()) if old.get((p, c)) != g]


def committed() -> dict:
    return json.loads((HERE / "report.json").read_text(encoding="utf-8"))


if __name__ == "__main__" and sys.argv[1:] == ["--verify"]:
    fresh = run_checks(jobs=-1).to_json()
    diff = differences(committed(), fresh)
    gone = sorted(set(grades(committed())) - set(grades(fresh)))
    diff += [f"{p}.{c}: committed, not run any more" for p, c in gone]
    print("\n".join(diff) or f"all {len(grades(fresh))} grades as committed")
    sys.exit(1 if diff else 0)
elif __name__ == "__main__":
    report = run_checks(jobs=-1)          # as `boundcalc check` runs: one worker per core
    (HERE / "report.json").write_text(json.dumps(report.to_json(), indent=1, default=str) + "\n", encoding="utf-8")
    md = report.to_markdown().replace(
        " (wall clock).", f" (wall clock; {os.cpu_count()} cores, one worker per core).", 1)
    (HERE / "report.md").write_text(md, encoding="utf-8")
    from boundcalc.reports.printers.html import to_html
    (HERE / "report.html").write_text(to_html(report, page=True, command="boundcalc check --html report.html"),
                                      encoding="utf-8")
    print(f"{len(report.results)} checks, {report.seconds:.1f} s wall: "
          + ", ".join(f"{k} {v}" for k, v in report.counts().items()))
