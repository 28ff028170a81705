--TEST--
an unknown dtype name is a ValueError everywhere a dtype is taken
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\HostArray;
$a = new CudaArray([1, 2]);
throws(fn() => $a->astype('float16'));
throws(fn() => $a->astype('Float32'));
throws(fn() => $a->astype("float32\0x"));
throws(fn() => CudaArray::zeros([2], 'int8'));
throws(fn() => CudaArray::ones([2], ''));
throws(fn() => CudaArray::full([2], 1, 'complex64'));
throws(fn() => CudaArray::rand([2], 1, 'uint8'));
throws(fn() => CudaArray::fromBuffer('', [0], 'f4'));
throws(fn() => HostArray::fromArray([1], 'double'));
?>
--EXPECT--
ValueError: Cuda\CudaArray::astype(): Argument #1 ($dtype) must be one of "bool", "int32", "int64", "float32", "float64", "float16" given
ValueError: Cuda\CudaArray::astype(): Argument #1 ($dtype) must be one of "bool", "int32", "int64", "float32", "float64", "Float32" given
ValueError: Cuda\CudaArray::astype(): Argument #1 ($dtype) must be one of "bool", "int32", "int64", "float32", "float64", "float32" given
ValueError: Cuda\CudaArray::zeros(): Argument #2 ($dtype) must be one of "bool", "int32", "int64", "float32", "float64", "int8" given
ValueError: Cuda\CudaArray::ones(): Argument #2 ($dtype) must be one of "bool", "int32", "int64", "float32", "float64", "" given
ValueError: Cuda\CudaArray::full(): Argument #3 ($dtype) must be one of "bool", "int32", "int64", "float32", "float64", "complex64" given
ValueError: Cuda\CudaArray::rand(): Argument #3 ($dtype) must be one of "bool", "int32", "int64", "float32", "float64", "uint8" given
ValueError: Cuda\CudaArray::fromBuffer(): Argument #3 ($dtype) must be one of "bool", "int32", "int64", "float32", "float64", "f4" given
ValueError: Cuda\HostArray::fromArray(): Argument #2 ($dtype) must be one of "bool", "int32", "int64", "float32", "float64", "double" given
