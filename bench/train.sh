#!/usr/bin/env bash
# bench/train.sh: the end-to-end training benchmark. In one run, on one GPU, trains the same MLP on
# the same data with gtc eager (examples/train_mlp.php --mode=eager), the gtc-compiled step
# (--mode=aot, build/models/*.so), the same step compiled in-process by Cuda\Fusion::compile
# (--mode=jit; its compile time is the row's warm-up) and PyTorch (bench/train_torch.py: eager, autograd,
# torch.compile, torch.compile(mode="reduce-overhead"), a hand-captured CUDA Graph), and prints one
# table per data set: time per step (median over reporting intervals), samples/s, the training
# loop's total time, the warm-up left out of it, test accuracy, the final loss and each row's
# step time relative to PyTorch reduce-overhead. Every run starts from the same initial
# parameters (train_mlp.php --save-init). Run on the GPU machine from the repository root:
#
#   source .device/env.sh; bash bench/train.sh
#
# Needs build/gtc.so, build/models/digits.so and build/models/mlp.so (`make all models` here;
# bench/README.md says what to carry) and examples/data/ (made here with `make data` when missing:
# on the CPU backend, from examples/data/digits.csv.gz, checked against tests/e2e/data.sha256).
# Environment: GTC_EXT (build/gtc.so), MODELS (build/models), PHP, PYTHON, DATASETS
# (digits,pcam-synthetic), EPOCHS_DIGITS / EPOCHS_PCAM (1000 / 20), VARIANTS (the torch variants),
# DEVICE (cuda; cpu to try the script without a GPU: torch then skips the CUDA Graph rows),
# GTC_REV (what to print as the gtc version; default: the git commit),
# TORCH_TIMEOUT (seconds for the PyTorch part, 300), GTC_CACHE_DIR (the JIT's kernel cache; default a
# fresh temporary folder, so the jit row's compile time is a cold one). Raw results (metrics.json per gtc run,
# torch.jsonl, logs) go to $OUT when set (device tool), else to a temporary folder.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2
ext=${GTC_EXT:-build/gtc.so}
models=${MODELS:-build/models}
php_bin=${PHP:-php}
py_bin=${PYTHON:-python3}
dir=${OUT:-$(mktemp -d)}
datasets=${DATASETS:-digits,pcam-synthetic}
device=${DEVICE:-cuda}
ep_digits=${EPOCHS_DIGITS:-1000}
ep_pcam=${EPOCHS_PCAM:-20}
# Run order: the reference (reduce-overhead) and the CUDA Graph first, so that a timeout loses the least.
variants=${VARIANTS:-reduce-overhead,cuda-graph,eager,compile,autograd}
data=examples/data

echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
if command -v nvidia-smi >/dev/null 2>&1; then
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | head -1)"
else
    echo "gpu: (no nvidia-smi)"
fi
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "php: $("$php_bin" -n -r 'echo PHP_VERSION;'); torch: $("$py_bin" -c 'import torch; print(torch.__version__, "cuda", torch.version.cuda)' 2>/dev/null || echo none)"
echo "gtc: ${GTC_REV:-$(git log -1 --format='%h %cs' 2>/dev/null || echo '?')$(git diff --quiet HEAD -- . 2>/dev/null || echo ' + uncommitted changes')}; $ext, $models"

# ---- data -----------------------------------------------------------------------------------------
need=0 # the files of the data sets asked for (DATASETS)
for ds in ${datasets//,/ }; do
    case $ds in pcam-synthetic) p=pcam ;; *) p=$ds ;; esac
    for s in "${p}_train" "${p}_test"; do
        for f in x y labels; do [ -f "$data/${s}_$f.npy" ] || need=1; done
    done
done
if [ $need = 1 ]; then
    t0=$(date +%s.%N)
    if GTC_DEVICE=cpu GTC_EXT="$ext" PHP="$php_bin" bash scripts/make-data.sh >"$dir/make-data.log" 2>&1; then
        if (cd "$data" && sha256sum --quiet -c "$root/tests/e2e/data.sha256") >"$dir/checksums.log" 2>&1; then
            sums="match tests/e2e/data.sha256"
        else
            sums="DIFFER from tests/e2e/data.sha256"
        fi
        echo "data: made with scripts/make-data.sh in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s; checksums $sums"
    else
        echo "data: make-data.sh failed:"; tail -5 "$dir/make-data.log"; exit 1
    fi
else
    echo "data: $data (present)"
fi

# ---- gtc: eager, compiled ahead of time, and JIT ----------------------------------------------------
if [ -n "${GTC_CACHE_DIR:-}" ]; then
    jit_cache=$GTC_CACHE_DIR
else
    jit_cache=$(mktemp -d)
    trap 'rm -rf "$jit_cache"' EXIT
fi
declare -A so=([digits]=digits.so [pcam-synthetic]=mlp.so)
declare -A epochs=([digits]=$ep_digits [pcam-synthetic]=$ep_pcam)
IFS=, read -r -a dlist <<<"$datasets"
for d in "${dlist[@]}"; do
    common=(--dataset="$d" --epochs="${epochs[$d]}" --device="$device")
    "$php_bin" -n -d extension="$ext" examples/train_mlp.php --mode=eager "${common[@]}" \
        --save-init="$dir/init/$d" --save="$dir/$d-gtc-eager" >"$dir/$d-gtc-eager.log" 2>&1 ||
        { echo "gtc eager ($d) failed:"; tail -5 "$dir/$d-gtc-eager.log"; }
    if [ -f "$models/${so[$d]}" ]; then
        "$php_bin" -n -d extension="$ext" -d extension="$models/${so[$d]}" examples/train_mlp.php --mode=aot \
            "${common[@]}" --save="$dir/$d-gtc-aot" >"$dir/$d-gtc-aot.log" 2>&1 ||
            { echo "gtc aot ($d) failed:"; tail -5 "$dir/$d-gtc-aot.log"; }
    else
        echo "gtc aot ($d): $models/${so[$d]} not found (make models)"
    fi
    GTC_CACHE_DIR="$jit_cache" "$php_bin" -n -d extension="$ext" examples/train_mlp.php --mode=jit "${common[@]}" \
        --save="$dir/$d-gtc-jit" >"$dir/$d-gtc-jit.log" 2>&1 ||
        { echo "gtc jit ($d) failed:"; tail -5 "$dir/$d-gtc-jit.log"; }
    grep -h '^  Cuda.Fusion::compile' "$dir/$d-gtc-jit.log" | sed "s/^ */gtc jit ($d): /"
done

# ---- PyTorch ------------------------------------------------------------------------------------
PYTHONUNBUFFERED=1 timeout "${TORCH_TIMEOUT:-300}" "$py_bin" bench/train_torch.py --data-dir="$data" \
    --datasets="$datasets" --variants="$variants" --init-dir="$dir/init" --device="$device" \
    --epochs-digits="$ep_digits" --epochs-pcam="$ep_pcam" >"$dir/torch.jsonl" 2>"$dir/torch.err"
rc=$?
[ $rc = 0 ] || { echo "train_torch.py exited with status $rc$([ $rc = 124 ] && echo ' (timeout)'):"; tail -5 "$dir/torch.err"; }
if grep -qi "skipping cudagraphs" "$dir/torch.err" 2>/dev/null; then
    echo "torch warned (reduce-overhead ran without CUDA Graphs for these):"
    grep -i "skipping cudagraphs" "$dir/torch.err" | sort | uniq -c | head -5
fi
[ -n "${OUT:-}" ] || echo "raw results: $dir"

# ---- the tables ---------------------------------------------------------------------------------
"$py_bin" - "$dir" "$datasets" <<'EOF'
import json, os, sys

out, datasets = sys.argv[1], sys.argv[2].split(",")
torch_rows = []
try:
    for line in open(os.path.join(out, "torch.jsonl")):
        if line.startswith("{"):
            torch_rows.append(json.loads(line))
except OSError:
    pass

def gtc_row(d, mode):
    try:
        m = json.load(open(os.path.join(out, f"{d}-gtc-{mode}", "metrics.json")))
    except (OSError, ValueError):
        return None
    loss = {int(k): v for k, v in m["loss"].items()}
    suffix = {"aot": " (compiled step)", "jit": " (Fusion::compile)"}.get(mode, "")
    warmup = (m.get("model") or {}).get("compile_seconds") if mode == "jit" else None
    return {"name": f"gtc {mode}{suffix}", "step_s": m["seconds_per_step"],
            "samples_s": m["samples_per_second"], "train_s": m["train_seconds"], "warmup_s": warmup,
            "test_accuracy": m["test_accuracy"], "loss": loss, "device": m["device"], "steps": m["steps"],
            "batch": m["batch_size"], "epochs": m["epochs"], "metrics": m, "dir": os.path.join(out, f"{d}-gtc-{mode}")}

names = {"eager": "torch eager (same step)", "autograd": "torch eager (autograd)", "compile": "torch.compile",
         "reduce-overhead": "torch.compile reduce-overhead", "cuda-graph": "torch CUDA Graph (by hand)"}

def fmt_t(s):
    if s is None: return "-"
    if s < 1e-3: return f"{s * 1e6:.1f} us"
    if s < 1: return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"

for d in datasets:
    rows = [r for r in (gtc_row(d, "eager"), gtc_row(d, "aot"), gtc_row(d, "jit")) if r]
    errors = []
    order = list(names)
    for t in sorted(torch_rows, key=lambda t: order.index(t["variant"]) if t["variant"] in order else 99):
        if t["dataset"] != d: continue
        if "error" in t:
            errors.append(f"{names.get(t['variant'], t['variant'])}: {t['error']}")
            continue
        rows.append({"name": names.get(t["variant"], t["variant"]), "step_s": t["step_s"], "samples_s": t["samples_s"],
                     "train_s": t["train_s"], "warmup_s": t["warmup_s"], "test_accuracy": t["test_accuracy"],
                     "loss": {int(k): v for k, v in t["loss"].items()}, "note": t.get("note", ""),
                     "steps": t["steps"], "batch": t["batch"], "epochs": t["epochs"], "device": t["device"]})
    if not rows:
        print(f"\n{d}: no results"); continue
    ref = next((r for r in rows if r["name"] == names["reduce-overhead"]), None)
    r0 = rows[0]
    print(f"\n{d}: batch {r0['batch']}, {r0['epochs']} epochs = {r0['steps']} steps; gtc on {r0.get('device', '?')}")
    hdr = ("implementation", "step (median)", "samples/s", "total", "warm-up", "test acc", "final loss", "step vs r-o")
    lines = []
    for r in rows:
        last = r["loss"][max(r["loss"])] if r["loss"] else float("nan")
        ratio = f"{r['step_s'] / ref['step_s']:.2f}x" if ref else "-"
        lines.append((r["name"], fmt_t(r["step_s"]), f"{r['samples_s']:,.0f}", fmt_t(r["train_s"]),
                      fmt_t(r["warmup_s"]), f"{100 * r['test_accuracy']:.2f}%", f"{last:.6f}", ratio))
    w = [max(len(str(x[i])) for x in lines + [hdr]) for i in range(len(hdr))]
    fmt = lambda r: " | ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip()
    print(fmt(hdr)); print("-+-".join("-" * x for x in w))
    for l in lines: print(fmt(l))
    for r in rows:
        if r.get("note"): print(f"  {r['name']}: {r['note']}")
    for e in errors: print(f"  FAILED {e}")
    gj = gtc_row(d, "jit")
    if gj and gj["metrics"].get("model"):
        st = gj["metrics"]["model"]
        print(f"  gtc jit: Cuda\\Fusion::compile {fmt_t(st.get('compile_seconds'))} (kernels: {st.get('kernels')}), "
              f"{st.get('steps')} plan steps, {st.get('replays')} runs, backend {st.get('backend')}")
    # gtc eager against gtc compiled (aot, jit): the same run, so the same numbers.
    def preds(p):
        s = open(os.path.join(p, "test_predictions.npy"), "rb").read()
        h = int.from_bytes(s[8:10], "little") + 10
        return s[h:]
    ge = gtc_row(d, "eager")
    for mode, label in (("aot", "compiled"), ("jit", "jit")):
        ga = gtc_row(d, mode)
        if not (ge and ga and ge["loss"].keys() == ga["loss"].keys()): continue
        worst = max(abs(ge["loss"][e] - ga["loss"][e]) / max(abs(ge["loss"][e]), 1e-12) for e in ge["loss"])
        worst_abs = max(abs(ge["loss"][e] - ga["loss"][e]) for e in ge["loss"])
        pe, pa = preds(ge["dir"]), preds(ga["dir"])
        diff = sum(pe[i:i + 8] != pa[i:i + 8] for i in range(0, len(pe), 8))
        same_cm = ge["metrics"]["confusion"] == ga["metrics"]["confusion"]
        print(f"  gtc eager vs {label}: largest loss difference {worst_abs:.2g} (relative {worst:.2g}) over {len(ge['loss'])} reports; "
              f"{diff} of {len(pe) // 8} test predictions differ; confusion matrices {'identical' if same_cm else 'differ'}")
print("\n(step: median over ~20 reporting intervals of wall time / steps, a loss read-back ending each interval;"
      " total: the training loop incl. read-backs; warm-up: torch's compile/capture + one epoch, left out of total;"
      " gtc aot's model is compiled ahead of time by `gtc compile`; gtc jit's warm-up: Cuda\\Fusion::compile (trace, plan, NVRTC/cc), not in total; step vs r-o: step time / torch reduce-overhead's, < 1 = faster)")
EOF
