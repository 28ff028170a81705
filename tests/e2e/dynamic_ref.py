#!/usr/bin/env python3
"""tests/e2e/dynamic_ref.py: the float64 NumPy outputs of tests/e2e/dynamic/mlp_dyn.json (a graph
with a symbolic batch), independent of gtc and of tests/ref/graph_ref.py.

Usage: dynamic_ref.py IN.npz OUT.npz
  IN.npz holds x [B, 8], y [B, 3], w1, b1, w2, b2 for any B; OUT.npz gets logits, probs, loss,
  hmean, hmax, gram and ysum, all float64.
Usage: dynamic_ref.py --step IN.npz OUT.npz
  tests/e2e/dynamic/mlp_dyn_train.json's SGD step: IN.npz also holds lr; OUT.npz gets the loss,
  the logits and w1 b1 w2 b2 after p -= lr * dloss/dp (the gradient by hand, float64)."""
import sys

import numpy as np


def step(f):
    x, y = f["x"], f["y"]
    a1 = np.tanh(x @ f["w1"] + f["b1"])
    logits = a1 @ f["w2"] + f["b2"]
    s = logits - logits.max(axis=1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    n = x.shape[0]
    dlogits = (np.exp(logp) * y.sum(axis=1, keepdims=True) - y) / n  # d(-mean(sum(y*logp)))
    dh = (dlogits @ f["w2"].T) * (1 - a1 * a1)
    g = {"w1": x.T @ dh, "b1": dh.sum(axis=0), "w2": a1.T @ dlogits, "b2": dlogits.sum(axis=0)}
    out = {k: f[k] - f["lr"] * g[k] for k in g}
    out["loss"] = np.array(-(y * logp).sum(axis=1).mean())
    out["logits"] = logits
    return out


def main(argv):
    if argv and argv[0] == "--step" and len(argv) == 3:
        f = {k: v.astype(np.float64) for k, v in np.load(argv[1]).items()}
        np.savez(argv[2], **step(f))
        return 0
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    f = {k: v.astype(np.float64) for k, v in np.load(argv[0]).items()}
    a1 = np.tanh(f["x"] @ f["w1"] + f["b1"])
    logits = a1 @ f["w2"] + f["b2"]
    s = logits - logits.max(axis=1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    np.savez(argv[1], logits=logits, probs=np.exp(logp), loss=np.array(-(f["y"] * logp).sum(axis=1).mean()),
             hmean=a1.mean(axis=0), hmax=a1.max(axis=0), gram=a1.T @ a1, ysum=np.array(f["y"].sum()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
