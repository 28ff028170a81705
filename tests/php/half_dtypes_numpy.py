"""tests/php/half_dtypes_numpy.py: float64 NumPy references for half_dtypes_numpy.phpt. Reads a
JSON job from stdin, prints JSON. bfloat16 (which NumPy lacks) is emulated by bit manipulation:
a float64 rounded to 8 significant bits, ties to even, as one step (no double rounding);
float16 is NumPy's own (its float64 -> float16 cast is correctly rounded)."""
import json
import sys

import warnings

import numpy as np

warnings.simplefilter("ignore")  # float16 overflows to inf on purpose

BF16_MAX = 3.3895313892515355e38


def bf16(x):
    x = np.asarray(x, dtype=np.float64)
    u = x.view(np.uint64).copy()
    lsb = (u >> np.uint64(45)) & np.uint64(1)
    u = (u + np.uint64((1 << 44) - 1) + lsb) & ~np.uint64((1 << 45) - 1)
    r = u.view(np.float64)
    return np.where(np.isnan(x), np.nan, np.where(np.abs(r) > BF16_MAX, np.copysign(np.inf, x), r))


def f16(x):
    return np.asarray(x, dtype=np.float64).astype(np.float16).astype(np.float64)


ROUND = {'bfloat16': bf16, 'float16': f16}


def main():
    job = json.load(sys.stdin)
    out = {}
    for dt, rnd in ROUND.items():
        x = rnd(np.array(job['x'], dtype=np.float64).reshape(job['shape']))
        y = rnd(np.array(job['y'], dtype=np.float64).reshape(job['shape']))
        w = rnd(np.array(job['w'], dtype=np.float64).reshape(job['wshape']))
        r = {
            'x': x, 'add': rnd(x + y), 'sub': rnd(x - y), 'mul': rnd(x * y), 'div': rnd(x / y),
            'sqrt': rnd(np.sqrt(np.abs(x))), 'maximum': rnd(np.maximum(x, y)),
            'exp': rnd(np.exp(x)), 'tanh': rnd(np.tanh(x)), 'sigmoid': rnd(1 / (1 + np.exp(-x))),
            'sum1': rnd(x.sum(1)), 'mean0': rnd(x.mean(0)), 'max1': rnd(x.max(1)),
            'argmin1': x.argmin(1).astype(np.float64), 'prod': rnd(np.prod(x[:, :4], 1)),
            'matmul': rnd(x @ w), 'lt': (x < y).astype(np.float64),
            'scal': rnd(x * rnd(np.float64(job['c']))),
            'from_f32': rnd(np.array(job['f32'], dtype=np.float32).astype(np.float64)),
        }
        out[dt] = {k: [None if np.isnan(v) else ('inf' if v == np.inf else '-inf' if v == -np.inf else float(v))
                       for v in np.asarray(a, dtype=np.float64).ravel()] for k, a in r.items()}
    # bfloat16 + float16 promotes to float32: the exact sum of the two, rounded to float32
    out['mixed'] = [float(v) for v in (bf16(job['x']) + f16(job['y'])).astype(np.float32).astype(np.float64)]
    print(json.dumps(out))


main()
