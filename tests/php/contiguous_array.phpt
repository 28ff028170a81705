--TEST--
Cuda\HostArray as php-gpu-tensors' Cuda\ContiguousArray: constructor, fromBuffer/toBuffer round trips, get/at by coordinates, count, sizes, toGpu; buffers of the wrong length, coordinates out of range or of the wrong count
--FILE--
<?php
use Cuda\ContiguousArray;
use Cuda\CudaArray;
$h = new ContiguousArray([[1.5, 2], [3, 4]]);
var_dump($h instanceof Cuda\HostArray, get_class($h), $h->getDtype(), $h->getNdims(), $h->getSize(), $h->getElementSize(), count($h), $h->isPinned());
var_dump($h->get([1, 0]), $h->at(0, 0), $h->at(-1, -1), (new ContiguousArray([1, 2], 'int64'))->at(1));
$bytes = pack('g*', 1.0, -2.5, 3.25);
$b = ContiguousArray::fromBuffer($bytes, [3]);
var_dump($b->toBuffer() === $bytes, $b->toArray());
$i = ContiguousArray::fromBuffer(pack('P*', 7, 9), [2, 1], 'int64', true);
echo json_encode($i->toArray()), ' ', $i->getDtype(), ' ', json_encode($i->getShape()), "\n";
$g = $i->toGpu();
var_dump($g instanceof CudaArray, $g->toArray() === $i->toArray(), $g->toHost()->toBuffer() === $i->toBuffer());
echo count(new ContiguousArray([true, false, true], 'bool')), ' ', count(ContiguousArray::fromBuffer(pack('g', 5), [])), "\n";
$bad = [
    fn() => ContiguousArray::fromBuffer($bytes, [4]),
    fn() => ContiguousArray::fromBuffer($bytes, [3], 'int4'),
    fn() => $h->get([2, 0]),
    fn() => $h->get([0]),
    fn() => $h->at(0, 0, 0),
    fn() => $h->at(0, '1'),
    fn() => $h->get(['a', 0]),
    fn() => new ContiguousArray([[1], [2, 3]]),
];
foreach ($bad as $f) {
    try { $f(); echo "no exception\n"; } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
?>
--EXPECT--
bool(true)
string(14) "Cuda\HostArray"
string(7) "float32"
int(2)
int(4)
int(4)
int(2)
bool(false)
float(3)
float(1.5)
float(4)
int(2)
bool(true)
array(3) {
  [0]=>
  float(1)
  [1]=>
  float(-2.5)
  [2]=>
  float(3.25)
}
[[7],[9]] int64 [2,1]
bool(true)
bool(true)
bool(true)
3 1
Cuda\InvalidArgumentException: fromBuffer: shape [4] of float32 needs 16 bytes, got 12
Cuda\InvalidArgumentException: Cuda\HostArray::fromBuffer(): Argument #3 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "int4" given
Cuda\InvalidArgumentException: index 2 is out of range for axis 0 of size 2
Cuda\InvalidArgumentException: 1 coordinate for a rank-2 array
Cuda\InvalidArgumentException: 3 coordinates for a rank-2 array
TypeError: Cuda\HostArray::at(): Argument #2 must be of type int, string given
TypeError: Cuda\HostArray::get(): Argument #1 ($indices) must contain only integers, string given
Cuda\InvalidArgumentException: ragged array: $data[1] has 2 elements, expected 1
