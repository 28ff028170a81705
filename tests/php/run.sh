#!/usr/bin/env bash
# tests/php/run.sh: runs the .phpt suite against a built gtc.so with PHP's run-tests.php.
#   bash tests/php/run.sh build/gtc.so [run-tests options or test paths...]
# Ends with "N passed, N failed" and exits non-zero when any test failed.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ext="${1:?usage: run.sh path/to/gtc.so [tests...]}"
shift
case "$ext" in /*) ;; *) ext="$PWD/$ext" ;; esac
if [ ! -f "$ext" ]; then
    echo "run.sh: $ext does not exist (make build/gtc.so first)" >&2
    exit 2
fi
php="${PHP:-$(command -v php)}"
run_tests="${RUN_TESTS:-}"
if [ -z "$run_tests" ]; then
    for f in /usr/lib/php/*/build/run-tests.php /usr/local/lib/php/build/run-tests.php; do
        [ -f "$f" ] && run_tests="$f" && break
    done
fi
if [ -z "$run_tests" ] || [ ! -f "$run_tests" ]; then
    echo "run.sh: run-tests.php not found (set RUN_TESTS)" >&2
    exit 2
fi
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("$here")

. "$here/san_env.sh" # a sanitizer build: preloads, USE_ZEND_ALLOC=0 (sets $shim_dir)

log="$(dirname "$ext")/phpt.log" # beside the build, not in /tmp, where others may clean up
trap '[ -n "$shim_dir" ] && rm -rf "$shim_dir"' EXIT
export TEST_PHP_EXECUTABLE="$php" NO_INTERACTION=1
# -n: no php.ini in the tests either; -d extension=...: what every test runs with.
"$php" -n -d "extension=$ext" "$run_tests" -n -q --no-color --show-diff -d "extension=$ext" \
    "${targets[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}

count() { # the number on run-tests' summary line "Tests <what> : N (...)"
    local n
    n="$(grep -aE "^Tests $1 +:" "$log" | head -n1 | sed -E 's/^[^:]*: *([0-9]+).*/\1/')"
    echo "${n:-0}"
}
passed="$(count passed)"
failed=$(( $(count failed) + $(count borked) + $(count leaked) ))
if [ "$passed" = 0 ] && [ "$failed" = 0 ] && ! grep -aq "^Tests passed" "$log"; then
    # A single test run prints no summary table: count the PASS/FAIL lines instead.
    passed="$(grep -ac '^PASS' "$log")"
    failed="$(grep -ac '^FAIL' "$log")"
fi
echo "$passed passed, $failed failed"
if [ "$passed" = 0 ] && [ "$failed" = 0 ]; then
    echo "run.sh: no test ran (see run-tests' output above)" >&2
    exit 1
fi
if [ "$failed" != 0 ] || [ "$rc" != 0 ]; then
    exit 1
fi
exit 0
