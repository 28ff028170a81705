#!/usr/bin/env bash
# tests/compat/run-peer.sh: runs php-gpu-tensors' own .phpt tests against our gtc.so, as the
# compatibility check of docs/compat.md. Its tests are that project's, not ours: they are never
# copied into this repository. Fetch them yourself (its repository's tests/ folder) into a
# directory and pass it:
#
#   bash tests/compat/run-peer.sh DIR [GTC_SO]     (GTC_SO: build/gtc.so)
#
# Each test runs in a scratch copy of DIR through tests/php/run.sh (run-tests.php with
# `-d extension=GTC_SO`; on the GPU machine set GTC_DEVICE=cuda to run on the device). Prints one line per test (PASS, FAIL,
# SKIP, BORK) and "N passed, N failed, N skipped"; exits 1 when any failed. Not part of
# `make test`: the peer's tests are not here.
#
# The peer's tests skip themselves when cuda_get_device_count() < 1, which is the truthful
# answer on our CPU backend. PEER_ON_CPU=1 drops that one condition from the scratch copies'
# SKIPIF sections, so the same tests run against the CPU backend (the per-test CPU column of
# docs/compat.md).
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -d "$1" ]; then
    echo "usage: $0 PEER_TESTS_DIR [GTC_SO]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
src=$(abs "$1")
ext=$(abs "${2:-build/gtc.so}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the peer's layout: tests/ beside its fused.php (fusion_training.phpt requires ../fused.php)
mkdir "$work/tests"
cp -r "$src"/. "$work/tests/"
[ -f "$src/fused.php" ] && mv "$work/tests/fused.php" "$work/fused.php"
if [ -n "${PEER_ON_CPU:-}" ]; then
    sed -i 's/cuda_get_device_count() < 1/false/' "$work"/tests/*.phpt
fi
# our .phpt runner (run-tests.php with -d extension=GTC_SO) over the scratch copy
out=$(bash "$here/../php/run.sh" "$ext" "$work/tests" 2>&1)
pass=0 fail=0 skip=0
while IFS= read -r line; do
    case $line in
    PASS*) pass=$((pass + 1)) ;;
    FAIL* | BORK*) fail=$((fail + 1)) ;;
    SKIP*) skip=$((skip + 1)) ;;
    *) continue ;;
    esac
    t=$(sed -nE 's/.*\[([^]]*\.phpt)\].*/\1/p' <<<"$line")
    printf '%-5s %s\n' "${line%% *}" "$(basename "${t:-?}")"
done < <(grep -oE '(PASS|FAIL|SKIP|BORK) .*\[[^]]*\.phpt\]' <<<"$out")
[ -n "${VERBOSE:-}" ] && printf '%s\n' "$out"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
