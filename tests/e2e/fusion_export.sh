#!/usr/bin/env bash
# tests/e2e/fusion_export.sh: the JIT's exported graph through the AOT compiler. Traces the
# training step closure of tests/e2e/fusion_export.php, exports it (Cuda\Fusion::export), builds
# it with `gtc compile --cpu-only` and checks that the model extension's outputs equal the JIT
# graph's. CPU backend.
#   usage: tests/e2e/fusion_export.sh GTC_BINARY GTC_EXTENSION
set -u
[ $# -eq 2 ] || { echo "usage: $0 GTC_BINARY GTC_EXTENSION" >&2; exit 2; }
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
gtc=$(abs "$1")
ext=$(abs "$2")
here=$(cd "$(dirname "$0")" && pwd)
out=$(dirname "$gtc")/e2e-fusion
rm -rf "$out"
mkdir -p "$out"
php=${PHP:-php}
export GTC_DEVICE=cpu GTC_CACHE_DIR="$out/cache"
pass=0
fail=0
step() { # step DESCRIPTION COMMAND...
    local what=$1 log
    shift
    if log=$("$@" 2>&1); then pass=$((pass + 1)); echo "PASS $what"
    else fail=$((fail + 1)); echo "FAIL $what"; printf '%s\n' "$log" | sed 's/^/    /' | head -n 40; fi
}
step "Fusion::export writes the traced graph" \
    "$php" -n -d "extension=$ext" "$here/fusion_export.php" export "$out/fusion_train_step.json"
step "gtc check accepts it" "$gtc" check "$out/fusion_train_step.json"
step "gtc plan: 7 steps, as examples/train_step.json" \
    bash -c '"$1" plan "$2" | head -n1 | grep -q "7 steps"' _ "$gtc" "$out/fusion_train_step.json"
step "gtc compile builds it" "$gtc" compile "$out/fusion_train_step.json" -o "$out/fusion_train_step.so" --cpu-only
step "the compiled model gives the JIT graph's outputs" \
    "$php" -n -d "extension=$ext" -d "extension=$out/fusion_train_step.so" "$here/fusion_export.php" compare FusionTrainStep
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
