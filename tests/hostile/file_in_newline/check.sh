# An input file name with newlines and C code in it: its base name reaches the header comment of
# every generated file and plan.c's source string, escaped; the sources compile with -Werror.
set -u
name=$'g\n#include <stdio.h>\nint PWNED_marker;\n.json'
cp graph.json "$name"
out=$("$GTC" compile "$name" -o model.so --cpu-only --emit-dir src 2>&1) || { echo "gtc compile failed: $out"; exit 1; }
printf 'PWNED\nstdio\n' > words
python3 "$HOSTILE/code_only.py" src words || exit 1
grep -q 'from g\\n#include <stdio.h>\\nint PWNED_marker;\\n.json; do not edit' src/plan.c ||
    { echo "plan.c's header does not show the escaped name"; head -n 1 src/plan.c; exit 1; }
[ -n "$GTC_EXT" ] || exit 0 # the rest loads the model
out=$("$PHP" -n -d "extension=$GTC_EXT" -d extension=./model.so "$HOSTILE/accept.php" G 2>&1)
[ "$out" = $'class G\ninput x float32 [2,3]\noutput y float32 [2,3] [[1,1,1],[1,1,1]]' ] || { echo "the model: $out"; exit 1; }
