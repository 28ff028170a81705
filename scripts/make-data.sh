#!/usr/bin/env bash
# scripts/make-data.sh: `make data` — writes the example data sets into examples/data/ (or OUT_DIR)
# deterministically; scripts/make-data.php does the work, this finds the digits source first.
#
#   scripts/make-data.sh [OUT_DIR]
#
# Digits source, first found wins:
#   1. OUT_DIR/optdigits.tra and OUT_DIR/optdigits.tes (the UCI files, if you have them);
#   2. a cached digits.csv.gz in OUT_DIR or examples/data/ (kept by an earlier run);
#   3. Debian's python3-sklearn package: `apt-get download` into a temp dir (`apt-get update`
#      first only if that fails), `dpkg-deb -x`, take sklearn/datasets/data/digits.csv.gz.
# The digits CSV is checked against its known SHA-256, so every machine gets the same bytes.
# Environment: PHP (default php), GTC_EXT (default build/gtc.so).
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/examples/data}
php=${PHP:-php}
ext=${GTC_EXT:-$root/build/gtc.so}
digits_sha256=6ebb3d2fee246a4e99363262ddf8a00a3c41bee6014c373ed9d9216ba7f651b8  # digits.csv

die() { echo "make-data: $*" >&2; exit 1; }

[ -f "$ext" ] || die "$ext not found: run make first"
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

csv_ok() { [ "$(gzip -dc "$1" 2>/dev/null | sha256sum | cut -d' ' -f1)" = "$digits_sha256" ]; }

fetch_sklearn_digits() {   # leaves the package's digits.csv.gz at $1
    local deb=$tmp/deb
    mkdir -p "$deb"
    echo "make-data: fetching python3-sklearn from the Debian mirror (apt-get download)"
    if ! (cd "$deb" && apt-get download python3-sklearn >"$tmp/apt.log" 2>&1); then
        echo "make-data: apt-get download failed; running apt-get update and retrying"
        apt-get update >>"$tmp/apt.log" 2>&1 || true
        (cd "$deb" && apt-get download python3-sklearn >>"$tmp/apt.log" 2>&1) || {
            cat "$tmp/apt.log" >&2
            die "could not download python3-sklearn; put optdigits.tra and optdigits.tes (UCI) or \
sklearn's digits.csv.gz into $out instead"
        }
    fi
    dpkg-deb -x "$deb"/python3-sklearn_*.deb "$deb/x"
    local f
    f=$(find "$deb/x" -path '*/sklearn/datasets/data/digits.csv.gz' | head -n 1)
    [ -n "$f" ] || die "python3-sklearn has no sklearn/datasets/data/digits.csv.gz"
    cp "$f" "$1"
}

if [ -f "$out/optdigits.tra" ] && [ -f "$out/optdigits.tes" ]; then
    source="optdigits:$out/optdigits.tra,$out/optdigits.tes"
else
    cache=""
    for c in "$out/digits.csv.gz" "$root/examples/data/digits.csv.gz"; do
        if [ -f "$c" ] && csv_ok "$c"; then cache=$c; break; fi
    done
    if [ -z "$cache" ]; then
        fetch_sklearn_digits "$tmp/digits.csv.gz"
        csv_ok "$tmp/digits.csv.gz" || die "digits.csv.gz from python3-sklearn does not have the expected \
SHA-256 ($digits_sha256 of the uncompressed CSV)"
        cp "$tmp/digits.csv.gz" "$out/digits.csv.gz"
        cache=$out/digits.csv.gz
    fi
    gzip -dc "$cache" >"$tmp/digits.csv"
    source=$tmp/digits.csv
fi

"$php" -n -d extension="$ext" "$root/scripts/make-data.php" "$out" "$source"
(cd "$out" && sha256sum digits_*.npy pcam_*.npy >SHA256SUMS)
echo "make-data: wrote $(wc -l <"$out/SHA256SUMS") files and SHA256SUMS to $out"
