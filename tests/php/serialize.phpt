--TEST--
serialize / unserialize round-trips dtype, shape and values (views, rank 0, empty)
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$cases = [
    new CudaArray([[1.5, 2], [3, 4]]),
    new CudaArray([1, 2], 'float64'),
    new CudaArray([[PHP_INT_MAX], [PHP_INT_MIN]], 'int64'),
    new CudaArray([-7, 7], 'int32'),
    new CudaArray([true, false], 'bool'),
    CudaArray::full([], 2.5),
    CudaArray::zeros([0, 3], 'int32'),
    (new CudaArray([[1, 2, 3], [4, 5, 6]], 'int32'))->transpose(),
];
foreach ($cases as $a) {
    $b = unserialize(serialize($a));
    show($b);
    var_dump($b->toArray() === $a->toArray());
}
var_dump($cases[3]->__serialize());
$nested = unserialize(serialize(['w' => $cases[0], 'again' => $cases[0]]));
var_dump($nested['w'] === $nested['again']);            // object identity survives
echo serialize(new CudaArray([1], 'int32')), "\n";
?>
--EXPECTF--
float32 [2,2] [[1.5,2.0],[3.0,4.0]]
bool(true)
float64 [2] [1.0,2.0]
bool(true)
int64 [2,1] [[9223372036854775807],[-9223372036854775808]]
bool(true)
int32 [2] [-7,7]
bool(true)
bool [2] [true,false]
bool(true)
float32 [] [2.5]
bool(true)
int32 [0,3] []
bool(true)
int32 [3,2] [[1,4],[2,5],[3,6]]
bool(true)
array(3) {
  ["dtype"]=>
  string(5) "int32"
  ["shape"]=>
  array(1) {
    [0]=>
    int(2)
  }
  ["data"]=>
  string(8) "%s"
}
bool(true)
O:14:"Cuda\CudaArray":3:{s:5:"dtype";s:5:"int32";s:5:"shape";a:1:{i:0;i:1;}s:4:"data";s:4:"%s";}
