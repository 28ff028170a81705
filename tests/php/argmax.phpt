--TEST--
argMax / argMin: one axis, int64 result, first index on ties, keepdims
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([[3, 7, 7, 1], [9, 2, 9, 0]], 'int32');
show($a->argMax(1));
show($a->argMin(1));
show($a->argMax(0));
show($a->argMin(-1));
show($a->argMax(1, true));
show($a->argMin(axis: 0, keepdims: true));
show((new CudaArray([1.0, 5.0, 5.0, -2.0]))->argMax(0));
show((new CudaArray([true, false, true], 'bool'))->argMin(0));
throws(fn() => $a->argMax(2));
throws(fn() => $a->argMin(-3));
throws(fn() => CudaArray::zeros([2, 0])->argMax(1));
throws(fn() => $a->argMax('x'));
?>
--EXPECT--
int64 [2] [1,0]
int64 [2] [3,3]
int64 [4] [1,0,1,0]
int64 [2] [3,3]
int64 [2,1] [[1],[0]]
int64 [1,4] [[0,1,0,1]]
int64 [] [1]
int64 [] [1]
Cuda\InvalidArgumentException: argmax: axis 2 is out of range for rank 2
Cuda\InvalidArgumentException: argmin: axis -3 is out of range for rank 2
Cuda\InvalidArgumentException: argmax: reduces an empty axis 1 of [2,0], which has no identity
TypeError: Cuda\CudaArray::argMax(): Argument #1 ($axis) must be of type ?int, string given
