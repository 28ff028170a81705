--TEST--
fromBuffer rejects a wrong length and bad shapes
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
throws(fn() => CudaArray::fromBuffer(str_repeat("\0", 23), [2, 3]));
throws(fn() => CudaArray::fromBuffer(str_repeat("\0", 25), [2, 3]));
throws(fn() => CudaArray::fromBuffer('', [1], 'int64'));
throws(fn() => CudaArray::fromBuffer('', [-1]));
throws(fn() => CudaArray::fromBuffer('', ['2']));
throws(fn() => CudaArray::fromBuffer('', [1.0]));
throws(fn() => CudaArray::fromBuffer('', [1, 1, 1, 1, 1, 1, 1, 1, 1]));
throws(fn() => CudaArray::fromBuffer('', [1 << 31]));
throws(fn() => CudaArray::fromBuffer('', [1 << 30, 1 << 30]));
?>
--EXPECT--
Cuda\InvalidArgumentException: fromBuffer: shape [2,3] of float32 needs 24 bytes, got 23
Cuda\InvalidArgumentException: fromBuffer: shape [2,3] of float32 needs 24 bytes, got 25
Cuda\InvalidArgumentException: fromBuffer: shape [1] of int64 needs 8 bytes, got 0
Cuda\InvalidArgumentException: Cuda\CudaArray::fromBuffer(): Argument #2 ($shape) must contain only non-negative dimensions, -1 given
TypeError: Cuda\CudaArray::fromBuffer(): Argument #2 ($shape) must contain only integers, string given
TypeError: Cuda\CudaArray::fromBuffer(): Argument #2 ($shape) must contain only integers, float given
Cuda\InvalidArgumentException: Cuda\CudaArray::fromBuffer(): Argument #2 ($shape) must have at most 8 elements
Cuda\InvalidArgumentException: Cuda\CudaArray::fromBuffer(): Argument #2 ($shape) must contain dimensions below 2^31, 2147483648 given
Cuda\InvalidArgumentException: shape [1073741824,1073741824] is too large (over 2^40 bytes)
