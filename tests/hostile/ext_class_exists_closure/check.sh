# The graph closure gives class Closure, a class PHP already has (class names ignore case): the
# model refuses to start with a message naming the clash; nothing crashes.
set -u
[ -n "$GTC_EXT" ] || { echo "needs GTC_EXTENSION"; exit 77; }
out=$("$GTC" compile graph.json -o model.so --cpu-only 2>&1) || { echo "$out"; exit 1; }
[ "$out" = "model.so: class Closure (CPU only)" ] || { echo "gtc compile: $out"; exit 1; }
out=$("$PHP" -n -d "extension=$GTC_EXT" -d extension=./model.so -r 'echo "ran\n";' 2>&1)
rc=$?
case $rc in [1-9] | [1-9][0-9] | 1[01][0-9] | 12[0-7] | 254 | 255) ;; *) echo "php exited with status $rc: $out"; exit 1 ;; esac
grep -q "gtc_closure: a class named Closure is already defined" <<<"$out" || { echo "no clear message: $out"; exit 1; }
! grep -q ran <<<"$out" || { echo "PHP ran with the clash: $out"; exit 1; }
