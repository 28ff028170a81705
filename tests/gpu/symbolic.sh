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
#   3. tests/php/fusion_dynamic.phpt: the JIT's plan (NVRTC) at batch 8, 5, 1 against eager ops.
#
# usage (repository root, on the GPU machine): bash tests/gpu/symbolic.sh [BUILD]
# Needs, built beforehand with `make all e2e` (nvcc present, so the models carry their kernels):
#   BUILD/gtc.so  BUILD/e2e/mlp_dyn.so  BUILD/e2e/mlp_dyn_train.so
# and NumPy on $PYTHON (default: the python3 in PATH). Prints PASS/FAIL per part, each part's
# failing lines, then "N passed, N failed"; the status is 1 when any check failed.
set -u
cd "$(dirname "$0")/../.."
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
