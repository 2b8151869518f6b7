"""How close each engine step comes to this machine's own matrix-multiply rate.

Run:  python bench/peak.py [--repeat 5] [--only arda2026 deora2023 tarzanagh2023] [--ceiling]

For each model at the sizes its reproduction uses, one line

    MODEL SIZE dtype=D step_ms=S gflop_s=G gemm_gflop_s=R fraction=F [products_fraction=P]

where G = FLOPs / step time, R is the 1024 x 1024 GEMM rate of the same dtype measured in
the same run, and F = G / R. Both are CPU seconds (``time.process_time``) on one BLAS
thread, best of ``repeat`` rounds, and each round times the GEMM right before the step, so
a loaded machine slows both alike (the ratio is the figure; the absolute times are not).
Every model is timed in float64 and in float32 (its ``dtype`` option); float32 lines are
printed against the float32 GEMM rate, and their ``fraction64=`` against the float64 rate.

``--ceiling`` also times the step's matrix products *alone* (the same products, shapes and
block sizes as the kernel, on random data, with none of its elementwise work: exp, tanh,
the softmax's sums, the weights): P = FLOPs / that time / R is a bound the step cannot
pass, set by the models' own dimensions (arda2026: inner dimensions d = 8 and T = 16;
deora2023: d = 16 and T = 8; tarzanagh2023: one matrix-vector product per trial).

FLOPs are counted from the code (2 per multiply-add of every matrix product; elementwise
work, exp and tanh are not counted, so a fraction is a lower bound on the work done):

* arda2026 ``engine.arda2026._loss_and_grad``, per sample: logits q W (2 d^2 m) and
  X_t^T (W q) (2 T d m); s = X^T U (2 T d m); X E and X (E s) (2 T d m each); h c (2 m);
  r h (2 m); grad_W (2 d^2 m): 4 d^2 m + 8 T d m + 4 m (sum_t E and sum_t E s, which
  the kernel takes from an extra row of ones in X E and X (E s), are not counted).
* deora2023 ``engine.deora2023.gd_step`` (``_loss_grad_blocks``), K = Tq H query rows:
  4 n Tq H d^2 + 8 n T K d + 4 n K d (``bench/torch_deora2023.flops``), the count of the
  kernel before issue 37; the 'full' decoder's kernel since (``_batch_all_queries``: Y =
  X W^T, the logits, P, grad U_eff, dY, grad W) does 4 n T H d^2 + 8 n T K d, 3 % fewer
  at the bench's shape, and the count is kept so that before and after compare.
* tarzanagh2023 ``engine.tarzanagh2023.gd_p`` with a batch of B trials, per step:
  K p (2 B n T d) and the gradient contraction (2 B n T d): 4 B n T d.

Measured (issue 37, two rounds) on the shared 2-core machine, never idle: the figures before
and after each round, the products alone and the reasons the targets are not all met are
in docs/howto/benchmarks.md, model by model.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = ("arda2026", "deora2023", "tarzanagh2023")


def _best(fn, gemm, repeat: int) -> tuple[float, float]:
    """(best CPU seconds of ``fn``, best CPU seconds of ``gemm``), interleaved."""
    fn()
    gemm()
    tf = tg = math.inf
    for _ in range(repeat):
        t = time.process_time()
        gemm()
        tg = min(tg, time.process_time() - t)
        t = time.process_time()
        fn()
        tf = min(tf, time.process_time() - t)
    return tf, tg


def _gemm(dtype):
    g = np.random.default_rng(0)
    a = g.standard_normal((1024, 1024)).astype(dtype)
    b = g.standard_normal((1024, 1024)).astype(dtype)
    return lambda: a @ b, 2.0 * 1024 ** 3


def arda_cases():
    from boundcalc.engine import arda2026 as A
    from boundcalc.engine.data.transport import clipped_gaussian_inputs

    n, d, T = 5000, 8, 16                        # arda2026-fig1 --full: n = 5000, d = 8, T = 16
    g = np.random.default_rng(0)
    X = clipped_gaussian_inputs(n, d, T, g)
    y = 0.1 * g.standard_normal(n)
    q = np.ascontiguousarray(X[:, :, -1])
    Xt = np.ascontiguousarray(X.transpose(0, 2, 1))
    scale = A.input_scale(X, q)
    for m in (8, 64, 256):
        p = A.paired_init(m, d, seed=0)
        flops = float(n * (4 * d * d * m + 8 * T * d * m + 4 * m))
        for dt in (np.float64, np.float32):
            Xc, Xtc, qc, yc = (a.astype(dt) for a in (X, Xt, q, y))
            yield (f"arda2026 n={n} d={d} T={T} m={m}", dt,
                   lambda p=p, Xc=Xc, Xtc=Xtc, qc=qc, yc=yc, dt=dt:
                   A._loss_and_grad(p, Xc, qc, yc, A.TANH, Xtc, dtype=dt, scale=scale), flops)


def deora_cases():
    from boundcalc.engine import deora2023 as D
    from boundcalc.engine.data.dm1 import make_dm1

    sys.path.insert(0, HERE)
    from torch_deora2023 import flops as deora_flops

    # deora2023-dm1 --full at its largest n: T = 8, d = 16, H = 32, M = 2, full decoder
    n, T, d, H = 3200, 8, 16, 32
    dm = make_dm1(T=T, d=d, M=2, S=1.0, zeta=0.5, z_mu=0.01, z_nu=0.01, z_perp_norm=0.1)
    s1, s2 = dm.sample(256, seed=0), dm.sample(n, seed=1)
    p, _ = D.first_phase(s1.X, s1.y, H, "full", seed=0)
    p.W += 0.05 * np.random.default_rng(0).standard_normal(p.W.shape)
    for dt in (np.float64, np.float32):
        X = np.ascontiguousarray(s2.X, dtype=dt)            # cast once, as train() does
        yield (f"deora2023 n={n} T={T} d={d} H={H}", dt,
               lambda X=X, dt=dt: D.gd_step(p.copy(), X, s2.y, 0.1, dtype=dt), deora_flops(n, T, d, H, T))


def tarzanagh_cases():
    from boundcalc.engine import tarzanagh2023 as tz
    from boundcalc.engine.data import tokens

    B, n, T, steps = 100, 4, 6, 20                # tarzanagh2023-fig9: batches of 100 trials
    for d in (10, 500):
        data = [tokens.appendix_e(n, T, d, seed=s) for s in range(B)]
        keys = np.stack([x.keys for x in data])
        gamma = np.stack([x.Y[:, None] * (x.X @ x.v) for x in data])
        p0 = 0.01 * np.random.default_rng(0).standard_normal((B, d))
        for dt in (np.float64, np.float32):
            yield (f"tarzanagh2023 B={B} n={n} T={T} d={d} ({steps} steps)", dt,
                   lambda keys=keys, gamma=gamma, p0=p0, dt=dt: tz.gd_p(keys, gamma, p0, lr=1.0, steps=steps - 1,
                                                                        loss="logistic", normalized=True, dtype=dt),
                   float(steps * 4 * B * n * T * d))


CASES = {"arda2026": arda_cases, "deora2023": deora_cases, "tarzanagh2023": tarzanagh_cases}


# --- the ceiling: the step's matrix products alone ---------------------------------------

def arda_products():
    """``engine.arda2026._loss_and_grad``'s products at its own block size, nothing else."""
    from boundcalc.engine.arda2026.model import _auto_chunk

    n, d, T = 5000, 8, 16
    g = np.random.default_rng(0)
    for m in (8, 64, 256):
        for dt in (np.float64, np.float32):
            chunk = _auto_chunk(n, T, m, np.dtype(dt).itemsize)
            Xa = g.standard_normal((n, d + 1, T)).astype(dt)        # X with its row of ones
            Xt = np.ascontiguousarray(Xa[:, :d].transpose(0, 2, 1))
            q = np.ascontiguousarray(Xa[:, :d, -1])
            Wp = g.standard_normal((d, d * m)).astype(dt)
            UT = g.standard_normal((d, m)).astype(dt)

            def fn(Xa=Xa, Xt=Xt, q=q, Wp=Wp, UT=UT, m=m, chunk=chunk):
                for i0 in range(0, n, chunk):
                    Xac, Xtc, qc = Xa[i0:i0 + chunk], Xt[i0:i0 + chunk], q[i0:i0 + chunk]
                    nc = Xac.shape[0]
                    E = np.matmul(Xtc, (qc @ Wp).reshape(nc, d, m))
                    s = (Xtc.reshape(nc * T, d) @ UT).reshape(nc, T, m)
                    np.matmul(Xac, E)
                    G = np.matmul(Xac, s)
                    G.reshape(nc, (d + 1) * m).T @ qc
            yield f"arda2026 n={n} d={d} T={T} m={m}", dt, fn


def deora_products():
    """``engine.deora2023.kernels._batch_all_queries``'s products (one problem, its block size)."""
    from boundcalc.engine.deora2023.kernels import _step_chunk

    n, T, d, H = 3200, 8, 16, 32
    K = T * H
    g = np.random.default_rng(0)
    for dt in (np.float64, np.float32):
        chunk = _step_chunk(n, T, K, np.dtype(dt).itemsize)
        X = g.standard_normal((1, n, T, d)).astype(dt)
        XT = np.ascontiguousarray(X.transpose(0, 1, 3, 2))
        WY = g.standard_normal((1, d, H * d)).astype(dt)
        UkT = g.standard_normal((1, d, K)).astype(dt)
        S = g.standard_normal((1, chunk, T, K)).astype(dt)

        def fn(X=X, XT=XT, WY=WY, UkT=UkT, S=S, chunk=chunk):
            for i0 in range(0, n, chunk):
                Xc = X[:, i0:i0 + chunk]
                nc = Xc.shape[1]
                X2 = Xc.reshape(1, nc * T, d)
                Y = (X2 @ WY).reshape(1, nc, T * H, d)
                np.matmul(Y, XT[:, i0:i0 + nc])
                X2 @ UkT
                Sc = S[:, :nc]
                X2.transpose(0, 2, 1) @ Sc.reshape(1, nc * T, K)
                dY = np.matmul(Sc.reshape(1, nc, T * H, T), Xc)
                X2.transpose(0, 2, 1) @ dY.reshape(1, nc * T, H * d)
        yield f"deora2023 n={n} T={T} d={d} H={H}", dt, fn


def tarzanagh_products():
    """``engine.tarzanagh2023.gd_p``'s two batched matrix-vector products, per step."""
    B, n, T, steps = 100, 4, 6, 20
    g = np.random.default_rng(0)
    for d in (10, 500):
        for dt in (np.float64, np.float32):
            keys = g.standard_normal((B, n * T, d)).astype(dt)
            p = g.standard_normal((B, d, 1)).astype(dt)
            ga = g.standard_normal((B, 1, n * T)).astype(dt)

            def fn(keys=keys, p=p, ga=ga):
                for _ in range(steps):
                    keys @ p
                    ga @ keys
            yield f"tarzanagh2023 B={B} n={n} T={T} d={d} ({steps} steps)", dt, fn


PRODUCTS = {"arda2026": arda_products, "deora2023": deora_products, "tarzanagh2023": tarzanagh_products}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--only", nargs="*", choices=MODELS, default=list(MODELS))
    ap.add_argument("--ceiling", action="store_true",
                    help="also time each step's matrix products alone (products_fraction=)")
    args = ap.parse_args(argv)
    from boundcalc.engine.ops import single_threaded_blas

    gemms = {np.float64: _gemm(np.float64), np.float32: _gemm(np.float32)}
    with single_threaded_blas():
        for model in args.only:
            products = ({(size, dt): fn for size, dt, fn in PRODUCTS[model]()} if args.ceiling else {})
            for size, dt, fn, flops in CASES[model]():
                gfn, gfl = gemms[dt]
                tf, tg = _best(fn, gfn, args.repeat)
                rate, peak = flops / tf / 1e9, gfl / tg / 1e9
                extra = ""
                if products:
                    tp, tg2 = _best(products[(size, dt)], gfn, args.repeat)
                    extra += f" products_fraction={flops / tp / (gfl / tg2):.3f}"
                if dt is np.float32:
                    _, tg64 = _best(lambda: None, gemms[np.float64][0], 2)
                    extra += f" fraction64={rate / (gfl / tg64 / 1e9):.3f}"
                print(f"{size} dtype={np.dtype(dt).name} step_ms={1e3 * tf:.2f} gflop_s={rate:.2f} "
                      f"gemm_gflop_s={peak:.2f} fraction={rate / peak:.3f}{extra}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
