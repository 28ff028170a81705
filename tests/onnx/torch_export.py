#!/usr/bin/env python3
"""tests/onnx/torch_export.py: PyTorch models exported with torch.onnx.export, imported by gtc.

An MLP (Linear, GELU, LayerNorm, Dropout, Softmax; exported with a dynamic batch, fixed by
gtc's --dim) and a CNN (Conv2d, BatchNorm2d, ReLU,
MaxPool2d, AvgPool2d, Flatten, Linear) in eval mode with seeded weights, exported at a fixed
batch (the TorchScript exporter, dynamo=False, opset 17: Shape/Gather/Concat chains and
INT64_MAX slice ends as exporters write them), compiled by `gtc compile`, run from PHP with the
weights gtc wrote (OUT.npz), and compared with PyTorch's own output and ONNX Runtime's
(1e-5 relative, 1e-6 absolute). Needs a python with torch, onnx and onnxruntime.

usage: torch_export.py GTC GTC_SO [--device cuda] [--keep DIR]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnxruntime as ort
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtc_run import compare, compile_model, php  # noqa: E402  (the same compile and run steps)


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.ln, self.l2, self.drop = nn.Linear(20, 32), nn.LayerNorm(32), nn.Linear(32, 5), nn.Dropout(0.3)

    def forward(self, x):
        h = self.drop(self.ln(nn.functional.gelu(self.l1(x))))
        return torch.softmax(self.l2(h), dim=-1)


class Cnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1, self.bn = nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8)
        self.c2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.fc = nn.Linear(16 * 2 * 2, 10)

    def forward(self, x):
        h = nn.functional.max_pool2d(torch.relu(self.bn(self.c1(x))), 2)
        h = nn.functional.avg_pool2d(torch.relu(self.c2(h)), 2)
        h = h.flatten(1)
        return self.fc(h)[:, 1:]  # a slice to the end: INT64_MAX in the exported model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gtc")
    ap.add_argument("so")
    ap.add_argument("--device")
    ap.add_argument("--keep")
    args = ap.parse_args()
    args.gtc = os.path.abspath(args.gtc)
    work = args.keep or tempfile.mkdtemp(prefix="gtc-torch-")
    os.makedirs(work, exist_ok=True)
    torch.manual_seed(0)
    fails = 0
    for name, model, x in (("torch_mlp", Mlp(), torch.randn(8, 20)), ("torch_cnn", Cnn(), torch.randn(4, 3, 16, 16))):
        model.eval()
        if isinstance(model, Cnn):  # running statistics that are not the defaults
            model.bn.running_mean.uniform_(-0.5, 0.5)
            model.bn.running_var.uniform_(0.5, 2.0)
        path = os.path.join(work, name + ".onnx")
        # the MLP with a dynamic batch, as exporters are usually asked: gtc fixes it with --dim
        dyn = {"x": {0: "batch"}, "y": {0: "batch"}} if isinstance(model, Mlp) else None
        torch.onnx.export(model, (x,), path, input_names=["x"], output_names=["y"], opset_version=17, dynamo=False,
                          dynamic_axes=dyn)
        with torch.no_grad():
            ref = model(x).numpy()
        ort_y = ort.InferenceSession(path, providers=["CPUExecutionProvider"]).run(["y"], {"x": x.numpy()})[0]
        so = os.path.join(work, name + ".so")
        try:
            cls = compile_model(args, path, so, ["--dim", "batch=%d" % x.shape[0]] if dyn else [])
            np.savez(os.path.join(work, name + "_in.npz"), x=x.numpy())
            out = os.path.join(work, name + "_out.npz")
            php(args, so, [cls, out, os.path.join(work, name + "_in.npz"), so[:-3] + ".npz"])
            got = dict(np.load(out))
            bad = compare({"y": ref}, got, "PyTorch") + compare({"y": ort_y}, got, "ONNX Runtime")
        except (RuntimeError, subprocess.SubprocessError) as e:
            bad = [str(e)]
        print("%-10s %s" % (name, "ok" if not bad else "FAIL\n  " + "\n  ".join(bad)))
        fails += bool(bad)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
