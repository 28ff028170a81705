# Tensors of 2^40 bytes each (the most one may have) that live at once: the arena is their sum,
# 2^42 bytes. The plan says so; running the model throws Cuda\OutOfMemoryException with that
# size (the executor used to ask for one dimension of 2^42 and report a bad dimension).
set -u
"$GTC" plan graph.json | grep -q ', arena 4398046511104 bytes$' || { echo "plan: $("$GTC" plan graph.json 2>&1 | tail -n 2)"; exit 1; }
[ -n "$GTC_EXT" ] || exit 0 # the rest runs the model
"$GTC" compile graph.json -o model.so --cpu-only >/dev/null || exit 1
out=$("$PHP" -n -d "extension=$GTC_EXT" -d extension=./model.so -r '
try { (new HugeArena)->run(0.5); echo "ran\n"; } catch (Throwable $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }' 2>&1)
[ "$out" = "Cuda\OutOfMemoryException: plan huge_arena needs an arena of 4398046511104 bytes, more than one allocation may hold (2^40 bytes)" ] ||
    { echo "php: $out"; exit 1; }
