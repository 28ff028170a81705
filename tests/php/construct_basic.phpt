--TEST--
new CudaArray from nested PHP arrays in every dtype
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
show(new CudaArray([[1, 2, 3], [4, 5, 6]]));
show(new CudaArray([1.5, -2.25], 'float64'));
show(new CudaArray([[1, 2], [3, 4]], 'int32'));
show(new CudaArray([1, 2, 3], 'int64'));
show(new CudaArray([true, false, true], 'bool'));
show(new CudaArray([[[1]], [[2]]]));
show(new CudaArray([1, 2.5, true]));        // mixed scalars convert to the dtype
$big = new CudaArray([PHP_INT_MAX, PHP_INT_MIN], 'int64');  // exact, not through double
var_dump($big->toArray() === [PHP_INT_MAX, PHP_INT_MIN]);
$a = new CudaArray([[1, 2, 3], [4, 5, 6]], 'int32');
var_dump($a->getShape(), $a->getSize(), $a->dtype(), in_array($a->device(), ['cpu', 'cuda:0'], true));
$ref = [1, 2];
$r = &$ref[0];                               // references inside the data are followed
show(new CudaArray($ref, 'int32'));
?>
--EXPECT--
float32 [2,3] [[1.0,2.0,3.0],[4.0,5.0,6.0]]
float64 [2] [1.5,-2.25]
int32 [2,2] [[1,2],[3,4]]
int64 [3] [1,2,3]
bool [3] [true,false,true]
float32 [2,1,1] [[[1.0]],[[2.0]]]
float32 [3] [1.0,2.5,1.0]
bool(true)
array(2) {
  [0]=>
  int(2)
  [1]=>
  int(3)
}
int(6)
string(5) "int32"
bool(true)
int32 [2] [1,2]
