--TEST--
matmul errors: inner dimensions, batch dimensions, rank 0, integer operands
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = CudaArray::zeros([2, 3]);
throws(fn() => $a->matmul(CudaArray::zeros([4, 2])));
throws(fn() => $a->matmul(CudaArray::zeros([2])));
throws(fn() => CudaArray::zeros([2, 2, 3])->matmul(CudaArray::zeros([3, 3, 1])));
throws(fn() => CudaArray::full([], 1)->matmul($a));
throws(fn() => CudaArray::zeros([2, 2], 'int32')->matmul(CudaArray::zeros([2, 2], 'int32')));
throws(fn() => $a->matmul(1));
throws(fn() => $a->matmul([[1]]));
?>
--EXPECT--
Cuda\InvalidArgumentException: matmul: inner dimensions differ: [2,3] x [4,2]
Cuda\InvalidArgumentException: matmul: inner dimensions differ: [2,3] x [2]
Cuda\InvalidArgumentException: matmul: batch dimensions do not broadcast: [2,2,3] x [3,3,1]
Cuda\InvalidArgumentException: matmul: operands must have rank >= 1, got [] x [2,3]
Cuda\InvalidArgumentException: matmul: needs float32 or float64 operands, got int32 and int32
TypeError: Cuda\CudaArray::matmul(): Argument #1 ($other) must be of type Cuda\CudaArray, int given
TypeError: Cuda\CudaArray::matmul(): Argument #1 ($other) must be of type Cuda\CudaArray, array given
