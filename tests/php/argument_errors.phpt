--TEST--
argument count and type errors of every kind come from the engine's parameter parsing
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([1, 2]);
throws(fn() => new CudaArray());
throws(fn() => $a->add());
throws(fn() => $a->add(1, 2));
throws(fn() => $a->neg(1));
throws(fn() => $a->clamp(1));
throws(fn() => CudaArray::where($a->gt(1), 1));
throws(fn() => $a->reshape());
throws(fn() => $a->reshape('2'));
throws(fn() => $a->transpose('x'));
throws(fn() => $a->squeeze('x'));
throws(fn() => $a->unsqueeze([0]));
throws(fn() => $a->argMax(0, false, 1));
throws(fn() => $a->toNpy());
throws(fn() => $a->matmul());
throws(fn() => $a->astype([]));
throws(fn() => CudaArray::zeros());
throws(fn() => CudaArray::rand([2], 'x'));
throws(fn() => $a->getShape(1));
throws(fn() => $a->slice(starts: [0], bogus: 1));
throws(fn() => $a->add(other: 1, more: 2));
show($a->add(other: 1));
show(CudaArray::ones(dtype: 'int32', shape: [2]));
?>
--EXPECT--
ArgumentCountError: Cuda\CudaArray::__construct() expects at least 1 argument, 0 given
ArgumentCountError: Cuda\CudaArray::add() expects exactly 1 argument, 0 given
ArgumentCountError: Cuda\CudaArray::add() expects exactly 1 argument, 2 given
ArgumentCountError: Cuda\CudaArray::neg() expects exactly 0 arguments, 1 given
ArgumentCountError: Cuda\CudaArray::clamp() expects exactly 2 arguments, 1 given
ArgumentCountError: Cuda\CudaArray::where() expects exactly 3 arguments, 2 given
ArgumentCountError: Cuda\CudaArray::reshape() expects exactly 1 argument, 0 given
TypeError: Cuda\CudaArray::reshape(): Argument #1 ($shape) must be of type array, string given
TypeError: Cuda\CudaArray::transpose(): Argument #1 ($perm) must be of type ?array, string given
TypeError: Cuda\CudaArray::squeeze(): Argument #1 ($axis) must be of type array|int|null, string given
TypeError: Cuda\CudaArray::unsqueeze(): Argument #1 ($axis) must be of type int, array given
ArgumentCountError: Cuda\CudaArray::argMax() expects at most 2 arguments, 3 given
ArgumentCountError: Cuda\CudaArray::toNpy() expects exactly 1 argument, 0 given
ArgumentCountError: Cuda\CudaArray::matmul() expects exactly 1 argument, 0 given
TypeError: Cuda\CudaArray::astype(): Argument #1 ($dtype) must be of type string, array given
ArgumentCountError: Cuda\CudaArray::zeros() expects at least 1 argument, 0 given
TypeError: Cuda\CudaArray::rand(): Argument #2 ($seed) must be of type ?int, string given
ArgumentCountError: Cuda\CudaArray::getShape() expects exactly 0 arguments, 1 given
Error: Unknown named parameter $bogus
Error: Unknown named parameter $more
float32 [2] [2.0,3.0]
int32 [2] [1,1]
