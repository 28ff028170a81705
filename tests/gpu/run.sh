#!/usr/bin/env bash
# tests/gpu/run.sh: builds the GPU op harness (runtime/cuda/cuda.mk) and runs it; needs a CUDA
# device. Arguments go to the harness (-v: every check; --self-test: CPU on both sides).
#   bash tests/gpu/run.sh [-v]
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
mk=(make --no-print-directory BUILD="$BUILD")
# until the top-level Makefile includes the fragment, pass it explicitly
grep -q 'runtime/cuda/cuda.mk' Makefile || mk+=(-f Makefile -f runtime/cuda/cuda.mk)
"${mk[@]}" "$BUILD/tests/test_gpu_ops"
exec "$BUILD/tests/test_gpu_ops" "$@"
