--TEST--
reduction dtypes: integer sums and products widen to int64, mean of ints is float32, max keeps the dtype
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$i = new CudaArray([[2147483647, 1], [5, -3]], 'int32');
show($i->sum());                                 // no int32 overflow
show($i->sum(1));
show($i->prod(0));
show($i->mean());
show($i->max(0));
show($i->min());
$b = new CudaArray([true, true, false], 'bool');
show($b->sum());
show($b->max());
show($b->mean(), 4);
$d = new CudaArray([0.1, 0.2], 'float64');
show($d->sum());
show((new CudaArray([1, NAN, 3]))->max());
show((new CudaArray([1, NAN, 3]))->sum());
show(CudaArray::zeros([0])->sum());
show(CudaArray::zeros([0], 'int32')->prod());
show(CudaArray::zeros([3, 0])->sum(1));
show(CudaArray::zeros([0])->mean());
show(CudaArray::full([], 5)->sum());
?>
--EXPECT--
int64 [] [2147483650]
int64 [2] [2147483648,2]
int64 [2] [10737418235,-3]
float32 [] [536870912.0]
int32 [2] [2147483647,1]
int32 [] [-3]
int64 [] [2]
bool [] [true]
float32 [] [0.6667]
float64 [] [0.30000000000000004]
float32 [] [NAN]
float32 [] [NAN]
float32 [] [0.0]
int64 [] [1]
float32 [3] [0.0,0.0,0.0]
float32 [] [NAN]
float32 [] [5.0]
