#!/usr/bin/env python3
"""tests/e2e/ref_steps.py: the float64 reference of several steps of a graph, for the end-to-end
tests. Reads the initial inputs as INDIR/<input>.npy (written by the PHP side with toNpy), widens
every float32 input (and so the whole float computation) to float64, runs the graph STEPS times
with tests/ref/graph_ref.py, feeding each donated output back into its input, and writes
OUTDIR/<output>_<k>.npy for every output and step k = 1..STEPS.

usage: ref_steps.py GRAPH.json INDIR OUTDIR STEPS
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ref"))
import graph_ref  # noqa: E402  (re-executes under /usr/bin/python3 when NumPy is missing)
import numpy as np  # noqa: E402


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    path, indir, outdir, steps = argv[0], argv[1], argv[2], int(argv[3])
    g = graph_ref.load_graph(path)
    feeds = {}
    for inp in g["inputs"]:
        a = np.load(os.path.join(indir, inp["name"] + ".npy"))
        if inp["dtype"] == "float32":
            inp["dtype"] = "float64"
            a = a.astype(np.float64)
        feeds[inp["name"]] = a
    # output name -> the input it is fed back into
    back = {o: g["donate"][v] for o, v in g["outputs"].items() if v in g.get("donate", {})}
    os.makedirs(outdir, exist_ok=True)
    for k in range(1, steps + 1):
        outs, _ = graph_ref.run_graph(g, feeds)
        for name, a in outs.items():
            np.save(os.path.join(outdir, "%s_%d.npy" % (name, k)), np.asarray(a))
        for name, inp in back.items():
            feeds[inp] = outs[name]
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
