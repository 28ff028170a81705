#!/usr/bin/env python3
"""tests/e2e/predict_ref.py: the float64 NumPy forward pass of tests/e2e/predict/mlp_predict.json
(predict()'s reference, independent of gtc and of tests/ref/graph_ref.py).

Usage: predict_ref.py IN.npz OUT.npz
  IN.npz holds x, w1, b1, w2, b2 (and y, for the loss); OUT.npz gets logits, probs and, when y is
  given, loss (-mean over rows of sum(y * log_softmax(logits))), all float64."""
import sys

import numpy as np


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    f = {k: v.astype(np.float64) for k, v in np.load(argv[0]).items()}
    h = np.tanh(f["x"] @ f["w1"] + f["b1"])
    logits = h @ f["w2"] + f["b2"]
    s = logits - logits.max(axis=1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    out = {"logits": logits, "probs": np.exp(logp)}
    if "y" in f:
        out["loss"] = np.array(-(f["y"] * logp).sum(axis=1).mean())
    np.savez(argv[1], **out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
