#!/usr/bin/env bash
# bench/onnx.sh: imported ONNX models (an MLP 784-512-256-10 and a small CNN, batch 1 and 256,
# bench/onnx_bench.py) compiled by gtc and run from PHP, against ONNX Runtime on the CPU (and its
# CUDA provider, inputs bound on the GPU, when the installed onnxruntime has it) and PyTorch
# (eager, when torch and onnx2torch import), in one table of microseconds per inference.
#
#   bash bench/onnx.sh [build/gtc [build/gtc.so]]         # here: the CPU backend
#   source .device/env.sh; bash bench/onnx.sh              # the GPU machine: CUDA
#
# PYTHON: a python with onnx and onnxruntime (default build/onnx-venv/bin/python, made by
# scripts/onnx-venv.sh; onnxruntime-gpu / torch / onnx2torch for the GPU rows). ITERS (200) runs
# per row. GTC_DEVICE picks gtc's backend as usual. Raw JSON lines go to $OUT when set. MODELS=DIR
# takes the models from DIR (written by `onnx_bench.py make DIR` where onnx is installed) instead
# of making them; the reference rows then need onnxruntime (and torch) in PYTHON, or are skipped.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
gtc=${1:-build/gtc}
ext=${2:-build/gtc.so}
php_bin=${PHP:-php}
py_bin=${PYTHON:-build/onnx-venv/bin/python}
iters=${ITERS:-200}
dir=${OUT:-$(mktemp -d)}
cpu_only=()
command -v nvidia-smi >/dev/null 2>&1 || cpu_only=(--cpu-only)

echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
command -v nvidia-smi >/dev/null 2>&1 && echo "gpu: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-unset}"
echo "gtc: $(git -C "$here/.." log -1 --format='%h %cs' 2>/dev/null || echo '?'); onnxruntime: $("$py_bin" -c 'import onnxruntime; print(onnxruntime.__version__)' 2>/dev/null || echo none)"

if [ -n "${MODELS:-}" ]; then  # made elsewhere (`onnx_bench.py make DIR`): the GPU machine has no PyPI
  cp "$MODELS"/*.onnx "$MODELS"/*_in.npz "$dir"/ || exit 1
else
  "$py_bin" "$here/onnx_bench.py" make "$dir" || { echo "onnx.sh: cannot make the models" >&2; exit 1; }
fi
: >"$dir/results.jsonl"
for m in mlp_b1 mlp_b256 cnn_b1 cnn_b256; do
  if ! out=$("$gtc" compile "$dir/$m.onnx" -o "$dir/$m.so" "${cpu_only[@]}" 2>"$dir/$m.err"); then
    echo "gtc compile $m failed:"; tail -3 "$dir/$m.err"; continue
  fi
  cls=$(sed -n 's/.*class \([A-Za-z0-9_]*\).*/\1/p' <<<"$out" | head -1)
  "$php_bin" -n -d extension="$ext" -d extension="$dir/$m.so" "$here/onnx.php" "$cls" "$dir/$m.npz" \
    "$dir/${m}_in.npz" "$iters" "$m" >>"$dir/results.jsonl" 2>"$dir/$m.err" || { echo "onnx.php $m failed:"; tail -3 "$dir/$m.err"; }
done
"$py_bin" "$here/onnx_bench.py" time "$dir" "$iters" >>"$dir/results.jsonl" 2>"$dir/ref.err" || { echo "references failed:"; tail -3 "$dir/ref.err"; }
[ -n "${OUT:-}" ] || echo "raw results: $dir"

"$py_bin" - "$dir/results.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
models = ["mlp_b1", "mlp_b256", "cnn_b1", "cnn_b256"]
runners = list(dict.fromkeys(r["runner"] for r in rows))
t = {(r["model"], r["runner"]): r["us_per_run"] for r in rows}
print("\nus per inference (lower is better)")
print(f"{'runner':<34}" + "".join(f"{m:>12}" for m in models))
for rn in runners:
    print(f"{rn:<34}" + "".join(f"{t[(m, rn)]:>12.1f}" if (m, rn) in t else f"{'-':>12}" for m in models))
PY
