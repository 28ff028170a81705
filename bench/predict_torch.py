#!/usr/bin/env python3
"""bench/predict_torch.py: PyTorch's side of bench/predict.sh: the digits MLP (64-64-10: linear,
relu, linear) at batch 1, in eval mode under torch.inference_mode(), input already on the device,
the logits copied back to the host each call (a serving answer, which also waits for the work).

    python3 bench/predict_torch.py [--calls=20000] [--device=cuda]

Variants: eager (the module called op by op) and cuda-graph (the forward captured by hand with
torch.cuda.graph after a side-stream warm-up, then replayed; CUDA only). Time per call: the median
over 10 intervals. One JSON object per variant on stdout. TF32 off: strict FP32 like gtc.
"""
import json
import statistics
import sys
import time


def main(argv):
    calls, device = 20000, "cuda"
    for a in argv:
        if a.startswith("--calls="):
            calls = max(10, int(a.split("=", 1)[1]))
        elif a.startswith("--device="):
            device = a.split("=", 1)[1]
        else:
            sys.stderr.write(__doc__)
            return 2
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10)).to(device).eval()
    x = torch.randn(1, 64, device=device)

    def timed(fn):
        for _ in range(100):
            fn()
        per = calls // 10
        us = []
        for _ in range(10):
            t = time.perf_counter()
            for _ in range(per):
                out = fn()
            us.append((time.perf_counter() - t) * 1e6 / per)
        return statistics.median(us), out

    with torch.inference_mode():
        us, out = timed(lambda: model(x).cpu())
        print(json.dumps({"variant": "torch eager", "us_per_call": us, "logit0": float(out[0, 0])}), flush=True)
        if device == "cuda":
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                for _ in range(3):
                    model(x)
            torch.cuda.current_stream().wait_stream(s)
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                y = model(x)

            def replay():
                g.replay()
                return y.cpu()
            us, out = timed(replay)
            print(json.dumps({"variant": "torch cuda-graph", "us_per_call": us, "logit0": float(out[0, 0])}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
