#!/usr/bin/env python3
"""bench/cnn_torch.py: the CNN training step of examples/cnn_digits.json and single conv2d calls
with PyTorch, for bench/cnn.sh.

    python3 bench/cnn_torch.py [--variants=eager,cuda-graph,reduce-overhead] [--steps=2000]
        [--device=cuda] [--ops=1]

The model is the graph's: x [256,64] viewed as [256,1,8,8] -> conv 3x3 1->16 (pad 1, bias) ->
relu -> max pool 2x2 -> conv 3x3 16->32 (pad 1, bias) -> relu -> max pool 2x2 -> flatten 128 ->
linear 10 -> cross-entropy against one-hot float targets (mean), then AdamW (lr 1e-3, weight decay
1e-4) on the six parameters. One fixed batch (seeded random data: the step's time does not
depend on the values). Variants:

  eager            autograd and torch.optim.AdamW (foreach), op by op
  cuda-graph       the whole step (forward, backward, optimizer) captured by hand with
                   torch.cuda.graph after a side-stream warm-up, as PyTorch's docs describe
                   ("whole network capture"), then replayed: PyTorch's fastest
  reduce-overhead  torch.compile(mode="reduce-overhead") of the forward and loss, backward and
                   the optimizer step eager (what most users would write)

cuDNN is on (torch.backends.cudnn.benchmark = True, so it picks its fastest algorithm per shape),
TF32 off: strict FP32 like gtc. Time per step: the median over 10 intervals of wall time / steps,
synchronised at each interval's end. --ops=1 also times single forward conv2d calls (eager, the
call from Python to the result on the stream, synchronised every 100 calls) for the shapes in
OPS. Prints one JSON object per row.
"""
import json
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

opt = {"variants": "eager,cuda-graph,reduce-overhead", "steps": "2000", "device": "cuda", "ops": "1"}
for arg in sys.argv[1:]:
    k, _, v = arg.lstrip("-").partition("=")
    if k not in opt or not arg.startswith("--"):
        sys.exit(__doc__.split("\n\n")[1])
    opt[k] = v
dev = torch.device(opt["device"])
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.backends.cudnn.benchmark = True
STEPS = int(opt["steps"])
# (x shape, w shape, pad): the digits CNN's two layers, mid-sized ones, a ResNet-50 3x3 layer
OPS = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "conv_shapes.json")))


def sync():
    if dev.type == "cuda":
        torch.cuda.synchronize()


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.k1 = torch.nn.Conv2d(1, 16, 3, padding=1)
        self.k2 = torch.nn.Conv2d(16, 32, 3, padding=1)
        self.fc = torch.nn.Linear(128, 10)

    def forward(self, x):
        h = F.max_pool2d(F.relu(self.k1(x.view(-1, 1, 8, 8))), 2)
        h = F.max_pool2d(F.relu(self.k2(h)), 2)
        return self.fc(h.flatten(1))


def timed(step, n):
    """Median over 10 intervals of (wall time / steps), in microseconds."""
    per = max(1, n // 10)
    out = []
    for _ in range(10):
        sync()
        t = time.perf_counter()
        for _ in range(per):
            step()
        sync()
        out.append((time.perf_counter() - t) / per * 1e6)
    return statistics.median(out)


def run_variant(name):
    torch.manual_seed(0)
    net = Net().to(dev)
    x = torch.randn(256, 64, device=dev)
    y = F.one_hot(torch.randint(0, 10, (256,), device=dev), 10).float()
    # capturable: the step counter stays on the GPU, so the CUDA Graph variant can capture it
    optim = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-4,
                            capturable=(name == "cuda-graph"))
    t0 = time.perf_counter()
    if name == "eager":
        def step():
            optim.zero_grad(set_to_none=True)
            loss = F.cross_entropy(net(x), y)
            loss.backward()
            optim.step()
            return loss
    elif name == "cuda-graph":
        if dev.type != "cuda":
            return None
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                optim.zero_grad(set_to_none=True)
                F.cross_entropy(net(x), y).backward()
                optim.step()
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        optim.zero_grad(set_to_none=True)
        with torch.cuda.graph(g):
            static_loss = F.cross_entropy(net(x), y)
            static_loss.backward()
            optim.step()

        def step():
            g.replay()
            return static_loss
    elif name == "reduce-overhead":
        fwd = torch.compile(lambda a, b: F.cross_entropy(net(a), b), mode="reduce-overhead")

        def step():
            optim.zero_grad(set_to_none=True)
            loss = fwd(x, y)
            loss.backward()
            optim.step()
            return loss
    else:
        sys.exit(f"cnn_torch.py: unknown variant {name}")
    for _ in range(20):
        loss = step()
    sync()
    warm = time.perf_counter() - t0
    us = timed(step, STEPS)
    return {"row": "step", "variant": name, "us_per_step": us, "warmup_s": warm, "loss": float(loss)}


rows = []
for v in [v for v in opt["variants"].split(",") if v]:
    try:
        r = run_variant(v)
    except Exception as e:  # a variant that fails is reported, the others still run
        r = {"row": "step", "variant": v, "error": f"{type(e).__name__}: {e}"[:300]}
    if r:
        print(json.dumps(r), flush=True)
if opt["ops"] == "1":
    for xs, ws, pad in OPS:
        x = torch.randn(*xs, device=dev)
        w = torch.randn(*ws, device=dev)
        b = torch.randn(ws[0], device=dev)
        for _ in range(10):
            F.conv2d(x, w, b, padding=pad)
        us = timed(lambda: F.conv2d(x, w, b, padding=pad), 1000)
        print(json.dumps({"row": "conv2d", "x": list(xs), "w": list(ws), "pad": pad, "us_per_call": us}), flush=True)
