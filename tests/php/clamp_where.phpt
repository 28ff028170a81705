--TEST--
clamp and where with tensors and numbers, broadcasting, dtypes
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([-2, -0.5, 0.5, 2]);
show($a->clamp(-1, 1));
show($a->clamp(new CudaArray([0, 0, 0, 0]), 1));
show($a->clamp(-1, new CudaArray([[0], [10]])));
show((new CudaArray([NAN, 5]))->clamp(0, 1));
$i = new CudaArray([-5, 3, 9], 'int32');
show($i->clamp(0, 4));
show($i->clamp(0, 4.5));
show((new CudaArray([true, false], 'bool'))->clamp(0, 1));
$c = new CudaArray([true, false, true], 'bool');
show(CudaArray::where($c, new CudaArray([1, 2, 3]), new CudaArray([10, 20, 30])));
show(CudaArray::where($c, 1, 0));                 // two int constants: int64
show(CudaArray::where($c, new CudaArray([1, 2, 3], 'int32'), 0));
show(CudaArray::where($c, new CudaArray([1, 2, 3], 'int32'), 0.5));
show(CudaArray::where($c, new CudaArray([1, 2, 3], 'int32'), new CudaArray([1, 2, 3], 'int64')));
show(CudaArray::where(new CudaArray([[true], [false]], 'bool'), $c->astype('int32'), -1));
show(CudaArray::where($a->gt(0), $a, 0));
show(CudaArray::where(new CudaArray([1, 0], 'int32'), 1, 0)); // nonzero is true (where_truthy.phpt)
throws(fn() => CudaArray::where($c, new CudaArray([1, 2]), 0));
throws(fn() => CudaArray::where(1, 1, 0));
throws(fn() => $a->clamp('lo', 1));
?>
--EXPECT--
float32 [4] [-1.0,-0.5,0.5,1.0]
float32 [4] [0.0,0.0,0.5,1.0]
float32 [2,4] [[-1.0,-0.5,0.0,0.0],[-1.0,-0.5,0.5,2.0]]
float32 [2] [NAN,1.0]
int32 [3] [0,3,4]
float32 [3] [0.0,3.0,4.5]
int32 [2] [1,0]
float32 [3] [1.0,20.0,3.0]
int64 [3] [1,0,1]
int32 [3] [1,0,3]
float32 [3] [1.0,0.5,3.0]
int64 [3] [1,2,3]
int32 [2,3] [[1,0,1],[-1,-1,-1]]
float32 [4] [0.0,0.0,0.5,2.0]
int64 [2] [1,0]
Cuda\InvalidArgumentException: where: cannot broadcast [3] and [2] and []
TypeError: Cuda\CudaArray::where(): Argument #1 ($condition) must be of type Cuda\CudaArray, int given
TypeError: Cuda\CudaArray::clamp(): Argument #1 ($min) must be of type Cuda\CudaArray|int|float, string given
