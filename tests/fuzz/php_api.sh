#!/usr/bin/env bash
# tests/fuzz/php_api.sh: runs tests/fuzz/fuzz_php_api.php (random programs against gtc.so's PHP
# API, NumPy for a subset) for seeds FIRST..LAST, preferably against the ASan build
# (make BUILD=build/asan ... build/asan/gtc.so, as make asan builds it; docs/security.md).
#   bash tests/fuzz/php_api.sh build/asan/gtc.so [FIRST LAST [STEPS]]
# A seed whose run fails (a finding, a fatal error, a sanitizer report) is named with its last
# lines; rerun it alone with the same arguments. Exits non-zero when any seed failed.
set -u
ext="${1:?usage: php_api.sh path/to/gtc.so [first last [steps]]}"
first=${2:-1}
last=${3:-20}
steps=${4:-1500}
case "$ext" in /*) ;; *) ext="$PWD/$ext" ;; esac
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
php="${PHP:-$(command -v php)}"
. "$here/../php/san_env.sh"
trap '[ -n "$shim_dir" ] && rm -rf "$shim_dir"' EXIT
failed=0
for seed in $(seq "$first" "$last"); do
    # -n: no php.ini; deprecations (null to a string parameter) are not findings
    out="$("$php" -n -d "extension=$ext" -d memory_limit=1G -d error_reporting=24575 \
        "$here/fuzz_php_api.php" "$seed" "$steps" 2>&1)"
    rc=$?
    if [ $rc -ne 0 ] || grep -qaE 'Fatal error|ERROR: AddressSanitizer|runtime error:' <<<"$out"; then
        echo "seed $seed: FAILED (exit $rc)"
        tail -n 25 <<<"$out"
        failed=$((failed + 1))
    else
        grep -a '^seed ' <<<"$out"
    fi
done
echo "php_api: seeds $first..$last, $failed failed"
[ $failed -eq 0 ]
