--TEST--
reduction errors: axis out of range, repeated axes, empty max/min, bad axis types
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = CudaArray::zeros([2, 3]);
throws(fn() => $a->sum(2));
throws(fn() => $a->mean(-3));
throws(fn() => $a->max([0, 5]));
throws(fn() => $a->sum([0, -2]));
throws(fn() => $a->prod(PHP_INT_MAX));
throws(fn() => CudaArray::zeros([0, 2])->max(0));
throws(fn() => CudaArray::zeros([0])->min());
throws(fn() => $a->sum('0'));
throws(fn() => $a->sum(['a']));
throws(fn() => $a->sum([0, 1, 0, 1, 0, 1, 0, 1, 0]));
throws(fn() => CudaArray::full([], 1)->sum(0));
?>
--EXPECT--
Cuda\InvalidArgumentException: sum: axis 2 is out of range for rank 2
Cuda\InvalidArgumentException: mean: axis -3 is out of range for rank 2
Cuda\InvalidArgumentException: max: axis 5 is out of range for rank 2
Cuda\InvalidArgumentException: sum: axis -2 is repeated
Cuda\InvalidArgumentException: prod: axis 9223372036854775807 is out of range for rank 2
Cuda\InvalidArgumentException: max: reduces an empty axis 0 of [0,2], which has no identity
Cuda\InvalidArgumentException: min: reduces an empty axis 0 of [0], which has no identity
no exception
TypeError: Cuda\CudaArray::sum(): Argument #1 ($axis) must contain only integers, string given
Cuda\InvalidArgumentException: Cuda\CudaArray::sum(): Argument #1 ($axis) must have at most 8 elements
Cuda\InvalidArgumentException: sum: axis 0 is out of range for rank 0
