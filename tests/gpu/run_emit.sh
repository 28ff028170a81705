#!/usr/bin/env bash
# tests/gpu/run_emit.sh: builds tests/gpu/test_emit_gpu (every test graph's generated kernels.cu,
# built with nvcc and run as the plan's CUDA Graph, against eager CPU evaluation; NVRTC compiles
# of the same text) and runs it. Arguments go to the harness:
#   bash tests/gpu/run_emit.sh                 emit, build and run here (needs a GPU and nvcc)
#   bash tests/gpu/run_emit.sh --build DIR     emit and build into DIR only (no GPU needed)
#   bash tests/gpu/run_emit.sh --run DIR       run what --build made (e.g. on the device machine,
#                                              with the binary built here: see below)
#   bash tests/gpu/run_emit.sh --self-test     CPU backend and cc on both sides (no GPU needed)
# On the device machine (no compilers for our dependencies): build here with --build DIR, carry
# .device, build/ and DIR, then run `source .device/env.sh; build/tests/test_emit_gpu --run DIR`.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
bin="$BUILD/tests/test_emit_gpu"
if [ "${1:-}" != --run ] || [ ! -x "$bin" ]; then
  make --no-print-directory BUILD="$BUILD" all cuda
  mkdir -p "$BUILD/tests"
  cc -std=c11 -Wall -Wextra -Werror -g -O2 -D_GNU_SOURCE -I"$CUDA_HOME/include" -o "$bin" \
    tests/gpu/test_emit_gpu.c "$BUILD"/obj/runtime/cuda/*.o "$BUILD/libgtc.a" "$BUILD/libgtcrt.a" \
    -L"$CUDA_HOME/lib64" -Wl,-rpath,"$CUDA_HOME/lib64" -lcublas -lcublasLt -lnvrtc -lcudart -lstdc++ \
    -lopenblas -fopenmp -lcjson -lm -ldl
fi
CUDA_HOME=$CUDA_HOME GTC_ROOT=${GTC_ROOT:-$PWD} exec "$bin" "$@"
