#!/usr/bin/env bash
# tests/e2e/train_cnn.sh: examples/cnn_digits.php, the CNN of examples/cnn_digits.json (conv2d,
# max_pool2d, cross_entropy and AdamW through autodiff), compiled by `gtc compile --cpu-only` and
# trained on the digits on the CPU backend; it must reach 98% test accuracy (the script's own exit
# status, which scores the trained weights with the model's predict()) and its loss
# must fall below 0.1. Builds examples/data/ first if it is missing.
# About fifteen seconds on two cores.
#
# usage: tests/e2e/train_cnn.sh [GTC_BINARY [GTC_EXT]]   (defaults build/gtc, build/gtc.so; PHP=)
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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ $# -lt 2 ] || sed 's/^/    /' "$2" | tail -n 30; }
data=$root/examples/data
if [ ! -f "$data/digits_test_labels.npy" ]; then
    GTC_EXT="$ext" PHP="$php" bash "$root/scripts/make-data.sh" >"$tmp/data.log" 2>&1 || { bad "make-data" "$tmp/data.log"; echo "$pass passed, $fail failed"; exit 1; }
fi
if "$gtc" compile --cpu-only "$root/examples/cnn_digits.json" -o "$tmp/cnn.so" >"$tmp/compile.log" 2>&1; then
    ok "gtc compile examples/cnn_digits.json"
else
    bad "gtc compile examples/cnn_digits.json" "$tmp/compile.log"
fi
if "$php" -d extension="$ext" -d extension="$tmp/cnn.so" "$root/examples/cnn_digits.php" 30 "$data" >"$tmp/train.log" 2>&1; then
    ok "trains to >= 98% test accuracy: $(grep -o 'test accuracy [0-9.]*%' "$tmp/train.log")"
else
    bad "trains to >= 98% test accuracy" "$tmp/train.log"
fi
loss=$(sed -n 's/^epoch 30: loss //p' "$tmp/train.log")
if [ -n "$loss" ] && awk -v l="$loss" 'BEGIN { exit !(l < 0.1) }'; then ok "loss after 30 epochs $loss < 0.1"; else bad "loss after 30 epochs < 0.1" "$tmp/train.log"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
