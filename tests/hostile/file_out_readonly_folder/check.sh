# -o in a folder nobody may write to (a chmod 555 folder; /proc when running as root, who may
# write anywhere else): the link step fails with the linker's reason, exit 1, nothing is left.
set -u
if [ "$(id -u)" = 0 ]; then dir=/proc; else mkdir ro && chmod 555 ro && dir=ro; fi
out=$("$GTC" compile graph.json -o "$dir/m.so" --cpu-only 2>&1)
rc=$?
left=$(ls -A "$dir" | grep '^m\.so')
chmod 755 ro 2>/dev/null
[ "$rc" = 1 ] || { echo "exit status $rc: $out"; exit 1; }
grep -q "^gtc compile: linking failed" <<<"$out" || { echo "no clear message: $out"; exit 1; }
[ -z "$left" ] || { echo "left in $dir: $left"; exit 1; }
