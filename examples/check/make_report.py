"""Regenerate examples/check/report.md and report.json: `boundcalc check` over the four
papers, run once (the same as `boundcalc check --markdown` and `boundcalc check --json`).

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
    print(f"{len(report.results)} checks, {report.seconds:.1f} s wall: "
          + ", ".join(f"{k} {v}" for k, v in report.counts().items()))
