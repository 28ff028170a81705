#!/usr/bin/env python3
"""tests/onnx/gtc_run.py: the gtc side of the ONNX tests, with NumPy only (no onnx, no
onnxruntime): compile a model with `gtc compile`, run it from PHP (run_model.php) with the
weights gtc wrote beside it, compare with reference outputs. test_onnx.py and torch_export.py
use it; on its own it checks a folder that `test_onnx.py --export DIR` filled here, so the GPU
machine (which has no PyPI) runs the same models against the same ONNX Runtime outputs:

usage: gtc_run.py GTC GTC_SO DIR [--device cuda]
  DIR holds NAME.onnx, NAME_in.npz (the data inputs) and NAME_ref.npz (ONNX Runtime's outputs).
"""
import argparse
import glob
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def sh(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s%s" % (" ".join(cmd), r.returncode, r.stdout, r.stderr))
    return r.stdout


def compile_model(args, path, so, extra=()):
    """gtc compile; the class name. On the GPU (--device cuda) the model carries CUDA kernels."""
    cpu = [] if args.device == "cuda" else ["--cpu-only"]
    out = sh([args.gtc, "compile", path, "-o", so, *cpu, *extra])
    m = re.search(r"class (\w+)", out)
    if not m:
        raise RuntimeError("no class in: " + out)
    return m.group(1)


def php(args, so, argv):
    cmd = [os.environ.get("PHP", "php"), "-n", "-d", "extension=" + os.path.abspath(args.so), "-d",
           "extension=" + os.path.abspath(so), os.path.join(HERE, "run_model.php"), *argv]
    e = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    if args.device:
        e["GTC_DEVICE"] = args.device
    return sh(cmd, env=e)


def compare(ref, got, what="ONNX Runtime"):
    """Float outputs within 1e-5 relative (1e-6 absolute near zero), others exactly."""
    bad = []
    for name, r in ref.items():
        if name not in got:
            bad.append("%s: missing" % name)
            continue
        g = got[name]
        if r.shape != g.shape:
            bad.append("%s: shape %s, %s %s" % (name, g.shape, what, r.shape))
        elif r.dtype.kind == "f":
            err = np.abs(g.astype(np.float64) - r) - 1e-5 * np.abs(r)
            if not np.all(err <= 1e-6):
                bad.append("%s: max error %.3g beyond 1e-5 relative to %s" % (name, float(np.max(err)), what))
        elif not np.array_equal(r, g):
            bad.append("%s: values differ from %s" % (name, what))
    return bad


def run_and_compare(args, path, work, ref):
    """Compiles path (with the options in work/NAME.args, one per line, when present), runs it on
    work/NAME_in.npz (+ the weights), compares with ref."""
    name = os.path.basename(path)[:-5]
    so = os.path.join(work, name + ".so")
    opts = os.path.join(work, name + ".args")
    extra = open(opts).read().split("\n")[:-1] if os.path.exists(opts) else []
    cls = compile_model(args, path, so, extra)
    out = os.path.join(work, name + "_out.npz")
    weights = so[:-3] + ".npz"
    php(args, so, [cls, out, os.path.join(work, name + "_in.npz")] + ([weights] if os.path.exists(weights) else []))
    return compare(ref, dict(np.load(out)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gtc")
    ap.add_argument("so")
    ap.add_argument("dir")
    ap.add_argument("--device")
    args = ap.parse_args()
    args.gtc = os.path.abspath(args.gtc)
    fails = passes = 0
    for path in sorted(glob.glob(os.path.join(args.dir, "*.onnx"))):
        name = os.path.basename(path)[:-5]
        try:
            bad = run_and_compare(args, path, args.dir, dict(np.load(os.path.join(args.dir, name + "_ref.npz"))))
        except Exception as e:
            bad = [str(e)]
        print("%-10s %s" % (name, "ok" if not bad else "FAIL\n  " + "\n  ".join(bad)))
        fails += bool(bad)
        passes += not bad
    print("%d passed, %d failed" % (passes, fails))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
