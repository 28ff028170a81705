#!/usr/bin/env bash
# tests/e2e/run.sh: end-to-end tests of `gtc compile` on the CPU backend.
#
# usage: tests/e2e/run.sh GTC_BINARY GTC_EXTENSION
#
# Compiles examples/train_step.json and examples/digits_step.json into PHP extensions under
# BUILD/e2e/ (BUILD: the directory of GTC_BINARY) — with their CUDA code when nvcc is there, as
# in CI — loads each next to gtc.so and runs tests/e2e/model.php (steps against the eager
# CudaArray step and a float64 NumPy reference, metadata, wrong inputs) and tests/e2e/faults.php
# (allocation failures under gtc.memory_limit: OutOfMemoryException, nothing changed, the same
# object runs again as a fresh one does); a memory soak of the digits step and eager ops
# (bench/soak.php: no growth after warm-up); then a --cpu-only build with --emit-dir
# (determinism, warning-free generated C, no CUDA dependency), loading rules (gtc.so first; a
# clear message otherwise), two models in one process, file names with shell metacharacters,
# `make install PREFIX=...` and a build from the installed prefix, and the command-line error
# cases in tests/e2e/cli/*.test; and tests/e2e/optim_state.php, the optimizer state a compiled step
# owns (AdamW and SGD momentum against the state passed by hand and a NumPy reference, checkpoints,
# refusals); and tests/e2e/predict.php, the forward function (predict()) a model compiled from a graph
# with a "train" section carries; and tests/e2e/dynamic.php, a graph with a symbolic batch compiled
# once and run at every size. Runs on the CPU backend (GTC_DEVICE=cpu).
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
for f in "$gtc" "$ext"; do
    [ -f "$f" ] || { echo "$0: $f does not exist (run make first)" >&2; exit 2; }
done
out=$(dirname "$gtc")/e2e
rm -rf "$out"
mkdir -p "$out"
php=${PHP:-php}
export GTC_DEVICE=cpu
unset GTC_HOME GTC_CFLAGS
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ $# -lt 2 ] || printf '%s\n' "$2" | sed 's/^/    /' | head -n 40; }
check() { # check DESCRIPTION COMMAND...: passes when the command succeeds
    local what=$1 log
    shift
    if log=$("$@" 2>&1); then ok "$what"; else bad "$what" "$log"; fi
}
# Adds the "N passed, M failed" of a sub-suite's output to the totals and echoes its lines.
tally() { # tally NAME LOGFILE STATUS
    local name=$1 log=$2 rc=$3 p f
    sed 's/^/  /' "$log"
    p=$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1/p' "$log" | tail -n1)
    f=$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\2/p' "$log" | tail -n1)
    if [ -z "$p" ]; then
        bad "$name: no summary line (status $rc)"
        return
    fi
    pass=$((pass + p))
    fail=$((fail + f))
    if [ "$f" = 0 ] && [ "$rc" != 0 ]; then bad "$name exited with status $rc"; fi
}

nvcc_flags=()
if [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ] || command -v nvcc >/dev/null 2>&1; then
    have_nvcc=1
else
    have_nvcc=0
    nvcc_flags=(--cpu-only)
    echo "note: nvcc not found: the example models are built --cpu-only"
fi

# ---- the two examples, with their CUDA code when nvcc is available ------------------------------

run_model() { # run_model NAME GRAPH SO: model.php against one compiled model
    local name=$1 graph=$2 so=$3 work="$out/work-$1"
    mkdir -p "$work"
    "$php" -n -d "extension=$ext" -d "extension=$so" "$here/model.php" "$graph" "$work" cpu \
        >"$work/log" 2>&1
    tally "$name" "$work/log" $?
    # the same model under allocation failure (tests/e2e/faults.php)
    "$php" -n -d "extension=$ext" -d "extension=$so" "$here/faults.php" cpu >"$work/faults.log" 2>&1
    tally "$name faults" "$work/faults.log" $?
}

for name in train_step digits_step; do
    graph="$root/examples/$name.json"
    so="$out/$name.so"
    if log=$("$gtc" compile "$graph" -o "$so" "${nvcc_flags[@]}" 2>&1) && [ -f "$so" ]; then
        ok "gtc compile examples/$name.json -o $so"
    else
        bad "gtc compile examples/$name.json" "$log"
        continue
    fi
    if [ "$have_nvcc" = 1 ]; then
        check "$name.so links the shared CUDA runtime" \
            bash -c 'readelf -d "$1" | grep -q "NEEDED.*libcudart\.so"' _ "$so"
    fi
    check "$name.so exports get_module and not its plan" \
        bash -c 'syms=$(readelf --dyn-syms -W "$1" | awk "\$7 != \"UND\" {print \$8}");
                 grep -qx get_module <<<"$syms" && ! grep -q "gtc_plan" <<<"$syms"' _ "$so"
    check "$name.so does not link libgtcrt (it uses gtc.so's)" \
        bash -c '! readelf --dyn-syms -W "$1" | awk "\$7 != \"UND\"" | grep -qw rt_exec_run' _ "$so"
    run_model "$name" "$graph" "$so"
done

# ---- a memory soak (bench/soak.php): 20,000 replays of the digits step, each with new input -----
# tensors, and 20,000 eager ops; PHP memory and the runtime's allocated bytes must not grow after
# warm-up (a fixed slack, no timing). Then the script's own check must catch a planted leak.

so="$out/digits_step.so"
if [ -f "$so" ]; then
    log=$(OPENBLAS_NUM_THREADS=1 "$php" -n -d "extension=$ext" -d "extension=$so" "$root/bench/soak.php" \
        --replays=20000 --eager=20000 --max-php-growth=4096 --max-alloc-growth=0 2>&1)
    rc=$?
    if [ $rc = 0 ] && grep -qx "soak: PASS" <<<"$log"; then
        growth=$(grep ' growth ' <<<"$log" | awk -F'|' '{for (i = 1; i <= NF; i++) gsub(/^ +| +$/, "", $i);
            printf "%s%s: PHP memory %s B, allocated %s B", (NR > 1 ? "; " : ""), $1, $5, $7}')
        ok "soak: 20,000 replays + 20,000 eager ops, no growth after warm-up ($growth)"
    else
        bad "soak: 20,000 replays + 20,000 eager ops (status $rc)" "$log"
    fi
    log=$("$php" -n -d "extension=$ext" "$root/bench/soak.php" --replays=0 --eager=2000 --leak=1 2>&1)
    rc=$?
    if [ $rc = 1 ] && grep -q "^soak: FAIL (eager ops: .*allocated grew by" <<<"$log"; then
        ok "soak: a planted leak (--leak=1) fails the check"
    else
        bad "soak: a planted leak (--leak=1) fails the check (status $rc)" "$log"
    fi
fi

# ---- training steps derived by autodiff against their hand-written twins ------------------------
# examples/*_auto.json hold the forward pass, the loss and a "train" section; compiled, each must
# match its twin (tests/e2e/auto.php: <= 1e-5 relative over several steps) and need no more plan
# steps than it (`gtc plan`).

for pair in "digits_step DigitsTrainStep digits_auto DigitsAutoStep" "train_step MlpTrainStep train_auto MlpAutoStep"; do
    read -r hand hclass auto aclass <<<"$pair"
    so="$out/$auto.so"
    if log=$("$gtc" compile "$root/examples/$auto.json" -o "$so" "${nvcc_flags[@]}" 2>&1) && [ -f "$so" ] &&
        [ -f "$out/$hand.so" ]; then
        ok "gtc compile examples/$auto.json -o $so"
    else
        bad "gtc compile examples/$auto.json (and $hand.so)" "$log"
        continue
    fi
    nh=$("$gtc" plan "$root/examples/$hand.json" | sed -nE '1s/.*: ([0-9]+) steps$/\1/p')
    na=$("$gtc" plan "$root/examples/$auto.json" | sed -nE '1s/.*: ([0-9]+) steps$/\1/p')
    if [ -n "$na" ] && [ -n "$nh" ] && [ "$na" -le "$nh" ]; then
        ok "gtc plan: examples/$auto.json needs $na steps, examples/$hand.json $nh"
    else
        bad "gtc plan: examples/$auto.json needs ${na:-?} steps, more than examples/$hand.json's ${nh:-?}"
    fi
    work="$out/work-$auto"
    mkdir -p "$work"
    "$php" -n -d "extension=$ext" -d "extension=$out/$hand.so" -d "extension=$so" "$here/auto.php" \
        "$hclass" "$aclass" >"$work/log" 2>&1
    tally "$auto" "$work/log" $?
done

# ---- optimizer state owned by the model ---------------------------------------------------------
# tests/e2e/optim/linreg_{adamw,momentum}.json compiled; tests/e2e/optim_state.php: run() with data
# and parameters only, against the state passed by hand (bit for bit) and a float64 NumPy AdamW /
# momentum reference (tests/e2e/optim_ref.py), checkpoints that continue, refusals.

optim_ok=1
for g in linreg_adamw linreg_momentum; do
    if log=$("$gtc" compile "$here/optim/$g.json" -o "$out/$g.so" "${nvcc_flags[@]}" 2>&1) && [ -f "$out/$g.so" ]; then
        ok "gtc compile tests/e2e/optim/$g.json"
    else
        bad "gtc compile tests/e2e/optim/$g.json" "$log"
        optim_ok=0
    fi
done
if [ $optim_ok = 1 ]; then
    work="$out/work-optim"
    mkdir -p "$work"
    "$php" -n -d "extension=$ext" -d "extension=$out/linreg_adamw.so" -d "extension=$out/linreg_momentum.so" \
        "$here/optim_state.php" LinregAdamw LinregMomentum "$work" >"$work/log" 2>&1
    tally "optim_state" "$work/log" $?
fi

# ---- predict(): a training step's forward function ----------------------------------------------
# tests/e2e/predict/mlp_predict.json (outputs loss, logits, probs) compiled; tests/e2e/predict.php:
# predict() after run() steps against a float64 NumPy forward pass (tests/e2e/predict_ref.py), its
# inputs and outputs, no updates, a loss-only graph (digits_auto), a model without one, refusals.

so="$out/mlp_predict.so"
if log=$("$gtc" compile "$here/predict/mlp_predict.json" -o "$so" "${nvcc_flags[@]}" 2>&1) && [ -f "$so" ]; then
    ok "gtc compile tests/e2e/predict/mlp_predict.json"
    check "mlp_predict.so exports get_module and neither plan" \
        bash -c 'syms=$(readelf --dyn-syms -W "$1" | awk "\$7 != \"UND\" {print \$8}");
                 grep -qx get_module <<<"$syms" && ! grep -q "gtc_plan\|gtc_fwd" <<<"$syms"' _ "$so"
    if [ -f "$out/digits_step.so" ] && [ -f "$out/digits_auto.so" ]; then
        work="$out/work-predict"
        mkdir -p "$work"
        "$php" -n -d "extension=$ext" -d "extension=$so" -d "extension=$out/digits_step.so" \
            -d "extension=$out/digits_auto.so" "$here/predict.php" "$work" >"$work/log" 2>&1
        tally "predict" "$work/log" $?
    else
        bad "predict.php needs digits_step.so and digits_auto.so (compiled above)"
    fi
else
    bad "gtc compile tests/e2e/predict/mlp_predict.json" "$log"
fi

# ---- symbolic dimensions: one compiled model for every batch size --------------------------------
# tests/e2e/dynamic/mlp_dyn.json ("batch" up to 4096) compiled once; tests/e2e/dynamic.php: batches
# of 1, 7, 256 and 4096 against a float64 NumPy reference (tests/e2e/dynamic_ref.py), refusals,
# no steady-state allocation over changing sizes.

so="$out/mlp_dyn.so"
if log=$("$gtc" compile "$here/dynamic/mlp_dyn.json" -o "$so" "${nvcc_flags[@]}" 2>&1) && [ -f "$so" ]; then
    ok "gtc compile tests/e2e/dynamic/mlp_dyn.json (symbolic batch)"
    work="$out/work-dynamic"
    mkdir -p "$work"
    "$php" -n -d "extension=$ext" -d "extension=$so" "$here/dynamic.php" "$work" >"$work/log" 2>&1
    tally "dynamic" "$work/log" $?
else
    bad "gtc compile tests/e2e/dynamic/mlp_dyn.json" "$log"
fi
# the same for a training step (SGD steps of 512, 100, 7 and 1 rows; predict() on 300)
so="$out/mlp_dyn_train.so"
if log=$("$gtc" compile "$here/dynamic/mlp_dyn_train.json" -o "$so" "${nvcc_flags[@]}" 2>&1) && [ -f "$so" ]; then
    ok "gtc compile tests/e2e/dynamic/mlp_dyn_train.json (a training step over a symbolic batch)"
    work="$out/work-dynamic-train"
    mkdir -p "$work"
    "$php" -n -d "extension=$ext" -d "extension=$so" "$here/dynamic_train.php" "$work" >"$work/log" 2>&1
    tally "dynamic_train" "$work/log" $?
else
    bad "gtc compile tests/e2e/dynamic/mlp_dyn_train.json" "$log"
fi

# ---- eager autograd and a Fusion closure calling backward() against the compiled train graph ----
# (tests/e2e/autograd_closure.php: examples/train_auto.json's step written with backward() and a
# hand-written clipped SGD update, fused with donation and eager, <= 1e-5 relative: train_auto.json
# over 20 steps, digits_auto.json over 100)

for run in "train_auto MlpAutoStep 20" "digits_auto DigitsAutoStep 100"; do
    read -r so cls steps <<<"$run"
    [ -f "$out/$so.so" ] || continue
    work="$out/work-autograd-$so"
    mkdir -p "$work"
    "$php" -n -d "extension=$ext" -d "extension=$out/$so.so" "$here/autograd_closure.php" "$cls" "$steps" \
        >"$work/log" 2>&1
    tally "autograd_closure $cls ($steps steps)" "$work/log" $?
done

# ---- --cpu-only with --emit-dir: sources kept, deterministic, warning-free, no CUDA -------------

graph="$root/examples/digits_step.json"
src="$out/digits_src"
if log=$(GTC_CFLAGS="-Wall -Wextra -Werror" "$gtc" compile "$graph" -o "$out/digits_cpu.so" \
        --cpu-only --emit-dir "$src" 2>&1); then
    ok "gtc compile --cpu-only --emit-dir (generated C compiles with -Wall -Wextra -Werror)"
    check "--emit-dir keeps kernels.cu, kernels_cpu.c, plan.c and ext.c" \
        bash -c 'cd "$1" && ls kernels.cu kernels_cpu.c plan.c ext.c' _ "$src"
    check "--emit-dir holds sources only (objects stay in the temporary directory)" \
        bash -c '! ls "$1" | grep -q "\.o$"' _ "$src"
    check "ext.c begins with the generated-file header" \
        bash -c 'head -n1 "$1/ext.c" | grep -qx "/\* Generated by gtc [0-9.]* from digits_step.json; do not edit. \*/"' _ "$src"
    check "ext.c requires gtc and registers DigitsTrainStep as gtc.so's plan class (no methods, no weak symbols of its own)" \
        bash -c 'grep -q "ZEND_MOD_REQUIRED(\"gtc\")" "$1/ext.c" && grep -q "#define GTC_MODEL_CLASS \"DigitsTrainStep\"" "$1/ext.c" &&
                 grep -q "php_gtc_plan_class_register" "$1/ext.c" && ! grep -q "ZEND_METHOD\|pragma weak" "$1/ext.c"' _ "$src"
    check "a --cpu-only model does not link the CUDA runtime" \
        bash -c '! readelf -d "$1" | grep -q libcudart' _ "$out/digits_cpu.so"
    if "$gtc" compile "$graph" -o "$out/digits_cpu2.so" --cpu-only --emit-dir "$out/digits_src2" >/dev/null 2>&1 &&
        diff -r "$src" "$out/digits_src2" >/dev/null; then
        ok "gtc compile is deterministic (same sources twice)"
    else
        bad "gtc compile is deterministic" "$(diff -r "$src" "$out/digits_src2" 2>&1 | head -n 20)"
    fi
    run_model digits_cpu_only "$graph" "$out/digits_cpu.so"
else
    bad "gtc compile --cpu-only --emit-dir" "$log"
fi

# ---- loading rules ----------------------------------------------------------------------------------

so="$out/digits_cpu.so"
if [ -f "$so" ]; then
    # The model binds no gtc.so symbol when it is loaded, and declares gtc as required: PHP starts
    # gtc first whatever the order of the extension= lines.
    log=$("$php" -n -d "extension=$so" -d "extension=$ext" -r 'var_dump((new ReflectionClass("DigitsTrainStep"))->isFinal()); echo "ran\n";' 2>&1)
    rc=$?
    if [ $rc = 0 ] && [ "$log" = "$(printf 'bool(true)\nran')" ]; then
        ok "a model loaded before gtc.so works (PHP starts gtc first; the model binds nothing at load)"
    else
        bad "a model loaded before gtc.so works (status $rc)" "$log"
    fi
    # A model compiled for another gtc API is refused at MINIT with a message naming both versions.
    if GTC_CFLAGS=-DPHP_GTC_API_VERSION=1 "$gtc" compile "$graph" -o "$out/digits_api1.so" --cpu-only >/dev/null 2>&1; then
        log=$("$php" -n -d "extension=$ext" -d "extension=$out/digits_api1.so" -r 'echo "ran\n";' 2>&1)
        rc=$?
        if [ $rc != 0 ] && grep -q "was compiled for gtc API 1, plan ABI [0-9]*; this gtc.so ([0-9.]*) has API 2" <<<"$log" &&
           ! grep -q "ran" <<<"$log"; then
            ok "a model compiled for another gtc API stops PHP with both versions named"
        else
            bad "a model compiled for another gtc API is refused with a message (status $rc)" "$log"
        fi
    else
        bad "gtc compile with GTC_CFLAGS=-DPHP_GTC_API_VERSION=1" ""
    fi
    log=$("$php" -n -d "extension=$so" -r 'var_dump(class_exists("DigitsTrainStep"));' 2>&1)
    rc=$?
    if [ $rc = 0 ] && grep -q 'required module "gtc" is not loaded' <<<"$log" && grep -q "bool(false)" <<<"$log"; then
        ok "a model without gtc.so is refused with PHP's dependency message, no crash"
    else
        bad "a model without gtc.so is refused cleanly (status $rc)" "$log"
    fi
fi
if [ -f "$out/train_step.so" ] && [ -f "$out/digits_step.so" ]; then
    cat >"$out/two.php" <<'EOF'
<?php
use Cuda\CudaArray;
$ok = 0;
foreach ([new MlpTrainStep(), new DigitsTrainStep()] as $m) {
    $args = [];
    foreach ($m->inputs() as $n => $i) $args[$n] = $i['shape'] ? CudaArray::zeros($i['shape']) : 0.1;
    $r = $m->run(...$args);
    $ok += count($r) === 5 && abs($r["loss"]->item()) < 1e-6 ? 0 : 1;
    $ok += $m->getStats()['replays'] === 1 ? 0 : 1;
}
echo $ok === 0 ? "both ok\n" : "wrong\n";
EOF
    check "two models in one process keep their own plans" \
        bash -c '"$1" -n -d "extension=$2" -d "extension=$3" -d "extension=$4" "$5" | grep -qx "both ok"' \
        _ "$php" "$ext" "$out/train_step.so" "$out/digits_step.so" "$out/two.php"
fi

# ---- file names are arguments, never shell text -----------------------------------------------------

odd="$out/odd \$(touch pwned); dir"
mkdir -p "$odd"
cp "$root/examples/digits_step.json" "$odd/g \`touch pwned2\`.json"
if log=$(cd "$out" && "$gtc" compile "$odd/g \`touch pwned2\`.json" -o "$odd/m;touch pwned3.so" --cpu-only 2>&1) &&
    [ -f "$odd/m;touch pwned3.so" ] && ! ls "$out" "$odd" | grep -qx "pwned[0-9]*"; then
    ok "file names with shell metacharacters are passed as they are"
else
    bad "file names with shell metacharacters" "$log"
fi

# ---- make install PREFIX=... and a build from the installed prefix ------------------------------------

prefix="$out/prefix"
if log=$(${MAKE:-make} -s -C "$root" install PREFIX="$prefix" 2>&1); then
    ok "make install PREFIX=$prefix"
    check "the prefix has bin/gtc, gtc.so, the headers, the INI snippet, the attribute classes, stubs, docs, examples" \
        bash -c 'cd "$1" && ls bin/gtc lib/php/extensions/gtc.so include/gtc/runtime/core/plan_abi.h \
                 include/gtc/runtime/php/php_gtc.h include/gtc/ir/ir.h include/gtc/ir/ops.def \
                 etc/php/conf.d/20-gtc.ini share/gtc/templates/ext.c.in share/gtc/php/gtc_attributes.php \
                 share/gtc/stubs/gtc.stub.php share/gtc/stubs/device_functions.stub.php share/gtc/stubs/optimizer.stub.php share/doc/gtc/README.md \
                 share/doc/gtc/docs/graph-format.md share/gtc/examples/train_step.json share/gtc/examples/train_mlp.php' _ "$prefix"
    if log=$(cd / && "$prefix/bin/gtc" compile "$graph" -o "$out/installed.so" --cpu-only 2>&1); then
        ok "the installed gtc compiles a model (headers from PREFIX/include/gtc)"
        check "the model built by the installed gtc runs under the installed gtc.so" \
            bash -c '"$1" -n -d "extension=$2" -d "extension=$3" -r '"'"'
                $m = new DigitsTrainStep(); $a = [];
                foreach ($m->inputs() as $n => $i) $a[$n] = $i["shape"] ? Cuda\CudaArray::zeros($i["shape"]) : 0.1;
                exit(count($m->run(...$a)) === 5 ? 0 : 1);'"'" _ "$php" "$prefix/lib/php/extensions/gtc.so" "$out/installed.so"
    else
        bad "the installed gtc compiles a model" "$log"
    fi
    check "the installed Gtc\\ attribute classes load and instantiate (ReflectionAttribute::newInstance)" \
        bash -c '"$1" -n -r "require \"\$argv[1]\";
            #[Gtc\\Graph(name: \"g\")] function g() {}
            \$a = (new ReflectionFunction(\"g\"))->getAttributes()[0]->newInstance();
            exit(\$a instanceof Gtc\\Graph && \$a->name === \"g\" ? 0 : 1);" "$2"' _ "$php" "$prefix/share/gtc/php/gtc_attributes.php"
else
    bad "make install PREFIX=$prefix" "$log"
fi

# ---- command-line errors: tests/e2e/cli/*.test --------------------------------------------------------
# Sections: --TEST-- (title), --ENV-- (VAR=value lines; -VAR unsets), --ARGS-- (one argument per
# line), --EXIT-- (status), --STDERR-- / --STDOUT-- (each line must appear in it), --ABSENT--
# (paths that must not exist afterwards). @ROOT@, @EXAMPLES@, @OUT@ (a scratch directory),
# @FAKEBIN@ (a directory holding only cc, php-config and a failing compiler) and @FAKEDOT@
# (ok/dot and failing/dot, stand-ins for Graphviz) are replaced.

cli="$out/cli"
fakebin="$out/fakebin"
mkdir -p "$cli/adir.so" "$fakebin"
for t in cc php-config; do
    p=$(command -v "$t") && ln -s "$p" "$fakebin/$t"
done
printf '#!/bin/sh\necho "failing-cc: cannot compile anything" >&2\nexit 3\n' >"$fakebin/failing-cc"
chmod +x "$fakebin/failing-cc"
# @FAKEDOT@: a `dot` that checks it is called as `dot -Tsvg` and wraps what it reads in <svg>,
# and a `dot` that fails (gtc plan --format=svg)
fakedot="$out/fakedot"
mkdir -p "$fakedot/ok" "$fakedot/failing"
printf '#!/bin/sh\n[ "$#" = 1 ] && [ "$1" = -Tsvg ] || { echo "fake dot: args $*" >&2; exit 9; }\necho "<svg><!--"\ncat\necho "--></svg>"\n' >"$fakedot/ok/dot"
printf '#!/bin/sh\ncat >/dev/null\necho "Error: fake dot cannot lay this out" >&2\nexit 4\n' >"$fakedot/failing/dot"
chmod +x "$fakedot/ok/dot" "$fakedot/failing/dot"
section() { awk -v s="--$2--" '$0 == s {f = 1; next} /^--[A-Z]+--$/ {f = 0} f' "$1"; }
subst() { sed -e "s|@ROOT@|$root|g" -e "s|@EXAMPLES@|$root/examples|g" -e "s|@OUT@|$cli|g" -e "s|@FAKEBIN@|$fakebin|g" \
              -e "s|@FAKEDOT@|$fakedot|g"; }
for t in "$here"/cli/*.test; do
    name="cli/$(basename "$t" .test): $(section "$t" TEST)"
    mapfile -t args < <(section "$t" ARGS | subst)
    envs=()
    while IFS= read -r line; do
        [ -z "$line" ] && continue
        case $line in -*) envs+=(-u "${line#-}") ;; *) envs+=("$line") ;; esac
    done < <(section "$t" ENV | subst)
    want=$(section "$t" EXIT)
    (cd "$cli" && env "${envs[@]}" "$gtc" "${args[@]}" >"$cli/stdout" 2>"$cli/stderr" </dev/null)
    rc=$?
    why=""
    [ "$rc" = "${want:-0}" ] || why="exit status $rc, expected ${want:-0}"
    for stream in STDERR STDOUT; do
        lower=$(tr 'A-Z' 'a-z' <<<"$stream")
        while IFS= read -r line; do
            [ -z "$line" ] && continue
            grep -qF -- "$line" "$cli/$lower" || why="${why:+$why; }$lower lacks: $line"
        done < <(section "$t" "$stream" | subst)
    done
    while IFS= read -r line; do
        [ -z "$line" ] || [ ! -e "$line" ] || why="${why:+$why; }$line exists"
    done < <(section "$t" ABSENT | subst)
    if [ -z "$why" ]; then ok "$name"; else bad "$name" "$why
stderr: $(head -c 2000 "$cli/stderr")"; fi
done

# ---- gtc plan --format=svg with Graphviz itself, where it is installed --------------------------

if command -v dot >/dev/null 2>&1; then
    if "$gtc" plan --format=svg "$root/examples/train_step.json" >"$out/plan.svg" 2>"$out/plan.svg.err" &&
        "${PYTHON:-/usr/bin/python3}" -c 'import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
sys.exit(0 if r.tag == "{http://www.w3.org/2000/svg}svg" and len(r.findall(".//{http://www.w3.org/2000/svg}g")) > 7 else 1)' \
            "$out/plan.svg"; then
        ok "gtc plan --format=svg with Graphviz: a well-formed SVG with the plan's nodes"
    else
        bad "gtc plan --format=svg with Graphviz" "$(cat "$out/plan.svg.err")"
    fi
else
    echo "note: Graphviz's dot is not installed: gtc plan --format=svg checked with tests/e2e/cli's stand-ins only"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
