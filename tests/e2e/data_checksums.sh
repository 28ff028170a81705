#!/usr/bin/env bash
# tests/e2e/data_checksums.sh: `make data` is deterministic. Regenerates the example data into a
# temp dir (reusing the digits.csv.gz cached in examples/data/ when there is one, else fetching
# python3-sklearn as make data does) and compares every .npy's SHA-256 with the committed
# tests/e2e/data.sha256. UCI optdigits files in examples/data/ are not used here.
#
# usage: tests/e2e/data_checksums.sh [GTC_EXT]   (default build/gtc.so)
# After an intended change to scripts/make-data.php, refresh the expected sums with
#   cp examples/data/SHA256SUMS tests/e2e/data.sha256   (after make data; review the change).
# The last line is "N passed, N failed"; the status is 1 when any check failed.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
ext=${1:-$root/build/gtc.so}
case $ext in /*) ;; *) ext=$PWD/$ext ;; esac
expected=$root/tests/e2e/data.sha256
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

[ -f "$root/examples/data/digits.csv.gz" ] && cp "$root/examples/data/digits.csv.gz" "$tmp/"
if ! GTC_EXT=$ext bash "$root/scripts/make-data.sh" "$tmp" >"$tmp/log" 2>&1; then
    echo "FAIL make-data.sh into a temp dir"
    sed 's/^/    /' "$tmp/log"
    echo "0 passed, 1 failed"
    exit 1
fi
while read -r sum name; do
    if [ ! -f "$tmp/$name" ]; then
        fail=$((fail + 1)); echo "FAIL $name: not written"
    elif [ "$(sha256sum "$tmp/$name" | cut -d' ' -f1)" = "$sum" ]; then
        pass=$((pass + 1)); echo "PASS $name"
    else
        fail=$((fail + 1)); echo "FAIL $name: SHA-256 differs from tests/e2e/data.sha256"
    fi
done <"$expected"
extra=$(cd "$tmp" && ls *.npy | grep -vxF -f <(awk '{print $2}' "$expected") || true)
if [ -n "$extra" ]; then
    fail=$((fail + 1)); echo "FAIL files missing from tests/e2e/data.sha256: $extra"
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
