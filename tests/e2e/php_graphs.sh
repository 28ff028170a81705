#!/usr/bin/env bash
# tests/e2e/php_graphs.sh: PHP graph files (docs/php-graphs.md) end to end on the CPU backend:
# examples/train_step.php gives the same `gtc check`, `gtc dump` and `gtc plan` output as its
# JSON twin, and examples/digits_step.php (its layers and updates in plain functions, which gtc
# inlines) the same output up to node names (canon_names.php); both run eagerly under gtc.so,
# lower their loss, and compiled with
# `gtc compile FILE.php -o MODEL.so --cpu-only` give the same outputs as the eager run
# (php_graph.php); `--function NAME` picks one of two graph functions in one file.
#
# usage: tests/e2e/php_graphs.sh GTC_BINARY GTC_EXTENSION
# The last line is "N passed, N failed"; the status is 1 when any check failed.
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 GTC_BINARY GTC_EXTENSION" >&2
    exit 2
fi
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
gtc=$(abs "$1")
ext=$(abs "$2")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$(dirname "$gtc")/e2e-php
rm -rf "$out"
mkdir -p "$out"
php=${PHP:-php}
export GTC_DEVICE=cpu
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ $# -lt 2 ] || printf '%s\n' "$2" | sed 's/^/    /' | head -n 40; }

# FILE.php's output for a command, as it is ("exact") or with node names canonical ("names")
# (the two sides of a diff run at once: each its own files)
show() {
    local mode=$1 file=$2 cmd=$3
    local tmp="$out/show.${file##*.}"
    # shellcheck disable=SC2086
    "$gtc" $cmd "$file" >"$tmp.txt" 2>&1
    if [ "$mode" = exact ]; then
        cat "$tmp.txt"
    else
        "$gtc" dump "$file" >"$tmp.dump" 2>&1
        "$php" -n "$here/canon_names.php" "$tmp.dump" "$tmp.txt"
    fi
}

for name in train_step:mlp_train_step:MlpTrainStep:exact digits_step:digits_train_step:DigitsTrainStep:names; do
    IFS=: read -r file fn class mode <<<"$name"
    note=""
    [ "$mode" = names ] && note=" up to node names"
    for cmd in check dump plan "plan --format=json" "dump --after=memplan"; do
        if d=$(diff <(show "$mode" "$root/examples/$file.json" "$cmd") <(show "$mode" "$root/examples/$file.php" "$cmd")); then
            ok "gtc $cmd: examples/$file.php and examples/$file.json agree$note"
        else
            bad "gtc $cmd: examples/$file.php and examples/$file.json differ" "$d"
        fi
    done
    if ! log=$("$php" -n -d "extension=$ext" -l "$root/examples/$file.php" 2>&1); then
        bad "examples/$file.php is valid PHP" "$log"
    fi
    so="$out/$file.so"
    if log=$("$gtc" compile "$root/examples/$file.php" -o "$so" --cpu-only 2>&1); then
        ok "gtc compile examples/$file.php -o $file.so"
    else
        bad "gtc compile examples/$file.php" "$log"
        continue
    fi
    log=$("$php" -n -d "extension=$ext" -d "extension=$so" "$here/php_graph.php" "$root/examples/$file.php" "$fn" "$class" 2>&1)
    rc=$?
    p=$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1/p' <<<"$log")
    f=$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\2/p' <<<"$log")
    sed 's/^/  /' <<<"$log"
    if [ -z "$p" ]; then
        bad "$file: eager against compiled: no summary (status $rc)"
    else
        pass=$((pass + p))
        fail=$((fail + f))
    fi
done

# a graph built from inlined functions (tests/golden/php_inline): eager and compiled agree
inl="$root/tests/golden/php_inline/graph.php"
if log=$("$gtc" compile "$inl" -o "$out/php_inline.so" --cpu-only 2>&1) &&
    log=$("$php" -n -d "extension=$ext" -d "extension=$out/php_inline.so" "$here/php_graph.php" "$inl" 'Tests\model' PhpInline 2>&1) &&
    grep -q '^[1-9][0-9]* passed, 0 failed$' <<<"$log"; then
    ok "inlined functions: tests/golden/php_inline eager and compiled agree"
else
    bad "inlined functions: tests/golden/php_inline eager and compiled differ" "$log"
fi

# #[Gtc\Train]: the PHP twin of examples/train_auto.json derives the same training step, and its
# function runs eagerly (the forward pass: the loss)
auto="$root/tests/golden/php_train_auto/graph.php"
for cmd in check dump grad plan; do
    if d=$(diff <("$gtc" $cmd "$root/examples/train_auto.json" 2>&1) <("$gtc" $cmd "$auto" 2>&1)); then
        ok "gtc $cmd: #[Gtc\Train] and examples/train_auto.json agree"
    else
        bad "gtc $cmd: #[Gtc\Train] and examples/train_auto.json differ" "$d"
    fi
done
if log=$("$php" -n -d "extension=$ext" -r 'use Cuda\CudaArray; require $argv[1];
        $in = []; $s = 1;
        foreach ((new ReflectionFunction("mlp_auto_step"))->getParameters() as $p) {
            $shape = $p->getAttributes(Gtc\Input::class)[0]->newInstance()->shape;
            $in[$p->getName()] = $shape === [] ? 0.1 : CudaArray::rand($shape, $s++);
        }
        $loss = mlp_auto_step(...$in)["loss"]->item();
        exit(is_finite($loss) && $loss > 0 ? 0 : 1);' "$auto" 2>&1); then
    ok "a #[Gtc\Train] function runs eagerly (its forward pass)"
else
    bad "a #[Gtc\Train] function runs eagerly (its forward pass)" "$log"
fi

# --function picks one of several graph functions
two="$out/two.php"
sed -e 's/#\[Graph(name: .mlp_train_step.)\]/#[Graph(name: '"'"'first'"'"')]/' "$root/examples/train_step.php" >"$two"
sed -n '/^require_once/,$p' "$root/examples/digits_step.php" | sed 1d >>"$two" # its helpers too
if "$php" -n -d "extension=$ext" -l "$two" >/dev/null 2>&1 &&
    [ "$("$gtc" check --function digits_train_step "$two" 2>&1 | head -n1)" = "graph digits_train_step: ok, 40 nodes, 7 inputs, 5 outputs" ] &&
    [ "$("$gtc" check "$two" --function=mlp_train_step 2>&1 | head -n1)" = "graph first: ok, 40 nodes, 7 inputs, 5 outputs" ]; then
    ok "--function NAME picks a graph function"
else
    bad "--function NAME picks a graph function" "$("$gtc" check --function digits_train_step "$two" 2>&1)"
fi
if log=$("$gtc" compile "$two" --function digits_train_step -o "$out/two.so" --cpu-only 2>&1) &&
    "$php" -n -d "extension=$ext" -d "extension=$out/two.so" -r 'exit(class_exists("DigitsTrainStep") ? 0 : 1);'; then
    ok "gtc compile --function NAME builds that graph"
else
    bad "gtc compile --function NAME builds that graph" "$log"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
