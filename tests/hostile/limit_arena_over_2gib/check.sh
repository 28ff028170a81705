# An arena of 4 GiB (one 32768 x 32768 float32 operand): the executor allocated it as a tensor
# of one dimension, over the 2^31 limit, and every run failed with "dimension 4294967296 is out
# of range". Under gtc.memory_limit=1G it is now the limit's clear out-of-memory error.
set -u
[ -n "$GTC_EXT" ] || { echo "needs GTC_EXTENSION"; exit 77; }
"$GTC" compile graph.json -o model.so --cpu-only >/dev/null || exit 1
out=$("$PHP" -n -d "extension=$GTC_EXT" -d extension=./model.so -d gtc.memory_limit=1G -r '
try { (new BigArena)->run(Cuda\CudaArray::zeros([32768, 1])); echo "ran\n"; } catch (Throwable $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }' 2>&1)
[ "$out" = "Cuda\OutOfMemoryException: out of memory: 4294967296 bytes requested, 131072 of the 1073741824-byte limit in use (gtc.memory_limit)" ] ||
    { echo "php: $out"; exit 1; }
