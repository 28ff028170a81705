#!/usr/bin/env bash
# tests/e2e/train_aot.sh: examples/train_mlp.php with the model compiled by `gtc compile`
# (--mode=aot) against eager mode, on the CPU backend, for CI.
#
# Compiles examples/digits_step.json (and examples/train_step.json) into model extensions in a
# temporary directory — with their CUDA code when nvcc is found, as `make models` does — and builds
# examples/data/ first if it is missing. Then, with the same seed: digits for 30 epochs in eager
# and in aot mode, a loss read-back every epoch; both must report the same loss every epoch (at
# most 1e-4 apart, relative), identical test predictions and confusion matrix, and a sane
# accuracy (> 90%); the compiled class must have run once per step on the CPU backend and the
# report must name it. One epoch of pcam-synthetic in both modes checks the 480-256-2 model
# (MlpTrainStep) the same way; examples/train_embedding.php trains the embedding model
# (examples/embedding_step.json) to >= 95% test accuracy. Wrong batch sizes and a model for the other data set are refused
# with a clear message. Takes about ten seconds.
#
# usage: tests/e2e/train_aot.sh [GTC_BINARY [GTC_EXT]]   (defaults build/gtc, build/gtc.so; PHP=)
# The last line is "N passed, N failed"; the status is 1 when any check failed.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
gtc=$(abs "${1:-$root/build/gtc}")
ext=$(abs "${2:-$root/build/gtc.so}")
php=${PHP:-php}
for f in "$gtc" "$ext"; do
    [ -f "$f" ] || { echo "$0: $f not found: run make first" >&2; exit 2; }
done
export GTC_DEVICE=cpu
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
unset GTC_HOME GTC_CFLAGS

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ $# -lt 2 ] || sed 's/^/    /' "$2" | tail -n 30; }
check() {   # check NAME FILE-TO-SHOW COMMAND...: passes when COMMAND succeeds
    local name=$1 show=$2
    shift 2
    if "$@"; then ok "$name"; else bad "$name" "$show"; fi
}
train() {   # train MODEL.so|- ARGS...: examples/train_mlp.php with gtc.so and the model extension
    local so=$1
    shift
    if [ "$so" = - ]; then
        "$php" -n -d extension="$ext" "$root/examples/train_mlp.php" "$@"
    else
        "$php" -n -d extension="$ext" -d extension="$so" "$root/examples/train_mlp.php" "$@"
    fi
}
# compare EAGER_DIR AOT_DIR MAX_PRED_MISMATCH: the saved metrics.json and test_predictions.npy of
# two runs: same epochs reported, losses within 1e-4 relative, at most MAX_PRED_MISMATCH test
# predictions differ (0: the files are identical, and so are the confusion matrices).
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

# ---- data and models ------------------------------------------------------------------------

data=$root/examples/data
missing=0
for s in digits_train digits_test pcam_train pcam_test; do
    for f in x y labels; do [ -f "$data/${s}_$f.npy" ] || missing=1; done
done
if [ $missing = 1 ]; then
    check "make-data builds examples/data" "$tmp/data.log" \
        bash -c "GTC_EXT='$ext' PHP='$php' bash '$root/scripts/make-data.sh' >'$tmp/data.log' 2>&1"
fi

cpu_only=()
if ! { [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ] || command -v nvcc >/dev/null 2>&1; }; then
    cpu_only=(--cpu-only)
    echo "note: nvcc not found: the models are built --cpu-only"
fi
digits_so=$tmp/digits.so
mlp_so=$tmp/mlp.so
for m in "digits_step:$digits_so" "train_step:$mlp_so"; do
    if "$gtc" compile "$root/examples/${m%%:*}.json" -o "${m#*:}" "${cpu_only[@]}" >"$tmp/compile.log" 2>&1; then
        ok "gtc compile examples/${m%%:*}.json"
    else
        bad "gtc compile examples/${m%%:*}.json" "$tmp/compile.log"
    fi
done

# ---- digits: 30 epochs, eager against aot, same seed -----------------------------------------

args=(--dataset=digits --epochs=30 --seed=7 --device=cpu --report-every=1)
train - --mode=eager "${args[@]}" --save="$tmp/eager" >"$tmp/eager.out" 2>&1
check "digits eager: exits 0" "$tmp/eager.out" [ $? -eq 0 ]
if [ -f "$digits_so" ]; then
    train "$digits_so" --mode=aot "${args[@]}" --save="$tmp/aot" >"$tmp/aot.out" 2>&1
    rc=$?
    check "digits aot: exits 0" "$tmp/aot.out" [ $rc -eq 0 ]
    check "digits aot: runs the compiled DigitsTrainStep on the CPU backend" "$tmp/aot.out" bash -c "
        grep -q 'aot mode on cpu\$' '$tmp/aot.out' &&
        grep -q '^  compiled step DigitsTrainStep: [0-9]* graph nodes in [0-9]* steps .*backend cpu\$' '$tmp/aot.out' &&
        grep -q '^compiled step: backend cpu, 180 runs\$' '$tmp/aot.out'"
    check "digits aot: report has accuracy, confusion matrix and speed" "$tmp/aot.out" bash -c "
        grep -q '^test accuracy [0-9.]*% ([0-9]*/359), train accuracy' '$tmp/aot.out' &&
        [ \$(grep -cE '^[0-9] +( +[0-9]+){10} +[0-9.]+%\$' '$tmp/aot.out') -eq 10 ] &&
        grep -qE '^180 steps in .* per step \(median over 30 reporting intervals\), [0-9,]+ samples/s\$' '$tmp/aot.out'"
fi
if [ -s "$tmp/eager/metrics.json" ] && [ -s "$tmp/aot/metrics.json" ]; then
    name="digits: eager and aot report the same loss every epoch (<= 1e-4 relative) and identical test predictions and confusion matrix"
    if compare "$tmp/eager" "$tmp/aot" 0; then ok "$name"; sed 's/^/    /' "$tmp/compare.log"; else bad "$name" "$tmp/compare.log"; fi
    check "digits aot: the loss falls and the test accuracy is above 90%" "$tmp/aot/metrics.json" \
        metric "$tmp/aot/metrics.json" '$m["loss"][30] < 0.5 * $m["loss"][1] && $m["test_accuracy"] > 0.90'
    check "digits aot: metrics.json records the compiled step (180 runs, backend cpu)" "$tmp/aot/metrics.json" \
        metric "$tmp/aot/metrics.json" '$m["mode"] === "aot" && $m["model"]["replays"] === 180 && $m["model"]["backend"] === "cpu"'
    check "digits: saved parameters agree to 1e-4" "$tmp/aot.out" \
        "$php" -n -d extension="$ext" -r '
        foreach (["w1", "b1", "w2", "b2"] as $n) {
            $a = Cuda\CudaArray::fromNpy("$argv[1]/$n.npy"); $b = Cuda\CudaArray::fromNpy("$argv[2]/$n.npy");
            $d = $a->subtract($b)->abs()->max()->item(); $s = $a->abs()->max()->item();
            if (!($d <= 1e-4 * max($s, 1e-6))) { echo "$n: max |diff| $d\n"; exit(1); }
        }' "$tmp/eager" "$tmp/aot"
else
    bad "digits: both runs saved their metrics" "$tmp/aot.out"
fi

# A different seed is a different run in aot mode too (the seed reaches the initial parameters).
if [ -f "$digits_so" ]; then
    train "$digits_so" --mode=aot --dataset=digits --epochs=1 --seed=8 --device=cpu --save="$tmp/seed8" >"$tmp/seed8.out" 2>&1
    check "digits aot: another seed gives another first loss" "$tmp/seed8.out" \
        "$php" -n -r 'exit(json_decode(file_get_contents($argv[1]), true)["loss"][1] !==
                           json_decode(file_get_contents($argv[2]), true)["loss"][1] ? 0 : 1);' \
        "$tmp/seed8/metrics.json" "$tmp/aot/metrics.json"
fi

# ---- pcam-synthetic: one epoch of the 480-256-2 model in both modes ---------------------------

pargs=(--dataset=pcam-synthetic --epochs=1 --seed=3 --device=cpu)
train - --mode=eager "${pargs[@]}" --save="$tmp/peager" >"$tmp/peager.out" 2>&1
if [ -f "$mlp_so" ]; then
    train "$mlp_so" --mode=aot "${pargs[@]}" --save="$tmp/paot" >"$tmp/paot.out" 2>&1
    rc=$?
    check "pcam-synthetic aot: one epoch of MlpTrainStep runs and reports ROC AUC" "$tmp/paot.out" bash -c "
        [ $rc -eq 0 ] && grep -q 'compiled step MlpTrainStep' '$tmp/paot.out' && grep -q '^ROC AUC 0\.[0-9]*\$' '$tmp/paot.out'"
    if [ -s "$tmp/peager/metrics.json" ] && [ -s "$tmp/paot/metrics.json" ]; then
        # 4,096 test rows: allow a handful of near-ties to fall the other way.
        check "pcam-synthetic: eager and aot give the same loss (<= 1e-4) and test predictions (<= 4 of 4096 differ)" \
            "$tmp/compare.log" compare "$tmp/peager" "$tmp/paot" 4
        check "pcam-synthetic aot: accuracy above chance" "$tmp/paot/metrics.json" \
            metric "$tmp/paot/metrics.json" '$m["test_accuracy"] > 0.55 && $m["roc_auc"] > 0.55'
    fi
fi

# ---- the embedding model: gather + concat + MLP, cross_entropy on class ids, SGD with momentum --

emb_so=$tmp/embedding.so
if "$gtc" compile "$root/examples/embedding_step.json" -o "$emb_so" "${cpu_only[@]}" >"$tmp/compile.log" 2>&1; then
    ok "gtc compile examples/embedding_step.json"
    "$php" -n -d extension="$ext" -d extension="$emb_so" "$root/examples/train_embedding.php" --device=cpu \
        --min-accuracy=0.95 >"$tmp/emb.out" 2>&1
    rc=$?
    check "examples/train_embedding.php: EmbeddingStep trains to >= 95% test accuracy on the CPU backend" "$tmp/emb.out" \
        bash -c "[ $rc -eq 0 ] && grep -qE '^test accuracy: [0-9.]+% \([0-9]+ of 2048\)\$' '$tmp/emb.out'"
    check "examples/train_embedding.php: the loss falls" "$tmp/emb.out" \
        "$php" -n -r 'preg_match_all("/loss ([0-9.]+)/", file_get_contents($argv[1]), $m);
                      exit(count($m[1]) >= 2 && end($m[1]) < 0.2 * $m[1][0] ? 0 : 1);' "$tmp/emb.out"
else
    bad "gtc compile examples/embedding_step.json" "$tmp/compile.log"
fi

# ---- mistakes -----------------------------------------------------------------------------------

if [ -f "$digits_so" ]; then
    train "$digits_so" --mode=aot --dataset=digits --epochs=1 --batch-size=128 >"$tmp/e1.out" 2>&1
    rc=$?
    check "aot: a batch size other than the compiled graph's is refused" "$tmp/e1.out" bash -c "
        [ $rc -eq 2 ] && grep -q 'has batch 256, --batch-size=128 given' '$tmp/e1.out'"
    train "$digits_so" --mode=aot --dataset=pcam-synthetic --epochs=1 >"$tmp/e2.out" 2>&1
    rc=$?
    check "aot: the digits model with --dataset=pcam-synthetic names MlpTrainStep and how to build it" "$tmp/e2.out" bash -c "
        [ $rc -ne 0 ] && grep -q 'MlpTrainStep' '$tmp/e2.out' && grep -q 'gtc compile examples/train_step.json' '$tmp/e2.out'"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
