#!/usr/bin/env python3
"""bench/eager_torch.py: the measurements of bench/eager.php with PyTorch eager on the same GPU.

    python3 bench/eager_torch.py [--n-small=2000] [--n-large=50] [--reps=11] [--big=33554432]
        [--sizes=64,512]

Same method as eager.php: tensors made once (torch.rand, never zeros); warm-up; each repeat
times a loop of N calls then torch.cuda.synchronize(); the value is the median over the repeats
of (loop + sync) / N. Latency in microseconds per call; bandwidth in GB/s = (bytes read + bytes
written) / time per call. float32 matmul is strict FP32 (TF32 off), as gtc's default.

Also measures the device copy bandwidth, the ceiling for elementwise ops:
  copy_into  y.copy_(x) into a preallocated y (a device-to-device cudaMemcpyAsync)
  copy       torch.empty_like(x).copy_(x) (allocation from the caching allocator + the same copy)
Prints one JSON object per line.
"""
import json
import statistics
import sys
import time

import torch

opt = {"n-small": 2000, "n-large": 50, "reps": 11, "big": 32 * 1024 * 1024, "sizes": "64,512"}
for arg in sys.argv[1:]:
    k, _, v = arg.lstrip("-").partition("=")
    if k not in opt or not arg.startswith("--") or not v:
        sys.exit("usage: eager_torch.py [--n-small=N] [--n-large=N] [--reps=R] [--big=ELEMS] [--sizes=64,512]")
    opt[k] = v if k == "sizes" else int(v)
reps = max(1, opt["reps"])

if not torch.cuda.is_available():
    sys.exit("eager_torch.py: no CUDA device visible to torch")
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
dev = torch.device("cuda:0")
sync = torch.cuda.synchronize


def time_per_call(f, n, warm):
    f(warm)
    sync()
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f(n)
        sync()
        t1 = time.perf_counter()
        out.append((t1 - t0) / n)
    return out


def emit(row):
    print(json.dumps(row), flush=True)


common = {"impl": "torch", "device": torch.cuda.get_device_name(0), "torch": torch.__version__,
          "reps": reps}

# ---- small ops: latency per call ----------------------------------------------------------------
n = max(1, opt["n-small"])
g = torch.Generator(device=dev)
g.manual_seed(0)
for s in [int(x) for x in opt["sizes"].split(",")]:
    a = torch.rand(s, s, device=dev, generator=g)
    b = torch.rand(s, s, device=dev, generator=g)

    def view(k, a=a, s=s):
        for _ in range(k):
            c = a.reshape(s * s)
        return c

    def add(k, a=a, b=b):
        for _ in range(k):
            c = a.add(b)
        return c

    def multiply(k, a=a, b=b):
        for _ in range(k):
            c = a.mul(b)
        return c

    def sum_(k, a=a):
        for _ in range(k):
            c = a.sum()
        return c

    def matmul(k, a=a, b=b):
        for _ in range(k):
            c = a.matmul(b)
        return c

    for name, f in [("view", view), ("add", add), ("multiply", multiply), ("sum", sum_), ("matmul", matmul)]:
        us = [x * 1e6 for x in time_per_call(f, n, min(n, 200))]
        emit({**common, "kind": "latency", "op": name, "size": f"{s}x{s}", "n": n, "unit": "us",
              "value": round(statistics.median(us), 3), "min": round(min(us), 3), "max": round(max(us), 3)})
    del a, b

# ---- large ops: bandwidth -----------------------------------------------------------------------
n = max(1, opt["n-large"])
big = max(1, opt["big"])
rows = 4096
while rows > 1 and big % rows:
    rows >>= 1
cols = big // rows
a = torch.rand(rows, cols, device=dev, generator=g)
b = torch.rand(rows, cols, device=dev, generator=g)
y = torch.empty_like(a)
f4 = 4


def big_add(k):
    for _ in range(k):
        c = a.add(b)
    return c


def big_mul(k):
    for _ in range(k):
        c = a.mul(b)
    return c


def copy_new(k):
    for _ in range(k):
        c = torch.empty_like(a).copy_(a)
    return c


def copy_into(k):
    for _ in range(k):
        y.copy_(a)
    return y


def copy_transpose(k):
    for _ in range(k):
        c = a.t().contiguous()
    return c


ops = [
    ("add", 3 * f4 * big, big_add, "c = a + b"),
    ("multiply", 3 * f4 * big, big_mul, "c = a * b"),
    ("copy", 2 * f4 * big, copy_new, "torch.empty_like(a).copy_(a): D2D cudaMemcpyAsync"),
    ("copy_into", 2 * f4 * big, copy_into, "y.copy_(a) into preallocated y: D2D cudaMemcpyAsync"),
    ("copy_transpose", 2 * f4 * big, copy_transpose, "a.t().contiguous(): strided copy kernel"),
]
for name, nbytes, f, note in ops:
    v = time_per_call(f, n, min(n, 5))
    gbs = [nbytes / x * 1e-9 for x in v]
    emit({**common, "kind": "bandwidth", "op": name, "note": note, "size": str(big), "shape": f"{rows}x{cols}",
          "n": n, "bytes_per_call": nbytes, "unit": "GB/s", "value": round(statistics.median(gbs), 2),
          "min": round(min(gbs), 2), "max": round(max(gbs), 2),
          "us_per_call": round(statistics.median(v) * 1e6, 2)})
