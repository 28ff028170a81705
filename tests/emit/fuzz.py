#!/usr/bin/env python3
"""tests/emit/fuzz.py: random graphs through the code generators, checked numerically.

Writes N random valid graphs (elementwise chains with broadcasting and weak constants, views of
every kind, reductions over random axes, matmuls, where/cast/one_hot) and runs the CPU numeric
harness (build/tests/test_emit_numeric, GTC_EMIT_GRAPHS) on them: each graph is planned, emitted,
built and compared with eager evaluation. Not part of `make test`; run it after changing the
planner or the generators:

    python3 tests/emit/fuzz.py [N] [SEED]        (default 100 graphs, seed 1)
"""
import json
import os
import random
import subprocess
import sys
import tempfile

FLOAT_UNARY = ["exp", "log", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid"]
SIGNED_UNARY = ["neg", "abs", "relu", "floor", "ceil", "round", "sign"]
BINARY = ["add", "sub", "mul", "div", "pow", "maximum", "minimum"]
CMP = ["eq", "ne", "lt", "le", "gt", "ge"]
REDUCE = ["sum", "mean", "max", "min", "prod"]


def bcast(a, b):
    r = max(len(a), len(b))
    a = [1] * (r - len(a)) + a
    b = [1] * (r - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            return None
        out.append(max(x, y))
    return out


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.inputs, self.nodes, self.vals = [], [], []  # vals: (name, shape, dtype)

    def new_input(self, shape, dtype):
        name = "in%d" % len(self.inputs)
        self.inputs.append({"name": name, "dtype": dtype, "shape": shape})
        self.vals.append((name, shape, dtype))
        return name

    def add(self, op, inputs, shp_, dt_, **attrs):
        name = "n%d" % len(self.nodes)
        node = {"name": name, "op": op, "inputs": inputs}
        node.update(attrs)
        self.nodes.append(node)
        self.vals.append((name, shp_, dt_))
        return name

    def shape(self):
        r = self.rng.choice([0, 1, 2, 2, 3, 3, 4])
        dims = [1, 2, 3, 4, 5, 7] if self.rng.random() < 0.8 else [1, 3, 33, 65, 150]
        return [self.rng.choice(dims) for _ in range(r)]

    def pick(self, pred=lambda v: True):
        c = [v for v in self.vals if pred(v)]
        return self.rng.choice(c) if c else None

    def step(self):
        rng = self.rng
        k = rng.random()
        fl = lambda v: v[2] in ("float32", "float64")
        if k < 0.25:  # binary, broadcasting
            a = self.pick(fl)
            b = self.pick(lambda v: fl(v) and bcast(a[1], v[1]) is not None)
            op = rng.choice(BINARY)
            if rng.random() < 0.3:
                return self.add(op, [a[0], round(rng.uniform(-2, 2), 2)], a[1], a[2])
            dt = "float64" if "float64" in (a[2], b[2]) else "float32"
            return self.add(op, [a[0], b[0]], bcast(a[1], b[1]), dt)
        if k < 0.4:  # unary
            a = self.pick(fl)
            return self.add(rng.choice(FLOAT_UNARY + SIGNED_UNARY), [a[0]], a[1], a[2])
        if k < 0.55:  # views
            a = self.pick(lambda v: len(v[1]) > 0)
            if a is None:
                return None
            shp, r = list(a[1]), len(a[1])
            v = rng.choice(["transpose", "reshape", "slice", "broadcast_to"])
            if v == "transpose":
                perm = list(range(r))
                rng.shuffle(perm)
                return self.add("transpose", [a[0]], [shp[p] for p in perm], a[2], perm=perm)
            if v == "reshape":
                n = 1
                for d in shp:
                    n *= d
                dims, m = [], n
                for f in [2, 3, 5, 7]:
                    while m % f == 0 and rng.random() < 0.6:
                        dims.append(f)
                        m //= f
                dims.append(m)
                rng.shuffle(dims)
                if rng.random() < 0.3:
                    dims.insert(rng.randrange(len(dims) + 1), 1)
                return self.add("reshape", [a[0]], dims, a[2], shape=dims)
            if v == "slice":
                ax = rng.randrange(r)
                d = shp[ax]
                step = rng.choice([1, 1, 2, -1, -2, 3])
                s, e = rng.randint(-d, d), rng.randint(-d - 1, d + 1)
                # compute the resulting size as ONNX does
                s2, e2 = (s + d if s < 0 else s), (e + d if e < 0 else e)
                if step > 0:
                    s2, e2 = min(max(s2, 0), d), min(max(e2, 0), d)
                    n = max(0, (e2 - s2 + step - 1) // step)
                else:
                    s2, e2 = min(max(s2, 0), d - 1), min(max(e2, -1), d - 1)
                    n = max(0, (s2 - e2 - step - 1) // -step) if d else 0
                if n == 0:
                    return None
                shp[ax] = n
                return self.add("slice", [a[0]], shp, a[2], starts=[s], ends=[e], axes=[ax], steps=[step])
            out = [rng.choice([1, 2, 3])] + [d if d != 1 or rng.random() < 0.5 else rng.choice([2, 3]) for d in shp]
            return self.add("broadcast_to", [a[0]], out, a[2], shape=out)
        if k < 0.72:  # reductions
            a = self.pick(lambda v: len(v[1]) > 0 and fl(v))
            if a is None:
                return None
            r = len(a[1])
            if rng.random() < 0.2:
                ax = rng.randrange(r)
                keep = rng.random() < 0.5
                shp = [1 if i == ax else d for i, d in enumerate(a[1])] if keep else [d for i, d in enumerate(a[1]) if i != ax]
                return self.add(rng.choice(["argmax", "argmin"]), [a[0]], shp, "int64", axes=[ax], keepdims=keep)
            axes = sorted(rng.sample(range(r), rng.randint(1, r)))
            if rng.random() < 0.3:
                axes = list(range(r - len(axes), r))  # trailing: row kernels
            keep = rng.random() < 0.5
            shp = [1 if i in axes else d for i, d in enumerate(a[1])] if keep else [d for i, d in enumerate(a[1]) if i not in axes]
            return self.add(rng.choice(REDUCE), [a[0]], shp, a[2], axes=axes, keepdims=keep)
        if k < 0.77:  # a softmax over trailing axes (a row kernel), its result used again
            a = self.pick(lambda v: len(v[1]) > 0 and fl(v))
            if a is None:
                return None
            r = len(a[1])
            axes = list(range(rng.randint(0, r - 1), r))
            keep = [1 if i in axes else d for i, d in enumerate(a[1])]
            m = self.add("max", [a[0]], keep, a[2], axes=axes, keepdims=True)
            sh = self.add("sub", [a[0], m], a[1], a[2])
            e = self.add("exp", [sh], a[1], a[2])
            sm = self.add("sum", [e], keep, a[2], axes=axes, keepdims=True)
            return self.add("div", [e, sm], a[1], a[2])
        if k < 0.82:  # matmul against a fresh input
            a = self.pick(lambda v: len(v[1]) >= 1 and fl(v))
            if a is None:
                return None
            kdim = a[1][-1]
            n = rng.choice([1, 2, 3, 9, 17])
            if rng.random() < 0.5:
                b = self.new_input([kdim, n], a[2])
                bt = b
            else:
                b = self.new_input([n, kdim], a[2])
                bt = self.add("transpose", [b], [kdim, n], a[2], perm=[1, 0])
            return self.add("matmul", [a[0], bt], a[1][:-1] + [n], a[2])
        if k < 0.9:  # where over a comparison
            a = self.pick(fl)
            b = self.pick(lambda v: fl(v) and v[2] == a[2] and bcast(a[1], v[1]) is not None)
            c = self.add(rng.choice(CMP), [a[0], round(rng.uniform(-1, 1), 2)], a[1], "bool")
            return self.add("where", [c, a[0], b[0]], bcast(a[1], b[1]), a[2])
        a = self.pick(fl)
        if rng.random() < 0.5:
            c = self.add("cast", [a[0]], a[1], "int32", dtype="int32")
            m = self.add("mul", [c, 3], a[1], "int32")
            return self.add("cast", [m], a[1], "float32", dtype="float32")
        c = self.add("cast", [a[0]], a[1], "int64", dtype="int64")
        return self.add("one_hot", [c], a[1] + [3], "float32", depth=3)


def graph(rng, i):
    g = Gen(rng)
    for _ in range(rng.randint(1, 3)):
        g.new_input(g.shape(), rng.choice(["float32", "float32", "float64"]))
    for _ in range(rng.randint(3, 14)):
        try:
            g.step()
        except (ValueError, IndexError):  # an empty choice: nothing suitable yet
            pass
    if not g.nodes:
        g.add("add", [g.vals[0][0], 1], g.vals[0][1], g.vals[0][2])
    outs = {"o%d" % k: n for k, n in enumerate(sorted({rng.choice(g.nodes)["name"] for _ in range(3)} | {g.nodes[-1]["name"]}))}
    return {"format": "gtc-graph", "version": 1, "name": "fuzz%d" % i, "inputs": g.inputs, "nodes": g.nodes, "outputs": outs}


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    gtc, harness = os.path.join(root, "build/gtc"), os.path.join(root, "build/tests/test_emit_numeric")
    tmp = tempfile.mkdtemp(prefix="gtc_fuzz_")
    paths, skipped = [], 0
    for i in range(n):
        path = os.path.join(tmp, "g%03d.json" % i)
        with open(path, "w") as f:
            json.dump(graph(rng, i), f)
        if subprocess.run([gtc, "check", path], capture_output=True).returncode != 0:
            skipped += 1
            continue
        paths.append(path)
    print("fuzz: %d graphs in %s (%d invalid, skipped)" % (len(paths), tmp, skipped))
    failed = []
    for p in paths:
        r = subprocess.run([harness], env=dict(os.environ, GTC_EMIT_GRAPHS=p, GTC_ROOT=root), capture_output=True, text=True)
        if r.returncode != 0:
            failed.append(p)
            print("FAIL %s\n%s" % (p, (r.stdout + r.stderr)[-1500:]))
    print("fuzz: %d passed, %d failed" % (len(paths) - len(failed), len(failed)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
