"""Regenerate examples/check/report.md, report.json and report.html: `boundcalc check` over
the four papers, run once (the same as `boundcalc check --markdown`, `boundcalc check --json`
and `boundcalc check --html report.html`). The screenshot report.png is taken from
report.html by tests/reports/printers/test_html_browser.py (headless Chromium).

    python examples/check/make_report.py
"""
import json
import os
from pathlib import Path

from boundcalc.services.check import run_checks

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
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
