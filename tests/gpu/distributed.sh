#!/usr/bin/env bash
# tests/gpu/distributed.sh: Cuda\Distributed and `gtc run` on CUDA devices (docs/distributed.md),
# on the GPU machine after `make` (source .device/env.sh first there):
#   - tests/php/distributed_gpu.phpt: a world of 1 through NCCL's communicator of one rank;
#   - gtc run -n 1 tests/gpu/dist_check.php: the same collectives with known answers, launched;
#   - with 2 or more GPUs (nvidia-smi -L), gtc run -n 2 (and -n N for all of them): the
#     rendezvous through GTC_DIST_DIR, sum/mean/max/min, broadcast from the last rank, barrier,
#     and every rank's shard together covering the dataset;
#   - gtc compile --data-parallel on the GPU: examples/digits_auto.json compiled with and without
#     it (CUDA code), 8 steps side by side (tests/e2e/data_parallel.php): bit-identical parameters
#     without a world, then in a world of 1 joined through NCCL (the all-reduce captured in the
#     plan's CUDA Graph, which is rebuilt when init() joins).
#   bash tests/gpu/distributed.sh build/gtc build/gtc.so
# Prints PASS/FAIL lines and "N passed, N failed"; exits 1 when anything failed.
set -u
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
gtc=$(abs "${1:?usage: distributed.sh GTC GTC_SO}")
ext=$(abs "${2:?usage: distributed.sh GTC GTC_SO}")
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
unset GTC_DEVICE RANK WORLD_SIZE LOCAL_RANK LOCAL_WORLD_SIZE GTC_DIST_DIR
pass=0 fail=0
check() {
    local name="$1"
    shift
    if "$@"; then pass=$((pass + 1)); echo "PASS $name"; else fail=$((fail + 1)); echo "FAIL $name"; fi
}
"$gtc" --version | grep '^nccl:'
check "distributed_gpu.phpt" bash -c "bash '$here/../php/run.sh' '$ext' '$here/../php/distributed_gpu.phpt' | tail -n1 | grep -q '^1 passed, 0 failed'"
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
for n in $(printf "%s\n" 1 2 "$ngpu" | sort -nu); do
    [ "$n" -ge 1 ] && [ "$n" -le "$ngpu" ] || { echo "SKIP gtc run -n $n (only $ngpu GPU(s))"; continue; }
    check "gtc run -n $n dist_check.php" "$gtc" run -n "$n" -d extension="$ext" "$here/dist_check.php"
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtc-dp-gpu-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
root="$here/../.."
sed 's/"digits_auto_step"/"plain_step"/' "$root/examples/digits_auto.json" >"$tmp/plain.json"
sed 's/"digits_auto_step"/"dp_step"/' "$root/examples/digits_auto.json" >"$tmp/dp.json"
check "compile plain (CUDA)" "$gtc" compile "$tmp/plain.json" -o "$tmp/plain.so"
check "compile --data-parallel (CUDA)" "$gtc" compile --data-parallel "$tmp/dp.json" -o "$tmp/dp.so"
out=$(php -d extension="$ext" -d extension="$tmp/plain.so" -d extension="$tmp/dp.so" "$root/tests/e2e/data_parallel.php" 2>&1)
echo "$out"
check "data-parallel step on the GPU, world of 1 through NCCL: bit-identical" test "$out" = "no world: parameters bit-identical
world of 1 joined: parameters bit-identical
allreduce steps: 1 (reads d_b2,d_w2,d_b1,d_w1), plain: 0"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
