--TEST--
var_dump / print_r show shape, dtype, device, and the data of small arrays only
--FILE--
<?php
use Cuda\CudaArray;
var_dump(new CudaArray([[1, 2]], 'int32'));
print_r(CudaArray::full([], true, 'bool'));
echo "\n";
var_dump(CudaArray::zeros([101]));
var_dump(CudaArray::zeros([10, 10], 'int64')->__debugInfo()['data'][9][9]);
?>
--EXPECTF--
object(Cuda\CudaArray)#%d (4) {
  ["shape"]=>
  array(2) {
    [0]=>
    int(1)
    [1]=>
    int(2)
  }
  ["dtype"]=>
  string(5) "int32"
  ["device"]=>
  string(%d) "%s"
  ["data"]=>
  array(1) {
    [0]=>
    array(2) {
      [0]=>
      int(1)
      [1]=>
      int(2)
    }
  }
}
Cuda\CudaArray Object
(
    [shape] => Array
        (
        )

    [dtype] => bool
    [device] => %s
    [data] => 1
)

object(Cuda\CudaArray)#%d (3) {
  ["shape"]=>
  array(1) {
    [0]=>
    int(101)
  }
  ["dtype"]=>
  string(7) "float32"
  ["device"]=>
  string(%d) "%s"
}
int(0)
