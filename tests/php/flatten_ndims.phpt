--TEST--
flatten() and getNdims() (php-gpu-tensors' names): a view of a contiguous array, a copy of a strided one, rank 0 to 4, traced by Cuda\Fusion; bad arguments
--FILE--
<?php
use Cuda\CudaArray;
$x = new CudaArray([[1, 2, 3], [4, 5, 6]]);
$f = $x->flatten();
echo json_encode($f->getShape()), ' ', json_encode($f->toArray()), ' ndims ', $x->getNdims(), ' -> ', $f->getNdims(), "\n";
$t = $x->transpose();                     // strided: flatten reads it in its own (transposed) order
echo json_encode($t->flatten()->toArray()), ' strides ', json_encode($t->getStrides()), "\n";
$s = CudaArray::full([], 7.5);
echo 'rank 0: ndims ', $s->getNdims(), ', flatten ', json_encode($s->flatten()->getShape()), ' ', json_encode($s->flatten()->toArray()), "\n";
$z = CudaArray::zeros([2, 0, 3]);
echo 'empty: ', json_encode($z->flatten()->getShape()), ' ndims ', CudaArray::ones([1, 2, 1, 2])->getNdims(), "\n";
$g = Cuda\Fusion::compile(fn($a) => ($a * 2)->flatten()->sum(), ['a' => [[2, 3], 'float32']]);
echo 'traced: ', $g->run($x)->item(), "\n";
foreach ([fn() => $x->flatten(0), fn() => $x->getNdims(true)] as $c) {
    try { $c(); echo "no exception\n"; } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
?>
--EXPECT--
[6] [1,2,3,4,5,6] ndims 2 -> 1
[1,4,2,5,3,6] strides [1,3]
rank 0: ndims 0, flatten [1] [7.5]
empty: [0] ndims 4
traced: 42
ArgumentCountError: Cuda\CudaArray::flatten() expects exactly 0 arguments, 1 given
ArgumentCountError: Cuda\CudaArray::getNdims() expects exactly 0 arguments, 1 given
