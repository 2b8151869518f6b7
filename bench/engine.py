"""Time ONE full-batch training step of each engine model, NumPy against PyTorch (CPU).

Run:  /work/venv/bin/python bench/engine.py [--repeat 7] [--seed 0] [--only deora2023 ...]

Each model has a case module ``bench/torch_<paper>.py`` with the interface

    CONFIG: str
    setup(seed: int = 0) -> (numpy_step, torch_step | None, flops_per_step)

(or, equivalently, setup returning the dict {"numpy_step", "torch_step", "flops", "config"}),
where the two callables each perform one full-batch step (forward + backward + update)
of the same model on the same batch, in the same vectorised style, and flops_per_step
counts the numpy step's matrix-product FLOPs.  A model whose case module or numpy engine
module is missing is skipped with the reason.

Timing: 2 warm-up calls each, then ``repeat`` rounds alternating numpy and torch (so both
see the same machine load); the reported time is the minimum over rounds.  One line per
model:

    <model> numpy_s=<s> torch_s=<s> ratio=<numpy/torch> gflop_s=<numpy GFLOP/s> matmul_frac=<gflop_s / matmul GFLOP/s>

preceded by NumPy's own float64 matmul rate (1024 x 1024 GEMM) on this machine, with the
default BLAS threads and with one thread; matmul_frac is relative to the faster of the two.
torch missing: torch_s=nan ratio=nan.
"""
from __future__ import annotations

import argparse
import importlib
import math
import os
import sys
import time

import numpy as np

MODELS = ("deora2023", "arda2026", "tarzanagh2023", "anon2025")
HERE = os.path.dirname(os.path.abspath(__file__))


def matmul_rate(size: int = 1024, repeat: int = 5) -> float:
    """NumPy float64 GEMM rate in GFLOP/s (best of ``repeat``)."""
    g = np.random.default_rng(0)
    a, b = g.standard_normal((size, size)), g.standard_normal((size, size))
    a @ b
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t)
    return 2.0 * size ** 3 / best / 1e9


def time_pair(numpy_step, torch_step, repeat: int) -> tuple[float, float]:
    for _ in range(2):
        numpy_step()
        if torch_step is not None:
            torch_step()
    tn, tt = math.inf, math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        numpy_step()
        tn = min(tn, time.perf_counter() - t)
        if torch_step is not None:
            t = time.perf_counter()
            torch_step()
            tt = min(tt, time.perf_counter() - t)
    return tn, tt


def unpack(case, out):
    """(numpy_step, torch_step, flops, config) from a case's setup() result.

    Accepts the tuple form (numpy_step, torch_step, flops) with the module's ``CONFIG``, and
    the equivalent dict form {"numpy_step", "torch_step", "flops", "config"}.
    """
    if isinstance(out, dict):
        missing = {"numpy_step", "torch_step", "flops"} - set(out)
        if missing:
            raise ValueError(f"setup() dict lacks {sorted(missing)}")
        return out["numpy_step"], out["torch_step"], float(out["flops"]), out.get("config", "")
    numpy_step, torch_step, flops = out
    return numpy_step, torch_step, float(flops), getattr(case, "CONFIG", "")


def load_case(model: str):
    """The case module, or (None, reason) when it or the model's numpy engine is missing."""
    try:
        importlib.import_module(f"boundcalc.engine.{model}")
    except ImportError as e:
        return None, f"numpy engine boundcalc.engine.{model} not importable ({e})"
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    try:
        return importlib.import_module(f"torch_{model}"), ""
    except ImportError as e:
        return None, f"bench/torch_{model}.py not importable ({e})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*", choices=MODELS)
    ap.add_argument("--torch-threads", type=int, default=0,
                    help="torch.set_num_threads(N) before timing (0: torch's default)")
    args = ap.parse_args(argv)
    try:
        import torch
        if args.torch_threads > 0:
            torch.set_num_threads(args.torch_threads)
        tinfo = f"torch {torch.__version__} threads={torch.get_num_threads()}"
    except ImportError:
        tinfo = "torch not installed"
    rate = matmul_rate()
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))
    from boundcalc.engine import ops
    with ops.single_threaded_blas():
        rate1 = matmul_rate()
    print(f"# numpy {np.__version__} matmul_gflop_s={rate:.2f} (float64 1024x1024, default "
          f"threads; 1 thread: {rate1:.2f}); {tinfo}")
    rate = max(rate, rate1)
    for model in args.only or MODELS:
        case, why = load_case(model)
        if case is None:
            print(f"{model} skipped: {why}")
            continue
        try:
            numpy_step, torch_step, flops, config = unpack(case, case.setup(args.seed))
        except Exception as e:          # a broken case must not hide the others
            print(f"{model} skipped: setup failed ({type(e).__name__}: {e})")
            continue
        tn, tt = time_pair(numpy_step, torch_step, args.repeat)
        tt = tt if torch_step is not None else math.nan
        gf = flops / tn / 1e9
        print(f"{model} numpy_s={tn:.6f} torch_s={tt:.6f} ratio={tn / tt:.3f} "
              f"gflop_s={gf:.2f} matmul_frac={gf / rate:.2f}  # {config}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
