--TEST--
new CudaArray converts values to the dtype: truncation, saturation, bool
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
show(new CudaArray([1.9, -1.9, 2.5, NAN], 'int32'));
show(new CudaArray([1e20, -1e20, 3000000000, -3000000000], 'int32'));
show(new CudaArray([1e30, -1e30, INF], 'int64'));
show(new CudaArray([0, 1, -2, 0.0, 0.5, false, true], 'bool'));
show(new CudaArray([16777217], 'float32'));
show(new CudaArray([16777217], 'float64'));
?>
--EXPECT--
int32 [4] [1,-1,2,0]
int32 [4] [2147483647,-2147483648,2147483647,-2147483648]
int64 [3] [9223372036854775807,-9223372036854775808,9223372036854775807]
bool [7] [false,true,true,false,true,false,true]
float32 [1] [16777216.0]
float64 [1] [16777217.0]
