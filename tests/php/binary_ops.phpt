--TEST--
binary arithmetic methods with tensors and numbers
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([1, 2, 3, 4]);
$b = new CudaArray([4, 3, 2, 1]);
show($a->add($b));
show($a->subtract($b));
show($a->multiply($b));
show($a->divide($b), 4);
show($a->power($b));
show($a->maximum($b));
show($a->minimum($b));
show($a->add(10));
show($a->subtract(0.5));
show($a->power(2));
show($a->power(0.5), 4);
show($a->maximum(2.5));
show($a->minimum(2));
$i = new CudaArray([7, -7, 2, 0], 'int32');
show($i->divide(2));                              // int / int is float32
show($i->power(2));
show($i->power(-1));                              // integer pow with a negative exponent
show($i->maximum(0));
$n = new CudaArray([NAN, 1.0]);
show($n->maximum(0));                             // NaN propagates
show($n->minimum(5));
show($a->add(new CudaArray([1, 1, 1, 1], 'int32')));
show($a->add(true));                              // bool coerces to 1 in non-strict mode
throws(fn() => $a->add('x'));
throws(fn() => $a->add([1]));
throws(fn() => $a->add(new stdClass));
throws(fn() => $a->add(null));
?>
--EXPECT--
float32 [4] [5.0,5.0,5.0,5.0]
float32 [4] [-3.0,-1.0,1.0,3.0]
float32 [4] [4.0,6.0,6.0,4.0]
float32 [4] [0.25,0.6667,1.5,4.0]
float32 [4] [1.0,8.0,9.0,4.0]
float32 [4] [4.0,3.0,3.0,4.0]
float32 [4] [1.0,2.0,2.0,1.0]
float32 [4] [11.0,12.0,13.0,14.0]
float32 [4] [0.5,1.5,2.5,3.5]
float32 [4] [1.0,4.0,9.0,16.0]
float32 [4] [1.0,1.4142,1.7321,2.0]
float32 [4] [2.5,2.5,3.0,4.0]
float32 [4] [1.0,2.0,2.0,2.0]
float32 [4] [3.5,-3.5,1.0,0.0]
int32 [4] [49,49,4,0]
int32 [4] [0,0,0,0]
int32 [4] [7,0,2,0]
float32 [2] [NAN,1.0]
float32 [2] [NAN,1.0]
float32 [4] [2.0,3.0,4.0,5.0]
float32 [4] [2.0,3.0,4.0,5.0]
TypeError: Cuda\CudaArray::add(): Argument #1 ($other) must be of type Cuda\CudaArray|int|float, string given
TypeError: Cuda\CudaArray::add(): Argument #1 ($other) must be of type Cuda\CudaArray|int|float, array given
TypeError: Cuda\CudaArray::add(): Argument #1 ($other) must be of type Cuda\CudaArray|int|float, stdClass given
TypeError: Cuda\CudaArray::add(): Argument #1 ($other) must be of type Cuda\CudaArray|int|float, null given
