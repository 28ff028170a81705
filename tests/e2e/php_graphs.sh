#!/usr/bin/env bash
# tests/e2e/php_graphs.sh: PHP graph files (docs/php-graphs.md) end to end on the CPU backend:
# examples/train_step.php and digits_step.php give the same `gtc check`, `gtc dump` and
# `gtc plan` output as their JSON twins, run eagerly under gtc.so, and compiled with
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

for name in train_step:mlp_train_step:MlpTrainStep digits_step:digits_train_step:DigitsTrainStep; do
    IFS=: read -r file fn class <<<"$name"
    for cmd in check dump plan "plan --format=json" "dump --after=memplan"; do
        # shellcheck disable=SC2086
        if d=$(diff <("$gtc" $cmd "$root/examples/$file.json" 2>&1) <("$gtc" $cmd "$root/examples/$file.php" 2>&1)); then
            ok "gtc $cmd: examples/$file.php and examples/$file.json agree"
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
sed -n '/^#\[Graph/,$p' "$root/examples/digits_step.php" >>"$two"
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
