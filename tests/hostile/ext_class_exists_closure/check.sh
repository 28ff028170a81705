# The graph closure would give class Closure, a class PHP already has (class names ignore case), which
# PHP refuses to declare when the module starts: gtc names the model's class GtcClosure instead and
# says so; the model loads next to the built-in class and runs.
set -u
[ -n "$GTC_EXT" ] || { echo "needs GTC_EXTENSION"; exit 77; }
out=$("$GTC" compile graph.json -o model.so --cpu-only 2>&1) || { echo "$out"; exit 1; }
[ "$out" = "$(printf 'graph.json: note: graph "closure": the class Closure would be the name of a PHP built-in class; the model'"'"'s class is GtcClosure\nmodel.so: class GtcClosure (CPU only)')" ] ||
    { echo "gtc compile: $out"; exit 1; }
out=$("$PHP" -n -d "extension=$GTC_EXT" -d extension=./model.so -r '
    $m = new GtcClosure();
    echo (new ReflectionClass("Closure"))->isInternal() ? "built-in kept" : "replaced", " ", count($m->inputs()) > 0 ? "ran" : "no inputs", "\n";' 2>&1)
[ "$out" = "built-in kept ran" ] || { echo "php: $out"; exit 1; }
