#!/usr/bin/env python3
"""bench/cpu_gemm_torch.py: PyTorch's side of bench/cpu_gemm.php: `a @ b` in float32 on the CPU
for each product of bench/cpu_gemm_shapes.json (m x n x k; "ta"/"tb": a transposed view, as in
the PHP script), timed the same way: warm-up, then --reps intervals of at least --ms
milliseconds of calls, the best interval's time per call in microseconds, and GFLOP/s.

    python3 bench/cpu_gemm_torch.py [--threads=1] [--reps=5] [--ms=200] [--only=SUBSTRING]
"""
import argparse
import json
import os
import time

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--threads", type=int, default=1)
ap.add_argument("--reps", type=int, default=5)
ap.add_argument("--ms", type=float, default=200)
ap.add_argument("--only", default="")
args = ap.parse_args()
torch.set_num_threads(args.threads)
shapes = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cpu_gemm_shapes.json")))
print(f"# torch {torch.__version__} ({torch.backends.cpu.get_cpu_capability()}), {args.threads} threads, "
      f"best of {args.reps} intervals of >= {args.ms:g} ms")
print(f"{'product':<28} {'m x n x k':>16} {'trans':>5} {'us':>10} {'GFLOP/s':>9}")
for i, (name, m, n, k, ta, tb) in enumerate(shapes):
    if args.only and args.only not in name:
        continue
    gen = torch.Generator().manual_seed(10 + i)
    a = torch.randn(k, m, generator=gen).t() if ta else torch.randn(m, k, generator=gen)
    b = torch.randn(n, k, generator=gen).t() if tb else torch.randn(k, n, generator=gen)
    c = a @ b
    best = float("inf")
    for _ in range(max(1, args.reps)):
        calls, t0 = 0, time.perf_counter()
        while True:
            c = a @ b
            calls += 1
            dt = time.perf_counter() - t0
            if dt >= args.ms * 1e-3:
                break
        best = min(best, dt / calls)
    trans = ("a" if ta else "-") + ("b" if tb else "-")
    print(f"{name:<28} {f'{m}x{n}x{k}':>16} {trans:>5} {best * 1e6:10.1f} {2.0 * m * n * k / best * 1e-9:9.1f}")
