#!/usr/bin/env bash
# tests/e2e/train_eager.sh: examples/train_mlp.php in eager mode on the CPU backend, for CI.
# Builds examples/data/ first if it is missing. Trains digits (64-64-10) for 5 epochs and checks
# the loss is finite and falls every epoch, the test accuracy is above 80%, the report is complete,
# --save writes the parameters and metrics, and a second run with the same seed gives the same
# losses; --plot writes a well-formed SVG loss curve (tests/e2e/svg_check.py), a terminal gets a
# progress bar with the rate and ETA; one epoch of pcam-synthetic checks the binary path (ROC AUC); bad options and
# --mode=aot without the model extension fail with a clear message. Takes a few seconds.
#
# usage: tests/e2e/train_eager.sh [GTC_EXT]   (default build/gtc.so; PHP= picks the php binary)
# The last line is "N passed, N failed"; the status is 1 when any check failed.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
ext=${1:-$root/build/gtc.so}
case $ext in /*) ;; *) ext=$PWD/$ext ;; esac
php=${PHP:-php}
if [ ! -f "$ext" ]; then
    echo "$0: $ext not found: run make first" >&2
    exit 2
fi
export GTC_DEVICE=cpu
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}

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
train() { "$php" -n -d extension="$ext" "$root/examples/train_mlp.php" "$@"; }
# Evaluates PHP code against a metrics.json ($m) and exits 0 when it returns true.
metric() { "$php" -n -r '$m = json_decode(file_get_contents($argv[1]), true); exit(('"$2"') ? 0 : 1);' "$1"; }

data=$root/examples/data
need="digits_train_x.npy digits_train_y.npy digits_train_labels.npy digits_test_x.npy digits_test_y.npy
      digits_test_labels.npy pcam_train_x.npy pcam_train_y.npy pcam_train_labels.npy pcam_test_x.npy
      pcam_test_y.npy pcam_test_labels.npy"
missing=0
for f in $need; do [ -f "$data/$f" ] || missing=1; done
if [ $missing = 1 ]; then
    check "make-data builds examples/data" "$tmp/data.log" \
        bash -c "GTC_EXT='$ext' bash '$root/scripts/make-data.sh' >'$tmp/data.log' 2>&1"
fi

# Digits, 5 epochs at the defaults (batch 256, learning rate 0.5), a loss read-back every epoch.
train --mode=eager --dataset=digits --epochs=5 --device=cpu --report-every=1 --save="$tmp/run1" \
    >"$tmp/run1.out" 2>&1
rc=$?
check "digits: exits 0" "$tmp/run1.out" [ $rc -eq 0 ]
check "digits: the device is the CPU backend" "$tmp/run1.out" grep -q 'eager mode on cpu$' "$tmp/run1.out"
check "digits: plain progress lines when stdout is not a terminal" "$tmp/run1.out" \
    bash -c "[ \$(grep -c '^  epoch [1-5]/5  loss [0-9.]*  [0-9,]* samples/s\$' '$tmp/run1.out') -eq 5 ] && ! grep -q \$'\r' '$tmp/run1.out'"
check "digits: report has accuracy, confusion matrix and speed" "$tmp/run1.out" bash -c "
    grep -q '^test accuracy [0-9.]*% ([0-9]*/359), train accuracy' '$tmp/run1.out' &&
    grep -q '^confusion matrix' '$tmp/run1.out' &&
    [ \$(grep -cE '^[0-9] +( +[0-9]+){10} +[0-9.]+%\$' '$tmp/run1.out') -eq 10 ] &&
    grep -qE '^30 steps in .* per step \(median over 5 reporting intervals\), [0-9,]+ samples/s\$' '$tmp/run1.out'"
check "digits: --save wrote w1 b1 w2 b2, test_predictions and metrics.json" "$tmp/run1.out" bash -c "
    for f in w1 b1 w2 b2 test_predictions; do [ -s '$tmp/run1/'\$f.npy ] || exit 1; done
    [ -s '$tmp/run1/metrics.json' ]"
if [ -s "$tmp/run1/metrics.json" ]; then
    cp "$tmp/run1/metrics.json" "$tmp/m1.json"
    check "digits: 5 finite losses, each lower than the one before" "$tmp/m1.json" metric "$tmp/m1.json" '
        count($m["loss"]) === 5 && array_reduce(array_keys($m["loss"]), function ($ok, $e) use ($m) {
            $l = $m["loss"][$e];
            return $ok && is_finite($l) && ($e == 1 || $l < $m["loss"][$e - 1]); }, true)'
    check "digits: test accuracy > 80% after 5 epochs" "$tmp/m1.json" metric "$tmp/m1.json" \
        '$m["test_accuracy"] > 0.80'
    check "digits: confusion matrix sums to the test set" "$tmp/m1.json" metric "$tmp/m1.json" \
        'array_sum(array_map("array_sum", $m["confusion"])) === 359 && $m["roc_auc"] === null'
    check "digits: saved parameters load with the right shapes" "$tmp/run1.out" \
        "$php" -n -d extension="$ext" -r '
        $s = []; foreach (["w1", "b1", "w2", "b2", "test_predictions"] as $n)
            $s[] = Cuda\CudaArray::fromNpy($argv[1] . "/$n.npy")->getShape();
        exit($s === [[64, 64], [64], [64, 10], [10], [359]] ? 0 : 1);' "$tmp/run1"
fi

# Same seed, same numbers.
train --dataset=digits --epochs=5 --device=cpu --report-every=1 --save="$tmp/run2" >"$tmp/run2.out" 2>&1
check "digits: a second run with the same seed gives the same losses and predictions" "$tmp/run2.out" \
    bash -c "[ -s '$tmp/run2/metrics.json' ] &&
             cmp -s '$tmp/run1/test_predictions.npy' '$tmp/run2/test_predictions.npy' &&
             \"$php\" -n -r 'exit(json_decode(file_get_contents(\$argv[1]), true)[\"loss\"] ===
                                json_decode(file_get_contents(\$argv[2]), true)[\"loss\"] ? 0 : 1);' \
                 '$tmp/run1/metrics.json' '$tmp/run2/metrics.json'"

# --plot: the loss of the reporting epochs (1, 3, 6 and the last, 7) as an SVG line plot.
train --dataset=digits --epochs=7 --device=cpu --report-every=3 --plot="$tmp/loss.svg" >"$tmp/plot.out" 2>&1
rc=$?
check "--plot writes the loss curve: well-formed SVG, one point per reporting epoch" "$tmp/plot.out" bash -c "
    [ $rc -eq 0 ] && grep -q '^loss curve (4 points) written to $tmp/loss.svg\$' '$tmp/plot.out' &&
    '${PYTHON:-/usr/bin/python3}' '$root/tests/e2e/svg_check.py' '$tmp/loss.svg' 1,3,6,7 >>'$tmp/plot.out'"
train --dataset=digits --epochs=1 --device=cpu --plot= >"$tmp/plot2.out" 2>&1
rc=$?
check "--plot= without a name is refused" "$tmp/plot2.out" bash -c "[ $rc -eq 2 ] && grep -q 'plot needs a file name' '$tmp/plot2.out'"
check "svg_line_plot escapes its texts and refuses empty, non-finite, non-numeric and (log scale) non-positive points" "$tmp/svgx.out" \
    bash -c "\"$php\" -n -r '
        require \$argv[1];
        \$s = svg_line_plot([2 => 1.0, 1 => 2.5], title: \"<script>alert(1)</script> & \\\"q\\\"\", xLabel: \"]]>\", yLabel: \"a<b\");
        file_put_contents(\$argv[2], \$s);
        \$ok = !str_contains(\$s, \"<script>\") && str_contains(\$s, \"&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;\");
        foreach ([[], [1 => NAN], [1 => INF], [1 => \"x\"], [\"a\" => 1.0], [1 => -1.0]] as \$i => \$bad) {
            try { svg_line_plot(\$bad, logY: \$i === 5); \$ok = false; echo \"accepted case \$i\\n\"; } catch (InvalidArgumentException) {}
        }
        exit(\$ok ? 0 : 1);' '$root/examples/svg_plot.php' '$tmp/x.svg' >'$tmp/svgx.out' 2>&1 &&
    '${PYTHON:-/usr/bin/python3}' '$root/tests/e2e/svg_check.py' '$tmp/x.svg' 1,2 >>'$tmp/svgx.out'"
# On a terminal (script(1) gives it one): one progress line redrawn, with the rate and the time left.
if command -v script >/dev/null 2>&1; then
    script -qec "'$php' -n -d extension='$ext' '$root/examples/train_mlp.php' --dataset=digits --epochs=3 --device=cpu" \
        /dev/null >"$tmp/tty.out" 2>&1
    check "a terminal gets a progress bar with loss, samples/s and ETA, redrawn in place" "$tmp/tty.out" \
        "$php" -n -r '$s = file_get_contents($argv[1]);
        exit(preg_match("/\r  epoch 1\/3 \[#{8}\.{16}\] loss [0-9.]+  [0-9,]+ samples\/s  ETA \d+:\d\d /", $s)
             && preg_match("/\r  epoch 3\/3 \[#{24}\] loss [0-9.]+  [0-9,]+ samples\/s  done in \d+:\d\d /", $s)
             && !preg_match("/^  epoch 1\/3  loss/m", $s) ? 0 : 1);' "$tmp/tty.out"
fi

# pcam-synthetic, one epoch: the binary report with ROC AUC.
train --dataset=pcam-synthetic --epochs=1 --device=cpu --save="$tmp/pcam" >"$tmp/pcam.out" 2>&1
rc=$?
check "pcam-synthetic: one epoch runs and reports ROC AUC" "$tmp/pcam.out" bash -c "
    [ $rc -eq 0 ] && grep -q '^ROC AUC 0\.[0-9]*\$' '$tmp/pcam.out' && grep -q '^test accuracy .*(.*/4096)' '$tmp/pcam.out'"
if [ -s "$tmp/pcam/metrics.json" ]; then
    check "pcam-synthetic: AUC in (0.5, 1] and accuracy above chance" "$tmp/pcam.out" \
        metric "$tmp/pcam/metrics.json" '$m["roc_auc"] > 0.5 && $m["roc_auc"] <= 1 && $m["test_accuracy"] > 0.55'
fi

# Mistakes get one clear message and a non-zero status.
train --dataset=mnist >"$tmp/e1.out" 2>&1
rc=$?
check "a bad --dataset is refused" "$tmp/e1.out" bash -c "[ $rc -eq 2 ] && grep -q 'dataset must be digits or pcam-synthetic' '$tmp/e1.out'"
train --epochs=0 >"$tmp/e2.out" 2>&1
rc=$?
check "--epochs=0 is refused" "$tmp/e2.out" bash -c "[ $rc -eq 2 ] && grep -q 'epochs must be an integer >= 1' '$tmp/e2.out'"
train --bogus=1 >"$tmp/e3.out" 2>&1
rc=$?
check "an unknown option is refused with the usage" "$tmp/e3.out" bash -c "[ $rc -eq 2 ] && grep -q 'usage:' '$tmp/e3.out'"
train --mode=aot --dataset=digits --epochs=1 >"$tmp/e4.out" 2>&1
rc=$?
check "--mode=aot without the model extension names the extension to load" "$tmp/e4.out" bash -c "
    [ $rc -ne 0 ] && grep -q 'DigitsTrainStep' '$tmp/e4.out' &&
    grep -q 'extension=build/models/digits.so' '$tmp/e4.out'"
train --mode=aot --dataset=pcam-synthetic --epochs=1 >"$tmp/e5.out" 2>&1
rc=$?
check "--mode=aot for pcam-synthetic names MlpTrainStep" "$tmp/e5.out" bash -c "
    [ $rc -ne 0 ] && grep -q 'MlpTrainStep' '$tmp/e5.out' && grep -q 'train_step.json' '$tmp/e5.out'"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
