#!/usr/bin/env bash
# tests/golden/selftest.sh: checks the golden runner's prelude stripping (strip_prelude.awk):
# a changed prelude text leaves the stripped file unchanged, code outside the markers is kept,
# broken markers fail, and gtc's real emitted files, their preludes edited, still match the
# reviewed golden files. `make golden` runs it before tests/golden/run.sh.
#
# usage: tests/golden/selftest.sh GTC_BINARY
# The last line is "N passed, N failed"; the status is 1 when any failed.
set -u

if [ $# -ne 1 ]; then
    echo "usage: $0 GTC_BINARY" >&2
    exit 2
fi
gtc=$1
case $gtc in /*) ;; *) gtc=$PWD/$gtc ;; esac
here=$(cd "$(dirname "$0")" && pwd)
strip() { awk -f "$here/strip_prelude.awk" "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ $# -lt 2 ] || head -c 2000 "$2"; }

# A kernels.cu as the emitter writes it, with prelude text $1 (plan.c's string-literal form too).
fake() {
    printf '/* generated */\n/* gtc:prelude begin templates/kernels_prelude.cuh */\n%s\n' "$1"
    printf '/* gtc:prelude end templates/kernels_prelude.cuh */\n__global__ void gtc_k0() {}\n'
    printf '    "/* gtc:prelude begin ir/scalar.h */\\n"\n    "%s\\n"\n' "$1"
    printf '    "/* gtc:prelude end ir/scalar.h */\\n"\n    "int tail;\\n"\n'
}
fake '#define GTC_INF_F 1' >"$tmp/a"
fake $'#define GTC_INF_F 2\n#define GTC_NEW 3\n/* a new helper */' >"$tmp/b"
strip "$tmp/a" >"$tmp/a.s" 2>"$tmp/err" && strip "$tmp/b" >"$tmp/b.s" 2>>"$tmp/err" || bad "stripping a well-formed file failed" "$tmp/err"
printf '%s\n' '/* generated */' '/* gtc:prelude templates/kernels_prelude.cuh (elided) */' \
    '__global__ void gtc_k0() {}' '    "/* gtc:prelude ir/scalar.h (elided) */\n"' '    "int tail;\n"' >"$tmp/want"
if cmp -s "$tmp/a.s" "$tmp/b.s"; then ok; else bad "a changed prelude changed the stripped file"; diff "$tmp/a.s" "$tmp/b.s"; fi
if cmp -s "$tmp/want" "$tmp/a.s"; then ok; else bad "stripped file is not as expected"; diff "$tmp/want" "$tmp/a.s"; fi
# the code outside the markers still counts: a change there changes the stripped file
sed 's/gtc_k0/gtc_k1/' "$tmp/a" | strip >"$tmp/c.s" 2>/dev/null
if ! cmp -s "$tmp/a.s" "$tmp/c.s"; then ok; else bad "a change outside the markers was elided"; fi

# Broken markers: a status of 1 and a message naming the problem, never a silent cut.
broken() { # name, text, expected message part
    printf '%s\n' "$2" >"$tmp/broken"
    if strip "$tmp/broken" >/dev/null 2>"$tmp/err"; then
        bad "$1: accepted"
    elif grep -q -- "$3" "$tmp/err"; then ok
    else bad "$1: message lacks '$3'" "$tmp/err"
    fi
}
broken "begin without end" $'x\n/* gtc:prelude begin ir/scalar.h */\nint a;' "begin ir/scalar.h has no end"
broken "end without begin" $'x\n/* gtc:prelude end ir/scalar.h */' "end ir/scalar.h without its begin"
broken "nested begin" $'/* gtc:prelude begin a.h */\n/* gtc:prelude begin b.h */\n/* gtc:prelude end b.h */\n/* gtc:prelude end a.h */' \
    "begin b.h inside a.h"
broken "mismatched end" $'/* gtc:prelude begin a.h */\n/* gtc:prelude end b.h */' "end b.h closes a.h"

# gtc's own output: every emitted file of a golden case has balanced markers, and with a line
# added inside every marked text (a prelude edit) it still matches the reviewed golden file.
case_dir=$here/train_step
if [ ! -x "$gtc" ]; then
    bad "$gtc is not an executable"
elif ! (cd "$case_dir" && "$gtc" emit graph.json --emit-dir "$tmp") 2>"$tmp/err"; then
    bad "gtc emit train_step failed" "$tmp/err"
else
    for want in "$case_dir"/expected/emit/*; do
        base=$(basename "$want")
        awk '{ print } /gtc:prelude begin / { print "#define GTC_PRELUDE_EDIT 1" }' "$tmp/$base" >"$tmp/$base.edited"
        if ! grep -q "gtc:prelude begin" "$tmp/$base"; then
            bad "train_step/$base: no gtc:prelude markers in the emitted file"
        elif ! strip "$tmp/$base.edited" >"$tmp/$base.s" 2>"$tmp/err"; then
            bad "train_step/$base: stripping failed" "$tmp/err"
        elif ! cmp -s "$want" "$tmp/$base.s"; then
            bad "train_step/$base: an edited prelude changed the stripped file"
            diff -u "$want" "$tmp/$base.s" | head -n 40
        else
            ok
        fi
    done
fi
# the reviewed files hold no prelude text: every begin marker was elided
if grep -l "gtc:prelude begin\|gtc:prelude end" "$here"/*/expected/emit/* 2>/dev/null >"$tmp/left"; then
    bad "golden files with un-elided preludes (run make golden-update and review):" "$tmp/left"
else
    ok
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
