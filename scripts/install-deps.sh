#!/usr/bin/env bash
# Installs what gtc needs to build and test, and only what is missing (Debian, apt-get).
# Idempotent: a second run installs nothing. Fails loudly with one sentence when it cannot.
# Each package is needed only when what it provides is not found already (a probe per package:
# tools on PATH, headers and libraries the compiler finds, a Python module), so a machine that
# has them some other way (PHP built from source, headers on CPATH) installs nothing.
#
#   scripts/install-deps.sh            what `make` and `make test` need
#   scripts/install-deps.sh clang      that and the extra packages named (`make fuzz`: clang)
set -euo pipefail

cc=${CC:-cc}
pc=${PHP_CONFIG:-php-config}
has_c() { # has_c HEADER LIB: the compiler finds <HEADER> and links -lLIB
  printf '#include <stddef.h>\n#include <stdarg.h>\n#include <setjmp.h>\n#include <stdint.h>\n#include <%s>\nint main(void){return 0;}\n' "$1" |
    "$cc" -x c - -o /dev/null "-l$2" >/dev/null 2>&1
}
probe() {
  case $1 in
    build-essential) command -v "$cc" >/dev/null && command -v make >/dev/null ;;
    php8.2-dev) command -v "$pc" >/dev/null ;;
    php8.2-cli) command -v "${PHP:-php}" >/dev/null ;;
    libcjson-dev) has_c cjson/cJSON.h cjson ;;
    libcmocka-dev) has_c cmocka.h cmocka ;;
    libopenblas-dev) has_c cblas.h openblas ;;
    libopenblas-openmp-dev) ls /usr/lib/*/openblas-openmp/libopenblas.so >/dev/null 2>&1 ;;
    libzip-dev) has_c zip.h zip ;;
    python3-numpy) python3 -c 'import numpy' >/dev/null 2>&1 ;;
    protobuf-c-compiler) command -v protoc-c >/dev/null ;;
    libprotobuf-c-dev) has_c protobuf-c/protobuf-c.h protobuf-c ;;
    python3-venv) /usr/bin/python3 -c 'import ensurepip, venv' >/dev/null 2>&1 ;;
    clang) command -v "${FUZZ_CC:-clang}" >/dev/null ;;
    *) false ;;
  esac
}
pkgs=(
  build-essential       # cc, make
  php8.2-dev            # PHP headers and php-config for the extensions
  php8.2-cli            # php and run-tests.php's interpreter
  libcjson-dev          # JSON graphs
  libcmocka-dev         # C unit tests
  libopenblas-dev       # CPU GEMM (cblas)
  libopenblas-openmp-dev # its OpenMP build: one thread pool with the CPU loops (docs/cpu.md)
  libzip-dev            # .npz checkpoints (the zip container; docs/checkpoints.md)
  python3-numpy         # .npy interoperability tests
  protobuf-c-compiler   # protoc-c: third_party/onnx/onnx.proto into C (the ONNX front-end, docs/onnx.md)
  libprotobuf-c-dev     # protobuf-c's runtime library and headers
  python3-venv          # make onnx: onnx and onnxruntime from PyPI in build/onnx-venv (scripts/onnx-venv.sh)
  "$@"                  # extras from the command line
)
missing=()
for p in "${pkgs[@]%% *}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' && continue
  probe "$p" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq || { echo "install-deps: apt-get update failed; cannot install ${missing[*]}" >&2; exit 1; }
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || { echo "install-deps: apt-get install failed for ${missing[*]}" >&2; exit 1; }
fi
cuda=${CUDA_HOME:-/usr/local/cuda}
if [ ! -x "$cuda/bin/nvcc" ]; then
  echo "install-deps: the CUDA toolkit was not found at ${CUDA_HOME:-/usr/local/cuda} (set CUDA_HOME to where nvcc lives in bin/)." >&2
  exit 1
fi
command -v "$pc" >/dev/null || { echo "install-deps: $pc is missing after installing php8.2-dev." >&2; exit 1; }
echo "install-deps: all dependencies present (CUDA at $cuda, $("$pc" --version | sed 's/^/PHP /'))"
