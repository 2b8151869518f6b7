"""Is `boundcalc check --json` byte-identical across runs and loads? (issue 17 item 6, issue 35)

Runs, each in a fresh process, without the report's wall-clock seconds (``--no-timings``):

* A: the full report, ``PYTHONHASHSEED=1``, ``--jobs 2``;
* B: the full report, ``PYTHONHASHSEED=2``, ``--jobs 1``, beside ``--load N`` (default 2)
  busy-loop processes started here (``python -c 'while True: pass'``, at this process's
  niceness) and killed after B whatever happens, so that B runs on a machine loaded by N
  more runnable processes than A (``--load 0``: no load);
* C: every check alone, ``--only PAPER.ID`` (``PYTHONHASHSEED`` = 3, 4, ... one per check),
  ``--parallel`` of them at a time;

and compares A with B byte for byte, and each check's entry in C with its entry in A (its
finding or pass, as JSON). Besides the bytes, it counts the checks whose *grade* (severity and
reason) differs — the verdict a reader sees. Prints every difference and a summary line
(with A's and B's wall-clock seconds and the load average around each); exit 0 when there is
none. Several minutes on 2 cores (C starts one process per check); run it under ``nice``::

    nice -n 19 .venv/bin/python bench/determinism.py --skip-only      # A idle vs B beside 2 busy loops
    nice -n 19 .venv/bin/python bench/determinism.py [--out DIR] [--load N] [--only ID ...]

Budgets are work, not time (``src/boundcalc/prover/budget.py``), so A and B should agree;
a check during which a clock's safety net fired says "undecided (safety net)" in both.

Measured 2026-12-02 (issue 35, shared 2-core machine with other jobs, load 8-12 besides):
``--skip-only``: A 93.7 s wall; B beside 2 busy loops 317.4 s wall; 248 checks, A and B
identical bytes, 0 grades differ, 0 safety nets (a third run, PYTHONHASHSEED=3 --jobs 2, was
byte-identical to A as well). Before the work budgets anon2025 lemma4_xi_to_eta alone was
an error idle and "undecided (budget)" beside the two loops.
Measured 2026-12-03 at a3ceae3 (SymPy's generators reseeded per check, 1e26103; other agents'
jobs on the machine): ``--skip-only``: A 42.7 s wall (load 0.7 -> 1.4); B beside 2 busy loops
130.1 s wall (load 1.4 -> 2.9); 276 checks, identical bytes, 0 grades differ, 0 safety nets.

``--only ID`` restricts all three runs to those checks (A and B then compare reports of the
subset). The raw outputs are kept in ``--out`` (default: a temporary folder).
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

CLI = [sys.executable, "-m", "boundcalc.cli"]


def run(args: list[str], seed: int) -> str:
    env = dict(os.environ, PYTHONHASHSEED=str(seed), COLUMNS="200")
    p = subprocess.run(CLI + ["check", "--json", "--no-timings", "--fail-on", "never", *args],
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise SystemExit(f"boundcalc check {' '.join(args)} failed ({p.returncode}): {p.stderr.strip()[-400:]}")
    return p.stdout


def timed(args: list[str], seed: int) -> tuple[str, str]:
    """The report, and 'W s wall, load L1 -> L2' (1-minute load average before and after)."""
    l1, t = os.getloadavg()[0], time.perf_counter()
    out = run(args, seed)
    return out, f"{time.perf_counter() - t:.1f} s wall, load {l1:.1f} -> {os.getloadavg()[0]:.1f}"


def grades(report: dict) -> dict[str, tuple[str, str]]:
    """Each check's (severity, reason)."""
    return {k: (e["severity"], e["reason"]) for k, e in entries(report).items()}


def busy(n: int) -> list[subprocess.Popen]:
    """n busy-loop processes (pure CPU), at this process's niceness."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def entries(report: dict) -> dict[str, dict]:
    """Each check's entry (finding or pass) by 'paper.check'."""
    return {f"{e['paper']}.{e['check']}": e for e in report["findings"] + report["passed"]}


def diff(a: str, b: str, la: str, lb: str, n: int = 40) -> str:
    lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), la, lb, lineterm="", n=1))
    return "\n".join(lines[:n] + ([f"... {len(lines) - n} more lines"] if len(lines) > n else []))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="folder for the raw outputs (default: a temporary one)")
    ap.add_argument("--only", action="append", default=[], help="restrict to these checks (PAPER.ID)")
    ap.add_argument("--skip-only", action="store_true", help="compare A and B only (no per-check runs)")
    ap.add_argument("--parallel", type=int, default=2, help="per-check processes at a time (default 2)")
    ap.add_argument("--load", type=int, default=2, help="run B beside this many busy-loop processes (default 2)")
    ap.add_argument("--skip-b", action="store_true", help="A and the per-check runs only (no B)")
    o = ap.parse_args()
    out = Path(o.out or tempfile.mkdtemp(prefix="determinism-"))
    out.mkdir(parents=True, exist_ok=True)
    sel = [x for i in o.only for x in ("--only", i)]
    a, ta = timed(sel + ["--jobs", "2"], 1)
    (out / "A.json").write_text(a)
    loops = busy(o.load) if not o.skip_b else []
    try:
        time.sleep(2 if loops else 0)
        b, tb = (a, "skipped") if o.skip_b else timed(sel + ["--jobs", "1"], 2)
    finally:
        for p in loops:                  # only the processes started here
            p.kill()
            p.wait()
    (out / "B.json").write_text(b)
    print(f"A (PYTHONHASHSEED=1, --jobs 2): {ta}")
    print(f"B (PYTHONHASHSEED=2, --jobs 1{f', beside {o.load} busy loops' if o.load else ''}): {tb}")
    bad = 0
    ga, gb = grades(json.loads(a)), grades(json.loads(b))
    regraded = sorted(k for k in ga if ga[k] != gb.get(k))
    for k in regraded:
        print(f"grade differs: {k}: A {ga[k]} vs B {gb.get(k)}")
    if a != b:
        bad += 1
        print(diff(a, b, "A (PYTHONHASHSEED=1, --jobs 2)", "B (PYTHONHASHSEED=2, --jobs 1)"))
    full = entries(json.loads(a))
    ids = sorted(full)
    only_bad = only_regraded = 0
    if not o.skip_only:
        def alone(k: tuple[int, str]) -> tuple[str, str]:
            i, cid = k
            return cid, run(["--only", cid, "--jobs", "1"], 3 + i)
        with ThreadPoolExecutor(max(1, o.parallel)) as ex:
            got = dict(ex.map(alone, enumerate(ids)))
        for cid in ids:
            (out / f"only-{cid}.json").write_text(got[cid])
            e = entries(json.loads(got[cid])).get(cid)
            x, y = json.dumps(full[cid], indent=2), json.dumps(e, indent=2)
            if x != y:
                only_bad += 1
                print(diff(x, y, f"{cid} in A", f"{cid} alone (--only)"))
            if e is None or (e["severity"], e["reason"]) != ga[cid]:
                only_regraded += 1
                print(f"grade differs: {cid}: A {ga[cid]} vs alone {e and (e['severity'], e['reason'])}")
        bad += only_bad
    nets = {k: sum("(safety net)" in e["message"] for e in entries(json.loads(r)).values()) for k, r in (("A", a), ("B", b))}
    print(f"{len(ids)} checks; A vs B: {'identical' if a == b else 'DIFFERENT'} bytes, "
          f"{len(regraded)} grades differ; undecided (safety net): A {nets['A']}, B {nets['B']}; "
          + ("" if o.skip_only else f"--only vs A: {only_bad} of {len(ids)} entries differ, "
             f"{only_regraded} grades differ; ")
          + f"outputs in {out}")
    return 1 if bad or regraded or any(nets.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
