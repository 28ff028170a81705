# gtc compile links OUT.so.tmpPID next to the target and renames it: a link planted under that
# name (the PID is the one bash gives the exec'd gtc) is replaced, its target stays as it was.
set -u
mkdir out outside && echo victim > outside/victim
out=$( ( ln -s ../outside/victim "out/m.so.tmp$BASHPID"; exec "$GTC" compile graph.json -o out/m.so --cpu-only ) 2>&1) ||
    { echo "gtc compile failed: $out"; exit 1; }
[ "$(cat outside/victim)" = victim ] || { echo "the link's target was written"; exit 1; }
[ "$(ls -A out)" = m.so ] && [ -f out/m.so ] && [ ! -L out/m.so ] || { echo "out/ holds: $(ls -lA out)"; exit 1; }
