#!/usr/bin/env bash
# tests/gpu/plan_jit.sh: the JIT fallback of compiled models (runtime/cuda/cuda_plan_jit.cu).
#   bash tests/gpu/plan_jit.sh --build   here, no GPU: builds gtc and gtc.so, runs
#        build/tests/test_plan_nvrtc over kernels.cu freshly emitted for the examples and the
#        golden graphs (NVRTC accepts
#        the generated text; the runtime's own compile call), and compiles the example models
#        into build/jit/ for --run
#   bash tests/gpu/plan_jit.sh --run     on the GPU machine (source .device/env.sh first): each
#        model runs a few training steps in fresh PHP processes and prints hashes of its outputs:
#          the embedded cubin (getStats()['kernels'] === 'cubin'), twice (determinism control);
#          GTC_FORCE_JIT=1 GTC_CACHE_DIR=<new dir>: 'nvrtc', the directory created 0700 with one
#          entry; again: 'nvrtc-cache'; a corrupt entry (flipped byte, truncated, garbage) is
#          ignored ('nvrtc') and rewritten ('nvrtc-cache' next); HOME unset and no GTC_CACHE_DIR
#          still works ('nvrtc', nothing cached); HOME alone caches under ~/.cache/gtc.
#        Every JIT run's outputs must be bit-identical to the cubin run's.
# Prints "PASS"/"FAIL" lines and "N passed, N failed"; exits 1 when anything failed.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
php=${PHP:-php}
ext=$PWD/$BUILD/gtc.so
models=$PWD/$BUILD/jit
pass=0
fail=0
ok() { echo "PASS $*"; pass=$((pass + 1)); }
no() { echo "FAIL $*"; fail=$((fail + 1)); }
expect() { if [ "$2" = "$3" ]; then ok "$1"; else no "$1: expected '$3', got '$2'"; fi; }

if [ "${1:-}" = --build ]; then
    set -e
    make --no-print-directory BUILD="$BUILD" "$BUILD/gtc" "$BUILD/gtc.so"
    cc -std=c11 -Wall -Wextra -Werror -g -O2 -D_GNU_SOURCE -o "$BUILD/tests/test_plan_nvrtc" \
        tests/gpu/test_plan_nvrtc.c "$BUILD"/obj/runtime/cuda/*.o "$BUILD/libgtcrt.a" \
        -L"$CUDA_HOME/lib64" -Wl,-rpath,"$CUDA_HOME/lib64" -lcublas -lcublasLt -lnvrtc -lcudart -lstdc++ \
        -lopenblas -fopenmp -lcjson -lm
    mkdir -p "$models"
    srcs=()
    for name in train_step digits_step; do
        mkdir -p "$models/$name.src"
        "$BUILD/gtc" compile "examples/$name.json" -o "$models/$name.so" --emit-dir "$models/$name.src"
        srcs+=("$models/$name.src/kernels.cu")
    done
    # The golden graphs' kernels emitted now (the golden files elide the prelude, so they are not
    # compilable text themselves).
    for dir in tests/golden/*/; do
        [ -f "$dir/expected/emit/kernels.cu" ] || continue
        g=$dir/graph.json
        [ -f "$dir/graph.php" ] && g=$dir/graph.php
        e="$models/golden-$(basename "$dir")"
        mkdir -p "$e"
        "$BUILD/gtc" emit "$g" --emit-dir "$e" >/dev/null
        srcs+=("$e/kernels.cu")
    done
    set +e
    "$BUILD/tests/test_plan_nvrtc" "${srcs[@]}"
    exit $?
fi
if [ "${1:-}" != --run ]; then
    echo "usage: $0 --build | --run" >&2
    exit 2
fi

export GTC_DEVICE=cuda
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run MODEL CLASS [VAR=VALUE...]: one PHP process; its JSON line into $out, wall time into $ms
run() {
    local so=$models/$1.so class=$2
    shift 2
    local t0=$(date +%s%N)
    out=$(env "$@" "$php" -n -d "extension=$ext" -d "extension=$so" tests/e2e/jit_run.php "$class" 3 2>&1)
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    out=$(printf '%s\n' "$out" | tail -n1)
}
field() { printf '%s' "$out" | sed -nE "s/.*\"$1\":\"([^\"]*)\".*/\1/p"; }
hashes() { printf '%s' "$out" | sed -nE 's/.*"outputs":(\{[^}]*\}).*/\1/p'; }
entries() { find "$1" -maxdepth 1 -type f | wc -l | tr -d ' '; }

for spec in train_step:MlpTrainStep digits_step:DigitsTrainStep; do
    m=${spec%%:*}
    c=${spec##*:}
    if [ ! -f "$models/$m.so" ]; then
        no "$m: $models/$m.so is missing (run --build first)"
        continue
    fi
    run "$m" "$c" GTC_FORCE_JIT=0
    echo "  $m cubin (${ms} ms): $out"
    expect "$m: the embedded cubin is used on this GPU" "$(field kernels)" cubin
    ref=$(hashes)
    [ -n "$ref" ] || no "$m: no outputs from the cubin run"
    run "$m" "$c" GTC_FORCE_JIT=0
    expect "$m: two cubin runs give the same bits (control)" "$(hashes)" "$ref"

    cache=$work/$m/cache/gtc # its parents do not exist yet
    run "$m" "$c" GTC_FORCE_JIT=1 GTC_CACHE_DIR="$cache"
    echo "  $m nvrtc (${ms} ms): $out"
    expect "$m: GTC_FORCE_JIT=1 compiles with NVRTC" "$(field kernels)" nvrtc
    expect "$m: a second model object shares the NVRTC build" "$(field kernels2)" nvrtc
    expect "$m: NVRTC kernels give the cubin's bits" "$(hashes)" "$ref"
    expect "$m: the cache directory is created 0700" "$(stat -c %a "$cache" 2>/dev/null)" 700
    expect "$m: one cache entry, no temporary files" "$(entries "$cache")" 1
    entry=$(find "$cache" -maxdepth 1 -type f -name '*.kc' | head -n1)
    [ -n "$entry" ] && cp "$entry" "$work/$m.good"

    run "$m" "$c" GTC_FORCE_JIT=1 GTC_CACHE_DIR="$cache"
    echo "  $m nvrtc-cache (${ms} ms): $out"
    expect "$m: the next process loads the cached image" "$(field kernels)" nvrtc-cache
    expect "$m: cached kernels give the cubin's bits" "$(hashes)" "$ref"

    [ "$m" = train_step ] || continue
    # corrupt entries: each is ignored (a fresh NVRTC build) and replaced by a valid one
    size=$(stat -c %s "$entry")
    for how in flip truncate garbage empty; do
        case $how in
        flip) printf 'CORRUPT' | dd of="$entry" bs=1 seek=$((size / 2)) conv=notrunc status=none ;;
        truncate) truncate -s 20 "$entry" ;;
        garbage) head -c "$size" /dev/urandom >"$entry" ;;
        empty) : >"$entry" ;;
        esac
        run "$m" "$c" GTC_FORCE_JIT=1 GTC_CACHE_DIR="$cache"
        expect "$m: a $how cache entry is ignored (recompiled)" "$(field kernels)" nvrtc
        expect "$m: ... with the cubin's bits" "$(hashes)" "$ref"
        cmp -s "$entry" "$work/$m.good" && same=same || same=other
        echo "  (the rewritten entry has the $same bytes as the first NVRTC build)"
        run "$m" "$c" GTC_FORCE_JIT=1 GTC_CACHE_DIR="$cache"
        expect "$m: ... and rewritten: the next process uses it" "$(field kernels)" nvrtc-cache
    done
    expect "$m: still one cache entry" "$(entries "$cache")" 1

    # no HOME, no GTC_CACHE_DIR: no disk cache, still runs
    run "$m" "$c" -u HOME -u GTC_CACHE_DIR GTC_FORCE_JIT=1
    expect "$m: without HOME it still compiles and runs" "$(field kernels)" nvrtc
    expect "$m: ... with the cubin's bits" "$(hashes)" "$ref"
    # HOME alone: ~/.cache/gtc
    mkdir -p "$work/home"
    run "$m" "$c" -u GTC_CACHE_DIR HOME="$work/home" GTC_FORCE_JIT=1
    expect "$m: HOME alone caches under ~/.cache/gtc" "$(entries "$work/home/.cache/gtc" 2>/dev/null)" 1
    run "$m" "$c" -u GTC_CACHE_DIR HOME="$work/home" GTC_FORCE_JIT=1
    expect "$m: ... and hits it" "$(field kernels)" nvrtc-cache
    # a cache directory shared with others is not trusted
    mkdir -p "$work/shared" && chmod 777 "$work/shared"
    run "$m" "$c" GTC_CACHE_DIR="$work/shared" GTC_FORCE_JIT=1
    expect "$m: a world-writable GTC_CACHE_DIR is not used" "$(field kernels):$(entries "$work/shared")" nvrtc:0
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
