--TEST--
tan() (php-gpu-tensors' method; the graph op tan): values, dtypes, traced by Cuda\Fusion against eager
--FILE--
<?php
use Cuda\CudaArray;
$x = new CudaArray([0.0, M_PI / 4, -M_PI / 4, 1.0]);
printf("%.6f %.6f %.6f %.6f %s\n", ...[...$x->tan()->toArray(), $x->tan()->dtype()]);
echo (new CudaArray([0, 1], 'int32'))->tan()->dtype(), ' ', (new CudaArray([0.5], 'float64'))->tan()->dtype(), "\n";
$g = Cuda\Fusion::compile(fn($a) => ($a * 0.5)->tan() + 1, ['a' => [[4], 'float32']]);
var_dump(($g->run($x) - (($x * 0.5)->tan() + 1))->abs()->max()->item() < 1e-6);
try { $x->tan(1); } catch (ArgumentCountError $e) { echo get_class($e), "\n"; }
?>
--EXPECT--
0.000000 1.000000 -1.000000 1.557408 float32
float32 float64
bool(true)
ArgumentCountError
