#!/usr/bin/env python3
"""bench/scale_graph.py: writes the training step of an MLP (ReLU hidden layers, softmax
cross-entropy, SGD) as a gtc graph: scale_graph.py IN-H1-H2-...-OUT BATCH > step.json.
bench/scale.sh compiles one per row of its table; bench/scale_torch.py builds the same model."""
import json
import sys


def graph(widths, batch):
    inputs = [{"name": "x", "dtype": "float32", "shape": [batch, widths[0]]},
              {"name": "y", "dtype": "float32", "shape": [batch, widths[-1]]}]
    nodes, params, h = [], [], "x"
    for i in range(len(widths) - 1):
        w, b = f"w{i + 1}", f"b{i + 1}"
        inputs += [{"name": w, "dtype": "float32", "shape": [widths[i], widths[i + 1]]},
                   {"name": b, "dtype": "float32", "shape": [widths[i + 1]]}]
        params += [w, b]
        nodes += [{"name": f"z{i + 1}", "op": "matmul", "inputs": [h, w]},
                  {"name": f"h{i + 1}", "op": "add", "inputs": [f"z{i + 1}", b]}]
        h = f"h{i + 1}"
        if i < len(widths) - 2:
            nodes.append({"name": f"a{i + 1}", "op": "relu", "inputs": [h]})
            h = f"a{i + 1}"
    inputs.append({"name": "lr", "dtype": "float32", "shape": []})
    nodes += [{"name": "ls", "op": "log_softmax", "inputs": [h], "axis": 1},
              {"name": "yl", "op": "mul", "inputs": ["y", "ls"]},
              {"name": "rows", "op": "sum", "inputs": ["yl"], "axes": [1]},
              {"name": "nll", "op": "mean", "inputs": ["rows"]},
              {"name": "loss", "op": "neg", "inputs": ["nll"]}]
    name = "scale_" + "_".join(map(str, widths)) + f"_b{batch}"
    return {"format": "gtc-graph", "version": 1, "name": name, "inputs": inputs, "nodes": nodes,
            "outputs": {"loss": "loss"},
            "train": {"loss": "loss", "params": params, "optimizer": {"type": "sgd", "lr": "lr"}}}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: scale_graph.py IN-H1-...-OUT BATCH")
    widths = [int(v) for v in sys.argv[1].split("-")]
    json.dump(graph(widths, int(sys.argv[2])), sys.stdout, indent=1)
    print()
