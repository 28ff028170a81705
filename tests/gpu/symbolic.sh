#!/usr/bin/env bash
# tests/gpu/symbolic.sh: symbolic dimensions on the GPU (docs/graph-format.md §3.1), in about a
# minute: the compiled models of tests/e2e/dynamic/ and a traced Cuda\Fusion::compile(dynamic:)
# closure with GTC_DEVICE=cuda, each batch size against a float64 NumPy reference or eager ops.
#
#   1. tests/e2e/dynamic.php on BUILD/e2e/mlp_dyn.so: batches 1, 7, 256, 4096, 7 through one
#      object (GEMM M from the run, the mean over the batch, a max over it, the Gram matrix x^T x
#      whose K is the batch), the refusals, 3,000 runs over changing sizes allocating nothing
#      (the CUDA Graph's nodes updated in place), and getStats()['backend'] === 'cuda-graph';
#   2. tests/e2e/dynamic_train.php on BUILD/e2e/mlp_dyn_train.so: SGD steps of 512, 100, 7, 1
#      rows (gradients dividing by the run's rows, x^T dh over the batch) and predict() on 300;
#   3. timing: run() at one batch size against alternating sizes (informational, a few seconds);
#   4. optional, when BUILD/models/digits_dynamic.so and examples/data/ exist: examples/
#      train_dynamic.php (40 epochs of the digits MLP, every row, >= 95% test accuracy);
#   5. tests/php/fusion_dynamic.phpt: the JIT's plan (NVRTC) at batch 8, 5, 1 (and a batched
#      product at 6, 2, 1) against eager ops.
#
# usage (repository root, on the GPU machine): bash tests/gpu/symbolic.sh [BUILD]
# Needs, built beforehand with `make all e2e` (nvcc present, so the models carry their kernels):
#   BUILD/gtc.so  BUILD/e2e/mlp_dyn.so  BUILD/e2e/mlp_dyn_train.so
# (optional: BUILD/models/digits_dynamic.so and examples/data/*.npy for part 4)
# and NumPy on $PYTHON (default: the python3 in PATH). Prints PASS/FAIL per part, each part's
# failing lines, then "N passed, N failed"; the status is 1 when any check failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
php=${PHP:-php}
export GTC_DEVICE=cuda
export PYTHON=${PYTHON:-$(command -v python3 || echo /usr/bin/python3)}
pass=0
fail=0
missing=0
for f in "$build/gtc.so" "$build/e2e/mlp_dyn.so" "$build/e2e/mlp_dyn_train.so"; do
    [ -f "$f" ] || { echo "FAIL $f does not exist (make all e2e first)"; missing=1; }
done
if ! "$PYTHON" -c 'import numpy' 2>/dev/null; then
    echo "FAIL $PYTHON has no NumPy (set PYTHON)"
    missing=1
fi
if [ $missing = 1 ]; then
    echo "0 passed, 1 failed"
    exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# one e2e script: its "N passed, N failed" added up; the log shown when anything failed
part() { # name model.so script.php
    local name=$1 so=$2 script=$3 p f rc
    mkdir -p "$work/$name"
    "$php" -n -d "extension=$build/gtc.so" -d "extension=$so" "tests/e2e/$script" "$work/$name" cuda-graph \
        >"$work/$name.log" 2>&1
    rc=$?
    p=$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1/p' "$work/$name.log" | tail -n1)
    f=$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\2/p' "$work/$name.log" | tail -n1)
    if [ -z "$p" ]; then
        echo "FAIL $name: tests/e2e/$script gave no summary (status $rc)"
        sed 's/^/    /' "$work/$name.log" | tail -n 30
        fail=$((fail + 1))
        return
    fi
    pass=$((pass + p))
    fail=$((fail + f))
    if [ "$f" = 0 ] && [ $rc = 0 ]; then
        echo "PASS $name: $p checks (tests/e2e/$script on CUDA)"
    else
        echo "FAIL $name: $f of $((p + f)) checks failed (status $rc)"
        grep -v '^ok ' "$work/$name.log" | sed 's/^/    /'
    fi
}
part dynamic "$build/e2e/mlp_dyn.so" dynamic.php
part dynamic_train "$build/e2e/mlp_dyn_train.so" dynamic_train.php

# what a change of size costs: run() at one batch size against alternating sizes (each run then
# updates the CUDA Graph's nodes that read the size in place; no re-capture). Informational: the
# figures go into the report; the check is only that both ran on the CUDA Graph.
cat >"$work/timing.php" <<'PHP'
<?php
use Cuda\CudaArray;
$m = new MlpDyn();
$p = ['w1' => CudaArray::randn([8, 16], seed: 3), 'b1' => CudaArray::randn([16], seed: 4),
      'w2' => CudaArray::randn([16, 3], seed: 5), 'b2' => CudaArray::randn([3], seed: 6)];
$d = [];
foreach ([256, 255] as $b)
    $d[$b] = ['x' => CudaArray::randn([$b, 8], seed: $b), 'y' => CudaArray::randint(0, 3, [$b], seed: 1)->oneHot(3)] + $p;
$time = function (array $sizes) use ($m, $d): float {
    for ($i = 0; $i < 200; $i++) $m->run(...$d[$sizes[$i % count($sizes)]]);
    $m->run(...$d[256])['loss']->item();
    $n = 2000;
    $t0 = hrtime(true);
    for ($i = 0; $i < $n; $i++) $out = $m->run(...$d[$sizes[$i % count($sizes)]]);
    $out['loss']->item();
    return (hrtime(true) - $t0) / 1e3 / $n;
};
$same = $time([256]);
$alt = $time([256, 255]);
printf("run() at batch 256: %.2f us; alternating 256/255 (graph nodes updated in place): %.2f us; backend %s\n",
       $same, $alt, $m->getStats()['backend']);
exit($m->getStats()['backend'] === 'cuda-graph' && is_finite($same) && is_finite($alt) ? 0 : 1);
PHP
if out=$("$php" -n -d "extension=$build/gtc.so" -d "extension=$build/e2e/mlp_dyn.so" "$work/timing.php" 2>&1); then
    echo "PASS timing: $out"
    pass=$((pass + 1))
else
    echo "FAIL timing"
    printf '%s\n' "$out" | sed 's/^/    /'
    fail=$((fail + 1))
fi

# optional: examples/train_dynamic.php on the device, when its model and the data were built here
# (build/gtc compile examples/digits_dynamic.json -o BUILD/models/digits_dynamic.so; make data)
dyn="$build/models/digits_dynamic.so"
if [ -f "$dyn" ] && [ -f examples/data/digits_test_labels.npy ]; then
    if "$php" -n -d "extension=$build/gtc.so" -d "extension=$dyn" examples/train_dynamic.php 40 examples/data \
        >"$work/train.log" 2>&1 && grep -q '^trained on 57520 rows' "$work/train.log"; then
        echo "PASS train_dynamic.php on CUDA: every row of 40 epochs, $(grep -o 'test accuracy [0-9.]*%' "$work/train.log")"
        pass=$((pass + 1))
    else
        echo "FAIL train_dynamic.php on CUDA (95% test accuracy, 57520 rows)"
        sed 's/^/    /' "$work/train.log" | tail -n 20
        fail=$((fail + 1))
    fi
else
    echo "SKIP train_dynamic.php: $dyn or examples/data/ not built (optional)"
fi

# the JIT: the .phpt on the device (run-tests passes GTC_DEVICE on)
if bash tests/php/run.sh "$build/gtc.so" tests/php/fusion_dynamic.phpt >"$work/phpt.log" 2>&1; then
    echo "PASS fusion_dynamic.phpt on CUDA"
    pass=$((pass + 1))
else
    echo "FAIL fusion_dynamic.phpt on CUDA"
    sed 's/^/    /' "$work/phpt.log" | tail -n 40
    fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
