#!/usr/bin/env bash
# tests/errors/run.sh: the diagnostics suite. Runs gtc on every bad input under tests/errors/ and
# compares what it writes to stderr, byte for byte, and its exit code with the expected ones.
#
# usage: tests/errors/run.sh GTC_BINARY [--update]
#
# Each case is a directory tests/errors/<case>/ holding:
#   graph.json  the bad input (any other file name works; `cmd` names it)
#   cmd         gtc's arguments, split on whitespace (default: "check graph.json"; an empty
#               file runs gtc with no arguments)
#   expected    the exact expected stderr
#   exit        the expected exit status (default 1)
#   generate    optional: a bash script that writes inputs too large or too odd to commit
#               (e.g. 100,000 nested '['); it runs first, in the case's scratch copy
# Every case runs in a scratch copy of its directory, from inside it, so messages begin with
# the file name as given in `cmd` and generated files never land in the tree. A status of 128
# or more (a signal, or a sanitizer report; ASAN/UBSAN exit with 134 here) is always a failure,
# and so is a case that runs longer than 10 seconds.
# --update rewrites `expected` and `exit` from what gtc does now: review the diff before
# committing it. The last line is "N passed, N failed"; the status is 1 when any case failed.
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
    work=$scratch/$name
    cp -R "$dir" "$work/"
    problem=""
    if [ -f "$dir/generate" ] && ! (cd "$work" && bash ./generate) >"$scratch/gen.log" 2>&1; then
        problem="its generate script failed: $(head -c 500 "$scratch/gen.log")"
    fi
    args=(check graph.json)
    if [ -f "$dir/cmd" ]; then read -r -a args <"$dir/cmd" || true; fi
    want_exit=1
    if [ -f "$dir/exit" ]; then want_exit=$(tr -d ' \n' <"$dir/exit"); fi
    got_exit=0
    if [ -z "$problem" ]; then
        (cd "$work" && exec timeout 10 "$gtc" "${args[@]}") >/dev/null 2>"$scratch/stderr" || got_exit=$?
    fi
    if [ -n "$update" ] && [ -z "$problem" ] && [ "$got_exit" -lt 124 ]; then
        cp "$scratch/stderr" "$dir/expected"
        echo "$got_exit" >"$dir/exit"
        want_exit=$got_exit
    fi
    if [ -z "$problem" ]; then
        if [ "$got_exit" -eq 124 ]; then
            problem="timed out after 10 s (a hang?)"
        elif [ "$got_exit" -ge 128 ]; then
            problem="crashed: exit status $got_exit"
        elif [ "$got_exit" != "$want_exit" ]; then
            problem="exit status $got_exit, expected $want_exit"
        fi
        if [ ! -f "$dir/expected" ]; then
            problem="${problem:+$problem; }no expected file"
        elif ! cmp -s "$dir/expected" "$scratch/stderr"; then
            problem="${problem:+$problem; }stderr differs"
        fi
    fi
    if [ -z "$problem" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: $problem (gtc ${args[*]})"
        if [ -f "$dir/expected" ] && [ -f "$scratch/stderr" ]; then
            diff -u --label expected --label actual "$dir/expected" "$scratch/stderr" | head -n 40
        fi
    fi
    rm -rf "$work" "$scratch/stderr"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
