--TEST--
with strict_types no argument is coerced
--FILE--
<?php
declare(strict_types=1);
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([1, 2]);
throws(fn() => $a->add(true));
throws(fn() => $a->add('1'));
throws(fn() => $a->sum('0'));
throws(fn() => $a->sum(0, 1));
throws(fn() => CudaArray::full([2], '3'));
throws(fn() => CudaArray::rand([2], '5'));
throws(fn() => $a->astype('float32', 1));
throws(fn() => $a->clamp(0, '1'));
show($a->add(1));                  // ints widen to float as PHP allows in strict mode
show($a->clamp(0.5, 1));
show(CudaArray::full([2], true));
?>
--EXPECT--
TypeError: Cuda\CudaArray::add(): Argument #1 ($other) must be of type Cuda\CudaArray|int|float, bool given
TypeError: Cuda\CudaArray::add(): Argument #1 ($other) must be of type Cuda\CudaArray|int|float, string given
TypeError: Cuda\CudaArray::sum(): Argument #1 ($axis) must be of type array|int|null, string given
TypeError: Cuda\CudaArray::sum(): Argument #2 ($keepdims) must be of type bool, int given
TypeError: Cuda\CudaArray::full(): Argument #2 ($value) must be of type int|float|bool, string given
TypeError: Cuda\CudaArray::rand(): Argument #2 ($seed) must be of type ?int, string given
TypeError: Cuda\CudaArray::astype(): Argument #2 ($casting) must be of type string, int given
TypeError: Cuda\CudaArray::clamp(): Argument #2 ($max) must be of type Cuda\CudaArray|int|float, string given
float32 [2] [2.0,3.0]
float32 [2] [1.0,1.0]
float32 [2] [1.0,1.0]
