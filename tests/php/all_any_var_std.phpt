--TEST--
all(), any(), var(), std() (php-gpu-tensors' methods): axes, keepdims, correction, ints and bools, NaN, traced by Cuda\Fusion against eager; bad arguments
--FILE--
<?php
use Cuda\CudaArray;
$j = fn($t) => json_encode($t->toArray());
$x = new CudaArray([[1.0, 0.0], [3.0, 4.0]]);
echo $j($x->all(1)), ' ', $j($x->any(1)), ' ', $j($x->all()), ' ', $j($x->any(0)), ' ', $x->all(1)->dtype(), ' ', json_encode($x->any(1, true)->getShape()), "\n";
echo $j((new CudaArray([NAN, 1.0]))->all()), ' ', $j(CudaArray::zeros([2, 0])->all(1)), ' ', $j(CudaArray::zeros([2, 0])->any(1)), "\n";
echo $j((new CudaArray([[0, 2], [0, 0]], 'int32'))->any(1)), ' ', $j((new CudaArray([true, false]))->all()), "\n";
printf("%.4f %.4f %.4f %.4f\n", $x->var()->item(), $x->std()->item(), $x->var(null, 1)->item(), $x->std(correction: 1)->item());
echo $j($x->var(0)), ' ', $j($x->var([0, 1])), ' ', json_encode($x->var(1, 0, true)->getShape()), ' ', $x->var()->dtype(), "\n";
echo $j((new CudaArray([1, 2, 3, 4], 'int64'))->var()), ' ', (new CudaArray([1, 2, 3, 4], 'int64'))->var()->dtype(), "\n";
$g = Cuda\Fusion::compile(fn($a) => ['v' => $a->var(1), 's' => $a->std(), 'all' => $a->all(0), 'any' => $a->any(1)], ['a' => $x]);
$r = $g->run($x);
var_dump(abs($r['v']->toArray()[1] - $x->var(1)->toArray()[1]) < 1e-6, abs($r['s']->item() - $x->std()->item()) < 1e-6,
         $r['all']->toArray() === $x->all(0)->toArray(), $r['any']->toArray() === $x->any(1)->toArray());
$i = Cuda\Fusion::compile(fn($a) => [$a->all(1), $a->var()], ['a' => [[2, 2], 'int32']]);
[$al, $va] = $i->run(new CudaArray([[1, 0], [2, 3]], 'int32'));
echo $j($al), ' ', $va->item(), "\n";
foreach ([fn() => $x->var(1, 2), fn() => $x->std(null, 4), fn() => $x->var(0, -1), fn() => $x->all(2), fn() => $x->std([0, -3]), fn() => $x->var(correction: 'a')] as $f) {
    try { $f(); echo "no exception\n"; } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
?>
--EXPECTF--
[false,true] [true,true] [false] [true,true] bool [2,1]
[true] [true,true] [false,false]
[true,false] [false]
2.5000 1.5811 3.3333 1.8257
[1,4] [2.5] [2,1] float32
[1.25] float32
bool(true)
bool(true)
bool(true)
bool(true)
[false,true] 1.25
Cuda\InvalidArgumentException: var: correction 2 leaves no degrees of freedom for 2 elements
Cuda\InvalidArgumentException: std: correction 4 leaves no degrees of freedom for 4 elements
Cuda\InvalidArgumentException: var: correction -1 leaves no degrees of freedom for 2 elements
Cuda\InvalidArgumentException: all: axis 2 is out of range for rank 2
Cuda\InvalidArgumentException: std: axis -3 is out of range for rank 2
TypeError: Cuda\CudaArray::var(): Argument #2 ($correction) must be of type int, string given
