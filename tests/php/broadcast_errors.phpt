--TEST--
shapes that do not broadcast: the message names the op and both shapes
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = CudaArray::zeros([2, 3]);
$b = CudaArray::zeros([4]);
throws(fn() => $a->add($b));
throws(fn() => $a->subtract($b));
throws(fn() => $a->multiply(CudaArray::zeros([3, 2])));
throws(fn() => $a->divide(CudaArray::zeros([2])));
throws(fn() => $a->eq(CudaArray::zeros([0])));
throws(fn() => $a + $b);
throws(fn() => $b * $a);
throws(fn() => $a->clamp(CudaArray::zeros([2]), 1));
throws(fn() => CudaArray::zeros([2, 3, 4])->maximum(CudaArray::zeros([5, 1, 1])));
?>
--EXPECT--
Cuda\InvalidArgumentException: add: cannot broadcast [2,3] and [4]
Cuda\InvalidArgumentException: sub: cannot broadcast [2,3] and [4]
Cuda\InvalidArgumentException: mul: cannot broadcast [2,3] and [3,2]
Cuda\InvalidArgumentException: div: cannot broadcast [2,3] and [2]
Cuda\InvalidArgumentException: eq: cannot broadcast [2,3] and [0]
Cuda\InvalidArgumentException: add: cannot broadcast [2,3] and [4]
Cuda\InvalidArgumentException: mul: cannot broadcast [4] and [2,3]
Cuda\InvalidArgumentException: clamp: cannot broadcast [2,3] and [2] and []
Cuda\InvalidArgumentException: maximum: cannot broadcast [2,3,4] and [5,1,1]
