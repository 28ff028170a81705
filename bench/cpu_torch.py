#!/usr/bin/env python3
"""bench/cpu_torch.py: PyTorch CPU's side of bench/cpu.sh: the MLP training step of
bench/cpu_graph.php (dense layers, ReLU, softmax cross-entropy against one-hot targets, plain
SGD) with eager autograd, and the digits MLP's inference with ONNX Runtime when it is installed.

    python3 bench/cpu_torch.py --layers=64-64-10 --batch=256 --threads=1 [--steps=200]
    python3 bench/cpu_torch.py --ort=64-64-10 --batch=1 --threads=1

Time per step: the median over 10 intervals of wall time / steps. One JSON object on stdout;
{"skip": reason} when the library is missing.
"""
import json
import statistics
import sys
import time

opt = {"layers": "", "batch": "256", "threads": "1", "steps": "200", "ort": ""}
for arg in sys.argv[1:]:
    k, _, v = arg.lstrip("-").partition("=")
    if k not in opt or not arg.startswith("--"):
        sys.exit(__doc__.split("\n\n")[1])
    opt[k] = v
B, T, STEPS = int(opt["batch"]), int(opt["threads"]), max(10, int(opt["steps"]))


def timed(f):
    for _ in range(5):
        f()
    per, out = STEPS // 10, []
    for _ in range(10):
        t0 = time.perf_counter()
        for _ in range(per):
            f()
        out.append((time.perf_counter() - t0) * 1e6 / per)
    return statistics.median(out)


if opt["ort"]:
    try:
        import numpy as np
        import onnxruntime as ort
        from onnx import TensorProto, helper
    except ImportError as e:
        print(json.dumps({"skip": f"onnxruntime/onnx not installed ({e.name})"}))
        sys.exit(0)
    dims = [int(d) for d in opt["ort"].split("-")]
    rng = np.random.default_rng(0)
    inits, nodes, h = [], [], "x"
    for l in range(1, len(dims)):
        w = (rng.standard_normal((dims[l - 1], dims[l])) * 0.05).astype(np.float32)
        b = (rng.standard_normal(dims[l]) * 0.05).astype(np.float32)
        inits += [helper.make_tensor(f"w{l}", TensorProto.FLOAT, w.shape, w.ravel()),
                  helper.make_tensor(f"b{l}", TensorProto.FLOAT, b.shape, b.ravel())]
        nodes.append(helper.make_node("Gemm", [h, f"w{l}", f"b{l}"], [f"h{l}"]))
        h = f"h{l}"
        if l < len(dims) - 1:
            nodes.append(helper.make_node("Relu", [h], [f"a{l}"]))
            h = f"a{l}"
    nodes.append(helper.make_node("Softmax", [h], ["p"], axis=1))
    graph = helper.make_graph(nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [B, dims[0]])],
                              [helper.make_tensor_value_info("p", TensorProto.FLOAT, [B, dims[-1]])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8  # readable by older ONNX Runtimes too (the GPU machine's takes IR <= 13)
    so = ort.SessionOptions()
    so.intra_op_num_threads = T
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    x = rng.standard_normal((B, dims[0])).astype(np.float32)
    us = timed(lambda: sess.run(["p"], {"x": x}))
    print(json.dumps({"variant": "onnxruntime", "version": ort.__version__, "us": us, "threads": T}))
    sys.exit(0)

try:
    import torch
except ImportError:
    print(json.dumps({"skip": "torch not installed"}))
    sys.exit(0)
torch.set_num_threads(T)
torch.manual_seed(0)
dims = [int(d) for d in opt["layers"].split("-")]
ps = []
for l in range(1, len(dims)):
    ps += [(torch.randn(dims[l - 1], dims[l]) * 0.05).requires_grad_(), (torch.randn(dims[l]) * 0.05).requires_grad_()]
x = torch.randn(B, dims[0])
y = torch.nn.functional.one_hot(torch.randint(0, dims[-1], (B,)), dims[-1]).float()


def step():
    h = x
    for l in range(len(dims) - 1):
        h = h @ ps[2 * l] + ps[2 * l + 1]
        if l < len(dims) - 2:
            h = torch.relu(h)
    loss = torch.nn.functional.cross_entropy(h, y)
    grads = torch.autograd.grad(loss, ps)
    with torch.no_grad():
        for p, g in zip(ps, grads):
            p.sub_(g, alpha=1e-3)
    return loss


us = timed(step)
print(json.dumps({"variant": "torch eager autograd", "version": torch.__version__, "us": us, "threads": T,
                  "loss": float(step())}))
