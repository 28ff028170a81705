#!/usr/bin/env python3
"""tests/onnx/make_bad_models.py: writes the malformed and unsupported ONNX models of the errors
suite (tests/errors/onnx_*/model.onnx, with their `cmd`) and the fuzz seed corpus
(tests/fuzz/corpus/onnx/). The files are committed; run this again (with the onnx venv's python)
only to change them, then `tests/errors/run.sh build/gtc --update` and review the diff.

usage: make_bad_models.py REPO_ROOT
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def model(nodes, inputs, outputs, inits=(), opset=17):
    g = h.make_graph(nodes, "bad", inputs, outputs, list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    return m


X = h.make_tensor_value_info("x", T.FLOAT, [2, 3])
Y = h.make_tensor_value_info("y", T.FLOAT, None)


def good():
    w = nh.from_array(np.arange(12, dtype=np.float32).reshape(3, 4), "w")
    return model([h.make_node("MatMul", ["x", "w"], ["m"]), h.make_node("Relu", ["m"], ["y"])], [X], [Y], [w])


def cases():
    c = {}
    raw = good().SerializeToString()
    c["onnx_truncated"] = raw[: len(raw) // 2]
    c["onnx_garbage"] = b"\x08\x08\x12\xff\xff\xff\xff\x0fnot a model"
    c["onnx_unsupported_op"] = model([h.make_node("Einsum", ["x", "x"], ["y"], equation="ij,ij->ij")], [X], [Y])
    c["onnx_unsupported_attr"] = model([h.make_node("MaxPool", ["x4"], ["y"], kernel_shape=[2, 2], ceil_mode=1)],
                                       [h.make_tensor_value_info("x4", T.FLOAT, [1, 1, 4, 4])], [Y])
    c["onnx_unknown_attr"] = model([h.make_node("Relu", ["x"], ["y"], alpha=0.1)], [X], [Y])
    c["onnx_dynamic_shape"] = model([h.make_node("Relu", ["x"], ["y"])],
                                    [h.make_tensor_value_info("x", T.FLOAT, ["batch", 3])], [Y])
    c["onnx_old_opset"] = model([h.make_node("Relu", ["x"], ["y"])], [X], [Y], opset=11)
    ext = nh.from_array(np.zeros((3, 4), np.float32), "w")
    ext.ClearField("raw_data")
    ext.data_location = T.EXTERNAL
    ext.external_data.add(key="location", value="../../../../etc/passwd")
    c["onnx_external_data"] = model([h.make_node("MatMul", ["x", "w"], ["y"])], [X], [Y], [ext])
    c["onnx_cycle"] = model([h.make_node("Add", ["x", "b"], ["a"]), h.make_node("Relu", ["a"], ["b"]),
                             h.make_node("Identity", ["b"], ["y"])], [X], [Y])
    huge = T()
    huge.name, huge.data_type = "w", T.FLOAT
    huge.dims.extend([1 << 40, 1 << 40])
    c["onnx_huge_dims"] = model([h.make_node("Add", ["x", "w"], ["y"])], [X], [Y], [huge])
    short = T()
    short.name, short.data_type = "w", T.FLOAT
    short.dims.extend([3, 4])
    short.raw_data = b"\0" * 20
    c["onnx_short_data"] = model([h.make_node("MatMul", ["x", "w"], ["y"])], [X], [Y], [short])
    s = T()
    s.name, s.data_type = "w", T.STRING
    s.dims.extend([1])
    s.string_data.append(b"hi")
    c["onnx_string_tensor"] = model([h.make_node("Add", ["x", "w"], ["y"])], [X], [Y], [s])
    c["onnx_float16_input"] = model([h.make_node("Relu", ["x"], ["y"])], [h.make_tensor_value_info("x", T.FLOAT16, [2])], [Y])
    c["onnx_undefined_output"] = model([h.make_node("Relu", ["x"], ["r"])], [X], [Y])
    c["onnx_dynamic_slice"] = model([h.make_node("Slice", ["x", "s", "e"], ["y"])],
                                    [X, h.make_tensor_value_info("s", T.INT64, [1]), h.make_tensor_value_info("e", T.INT64, [1])],
                                    [Y])
    c["onnx_other_domain"] = model([h.make_node("FusedGemm", ["x", "x"], ["y"], domain="com.microsoft")], [X], [Y])
    c["onnx_shape_mismatch"] = model([h.make_node("MatMul", ["x", "x"], ["y"])], [X], [Y])
    c["onnx_empty"] = b""
    return c


def main():
    root = sys.argv[1]
    for name, m in cases().items():
        d = os.path.join(root, "tests", "errors", name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(m if isinstance(m, bytes) else m.SerializeToString())
        with open(os.path.join(d, "cmd"), "w") as f:
            f.write("check model.onnx\n")
    # --train's own errors
    no_params = model([h.make_node("Relu", ["x"], ["y"])], [X], [Y])
    for name, m, spec in (("onnx_train_bad_loss", good(), "loss=hinge"), ("onnx_train_unknown_output", good(), "loss=mse,output=z"),
                          ("onnx_train_no_params", no_params, "loss=mse"), ("onnx_train_bad_lr", good(), "loss=mse,lr=-1"),
                          ("onnx_train_bad_item", good(), "loss=mse,momentum"),
                          ("onnx_train_bad_option", good(), "loss=mse,optimizer=sgd,beta1=0.9")):
        d = os.path.join(root, "tests", "errors", name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(m.SerializeToString())
        with open(os.path.join(d, "cmd"), "w") as f:
            f.write("check --train %s model.onnx\n" % spec)
    # --dim's errors
    dyn = cases()["onnx_dynamic_shape"]
    for name, spec in (("onnx_dim_negative", "batch=-1"), ("onnx_dim_not_a_pair", "batch"), ("onnx_dim_other_name", "seq=4")):
        d = os.path.join(root, "tests", "errors", name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(dyn.SerializeToString())
        with open(os.path.join(d, "cmd"), "w") as f:
            f.write("check --dim %s model.onnx\n" % spec)
    corpus = os.path.join(root, "tests", "fuzz", "corpus", "onnx")
    os.makedirs(corpus, exist_ok=True)
    with open(os.path.join(corpus, "mlp.onnx"), "wb") as f:
        f.write(good().SerializeToString())
    conv = model([h.make_node("Conv", ["x4", "k"], ["c"], pads=[1, 1, 1, 1]), h.make_node("MaxPool", ["c"], ["p"], kernel_shape=[2, 2]),
                  h.make_node("Shape", ["p"], ["s"]), h.make_node("Gather", ["s", "i"], ["n"]),
                  h.make_node("Concat", ["n", "m1"], ["t"], axis=0), h.make_node("Reshape", ["p", "t"], ["y"])],
                 [h.make_tensor_value_info("x4", T.FLOAT, [1, 2, 4, 4])], [Y],
                 [nh.from_array(np.ones((3, 2, 3, 3), np.float32), "k"), nh.from_array(np.array([0], np.int64), "i"),
                  nh.from_array(np.array([-1], np.int64), "m1")])
    with open(os.path.join(corpus, "cnn.onnx"), "wb") as f:
        f.write(conv.SerializeToString())
    sl = model([h.make_node("Slice", ["x", "s", "e"], ["a"]), h.make_node("Softmax", ["a"], ["b"]),
                h.make_node("LayerNormalization", ["b", "g"], ["y"])], [X], [Y],
               [nh.from_array(np.array([1], np.int64), "s"), nh.from_array(np.array([np.iinfo(np.int64).max], np.int64), "e"),
                nh.from_array(np.ones(3, np.float32), "g")])
    with open(os.path.join(corpus, "slice_norm.onnx"), "wb") as f:
        f.write(sl.SerializeToString())


if __name__ == "__main__":
    main()
