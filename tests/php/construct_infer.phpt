--TEST--
new CudaArray with dtype null infers bool, int64 or float32
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
show(new CudaArray([true, false], null));
show(new CudaArray([[1, 2], [3, 4]], null));
show(new CudaArray([1, 2.5], null));
show(new CudaArray([true, 2], null));
show(new CudaArray([], null));
show(new CudaArray([[1, 2]], dtype: null));
show(new CudaArray([1, 2]));   // the default is float32, not inferred
?>
--EXPECT--
bool [2] [true,false]
int64 [2,2] [[1,2],[3,4]]
float32 [2] [1.0,2.5]
int64 [2] [1,2]
float32 [0] []
int64 [1,2] [[1,2]]
float32 [2] [1.0,2.0]
