--TEST--
numbers are weak: they take the tensor's dtype unless a float meets an int or bool tensor
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$i = new CudaArray([1, 2, 3], 'int32');
show($i->multiply(2));
show($i * 2);
show($i->multiply(0.5));
show($i * 0.5);
show(2 * $i);
show($i + 1.5);
$l = new CudaArray([1, 2], 'int64');
show($l * 3);
show($l / 2);
$f = new CudaArray([1, 2], 'float64');
show($f * 2);
show($f + 0.1);
$h = new CudaArray([1, 2]);
show($h * 2);
$b = new CudaArray([true, false], 'bool');
show($b + 1);
show($b * 0.5);
show($b->maximum(0));
show($i ** 2);
show(2 ** $i);
show($i ** 0.5, 4);
show($i->subtract(1));
show(10 - $i);
show(1 / $i, 4);
show($i->eq(2));
show($i->lt(2.5));
// large ints are exact for int64 tensors when they fit a double's 53 bits
show($l + (2 ** 52));
?>
--EXPECT--
int32 [3] [2,4,6]
int32 [3] [2,4,6]
float32 [3] [0.5,1.0,1.5]
float32 [3] [0.5,1.0,1.5]
int32 [3] [2,4,6]
float32 [3] [2.5,3.5,4.5]
int64 [2] [3,6]
float32 [2] [0.5,1.0]
float64 [2] [2.0,4.0]
float64 [2] [1.1,2.1]
float32 [2] [2.0,4.0]
int32 [2] [2,1]
float32 [2] [0.5,0.0]
int32 [2] [1,0]
int32 [3] [1,4,9]
int32 [3] [2,4,8]
float32 [3] [1.0,1.4142,1.7321]
int32 [3] [0,1,2]
int32 [3] [9,8,7]
float32 [3] [1.0,0.5,0.3333]
bool [3] [false,true,false]
bool [3] [true,true,false]
int64 [2] [4503599627370497,4503599627370498]
