#!/usr/bin/env bash
# tests/e2e/getting_started.sh: runs docs/getting-started.md as written. Its ```php blocks are
# written to the files their first comment names ("// train.php: ..."), its ```sh blocks run in
# order in one bash (GTC_HOME is the checkout, as the page's first block sets it), in a scratch
# folder. Checks what the page promises: the model compiles, the loss falls, the parameters are
# saved with the AdamW state the step owns, and the reloaded model's test accuracy is above 90%.
#   bash tests/e2e/getting_started.sh            (after make; make data is one of the page's steps)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
page="$root/docs/getting-started.md"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the page's blocks: php files into $work/files/, sh blocks into one script
mkdir -p "$work/files"
awk -v files="$work/files" -v script="$work/steps.sh" '
    /^```php$/ { inphp = 1; buf = ""; name = ""; next }
    /^```sh$/  { insh = 1; next }
    /^```$/    { if (inphp && name != "") printf "%s", buf > (files "/" name); inphp = 0; insh = 0; next }
    inphp { buf = buf $0 "\n"; if (name == "" && match($0, /^\/\/ [A-Za-z0-9_.-]+\.php:/)) name = substr($0, 4, RLENGTH - 4) }
    insh  { print > script }
' "$page"
n=$(ls "$work/files" | wc -l)
if [ "$n" -ne 3 ] || [ ! -s "$work/steps.sh" ]; then
    echo "FAIL docs/getting-started.md: expected 3 named php blocks and sh blocks, found $n files"; exit 1
fi
# mymodel/ goes to the scratch folder (not into the checkout), and the page's files appear there
sed -i 's|^mkdir -p mymodel \&\& cd mymodel$|mkdir -p "'"$work"'/mymodel" \&\& cd "'"$work"'/mymodel" \&\& cp "'"$work"'"/files/*.php .|' "$work/steps.sh"
grep -q "files/\*.php" "$work/steps.sh" || { echo "FAIL: the page no longer creates mymodel/ as the test expects"; exit 1; }
log="$work/log"
(cd "$root" && PATH="$PATH" bash -e "$work/steps.sh") >"$log" 2>&1
rc=$?
fail=0
check() { if grep -qE "$2" "$log"; then echo "PASS $1"; else echo "FAIL $1"; fail=1; fi; }
[ $rc = 0 ] && echo "PASS the page's commands run (status 0)" || { echo "FAIL the page's commands (status $rc)"; fail=1; }
check "gtc compiles digits_step.php into class DigitsStep" '^digits_step.so: class DigitsStep'
check "training prints the loss each 100 epochs" '^epoch 300: loss 0\.0[0-9]+$'
check "the parameters are saved" '^saved w1 b1 w2 b2$'
check "the step keeps AdamW's state and saves it in the checkpoint" '^checkpoint.npz: AdamW after 600 steps$'
acc=$(sed -nE 's/^test accuracy: ([0-9.]+)%$/\1/p' "$log")
if [ -n "$acc" ] && awk -v a="$acc" 'BEGIN { exit !(a > 90) }'; then
    echo "PASS the reloaded model's test accuracy: $acc%"
else
    echo "FAIL the reloaded model's test accuracy: '${acc:-none}'"; fail=1
fi
[ $fail = 0 ] || { echo "--- log"; cat "$log"; }
echo "getting-started: $([ $fail = 0 ] && echo passed || echo FAILED)"
exit $fail
