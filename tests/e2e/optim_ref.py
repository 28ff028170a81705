#!/usr/bin/env python3
"""tests/e2e/optim_ref.py: an independent float64 NumPy reference for tests/e2e/optim_state.php:
linear regression loss = mean((x @ w + c - y)^2) (tests/e2e/optim/linreg_*.json) trained STEPS
steps with torch.optim's AdamW (weight_decay 0.01) or SGD with momentum 0.9 and weight_decay
0.001, the gradients written out by hand. Reads INDIR/{x,y,w,c}.npy, writes OUTDIR/<name>_<k>.npy
for w, c, loss, the moments (w_m, w_v, c_m, c_v or w_m, c_m) at step k = 1..STEPS.

usage: optim_ref.py adamw|momentum LR INDIR OUTDIR STEPS
"""
import os
import sys

import numpy as np


def main(argv):
    if len(argv) != 5 or argv[0] not in ("adamw", "momentum"):
        sys.stderr.write(__doc__)
        return 2
    kind, lr, indir, outdir, steps = argv[0], float(argv[1]), argv[2], argv[3], int(argv[4])
    ld = lambda n: np.load(os.path.join(indir, n + ".npy")).astype(np.float64)
    x, y, w, c = ld("x"), ld("y"), ld("w"), ld("c")
    p = {"w": w, "c": c}
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v = {k: np.zeros_like(val) for k, val in p.items()}
    b1, b2, eps = 0.9, 0.999, 1e-8
    for t in range(1, steps + 1):
        err = x @ p["w"] + p["c"] - y
        loss = np.mean(err * err)
        g = {"w": 2.0 / len(y) * (x.T @ err), "c": np.asarray(2.0 / len(y) * np.sum(err))}
        out = {"loss": np.asarray(loss)}
        for k in p:
            if kind == "adamw":
                p[k] = p[k] * (1 - lr * 0.01)
                m[k] = b1 * m[k] + (1 - b1) * g[k]
                v[k] = b2 * v[k] + (1 - b2) * g[k] * g[k]
                denom = np.sqrt(v[k]) / np.sqrt(1 - b2 ** t) + eps
                p[k] = p[k] - lr / (1 - b1 ** t) * m[k] / denom
                out[k + "_v"] = v[k]
            else:
                d = g[k] + 0.001 * p[k]
                m[k] = 0.9 * m[k] + d
                p[k] = p[k] - lr * m[k]
            out[k + "_m"] = m[k]
            out[k] = p[k]
        for name, val in out.items():
            np.save(os.path.join(outdir, "%s_%d.npy" % (name, t)), np.asarray(val))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
