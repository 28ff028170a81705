--TEST--
an unknown dtype name is a Cuda\InvalidArgumentException everywhere a dtype is taken (as php-gpu-tensors has it)
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\HostArray;
$a = new CudaArray([1, 2]);
throws(fn() => $a->astype('float8'));
throws(fn() => $a->astype('Float32'));
throws(fn() => $a->astype("float32\0x"));
throws(fn() => CudaArray::zeros([2], 'int4'));
throws(fn() => CudaArray::ones([2], ''));
throws(fn() => CudaArray::full([2], 1, 'complex64'));
throws(fn() => CudaArray::rand([2], 1, 'uint128'));
throws(fn() => CudaArray::fromBuffer('', [0], 'f4'));
throws(fn() => HostArray::fromArray([1], 'double'));
// the rejected name stands apart from the list, escaped and cut
foreach (["half\x1b[31m", str_repeat('x', 100)] as $bad) {
    try { CudaArray::zeros([2], $bad); } catch (Cuda\InvalidArgumentException $e) { echo $e->getMessage(), "\n"; }
}
?>
--EXPECT--
Cuda\InvalidArgumentException: Cuda\CudaArray::astype(): Argument #1 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "float8" given
Cuda\InvalidArgumentException: Cuda\CudaArray::astype(): Argument #1 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "Float32" given
Cuda\InvalidArgumentException: Cuda\CudaArray::astype(): Argument #1 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "float32" given
Cuda\InvalidArgumentException: Cuda\CudaArray::zeros(): Argument #2 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "int4" given
Cuda\InvalidArgumentException: Cuda\CudaArray::ones(): Argument #2 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "" given
Cuda\InvalidArgumentException: Cuda\CudaArray::full(): Argument #3 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "complex64" given
Cuda\InvalidArgumentException: Cuda\CudaArray::rand(): Argument #3 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "uint128" given
Cuda\InvalidArgumentException: Cuda\CudaArray::fromBuffer(): Argument #3 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "f4" given
Cuda\InvalidArgumentException: Cuda\HostArray::fromArray(): Argument #2 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "double" given
Cuda\CudaArray::zeros(): Argument #2 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "half\x1b[31m" given
Cuda\CudaArray::zeros(): Argument #2 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." given
