#!/usr/bin/env python3
"""bench/scale_torch.py: the training step of bench/scale_graph.py's MLP (ReLU hidden layers,
softmax cross-entropy, SGD, parameters updated in place) in PyTorch, per step, in three modes
and three precisions, on the same GPU as bench/scale.php:

  eager            autograd (torch.autograd.grad) and an in-place foreach update
  cuda-graph       the same step captured by hand into one torch.cuda.CUDAGraph, replayed
  reduce-overhead  torch.compile(step, mode="reduce-overhead") (Inductor + CUDA graph trees)

  precisions: fp32 (TF32 off: strict), tf32 (torch.backends.cuda.matmul.allow_tf32), bf16
  (torch.autocast(bfloat16) around the forward: fp32 master weights, bf16 products)

    python3 bench/scale_torch.py --mlp=4096-4096-4096-4096 --batch=4096 [--modes=...] [--precisions=...]

Timing: warm-up steps (compilation, capture), then each of --reps repeats times N steps and a
torch.cuda.synchronize(); reported: the median of (loop + sync) / N. One JSON line per (mode,
precision)."""
import json
import statistics
import sys
import time

import torch

opt = {"mlp": "480-256-2", "batch": 512, "modes": "eager,cuda-graph,reduce-overhead",
       "precisions": "fp32,tf32,bf16", "reps": 7, "budget": 240}
for arg in sys.argv[1:]:
    k, _, v = arg.lstrip("-").partition("=")
    if k not in opt or not v:
        sys.exit("usage: scale_torch.py --mlp=A-B-C --batch=N [--modes=...] [--precisions=...] [--reps=R]")
    opt[k] = int(v) if isinstance(opt[k], int) else v
widths = [int(w) for w in opt["mlp"].split("-")]
B = opt["batch"]
dev = "cuda"
torch.manual_seed(0)
x = torch.rand(B, widths[0], device=dev)
labels = torch.randint(0, widths[-1], (B,), device=dev)
y = torch.nn.functional.one_hot(labels, widths[-1]).float()


def init():
    ps = []
    for a, b in zip(widths, widths[1:]):
        ps.append(((torch.rand(a, b, device=dev) * 2 - 1) / a ** 0.5).requires_grad_())
        ps.append(((torch.rand(b, device=dev) * 2 - 1) * 0.01).requires_grad_())
    return ps


def make_step(ps, prec):
    def forward():
        h = x
        for i in range(0, len(ps), 2):
            h = h @ ps[i] + ps[i + 1]
            if i + 2 < len(ps):
                h = torch.relu(h)
        return -(y * torch.log_softmax(h.float(), dim=1)).sum(1).mean()

    def step():
        if prec == "bf16":
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = forward()
        else:
            loss = forward()
        grads = torch.autograd.grad(loss, ps)
        with torch.no_grad():
            torch._foreach_sub_(ps, grads, alpha=0.01)
        return loss.detach()
    return step


def timed(fn, n):
    ts = []
    for _ in range(opt["reps"]):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        torch.cuda.synchronize()
        ts.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(ts)


t_start = time.time()
for prec in opt["precisions"].split(","):
    torch.backends.cuda.matmul.allow_tf32 = prec == "tf32"
    torch.backends.cudnn.allow_tf32 = prec == "tf32"
    for mode in opt["modes"].split(","):
        row = {"impl": "torch", "mode": mode, "precision": prec, "mlp": opt["mlp"], "batch": B}
        if mode == "reduce-overhead" and time.time() - t_start > opt["budget"]:
            row["skipped"] = "over the time budget"
            print(json.dumps(row), flush=True)
            continue
        try:
            ps = init()
            step = make_step(ps, prec)
            t0 = time.perf_counter()
            if mode == "cuda-graph":
                s = torch.cuda.Stream()
                s.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(s):
                    for _ in range(3):
                        step()
                torch.cuda.current_stream().wait_stream(s)
                g = torch.cuda.CUDAGraph()
                with torch.cuda.graph(g):
                    out = step()
                fn = g.replay
            elif mode == "reduce-overhead":
                cstep = torch.compile(step, mode="reduce-overhead")
                for _ in range(3):
                    cstep()
                fn = cstep
            else:
                fn = step
            fn()
            torch.cuda.synchronize()
            row["warmup_s"] = time.perf_counter() - t0
            t1 = time.perf_counter()
            fn()
            torch.cuda.synchronize()
            one = (time.perf_counter() - t1) * 1e6
            n = max(3, min(2000, int(200000 / max(one, 1))))
            row["us_per_step"] = timed(fn, n)
            row["steps"] = n
        except Exception as e:  # a mode that fails is reported, not fatal
            row["error"] = f"{type(e).__name__}: {str(e)[:200]}"
        print(json.dumps(row), flush=True)
