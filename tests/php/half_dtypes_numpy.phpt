--TEST--
bfloat16 and float16 eager ops on the CPU against float64 NumPy references rounded once (bfloat16 by bit manipulation): arithmetic, sqrt, comparisons, a weak constant, casts and reductions exact; exp, tanh, sigmoid and matmul within one unit in the last place; bfloat16 + float16 gives float32
--SKIPIF--
<?php
exec('/usr/bin/python3 -c "import numpy" 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip NumPy is not available to /usr/bin/python3');
?>
--FILE--
<?php
use Cuda\CudaArray;
mt_srand(20);
$r = fn($lo, $hi) => $lo + ($hi - $lo) * mt_rand() / mt_getrandmax();
$x = $y = $f32 = [];
for ($i = 0; $i < 48; $i++) {
    $x[] = $r(-4, 4);
    $y[] = ($i % 2 ? -1 : 1) * $r(0.5, 3);
    $f32[] = $r(-1, 1) * 2 ** mt_rand(-20, 20);
}
$w = [];
for ($i = 0; $i < 40; $i++) $w[] = $r(-2, 2);
$c = 1.1;
$job = ['x' => $x, 'y' => $y, 'w' => $w, 'shape' => [6, 8], 'wshape' => [8, 5], 'c' => $c, 'f32' => $f32];
$p = proc_open(['/usr/bin/python3', __DIR__ . '/half_dtypes_numpy.py'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
fwrite($pipes[0], json_encode($job));
fclose($pipes[0]);
$ref = json_decode(stream_get_contents($pipes[1]), true);
fclose($pipes[1]);
proc_close($p);

$flat = function ($a) use (&$flat) {
    if (!is_array($a)) return [$a];
    $o = [];
    foreach ($a as $v) foreach ($flat($v) as $u) $o[] = $u;
    return $o;
};
$rows = fn($v) => array_chunk($v, 8);
$ulp = ['bfloat16' => 2 ** -7, 'float16' => 2 ** -10];
$ok = true;
foreach (['bfloat16', 'float16'] as $dt) {
    $X = new CudaArray($rows($x), $dt);
    $Y = new CudaArray($rows($y), $dt);
    $W = new CudaArray(array_chunk($w, 5), $dt);
    $got = [
        'x' => $X, 'add' => $X + $Y, 'sub' => $X - $Y, 'mul' => $X * $Y, 'div' => $X / $Y,
        'sqrt' => $X->abs()->sqrt(), 'maximum' => $X->maximum($Y), 'exp' => $X->exp(),
        'tanh' => $X->tanh(), 'sigmoid' => $X->sigmoid(), 'sum1' => $X->sum(1), 'mean0' => $X->mean(0),
        'max1' => $X->max(1), 'argmin1' => $X->argmin(1), 'prod' => $X->slice([0, 6], [0, 4])->prod(1),
        'matmul' => $X->matmul($W), 'lt' => $X->lt($Y), 'scal' => $X * $c,
        'from_f32' => (new CudaArray($f32, 'float32'))->astype($dt),
    ];
    foreach ($got as $k => $t) {
        $keep = !in_array($k, ['argmin1', 'lt']);
        if ($keep && $t->dtype() !== $dt) { echo "$dt $k: dtype ", $t->dtype(), "\n"; $ok = false; }
        $g = $flat($t->toArray());
        $want = $ref[$dt][$k];
        $tol = in_array($k, ['exp', 'tanh', 'sigmoid', 'matmul']) ? $ulp[$dt] : 0;
        $bad = 0;
        foreach ($want as $i => $v) {
            $gv = is_bool($g[$i]) ? (float)$g[$i] : (float)$g[$i];
            $v = $v === 'inf' ? INF : ($v === '-inf' ? -INF : $v);
            $same = $tol ? abs($gv - $v) <= $tol * max(abs($v), 2 ** -14) : $gv === (float)$v;
            if (!$same && $bad++ === 0) printf("%s %s[%d]: got %.17g, want %.17g\n", $dt, $k, $i, $gv, $v);
        }
        if (count($g) !== count($want)) { echo "$dt $k: ", count($g), " values, want ", count($want), "\n"; $bad++; }
        $ok = $ok && !$bad;
    }
}
$m = (new CudaArray($rows($x), 'bfloat16')) + (new CudaArray($rows($y), 'float16'));
echo $m->dtype(), "\n";
var_dump($flat($m->toArray()) === $ref['mixed']);
var_dump($ok);
?>
--EXPECT--
float32
bool(true)
bool(true)
