#!/usr/bin/env bash
# tests/gpu/buildkit.sh: what the GPU machine lacks to *build* gtc (it has gcc, make and CUDA, and
# ../shared/device/make-bundle.sh gives it PHP, cJSON and OpenBLAS at run time): the headers of
# PHP, cJSON and OpenBLAS from this machine's Debian packages, the unversioned .so links the
# linker wants, and a php-config that points at them. Lets `make demo` run there from a clean
# tree, as a newcomer would run it (scripts/install-deps.sh checks instead of installing on a
# machine without dpkg).
#
#   bash tests/gpu/buildkit.sh        here: writes .device/buildkit.tar.xz and .device/buildkit.sh
#   source .device/env.sh; source .device/buildkit.sh; make demo      there (device tool)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/.device
[ -f "$out/env.sh" ] || { echo "buildkit: $out/env.sh not found: run ../shared/device/make-bundle.sh first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
k=$work/kit
mkdir -p "$k/include" "$k/lib" "$k/bin"
phpinc=$(php-config --include-dir)
cp -a "$phpinc" "$k/include/php"
cp -a /usr/include/cjson /usr/include/cmocka.h /usr/include/cmocka_pbc.h /usr/include/zip.h /usr/include/zipconf.h "$k/include/"
blas=$(dirname "$(readlink -f /usr/include/x86_64-linux-gnu/cblas.h)")
cp -L "$blas"/*.h "$k/include/"
# libzip (.npz checkpoints) is not in the shared bundle: the kit carries it and its bzip2, for
# linking and at run time (buildkit.sh puts the kit's lib/ on LD_LIBRARY_PATH)
mkdir -p "$k/runlib"
cp -L /usr/lib/x86_64-linux-gnu/libzip.so.4 /lib/x86_64-linux-gnu/libbz2.so.1.0 "$k/runlib/"
cat >"$k/bin/php-config" <<'PC'
#!/bin/sh
# php-config for the GPU machine's bundle (tests/gpu/buildkit.sh): headers under $GTC_BUILDKIT.
i=$GTC_BUILDKIT/include/php
case "$1" in
  --includes) echo "-I$i -I$i/main -I$i/TSRM -I$i/Zend -I$i/ext -I$i/ext/date/lib" ;;
  --include-dir) echo "$i" ;;
  --version) echo "@VERSION@" ;;
  --vernum) echo "@VERNUM@" ;;
  --extension-dir) echo "$GTC_DEVICE_ROOT/ext" ;;
  --php-binary) command -v php ;;
  *) echo "php-config (buildkit): unsupported option $1" >&2; exit 1 ;;
esac
PC
sed -i "s/@VERSION@/$(php-config --version)/; s/@VERNUM@/$(php-config --vernum)/" "$k/bin/php-config"
chmod +x "$k/bin/php-config"
tar -C "$k" -cJf "$out/buildkit.tar.xz" .
cat >"$out/buildkit.sh" <<'ENV'
# Source after .device/env.sh on the GPU machine: unpacks tests/gpu/buildkit.sh's kit and
# points the compiler, the linker and php-config at it.
_kit_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export GTC_BUILDKIT=$GTC_DEVICE_ROOT/buildkit
rm -rf "$GTC_BUILDKIT" && mkdir -p "$GTC_BUILDKIT" && tar -C "$GTC_BUILDKIT" -xJf "$_kit_here/buildkit.tar.xz"
ln -sf "$GTC_DEVICE_ROOT/lib/libcjson.so.1" "$GTC_BUILDKIT/lib/libcjson.so"
ln -sf "$GTC_DEVICE_ROOT/lib/libopenblas.so.0" "$GTC_BUILDKIT/lib/libopenblas.so"
ln -sf "$GTC_DEVICE_ROOT/lib/libcmocka.so.0" "$GTC_BUILDKIT/lib/libcmocka.so"
ln -sf "$GTC_BUILDKIT/runlib/libzip.so.4" "$GTC_BUILDKIT/lib/libzip.so"
export LD_LIBRARY_PATH="$GTC_BUILDKIT/runlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$GTC_BUILDKIT/bin:$PATH"
export CPATH="$GTC_BUILDKIT/include${CPATH:+:$CPATH}"
export LIBRARY_PATH="$GTC_BUILDKIT/lib${LIBRARY_PATH:+:$LIBRARY_PATH}"
ENV
echo "buildkit: wrote $out/buildkit.tar.xz ($(du -h "$out/buildkit.tar.xz" | cut -f1)) and $out/buildkit.sh"
