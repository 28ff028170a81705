--TEST--
compound assignment operators, and unsupported operands give TypeError
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$a = new CudaArray([1, 2, 3], 'int32');
$keep = $a;
$a += 1;   show($a);
$a -= 2;   show($a);
$a *= 3;   show($a);
$a **= 2;  show($a);
$a /= 2;   show($a);
show($keep);                                     // the old object is untouched
$x = 10;
$b = new CudaArray([1, 2], 'int32');
$x -= $b;
show($x);
$c = new CudaArray([1.0]);
for ($i = 0; $i < 100; $i++) $c += 1;            // old values are released as we go
show($c);
throws(fn() => $a + 'x');
throws(fn() => 'x' - $a);
throws(fn() => $a + [1]);
throws(fn() => $a + null);
throws(fn() => $a + true);
throws(fn() => $a % 2);
throws(fn() => $a + Cuda\HostArray::fromArray([1]));
throws(fn() => $a + new CudaArray([1, 2]));
$d = new CudaArray([1, 2]);
try { $d += new CudaArray([1, 2, 3]); } catch (Cuda\InvalidArgumentException $e) { echo $e->getMessage(), "\n"; }
show($d);                                        // a failed += leaves the variable alone
?>
--EXPECT--
int32 [3] [2,3,4]
int32 [3] [0,1,2]
int32 [3] [0,3,6]
int32 [3] [0,9,36]
float32 [3] [0.0,4.5,18.0]
int32 [3] [1,2,3]
int32 [2] [9,8]
float32 [1] [101.0]
TypeError: Unsupported operand types: Cuda\CudaArray + string
TypeError: Unsupported operand types: string - Cuda\CudaArray
TypeError: Unsupported operand types: Cuda\CudaArray + array
TypeError: Unsupported operand types: Cuda\CudaArray + null
TypeError: Unsupported operand types: Cuda\CudaArray + bool
TypeError: Unsupported operand types: Cuda\CudaArray % int
TypeError: Unsupported operand types: Cuda\CudaArray + Cuda\HostArray
Cuda\InvalidArgumentException: add: cannot broadcast [3] and [2]
add: cannot broadcast [2] and [3]
float32 [2] [1.0,2.0]
