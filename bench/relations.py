"""The decision procedure on the relation suite: verdicts and times, here and on main.

    python bench/relations.py                    # this tree and a fresh clone of main
    python bench/relations.py --main /path/src   # main's src/ already checked out somewhere
    python bench/relations.py --no-main          # this tree only
    python bench/relations.py --json out.json    # also the per-case rows
    python bench/relations.py --src /snapshot/src # measure a copy (keeps measuring while you edit)
    python bench/relations.py --only classical --no-main   # issue 36's held-out suite alone
    python bench/relations.py --only classical --family tan --family error --jobs 2   # two families, two workers

The cases are those of tests/prover/test_relations.py: CASES (the old suite, through
``verify``), NEW_CASES (tests/prover/relation_cases.py: issue 22's categories, on their own domains, through
``services.verify.decide``) and NODE_CASES (factorial, gamma, binomial, sums and products,
through ``verify`` as the test does; graded against each case's truth, so that a case the
test pins as "unknown" counts as unknown here), and CLASSICAL (tests/prover/classical_cases.py,
issue 36's held-out suite: each classical theorem and its false near-miss twin on the case's
own domain through ``services.verify.decide`` with a 15 s budget each, reported by family). Each tree runs in its own process (PYTHONPATH = its src/), one
case after the other; the rows give each case's verdict, wall seconds and CPU seconds
(``time.process_time`` of the worker: what the budgets count, so that a loaded machine
changes the wall column and not the CPU column nor the verdicts). A verdict is "wrong"
when it is proved/disproved against the case's expected answer; "unknown" is never wrong.
Run it under ``nice -n 19`` on a shared machine.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "tests" / "prover" / "test_relations.py"


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod                     # (a dataclass's module must be importable)
    spec.loader.exec_module(mod)
    return mod


def load_cases() -> tuple[list, list, list]:
    sys.path.insert(0, str(ROOT / "tests"))      # test_relations imports prover.relation_cases
    mod = _load(SUITE, "_relation_suite")
    old = [{"suite": "old", "lhs": c[0], "rel": c[1], "rhs": c[2], "assume": list(c[3]), "expected": c[4]}
           for c in mod.CASES]
    new = [{"suite": "new", "lhs": c[0], "rel": c[1], "rhs": c[2], "assume": list(c[3]), "expected": c[4],
            "domains": c[5], "needs": c[6]} for c in mod.NEW_CASES]
    nodes = [{"suite": "nodes", "lhs": c[0], "rel": c[1], "rhs": c[2], "assume": list(c[3]),
              "expected": "proved" if c[4] else "disproved"} for c in mod.NODE_CASES]
    return old, new, nodes


def load_classical() -> list:
    """Issue 36's held-out suite: every theorem and its false twin, with the prover's domains."""
    sys.path.insert(0, str(ROOT / "tests"))
    mod = _load(ROOT / "tests" / "prover" / "classical_cases.py", "_classical_suite")
    out = []
    for c in mod.CASES:
        doms, extra = mod.prover_input(c.dom, c.assume)
        doms = {n: {k: (str(v) if k in ("lo", "hi") else v) for k, v in kw.items()} for n, kw in doms.items()}
        for (lhs, rel, rhs), expected in (((c.lhs, c.rel, c.rhs), "proved"), (c.twin_rel(), "disproved")):
            out.append({"suite": "classical", "family": c.family, "lhs": lhs, "rel": rel, "rhs": rhs,
                        "assume": extra, "expected": expected, "doms": doms, "seconds": CLASSICAL_SECONDS})
    return out


CLASSICAL_SECONDS = 15.0       # issue 36: 15 s per relation


# ----------------------------------------------------------------------------- worker
def worker() -> None:
    """Read cases (JSON on stdin), decide each with the boundcalc on sys.path, print rows."""
    from fractions import Fraction

    from boundcalc.expr.domains import Domain
    from boundcalc.expr.parser import parse
    from boundcalc.prover.budget import fresh_state
    from boundcalc.services.verify import decide, verify
    kinds = {"P": {"lo": Fraction(0)}, "R": {}, "Z1": {"integer": True, "lo": Fraction(1), "lo_closed": True}}
    cases = json.load(sys.stdin)
    for c in cases:
        # every case from the same SymPy state, as `check` starts each check (budget.fresh_state):
        # SymPy's warm caches made a case's work count, and so its verdict, depend on the cases
        # before it in the worker (x**y + y**x > 1 proved only after other cases)
        fresh_state()
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            if "doms" in c:
                doms = {n: Domain(**{k: (Fraction(v) if k in ("lo", "hi") else v) for k, v in kw.items()})
                        for n, kw in c["doms"].items()}
                r = decide(parse(c["lhs"], allow_relation=False), c["rel"], parse(c["rhs"], allow_relation=False),
                           doms, [parse(a) for a in c["assume"]], seconds=c["seconds"])
            elif "domains" in c:
                doms = {n: Domain(**kinds[k]) for n, k in (s.split(":") for s in c["domains"].split())}
                r = decide(parse(c["lhs"], allow_relation=False), c["rel"], parse(c["rhs"], allow_relation=False),
                           doms, [parse(a) for a in c["assume"]])
            else:
                r = verify(c["lhs"], c["rel"], c["rhs"], c["assume"])
            verdict, method = str(r.verdict), r.method
        except Exception as e:                      # a crash is reported, not hidden
            verdict, method = "error", f"{type(e).__name__}: {e}"
        row = {"verdict": verdict, "method": method, "wall": time.perf_counter() - t0,
               "cpu": time.process_time() - c0}
        print(json.dumps(row), flush=True)


def run_tree(src: Path, cases: list, jobs: int = 1) -> list[dict]:
    """Every case's row, decided by ``jobs`` worker processes (case i by worker i mod jobs,
    each one case after the other: a case's CPU column is its own worker's either way)."""
    env = dict(os.environ, PYTHONPATH=str(src))
    jobs = max(1, min(jobs, len(cases)))
    shards = [cases[k::jobs] for k in range(jobs)]
    procs = [subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                              cwd=tempfile.gettempdir()) for _ in shards]
    import threading
    outs: list = [None] * jobs
    threads = [threading.Thread(target=lambda k=k: outs.__setitem__(k, procs[k].communicate(json.dumps(shards[k]))))
               for k in range(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rows: list = [None] * len(cases)
    for k, (out, err) in enumerate(outs):
        got = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        if len(got) != len(shards[k]):
            sys.exit(f"worker {k} for {src} stopped after {len(got)} of {len(shards[k])} cases:\n{err[-2000:]}")
        rows[k::jobs] = got
    return rows


def clone_main(where: Path) -> Path:
    common = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--git-common-dir"], capture_output=True,
                            text=True, check=True).stdout.strip()
    repo = (ROOT / common).resolve() if not os.path.isabs(common) else Path(common)
    subprocess.run(["git", "clone", "-q", "--branch", "main", str(repo), str(where)], check=True)
    return where / "src"


# ----------------------------------------------------------------------------- summary
def grade(case: dict, row: dict) -> str:
    v = row["verdict"]
    if v == case["expected"]:
        return "right"
    if v in ("proved", "disproved", "vacuous"):
        return "wrong"
    return "error" if v == "error" else "unknown"


def summary(name: str, cases: list, rows: list) -> str:
    g = [grade(c, r) for c, r in zip(cases, rows)]
    proved = sum(r["verdict"] == "proved" and x == "right" for r, x in zip(rows, g))
    disproved = sum(r["verdict"] == "disproved" and x == "right" for r, x in zip(rows, g))
    wall = [r["wall"] for r in rows]
    cpu = [r["cpu"] for r in rows]
    return (f"{name:<22} {len(cases):>3}  proved {proved:>3}  disproved {disproved:>3}  "
            f"unknown {g.count('unknown'):>2}  wrong {g.count('wrong')}  error {g.count('error')}  "
            f"wall median {statistics.median(wall):5.2f} s worst {max(wall):5.1f} s  "
            f"CPU median {statistics.median(cpu):5.2f} s worst {max(cpu):5.1f} s")


def by_family(name: str, cases: list, rows: list) -> list[str]:
    """The classical suite's lines: each family's theorems (proved) and twins (disproved)."""
    lines = []
    for fam in dict.fromkeys(c["family"] for c in cases):
        idx = [i for i, c in enumerate(cases) if c["family"] == fam]
        th = [i for i in idx if cases[i]["expected"] == "proved"]
        tw = [i for i in idx if cases[i]["expected"] == "disproved"]
        g = {i: grade(cases[i], rows[i]) for i in idx}
        wall = [rows[i]["wall"] for i in idx]
        cpu = [rows[i]["cpu"] for i in idx]
        lines.append(f"{name}: {fam:<13} theorems {len(th):>3} proved {sum(g[i] == 'right' for i in th):>3}  "
                     f"twins {len(tw):>3} disproved {sum(g[i] == 'right' for i in tw):>3}  "
                     f"unknown {sum(g[i] == 'unknown' for i in idx):>2}  wrong {sum(g[i] == 'wrong' for i in idx)}  "
                     f"error {sum(g[i] == 'error' for i in idx)}  "
                     f"wall median {statistics.median(wall):5.2f} s worst {max(wall):5.1f} s  "
                     f"CPU median {statistics.median(cpu):5.2f} s worst {max(cpu):5.1f} s")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--main", type=Path, help="src/ of a checkout of main (default: clone main to a temp dir)")
    ap.add_argument("--no-main", action="store_true", help="measure this tree only")
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="src/ of the tree to measure (default: this one)")
    ap.add_argument("--json", type=Path, help="write every row here")
    ap.add_argument("--only", choices=("classical",), help="measure one suite only")
    ap.add_argument("--family", action="append", help="with --only classical: this family only (repeatable)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes per tree (default 1)")
    args = ap.parse_args()
    if args.worker:
        worker()
        return
    old, new, nodes = ([], [], []) if args.only else load_cases()
    classical = load_classical()
    if args.family:
        classical = [c for c in classical if c["family"] in args.family]
    every = old + new + nodes + classical
    trees = [("this tree", args.src)]
    tmp = None
    if not args.no_main:
        if args.main is None:
            tmp = tempfile.TemporaryDirectory(prefix="boundcalc-main-")
            args.main = clone_main(Path(tmp.name) / "main")
        trees.append(("main", args.main))
    out, lines = {}, []
    for name, src in trees:
        rows = run_tree(src, every, args.jobs)
        out[name] = rows
        k = len(old) + len(new) + len(nodes)
        if not args.only:
            lines.append(summary(f"{name}: old", old, rows[:len(old)]))
            lines.append(summary(f"{name}: new", new, rows[len(old):len(old) + len(new)]))
            lines.append(summary(f"{name}: nodes", nodes, rows[len(old) + len(new):k]))
        lines.append(summary(f"{name}: classical", classical, rows[k:]))
        lines += by_family(f"{name}: classical", classical, rows[k:])
        lines.append(summary(f"{name}: all", every, rows))
    print("\n".join(lines))
    mine = out["this tree"]
    unk = [c for c, r in zip(every, mine) if grade(c, r) == "unknown"]
    if unk:
        print(f"\nunknown on this tree ({len(unk)}):")
        for c in unk:
            tag = f"  [needs {c['needs']}]" if c.get("needs") else ""
            print(f"  {c['lhs']} {c['rel']} {c['rhs']} {c['assume']}{tag}")
    for c, r in zip(every, mine):
        if grade(c, r) in ("wrong", "error"):
            print(f"  {grade(c, r).upper()}: {c['lhs']} {c['rel']} {c['rhs']} {c['assume']} -> {r['method']}")
    if args.json:
        args.json.write_text(json.dumps({"cases": every, "rows": out}, indent=1))
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
