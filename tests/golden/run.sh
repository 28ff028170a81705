#!/usr/bin/env bash
# tests/golden/run.sh: the golden-output suite. Runs gtc's subcommands on every graph under
# tests/golden/ and compares their standard output, byte for byte, with the reviewed files.
#
# usage: tests/golden/run.sh GTC_BINARY [--update]
#
# Each case is a directory tests/golden/<case>/ holding graph.json (or graph.onnx, or graph.php, a PHP graph
# file) and expected/. Every file in expected/ is one comparison, and its name says what to
# run: the stem is the subcommand, so expected/dump.txt is the stdout of `gtc dump graph.json`,
# expected/check.txt that of `gtc check graph.json`, and dropping in expected/plan.txt adds
# `gtc plan graph.json`. Options follow the subcommand after "--":
# expected/dump--after=simplify.txt is the stdout of `gtc dump --after=simplify graph.json`.
# Files under expected/emit/ are compared with what
# `gtc emit graph.json --emit-dir DIR` writes into DIR (expected/emit/kernels.cu with
# DIR/kernels.cu, and so on), each copied-in text (ir/scalar.h, the templates/ preludes) cut to
# one "gtc:prelude PATH (elided)" line by strip_prelude.awk: a prelude edit changes no golden
# file, and a golden diff shows what the planner decided. Unbalanced gtc:prelude markers fail.
# gtc runs from inside the case directory, must exit 0 and write nothing to stderr; a hang
# (10 s) or a crash is a failure. A case whose expected/ is empty or missing gets the default
# set, $GOLDEN_DEFAULT ("check dump"), when --update runs.
# --update rewrites the expected files from what gtc prints now: review the diff before
# committing it. The last line is "N passed, N failed", counting comparisons; the status is 1
# when any failed.
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ] || { [ $# -eq 2 ] && [ "$2" != --update ]; }; then
    echo "usage: $0 GTC_BINARY [--update]" >&2
    exit 2
fi
gtc=$1
update=${2:-}
case $gtc in /*) ;; *) gtc=$PWD/$gtc ;; esac
if [ ! -x "$gtc" ]; then
    echo "$0: $gtc is not an executable" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
export ASAN_OPTIONS="exitcode=134:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="exitcode=134:print_stacktrace=1:${UBSAN_OPTIONS:-}"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
pass=0
fail=0
for dir in "$here"/*/; do
    dir=${dir%/}
    name=$(basename "$dir")
    in=graph.json # or graph.php: a PHP graph file (docs/php-graphs.md)
    [ -f "$dir/graph.php" ] && in=graph.php
    [ -f "$dir/graph.onnx" ] && in=graph.onnx # or an ONNX model (docs/onnx.md)
    [ -f "$dir/$in" ] || continue
    files=()
    for f in "$dir"/expected/*; do [ -f "$f" ] && files+=("$f"); done
    if [ ${#files[@]} -eq 0 ]; then
        if [ -z "$update" ]; then
            fail=$((fail + 1))
            echo "FAIL $name: no expected/ files (run with --update to create them)"
            continue
        fi
        mkdir -p "$dir/expected"
        for sub in ${GOLDEN_DEFAULT:-check dump}; do files+=("$dir/expected/$sub.txt"); done
    fi
    for want in "${files[@]}"; do
        base=$(basename "$want")
        sub=${base%%.*}
        args=()
        if [[ $sub == *--* ]]; then
            rest=${sub#*--}
            sub=${sub%%--*}
            while [[ $rest == *--* ]]; do args+=("--${rest%%--*}"); rest=${rest#*--}; done
            args+=("--$rest")
        fi
        status=0
        (cd "$dir" && exec timeout 10 "$gtc" "$sub" "${args[@]}" "$in") >"$scratch/out" 2>"$scratch/err" || status=$?
        problem=""
        if [ "$status" -eq 124 ]; then
            problem="timed out after 10 s (a hang?)"
        elif [ "$status" -ge 128 ]; then
            problem="crashed: exit status $status"
        elif [ "$status" -ne 0 ]; then
            problem="exit status $status"
        elif [ -s "$scratch/err" ]; then
            problem="wrote to stderr"
        elif [ -n "$update" ]; then
            cp "$scratch/out" "$want"
        fi
        if [ -z "$problem" ] && ! cmp -s "$want" "$scratch/out"; then
            problem="stdout differs"
        fi
        if [ -z "$problem" ]; then
            pass=$((pass + 1))
            continue
        fi
        fail=$((fail + 1))
        echo "FAIL $name/expected/$base: $problem (gtc $sub ${args[*]:+${args[*]} }$in)"
        head -c 2000 "$scratch/err"
        if [ -f "$want" ]; then
            diff -u --label "expected/$base" --label actual "$want" "$scratch/out" | head -n 60
        fi
    done
    # expected/emit/FILE: FILE as `gtc emit graph.json --emit-dir DIR` writes it (kernels.cu, ...)
    [ -d "$dir/expected/emit" ] || continue
    rm -rf "$scratch/emit" && mkdir -p "$scratch/emit"
    status=0
    (cd "$dir" && exec timeout 10 "$gtc" emit "$in" --emit-dir "$scratch/emit") >"$scratch/out" 2>"$scratch/err" || status=$?
    for want in "$dir"/expected/emit/*; do
        [ -f "$want" ] || continue
        base=$(basename "$want")
        got="$scratch/emit/$base.stripped"
        problem=""
        if [ "$status" -ne 0 ]; then
            problem="exit status $status"
        elif [ -s "$scratch/err" ] || [ -s "$scratch/out" ]; then
            problem="wrote to stdout or stderr"
        elif [ ! -f "$scratch/emit/$base" ]; then
            problem="not emitted"
        elif ! awk -f "$here/strip_prelude.awk" "$scratch/emit/$base" >"$got" 2>"$scratch/strip"; then
            problem="unbalanced gtc:prelude markers: $(head -c 500 "$scratch/strip")"
            rm -f "$got"
        elif [ -n "$update" ]; then
            cp "$got" "$want"
        fi
        if [ -z "$problem" ] && ! cmp -s "$want" "$got"; then
            problem="emitted file differs"
        fi
        if [ -z "$problem" ]; then
            pass=$((pass + 1))
            continue
        fi
        fail=$((fail + 1))
        echo "FAIL $name/expected/emit/$base: $problem (gtc emit graph.json --emit-dir DIR)"
        head -c 2000 "$scratch/err"
        [ -f "$got" ] && diff -u --label "expected/emit/$base" --label actual "$want" "$got" | head -n 60
    done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
