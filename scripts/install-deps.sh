#!/usr/bin/env bash
# Installs what gtc needs to build and test, and only what is missing (Debian, apt-get).
# Idempotent: a second run installs nothing. Fails loudly with one sentence when it cannot.
set -euo pipefail

pkgs=(
  build-essential       # cc, make
  php8.2-dev            # PHP headers and php-config for the extensions
  php8.2-cli            # php and run-tests.php's interpreter
  libcjson-dev          # JSON graphs
  libcmocka-dev         # C unit tests
  libopenblas-dev       # CPU GEMM (cblas)
  python3-numpy         # .npy interoperability tests
)
missing=()
for p in "${pkgs[@]%% *}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
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
command -v php-config >/dev/null || { echo "install-deps: php-config is missing after installing php8.2-dev." >&2; exit 1; }
echo "install-deps: all dependencies present (CUDA at $cuda, $(php-config --version | sed 's/^/PHP /'))"
