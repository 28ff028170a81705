#!/usr/bin/env bash
# bench/compile.sh: time per training step of the two example graphs (examples/train_step.json,
# 480-256-2 at batch 512; examples/digits_step.json, 64-64-10 at batch 256) in every way we have:
# gtc eager (CudaArray ops from PHP), the gtc-compiled model (one CUDA Graph replay per run() from
# PHP), the JIT (Cuda\Fusion::compile of the same step as a PHP closure: compile.php --mode=jit, run
# in two processes over one fresh GTC_CACHE_DIR, so the first compiles cold (trace + plan + NVRTC)
# and the second finds the kernels in the disk cache; each also times in-process memory-cache hits
# and its replays next to the AOT model's, interleaved in the same process), and PyTorch eager, torch.compile, torch.compile(mode="reduce-overhead") and a hand-captured
# CUDA Graph of the same step (bench/compile_torch.py). One table per graph. Run on the GPU
# machine from the repository root, with the models built here:
#
#   build/gtc compile examples/train_step.json -o build/bench/train_step.so
#   build/gtc compile examples/digits_step.json -o build/bench/digits_step.so
#   source .device/env.sh; bash bench/compile.sh build/gtc.so build/bench
#
# $1: gtc.so (default build/gtc.so); $2: the folder with train_step.so and digits_step.so
# (default build/bench). Environment: BENCH_TORCH=0 skips PyTorch; TORCH_JSONL=FILE takes the
# PyTorch lines from an earlier run instead; TORCH_ARGS / PHP_ARGS pass options to
# compile_torch.py / compile.php. Raw JSON lines go to $OUT (device tool) or a temporary folder.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
ext=${1:-build/gtc.so}
models=${2:-build/bench}
php_bin=${PHP:-php}
py_bin=${PYTHON:-python3}
dir=${OUT:-$(mktemp -d)}
graphs="train_step digits_step"

echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
if command -v nvidia-smi >/dev/null 2>&1; then
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | head -1)"
fi
echo "php: $("$php_bin" -n -r 'echo PHP_VERSION;') ; torch: $("$py_bin" -c 'import torch; print(torch.__version__, "cuda", torch.version.cuda)' 2>/dev/null || echo none)"

: >"$dir/compile_gtc.jsonl"
for g in $graphs; do
  # shellcheck disable=SC2086
  "$php_bin" -n -d extension="$ext" "$here/compile.php" --graph="$root/examples/$g.json" --mode=eager ${PHP_ARGS:-} \
    >>"$dir/compile_gtc.jsonl" 2>>"$dir/compile_gtc.err" || echo "compile.php eager $g failed: $(tail -3 "$dir/compile_gtc.err")"
  if [ -f "$models/$g.so" ]; then
    # shellcheck disable=SC2086
    "$php_bin" -n -d extension="$ext" -d extension="$models/$g.so" "$here/compile.php" --graph="$root/examples/$g.json" \
      --mode=compiled ${PHP_ARGS:-} >>"$dir/compile_gtc.jsonl" 2>>"$dir/compile_gtc.err" \
      || echo "compile.php compiled $g failed: $(tail -3 "$dir/compile_gtc.err")"
  else
    echo "no $models/$g.so: build it with build/gtc compile examples/$g.json -o $models/$g.so"
  fi
  jit_cache=$(mktemp -d)   # empty: the first process compiles cold, the second hits the disk cache
  aot=()
  [ -f "$models/$g.so" ] && aot=(-d extension="$models/$g.so")
  for phase in cold warm; do
    # shellcheck disable=SC2086
    GTC_CACHE_DIR="$jit_cache" "$php_bin" -n -d extension="$ext" ${aot[@]+"${aot[@]}"} "$here/compile.php" \
      --graph="$root/examples/$g.json" --mode=jit ${PHP_ARGS:-} >>"$dir/compile_gtc.jsonl" 2>>"$dir/compile_gtc.err" \
      || echo "compile.php jit ($phase) $g failed: $(tail -3 "$dir/compile_gtc.err")"
  done
  rm -rf "$jit_cache"
done

torch_jsonl=${TORCH_JSONL:-$dir/compile_torch.jsonl}
if [ -z "${TORCH_JSONL:-}" ] && [ "${BENCH_TORCH:-1}" != 0 ]; then
  # shellcheck disable=SC2086
  PYTHONUNBUFFERED=1 "$py_bin" "$here/compile_torch.py" \
    --graphs="$root/examples/train_step.json,$root/examples/digits_step.json" ${TORCH_ARGS:-} \
    >"$torch_jsonl" 2>"$dir/compile_torch.err" || echo "compile_torch.py failed: $(tail -5 "$dir/compile_torch.err")"
fi
[ -n "${OUT:-}" ] || echo "raw results: $dir"

"$py_bin" - "$dir/compile_gtc.jsonl" "$torch_jsonl" <<'EOF'
import json, sys

rows = []
for p in sys.argv[1:]:
    try:
        rows += [json.loads(l) for l in open(p) if l.strip().startswith("{")]
    except OSError:
        pass
# the JIT's two processes over one cache dir: the first (empty dir) is cold, the second warm
jits = {}
for r in rows:
    if r.get("impl") == "gtc" and r.get("mode") == "jit":
        jits.setdefault(r["graph"], []).append(r)
for g, rs in jits.items():
    for r in rs:
        r["mode"] = "jit-cold" if r.get("cache_dir_entries_before") == 0 else "jit-warm"
rows = [r for r in rows if r.get("mode") != "jit-cold"] + [r for rs in jits.values() for r in rs if r["mode"] == "jit-cold"]

order = [("gtc", "eager", "gtc eager (PHP, CudaArray ops)"),
         ("gtc", "compiled", "gtc compiled .so (PHP, one CUDA Graph)"),
         ("gtc", "jit-warm", "gtc JIT Fusion::compile (PHP closure)"),
         ("torch", "eager", "torch eager"),
         ("torch", "compile", "torch.compile"),
         ("torch", "reduce-overhead", 'torch.compile(mode="reduce-overhead")'),
         ("torch", "cuda-graph", "torch, hand-captured CUDA Graph")]
titles = {"train_step": "train_step.json (480-256-2 MLP, batch 512)",
          "digits_step": "digits_step.json (64-64-10 MLP, batch 256)"}
for g in ("train_step", "digits_step"):
    by = {(r["impl"], r["mode"]): r for r in rows if r.get("graph") == g}
    if not by:
        continue
    ro = by.get(("torch", "reduce-overhead"), {}).get("us_per_step")
    print(f"\n{titles[g]}")
    hdr = ("mode", "us/step (median)", "vs reduce-overhead")
    lines = []
    for impl, mode, label in order:
        r = by.get((impl, mode))
        if not r:
            continue
        if "us_per_step" not in r:
            lines.append((label, r.get("error") or r.get("skipped") or "-", ""))
            continue
        t = r["us_per_step"]
        vs = f"{t / ro:.2f}x time ({ro / t:.1f}x faster)" if ro and t < ro else (f"{t / ro:.2f}x time" if ro else "-")
        lines.append((label, f"{t:.1f}", vs))
    w = [max(len(str(x[i])) for x in lines + [hdr]) for i in range(3)]
    fmt = lambda r: " | ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip()
    print(fmt(hdr))
    print("-+-".join("-" * x for x in w))
    for l in lines:
        print(fmt(l))
    c = by.get(("gtc", "compiled"))
    notes = []
    if c:
        notes.append(f"compiled: getStats()['graphNodes'] = {c.get('graphNodes')}, backend {c.get('backend')}, "
                     f"kernels {c.get('kernels')}, {c.get('replays')} replays")
    for mode in ("compile", "reduce-overhead", "cuda-graph"):
        r = by.get(("torch", mode), {})
        if "setup_s" in r:
            extra = f", max |w1 - eager| / max |w1| after one step {r['w1_rel_diff_vs_eager']:.1e}" if "w1_rel_diff_vs_eager" in r else ""
            skips = f", cudagraph skips {r['cudagraph_skips']}" if "cudagraph_skips" in r else ""
            notes.append(f"torch {mode}: compile/capture + warm-up {r['setup_s']} s{skips}{extra}")
    for n in notes:
        print("  " + n)
    js = [r for r in jits.get(g, []) if "us_per_step" in r]
    if js:
        print(f"\n{g}: JIT (Cuda\\Fusion::compile of the step as a PHP closure), one process each")
        hdr = ("process", "compile ms", "kernels", "memory hit ms", "1st run() ms", "JIT us/step",
               "AOT us/step", "JIT/AOT")
        lines = []
        for r in sorted(js, key=lambda r: r["mode"]):
            aot = r.get("aot_us_per_step")
            lines.append(("cold: empty GTC_CACHE_DIR" if r["mode"] == "jit-cold" else "warm: 2nd process, same dir",
                          f"{r['compile_ms']:.1f}" if r["compile_ms"] >= 10 else f"{r['compile_ms']:.2f}",
                          r.get("kernels"), f"{r['memory_hit_ms']:.3f}", f"{r['first_run_ms']:.2f}",
                          f"{r['us_per_step']:.1f}", f"{aot:.1f}" if aot else "-",
                          f"{r['us_per_step'] / aot:.3f}x" if aot else "-"))
        w = [max(len(str(x[i])) for x in lines + [hdr]) for i in range(len(hdr))]
        fmt = lambda r: " | ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip()
        print(fmt(hdr))
        print("-+-".join("-" * x for x in w))
        for l in lines:
            print(fmt(l))
        for r in js:
            same = r.get("aot_loss_last") is not None and r["aot_loss_last"] == r["loss_last"] and r["aot_loss_first"] == r["loss_first"]
            print(f"  {r['mode']}: plan steps {r.get('plan_steps')}, graphNodes {r.get('graphNodes')}, backend {r.get('backend')}, "
                  f"memory hit gives cache={r.get('memory_hit_cache')}; JIT {r['min']:.1f}-{r['max']:.1f}, "
                  + (f"AOT {r['aot_min']:.1f}-{r['aot_max']:.1f} us/step over {r['reps']} repeats; "
                     f"losses equal to the AOT's (first, last): {same}" if r.get("aot_us_per_step") else "no AOT model loaded"))
        c = by.get(("gtc", "compiled"))
        if c and "us_per_step" in c:
            print(f"  vs the AOT row above (its own process): JIT/AOT "
                  + ", ".join(f"{r['mode']} {r['us_per_step'] / c['us_per_step']:.3f}x" for r in sorted(js, key=lambda r: r["mode"])))
print("\n(median over repeats of (N steps + one sync) / N, host wall clock; gtc from PHP, torch from Python;"
      " 'vs reduce-overhead': time relative to torch.compile(mode=\"reduce-overhead\"); the JIT row in the"
      " main table is the warm process's; JIT compile ms: the first Fusion::compile in the process (inputs and"
      " the device context already made), memory hit: median of 5 further compiles of the same closure"
      " (trace + in-process plan cache); 1st run(): first replay + item(), graph instantiation included;"
      " AOT us/step: the .so timed in the JIT's process, repeats interleaved)")
EOF
