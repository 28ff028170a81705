#!/usr/bin/env bash
# tests/gpu/distributed.sh: Cuda\Distributed and `gtc run` on CUDA devices (docs/distributed.md),
# on the GPU machine after `make` (source .device/env.sh first there):
#   - tests/php/distributed_gpu.phpt: a world of 1 through NCCL's communicator of one rank;
#   - gtc run -n 1 tests/gpu/dist_check.php: the same collectives with known answers, launched;
#   - with 2 or more GPUs (nvidia-smi -L), gtc run -n 2 (and -n N for all of them): the
#     rendezvous through GTC_DIST_DIR, sum/mean/max/min, broadcast from the last rank, barrier,
#     and every rank's shard together covering the dataset.
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
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
