--TEST--
operators + - * / ** with tensors and numbers on either side keep operand order
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([1, 2, 4]);
$b = new CudaArray([2, 2, 2]);
show($a + $b);
show($a - $b);
show($a * $b);
show($a / $b);
show($a ** $b);
show($a + 1);
show(1 + $a);
show($a - 1);
show(2 - $a);
show($a * 3);
show(3 * $a);
show($a / 2);
show(2 / $a);
show($a ** 2);
show(2 ** $a);
show(-$a);
show(+$a);
show((($a + 1) * 2 - $b) / 4);
var_dump(($a + 1) instanceof CudaArray);
show($a);                                         // operands are unchanged
?>
--EXPECT--
float32 [3] [3.0,4.0,6.0]
float32 [3] [-1.0,0.0,2.0]
float32 [3] [2.0,4.0,8.0]
float32 [3] [0.5,1.0,2.0]
float32 [3] [1.0,4.0,16.0]
float32 [3] [2.0,3.0,5.0]
float32 [3] [2.0,3.0,5.0]
float32 [3] [0.0,1.0,3.0]
float32 [3] [1.0,0.0,-2.0]
float32 [3] [3.0,6.0,12.0]
float32 [3] [3.0,6.0,12.0]
float32 [3] [0.5,1.0,2.0]
float32 [3] [2.0,1.0,0.5]
float32 [3] [1.0,4.0,16.0]
float32 [3] [2.0,4.0,16.0]
float32 [3] [-1.0,-2.0,-4.0]
float32 [3] [1.0,2.0,4.0]
float32 [3] [0.5,1.0,2.0]
bool(true)
float32 [3] [1.0,2.0,4.0]
