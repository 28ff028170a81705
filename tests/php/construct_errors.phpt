--TEST--
new CudaArray: ragged data and non-numbers name the place (keys are ignored: construct_gaps.phpt)
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
throws(fn() => new CudaArray([[1, 2, 3], [4, 5]]));
throws(fn() => new CudaArray([[1, 2], [3, [4]]]));
throws(fn() => new CudaArray([[1, 2], 3]));
throws(fn() => new CudaArray([[[1, 2], [3, 4]], [[5, 6], [7]]]));
throws(fn() => new CudaArray([1, 'two', 3]));
throws(fn() => new CudaArray([[1], [null]]));
throws(fn() => new CudaArray([1, new stdClass]));
throws(fn() => new CudaArray([[[[[[[[[1]]]]]]]]]));
throws(fn() => new CudaArray([[1], []]));
throws(fn() => new CudaArray([[], [1]]));
$self = [1];
$self[0] = &$self;                  // a recursive array is just too deep
throws(fn() => new CudaArray($self));
throws(fn() => new CudaArray([1], 'float8'));
throws(fn() => new CudaArray("1"));
$a = new CudaArray([1]);
$view = $a->reshape([1, 1]);
$a->__construct([2, 3], 'int32');               // called again: new values (php-gpu-tensors allows it)
show($a);
show($view);                                      // a view made before keeps the old storage
throws(fn() => $a->__construct([[1], [2, 3]]));   // a failed call leaves the array as it was
show($a);
?>
--EXPECT--
Cuda\InvalidArgumentException: ragged array: $data[1] has 2 elements, expected 3
Cuda\InvalidArgumentException: ragged array: $data[1][1] is an array, expected a number
Cuda\InvalidArgumentException: ragged array: $data[1] is a number, expected an array of 2 elements
Cuda\InvalidArgumentException: ragged array: $data[1][1] has 1 elements, expected 2
Cuda\InvalidArgumentException: $data[1] must be int, float or bool, string given
Cuda\InvalidArgumentException: $data[1][0] must be int, float or bool, null given
Cuda\InvalidArgumentException: $data[1] must be int, float or bool, stdClass given
Cuda\InvalidArgumentException: $data is nested deeper than 8 levels
Cuda\InvalidArgumentException: ragged array: $data[1] has 0 elements, expected 1
Cuda\InvalidArgumentException: ragged array: $data[1] has 1 elements, expected 0
Cuda\InvalidArgumentException: $data is nested deeper than 8 levels
Cuda\InvalidArgumentException: Cuda\CudaArray::__construct(): Argument #2 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "float8" given
TypeError: Cuda\CudaArray::__construct(): Argument #1 ($data) must be of type array, string given
int32 [2] [2,3]
float32 [1,1] [[1.0]]
Cuda\InvalidArgumentException: ragged array: $data[1] has 2 elements, expected 1
int32 [2] [2,3]
