"""Start-up cost of the headline numeric command against importing SymPy, in CPU time.

Runs `boundcalc require-heads --d 16 --T 8` and `python -c "import sympy"` alternately,
REPEAT times each, in this same run, and measures each whole process's CPU time (user +
system, from os.wait4: the child's own rusage, so other processes on a shared machine do
not count, as wall time would). Prints the medians, the paired ratios (run i of ours over
run i of SymPy's) as median [min, max], and the load average before and after.
Target: the median paired ratio <= 0.40. Usage: python bench/startup.py [REPEAT]

The first (warm-up) run of each command also fills the registry cache
(boundcalc.registry.cache); `BOUNDCALC_REGISTRY_CACHE=0 python bench/startup.py` measures
without it. Bytecode matters: with PYTHONDONTWRITEBYTECODE set and no __pycache__ (a fresh
editable checkout), every boundcalc module is compiled from source on every run while
SymPy's site-packages have their .pyc; the script says which case it measured
(`python -m compileall -q src` compiles a checkout once).

Measured on the shared 2-core machine (issue 37; CPU time, bytecode compiled, load 3-5,
21 rounds, paired ratios to SymPy in the same round as median [min, max]): main before the
change (7c673a3) 0.739 [0.706, 0.819]; this code 0.510 [0.493, 0.577] (0.163 s against
0.319 s); with BOUNDCALC_REGISTRY_CACHE=0 0.639 [0.606, 0.697]; the interpreter with typer,
rich and python-flint alone 0.344 [0.313, 0.371]. This script right after, 15 pairs:
0.500 [0.480, 0.528]. The 0.40 target is not met: those three imports, which the command
needs, already take 0.34 of SymPy's import (docs/howto/benchmarks.md).
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path


def cpu(cmd: list[str]) -> float:
    """The CPU seconds (user + system) of the process ``cmd``, whole."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed")
    return usage.ru_utime + usage.ru_stime


def bytecode_state() -> str:
    """Whether every module of boundcalc has an up-to-date .pyc (its header's source mtime
    and size match the .py), else how many are compiled from source on each run."""
    import importlib.util

    import boundcalc
    pkg = Path(boundcalc.__file__).parent
    stale = total = 0
    for src in pkg.rglob("*.py"):
        total += 1
        st = src.stat()
        try:
            head = Path(importlib.util.cache_from_source(str(src))).read_bytes()[:16]
        except OSError:
            stale += 1
            continue
        flags = int.from_bytes(head[4:8], "little")
        fresh = flags != 0 or (int.from_bytes(head[8:12], "little") == int(st.st_mtime) & 0xFFFFFFFF
                               and int.from_bytes(head[12:16], "little") == st.st_size & 0xFFFFFFFF)
        stale += not fresh
    if not stale:
        return "bytecode compiled"
    return (f"{stale} of {total} boundcalc modules WITHOUT up-to-date bytecode (compiled from source on "
            "each run unless Python may write __pycache__; `python -m compileall -q src`)")


def main() -> None:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    exe = Path(sys.executable).with_name("boundcalc")
    cli = [str(exe)] if exe.exists() else [shutil.which("boundcalc") or "boundcalc"]
    ours = cli + ["require-heads", "--d", "16", "--T", "8"]
    ref = [sys.executable, "-c", "import sympy"]
    cpu(ours), cpu(ref)          # warm the file cache (and the registry cache)
    load0 = os.getloadavg()[0]
    a, b = [], []
    for _ in range(repeat):
        a.append(cpu(ours))
        b.append(cpu(ref))
    load1 = os.getloadavg()[0]
    r = [x / y for x, y in zip(a, b)]
    cache = "off" if os.environ.get("BOUNDCALC_REGISTRY_CACHE", "").lower() in ("0", "off", "false", "no") else "on"
    print(f"require-heads cpu_s={statistics.median(a):.4f}  import-sympy cpu_s={statistics.median(b):.4f}  "
          f"paired ratio={statistics.median(r):.3f} [{min(r):.3f}, {max(r):.3f}] (target <= 0.40; "
          f"{repeat} pairs, {os.cpu_count()} cpus, load {load0:.1f} -> {load1:.1f}, registry cache {cache}, "
          f"{bytecode_state()})")


if __name__ == "__main__":
    main()
