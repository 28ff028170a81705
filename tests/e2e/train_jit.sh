#!/usr/bin/env bash
# tests/e2e/train_jit.sh: examples/train_mlp.php with the step compiled in-process by
# Cuda\Fusion::compile (--mode=jit) against eager mode, on the CPU backend, for CI.
#
# Builds examples/data/ first if it is missing. Then, with the same seed: digits for 30 epochs in
# eager and in jit mode, a loss read-back every epoch; both must report the same loss every epoch
# (at most 1e-4 apart, relative), identical test predictions and confusion matrix, and a sane
# accuracy (> 90%); the FusionGraph must have run once per step on the CPU backend and the report
# must give its plan, compile time and kernel source (cc or cc-cache; eager when no C compiler can
# be run). The kernel cache is a fresh temporary $GTC_CACHE_DIR. The same run with
# GTC_JIT_CC pointing at no compiler must fall back to op-by-op kernels ("kernels: eager") and
# still match eager. One epoch of pcam-synthetic (480-256-2) in both modes checks the other shape.
# Takes a few seconds.
#
# usage: tests/e2e/train_jit.sh [GTC_EXT]   (default build/gtc.so; PHP=)
# The last line is "N passed, N failed"; the status is 1 when any check failed.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
ext=$(abs "${1:-$root/build/gtc.so}")
php=${PHP:-php}
[ -f "$ext" ] || { echo "$0: $ext not found: run make first" >&2; exit 2; }
export GTC_DEVICE=cpu
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
unset GTC_HOME GTC_CFLAGS GTC_JIT_CC

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GTC_CACHE_DIR=$tmp/cache
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ $# -lt 2 ] || sed 's/^/    /' "$2" | tail -n 30; }
check() {   # check NAME FILE-TO-SHOW COMMAND...: passes when COMMAND succeeds
    local name=$1 show=$2
    shift 2
    if "$@"; then ok "$name"; else bad "$name" "$show"; fi
}
train() { "$php" -n -d extension="$ext" "$root/examples/train_mlp.php" "$@"; }
# compare EAGER_DIR JIT_DIR MAX_PRED_MISMATCH: the saved metrics.json and test_predictions.npy of
# two runs: same epochs reported, losses within 1e-4 relative, at most MAX_PRED_MISMATCH test
# predictions differ (0: identical, and so are the confusion matrices).
compare() {
    "$php" -n -d extension="$ext" -r '
        [, $a, $b, $maxDiff] = $argv;
        $ma = json_decode(file_get_contents("$a/metrics.json"), true);
        $mb = json_decode(file_get_contents("$b/metrics.json"), true);
        if (array_keys($ma["loss"]) !== array_keys($mb["loss"])) { echo "different epochs reported\n"; exit(1); }
        $worst = 0.0;
        foreach ($ma["loss"] as $e => $l) {
            $r = abs($l - $mb["loss"][$e]) / max(abs($l), 1e-12);
            if (!is_finite($l) || !is_finite($mb["loss"][$e])) $r = INF;
            $worst = max($worst, $r);
        }
        printf("%d losses, largest relative difference %.3g\n", count($ma["loss"]), $worst);
        if ($worst > 1e-4) exit(1);
        $pa = Cuda\CudaArray::fromNpy("$a/test_predictions.npy")->toArray();
        $pb = Cuda\CudaArray::fromNpy("$b/test_predictions.npy")->toArray();
        $diff = count(array_diff_assoc($pa, $pb));
        printf("%d of %d test predictions differ\n", $diff, count($pa));
        if (count($pa) !== count($pb) || $diff > (int)$maxDiff) exit(1);
        if ((int)$maxDiff === 0 && $ma["confusion"] !== $mb["confusion"]) { echo "confusion matrices differ\n"; exit(1); }
        exit(0);' "$1" "$2" "$3" >"$tmp/compare.log" 2>&1
}
metric() { "$php" -n -r '$m = json_decode(file_get_contents($argv[1]), true); exit(('"$2"') ? 0 : 1);' "$1"; }

# ---- data -----------------------------------------------------------------------------------------

data=$root/examples/data
missing=0
for s in digits_train digits_test pcam_train pcam_test; do
    for f in x y labels; do [ -f "$data/${s}_$f.npy" ] || missing=1; done
done
if [ $missing = 1 ]; then
    check "make-data builds examples/data" "$tmp/data.log" \
        bash -c "GTC_EXT='$ext' PHP='$php' bash '$root/scripts/make-data.sh' >'$tmp/data.log' 2>&1"
fi

# ---- digits: 30 epochs, eager against jit, same seed ----------------------------------------------

args=(--dataset=digits --epochs=30 --seed=7 --device=cpu --report-every=1)
train --mode=eager "${args[@]}" --save="$tmp/eager" >"$tmp/eager.out" 2>&1
check "digits eager: exits 0" "$tmp/eager.out" [ $? -eq 0 ]
train --mode=jit "${args[@]}" --save="$tmp/jit" >"$tmp/jit.out" 2>&1
rc=$?
check "digits jit: exits 0" "$tmp/jit.out" [ $rc -eq 0 ]
check "digits jit: runs a FusionGraph of eager_step on the CPU backend, 180 runs" "$tmp/jit.out" bash -c "
    grep -q 'jit mode on cpu\$' '$tmp/jit.out' &&
    grep -q '^  compiled step Cuda.FusionGraph digits_step: [0-9]* graph nodes in [0-9]* steps .*backend cpu\$' '$tmp/jit.out' &&
    grep -q '^compiled step: backend cpu, 180 runs\$' '$tmp/jit.out'"
check "digits jit: reports the compile time and kernels built by cc (cache miss)" "$tmp/jit.out" \
    grep -qE '^  Cuda.Fusion::compile of eager_step: [0-9.]+ (µs|ms|s) \(kernels: (cc|eager), plan cache: miss\)$' "$tmp/jit.out"
check "digits jit: report has accuracy, confusion matrix and speed" "$tmp/jit.out" bash -c "
    grep -q '^test accuracy [0-9.]*% ([0-9]*/359), train accuracy' '$tmp/jit.out' &&
    [ \$(grep -cE '^[0-9] +( +[0-9]+){10} +[0-9.]+%\$' '$tmp/jit.out') -eq 10 ] &&
    grep -qE '^180 steps in .* per step \(median over 30 reporting intervals\), [0-9,]+ samples/s\$' '$tmp/jit.out'"
if [ -s "$tmp/eager/metrics.json" ] && [ -s "$tmp/jit/metrics.json" ]; then
    name="digits: eager and jit report the same loss every epoch (<= 1e-4 relative) and identical test predictions and confusion matrix"
    if compare "$tmp/eager" "$tmp/jit" 0; then ok "$name"; sed 's/^/    /' "$tmp/compare.log"; else bad "$name" "$tmp/compare.log"; fi
    check "digits jit: the loss falls and the test accuracy is above 90%" "$tmp/jit/metrics.json" \
        metric "$tmp/jit/metrics.json" '$m["loss"][30] < 0.5 * $m["loss"][1] && $m["test_accuracy"] > 0.90'
    check "digits jit: metrics.json records the FusionGraph (180 runs, backend cpu, compile time)" "$tmp/jit/metrics.json" \
        metric "$tmp/jit/metrics.json" '$m["mode"] === "jit" && $m["model"]["replays"] === 180 && $m["model"]["backend"] === "cpu"
            && in_array($m["model"]["kernels"], ["cc", "cc-cache", "eager"], true) && $m["model"]["compile_seconds"] > 0'
    check "digits: saved parameters agree to 1e-4" "$tmp/jit.out" \
        "$php" -n -d extension="$ext" -r '
        foreach (["w1", "b1", "w2", "b2"] as $n) {
            $a = Cuda\CudaArray::fromNpy("$argv[1]/$n.npy"); $b = Cuda\CudaArray::fromNpy("$argv[2]/$n.npy");
            $d = $a->subtract($b)->abs()->max()->item(); $s = $a->abs()->max()->item();
            if (!($d <= 1e-4 * max($s, 1e-6))) { echo "$n: max |diff| $d\n"; exit(1); }
        }' "$tmp/eager" "$tmp/jit"
else
    bad "digits: both runs saved their metrics" "$tmp/jit.out"
fi

# A second process finds the kernels in the disk cache.
if grep -q 'kernels: cc,' "$tmp/jit.out"; then
    train --mode=jit --dataset=digits --epochs=1 --seed=7 --device=cpu >"$tmp/jit2.out" 2>&1
    check "digits jit: a second process reuses the cached kernels (cc-cache)" "$tmp/jit2.out" \
        grep -q 'kernels: cc-cache, plan cache: miss' "$tmp/jit2.out"
fi

# No C compiler: the plan runs op by op, with the same numbers.
GTC_JIT_CC=$tmp/no-such-cc GTC_CACHE_DIR=$tmp/cache-nocc \
    train --mode=jit "${args[@]}" --save="$tmp/jit-nocc" >"$tmp/jit-nocc.out" 2>&1
rc=$?
check "digits jit without a C compiler: exits 0 and falls back to eager kernels" "$tmp/jit-nocc.out" bash -c "
    [ $rc -eq 0 ] && grep -q '(kernels: eager, plan cache: miss)' '$tmp/jit-nocc.out'"
if [ -s "$tmp/jit-nocc/metrics.json" ] && [ -s "$tmp/eager/metrics.json" ]; then
    check "digits jit without a C compiler: same losses and test predictions as eager" "$tmp/compare.log" \
        compare "$tmp/eager" "$tmp/jit-nocc" 0
fi

# ---- pcam-synthetic: one epoch of the 480-256-2 model in both modes -------------------------------

pargs=(--dataset=pcam-synthetic --epochs=1 --seed=3 --device=cpu)
train --mode=eager "${pargs[@]}" --save="$tmp/peager" >"$tmp/peager.out" 2>&1
train --mode=jit "${pargs[@]}" --save="$tmp/pjit" >"$tmp/pjit.out" 2>&1
rc=$?
check "pcam-synthetic jit: one epoch runs (64 runs) and reports ROC AUC" "$tmp/pjit.out" bash -c "
    [ $rc -eq 0 ] && grep -q 'compiled step Cuda.FusionGraph pcam_synthetic_step' '$tmp/pjit.out' &&
    grep -q '^compiled step: backend cpu, 64 runs\$' '$tmp/pjit.out' && grep -q '^ROC AUC 0\.[0-9]*\$' '$tmp/pjit.out'"
if [ -s "$tmp/peager/metrics.json" ] && [ -s "$tmp/pjit/metrics.json" ]; then
    # 4,096 test rows: allow a handful of near-ties to fall the other way.
    check "pcam-synthetic: eager and jit give the same loss (<= 1e-4) and test predictions (<= 4 of 4096 differ)" \
        "$tmp/compare.log" compare "$tmp/peager" "$tmp/pjit" 4
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
