#!/usr/bin/env bash
# bench/predict.sh: serving latency, issue #21: batch-1 predict() of the digits MLP from PHP
# (bench/predict_digits.json's training step compiled by gtc; predict() is its forward function)
# against PyTorch eager and a hand-captured CUDA Graph, on one GPU in one run, in one table; each
# call starts from an input on the device and ends with the logits on the host. Run on the GPU
# machine from the repository root:
#
#   source .device/env.sh; bash bench/predict.sh [build/gtc.so [build/gtc]]
#
# Compiles the model into $OUT (or a temporary folder) with the given gtc. CALLS (20000) sets the
# calls per row; DEVICE=cpu tries the script without a GPU (gtc on its CPU backend, torch eager).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ext=${1:-build/gtc.so}
gtc=${2:-build/gtc}
php_bin=${PHP:-php}
py_bin=${PYTHON:-python3}
dir=${OUT:-$(mktemp -d)}
calls=${CALLS:-20000}
device=${DEVICE:-cuda}
flags=()
[ "$device" = cpu ] && flags=(--cpu-only)

echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
if command -v nvidia-smi >/dev/null 2>&1; then
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
fi
echo "php: $("$php_bin" -n -r 'echo PHP_VERSION;'); torch: $("$py_bin" -c 'import torch; print(torch.__version__, "cuda", torch.version.cuda)' 2>/dev/null || echo none)"
echo "gtc: $(git -C "$here/.." log -1 --format='%h %cs' 2>/dev/null || echo '?')"
if ! "$gtc" compile "$here/predict_digits.json" -o "$dir/digits_serve.so" "${flags[@]}" >"$dir/compile.log" 2>&1; then
  echo "gtc compile bench/predict_digits.json failed:"; tail -5 "$dir/compile.log"; exit 1
fi
GTC_DEVICE=$device "$php_bin" -n -d extension="$ext" -d extension="$dir/digits_serve.so" "$here/predict.php" --calls="$calls" \
  >"$dir/predict_gtc.jsonl" 2>"$dir/predict_gtc.err" || { echo "predict.php failed:"; tail -5 "$dir/predict_gtc.err"; }
PYTHONUNBUFFERED=1 "$py_bin" "$here/predict_torch.py" --calls="$calls" --device="$device" \
  >"$dir/predict_torch.jsonl" 2>"$dir/predict_torch.err" || { echo "predict_torch.py failed:"; tail -5 "$dir/predict_torch.err"; }
[ -n "${OUT:-}" ] || echo "raw results: $dir"

"$py_bin" - "$dir/predict_gtc.jsonl" "$dir/predict_torch.jsonl" <<'PY'
import json, sys
rows = []
for path in sys.argv[1:]:
    try:
        rows += [json.loads(l) for l in open(path) if l.strip()]
    except OSError:
        pass
best = min((r["us_per_call"] for r in rows if r["variant"].startswith("torch")), default=None)
print("\nbatch-1 inference, digits MLP 64-64-10 (input on the device, logits back on the host per call)")
print(f"{'variant':<22}{'us/call':>10}{'vs torch best':>15}")
for r in rows:
    rel = f"{r['us_per_call'] / best:.2f}x" if best else "-"
    print(f"{r['variant']:<22}{r['us_per_call']:>10.1f}{rel:>15}")
PY
