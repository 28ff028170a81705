--TEST--
HostArray: from PHP arrays, shape and dtype, to and from the device (serialization: host_serialize.phpt)
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\HostArray;
$h = HostArray::fromArray([[1, 2], [3, 4]]);
var_dump($h->getShape(), $h->dtype(), $h->toArray());
$d = $h->toDevice();
show($d);
show($d->add(1));
$back = $d->multiply(2)->toHost();
var_dump(get_class($back), $back->toArray());
$i = HostArray::fromArray([true, false], 'bool');
var_dump($i->dtype(), $i->toDevice()->dtype());
show((new CudaArray([[1, 2, 3], [4, 5, 6]], 'int32'))->transpose()->toHost()->toDevice());
var_dump(CudaArray::full([], 2.5)->toHost()->toArray());
var_dump(CudaArray::zeros([2, 0, 3])->toHost()->getShape());
var_dump(HostArray::fromArray([])->getShape());
throws(fn() => new HostArray());
throws(fn() => HostArray::fromArray([[1], [2, 3]]));
throws(fn() => HostArray::fromArray([1], 'float8'));
?>
--EXPECT--
array(2) {
  [0]=>
  int(2)
  [1]=>
  int(2)
}
string(7) "float32"
array(2) {
  [0]=>
  array(2) {
    [0]=>
    float(1)
    [1]=>
    float(2)
  }
  [1]=>
  array(2) {
    [0]=>
    float(3)
    [1]=>
    float(4)
  }
}
float32 [2,2] [[1.0,2.0],[3.0,4.0]]
float32 [2,2] [[2.0,3.0],[4.0,5.0]]
string(14) "Cuda\HostArray"
array(2) {
  [0]=>
  array(2) {
    [0]=>
    float(2)
    [1]=>
    float(4)
  }
  [1]=>
  array(2) {
    [0]=>
    float(6)
    [1]=>
    float(8)
  }
}
string(4) "bool"
string(4) "bool"
int32 [3,2] [[1,4],[2,5],[3,6]]
array(1) {
  [0]=>
  float(2.5)
}
array(3) {
  [0]=>
  int(2)
  [1]=>
  int(0)
  [2]=>
  int(3)
}
array(1) {
  [0]=>
  int(0)
}
ArgumentCountError: Cuda\HostArray::__construct() expects at least 1 argument, 0 given
Cuda\InvalidArgumentException: ragged array: $data[1] has 2 elements, expected 1
Cuda\InvalidArgumentException: Cuda\HostArray::fromArray(): Argument #2 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "float8" given
