#!/usr/bin/env bash
# tests/fuzz/run.sh: runs libFuzzer targets one after another (`make fuzz` calls it).
#
# usage: tests/fuzz/run.sh BUILD_DIR SECONDS TARGET...     (TARGET: fuzz_graph, fuzz_php, fuzz_npy, fuzz_runtime)
#
# Each target fuzzes for SECONDS from its seeds in tests/fuzz/corpus/<name>/ (read only) plus
# what earlier runs found in BUILD_DIR/corpus/<name>/ (where new inputs go), with the dictionary
# tests/fuzz/<name>.dict when there is one, after replaying tests/fuzz/regressions/<name>/*
# (reproducers of crashes already fixed). The last lines of each run are libFuzzer's final
# stats ("#N DONE cov: C ft: F corp: ..." and stat::number_of_executed_units etc.). A crash,
# leak, sanitizer report or timeout leaves its reproducer under BUILD_DIR/crashes/<name>/, the
# log in BUILD_DIR/<target>.log, and makes the status 1. Reproduce with BUILD_DIR/<target> FILE.
# FUZZ_JOBS is not supported on purpose: one target at a time.
set -u
if [ $# -lt 3 ]; then
    echo "usage: $0 BUILD_DIR SECONDS TARGET..." >&2
    exit 2
fi
build=$1
secs=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
status=0
for target in "$@"; do
    name=${target#fuzz_}
    bin=$build/$target
    if [ ! -x "$bin" ]; then
        echo "$0: $bin is not built" >&2
        exit 2
    fi
    case $name in
        graph) max_len=16384 ;; # the largest seed is under 5 KiB; room for growth
        php) max_len=8192 ;;
        npy) max_len=2048 ;;    # headers are short; data beyond a few elements adds nothing
        runtime) max_len=1024 ;; # a few tensors and 24 actions; longer inputs only add contents
        *) max_len=4096 ;;
    esac
    corpus=$build/corpus/$name
    crashes=$build/crashes/$name
    mkdir -p "$corpus" "$crashes"
    dict=()
    if [ -f "$here/$name.dict" ]; then dict=(-dict="$here/$name.dict"); fi
    log=$build/$target.log
    rc=0
    # First the reproducers of crashes already fixed (tests/fuzz/regressions/<name>/), each once.
    regress=()
    if [ -d "$here/regressions/$name" ]; then
        for f in "$here/regressions/$name"/*; do [ -f "$f" ] && regress+=("$f"); done
    fi
    if [ ${#regress[@]} -gt 0 ]; then
        if "$bin" "${regress[@]}" >"$log" 2>&1; then
            echo "== $target: ${#regress[@]} regression input(s) pass"
        else
            echo "$target: FAILED on a regression input; log $log"
            grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$log"
            status=1
            continue
        fi
    fi
    echo "== $target: $secs s, -max_len=$max_len"
    ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}" \
    "$bin" -max_total_time="$secs" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$crashes/" "${dict[@]}" \
        "$corpus" "$here/corpus/$name" >"$log" 2>&1 || rc=$?
    grep -E '^#[0-9]+[[:space:]]+DONE|^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log"
    if [ "$rc" -ne 0 ]; then
        echo "$target: FAILED (exit $rc); log $log; reproducers:"
        ls -1 "$crashes" | sed "s|^|  $crashes/|"
        grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$log" || tail -n 20 "$log"
        status=1
    fi
done
exit $status
