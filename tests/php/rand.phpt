--TEST--
rand: seeded, reproducible, in range for every dtype
--FILE--
<?php
use Cuda\CudaArray;
$a = CudaArray::rand([1000], 42);
$b = CudaArray::rand([1000], 42);
$c = CudaArray::rand([1000], 43);
var_dump($a->dtype(), $a->toArray() === $b->toArray(), $a->toArray() === $c->toArray());
$v = $a->toArray();
var_dump(min($v) >= 0.0, max($v) < 1.0, abs(array_sum($v) / 1000 - 0.5) < 0.05);
$d = CudaArray::rand([1000], 42, 'float64')->toArray();
var_dump(min($d) >= 0.0, max($d) < 1.0);
$i = CudaArray::rand([1000], 1, 'int32')->toArray();
var_dump(min($i) >= 0, max($i) < 2 ** 31, count(array_unique($i)) > 900);
$l = CudaArray::rand([100], 1, 'int64');
var_dump($l->dtype(), min($l->toArray()) >= 0);
$bools = CudaArray::rand([1000], 5, 'bool')->toArray();
$t = count(array_filter($bools));
var_dump($t > 400 && $t < 600);
$u1 = CudaArray::rand([8]);
$u2 = CudaArray::rand([8]);
var_dump($u1->toArray() !== $u2->toArray());   // no seed: fresh randomness
var_dump(CudaArray::rand([], 3)->getShape(), CudaArray::rand([0], 3)->toArray());
var_dump(CudaArray::rand([2, 3], seed: 9)->toArray() === CudaArray::rand([2, 3], 9)->toArray());
?>
--EXPECT--
string(7) "float32"
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
string(5) "int64"
bool(true)
bool(true)
bool(true)
array(0) {
}
array(0) {
}
bool(true)
