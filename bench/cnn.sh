#!/usr/bin/env bash
# bench/cnn.sh: the CNN training step (examples/cnn_digits.json, batch 256) compiled by gtc
# against PyTorch (eager, a hand-captured CUDA Graph, torch.compile reduce-overhead; cuDNN with
# benchmark mode, TF32 off), and single eager conv2d calls, on one GPU in one run, in one table.
# Run on the GPU machine from the repository root:
#
#   source .device/env.sh; bash bench/cnn.sh [build/gtc.so [build/models/cnn_digits.so]]
#
# Needs the model compiled here (`make models` builds build/models/cnn_digits.so). STEPS (2000)
# sets the steps per row. Raw JSON lines go to $OUT when set (device tool), else a temporary folder.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ext=${1:-build/gtc.so}
model=${2:-build/models/cnn_digits.so}
php_bin=${PHP:-php}
py_bin=${PYTHON:-python3}
dir=${OUT:-$(mktemp -d)}
steps=${STEPS:-2000}

echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
if command -v nvidia-smi >/dev/null 2>&1; then
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
fi
echo "php: $("$php_bin" -n -r 'echo PHP_VERSION;'); torch: $("$py_bin" -c 'import torch; print(torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version())' 2>/dev/null || echo none)"
echo "gtc: $(git -C "$here/.." log -1 --format='%h %cs' 2>/dev/null || echo '?')"

if ! "$php_bin" -n -d extension="$ext" -d extension="$model" "$here/cnn.php" --steps="$steps" >"$dir/cnn_gtc.jsonl" 2>"$dir/cnn_gtc.err"; then
  echo "cnn.php failed:"; tail -5 "$dir/cnn_gtc.err"
fi
# the same conv2d calls with each convolution forced: gtc's plan, cuDNN (the auto row picks per shape)
for conv in gtc cudnn; do
  GTC_CONV=$conv "$php_bin" -n -d extension="$ext" "$here/cnn.php" --steps=0 >>"$dir/cnn_gtc.jsonl" 2>>"$dir/cnn_gtc.err" ||
    echo "cnn.php (GTC_CONV=$conv) failed: $(tail -1 "$dir/cnn_gtc.err")"
done
if ! PYTHONUNBUFFERED=1 "$py_bin" "$here/cnn_torch.py" --steps="$steps" >"$dir/cnn_torch.jsonl" 2>"$dir/cnn_torch.err"; then
  echo "cnn_torch.py failed:"; tail -5 "$dir/cnn_torch.err"
fi
[ -n "${OUT:-}" ] || echo "raw results: $dir"

"$py_bin" - "$dir/cnn_gtc.jsonl" "$dir/cnn_torch.jsonl" <<'PY'
import json, sys
rows = []
for side, path in (("gtc", sys.argv[1]), ("torch", sys.argv[2])):
    try:
        for line in open(path):
            if line.strip():
                r = json.loads(line); r["side"] = side; rows.append(r)
    except OSError:
        pass
steps = [r for r in rows if r["row"] == "step"]
best = min((r["us_per_step"] for r in steps if r["side"] == "torch" and "us_per_step" in r), default=None)
print("\nCNN training step, batch 256 (x [256,1,8,8]; conv3x3 1->16, pool, conv3x3 16->32, pool, linear 128->10; AdamW)")
print(f"{'variant':<26}{'us/step':>10}{'vs torch best':>15}{'warm-up s':>11}{'loss':>10}")
for r in steps:
    name = ("gtc " if r["side"] == "gtc" and not r["variant"].startswith("gtc") else "" if r["side"] == "gtc" else "torch ") + r["variant"]
    if "error" in r:
        print(f"{name:<26}  failed: {r['error']}")
        continue
    rel = f"{r['us_per_step'] / best:.2f}x" if best else "-"
    print(f"{name:<26}{r['us_per_step']:>10.1f}{rel:>15}{r['warmup_s']:>11.2f}{r['loss']:>10.4f}")
ops = {}
for r in rows:
    if r["row"] == "conv2d":
        col = "torch" if r["side"] == "torch" else {"auto": "gtc", "gtc": "gtc plan", "cudnn": "gtc cuDNN"}[r.get("conv", "auto")]
        ops.setdefault((tuple(r["x"]), tuple(r["w"])), {})[col] = r["us_per_call"]
if ops:
    print("\neager conv2d (forward, bias, pad 1), us per call; gtc picks per shape between its plan and cuDNN (GTC_CONV)")
    cols = ["gtc", "gtc plan", "gtc cuDNN", "torch"]
    print(f"{'x':<20}{'w':<18}{'MMAC':>8}" + "".join(f"{c:>11}" for c in cols) + f"{'gtc/torch':>11}")
    for (x, w), v in ops.items():
        macs = x[0] * w[0] * x[2] * x[3] * w[1] * w[2] * w[3] / 1e6  # pad 1, stride 1: OH, OW = H, W
        cells = "".join(f"{v[c]:>11.1f}" if c in v else f"{'-':>11}" for c in cols)
        ratio = f"{v['gtc'] / v['torch']:.2f}" if "gtc" in v and "torch" in v else "-"
        print(f"{str(list(x)):<20}{str(list(w)):<18}{macs:>8.0f}{cells}{ratio:>11}")
PY
