#!/usr/bin/env bash
# bench/cpu.sh: the CPU backend against PyTorch CPU (issue #26, docs/cpu.md), in one run, one table:
# the MLP training steps 64-64-10 b256, 480-256-2 b512 and 784-1024-1024-10 b1024 (bench/cpu_graph.php
# writes each graph; `gtc compile --cpu-only` builds it; bench/cpu.php times it from PHP with
# GTC_DEVICE=cpu) and the CNN step of examples/cnn_digits.json, against PyTorch eager autograd
# (bench/cpu_torch.py; bench/cnn_torch.py --device=cpu for the CNN), then the digits MLP's
# inference (64-64-10, batch 1 and 256) against ONNX Runtime; each at 1 thread and at all
# physical cores (GTC_CPU_THREADS for gtc; torch.set_num_threads / OMP_NUM_THREADS for PyTorch;
# intra_op_num_threads for ONNX Runtime). Columns whose library is missing are left empty with
# a note. Run from the repository root after `make all`:
#
#   bash bench/cpu.sh                          here
#   THREADS=16 bash bench/cpu.sh               the GPU machine's 16-core Xeon (bench/README.md)
#
# Environment: GTC (build/gtc), GTC_EXT (build/gtc.so), GTC_REV (the gtc version to print: default
# the checkout's git commit, which a copied tree may not have), PHP, PYTHON (python3 with torch,
# onnxruntime, onnx), THREADS (all threads: default the physical cores, as gtc's default),
# STEPS (timed steps per row, 200; inference rows 10x), ROWS (a comma list of the rows to run:
# mlp1,mlp2,mlp3,cnn,infer), OMP_WAIT_POLICY (passed to both sides: `passive` on a machine other
# work keeps busy, docs/cpu.md), ROUNDS (1: each cell is measured ROUNDS times, gtc and the
# reference alternating, and the table keeps each side's least median: on a machine whose
# speed drifts between runs, as the GPU machine's Xeon does by 20-50%, both sides then get
# their best moment). Raw JSON lines go to $OUT when set, else a temporary folder.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2
gtc=${GTC:-build/gtc}
ext=${GTC_EXT:-build/gtc.so}
php_bin=${PHP:-php}
py_bin=${PYTHON:-python3}
dir=${OUT:-$(mktemp -d)}
mkdir -p "$dir" || exit 2
steps=${STEPS:-200}
rounds=${ROUNDS:-1}
rows=${ROWS:-mlp1,mlp2,mlp3,cnn,infer}
for f in "$gtc" "$ext"; do [ -f "$f" ] || { echo "cpu.sh: $f not found (make all)" >&2; exit 2; }; done
physical=$(GTC_CPU_THREADS= "$gtc" --version | sed -n 's/.*, \([0-9]*\) threads\{0,1\} (physical cores).*/\1/p')
all=${THREADS:-${physical:-$(nproc)}}

echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, ${physical:-?} physical cores; all threads = $all"
echo "gtc: ${GTC_REV:-$(git log -1 --format='%h %cs' 2>/dev/null || echo '?')}; $(GTC_CPU_THREADS= "$gtc" --version | sed -n 's/^cpu: //p')"
echo "omp: OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-(unset: spin, then sleep)} (docs/cpu.md: passive on a busy machine)"
echo "php: $("$php_bin" -n -r 'echo PHP_VERSION;'); torch: $("$py_bin" -c 'import torch; print(torch.__version__, torch.backends.cpu.get_cpu_capability())' 2>/dev/null || echo 'none (pip install torch)'); onnxruntime: $("$py_bin" -c 'import onnxruntime, onnx; print(onnxruntime.__version__)' 2>/dev/null || echo 'none (pip install onnxruntime onnx)')"
[ -n "${OUT:-}" ] || echo "raw results: $dir"

# gtc: one compiled model per row (the class name is what `gtc compile` prints)
model() { # model NAME LAYERS BATCH [infer] -> prints the class
    php -n bench/cpu_graph.php "$2" "$3" ${4:-} >"$dir/$1.json" &&
        "$gtc" compile --cpu-only "$dir/$1.json" -o "$dir/$1.so" >"$dir/$1.build.log" 2>&1 &&
        sed -n 's/.*: class \([A-Za-z0-9_]*\) .*/\1/p' "$dir/$1.build.log"
}
gtc_time() { # gtc_time SO CLASS THREADS STEPS
    GTC_DEVICE=cpu GTC_CPU_THREADS=$3 "$php_bin" -n -d extension="$ext" -d extension="$1" bench/cpu.php \
        --class="$2" --steps="$4" 2>>"$dir/gtc.err" | sed -n 's/.*"us_per_step":\([0-9.]*\).*/\1/p'
}
declare -A R
least() { # least OLD NEW: the smaller of two numbers, either possibly empty
    if [ -z "${1:-}" ]; then echo "${2:-}"; elif [ -z "${2:-}" ]; then echo "$1"; else awk -v a="$1" -v b="$2" 'BEGIN { print (b < a ? b : a) }'; fi
}
row_names=()
add_row() { row_names+=("$1"); }
for r in ${rows//,/ }; do
    case $r in
    mlp1) set -- "64-64-10" 256 ;;
    mlp2) set -- "480-256-2" 512 ;;
    mlp3) set -- "784-1024-1024-10" 1024 ;;
    cnn | infer) set -- ;;
    *) echo "cpu.sh: unknown row $r (mlp1,mlp2,mlp3,cnn,infer)" >&2; exit 2 ;;
    esac
    if [ "${r#mlp}" != "$r" ]; then
        name="MLP $1 b$2 (train step)"
        add_row "$name"
        cls=$(model "$r" "$1" "$2")
        n=$steps
        [ "$r" = mlp3 ] && n=$((steps / 10 > 10 ? steps / 10 : 10))
        for t in 1 "$all"; do for ((q = 0; q < rounds; q++)); do
            [ -n "$cls" ] && R[$name,gtc,$t]=$(least "${R[$name,gtc,$t]:-}" "$(gtc_time "$dir/$r.so" "$cls" "$t" "$n")")
            R[$name,ref,$t]=$(least "${R[$name,ref,$t]:-}" "$(OMP_NUM_THREADS=$t "$py_bin" bench/cpu_torch.py --layers="$1" --batch="$2" --threads="$t" --steps="$n" 2>>"$dir/torch.err" |
                tee -a "$dir/torch.jsonl" | sed -n 's/.*"us": \([0-9.]*\).*/\1/p')")
        done; done
        R[$name,refname]="torch eager"
    elif [ "$r" = cnn ]; then
        name="CNN examples/cnn_digits.json b256 (train step)"
        add_row "$name"
        "$gtc" compile --cpu-only examples/cnn_digits.json -o "$dir/cnn.so" >"$dir/cnn.build.log" 2>&1
        cls=$(sed -n 's/.*: class \([A-Za-z0-9_]*\) .*/\1/p' "$dir/cnn.build.log")
        for t in 1 "$all"; do for ((q = 0; q < rounds; q++)); do
            [ -n "$cls" ] && R[$name,gtc,$t]=$(least "${R[$name,gtc,$t]:-}" "$(gtc_time "$dir/cnn.so" "$cls" "$t" "$steps")")
            R[$name,ref,$t]=$(least "${R[$name,ref,$t]:-}" "$(OMP_NUM_THREADS=$t "$py_bin" bench/cnn_torch.py --device=cpu --variants=eager --ops=0 --steps="$steps" 2>>"$dir/torch.err" |
                tee -a "$dir/torch.jsonl" | sed -n 's/.*"us_per_step": \([0-9.]*\).*/\1/p' | head -1)")
        done; done
        R[$name,refname]="torch eager"
    else
        for b in 1 256; do
            name="digits MLP 64-64-10 b$b (inference)"
            add_row "$name"
            cls=$(model "infer$b" 64-64-10 "$b" infer)
            for t in 1 "$all"; do for ((q = 0; q < rounds; q++)); do
                [ -n "$cls" ] && R[$name,gtc,$t]=$(least "${R[$name,gtc,$t]:-}" "$(gtc_time "$dir/infer$b.so" "$cls" "$t" $((steps * 10)))")
                R[$name,ref,$t]=$(least "${R[$name,ref,$t]:-}" "$("$py_bin" bench/cpu_torch.py --ort=64-64-10 --batch="$b" --threads="$t" --steps=$((steps * 10)) 2>>"$dir/ort.err" |
                    tee -a "$dir/ort.jsonl" | sed -n 's/.*"us": \([0-9.]*\).*/\1/p')")
            done; done
            R[$name,refname]="onnxruntime"
        done
    fi
done

fmt() { [ -n "${1:-}" ] && printf "%'.1f" "$1" || printf "—"; }
ratio() { [ -n "${1:-}" ] && [ -n "${2:-}" ] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", b / a }' || printf "—"; }
echo
echo "µs per step (median of 10 intervals; the least of $rounds round(s) per side); speed-up = reference time / gtc time (above 1: gtc is faster)"
echo
echo "| row | reference | gtc 1 thread | ref 1 thread | speed-up | gtc $all threads | ref $all threads | speed-up |"
echo "|---|---|---|---|---|---|---|---|"
for name in "${row_names[@]}"; do
    g1=${R[$name,gtc,1]:-}; r1=${R[$name,ref,1]:-}; gn=${R[$name,gtc,$all]:-}; rn=${R[$name,ref,$all]:-}
    echo "| $name | ${R[$name,refname]} | $(fmt "$g1") | $(fmt "$r1") | $(ratio "$g1" "$r1") | $(fmt "$gn") | $(fmt "$rn") | $(ratio "$gn" "$rn") |"
done
for f in torch.err ort.err gtc.err; do
    [ -s "$dir/$f" ] && { echo; echo "$f (last lines):"; tail -3 "$dir/$f"; }
done
grep -h '"skip"' "$dir"/*.jsonl 2>/dev/null | sort -u | sed 's/^/note: /'
exit 0
