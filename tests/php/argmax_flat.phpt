--TEST--
argMax()/argMin() without an axis (php-gpu-tensors' form): the index into the flattened array, first of ties, keepdims, traced by Cuda\Fusion; NaN wins as in NumPy; bad arguments
--FILE--
<?php
use Cuda\CudaArray;
$m = new CudaArray([[1, 9, 9], [7, -3, -3]]);
var_dump($m->argMax()->item(), $m->argMin()->item(), $m->argMax()->getNdims(), $m->argMax()->dtype());
echo json_encode($m->argMax(keepdims: true)->getShape()), ' ', json_encode($m->argMax(1)->toArray()), ' ', json_encode($m->argMin(null, true)->toArray()), "\n";
var_dump((new CudaArray([1.0, NAN, 10.0]))->argMax()->item(), CudaArray::full([], 5)->argMax()->item());
$g = Cuda\Fusion::compile(fn($x) => ['max' => $x->argMax(), 'min' => $x->argMin(keepdims: true)], ['x' => $m]);
$r = $g->run($m);
var_dump($r['max']->item(), $r['min']->toArray());
foreach ([fn() => $m->argMax(2), fn() => CudaArray::zeros([0])->argMax(), fn() => $m->argMax('a')] as $f) {
    try { $f(); echo "no exception\n"; } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
?>
--EXPECT--
int(1)
int(4)
int(0)
string(5) "int64"
[1,1] [1,0] [[4]]
int(1)
int(0)
int(1)
array(1) {
  [0]=>
  array(1) {
    [0]=>
    int(4)
  }
}
Cuda\InvalidArgumentException: argmax: axis 2 is out of range for rank 2
Cuda\InvalidArgumentException: argmax: reduces an empty axis 0 of [0], which has no identity
TypeError: Cuda\CudaArray::argMax(): Argument #1 ($axis) must be of type ?int, string given
