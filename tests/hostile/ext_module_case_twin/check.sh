# Graphs Foo and foo give modules gtc_Foo and gtc_foo, one name to PHP (module names ignore
# case): PHP loads the first and warns about the second; no crash.
set -u
[ -n "$GTC_EXT" ] || { echo "needs GTC_EXTENSION"; exit 77; }
"$GTC" compile upper.json -o upper.so --cpu-only >/dev/null && "$GTC" compile lower.json -o lower.so --cpu-only >/dev/null || exit 1
out=$("$PHP" -n -d "extension=$GTC_EXT" -d extension=./upper.so -d extension=./lower.so -r 'echo json_encode((new Foo)->run(Cuda\CudaArray::ones([2]))["y"]->toArray()), "\n";' 2>&1)
rc=$?
[ "$rc" = 0 ] || { echo "php exited with status $rc: $out"; exit 1; }
grep -q 'Module "gtc_foo" is already loaded' <<<"$out" && grep -qx '\[1,1\]' <<<"$out" || { echo "php: $out"; exit 1; }
