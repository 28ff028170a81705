--TEST--
zeros, ones and full in every dtype, including rank 0 and empty shapes
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
show(CudaArray::zeros([2, 2]));
show(CudaArray::ones([3], 'int32'));
show(CudaArray::ones([2], 'bool'));
show(CudaArray::zeros([2], 'int64'));
show(CudaArray::full([2, 1], 2.5, 'float64'));
show(CudaArray::full([2], 7));
show(CudaArray::full([2], 7, 'int64'));
show(CudaArray::full([2], true, 'int32'));
show(CudaArray::full([2], 2.9, 'int32'));
show(CudaArray::full([3], 0.5, 'bool'));
show(CudaArray::full([], -1, 'int32'));
show(CudaArray::zeros([0, 3]));
show(CudaArray::ones([]));
show(CudaArray::full([2], "3"));                // numeric strings coerce (non-strict mode)
throws(fn() => CudaArray::full([2], "x"));
throws(fn() => CudaArray::full([2], [1]));
throws(fn() => CudaArray::zeros([2, -3]));
throws(fn() => CudaArray::zeros(5));
?>
--EXPECT--
float32 [2,2] [[0.0,0.0],[0.0,0.0]]
int32 [3] [1,1,1]
bool [2] [true,true]
int64 [2] [0,0]
float64 [2,1] [[2.5],[2.5]]
float32 [2] [7.0,7.0]
int64 [2] [7,7]
int32 [2] [1,1]
int32 [2] [2,2]
bool [3] [true,true,true]
int32 [] [-1]
float32 [0,3] []
float32 [] [1.0]
float32 [2] [3.0,3.0]
TypeError: Cuda\CudaArray::full(): Argument #2 ($value) must be of type int|float|bool, string given
TypeError: Cuda\CudaArray::full(): Argument #2 ($value) must be of type int|float|bool, array given
Cuda\InvalidArgumentException: Cuda\CudaArray::zeros(): Argument #1 ($shape) must contain only non-negative dimensions, -3 given
TypeError: Cuda\CudaArray::zeros(): Argument #1 ($shape) must be of type array, int given
