--TEST--
astype's casting rules equal NumPy's np.can_cast for every pair of the 12 dtypes NumPy has (all but bfloat16) under 'no', 'equiv', 'safe', 'same_kind' and 'unsafe' (NumPy asked live, not a copied table)
--SKIPIF--
<?php
exec('/usr/bin/python3 -c "import numpy" 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip NumPy is not available to /usr/bin/python3');
?>
--FILE--
<?php
use Cuda\CudaArray;
$ts = ['bool', 'uint8', 'uint16', 'uint32', 'uint64', 'int8', 'int16', 'int32', 'int64', 'float16', 'float32', 'float64'];
$modes = ['no', 'equiv', 'safe', 'same_kind', 'unsafe'];
$py = 'import numpy as np, sys, json
ts, modes = json.loads(sys.argv[1]), json.loads(sys.argv[2])
for c in modes: print(c, "".join("y" if np.can_cast(f, t, c) else "." for f in ts for t in ts))';
exec('/usr/bin/python3 -c ' . escapeshellarg($py) . ' ' . escapeshellarg(json_encode($ts)) . ' ' . escapeshellarg(json_encode($modes)), $numpy, $rc);
$ok = $rc === 0 && count($numpy) === count($modes);
foreach ($modes as $k => $c) {
    $ours = '';
    foreach ($ts as $f) foreach ($ts as $t) {
        try { (new CudaArray([1], $f))->astype($t, $c); $ours .= 'y'; }
        catch (Cuda\InvalidArgumentException $e) { $ours .= '.'; }
    }
    $same = ($numpy[$k] ?? '') === "$c $ours";
    $ok = $ok && $same;
    printf("%-9s %s\n", $c, $same ? 'same as NumPy' : "DIFFERENT\n  ours:  $c $ours\n  numpy: " . ($numpy[$k] ?? '?'));
}
var_dump($ok);
?>
--EXPECT--
no        same as NumPy
equiv     same as NumPy
safe      same as NumPy
same_kind same as NumPy
unsafe    same as NumPy
bool(true)
