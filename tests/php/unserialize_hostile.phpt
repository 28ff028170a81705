--TEST--
unserialize of hostile data throws and never crashes; an uninitialised object is unusable
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
function payload(array $fields): string
{
    $body = '';
    foreach ($fields as $k => $v) $body .= serialize($k) . serialize($v);
    return 'O:14:"Cuda\CudaArray":' . count($fields) . ':{' . $body . '}';
}
$good = ['dtype' => 'int32', 'shape' => [2], 'data' => pack('l*', 1, 2)];
$cases = [
    'missing data' => ['dtype' => 'int32', 'shape' => [2]],
    'extra key' => $good + ['x' => 1],
    'empty' => [],
    'dtype int' => ['dtype' => 3] + $good,
    'dtype unknown' => ['dtype' => 'float8'] + $good,
    'dtype NUL' => ['dtype' => "int32\0"] + $good,
    'shape string' => ['shape' => '2'] + $good,
    'shape negative' => ['shape' => [-2]] + $good,
    'shape float' => ['shape' => [2.0]] + $good,
    'shape huge' => ['shape' => [PHP_INT_MAX]] + $good,
    'shape overflow' => ['shape' => [1 << 30, 1 << 30, 1 << 30]] + $good,
    'shape rank 9' => ['shape' => array_fill(0, 9, 1)] + $good,
    'data short' => ['data' => pack('l', 1)] + $good,
    'data long' => ['data' => pack('l*', 1, 2, 3)] + $good,
    'data array' => ['data' => [1, 2]] + $good,
];
foreach ($cases as $name => $fields) {
    echo str_pad($name, 16);
    throws(fn() => unserialize(payload($fields)));
}
show(unserialize(payload($good)));
// bool bytes other than 0/1 are normalised
show(unserialize(payload(['dtype' => 'bool', 'shape' => [3], 'data' => "\x00\x02\xff"])));
// truncated / garbage serialisations
foreach (['O:14:"Cuda\CudaArray":1:{s:5:"dtype";', 'O:14:"Cuda\CudaArray":0:{}'] as $s) {
    throws(function () use ($s) { var_dump(@unserialize($s)); });
}
// the C: format creates the object without __unserialize: it stays uninitialised
$u = @unserialize('C:14:"Cuda\CudaArray":0:{}');
var_dump($u);
throws(fn() => $u->toArray());
throws(fn() => $u->getShape());
throws(fn() => $u + 1);
throws(fn() => 1 - $u);
throws(fn() => (new CudaArray([1]))->add($u));
throws(fn() => CudaArray::where($u, 1, 2));
throws(fn() => serialize($u));
var_dump(clone $u);
// a failed __unserialize can leave a reachable, uninitialised object: every use is an Error
$bad = 'a:2:{i:0;' . payload(['dtype' => 'nope', 'shape' => [], 'data' => '']) . 'i:1;r:2;}';
try { unserialize($bad); } catch (Cuda\Exception $e) { echo "caught\n"; }
$a = new CudaArray([1]);
throws(fn() => $a->__unserialize($good));
$r = new ReflectionClass(CudaArray::class);
throws(fn() => $r->newInstanceWithoutConstructor());
?>
--EXPECTF--
missing data    Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: expected the keys dtype, shape and data
extra key       Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: expected the keys dtype, shape and data
empty           Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: expected the keys dtype, shape and data
dtype int       Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: dtype is not a dtype name
dtype unknown   Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: dtype is not a dtype name
dtype NUL       Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: dtype is not a dtype name
shape string    Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: shape must be a list of at most 8 ints
shape negative  Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: shape[0] must be an int from 0 to 2^31-1
shape float     Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: shape[0] must be an int from 0 to 2^31-1
shape huge      Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: shape[0] must be an int from 0 to 2^31-1
shape overflow  Cuda\InvalidArgumentException: shape [1073741824,1073741824,1073741824] is too large (over 2^40 bytes)
shape rank 9    Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: shape must be a list of at most 8 ints
data short      Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: data must be a string of 8 bytes
data long       Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: data must be a string of 8 bytes
data array      Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: data must be a string of 8 bytes
int32 [2] [1,2]
bool [3] [false,true,true]
bool(false)
no exception
Cuda\InvalidArgumentException: Invalid serialization data for Cuda\CudaArray object: expected the keys dtype, shape and data
object(Cuda\CudaArray)#%d (0) {
}
Error: Cuda\CudaArray object is not initialized
Error: Cuda\CudaArray object is not initialized
Error: Cuda\CudaArray object is not initialized
Error: Cuda\CudaArray object is not initialized
Error: Cuda\CudaArray object is not initialized
Error: Cuda\CudaArray object is not initialized
Error: Cuda\CudaArray object is not initialized
object(Cuda\CudaArray)#%d (0) {
}
caught
Error: Cannot unserialize an initialized Cuda\CudaArray
ReflectionException: Class Cuda\CudaArray is an internal class marked as final that cannot be instantiated without invoking its constructor
