#!/usr/bin/env bash
# tests/e2e/data_parallel.sh: `gtc compile --data-parallel` on the CPU backend (docs/distributed.md):
# examples/digits_auto.json compiled plainly and with --data-parallel (--cpu-only), trained 8
# steps side by side from PHP (tests/e2e/data_parallel.php: parameters bit-identical, without
# Cuda\Distributed::init() and in a joined world of 1), and a graph without a "train" section
# refused with its message.
#   bash tests/e2e/data_parallel.sh build/gtc build/gtc.so
# The last line is "N passed, N failed"; the status is 1 when any check failed.
set -u
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
gtc=$(abs "${1:?usage: data_parallel.sh GTC GTC_SO}")
ext=$(abs "${2:?usage: data_parallel.sh GTC GTC_SO}")
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
php="${PHP:-php}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtc-dp-test-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export GTC_DEVICE=cpu
pass=0 fail=0
check() {
    local name="$1"
    shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name" >&2; fi
}
sed 's/"digits_auto_step"/"plain_step"/' "$root/examples/digits_auto.json" >"$tmp/plain.json"
sed 's/"digits_auto_step"/"dp_step"/' "$root/examples/digits_auto.json" >"$tmp/dp.json"
check "compile plain" "$gtc" compile "$tmp/plain.json" -o "$tmp/plain.so" --cpu-only
check "compile --data-parallel" "$gtc" compile --data-parallel "$tmp/dp.json" -o "$tmp/dp.so" --cpu-only
out=$("$php" -n -d extension="$ext" -d extension="$tmp/plain.so" -d extension="$tmp/dp.so" "$here/data_parallel.php" 2>&1)
want="no world: parameters bit-identical
world of 1 joined: parameters bit-identical
allreduce steps: 1 (reads d_b2,d_w2,d_b1,d_w1), plain: 0"
check "8 steps, bit-identical parameters" test "$out" = "$want"
[ "$out" = "$want" ] || echo "$out" >&2
err=$("$gtc" compile --data-parallel "$root/examples/train_step.json" -o "$tmp/x.so" --cpu-only 2>&1)
rc=$?
check "no train section: refused" test "$rc|$err" = "1|$root/examples/train_step.json: --data-parallel: graph mlp_train_step has no parameter gradients to average (it needs a \"train\" section, or backward() in a traced closure, whose parameters are updated in place)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
