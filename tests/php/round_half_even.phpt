--TEST--
round() is half to even, in float32 and float64
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$v = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 2.4999, 2.5001];
show((new CudaArray($v))->round());
show((new CudaArray($v, 'float64'))->round());
?>
--EXPECT--
float32 [9] [-2.0,-2.0,-0.0,0.0,2.0,2.0,4.0,2.0,3.0]
float64 [9] [-2.0,-2.0,-0.0,0.0,2.0,2.0,4.0,2.0,3.0]
