--TEST--
== and != on arrays compare identity (use eq() for values); < > are uncomparable
--FILE--
<?php
use Cuda\CudaArray;
$a = new CudaArray([1, 2]);
$b = new CudaArray([1, 2]);
$c = $a;
var_dump($a == $c, $a === $c, $a == $b, $a != $b, $a == clone $a);
var_dump($a == 1, $a == null, $a == [1, 2], $a < $b, $a > $b);
var_dump($a->eq($b)->toArray());
var_dump(in_array($a, [$b]), in_array($a, [$b, $a]));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
bool(false)
array(2) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
}
bool(false)
bool(true)
