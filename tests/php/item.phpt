--TEST--
item() returns the one element of a size-1 array, typed by dtype
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
var_dump((new CudaArray([2.5]))->item());
var_dump((new CudaArray([[7]], 'int32'))->item());
var_dump((new CudaArray([[[-3]]], 'int64'))->item());
var_dump((new CudaArray([true], 'bool'))->item());
var_dump(CudaArray::full([], 0.125, 'float64')->item());
var_dump((new CudaArray([1, 2, 3]))->sum()->item());
throws(fn() => (new CudaArray([1, 2]))->item());
throws(fn() => CudaArray::zeros([2, 3])->item());
throws(fn() => CudaArray::zeros([0])->item());
?>
--EXPECT--
float(2.5)
int(7)
int(-3)
bool(true)
float(0.125)
float(6)
Cuda\InvalidArgumentException: item() needs exactly one element, got shape [2] (2 elements)
Cuda\InvalidArgumentException: item() needs exactly one element, got shape [2,3] (6 elements)
Cuda\InvalidArgumentException: item() needs exactly one element, got shape [0] (0 elements)
