#!/usr/bin/env bash
# tests/e2e/launch.sh: `gtc run`, the data-parallel launcher, on the CPU (docs/distributed.md):
# N = 1, 2 and 3 ranks printing what the launcher told them (no collectives), the script's
# arguments and -d settings passed through, the rendezvous folder removed at the end, a failing
# rank (the others stopped, its status and a message naming it), a rank killed by a signal,
# SIGTERM to the launcher forwarded to every rank, Cuda\Distributed::init() under it (a world of
# 1 joins; 2 ranks on the CPU backend are refused), and bad usage (-n 0, -1, 99999, x, no -n, no
# script, a missing script, an unknown option, a php that does not exist).
#   bash tests/e2e/launch.sh build/gtc build/gtc.so
# The last line is "N passed, N failed"; the status is 1 when any check failed.
set -u
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
gtc=$(abs "${1:?usage: launch.sh GTC GTC_SO}")
ext=$(abs "${2:?usage: launch.sh GTC GTC_SO}")
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
php="${PHP:-php}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtc-launch-test-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export TMPDIR="$tmp" GTC_DEVICE=cpu PHP="$php" GTC_RUN_GRACE=5
pass=0 fail=0
check() { # NAME, then a command whose success is the check
    local name="$1"
    shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name" >&2; fi
}
run() { # runs gtc run ARGS; sets $out, $err, $rc
    "$gtc" run "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    out=$(sort "$tmp/out")
    err=$(cat "$tmp/err")
}
rank_line() { echo "rank=$1 world=$2 local=$1/$2 dir=yes args=$3"; }

run -n 1 "$here/launch/rank.php"
check "n=1" test "$rc $out" = "0 $(rank_line 0 1 '')"
run -n 2 -- "$here/launch/rank.php" a -b
check "n=2 and the script's arguments" test "$rc $out" = "0 $(rank_line 0 2 a,-b; rank_line 1 2 a,-b)"
run -n3 "$here/launch/rank.php" dir "$tmp/dirname"
check "n=3" test "$rc $out" = "0 $(rank_line 0 3 dir,$tmp/dirname; rank_line 1 3 dir,$tmp/dirname; rank_line 2 3 dir,$tmp/dirname)"
check "the rendezvous folder was under TMPDIR and is removed" \
    bash -c "d=\$(cat '$tmp/dirname'); case \$d in '$tmp'/gtc-run-*) ! test -e \"\$d\" ;; *) false ;; esac"
RANK=7 WORLD_SIZE=9 run --nproc=2 "$here/launch/rank.php"
check "the launcher's own RANK and WORLD_SIZE are replaced" test "$rc $out" = "0 $(rank_line 0 2 ''; rank_line 1 2 '')"
run -n 1 -d extension="$ext" -d gtc.device=cpu "$here/launch/dist.php"
check "-d settings reach php; Distributed::init() in a world of 1" test "$rc $out" = "0 rank 0 of 1: [1,2] shard [0,1,2,3,4]"

run -n 3 "$here/launch/rank.php" fail=1:3
check "a failing rank: its status" test "$rc" = 3
check "a failing rank: the message names it" test "$err" = "gtc run: rank 1 exited with status 3; stopping the other ranks"
check "a failing rank: the others were stopped" test "$(grep -c 'not stopped' "$tmp/out")" = 0
run -n 2 "$here/launch/rank.php" kill=0
check "a rank killed by a signal: 128 + 9" test "$rc" = 137
check "a rank killed by a signal: the message" test "$err" = "gtc run: rank 0 was killed by signal 9 (Killed); stopping the other ranks"
check "a rank killed by a signal: the other was stopped" test "$(grep -c 'not stopped' "$tmp/out")" = 0
run -n 2 -d extension="$ext" "$here/launch/dist.php"
check "two ranks on the CPU backend: refused" test "$rc" = 3
check "two ranks on the CPU backend: the rank's message, then the launcher's" \
    bash -c "grep -q 'rank [01]: WORLD_SIZE=2: the cpu backend has no collective library, so it runs a world of 1 only' '$tmp/err' && grep -q 'gtc run: rank [01] exited with status 3; stopping the other ranks' '$tmp/err'"

# SIGTERM to the launcher: every rank gets it (each wrote its pid once it was sleeping)
SLEEP_MARK="$tmp/mark" "$gtc" run -n 2 "$here/launch/rank.php" sleep >"$tmp/out" 2>"$tmp/err" &
launcher=$!
for _ in $(seq 1 500); do [ -f "$tmp/mark.0" ] && [ -f "$tmp/mark.1" ] && break; sleep 0.02; done
kill -TERM "$launcher"
wait "$launcher"
rc=$?
check "SIGTERM to the launcher: 128 + 15" test "$rc" = 143
check "SIGTERM to the launcher: the message" test "$(cat "$tmp/err")" = "gtc run: stopped by signal 15 (Terminated)"
check "SIGTERM to the launcher: the ranks were stopped" test "$(grep -c 'not stopped' "$tmp/out")" = 0
check "SIGTERM to the launcher: no rank is left" bash -c "! kill -0 $(cat "$tmp/mark.0") 2>/dev/null && ! kill -0 $(cat "$tmp/mark.1") 2>/dev/null"

usage_case() { # NAME EXPECTED-STATUS EXPECTED-FIRST-LINE-OF-STDERR ARGS...
    local name="$1" want_rc="$2" want="$3"
    shift 3
    run "$@"
    check "usage: $name" test "$rc|$(head -n1 "$tmp/err")" = "$want_rc|$want"
}
usage_case "-n 0" 2 'gtc run: -n takes a whole number of ranks from 1 to 512, "0" given' -n 0 "$here/launch/rank.php"
usage_case "-n -1" 2 'gtc run: -n takes a whole number of ranks from 1 to 512, "-1" given' -n -1 "$here/launch/rank.php"
usage_case "-n 99999" 2 'gtc run: -n takes a whole number of ranks from 1 to 512, "99999" given' -n 99999 "$here/launch/rank.php"
usage_case "-n x" 2 'gtc run: -n takes a whole number of ranks from 1 to 512, "x" given' -n x "$here/launch/rank.php"
usage_case "-n 2x" 2 'gtc run: -n takes a whole number of ranks from 1 to 512, "2x" given' -n 2x "$here/launch/rank.php"
usage_case "-n without a value" 2 'gtc run: -n takes a whole number of ranks from 1 to 512, "" given' -n
usage_case "no -n" 2 'gtc run: -n N (the number of ranks) is required' "$here/launch/rank.php"
usage_case "no script" 2 'gtc run: expects the PHP script to run' -n 2
usage_case "a missing script" 2 "gtc run: cannot read $tmp/none.php: No such file or directory" -n 2 "$tmp/none.php"
usage_case "an unknown option" 2 "gtc run: unknown option '--bogus'" -n 2 --bogus "$here/launch/rank.php"
usage_case "-d without =" 2 'gtc run: -d takes KEY=VALUE (at most 64 of them)' -n 2 -d x "$here/launch/rank.php"
usage_case "a php that does not exist" 127 "gtc run: cannot start rank 0 ($tmp/no-php): No such file or directory" \
    -n 2 --php="$tmp/no-php" "$here/launch/rank.php"
GTC_RUN_GRACE=soon run -n 1 "$here/launch/rank.php"
check "usage: GTC_RUN_GRACE" test "$rc|$err" = '2|gtc run: GTC_RUN_GRACE="soon" is not a number of seconds from 0 to 3600'
"$gtc" run --help >"$tmp/out"
check "gtc run --help" bash -c "head -n1 '$tmp/out' | grep -q '^usage: gtc run -n N'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
