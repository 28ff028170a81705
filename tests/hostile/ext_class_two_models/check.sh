# Two graphs whose names give the same class (my_model, myModel: MyModel): the second model
# refuses to start with a message; the first keeps its class.
set -u
[ -n "$GTC_EXT" ] || { echo "needs GTC_EXTENSION"; exit 77; }
"$GTC" compile one.json -o one.so --cpu-only >/dev/null && "$GTC" compile two.json -o two.so --cpu-only >/dev/null || exit 1
out=$("$PHP" -n -d "extension=$GTC_EXT" -d extension=./one.so -d extension=./two.so -r 'echo "ran\n";' 2>&1)
rc=$?
case $rc in [1-9] | [1-9][0-9] | 1[01][0-9] | 12[0-7] | 254 | 255) ;; *) echo "php exited with status $rc: $out"; exit 1 ;; esac
grep -q "gtc_myModel: a class named MyModel is already defined" <<<"$out" || { echo "no clear message: $out"; exit 1; }
out=$("$PHP" -n -d "extension=$GTC_EXT" -d extension=./one.so -r 'echo json_encode((new MyModel)->run(Cuda\CudaArray::ones([2]))["y"]->toArray()), "\n";' 2>&1)
[ "$out" = "[1,1]" ] || { echo "one.so alone: $out"; exit 1; }
