"""Start-up cost of the headline numeric command against importing SymPy.

Runs `boundcalc require-heads --d 16 --T 8` and `python -c "import sympy"` alternately,
REPEAT times each, in this same run, and prints the medians and their ratio
(target: ratio <= 0.4). Usage: python bench/startup.py [REPEAT]
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def timed(cmd: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def main() -> None:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    exe = Path(sys.executable).with_name("boundcalc")
    cli = [str(exe)] if exe.exists() else [shutil.which("boundcalc") or "boundcalc"]
    ours = cli + ["require-heads", "--d", "16", "--T", "8"]
    ref = [sys.executable, "-c", "import sympy"]
    timed(ours), timed(ref)  # warm the file cache
    a, b = [], []
    for _ in range(repeat):
        a.append(timed(ours))
        b.append(timed(ref))
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"require-heads median_s={ma:.4f}  import-sympy median_s={mb:.4f}  ratio={ma / mb:.3f} "
          f"(target <= 0.4; {repeat} runs each, {os.cpu_count()} cpus)")


if __name__ == "__main__":
    main()
