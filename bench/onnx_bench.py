#!/usr/bin/env python3
"""bench/onnx_bench.py: the models of bench/onnx.sh and their reference timings.

  onnx_bench.py make DIR          writes DIR/{mlp,cnn}_b{1,256}.onnx and DIR/<model>_in.npz
  onnx_bench.py time DIR ITERS    times ONNX Runtime (CPU; CUDA provider when present) and
                                  PyTorch (eager; CUDA when present) on each model, one JSON line
                                  per (model, runner): {"model", "runner", "us_per_run"}
The MLP is 784-512-256-10 (Gemm, Relu, Softmax); the CNN is conv3x3 1->16, relu, maxpool,
conv3x3 16->32, relu, maxpool, flatten, gemm 512->10 on 1x16x16 images. Weights are seeded.
"""
import json
import os
import sys
import time

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

RNG = np.random.default_rng(7)


def w(*shape):
    return (RNG.standard_normal(shape) / np.sqrt(np.prod(shape[1:]))).astype(np.float32)


def mlp(batch):
    inits = {"w1": w(512, 784), "b1": w(512), "w2": w(256, 512), "b2": w(256), "w3": w(10, 256), "b3": w(10)}
    nodes = [h.make_node("Gemm", ["x", "w1", "b1"], ["h1"], transB=1), h.make_node("Relu", ["h1"], ["r1"]),
             h.make_node("Gemm", ["r1", "w2", "b2"], ["h2"], transB=1), h.make_node("Relu", ["h2"], ["r2"]),
             h.make_node("Gemm", ["r2", "w3", "b3"], ["l"], transB=1), h.make_node("Softmax", ["l"], ["y"])]
    return nodes, {"x": RNG.standard_normal((batch, 784)).astype(np.float32)}, inits


def cnn(batch):
    inits = {"k1": w(16, 1, 3, 3), "c1": w(16), "k2": w(32, 16, 3, 3), "c2": w(32), "wf": w(10, 512), "bf": w(10)}
    nodes = [h.make_node("Conv", ["x", "k1", "c1"], ["a1"], pads=[1, 1, 1, 1]), h.make_node("Relu", ["a1"], ["r1"]),
             h.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
             h.make_node("Conv", ["p1", "k2", "c2"], ["a2"], pads=[1, 1, 1, 1]), h.make_node("Relu", ["a2"], ["r2"]),
             h.make_node("MaxPool", ["r2"], ["p2"], kernel_shape=[2, 2], strides=[2, 2]),
             h.make_node("Flatten", ["p2"], ["f"]), h.make_node("Gemm", ["f", "wf", "bf"], ["y"], transB=1)]
    return nodes, {"x": RNG.standard_normal((batch, 1, 16, 16)).astype(np.float32)}, inits


MODELS = {"%s_b%d" % (n, b): (f, b) for n, f in (("mlp", mlp), ("cnn", cnn)) for b in (1, 256)}


def make(d):
    os.makedirs(d, exist_ok=True)
    for name, (f, b) in MODELS.items():
        nodes, ins, inits = f(b)
        vi = [h.make_tensor_value_info(k, T.FLOAT, v.shape) for k, v in ins.items()]
        g = h.make_graph(nodes, name, vi, [h.make_tensor_value_info("y", T.FLOAT, None)],
                         [nh.from_array(v, k) for k, v in inits.items()])
        m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
        m.ir_version = 8
        onnx.save(m, os.path.join(d, name + ".onnx"))
        np.savez(os.path.join(d, name + "_in.npz"), **ins)


def bench(fn, iters):
    for _ in range(max(3, iters // 10)):
        fn()
    t = time.perf_counter()
    for _ in range(iters):
        fn()
    return (time.perf_counter() - t) / iters * 1e6


def time_all(d, iters):
    import onnxruntime as ort
    providers = [p for p in ("CPUExecutionProvider", "CUDAExecutionProvider") if p in ort.get_available_providers()]
    for name in MODELS:
        path = os.path.join(d, name + ".onnx")
        ins = dict(np.load(os.path.join(d, name + "_in.npz")))
        for p in providers:
            s = ort.InferenceSession(path, providers=[p])
            if p == "CUDAExecutionProvider":  # data stays on the GPU, as gtc's does
                io = s.io_binding()
                io.bind_ortvalue_input("x", ort.OrtValue.ortvalue_from_numpy(ins["x"], "cuda", 0))
                io.bind_output("y", "cuda")
                fn = lambda: s.run_with_iobinding(io)
            else:
                fn = lambda: s.run(["y"], ins)
            print(json.dumps({"model": name, "runner": "onnxruntime " + p.replace("ExecutionProvider", ""),
                              "us_per_run": bench(fn, iters)}), flush=True)
        try:
            import torch
            from onnx2torch import convert  # optional; absent: PyTorch rows are skipped
        except ImportError:
            continue
        dev = "cuda" if torch.cuda.is_available() else "cpu"
        mod = convert(onnx.load(path)).to(dev).eval()
        x = torch.from_numpy(ins["x"]).to(dev)

        def run():
            with torch.no_grad():
                mod(x)
            if dev == "cuda":
                torch.cuda.synchronize()
        print(json.dumps({"model": name, "runner": "pytorch eager " + dev, "us_per_run": bench(run, iters)}), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        time_all(sys.argv[2], int(sys.argv[3]))
