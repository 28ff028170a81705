#!/usr/bin/env python3
"""tests/ref/graph_ref.py: a NumPy reference interpreter of the gtc v1 graph format.

Usage:
  graph_ref.py GRAPH.json [--seed N] [--inputs IN.npz] [--out OUT.npz]
      Validate the graph, run it (on the arrays in IN.npz, or on seeded random inputs), print a
      summary of each output, and optionally save the outputs to OUT.npz.
  graph_ref.py GRAPH.json [GRAPH.json ...] --check-grad [--seed N]
      For MLP training-step graphs (inputs x, y, w1, b1, w2, b2, lr; outputs loss, w1, b1, w2, b2)
      run the graph on seeded random inputs and check every parameter update against an
      independent float64 NumPy computation of the softmax cross-entropy gradient:
      p_next == p - lr * clip(dL/dp, -5, 5). Prints "N passed, M failed"; exits 1 on failure.

Semantics follow docs/graph-format.md (and /work/shared/DESIGN.md): NumPy broadcasting, dtype
promotion bool < int32 < int64 < float32 < float64 with int+float giving that float, weak
numeric constants that take the tensor operand's dtype, integer div and mean giving float32,
comparisons giving bool, argmax/argmin returning int64, round half-to-even. Arithmetic runs in
each op's result dtype (float32 graphs compute in float32).
"""
import argparse
import json
import os
import re
import sys

try:
    import numpy as np
except ImportError:  # a pyenv/venv python without NumPy: retry with the system one
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") \
            and not os.environ.get("GRAPH_REF_REEXEC"):
        os.environ["GRAPH_REF_REEXEC"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.stderr.write("graph_ref.py: NumPy is required (apt-get install python3-numpy)\n")
    sys.exit(2)

# ---------------------------------------------------------------------------------------------
# dtypes and promotion

DTYPES = {"bool": np.bool_, "int32": np.int32, "int64": np.int64,
          "float32": np.float32, "float64": np.float64}
RANK = {"bool": 0, "int32": 1, "int64": 2, "float32": 3, "float64": 4}
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class GraphError(Exception):
    pass


def dt_name(a):
    for k, v in DTYPES.items():
        if a.dtype == np.dtype(v):
            return k
    raise GraphError("unsupported dtype %s" % a.dtype)


def is_float(dt):
    return dt in ("float32", "float64")


def is_int(dt):
    return dt in ("int32", "int64")


def promote2(a, b):
    """Promotion of two tensor dtypes: the higher rank wins (int with float gives the float)."""
    return a if RANK[a] >= RANK[b] else b


def const_kind(c):
    if isinstance(c, bool):
        return "bool"
    if isinstance(c, int):
        return "int"
    return "float"


def promote(operands):
    """Result dtype of an elementwise op over operands (np arrays or Python number constants).
    Constants are weak: they take the tensors' dtype unless their kind is higher (a float
    constant with integer tensors gives float32, an int constant with bool tensors int64)."""
    tensors = [dt_name(o) for o in operands if isinstance(o, np.ndarray)]
    consts = [const_kind(o) for o in operands if not isinstance(o, np.ndarray)]
    if tensors:
        dt = tensors[0]
        for t in tensors[1:]:
            dt = promote2(dt, t)
    else:
        dt = None
    for k in consts:
        if k == "float" and (dt is None or not is_float(dt)):
            dt = "float32"
        elif k == "int" and (dt is None or dt == "bool"):
            dt = "int64"
        elif k == "bool" and dt is None:
            dt = "bool"
    return dt


def as_dtype(o, dt):
    return np.asarray(o).astype(DTYPES[dt], copy=False)


# ---------------------------------------------------------------------------------------------
# ops

def _sigmoid(a):
    return (1 / (1 + np.exp(-a))).astype(a.dtype)


def _erf(a):
    import math
    return np.vectorize(math.erf, otypes=[np.float64])(a.astype(np.float64)).astype(a.dtype)


UNARY = {
    "neg": np.negative, "abs": np.abs, "exp": np.exp, "log": np.log, "sqrt": np.sqrt,
    "rsqrt": lambda a: (1 / np.sqrt(a)).astype(a.dtype), "sin": np.sin, "cos": np.cos,
    "tan": np.tan, "tanh": np.tanh, "sigmoid": _sigmoid, "erf": _erf,
    "relu": lambda a: np.maximum(a, np.zeros((), a.dtype)),
    "floor": np.floor, "ceil": np.ceil, "round": np.round, "sign": np.sign,
    "stop_gradient": lambda a: a.copy(),
}
UNARY_FLOAT = {"exp", "log", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "sigmoid", "erf"}
BINARY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "pow": np.power,
    "maximum": np.maximum, "minimum": np.minimum,
}
COMPARE = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
           "gt": np.greater, "ge": np.greater_equal}
REDUCE = {"sum", "mean", "max", "min", "prod", "argmax", "argmin"}
VIEW_ATTRS = {"reshape": {"shape"}, "transpose": {"perm"}, "broadcast_to": {"shape"},
              "slice": {"starts", "ends", "steps", "axes"}}

ARITY = {}
ATTRS = {}
for _n in UNARY:
    ARITY[_n], ATTRS[_n] = 1, set()
for _n in list(BINARY) + list(COMPARE):
    ARITY[_n], ATTRS[_n] = 2, set()
for _n in REDUCE:
    ARITY[_n], ATTRS[_n] = 1, {"axes", "keepdims"}
for _n, _a in VIEW_ATTRS.items():
    ARITY[_n], ATTRS[_n] = 1, _a
ARITY.update({"where": 3, "clamp": 3, "cast": 1, "matmul": 2, "full": 0, "one_hot": 1,
              "gather": 2, "scatter_add": 3, "pad": 1, "concat": -1, "dropout": 2,
              "softmax": 1, "log_softmax": 1, "layer_norm": 3, "gelu": 1, "cross_entropy": 2})
ATTRS.update({"where": set(), "clamp": set(), "cast": {"dtype"}, "matmul": set(),
              "full": {"shape", "value", "dtype"}, "one_hot": {"depth", "dtype"},
              "gather": {"axis"}, "scatter_add": {"axis"}, "concat": {"axis"}, "pad": {"pads", "value"},
              "dropout": {"ratio"}, "softmax": {"axis"}, "log_softmax": {"axis"},
              "layer_norm": {"axis", "epsilon"}, "gelu": {"approximate"}, "cross_entropy": {"axis"}})
REQUIRED = {"transpose": {"perm"}, "reshape": {"shape"}, "broadcast_to": {"shape"},
            "slice": {"starts", "ends"}, "cast": {"dtype"}, "full": {"shape", "value", "dtype"},
            "one_hot": {"depth"}, "pad": {"pads"}, "dropout": {"ratio"}}


def norm_axes(axes, rank, where):
    out = []
    for ax in axes:
        if not isinstance(ax, int) or isinstance(ax, bool) or not -rank <= ax < rank:
            raise GraphError("%s: axis %r out of range for rank %d" % (where, ax, rank))
        ax = ax % rank if rank else 0
        if ax in out:
            raise GraphError("%s: axis %d repeated" % (where, ax))
        out.append(ax)
    return tuple(sorted(out))


def op_reduce(op, a, node, where):
    axes = node.get("axes")
    keep = bool(node.get("keepdims", False))
    ax = tuple(range(a.ndim)) if axes is None else norm_axes(axes, a.ndim, where)
    dt = dt_name(a)
    if op in ("argmax", "argmin"):
        if axes is None or len(ax) != 1:
            raise GraphError("%s: %s takes exactly one axis in axes" % (where, op))
        f = np.argmax if op == "argmax" else np.argmin
        r = f(a, axis=ax[0])
        if keep:
            r = np.expand_dims(r, ax[0])
        return np.asarray(r, dtype=np.int64)
    if op in ("sum", "prod"):
        acc = "int64" if not is_float(dt) else dt
        f = np.sum if op == "sum" else np.prod
        return np.asarray(f(a.astype(DTYPES[acc]), axis=ax, keepdims=keep), dtype=DTYPES[acc])
    if op == "mean":
        out = dt if is_float(dt) else "float32"
        return np.asarray(np.mean(a.astype(DTYPES[out]), axis=ax, keepdims=keep,
                                  dtype=DTYPES[out]), dtype=DTYPES[out])
    f = np.max if op == "max" else np.min  # NumPy max/min propagate NaN
    if a.size == 0:
        raise GraphError("%s: %s of an empty tensor" % (where, op))
    return np.asarray(f(a, axis=ax, keepdims=keep), dtype=a.dtype)


def op_slice(a, node, where):
    starts, ends = node["starts"], node["ends"]
    axes = node.get("axes", list(range(len(starts))))
    steps = node.get("steps", [1] * len(starts))
    if not (len(starts) == len(ends) == len(axes) == len(steps)):
        raise GraphError("%s: starts, ends, axes and steps differ in length" % where)
    norm_axes(axes, a.ndim, where)  # range and repeat checks
    idx = [slice(None)] * a.ndim
    for s, e, ax, st in zip(starts, ends, axes, steps):
        if st == 0:
            raise GraphError("%s: slice step 0" % where)
        idx[ax % a.ndim] = slice(s, e, st)  # Python slicing clamps as ONNX Slice does
    return a[tuple(idx)]


def op_reshape(a, shape, where):
    if list(shape).count(-1) > 1:
        raise GraphError("%s: more than one -1 in reshape" % where)
    try:
        return a.reshape(shape)
    except ValueError:
        raise GraphError("%s: cannot reshape %s to %s" % (where, list(a.shape), shape))


_M32 = np.uint64(0xffffffff)


def philox4x32_10(c, k0, k1):
    """Random123's philox4x32_10 on uint64 arrays holding 32-bit words (the paper's round)."""
    c = [np.asarray(w, dtype=np.uint64) for w in c]
    k0, k1 = np.uint64(k0), np.uint64(k1)
    for r in range(10):
        if r:
            k0, k1 = (k0 + np.uint64(0x9E3779B9)) & _M32, (k1 + np.uint64(0xBB67AE85)) & _M32
        p0, p1 = np.uint64(0xD2511F53) * c[0], np.uint64(0xCD9E8D57) * c[2]
        c = [((p1 >> np.uint64(32)) ^ c[1] ^ k0) & _M32, p1 & _M32, ((p0 >> np.uint64(32)) ^ c[3] ^ k1) & _M32, p0 & _M32]
    return c


def op_composite(op, args, node, where):
    """The composite ops (docs/graph-format.md 7.10) written directly in NumPy."""
    def fl(a):
        a = np.asarray(a)
        return a if is_float(dt_name(a)) else a.astype(np.float32)
    def axis(rank, default):
        ax = node.get("axis", default)
        if not -rank <= ax < rank:
            raise GraphError("%s: axis %d is out of range for rank %d" % (where, ax, rank))
        return ax % rank
    def log_softmax(x, ax):
        s = x - x.max(axis=ax, keepdims=True)
        return s - np.log(np.exp(s).sum(axis=ax, keepdims=True))
    x = fl(args[0])
    if op in ("softmax", "log_softmax"):
        ax = axis(x.ndim, -1)
        if op == "log_softmax":
            return log_softmax(x, ax)
        e = np.exp(x - x.max(axis=ax, keepdims=True))
        return e / e.sum(axis=ax, keepdims=True)
    if op == "gelu":
        if node.get("approximate", "none") == "tanh":
            return (0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))).astype(x.dtype)
        return (0.5 * x * (1 + _erf(x / np.sqrt(2)))).astype(x.dtype)
    if op == "layer_norm":
        axes = tuple(range(axis(x.ndim, -1), x.ndim))
        mu = x.mean(axis=axes, keepdims=True)
        var = ((x - mu) ** 2).mean(axis=axes, keepdims=True)
        y = (x - mu) / np.sqrt(var + node.get("epsilon", 1e-5))
        return np.asarray(y * args[1] + args[2])
    if op == "cross_entropy":
        ax, t = axis(x.ndim, 1), np.asarray(args[1])
        lp = log_softmax(x, ax)
        if is_int(dt_name(t)):
            t = (np.expand_dims(t, ax) == np.arange(x.shape[ax]).reshape([-1 if i == ax else 1 for i in range(x.ndim)]))
        return np.asarray(-(t.astype(lp.dtype) * lp).sum(axis=ax).mean(), dtype=lp.dtype)
    raise GraphError("%s: unknown composite %r" % (where, op))


def eval_node(node, args, where):
    op = node["op"]
    if op in UNARY:
        a = args[0]
        dt = dt_name(a)
        if op in UNARY_FLOAT and not is_float(dt):
            a = a.astype(np.float32)
        return np.asarray(UNARY[op](a))
    if op in BINARY or op in COMPARE:
        dt = promote(args)
        if op == "div" and not is_float(dt):
            dt = "float32"
        x, y = (as_dtype(o, dt) for o in args)
        try:
            if op in COMPARE:
                return np.asarray(COMPARE[op](x, y))
            with np.errstate(all="ignore"):
                return np.asarray(BINARY[op](x, y), dtype=DTYPES[dt])
        except ValueError:
            raise GraphError("%s: shapes %s and %s do not broadcast"
                             % (where, list(x.shape), list(y.shape)))
    if op == "where":
        c = np.asarray(args[0])
        if c.dtype != np.bool_:
            raise GraphError("%s: where condition must be bool, got %s" % (where, c.dtype))
        dt = promote(args[1:])
        return np.asarray(np.where(c, as_dtype(args[1], dt), as_dtype(args[2], dt)))
    if op == "clamp":
        dt = promote(args)
        x, lo, hi = (as_dtype(o, dt) for o in args)
        return np.asarray(np.minimum(np.maximum(x, lo), hi), dtype=DTYPES[dt])
    if op == "cast":
        return np.asarray(args[0]).astype(DTYPES[node["dtype"]])
    if op in REDUCE:
        return op_reduce(op, args[0], node, where)
    if op == "matmul":
        a, b = args
        dt = promote(args)
        a, b = as_dtype(a, dt), as_dtype(b, dt)
        if a.ndim == 0 or b.ndim == 0:
            raise GraphError("%s: matmul of a scalar" % where)
        try:
            return np.asarray(np.matmul(a, b))
        except ValueError:
            raise GraphError("%s: matmul shapes %s and %s do not match"
                             % (where, list(a.shape), list(b.shape)))
    if op == "transpose":
        perm = node["perm"]
        if sorted(perm) != list(range(args[0].ndim)):
            raise GraphError("%s: perm %s is not a permutation of rank %d"
                             % (where, perm, args[0].ndim))
        return np.transpose(args[0], perm)
    if op == "reshape":
        return op_reshape(args[0], node["shape"], where)
    if op == "broadcast_to":
        try:
            return np.broadcast_to(args[0], node["shape"])
        except ValueError:
            raise GraphError("%s: cannot broadcast %s to %s"
                             % (where, list(args[0].shape), node["shape"]))
    if op == "slice":
        return op_slice(args[0], node, where)
    if op == "full":
        return np.full(node["shape"], node["value"], dtype=DTYPES[node["dtype"]])
    if op == "concat":  # 1 to 16 operands, promoted (docs/graph-format.md 7.8)
        dt = promote(args)
        ax = node.get("axis", 0)
        try:
            return np.concatenate([as_dtype(a, dt) for a in args], axis=ax)
        except (ValueError, IndexError) as e:  # shapes that do not match, an axis out of range
            raise GraphError("%s: %s" % (where, e))
    if op == "pad":  # constant mode, pads = all begins then all ends (ONNX)
        x, pads = np.asarray(args[0]), node["pads"]
        if len(pads) != 2 * x.ndim or min(pads, default=0) < 0:
            raise GraphError("%s: pads must be 2*rank non-negative integers" % where)
        widths = [(pads[i], pads[x.ndim + i]) for i in range(x.ndim)]
        return np.pad(x, widths, constant_values=np.asarray(node.get("value", 0)).astype(x.dtype))
    if op in ("gather", "scatter_add"):  # ONNX Gather and its adjoint (np.take, np.add.at)
        data, idx = np.asarray(args[0]), np.asarray(args[1])
        if not is_int(dt_name(idx)):
            raise GraphError("%s: indices must be int32 or int64" % where)
        ax = node.get("axis", 0)
        if not -data.ndim <= ax < data.ndim:
            raise GraphError("%s: axis %d is out of range for rank %d" % (where, ax, data.ndim))
        ax %= data.ndim
        n = data.shape[ax]
        if idx.size and (idx.min() < -n or idx.max() >= n):
            raise GraphError("%s: an index is out of range for axis %d of size %d" % (where, ax, n))
        idx = np.where(idx < 0, idx + n, idx)
        if op == "gather":
            return np.take(data, idx, axis=ax)
        out = data.copy()
        np.add.at(out, (slice(None),) * ax + (idx,), as_dtype(args[2], dt_name(data)))
        return out
    if op in ("softmax", "log_softmax", "layer_norm", "gelu", "cross_entropy"):
        return op_composite(op, args, node, where)
    if op == "dropout":  # Philox4x32-10 of (linear index, seed); kept when u >= ratio
        x, seed, ratio = np.asarray(args[0]), int(np.asarray(args[1])), node["ratio"]
        i = np.arange(x.size, dtype=np.uint64)
        r = philox4x32_10([i & _M32, i >> np.uint64(32), i * np.uint64(0), i * np.uint64(0)],
                          seed & 0xffffffff, (seed >> 32) & 0xffffffff)[0]
        keep = ((r >> np.uint64(8)).astype(np.float64) * 2.0 ** -24 >= ratio).reshape(x.shape)
        return np.where(keep, x * x.dtype.type(1 / (1 - ratio)), x.dtype.type(0))
    if op == "one_hot":
        a = args[0]
        depth = node["depth"]
        r = a[..., None] == np.arange(depth)
        return r.astype(DTYPES[node.get("dtype", "float32")])
    raise GraphError("%s: unknown op %r" % (where, op))


# ---------------------------------------------------------------------------------------------
# graph loading and validation

TOP_KEYS = {"format", "version", "name", "inputs", "nodes", "outputs", "donate", "train"}


def load_graph(path):
    with open(path) as f:
        g = json.load(f)
    if not isinstance(g, dict):
        raise GraphError("%s: top level is not an object" % path)
    for k in g:
        if k not in TOP_KEYS:
            raise GraphError("%s: unknown top-level key %r" % (path, k))
    if g.get("format") != "gtc-graph" or g.get("version") != 1:
        raise GraphError("%s: not a gtc-graph version 1" % path)
    if not isinstance(g.get("name"), str) or not IDENT.match(g["name"]):
        raise GraphError("%s: name must be an identifier" % path)
    defined = {}
    for i, inp in enumerate(g.get("inputs", [])):
        w = "%s: inputs[%d]" % (path, i)
        if set(inp) != {"name", "dtype", "shape"}:
            raise GraphError("%s: keys must be name, dtype, shape" % w)
        if not IDENT.match(inp["name"]) or inp["name"] in defined:
            raise GraphError("%s: bad or duplicate name %r" % (w, inp["name"]))
        if inp["dtype"] not in DTYPES:
            raise GraphError("%s: unknown dtype %r" % (w, inp["dtype"]))
        defined[inp["name"]] = "input"
    for i, node in enumerate(g.get("nodes", [])):
        w = "%s: nodes[%d]" % (path, i)
        name, op = node.get("name"), node.get("op")
        if not isinstance(name, str) or not IDENT.match(name) or name in defined:
            raise GraphError("%s: bad or duplicate name %r" % (w, name))
        w += " (%s)" % name
        if op not in ARITY:
            raise GraphError("%s: unknown op %r" % (w, op))
        extra = set(node) - {"name", "op", "inputs"} - ATTRS[op]
        if extra:
            raise GraphError("%s: op %s takes no attribute(s) %s" % (w, op, sorted(extra)))
        missing = REQUIRED.get(op, set()) - set(node)
        if missing:
            raise GraphError("%s: op %s needs %s" % (w, op, sorted(missing)))
        ins = node.get("inputs", [])
        if ARITY[op] < 0 and not 1 <= len(ins) <= 16:
            raise GraphError("%s: op %s takes 1 to 16 inputs, got %d" % (w, op, len(ins)))
        if ARITY[op] >= 0 and len(ins) != ARITY[op]:
            raise GraphError("%s: op %s takes %d inputs, got %d" % (w, op, ARITY[op], len(ins)))
        for x in ins:
            if isinstance(x, str):
                if x not in defined:
                    raise GraphError("%s: input %r is not defined before use" % (w, x))
            elif isinstance(x, bool) or not isinstance(x, (int, float)):
                raise GraphError("%s: input %r is neither a name nor a number" % (w, x))
        if "keepdims" in node and not isinstance(node["keepdims"], bool):
            raise GraphError("%s: keepdims must be a bool" % w)
        if "axes" in node and not isinstance(node["axes"], list):
            raise GraphError("%s: axes must be a list" % w)
        defined[name] = op
    outs = g.get("outputs", {})
    if not isinstance(outs, dict) or not outs:
        raise GraphError("%s: outputs must be a non-empty object" % path)
    for k, v in outs.items():
        if not IDENT.match(k) or v not in defined:
            raise GraphError("%s: outputs[%r] -> %r is not a defined value" % (path, k, v))
    for k, v in g.get("donate", {}).items():
        if k not in outs.values():
            raise GraphError("%s: donate[%r] does not name an output value" % (path, k))
        if defined.get(v) != "input":
            raise GraphError("%s: donate[%r] -> %r is not an input" % (path, k, v))
    return g


def run_graph(g, feeds):
    """Evaluate every node in order; returns (outputs dict, all values dict)."""
    env = {}
    for inp in g["inputs"]:
        name = inp["name"]
        if name not in feeds:
            raise GraphError("missing input %r" % name)
        a = np.asarray(feeds[name])
        if list(a.shape) != list(inp["shape"]) or dt_name(a) != inp["dtype"]:
            raise GraphError("input %r: got %s %s, graph declares %s %s"
                             % (name, dt_name(a), list(a.shape), inp["dtype"], inp["shape"]))
        env[name] = a
    for node in g["nodes"]:
        args = [env[x] if isinstance(x, str) else x for x in node["inputs"]]
        where = "node %s (%s)" % (node["name"], node["op"])
        env[node["name"]] = eval_node(node, args, where)
    outs = {k: env[v] for k, v in g["outputs"].items()}
    for k, v in g.get("donate", {}).items():
        a, b = env[k], env[v]
        if a.shape != b.shape or a.dtype != b.dtype:
            raise GraphError("donate %s -> %s: %s %s vs %s %s" % (
                k, v, dt_name(a), list(a.shape), dt_name(b), list(b.shape)))
    return outs, env


def random_inputs(g, rng):
    feeds = {}
    for inp in g["inputs"]:
        dt, shape = inp["dtype"], inp["shape"]
        if is_float(dt):
            feeds[inp["name"]] = rng.standard_normal(shape).astype(DTYPES[dt])
        elif dt == "bool":
            feeds[inp["name"]] = rng.random(shape) < 0.5
        else:
            feeds[inp["name"]] = rng.integers(-8, 8, shape).astype(DTYPES[dt])
    return feeds


# ---------------------------------------------------------------------------------------------
# --check-grad: the MLP training step against an independent float64 computation

PARAMS = ("w1", "b1", "w2", "b2")
CLIP = 5.0


def mlp_loss64(x, y, P):
    h1 = x @ P["w1"] + P["b1"]
    a1 = np.maximum(h1, 0)
    lg = a1 @ P["w2"] + P["b2"]
    m = lg.max(axis=1, keepdims=True)
    lse = np.log(np.exp(lg - m).sum(axis=1, keepdims=True)) + m
    return float(-np.mean(np.sum(y * (lg - lse), axis=1)))


def mlp_grad64(x, y, P):
    """Loss and analytic gradients of mean softmax cross-entropy of relu MLP, in float64."""
    B = x.shape[0]
    h1 = x @ P["w1"] + P["b1"]
    a1 = np.maximum(h1, 0)
    lg = a1 @ P["w2"] + P["b2"]
    lg = lg - lg.max(axis=1, keepdims=True)
    e = np.exp(lg)
    p = e / e.sum(axis=1, keepdims=True)
    loss = float(-np.mean(np.sum(y * (lg - np.log(e.sum(axis=1, keepdims=True))), axis=1)))
    d = (p - y) / B
    G = {"w2": a1.T @ d, "b2": d.sum(axis=0)}
    da1 = d @ P["w2"].T
    dh = da1 * (h1 > 0)
    G["w1"] = x.T @ dh
    G["b1"] = dh.sum(axis=0)
    # sums of |terms| of each gradient entry: the scale of its float32 rounding error
    ad, adh = np.abs(d), np.abs(dh)
    M = {"w2": np.abs(a1).T @ ad, "b2": ad.sum(axis=0), "w1": np.abs(x).T @ adh, "b1": adh.sum(axis=0)}
    return loss, G, M, h1, da1


class Tally:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, label, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print("  %s %s%s" % ("PASS" if ok else "FAIL", label, ("  " + detail) if detail else ""))


def mlp_inputs(g, rng, xscale, w2scale):
    shapes = {i["name"]: i["shape"] for i in g["inputs"]}
    B, D = shapes["x"]
    H, C = shapes["w2"]
    x = rng.standard_normal((B, D)) * xscale
    y = np.eye(C)[rng.integers(0, C, B)]
    feeds = {"x": x, "y": y,
             "w1": rng.standard_normal((D, H)) * np.sqrt(2.0 / D),
             "b1": rng.standard_normal(H) * 0.1,
             "w2": rng.standard_normal((H, C)) * np.sqrt(1.0 / H) * w2scale,
             "b2": rng.standard_normal(C) * 0.1,
             "lr": np.asarray(0.05)}
    return {k: np.asarray(v, dtype=np.float32) for k, v in feeds.items()}


def check_grad(path, seed, t):
    print("%s:" % path)
    g = load_graph(path)
    names = {i["name"] for i in g["inputs"]}
    need = {"x", "y", "lr"} | set(PARAMS)
    t.check(need <= names, "inputs are x, y, w1, b1, w2, b2, lr", "" if need <= names else
            "missing %s" % sorted(need - names))
    if not need <= names:
        return
    t.check(set(g["outputs"]) == {"loss"} | set(PARAMS), "outputs are loss, w1, b1, w2, b2")
    donate = g.get("donate", {})
    t.check(all(donate.get(g["outputs"].get(p)) == p for p in PARAMS),
            "every updated parameter is donated to its input")
    # Two cases: ordinary scales (no gradient clipped) and large x and w2, where the clamps of
    # dw1, db1 and dw2 engage (|db2| <= 1 always: its clamp never does).
    for label, xscale, w2scale in (("unit scale", 1.0, 1.0), ("x*40 w2*100, clipping", 40.0, 100.0)):
        rng = np.random.default_rng(seed)
        feeds = mlp_inputs(g, rng, xscale, w2scale)
        outs, env = run_graph(g, feeds)
        P64 = {p: feeds[p].astype(np.float64) for p in PARAMS}
        x64, y64 = feeds["x"].astype(np.float64), feeds["y"].astype(np.float64)
        lr = float(feeds["lr"])
        loss64, G, M, h1, da1 = mlp_grad64(x64, y64, P64)
        print(" case %s (seed %d, loss %.6g):" % (label, seed, loss64))
        lo = outs["loss"]
        t.check(lo.shape == () and lo.dtype == np.float32 and
                abs(float(lo) - loss64) <= 1e-5 * max(1.0, abs(loss64)),
                "loss float32 [] matches float64", "graph %.8g ref %.8g" % (float(lo), loss64))
        # The relu derivative jumps at h1 == 0: where |h1| is within float32 rounding of the
        # dot product, the graph's mask may legitimately differ from the float64 one. Such
        # (sample, unit) pairs add their whole contribution to the tolerance of dw1 and db1
        # (clip is 1-Lipschitz, so the slack carries through it).
        amb = np.abs(h1) < 1e-5 * (np.abs(x64) @ np.abs(P64["w1"]) + np.abs(P64["b1"]))
        ad = np.abs(da1) * amb
        slack = {"w1": 1.25 * lr * (np.abs(x64).T @ ad), "b1": 1.25 * lr * ad.sum(axis=0),
                 "w2": 0.0, "b2": 0.0}
        nclip = {}
        for p in PARAMS:
            gc = np.clip(G[p], -CLIP, CLIP)
            nclip[p] = int(np.sum(np.abs(G[p]) > CLIP))
            ref = P64[p] - lr * gc
            got = outs[p]
            ok_meta = got.shape == ref.shape and got.dtype == np.float32
            err = np.abs(got.astype(np.float64) - ref)
            # float32 rounding of p and p_next, relative error of the upstream values in g, and
            # float32 accumulation error of g's sum (bounded through the sum of |terms|)
            tol = 2e-7 * (np.abs(P64[p]) + np.abs(ref)) + lr * (1e-4 * np.abs(gc) + 1e-5 * M[p]) \
                + slack[p] + 1e-12
            bad = err > tol
            t.check(ok_meta and not bad.any(), "%s_next == %s - lr*clip(d%s, -5, 5)" % (p, p, p),
                    "max abs err %.3g (%.2g of tol), max |update| %.3g%s" % (
                        err.max(), np.max(err / tol), np.max(lr * np.abs(gc)),
                        "" if not bad.any() else ", %d entries off" % int(bad.sum())))
        if xscale > 1:
            t.check(all(nclip[p] for p in ("w1", "b1", "w2")), "clipping exercised for w1, b1, w2",
                    "entries beyond +-5: " + ", ".join("d%s %d" % (p, nclip[p]) for p in PARAMS))
        if amb.any():
            print("  note: %d pre-activations within float32 rounding of 0 (relu kink)"
                  % int(amb.sum()))
        if xscale == 1.0:
            # the float64 analytic gradient itself, against central finite differences
            frng = np.random.default_rng(seed + 1)
            for p in PARAMS:
                worst = 0.0
                for _ in range(3):
                    idx = tuple(int(frng.integers(0, n)) for n in P64[p].shape)
                    eps = 1e-5
                    Pp = {k: v.copy() for k, v in P64.items()}
                    Pp[p][idx] += eps
                    Pm = {k: v.copy() for k, v in P64.items()}
                    Pm[p][idx] -= eps
                    fd = (mlp_loss64(x64, y64, Pp) - mlp_loss64(x64, y64, Pm)) / (2 * eps)
                    worst = max(worst, abs(fd - G[p][idx]) / max(1e-6, abs(fd), abs(G[p][idx])))
                t.check(worst < 1e-4, "float64 d%s agrees with finite differences" % p,
                        "worst rel err %.2g" % worst)


# ---------------------------------------------------------------------------------------------

def summarize(name, a):
    if a.dtype == np.bool_ or a.size == 0:
        return "%s: %s %s" % (name, dt_name(a), list(a.shape))
    return "%s: %s %s min %.6g max %.6g mean %.6g" % (
        name, dt_name(a), list(a.shape), a.min(), a.max(), a.astype(np.float64).mean())


def main(argv):
    ap = argparse.ArgumentParser(description="NumPy reference interpreter for gtc v1 graphs")
    ap.add_argument("graphs", nargs="+")
    ap.add_argument("--check-grad", action="store_true")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--inputs", help=".npz of input arrays (default: seeded random)")
    ap.add_argument("--out", help="write outputs to this .npz")
    args = ap.parse_args(argv)
    try:
        if args.check_grad:
            t = Tally()
            for path in args.graphs:
                check_grad(path, args.seed, t)
            print("%d passed, %d failed" % (t.passed, t.failed))
            return 1 if t.failed else 0
        if len(args.graphs) != 1:
            ap.error("give one graph unless --check-grad")
        g = load_graph(args.graphs[0])
        if args.inputs:
            feeds = dict(np.load(args.inputs))
        else:
            feeds = random_inputs(g, np.random.default_rng(args.seed))
        outs, _ = run_graph(g, feeds)
        for k, v in outs.items():
            print(summarize(k, v))
        if args.out:
            np.savez(args.out, **outs)
        return 0
    except (GraphError, KeyError, OSError, json.JSONDecodeError) as e:
        sys.stderr.write("graph_ref.py: error: %s\n" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
