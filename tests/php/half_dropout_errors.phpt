--TEST--
bfloat16/float16 dropout keeps float32's mask and rounds x * scale once (scale rounded to the dtype first); scatter_add of them and compiled steps refuse with clear messages
--FILE--
<?php
use Cuda\CudaArray;
$v = [];
for ($i = 0; $i < 64; $i++) $v[] = sin($i) * 3;
foreach (['bfloat16', 'float16'] as $dt) {
    $x = new CudaArray($v, $dt);
    $d = $x->dropout(0.3, 42);
    $m = $x->astype('float32')->dropout(0.3, 42);       // the same philox mask
    $scale = (new CudaArray([1 / 0.7], 'float64'))->astype($dt)->astype('float32');
    $want = ($x->astype('float32') * $scale)->astype($dt); // exact in float32, rounded once
    $ok = $d->dtype() === $dt;
    $dv = $d->toArray(); $mv = $m->toArray(); $wv = $want->toArray();
    $kept = 0;
    foreach ($dv as $i => $e) {
        $ok = $ok && (($mv[$i] == 0 && $v[$i] != 0) ? $e == 0 : $e === $wv[$i]);
        $kept += $mv[$i] != 0;
    }
    echo "$dt: ", $ok ? 'ok' : 'DIFFERENT', ", kept $kept of 64\n";
}
$t = CudaArray::zeros([4], 'bfloat16');
try {
    $t->scatterAdd(new CudaArray([1, 1], "int64"), new CudaArray([1.0, 2.0], "bfloat16"));
    echo "no exception\n";
} catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
try {
    Cuda\Fusion::compile(fn($a) => $a->exp(), ['a' => [[4], 'float16']]);
} catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
?>
--EXPECTF--
bfloat16: ok, kept %d of 64
float16: ok, kept %d of 64
Cuda\%sException: scatter_add: bfloat16 is not supported
Cuda\CompilationException: cannot compile the traced graph: fusion: inputs[0] "a" (input): float16 values are not supported in compiled steps yet (eager operations support them); cast to float32 before compiling
