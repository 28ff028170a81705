#!/usr/bin/env bash
# tests/pie/run.sh: gtc.so built the way PIE builds it (runtime/php/config.m4: phpize &&
# ./configure && make; CPU backend only), then tested:
#   1. it loads with every symbol bound (LD_BIND_NOW=1: an unresolved symbol fails here, not
#      later as a "symbol lookup error" inside PHP),
#   2. the .phpt suite (tests/php/run.sh) against it,
#   3. Cuda\Fusion::compile (tests/pie/smoke.php): a closure compiled by cc, run and checked.
#   bash tests/pie/run.sh            (make pie; PHP, PHPIZE, PHP_CONFIG and JOBS are honoured)
# The build happens in a copy of the tree in a temporary directory (the files git tracks plus
# untracked ones it does not ignore), so phpize's files never land in the source tree; the copy
# is removed when everything passed and kept (its path printed) when something failed.
# Ends with "make pie: PASS ..." or "make pie: FAIL ..." and exits non-zero on failure.
set -u
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
php="$(command -v "${PHP:-php}")" || { echo "make pie: FAIL (no php: set PHP)"; exit 1; }
phpize="${PHPIZE:-phpize}"
php_config="${PHP_CONFIG:-php-config}"
jobs="${JOBS:-2}"
work="$(mktemp -d "${TMPDIR:-/tmp}/gtc-pie.XXXXXX")" || exit 2
src="$work/src"
mkdir -p "$src" "$work/cache"

fail() {
    echo "make pie: FAIL ($*; build kept in $work)"
    exit 1
}

# 1. the copy: what git sees (deleted files left out), or everything but build/ without git
cd "$top" || exit 2
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
        tar -cf - --null -T - | tar -xf - -C "$src" || fail "cannot copy the tree"
else
    tar -cf - --exclude=./build . | tar -xf - -C "$src" || fail "cannot copy the tree"
fi

# 2. the PIE build
ext_dir="$src/runtime/php"
log="$work/build.log"
echo "pie: building gtc.so in $ext_dir (phpize && ./configure && make -j$jobs; log: $log)"
( cd "$ext_dir" && "$phpize" && ./configure --with-php-config="$php_config" &&
  nice make -j"$jobs" ) >"$log" 2>&1 || { tail -n 40 "$log"; fail "the phpize build failed"; }
so="$ext_dir/modules/gtc.so"
[ -f "$so" ] || fail "the build made no $so"

# 3. every symbol bound at load
if ! out="$(LD_BIND_NOW=1 "$php" -n -d "extension=$so" -r 'echo extension_loaded("gtc") ? "ok" : "not loaded";' 2>&1)" ||
   [ "$out" != ok ]; then
    echo "$out"
    fail "gtc.so does not load with LD_BIND_NOW=1"
fi
echo "pie: gtc.so loads with every symbol bound"

# 4. the .phpt suite (the copy's tests: run-tests' .diff/.out files stay out of the source tree)
PHP="$php" bash "$src/tests/php/run.sh" "$so" || fail "the .phpt suite failed against the PIE build"
phpt_line="$(grep -aE '^Tests passed +:' "$ext_dir/modules/phpt.log" | head -n1 | sed -E 's/^[^:]*: *([0-9]+).*/\1/')"

# 5. Cuda\Fusion::compile with a fresh kernel cache (the C compiler really runs)
GTC_CACHE_DIR="$work/cache" "$php" -n -d "extension=$so" "$src/tests/pie/smoke.php" ||
    fail "Cuda\\Fusion::compile smoke check failed"

rm -rf "$work"
echo "make pie: PASS (PIE-built gtc.so: loads, .phpt suite ${phpt_line:-?} passed, Cuda\\Fusion smoke ok)"
