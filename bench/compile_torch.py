#!/usr/bin/env python3
"""bench/compile_torch.py: the training step of examples/train_step.json / digits_step.json in
PyTorch, timed per step in four modes on the same GPU as bench/compile.php:

  eager            the step as plain torch ops
  compile          torch.compile(step) (default mode: Inductor, Triton kernels, no CUDA graphs)
  reduce-overhead  torch.compile(step, mode="reduce-overhead") (Inductor + CUDA graph trees)
  cuda-graph       the eager step captured by hand into one torch.cuda.CUDAGraph, replayed

    python3 bench/compile_torch.py [--graphs=examples/train_step.json,examples/digits_step.json]
        [--modes=eager,compile,reduce-overhead,cuda-graph] [--reps=11] [--budget=300]

The step is the graph's math, op for op: forward (x @ w1 + b1, relu, @ w2 + b2), numerically
stable softmax cross-entropy (max-shift, log-sum-exp), the hand-written backward (no autograd),
SGD with gradients clamped to ±5, and in-place parameter updates (w.sub_(...)). float32 matmuls
are strict FP32 (TF32 off), as in gtc. Inputs are made once (torch.rand, one-hot labels, weights
uniform ±1/sqrt(fan_in)), never zeros. Parameters are module buffers, so the compiled modes treat
them as static inputs that the step mutates (CUDA graph trees support that), and x, y are the same
tensors every step, as in the PHP benchmark. Timing: warm-up steps (compilation and graph capture
happen there; the compile time is reported), then each repeat times a loop of N steps followed by
torch.cuda.synchronize(); reported: the median over repeats of (loop + sync) / N. After the
measurements, one step of each mode from the same starting parameters is compared with eager
(max relative difference of the updated w1). --budget: seconds after which the remaining
torch.compile modes are skipped (reported as such). One JSON object per line on stdout.
"""
import json
import statistics
import sys
import time

import torch

opt = {"graphs": "examples/train_step.json,examples/digits_step.json",
       "modes": "eager,compile,reduce-overhead,cuda-graph", "reps": 11, "budget": 300}
for arg in sys.argv[1:]:
    k, _, v = arg.lstrip("-").partition("=")
    if k not in opt or not arg.startswith("--") or not v:
        sys.exit("usage: compile_torch.py [--graphs=A.json,B.json] [--modes=eager,compile,reduce-overhead,cuda-graph]"
                 " [--reps=R] [--budget=SECONDS]")
    opt[k] = int(v) if isinstance(opt[k], int) else v
reps = max(1, opt["reps"])
t_start = time.perf_counter()

if not torch.cuda.is_available():
    sys.exit("compile_torch.py: no CUDA device visible to torch")
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.set_float32_matmul_precision("highest")
dev = torch.device("cuda:0")
sync = torch.cuda.synchronize


class Step(torch.nn.Module):
    """The training step; the parameters are buffers updated in place."""

    def __init__(self, d, h, k, batch, lr, seed):
        super().__init__()
        g = torch.Generator(device="cpu").manual_seed(seed)
        u = lambda shape, lim: ((torch.rand(shape, generator=g) * 2 - 1) * lim).to(dev)
        self.register_buffer("w1", u((d, h), d ** -0.5))
        self.register_buffer("b1", u((h,), 0.01))
        self.register_buffer("w2", u((h, k), h ** -0.5))
        self.register_buffer("b2", u((k,), 0.01))
        self.batch, self.lr = batch, lr

    def forward(self, x, y):
        w1, b1, w2, b2, lr = self.w1, self.b1, self.w2, self.b2, self.lr
        h1 = x @ w1 + b1
        a1 = torch.relu(h1)
        logits = a1 @ w2 + b2
        m = logits.amax(1, keepdim=True)
        sh = logits - m
        e = sh.exp()
        se = e.sum(1, keepdim=True)
        logp = sh - se.log()
        loss = -(y * logp).sum(1).mean()
        dlogits = (e / se - y) / self.batch
        dw2 = a1.t() @ dlogits
        db2 = dlogits.sum(0)
        da1 = dlogits @ w2.t()
        dh1 = torch.where(h1 > 0, da1, 0.0)
        dw1 = x.t() @ dh1
        db1 = dh1.sum(0)
        w1.sub_(dw1.clamp(-5, 5) * lr)
        b1.sub_(db1.clamp(-5, 5) * lr)
        w2.sub_(dw2.clamp(-5, 5) * lr)
        b2.sub_(db2.clamp(-5, 5) * lr)
        return loss


def emit(row):
    print(json.dumps(row), flush=True)


def timed(f, n):
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            f()
        sync()
        out.append((time.perf_counter() - t0) / n * 1e6)
    return out


def shapes(path):
    g = json.load(open(path))
    s = {i["name"]: i["shape"] for i in g["inputs"]}
    return s["x"][0], s["x"][1], s["w2"][0], s["w2"][1]


for path in opt["graphs"].split(","):
    name = path.rsplit("/", 1)[-1].removesuffix(".json")
    B, D, H, K = shapes(path)
    x = torch.rand(B, D, device=dev)
    y = torch.nn.functional.one_hot((torch.arange(B) * 7 + 3) % K, K).float().to(dev)
    lr = 0.01
    results = {}
    for mode in opt["modes"].split(","):
        row = {"impl": "torch", "mode": mode, "graph": name, "torch": torch.__version__,
               "device": torch.cuda.get_device_name(0)}
        if mode in ("compile", "reduce-overhead") and time.perf_counter() - t_start > opt["budget"]:
            emit(dict(row, skipped=f"over the {opt['budget']} s budget"))
            continue
        try:
            torch._dynamo.reset()
            mod = Step(D, H, K, B, lr, seed=1)
            t0 = time.perf_counter()
            if mode == "eager":
                f, n, warm = (lambda: mod(x, y)), 300, 30
            elif mode == "compile":
                cf = torch.compile(mod)
                f, n, warm = (lambda: cf(x, y)), 1000, 30
            elif mode == "reduce-overhead":
                cf = torch.compile(mod, mode="reduce-overhead")
                f, n, warm = (lambda: cf(x, y)), 2000, 30
            elif mode == "cuda-graph":
                s = torch.cuda.Stream()
                s.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(s):
                    for _ in range(3):
                        mod(x, y)
                torch.cuda.current_stream().wait_stream(s)
                graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(graph):
                    static_loss = mod(x, y)
                f, n, warm = graph.replay, 3000, 30
            else:
                emit(dict(row, error=f"unknown mode {mode}"))
                continue
            for _ in range(warm):
                f()
            sync()
            row["setup_s"] = round(time.perf_counter() - t0, 2)
            if mode == "reduce-overhead":
                try:
                    from torch._dynamo.utils import counters
                    row["cudagraph_skips"] = int(counters["inductor"]["cudagraph_skips"])
                except Exception:  # noqa: BLE001 - a private counter; absent in some versions
                    pass
            t = timed(f, n)
            row.update(us_per_step=statistics.median(t), min=min(t), max=max(t), steps=n, reps=reps)
            # one step from the same starting parameters, for the comparison with eager
            ref = Step(D, H, K, B, lr, seed=1)
            for name_ in ("w1", "b1", "w2", "b2"):
                getattr(mod, name_).copy_(getattr(ref, name_))
            f()
            sync()
            results[mode] = mod.w1.detach().clone()
        except Exception as ex:  # noqa: BLE001 - report and go on with the other modes
            row["error"] = f"{type(ex).__name__}: {str(ex)[:300]}"
        if "eager" in results and mode in results and mode != "eager":
            a, b = results[mode].double(), results["eager"].double()
            row["w1_rel_diff_vs_eager"] = float((a - b).abs().max() / b.abs().max())
        emit(row)
