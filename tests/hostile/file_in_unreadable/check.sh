# an input file gtc may not read: "cannot open" with the reason, exit 1
set -u
[ "$(id -u)" != 0 ] || { echo "root reads any file"; exit 77; }
chmod 000 graph.json
out=$("$GTC" check graph.json 2>&1)
rc=$?
chmod 644 graph.json
[ "$rc" = 1 ] && [ "$out" = "graph.json: cannot open: Permission denied" ] || { echo "status $rc: $out"; exit 1; }
