#!/usr/bin/env bash
# tests/e2e/gpu.sh: the end-to-end model checks on the GPU (run on the GPU machine, after
# tests/e2e/run.sh built the models here): tests/e2e/model.php and tests/e2e/faults.php
# (allocation failures) for each example model with GTC_DEVICE=cuda, expecting
# getStats()['backend'] === 'cuda-graph'; then 10,000 replays of the training step with new
# input tensors on some of them, timing the replay and checking that PHP's memory stays flat.
#
# usage: tests/e2e/gpu.sh GTC_EXTENSION MODEL_DIR    (MODEL_DIR: BUILD/e2e, from run.sh)
# The last line is "N passed, N failed"; the status is 1 when any check failed.
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 GTC_EXTENSION MODEL_DIR" >&2
    exit 2
fi
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
ext=$(abs "$1")
dir=$(abs "$2")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
php=${PHP:-php}
export GTC_DEVICE=cuda
# The float64 reference needs NumPy: the GPU machine has it on the python3 in PATH, not on
# /usr/bin/python3 (model.php's default).
export PYTHON=${PYTHON:-$(command -v python3 || echo /usr/bin/python3)}
pass=0
fail=0
for name in train_step digits_step; do
    so="$dir/$name.so"
    work=$(mktemp -d)
    if [ ! -f "$so" ]; then
        echo "FAIL $so does not exist (run tests/e2e/run.sh first)"
        fail=$((fail + 1))
        continue
    fi
    for script in model faults; do
        if [ $script = model ]; then
            "$php" -n -d "extension=$ext" -d "extension=$so" "$here/model.php" "$root/examples/$name.json" \
                "$work" cuda-graph >"$work/log" 2>&1
        else
            "$php" -n -d "extension=$ext" -d "extension=$so" "$here/faults.php" cuda-graph >"$work/log" 2>&1
        fi
        rc=$?
        sed 's/^/  /' "$work/log"
        p=$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1/p' "$work/log" | tail -n1)
        f=$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\2/p' "$work/log" | tail -n1)
        if [ -z "$p" ]; then
            echo "FAIL $name: $script.php gave no summary (status $rc)"
            fail=$((fail + 1))
        else
            pass=$((pass + p))
            fail=$((fail + f))
        fi
    done
    rm -rf "$work"
done

# 10,000 replays: time per run() (host side, then one synchronising read), memory flat.
cat >"${TMPDIR:-/tmp}/gtc_replay.php" <<'PHP'
<?php
use Cuda\CudaArray;
$m = new MlpTrainStep();
$in = [];
foreach ($m->inputs() as $n => $i)
    $in[$n] = $i['shape'] ? (CudaArray::rand($i['shape'], seed: crc32($n)) - 0.5) * 0.1 : 0.01;
$xs = [$in['x'], clone $in['x']];
for ($i = 0; $i < 100; $i++) $m->run(...$in);   // warm up (the first run captures the graph)
$m->run(...$in)['loss']->item();
$mem0 = memory_get_usage();
$n = 10000;
$t0 = hrtime(true);
for ($i = 0; $i < $n; $i++) {
    $in['x'] = $xs[$i & 1];                          // a new input tensor every other step
    $out = $m->run(...$in);
}
$loss = $out['loss']->item();                         // waits for the last replay
$dt = (hrtime(true) - $t0) / 1e3 / $n;
$mem1 = memory_get_usage();
printf("replays: %d, %.2f us per run() incl. PHP, loss %.4f, PHP memory %+d bytes, backend %s\n",
       $m->getStats()['replays'], $dt, $loss, $mem1 - $mem0, $m->getStats()['backend']);
exit(is_finite($loss) && abs($mem1 - $mem0) < 4096 && $m->getStats()['backend'] === 'cuda-graph' ? 0 : 1);
PHP
if out=$("$php" -n -d "extension=$ext" -d "extension=$dir/train_step.so" "${TMPDIR:-/tmp}/gtc_replay.php" 2>&1); then
    echo "PASS 10,000 replays: $out"
    pass=$((pass + 1))
else
    echo "FAIL 10,000 replays"
    printf '%s\n' "$out" | sed 's/^/    /'
    fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
