#!/usr/bin/env python3
"""tests/onnx/test_onnx.py: ONNX import end to end (docs/onnx.md).

Builds small ONNX models with onnx.helper (nothing downloaded) that together use every supported
operator, runs each through ONNX Runtime (the reference, CPU) and through gtc: `gtc compile
--cpu-only`, the weights gtc wrote beside the model (OUT.npz), and the compiled class run from
PHP on gtc.so's CPU backend (tests/onnx/run_model.php). Float outputs must agree within 1e-5
relative (plus 1e-6 absolute for values near zero), integer outputs exactly. Then fine-tuning:
`--train loss=mse` and `loss=cross_entropy` on an imported MLP: the first SGD step against
float64 NumPy finite differences, then 20 steps (SGD, AdamW) that must lower the loss.

usage: test_onnx.py GTC GTC_SO [--keep DIR] [--only NAME] [--device cuda] [--export DIR]
--export DIR writes the models, their inputs and ONNX Runtime's outputs for gtc_run.py (the
GPU machine has no PyPI: export here, carry DIR, run `gtc_run.py GTC GTC_SO DIR --device cuda`).
Runs with the venv's python (make onnx: build/onnx-venv, onnx and onnxruntime from PyPI).
"""
import argparse
import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtc_run import compile_model, php, run_and_compare  # noqa: E402

RNG = np.random.default_rng(23)
I64_MAX = np.iinfo(np.int64).max
I64_MIN = np.iinfo(np.int64).min


def f32(*shape, lo=-1.0, hi=1.0):
    return RNG.uniform(lo, hi, shape).astype(np.float32)


class Case:
    """One model: nodes over graph inputs (data, fed at run time) and initializers."""

    def __init__(self, name, nodes, inputs, inits, outputs, opset=17, dims=None):
        self.name, self.nodes, self.inputs, self.inits, self.outputs, self.opset = name, nodes, inputs, inits, outputs, opset
        self.dims = dims or {}  # input name -> its declared shape with symbolic dimensions (gtc: --dim)

    def model(self):
        vi = [h.make_tensor_value_info(n, nh.helper.np_dtype_to_tensor_dtype(a.dtype), self.dims.get(n, a.shape))
              for n, a in self.inputs.items()]
        outs = [h.make_tensor_value_info(n, t, self.dims.get(n)) for n, t in self.outputs]
        # raw_data (from_array), or the typed fields (float_data, int64_data) for names ending in _typed
        inits = [h.make_tensor(n, nh.helper.np_dtype_to_tensor_dtype(a.dtype), a.shape, a.flatten().tolist())
                 if n.endswith("_typed") else nh.from_array(a, n) for n, a in self.inits.items()]
        g = h.make_graph(self.nodes, self.name, vi, outs, inits)
        m = h.make_model(g, opset_imports=[h.make_opsetid("", self.opset)])
        m.ir_version = 8
        # the outputs' shapes as ONNX's shape inference finds them (the checker wants them)
        im = onnx.shape_inference.infer_shapes(m)
        inferred = {v.name: v for v in list(im.graph.value_info) + list(im.graph.output)}
        for o in m.graph.output:
            if o.name in inferred and o.name not in self.dims:
                o.type.CopyFrom(inferred[o.name].type)
        onnx.checker.check_model(m)
        return m


def N(op, ins, outs, **kw):
    return h.make_node(op, ins, outs if isinstance(outs, list) else [outs], **kw)


def ints(name, vals):
    return N("Constant", [], name, value=nh.from_array(np.array(vals, dtype=np.int64), name))


def cases():
    F = T.FLOAT
    c = []
    c.append(Case("gemm", [N("Gemm", ["x", "w", "b"], "y", alpha=0.5, beta=2.0, transB=1),
                           N("Gemm", ["xt", "w2"], "y2", transA=1)],
                  {"x": f32(3, 4), "xt": f32(4, 3)}, {"w": f32(5, 4), "b": f32(5), "w2": f32(4, 6)}, [("y", F), ("y2", F)]))
    c.append(Case("matmul", [N("MatMul", ["x", "w_typed"], "y"), N("MatMul", ["x", "x2"], "y2"),
                             N("Gather", ["x2", "i_typed"], "g", axis=2)],
                  {"x": f32(2, 3, 4), "x2": f32(2, 4, 5)}, {"w_typed": f32(4, 5), "i_typed": np.array([4, 0, 1], np.int64)},
                  [("y", F), ("y2", F), ("g", F)]))
    c.append(Case("arith", [N("Add", ["a", "b"], "add"), N("Sub", ["a", "w"], "sub"), N("Mul", ["a", "b"], "mul"),
                            N("Div", ["a", "p"], "div"), N("Pow", ["p", "b"], "pow"), N("Pow", ["a", "two"], "sq")],
                  {"a": f32(2, 3, 4), "b": f32(3, 1), "p": f32(4, lo=0.5, hi=2.0)}, {"w": f32(4), "two": np.array(2.0, np.float32)},
                  [("add", F), ("sub", F), ("mul", F), ("div", F), ("pow", F), ("sq", F)]))
    c.append(Case("unary", [N("Sqrt", ["p"], "sqrt"), N("Exp", ["x"], "exp"), N("Log", ["p"], "log"), N("Relu", ["x"], "relu"),
                            N("Sigmoid", ["x"], "sigmoid"), N("Tanh", ["x"], "tanh"), N("Erf", ["x"], "erf")],
                  {"x": f32(3, 5, lo=-3, hi=3), "p": f32(3, 5, lo=0.1, hi=4)}, {},
                  [("sqrt", F), ("exp", F), ("log", F), ("relu", F), ("sigmoid", F), ("tanh", F), ("erf", F)]))
    c.append(Case("gelu", [N("Gelu", ["x"], "g"), N("Gelu", ["x"], "gt", approximate="tanh")],
                  {"x": f32(4, 6, lo=-4, hi=4)}, {}, [("g", F), ("gt", F)], opset=20))
    c.append(Case("softmax", [N("Softmax", ["x"], "s", axis=1), N("LogSoftmax", ["x"], "ls")],
                  {"x": f32(2, 5, 3, lo=-3, hi=3)}, {}, [("s", F), ("ls", F)], opset=13))
    c.append(Case("conv", [N("Conv", ["x", "w", "b"], "y", pads=[1, 1, 1, 1], strides=[2, 2]),
                           N("Conv", ["x", "wg"], "yg", group=3, dilations=[2, 1], kernel_shape=[2, 3]),
                           N("Conv", ["x", "w"], "ys", auto_pad="SAME_UPPER")],
                  {"x": f32(2, 3, 7, 8)}, {"w": f32(4, 3, 3, 3), "b": f32(4), "wg": f32(6, 1, 2, 3)},
                  [("y", F), ("yg", F), ("ys", F)]))
    c.append(Case("pool", [N("MaxPool", ["x"], "m", kernel_shape=[2, 2], strides=[2, 2]),
                           N("MaxPool", ["x"], "mp", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
                           N("AveragePool", ["x"], "a", kernel_shape=[3, 2], pads=[1, 0, 1, 1]),
                           N("AveragePool", ["x"], "ai", kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=1),
                           N("GlobalAveragePool", ["x"], "g")],
                  {"x": f32(2, 3, 6, 7)}, {}, [("m", F), ("mp", F), ("a", F), ("ai", F), ("g", F)]))
    c.append(Case("shapes", [N("Flatten", ["x"], "fl", axis=2), ints("shp", [0, -1, 2]), N("Reshape", ["x", "shp"], "rs"),
                             N("Transpose", ["x"], "tr", perm=[2, 0, 3, 1]), ints("ax0", [0, 3]),
                             N("Unsqueeze", ["x", "ax0"], "un"), N("Squeeze", ["un", "ax0"], "sq"),
                             N("Concat", ["x", "x2"], "cat", axis=1), N("Identity", ["x"], "id"),
                             N("Dropout", ["x"], "dr")],
                  {"x": f32(2, 3, 4, 2), "x2": f32(2, 1, 4, 2)}, {},
                  [("fl", F), ("rs", F), ("tr", F), ("un", F), ("sq", F), ("cat", F), ("id", F), ("dr", F)], opset=13))
    c.append(Case("gather", [ints("idx", [2, -1, 0]), N("Gather", ["x", "idx"], "g", axis=1),
                             N("Gather", ["x", "i"], "gd", axis=0), ints("one", 1), N("Gather", ["x", "one"], "g0", axis=2)],
                  {"x": f32(3, 4, 5), "i": np.array([[2, 0], [1, 1]], np.int64)}, {}, [("g", F), ("gd", F), ("g0", F)]))
    c.append(Case("slice", [ints("s0", [1, 0]), ints("e0", [I64_MAX, 3]), ints("a0", [1, 2]), N("Slice", ["x", "s0", "e0", "a0"], "a"),
                            ints("s1", [-1]), ints("e1", [I64_MIN]), ints("a1", [0]), ints("st1", [-2]),
                            N("Slice", ["x", "s1", "e1", "a1", "st1"], "b"),
                            ints("s2", [0, 1]), ints("e2", [2, I64_MAX]), N("Slice", ["x", "s2", "e2"], "c")],
                  {"x": f32(5, 4, 6)}, {}, [("a", F), ("b", F), ("c", F)]))
    c.append(Case("select", [N("Cast", ["x"], "xi", to=T.INT64), N("Cast", ["xi"], "xf", to=T.FLOAT),
                             N("Clip", ["x", "lo", "hi"], "cl"), N("Clip", ["x", "", "hi"], "ch"),
                             N("Greater", ["x", "y"], "gt"), N("Where", ["gt", "x", "y"], "wh")],
                  {"x": f32(3, 4, lo=-5, hi=5), "y": f32(3, 4, lo=-5, hi=5)},
                  {"lo": np.array(-1.5, np.float32), "hi": np.array(2.0, np.float32)},
                  [("xi", T.INT64), ("xf", F), ("cl", F), ("ch", F), ("wh", F)]))
    c.append(Case("reduce18", [ints("ax", [1]), N("ReduceMean", ["x", "ax"], "mean"), N("ReduceSum", ["x", "ax"], "sum", keepdims=0),
                               N("ReduceMax", ["x"], "max", keepdims=0), ints("ax2", [-1, 0]),
                               N("ReduceSum", ["x", "ax2"], "sum2")],
                  {"x": f32(3, 4, 5)}, {}, [("mean", F), ("sum", F), ("max", F), ("sum2", F)], opset=18))
    c.append(Case("reduce13", [N("ReduceMean", ["x"], "mean", axes=[0, 2], keepdims=0), N("ReduceMax", ["x"], "max", axes=[-1]),
                               ints("ax", [2]), N("ReduceSum", ["x", "ax"], "sum")],
                  {"x": f32(3, 4, 5)}, {}, [("mean", F), ("max", F), ("sum", F)], opset=13))
    c.append(Case("norm", [N("LayerNormalization", ["x", "g", "b"], "ln", epsilon=1e-3),
                           N("LayerNormalization", ["x", "g2"], "ln2", axis=1),
                           N("BatchNormalization", ["img", "s", "bb", "mu", "var"], "bn", epsilon=1e-4)],
                  {"x": f32(2, 3, 4), "img": f32(2, 3, 4, 4)},
                  {"g": f32(4), "b": f32(4), "g2": f32(3, 4), "s": f32(3), "bb": f32(3), "mu": f32(3),
                   "var": f32(3, lo=0.5, hi=2)}, [("ln", F), ("ln2", F), ("bn", F)]))
    c.append(Case("consts", [N("Constant", [], "k", value_float=0.25), N("Mul", ["x", "k"], "mk"),
                             N("Constant", [], "kv", value=nh.from_array(f32(4), "kv")), N("Add", ["x", "kv"], "ak"),
                             N("Constant", [], "big", value=nh.from_array(f32(5, 4), "big")), N("Sub", ["x", "big"], "sb"),
                             N("Shape", ["x"], "shape"), N("Shape", ["x"], "s1", start=1),
                             ints("i0", [0]), N("Gather", ["shape", "i0"], "n"), ints("m1", [-1]),
                             N("Concat", ["n", "m1"], "tgt", axis=0), N("Reshape", ["x3", "tgt"], "flat")],
                  {"x": f32(5, 4), "x3": f32(5, 2, 3)}, {},
                  [("mk", F), ("ak", F), ("sb", F), ("shape", T.INT64), ("s1", T.INT64), ("flat", F)]))
    c.append(Case("dynbatch", [N("Gemm", ["x", "w", "b"], "y", transB=1), N("Shape", ["x"], "s"), N("Gather", ["s", "zero"], "n"),
                               ints("m1", [-1]), N("Unsqueeze", ["n", "zero1"], "n1"), N("Concat", ["n1", "m1"], "t", axis=0),
                               N("Reshape", ["y", "t"], "yr")],
                  {"x": f32(3, 4)}, {"w": f32(5, 4), "b": f32(5), "zero": np.array(0, np.int64), "zero1": np.array([0], np.int64)},
                  [("yr", F)], dims={"x": ["batch", 4], "yr": ["batch", 5]}))
    c.append(Case("cnn", [N("Conv", ["x", "w1", "b1"], "c1", pads=[1, 1, 1, 1]), N("Relu", ["c1"], "r1"),
                          N("MaxPool", ["r1"], "p1", kernel_shape=[2, 2], strides=[2, 2]),
                          N("Conv", ["p1", "w2", "b2"], "c2", pads=[1, 1, 1, 1]), N("Relu", ["c2"], "r2"),
                          N("GlobalAveragePool", ["r2"], "gp"), N("Flatten", ["gp"], "fl"),
                          N("Gemm", ["fl", "w3", "b3"], "logits", transB=1), N("Softmax", ["logits"], "prob")],
                  {"x": f32(4, 1, 8, 8)}, {"w1": f32(8, 1, 3, 3), "b1": f32(8), "w2": f32(16, 8, 3, 3), "b2": f32(16),
                                           "w3": f32(10, 16), "b3": f32(10)}, [("prob", F)]))
    return c


def mlp_case():
    return Case("mlp", [N("Gemm", ["x", "w1", "b1"], "h"), N("Relu", ["h"], "r"), N("Gemm", ["r", "w2", "b2"], "y")],
                {"x": f32(16, 6)}, {"w1": f32(6, 12), "b1": f32(12, lo=0, hi=0.5), "w2": f32(12, 2), "b2": f32(2)}, [("y", T.FLOAT)])


def check_case(args, case, work):
    """ONNX Runtime's outputs, then gtc's (gtc_run.py) against them; --export keeps both."""
    path = os.path.join(work, case.name + ".onnx")
    onnx.save(case.model(), path)
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    names = [o for o, _ in case.outputs]
    ref = dict(zip(names, sess.run(names, case.inputs)))
    np.savez(os.path.join(work, case.name + "_in.npz"), **case.inputs)
    np.savez(os.path.join(work, case.name + "_ref.npz"), **ref)
    syms = {d: case.inputs[n].shape[i] for n, shp in case.dims.items() if n in case.inputs
            for i, d in enumerate(shp) if isinstance(d, str)}
    args_file = os.path.join(work, case.name + ".args")
    if syms:
        with open(args_file, "w") as f:
            f.write("--dim\n%s\n" % ",".join("%s=%d" % kv for kv in syms.items()))
    elif os.path.exists(args_file):
        os.unlink(args_file)
    if args.export:
        return []
    return run_and_compare(args, path, work, ref)


def mlp_np(p, x):
    """The MLP in float64 NumPy, for finite differences."""
    hdn = np.maximum(x @ p["w1"] + p["b1"], 0)
    return hdn @ p["w2"] + p["b2"]


def ce_np(z, labels):
    """Mean cross entropy of logits z [N, C] with class indices, float64."""
    m = z.max(axis=1, keepdims=True)
    lse = np.log(np.exp(z - m).sum(axis=1)) + m[:, 0]
    return np.mean(lse - z[np.arange(len(labels)), labels])


def check_training(args, work, loss_kind):
    """One SGD step of the imported MLP against float64 finite differences, then 20 steps (SGD
    for mse, AdamW for cross_entropy) that must lower the loss."""
    case = mlp_case()
    path = os.path.join(work, "mlp.onnx")
    onnx.save(case.model(), path)
    so = os.path.join(work, "mlp_%s.so" % loss_kind)
    lr = 0.05
    x64 = case.inputs["x"].astype(np.float64)
    if loss_kind == "mse":
        target = f32(16, 2)
        feed = {"x": case.inputs["x"], "target": target}
        loss = lambda q: np.mean((mlp_np(q, x64) - target.astype(np.float64)) ** 2)
    else:
        labels = RNG.integers(0, 2, 16).astype(np.int64)
        feed = {"x": case.inputs["x"], "labels": labels}
        loss = lambda q: ce_np(mlp_np(q, x64), labels)
    data = os.path.join(work, "mlp_%s_in.npz" % loss_kind)
    np.savez(data, **feed)
    out = os.path.join(work, "mlp_%s_out.npz" % loss_kind)
    cls = compile_model(args, path, so, ["--train", "loss=%s,optimizer=sgd,lr=%g" % (loss_kind, lr)])
    text = php(args, so, [cls, "--steps=1", out, data, so[:-3] + ".npz"])
    after = np.load(out)
    p64 = {k: v.astype(np.float64) for k, v in case.inits.items()}
    bad = []
    if abs(float(text.split()[0]) - loss(p64)) > 1e-5 * loss(p64):
        bad.append("loss %s, NumPy %.8g" % (text.split()[0], loss(p64)))
    eps = 1e-6
    for k, v in p64.items():
        fd = np.zeros_like(v)
        for i in np.ndindex(v.shape):
            q = {kk: vv.copy() for kk, vv in p64.items()}
            q[k][i] += eps
            up = loss(q)
            q[k][i] -= 2 * eps
            fd[i] = (up - loss(q)) / (2 * eps)
        g = (case.inits[k].astype(np.float64) - after[k].astype(np.float64)) / lr
        if not np.allclose(g, fd, rtol=2e-3, atol=2e-5):
            bad.append("%s: SGD step's gradient differs from finite differences (max %.3g)" % (k, np.max(np.abs(g - fd))))
    opt = "sgd" if loss_kind == "mse" else "adamw"
    so2 = os.path.join(work, "mlp_%s_%s.so" % (loss_kind, opt))
    cls = compile_model(args, path, so2, ["--train", "loss=%s,optimizer=%s,lr=%g" % (loss_kind, opt, 0.01 if opt == "adamw" else lr)])
    text = php(args, so2, [cls, "--steps=20", out, data, so2[:-3] + ".npz"])
    losses = [float(v) for v in text.split()]
    if not losses[-1] < 0.7 * losses[0]:
        bad.append("the loss did not fall over 20 %s steps: %s" % (opt, losses))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gtc")
    ap.add_argument("so")
    ap.add_argument("--keep")
    ap.add_argument("--only")
    ap.add_argument("--device")
    ap.add_argument("--export", help="write the models, inputs and ONNX Runtime outputs into DIR for gtc_run.py; run no gtc")
    args = ap.parse_args()
    if args.export:
        args.keep = args.export
    args.gtc = os.path.abspath(args.gtc)
    work = args.keep or tempfile.mkdtemp(prefix="gtc-onnx-")
    os.makedirs(work, exist_ok=True)
    fails = passes = 0
    for case in cases():
        if args.only and case.name != args.only:
            continue
        try:
            bad = check_case(args, case, work)
        except Exception as e:  # a failure to compile or run is this case's failure
            bad = [str(e)]
        print("%-10s %s" % (case.name, "ok" if not bad else "FAIL\n  " + "\n  ".join(bad)))
        fails += bool(bad)
        passes += not bad
    for kind in ("mse", "cross_entropy"):
        if args.export:
            break
        if args.only and args.only != "train_" + kind:
            continue
        try:
            bad = check_training(args, work, kind)
        except Exception as e:
            bad = [str(e)]
        print("%-10s %s" % ("train_" + kind, "ok" if not bad else "FAIL\n  " + "\n  ".join(bad)))
        fails += bool(bad)
        passes += not bad
    print("%d passed, %d failed" % (passes, fails))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
