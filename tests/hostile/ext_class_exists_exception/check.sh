# The graph exception would give class Exception, a class PHP already has (class names ignore case), which
# PHP refuses to declare when the module starts: gtc names the model's class GtcException instead and
# says so; the model loads next to the built-in class and runs.
set -u
[ -n "$GTC_EXT" ] || { echo "needs GTC_EXTENSION"; exit 77; }
out=$("$GTC" compile graph.json -o model.so --cpu-only 2>&1) || { echo "$out"; exit 1; }
[ "$out" = "$(printf 'graph.json: note: graph "exception": the class Exception would be the name of a PHP built-in class; the model'"'"'s class is GtcException\nmodel.so: class GtcException (CPU only)')" ] ||
    { echo "gtc compile: $out"; exit 1; }
out=$("$PHP" -n -d "extension=$GTC_EXT" -d extension=./model.so -r '
    $m = new GtcException();
    echo (new ReflectionClass("Exception"))->isInternal() ? "built-in kept" : "replaced", " ", count($m->inputs()) > 0 ? "ran" : "no inputs", "\n";' 2>&1)
[ "$out" = "built-in kept ran" ] || { echo "php: $out"; exit 1; }
