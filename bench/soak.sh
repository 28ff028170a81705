#!/usr/bin/env bash
# bench/soak.sh: the memory soak (bench/soak.php) of a compiled training step and of eager ops:
# 100,000 replays of examples/train_step.json's model, each with new input tensors, then 100,000
# eager ops; prints memory (PHP, RSS, the runtime's allocated bytes, on CUDA the allocator's
# reserved bytes and the device's memory in use) after warm-up and at every 10%, the growth, and
# "soak: PASS" or "soak: FAIL (...)" (exit 1) when PHP memory or allocator bytes grew after warm-up.
#
#   bash bench/soak.sh [GTC_SO] [MODEL_SO]
#
# GTC_SO: gtc.so (default build/gtc.so); MODEL_SO: the compiled step (default
# build/bench/train_step.so; when it is missing and build/gtc is there, it is compiled first with
# `build/gtc compile examples/train_step.json -o MODEL_SO`). Prebuilt files are used as they are,
# so on the GPU machine (no build tools there) carry gtc.so and the model built here:
#
#   source .device/env.sh; GTC_DEVICE=cuda bash bench/soak.sh build/gtc.so build/bench/train_step.so
#
# Environment: PHP (default php), GTC_DEVICE (cpu / cuda; unset: auto), SOAK_ARGS (soak.php
# options, e.g. "--replays=20000 --eager=20000"), OPENBLAS_NUM_THREADS (default 1). On this
# repository's 2-core CPU machine the full soak takes about 20 minutes (10 ms per CPU replay).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
ext=${1:-build/gtc.so}
model=${2:-build/bench/train_step.so}
php_bin=${PHP:-php}
for f in "$ext"; do
  [ -f "$f" ] || { echo "soak.sh: $f does not exist (run make first)" >&2; exit 2; }
done
if [ ! -f "$model" ]; then
  if [ -x "$root/build/gtc" ]; then
    mkdir -p "$(dirname "$model")"
    "$root/build/gtc" compile "$root/examples/train_step.json" -o "$model" || exit 2
  else
    echo "soak.sh: $model does not exist: build it with build/gtc compile examples/train_step.json -o $model" >&2
    exit 2
  fi
fi
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); gtc.so: $ext; model: $model; GTC_DEVICE=${GTC_DEVICE:-}"
if command -v nvidia-smi >/dev/null 2>&1; then
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader 2>&1 | head -1)"
fi
# shellcheck disable=SC2086
exec "$php_bin" -n -d extension="$ext" -d extension="$model" "$here/soak.php" ${SOAK_ARGS:-}
