#!/usr/bin/env bash
# bench/scale.sh: MLP training steps from tiny to large, gtc against PyTorch, in every precision
# (issue: GEMMs that hold up as models grow). Rows (MLP widths, batch): 64-64-10 b256,
# 480-256-2 b512, 784-1024-1024-10 b1024, 4096-4096-4096-4096 b4096 (bench/scale_graph.py writes
# each step: ReLU layers, softmax cross-entropy, SGD in place). Per row and precision (fp32, tf32,
# bf16): the `gtc compile --precision=P` model run from PHP (bench/scale.php) and PyTorch eager
# autograd, a hand-captured CUDA Graph and torch.compile reduce-overhead (bench/scale_torch.py);
# one table: us per step, gtc's achieved TFLOP/s (2*M*N*K per product, every product of the
# step) and its share of the H200's dense peak for that precision (fp32 67, tf32 495, bf16 989),
# and PyTorch's fastest over gtc.
#
#   bash bench/scale.sh --build [DIR]   compile the 12 models into DIR (default build/scale), here
#   source .device/env.sh; bash bench/scale.sh --run [DIR]   time them on the GPU machine
#
# Environment: GTC_EXT (build/gtc.so), GTC_REV (the gtc version to print; default the git commit), PHP, PYTHON, ROWS (a subset, e.g. "64-64-10:256"),
# PRECISIONS (fp32,tf32,bf16), BENCH_TORCH=0 (no PyTorch), TORCH_MODES (eager,cuda-graph,
# reduce-overhead), TORCH_BUDGET (seconds per row before torch.compile rows are skipped: 240), GTC_GEMM (cublaslt|kernel: force a GEMM
# form, compiler/pass_lower.c). Raw JSON lines go to $OUT when set, else a temporary folder.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root" || exit 2
mode=${1:---run}
dir=${2:-build/scale}
rows=${ROWS:-64-64-10:256 480-256-2:512 784-1024-1024-10:1024 4096-4096-4096-4096:4096}
precs=${PRECISIONS:-fp32,tf32,bf16}
php_bin=${PHP:-php}
py_bin=${PYTHON:-python3}
ext=${GTC_EXT:-build/gtc.so}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out" || exit 2
name() { echo "mlp_${1//-/_}_b$2_$3"; }

if [ "$mode" = --build ]; then
  mkdir -p "$dir"
  for r in $rows; do
    w=${r%%:*} b=${r##*:}
    python3 bench/scale_graph.py "$w" "$b" > "$dir/$(name "$w" "$b" g).json" || exit 1
    for p in ${precs//,/ }; do
      n=$(name "$w" "$b" "$p")
      [ "$dir/$n.so" -nt "$dir/$(name "$w" "$b" g).json" ] && continue
      echo "compiling $n"
      build/gtc compile "$dir/$(name "$w" "$b" g).json" --precision="$p" -o "$dir/$n.so" || exit 1
    done
  done
  exit 0
fi
[ "$mode" = --run ] || { echo "usage: scale.sh --build|--run [DIR]" >&2; exit 2; }

echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
command -v nvidia-smi >/dev/null && echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | head -1)"
echo "torch: $("$py_bin" -c 'import torch; print(torch.__version__, "cuda", torch.version.cuda)' 2>/dev/null || echo none)"
echo "gtc: ${GTC_REV:-$(git log -1 --format='%h %cs' 2>/dev/null || echo '?')}${GTC_GEMM:+ (GTC_GEMM=$GTC_GEMM)}"
: > "$out/scale.jsonl"
for r in $rows; do
  w=${r%%:*} b=${r##*:}
  for p in ${precs//,/ }; do
    n=$(name "$w" "$b" "$p")
    line=$(timeout 300 "$php_bin" -n -d extension="$ext" -d extension="$dir/$n.so" bench/scale.php 2>"$out/$n.err" | tail -1)
    [ -n "$line" ] || line='{"error": "gtc run failed"}'
    echo "{\"row\": \"$w:$b\", \"precision\": \"$p\", \"gtc\": $line}" >> "$out/scale.jsonl"
  done
  if [ "${BENCH_TORCH:-1}" != 0 ]; then
    timeout 600 "$py_bin" bench/scale_torch.py --mlp="$w" --batch="$b" --precisions="$precs" \
      --modes="${TORCH_MODES:-eager,cuda-graph,reduce-overhead}" --budget="${TORCH_BUDGET:-240}" 2>"$out/torch_$w.err" |
      sed "s/^/{\"row\": \"$w:$b\", \"torch\": /; s/\$/}/" >> "$out/scale.jsonl"
  fi
done
"$py_bin" - "$out/scale.jsonl" <<'PY'
import json, sys
peak = {"fp32": 67e12, "tf32": 495e12, "bf16": 989e12}
rows = {}
for line in open(sys.argv[1]):
    try:
        j = json.loads(line)
    except ValueError:
        continue
    if "gtc" in j:
        rows.setdefault((j["row"], j["precision"]), {})["gtc"] = j["gtc"].get("us_per_step")
    else:
        t = j["torch"]
        rows.setdefault((j["row"], t["precision"]), {})[t["mode"]] = t.get("us_per_step")
def flops(row):
    w, b = row.split(":")
    w, b = [int(v) for v in w.split("-")], int(b)
    prods = sum(a * c for a, c in zip(w, w[1:]))
    return 2 * b * (3 * prods - w[0] * w[1])
fmt = lambda v: f"{v:,.1f}" if isinstance(v, (int, float)) else "-"
print("\n| MLP, batch | precision | gtc aot µs | torch eager | torch CUDA Graph | torch reduce-overhead | gtc TFLOP/s | % of peak | fastest torch / gtc |")
print("|---|---|---|---|---|---|---|---|---|")
for (row, p), r in rows.items():
    g = r.get("gtc")
    ts = [r.get(m) for m in ("eager", "cuda-graph", "reduce-overhead") if isinstance(r.get(m), (int, float))]
    tf = flops(row) / (g * 1e-6) / 1e12 if g else None
    pk = 100 * tf * 1e12 / peak[p] if tf else None
    ratio = f"{min(ts) / g:.2f}x" if g and ts else "-"
    print(f"| {row.replace(':', ', b')} | {p} | {fmt(g)} | {fmt(r.get('eager'))} | {fmt(r.get('cuda-graph'))} | "
          f"{fmt(r.get('reduce-overhead'))} | {fmt(tf)} | {fmt(pk)} | {ratio} |")
PY
