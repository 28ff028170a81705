#!/usr/bin/env bash
# bench/eager.sh: gtc eager ops from PHP against PyTorch eager from Python, on the same GPU, in
# one table. Run on the GPU machine from the repository root:
#
#   source .device/env.sh; bash bench/eager.sh build/gtc.so
#
# $1: the extension (default build/gtc.so). Extra options for both scripts (e.g. --reps=5
# --n-small=500 --big=1048576) go in BENCH_ARGS. The raw JSON lines are kept in $OUT when it is
# set (device tool), else in a temporary folder whose path is printed.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ext=${1:-build/gtc.so}
php_bin=${PHP:-php}
py_bin=${PYTHON:-python3}
dir=${OUT:-$(mktemp -d)}
args=${BENCH_ARGS:-}

echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
if command -v nvidia-smi >/dev/null 2>&1; then
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
else
  echo "gpu: (no nvidia-smi)"
fi
echo "php: $("$php_bin" -n -r 'echo PHP_VERSION;') ; torch: $("$py_bin" -c 'import torch; print(torch.__version__, "cuda", torch.version.cuda)' 2>/dev/null || echo none)"

# shellcheck disable=SC2086
if ! "$php_bin" -n -d extension="$ext" "$here/eager.php" $args >"$dir/eager_gtc.jsonl" 2>"$dir/eager_gtc.err"; then
  echo "eager.php failed:"; tail -5 "$dir/eager_gtc.err"
fi
# shellcheck disable=SC2086
if ! PYTHONUNBUFFERED=1 "$py_bin" "$here/eager_torch.py" $args >"$dir/eager_torch.jsonl" 2>"$dir/eager_torch.err"; then
  echo "eager_torch.py failed:"; tail -5 "$dir/eager_torch.err"
fi
[ -n "${OUT:-}" ] || echo "raw results: $dir"

"$py_bin" - "$dir/eager_gtc.jsonl" "$dir/eager_torch.jsonl" <<'EOF'
import json, sys

def load(p):
    rows = {}
    try:
        for line in open(p):
            line = line.strip()
            if line.startswith("{"):
                r = json.loads(line)
                rows[(r["kind"], r["op"], r["size"])] = r
    except OSError:
        pass
    return rows

g, t = load(sys.argv[1]), load(sys.argv[2])
dev = next((r["device"] for r in g.values()), "?")
print(f"gtc device: {dev}; torch device: {next((r['device'] for r in t.values()), '?')}")

def size_label(kind, size):
    if kind == "bandwidth":
        n = int(size)
        return f"{n // 2**20}Mi f32" if n % 2**20 == 0 else f"{n} f32"
    return size + " f32"

keys = list(g) + [k for k in t if k not in g]
hdr = ("op", "size", "gtc", "torch", "gtc/torch", "target")
lines = []
for k in keys:
    kind, op, size = k
    a, b = g.get(k), t.get(k)
    unit = (a or b)["unit"]
    fa = f"{a['value']:.2f} {unit}" if a else "-"
    fb = f"{b['value']:.2f} {unit}" if b else "-"
    ratio = f"{a['value'] / b['value']:.2f}" if a and b and b["value"] else "-"
    note = ""
    if a and b and kind == "latency" and op != "view":
        note = "ok" if a["value"] <= b["value"] else "SLOWER"   # target: no worse than torch
    lines.append((op, size_label(kind, size), fa, fb, ratio, note))
w = [max(len(str(x[i])) for x in lines + [hdr]) for i in range(len(hdr))]
fmt = lambda r: " | ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip()
print()
print(fmt(hdr))
print("-+-".join("-" * x for x in w))
for r in lines:
    print(fmt(r))
print("(latency: median us per call incl. PHP/Python call, loop of N then one sync; ratio > 1 = gtc slower."
      " bandwidth: (bytes read + written) / time; ratio < 1 = gtc slower)")

ref = next((r for (kind, op, _), r in t.items() if kind == "bandwidth" and op == "copy_into"), None)
if ref:
    parts = []
    for op in ("add", "multiply", "copy", "copy_transpose"):
        r = next((r for (kind, o, _), r in g.items() if kind == "bandwidth" and o == op), None)
        if r:
            pct = 100 * r["value"] / ref["value"]
            tag = "" if op.startswith("copy") else (" ok" if pct >= 80 else " BELOW 80%")
            parts.append(f"{op} {r['value']:.0f} GB/s = {pct:.0f}%{tag}")
    print(f"\ndevice copy bandwidth (torch y.copy_(x), {size_label('bandwidth', ref['size'])}, read+write):"
          f" {ref['value']:.0f} GB/s; gtc as % of it (target >= 80% for add/multiply): " + "; ".join(parts))
else:
    print("\ndevice copy bandwidth: no torch result")
EOF
