#!/usr/bin/env bash
# tests/e2e/train_dynamic.sh: examples/train_dynamic.php, the digits MLP of
# examples/digits_dynamic.json with a symbolic batch, compiled once by `gtc compile` and trained on
# the CPU backend on every row of each epoch (batches of 256 and the last one of 158 rows), then
# scored by predict() on the 359 test rows in one call: it must reach 95% test accuracy (the
# script's exit status), see every row (40 epochs x 1438) and bring its loss below 0.1. Builds
# examples/data/ first if it is missing. A few seconds.
#
# usage: tests/e2e/train_dynamic.sh [GTC_BINARY [GTC_EXT]]   (defaults build/gtc, build/gtc.so; PHP=)
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
if "$gtc" compile "$root/examples/digits_dynamic.json" -o "$tmp/dyn.so" >"$tmp/compile.log" 2>&1; then
    ok "gtc compile examples/digits_dynamic.json (once, for every batch size)"
else
    bad "gtc compile examples/digits_dynamic.json" "$tmp/compile.log"
fi
if "$php" -d extension="$ext" -d extension="$tmp/dyn.so" "$root/examples/train_dynamic.php" 40 "$data" >"$tmp/train.log" 2>&1; then
    ok "trains to >= 95% test accuracy: $(grep -o 'test accuracy [0-9.]*%' "$tmp/train.log")"
else
    bad "trains to >= 95% test accuracy" "$tmp/train.log"
fi
if grep -q '^trained on 57520 rows (1438 per epoch, last batch 158 rows)' "$tmp/train.log"; then
    ok "every row of every epoch, the last partial batch included (57520 = 40 x 1438)"
else
    bad "every row of every epoch, the last partial batch included" "$tmp/train.log"
fi
loss=$(sed -n 's/^epoch 40: loss \([0-9.]*\).*/\1/p' "$tmp/train.log")
if [ -n "$loss" ] && awk -v l="$loss" 'BEGIN { exit !(l < 0.1) }'; then ok "loss after 40 epochs $loss < 0.1"; else bad "loss after 40 epochs < 0.1" "$tmp/train.log"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
