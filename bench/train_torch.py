#!/usr/bin/env python3
"""bench/train_torch.py: examples/train_mlp.php's training run with PyTorch, for bench/train.sh.

    python3 bench/train_torch.py [--data-dir=examples/data] [--datasets=digits,pcam-synthetic]
        [--variants=eager,autograd,compile,reduce-overhead,cuda-graph] [--init-dir=DIR]
        [--epochs-digits=1000] [--epochs-pcam=20] [--device=cuda]

The same model, data, batches and schedule as train_mlp.php: a one-hidden-layer ReLU MLP
(digits 64-64-10 at batch 256, learning rate 0.5, 1,000 epochs; pcam-synthetic 480-256-2 at batch
512, learning rate 0.03, 20 epochs), trained on the .npy files of `make data` (read here without
NumPy). Batches are uploaded once as contiguous tensors; a last partial batch is the final
`batch` rows of the set, as in train_mlp.php. The step is the graph of examples/digits_step.json
(examples/train_step.json): forward, softmax cross-entropy, the hand-written backward, SGD with
the gradient clamped to +-5, parameters updated in place — so torch.compile sees the whole step as
one graph with no autograd and no graph break, its best case. Variants:

  eager            that step, op by op (PyTorch eager)
  autograd         what a PyTorch user would write: log_softmax loss, torch.autograd.grad, the
                   same clamped SGD update (eager)
  compile          torch.compile(step, fullgraph=True) (inductor, default mode)
  reduce-overhead  torch.compile(step, fullgraph=True, mode="reduce-overhead") (inductor + CUDA
                   Graph trees; parameters are nn.Parameters, static, mutated in place; x and y
                   are copied into the graph's static inputs, as reduce-overhead does)
  cuda-graph       the eager step captured by hand with torch.cuda.graph, one graph per batch
                   (each batch's tensors are the graph's inputs, so no copies), then replayed

Each variant starts from the same initial parameters (--init-dir: w1 b1 w2 b2 .npy as written by
bench/train.sh from train_mlp.php's initialisation; else a seeded torch init), warms up (one
epoch plus a few steps: cuBLAS handles, compilation, graph capture; reported as warmup_s), resets
the parameters in place and trains. As in train_mlp.php the loss read back is the last step's of a
reporting epoch (about 20 per run, the only synchronisations); time per step is the
median over reporting intervals of wall time / steps, and train_s the wall time of the whole
loop. FP32 matmuls are strict (TF32 off), like gtc. Prints one JSON object per variant and
data set.
"""
import ast
import json
import statistics
import sys
import time
import traceback

import torch
import torch.nn.functional as F

DATASETS = {
    "digits": {"prefix": "digits", "hidden": 64, "epochs": 1000, "batch": 256, "lr": 0.5},
    "pcam-synthetic": {"prefix": "pcam", "hidden": 256, "epochs": 20, "batch": 512, "lr": 0.03},
}
opt = {"data-dir": "examples/data", "datasets": "digits,pcam-synthetic",
       "variants": "eager,autograd,compile,reduce-overhead,cuda-graph", "init-dir": "",
       "epochs-digits": "", "epochs-pcam": "", "device": "cuda"}
for arg in sys.argv[1:]:
    k, _, v = arg.lstrip("-").partition("=")
    if k not in opt or not arg.startswith("--"):
        sys.exit(__doc__.split("\n\n")[1])
    opt[k] = v
if opt["epochs-digits"]:
    DATASETS["digits"]["epochs"] = int(opt["epochs-digits"])
if opt["epochs-pcam"]:
    DATASETS["pcam-synthetic"]["epochs"] = int(opt["epochs-pcam"])

dev = torch.device(opt["device"])
if dev.type == "cuda" and not torch.cuda.is_available():
    sys.exit("train_torch.py: no CUDA device visible to torch")
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.set_float32_matmul_precision("highest")


def sync():
    if dev.type == "cuda":
        torch.cuda.synchronize()


def npy_load(path):
    """A little-endian C-order .npy (v1/v2) as a CPU tensor; float32 and int64 only."""
    with open(path, "rb") as f:
        s = f.read()
    if s[:6] != b"\x93NUMPY":
        raise ValueError(f"{path} is not an .npy file")
    if s[6] == 1:
        hlen, off = int.from_bytes(s[8:10], "little"), 10
    else:
        hlen, off = int.from_bytes(s[8:12], "little"), 12
    h = ast.literal_eval(s[off:off + hlen].decode("latin1"))
    if h["fortran_order"]:
        raise ValueError(f"{path}: Fortran order")
    dt = {"<f4": torch.float32, "<i8": torch.int64}[h["descr"]]
    t = torch.frombuffer(bytearray(s[off + hlen:]), dtype=dt)
    return t.reshape(h["shape"])


def step_core(x, y, w1, b1, w2, b2, lr: float, batch: int):
    """examples/digits_step.json, op for op; updates the parameters in place, returns the loss."""
    h1 = x @ w1 + b1
    a1 = torch.relu(h1)
    logits = a1 @ w2 + b2
    sh = logits - logits.amax(1, keepdim=True)
    e = sh.exp()
    se = e.sum(1, keepdim=True)
    logp = sh - se.log()
    loss = -(y * logp).sum(1).mean()
    dlogits = (e / se - y) / batch
    dw2 = a1.t() @ dlogits
    db2 = dlogits.sum(0)
    dh1 = torch.where(h1 > 0, dlogits @ w2.t(), 0.0)
    dw1 = x.t() @ dh1
    db1 = dh1.sum(0)
    w1.sub_(dw1.clamp(-5, 5) * lr)
    b1.sub_(db1.clamp(-5, 5) * lr)
    w2.sub_(dw2.clamp(-5, 5) * lr)
    b2.sub_(db2.clamp(-5, 5) * lr)
    return loss


class Step(torch.nn.Module):
    """The parameters as (static) nn.Parameters; forward(x, y) is one training step."""

    def __init__(self, init, lr, batch):
        super().__init__()
        for k in ("w1", "b1", "w2", "b2"):
            setattr(self, k, torch.nn.Parameter(init[k].clone(), requires_grad=False))
        self.lr, self.batch = float(lr), int(batch)

    def forward(self, x, y):
        return step_core(x, y, self.w1, self.b1, self.w2, self.b2, self.lr, self.batch)

    def params(self):
        return {k: getattr(self, k) for k in ("w1", "b1", "w2", "b2")}


def run_variant(name, ds, data, init):
    B, lr = ds["batch"], ds["lr"]
    batches, xtest, ltest = data["batches"], data["xtest"], data["ltest"]
    nb, epochs = len(batches), ds["epochs"]
    every = max(1, (epochs + 19) // 20)
    note = ""
    t_w = time.perf_counter()
    if name == "autograd":
        ps = {k: init[k].clone().requires_grad_() for k in ("w1", "b1", "w2", "b2")}
        order = [ps["w1"], ps["b1"], ps["w2"], ps["b2"]]

        def step(x, y):
            logits = torch.relu(x @ ps["w1"] + ps["b1"]) @ ps["w2"] + ps["b2"]
            loss = -(y * F.log_softmax(logits, 1)).sum(1).mean()
            grads = torch.autograd.grad(loss, order)
            with torch.no_grad():
                for p, g in zip(order, grads):
                    p.sub_(g.clamp(-5, 5) * lr)
            return loss.detach()
        params = ps
    else:
        m = Step(init, lr, B).to(dev)
        params = m.params()
        if name == "eager":
            step = m
        elif name in ("compile", "reduce-overhead"):
            cm = torch.compile(m, fullgraph=True, mode=None if name == "compile" else "reduce-overhead")
            if name == "compile":
                step = cm
            else:
                def step(x, y):
                    torch.compiler.cudagraph_mark_step_begin()
                    return cm(x, y)
        elif name == "cuda-graph":
            if dev.type != "cuda":
                raise RuntimeError("cuda-graph needs a CUDA device")
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                for _ in range(3):
                    m(*batches[0])
            torch.cuda.current_stream().wait_stream(s)
            graphs = []
            for xb, yb in batches:
                g = torch.cuda.CUDAGraph()
                with torch.cuda.graph(g):
                    out = m(xb, yb)
                graphs.append((g, out))
            gi = {id(xb): i for i, (xb, _) in enumerate(batches)}

            def step(x, y):
                g, out = graphs[gi[id(x)]]
                g.replay()
                return out
        else:
            raise ValueError(f"unknown variant {name}")

    # Warm-up: one epoch and a few steps, then the initial parameters back, in place.
    with torch.no_grad() if name != "autograd" else torch.enable_grad():
        for xb, yb in batches + batches[:3]:
            step(xb, yb)
    sync()
    with torch.no_grad():
        for k, p in params.items():
            p.copy_(init[k])
    sync()
    warmup = time.perf_counter() - t_w

    losses, intervals = {}, []
    steps = steps_last = 0
    ctx = torch.no_grad if name != "autograd" else torch.enable_grad
    with ctx():
        t0 = t_last = time.perf_counter()
        for epoch in range(1, epochs + 1):
            report = epoch == 1 or epoch % every == 0 or epoch == epochs
            for xb, yb in batches:
                loss = step(xb, yb)
                steps += 1
            if not report:
                continue
            val = loss.item()
            now = time.perf_counter()
            intervals.append((now - t_last) / (steps - steps_last))
            t_last, steps_last = now, steps
            losses[epoch] = val
        train_s = time.perf_counter() - t0

    with torch.no_grad():
        p = {k: v.detach() for k, v in params.items()}
        pred = (torch.relu(xtest @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]).argmax(1)
        acc = (pred == ltest).float().mean().item()
    if name == "reduce-overhead":
        try:
            from torch._dynamo.utils import counters
            skips = sum(counters["inductor"].get(k, 0) for k in counters["inductor"] if "cudagraph_skip" in k)
            note = f"cudagraph skips: {skips}"
        except Exception:  # noqa: BLE001 - informational only
            pass
    step_s = statistics.median(intervals)
    return {"impl": "torch", "variant": name, "step_s": step_s, "samples_s": B / step_s,
            "train_s": train_s, "warmup_s": warmup, "test_accuracy": acc, "steps": steps,
            "loss": losses, "note": note}


def main():
    info = {"torch": torch.__version__,
            "device": torch.cuda.get_device_name(0) if dev.type == "cuda" else "cpu"}
    for dname in [d for d in opt["datasets"].split(",") if d]:
        ds = DATASETS[dname]
        d = opt["data-dir"]
        pre = ds["prefix"]
        xtr = npy_load(f"{d}/{pre}_train_x.npy")
        ytr = npy_load(f"{d}/{pre}_train_y.npy")
        n, B = xtr.shape[0], ds["batch"]
        nbat = (n + B - 1) // B
        batches = []
        for b in range(nbat):
            r0 = min(b * B, n - B)
            batches.append((xtr[r0:r0 + B].contiguous().to(dev), ytr[r0:r0 + B].contiguous().to(dev)))
        data = {"batches": batches, "xtest": npy_load(f"{d}/{pre}_test_x.npy").to(dev),
                "ltest": npy_load(f"{d}/{pre}_test_labels.npy").to(dev)}
        D, K, H = xtr.shape[1], ytr.shape[1], ds["hidden"]
        if opt["init-dir"]:
            idir = f"{opt['init-dir']}/{dname}"
            init = {k: npy_load(f"{idir}/{k}.npy").to(dev) for k in ("w1", "b1", "w2", "b2")}
        else:
            g = torch.Generator().manual_seed(0)
            lim1, lim2 = (6 / D) ** 0.5, (6 / (H + K)) ** 0.5
            init = {"w1": ((torch.rand(D, H, generator=g) * 2 - 1) * lim1).to(dev),
                    "b1": torch.zeros(H, device=dev),
                    "w2": ((torch.rand(H, K, generator=g) * 2 - 1) * lim2).to(dev),
                    "b2": torch.zeros(K, device=dev)}
        for v in [v for v in opt["variants"].split(",") if v]:
            row = {"dataset": dname, "batch": B, "epochs": ds["epochs"], **info}
            try:
                row.update(run_variant(v, ds, data, init))
            except Exception as e:  # noqa: BLE001 - one failing variant must not stop the rest
                traceback.print_exc()
                row.update({"impl": "torch", "variant": v, "error": f"{type(e).__name__}: {e}"[:300]})
            print(json.dumps(row), flush=True)
            if dev.type == "cuda":
                torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
