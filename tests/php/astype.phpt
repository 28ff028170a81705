--TEST--
astype(casting: 'unsafe'): every dtype pair; float to int truncates and saturates, NaN gives 0, anything to bool is != 0
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$f = new CudaArray([-1.7, -0.5, 0, 0.5, 2.9, 3e9, -3e9, NAN, INF], 'float64');
foreach (['int32', 'int64', 'bool', 'float32', 'float64'] as $dt) show($f->astype($dt, casting: 'unsafe'));
$i = new CudaArray([-2, 0, 2147483647], 'int64');
foreach (['int32', 'bool', 'float32', 'float64'] as $dt) show($i->astype($dt, 'unsafe'));
$big = new CudaArray([3000000000, -3000000000], 'int64');
show($big->astype('int32'));                             // int to int wraps, as in NumPy
$b = new CudaArray([true, false], 'bool');
foreach (['int32', 'int64', 'float32', 'float64', 'bool'] as $dt) show($b->astype($dt));
show($f->slice('::4')->astype('int32', casting: 'unsafe'));                 // views convert too
$x = new CudaArray([1, 2]);
var_dump($x->astype('float32') !== $x);                  // always a new array
?>
--EXPECT--
int32 [9] [-1,0,0,0,2,2147483647,-2147483648,0,2147483647]
int64 [9] [-1,0,0,0,2,3000000000,-3000000000,0,9223372036854775807]
bool [9] [true,true,false,true,true,true,true,true,true]
float32 [9] [-1.7000000476837158,-0.5,0.0,0.5,2.9000000953674316,3000000000.0,-3000000000.0,NAN,INF]
float64 [9] [-1.7,-0.5,0.0,0.5,2.9,3000000000.0,-3000000000.0,NAN,INF]
int32 [3] [-2,0,2147483647]
bool [3] [true,false,true]
float32 [3] [-2.0,0.0,2147483648.0]
float64 [3] [-2.0,0.0,2147483647.0]
int32 [2] [-1294967296,1294967296]
int32 [2] [1,0]
int64 [2] [1,0]
float32 [2] [1.0,0.0]
float64 [2] [1.0,0.0]
bool [2] [true,false]
int32 [3] [-1,2,2147483647]
bool(true)
