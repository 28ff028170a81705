#!/usr/bin/env bash
# tests/hostile/run.sh: the hostile-input suite (issue 10). Graphs, PHP graph files and command
# lines crafted to inject C or CUDA code, break out of a string or comment, write outside the
# output folder or overflow a limit must get a clear error, or, where gtc accepts them, compile
# into a model that loads and runs with the text only inside string literals and comments.
#
# usage: tests/hostile/run.sh GTC_BINARY [GTC_EXTENSION] [--update]
#
# Each case is a directory tests/hostile/<case>/ that runs in a scratch copy of itself, from
# inside it, with TMPDIR pointing at an empty scratch folder. A case is one of:
#
#   a command   args      gtc's arguments, one per line (default: check, graph.json); an
#                         argument may contain spaces and quotes, never a newline
#               expected  the exact expected stderr
#               exit      the expected exit status (default 1)
#               stdout    optional: the exact expected stdout
#               writes    optional: the paths (relative to the case, one per line) the command
#                         may create; anything else created anywhere in the scratch tree fails
#               generate  optional: a bash script that first writes inputs too large or too odd
#                         to commit (100,000 nodes, a 64 MiB sparse file, odd file names, links)
#               accept    optional: the command compiles model.so (gtc compile ... -o model.so);
#                         tests/hostile/accept.php then loads it next to gtc.so, runs it on
#                         fixed inputs and must print exactly this file (without
#                         GTC_EXTENSION the model is compiled and checked, not loaded)
#               forbid    optional: words that must not appear in the generated sources (the
#                         case's src/ folder) outside string literals and comments
#                         (tests/hostile/code_only.py)
#   a script    check.sh  run with bash in the scratch copy, with GTC, GTC_EXT (may be empty),
#                         PHP and HOSTILE (this folder) set; exit 0 passes, 77 means it cannot run
#                         here (its last line says why: no GTC_EXTENSION, running as root), anything
#                         else fails (its last lines are shown)
#
# Every case fails when a file named PWNED appears in the scratch tree or the current folder (an
# injected `touch PWNED` ran), when gtc is killed by a signal or a sanitizer
# (status 128 or more; ASan and UBSan exit with 134 here), when it runs longer than 60 seconds,
# or when it leaves files in TMPDIR. A script case that cannot run here gets a "skip" line, and a
# line before the summary counts them. --update rewrites `expected` and `exit`, and `stdout` and
# `accept` where present, of command cases from what gtc does now: review the diff before
# committing it.
# One line per case; the last line is "hostile: N passed, M failed"; the status is 1 when any
# case failed.
set -u

update=""
args_in=()
for a in "$@"; do
    if [ "$a" = --update ]; then update=1; else args_in+=("$a"); fi
done
if [ ${#args_in[@]} -lt 1 ] || [ ${#args_in[@]} -gt 2 ]; then
    echo "usage: $0 GTC_BINARY [GTC_EXTENSION] [--update]" >&2
    exit 2
fi
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
gtc=$(abs "${args_in[0]}")
ext=""
[ ${#args_in[@]} -eq 2 ] && ext=$(abs "${args_in[1]}")
if [ ! -x "$gtc" ]; then
    echo "$0: $gtc is not an executable" >&2
    exit 2
fi
if [ -n "$ext" ] && [ ! -f "$ext" ]; then
    echo "$0: $ext does not exist" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
php=${PHP:-php}
export ASAN_OPTIONS="exitcode=134:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="exitcode=134:print_stacktrace=1:${UBSAN_OPTIONS:-}"
export GTC_DEVICE=cpu GTC_CFLAGS="-Wall -Wextra -Werror"
unset GTC_HOME

scratch=$(mktemp -d)
trap 'chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
tree=$scratch/tree    # the cases' copies: everything a case writes must land here
logs=$scratch/logs    # the runner's own files
mkdir -p "$tree" "$logs"
pass=0
fail=0
skipped=0
unloaded=0

# Everything under the scratch tree, one path a line: links as "path -> target", files with
# their size and modification time (a file written through a link shows), folders plain.
snapshot() {
    (cd "$tree" && find . -mindepth 1 \( -type l -printf '%p -> %l\n' \) -o \( -type f -printf '%p %s %T@\n' \) \
        -o -printf '%p\n' | LC_ALL=C sort)
}

# The paths a command created or changed that its case's `writes` does not allow (an entry
# ending in / allows everything below it).
unexpected() { # unexpected BEFORE AFTER WRITES_FILE WORKDIR
    local w p ok
    local -a allowed=()
    if [ -f "$3" ]; then
        while IFS= read -r w; do
            [ -z "$w" ] && continue
            p=$(cd "$4" && realpath -m -s --relative-to="$tree" -- "$w")
            case $w in */) p=$p/ ;; esac
            allowed+=("$p")
        done <"$3"
    fi
    comm -13 <(printf '%s\n' "$1") <(printf '%s\n' "$2") | sed -E 's/ -> .*//; s/ [0-9]+ [0-9.]+$//; s|^\./||' |
        while IFS= read -r p; do
            ok=""
            for w in "${allowed[@]}"; do
                case $w in */) [[ $p == "$w"* || $p/ == "$w" ]] && ok=1 ;; *) [ "$p" = "$w" ] && ok=1 ;; esac
            done
            [ -n "$ok" ] || [[ $p == tmp-* ]] || echo "$p"
        done | head -n 5
}

for dir in "$here"/*/; do
    dir=${dir%/}
    name=$(basename "$dir")
    work=$tree/$name
    tmp=$tree/tmp-$name
    mkdir -p "$tmp"
    cp -R "$dir" "$work"
    problem=""
    note=""
    if [ -f "$dir/generate" ] && ! (cd "$work" && bash ./generate) >"$logs/gen" 2>&1; then
        problem="its generate script failed: $(head -c 500 "$logs/gen")"
    fi
    before=$(snapshot)
    if [ -z "$problem" ] && [ -f "$dir/check.sh" ]; then
        rc=0
        (cd "$work" && GTC=$gtc GTC_EXT=$ext PHP=$php HOSTILE=$here ROOT=$root TMPDIR=$tmp \
            timeout 120 bash ./check.sh) >"$logs/out" 2>&1 || rc=$?
        if [ "$rc" = 77 ]; then
            skipped=$((skipped + 1))
            echo "skip $name ($(tail -n 1 "$logs/out"))"
            chmod -R u+w "$work" "$tmp" 2>/dev/null
            rm -rf "$work" "$tmp"
            continue
        elif [ "$rc" = 124 ]; then
            problem="timed out after 120 s"
        elif [ "$rc" != 0 ]; then
            problem="check.sh exited with status $rc: $(tail -n 8 "$logs/out")"
        fi
    elif [ -z "$problem" ]; then
        args=(check graph.json)
        [ -f "$work/args" ] && mapfile -t args <"$work/args"
        want_exit=1
        [ -f "$dir/exit" ] && want_exit=$(tr -d ' \n' <"$dir/exit")
        got_exit=0
        (cd "$work" && TMPDIR=$tmp exec timeout 60 "$gtc" "${args[@]}") >"$logs/stdout" 2>"$logs/stderr" \
            </dev/null || got_exit=$?
        if [ -n "$update" ] && [ "$got_exit" -lt 124 ]; then
            cp "$logs/stderr" "$dir/expected"
            echo "$got_exit" >"$dir/exit"
            [ -f "$dir/stdout" ] && cp "$logs/stdout" "$dir/stdout"
            want_exit=$got_exit
        fi
        if [ "$got_exit" = 124 ]; then
            problem="timed out after 60 s (a hang?)"
        elif [ "$got_exit" -ge 128 ]; then
            problem="crashed: exit status $got_exit"
        elif [ "$got_exit" != "$want_exit" ]; then
            problem="exit status $got_exit, expected $want_exit"
        fi
        if [ ! -f "$dir/expected" ]; then
            problem="${problem:+$problem; }no expected file"
        elif ! cmp -s "$dir/expected" "$logs/stderr"; then
            problem="${problem:+$problem; }stderr differs: $(diff --label expected --label actual -u \
                "$dir/expected" "$logs/stderr" | head -n 12)"
        fi
        if [ -f "$dir/stdout" ] && ! cmp -s "$dir/stdout" "$logs/stdout"; then
            problem="${problem:+$problem; }stdout differs: $(diff --label expected --label actual -u \
                "$dir/stdout" "$logs/stdout" | head -n 12)"
        fi
        if [ -z "$problem" ] && [ -f "$dir/forbid" ]; then
            if ! out=$(python3 "$here/code_only.py" "$work/src" "$dir/forbid" 2>&1); then
                problem="generated code: $out"
            fi
        fi
        if [ -z "$problem" ] && [ -f "$dir/accept" ] && [ -z "$ext" ]; then
            note=" (compiled, not loaded: no GTC_EXTENSION)"
            unloaded=$((unloaded + 1))
        elif [ -z "$problem" ] && [ -f "$dir/accept" ]; then
            cls=$(sed -nE 's/^model\.so: class ([A-Za-z0-9_]+) .*/\1/p' "$logs/stdout")
            (cd "$work" && TMPDIR=$tmp timeout 60 "$php" -n -d "extension=$ext" -d extension=./model.so \
                "$here/accept.php" "$cls") >"$logs/php" 2>&1
            rc=$?
            [ -n "$update" ] && [ "$rc" = 0 ] && cp "$logs/php" "$dir/accept"
            if [ "$rc" != 0 ] || ! cmp -s "$dir/accept" "$logs/php"; then
                problem="the model does not run as expected (php status $rc): $(diff --label accept \
                    --label actual -u "$dir/accept" "$logs/php" | head -n 16)"
            fi
        fi
        # what the command created or changed, beyond what `writes` allows
        extra=$(unexpected "$before" "$(snapshot)" "$dir/writes" "$work")
        [ -z "$extra" ] || problem="${problem:+$problem; }wrote unexpected paths: $(echo $extra)"
    fi
    [ -z "$(ls -A "$tmp" 2>/dev/null)" ] || problem="${problem:+$problem; }left files in TMPDIR: $(ls -A "$tmp" | head -n 3)"
    pwned=$(find "$tree" -name PWNED 2>/dev/null; [ ! -e "$PWD/PWNED" ] || echo "$PWD/PWNED")
    [ -z "$pwned" ] || problem="${problem:+$problem; }an injected command ran: $pwned"
    if [ -z "$problem" ]; then
        pass=$((pass + 1))
        echo "ok   $name$note"
    else
        fail=$((fail + 1))
        echo "FAIL $name: $problem"
    fi
    chmod -R u+w "$work" "$tmp" 2>/dev/null
    rm -rf "$work" "$tmp"
    find "$tree" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
done
[ "$skipped" = 0 ] || echo "hostile: $skipped case(s) not run here (the skip lines say why)"
[ "$unloaded" = 0 ] || echo "hostile: $unloaded model(s) compiled but not loaded (no GTC_EXTENSION)"
echo "hostile: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
