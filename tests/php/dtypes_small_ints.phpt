--TEST--
int8, uint8, int16, uint16, uint32, uint64: construct, toArray, bytes, flat arrays, wrap, casts, reductions
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\HostArray;
$new = ['int8', 'uint8', 'int16', 'uint16', 'uint32', 'uint64'];
echo "-- construct (PHP ints and floats saturate), bytes, flat, host\n";
foreach ($new as $dt) {
    $a = new CudaArray([[-1, 0, 7], [300, 70000, 2.9]], $dt);
    show($a);
    $bytes = $a->toBuffer();
    echo "  ", strlen($bytes), " bytes, host element ", HostArray::fromArray([1], $dt)->getElementSize(), "; round trip ",
        CudaArray::fromBuffer($bytes, [2, 3], $dt)->toArray() === $a->toArray() ? 'same' : 'DIFFERS',
        "; flat ", fmt(CudaArray::fromFlatArray([1, 2, 3, 4], [2, 2], $dt)->toArray()),
        "; host ", fmt(HostArray::fromArray([5, 6], $dt)->toArray()), "\n";
    throws(fn() => CudaArray::fromBuffer(substr($bytes, 1), [2, 3], $dt));
}
echo "-- exact bytes\n";
echo bin2hex((new CudaArray([-2, 127], 'int8'))->toBuffer()), ' ',
    bin2hex((new CudaArray([258, 65535], 'uint16'))->toBuffer()), ' ',
    bin2hex((new CudaArray([PHP_INT_MAX], 'uint64'))->toBuffer()), "\n";
echo "-- uint64 above PHP_INT_MAX reads back as a float\n";
$big = CudaArray::fromBuffer(str_repeat("\xff", 8) . pack('P', PHP_INT_MAX), [2], 'uint64');
echo fmt($big->toArray()), ' ', gettype($big->toArray()[0]), ' ', gettype($big->toArray()[1]), "\n";
echo "-- arithmetic wraps\n";
show((new CudaArray([100, -128, 127], 'int8'))->add(new CudaArray([100, -1, 1], 'int8')));
show((new CudaArray([0, 200], 'uint8'))->subtract(new CudaArray([1, 100], 'uint8')));
show((new CudaArray([300, 2], 'int16'))->multiply(new CudaArray([300, 3], 'int16')));
show((new CudaArray([65535, 2], 'uint16'))->multiply(new CudaArray([65535, 3], 'uint16')));
show((new CudaArray([4294967295, 5], 'uint32'))->multiply(new CudaArray([4294967295, 7], 'uint32')));
show((new CudaArray([0, 3], 'uint64'))->subtract(new CudaArray([1, 1], 'uint64'))->astype('int64'));
show((new CudaArray([-128, -3], 'int8'))->abs());
show((new CudaArray([1, 0], 'uint8'))->neg());
show((new CudaArray([2, 3], 'uint8'))->power(new CudaArray([8, 5], 'uint8')));
show((new CudaArray([7, 9], 'int16'))->divide(new CudaArray([2, 3], 'int16')));
show((new CudaArray([200, 5], 'uint8'))->add(100));
echo "-- comparisons, where, clamp, maximum\n";
show((new CudaArray([200, 5], 'uint8'))->gt(new CudaArray([-1, 5], 'int8')));
show((new CudaArray([3, 250], 'uint8'))->maximum(new CudaArray([4, 1], 'uint8')));
show((new CudaArray([-5, 50, 120], 'int8'))->clamp(-10, 100));
echo "-- casts: float saturates, integers keep the low bits\n";
foreach ($new as $dt) show((new CudaArray([-1.5, 1e10, NAN, 3.7], 'float64'))->astype($dt, casting: 'unsafe'));
show((new CudaArray([300, -1], 'int64'))->astype('uint8', casting: 'unsafe'));
show((new CudaArray([250, 128], 'uint8'))->astype('int8', casting: 'unsafe'));
show((new CudaArray([-1], 'int32'))->astype('uint32', casting: 'unsafe'));
show((new CudaArray([2, 0], 'uint16'))->astype('bool', casting: 'unsafe'));
echo "-- reductions\n";
foreach ($new as $dt) {
    $f = CudaArray::fromFlatArray(array_fill(0, 4096, 1), [4096], $dt);
    $m = new CudaArray([[3, 9, 2], [250, 0, 1]], $dt);
    echo str_pad($dt, 7), ' sum ', fmt($f->sum()->toArray()), ' ', $f->sum()->dtype(),
        ' mean ', fmt($f->mean()->toArray()), ' ', $f->mean()->dtype(),
        ' max ', fmt($m->max(1)->toArray()), ' min ', fmt($m->min(0)->toArray()), ' ', $m->min()->dtype(),
        ' argmax ', fmt($m->argMax(1)->toArray()), ' prod ', fmt($m->prod(0)->toArray()), "\n";
}
?>
--EXPECT--
-- construct (PHP ints and floats saturate), bytes, flat, host
int8 [2,3] [[-1,0,7],[127,127,2]]
  6 bytes, host element 1; round trip same; flat [[1,2],[3,4]]; host [5,6]
Cuda\InvalidArgumentException: fromBuffer: shape [2,3] of int8 needs 6 bytes, got 5
uint8 [2,3] [[0,0,7],[255,255,2]]
  6 bytes, host element 1; round trip same; flat [[1,2],[3,4]]; host [5,6]
Cuda\InvalidArgumentException: fromBuffer: shape [2,3] of uint8 needs 6 bytes, got 5
int16 [2,3] [[-1,0,7],[300,32767,2]]
  12 bytes, host element 2; round trip same; flat [[1,2],[3,4]]; host [5,6]
Cuda\InvalidArgumentException: fromBuffer: shape [2,3] of int16 needs 12 bytes, got 11
uint16 [2,3] [[0,0,7],[300,65535,2]]
  12 bytes, host element 2; round trip same; flat [[1,2],[3,4]]; host [5,6]
Cuda\InvalidArgumentException: fromBuffer: shape [2,3] of uint16 needs 12 bytes, got 11
uint32 [2,3] [[0,0,7],[300,70000,2]]
  24 bytes, host element 4; round trip same; flat [[1,2],[3,4]]; host [5,6]
Cuda\InvalidArgumentException: fromBuffer: shape [2,3] of uint32 needs 24 bytes, got 23
uint64 [2,3] [[0,0,7],[300,70000,2]]
  48 bytes, host element 8; round trip same; flat [[1,2],[3,4]]; host [5,6]
Cuda\InvalidArgumentException: fromBuffer: shape [2,3] of uint64 needs 48 bytes, got 47
-- exact bytes
fe7f 0201ffff ffffffffffffff7f
-- uint64 above PHP_INT_MAX reads back as a float
[1.8446744073709552e+19,9223372036854775807] double integer
-- arithmetic wraps
int8 [3] [-56,127,-128]
uint8 [2] [255,100]
int16 [2] [24464,6]
uint16 [2] [1,6]
uint32 [2] [1,35]
int64 [2] [-1,2]
int8 [2] [-128,3]
uint8 [2] [255,0]
uint8 [2] [0,243]
float32 [2] [3.5,3.0]
uint8 [2] [44,105]
-- comparisons, where, clamp, maximum
bool [2] [true,false]
uint8 [2] [4,250]
int8 [3] [-5,50,100]
-- casts: float saturates, integers keep the low bits
int8 [4] [-1,127,0,3]
uint8 [4] [0,255,0,3]
int16 [4] [-1,32767,0,3]
uint16 [4] [0,65535,0,3]
uint32 [4] [0,4294967295,0,3]
uint64 [4] [0,10000000000,0,3]
uint8 [2] [44,255]
int8 [2] [-6,-128]
uint32 [1] [4294967295]
bool [2] [true,false]
-- reductions
int8    sum [4096] int64 mean [1.0] float32 max [9,127] min [3,0,1] int8 argmax [1,0] prod [381,0,2]
uint8   sum [4096] int64 mean [1.0] float32 max [9,250] min [3,0,1] uint8 argmax [1,0] prod [750,0,2]
int16   sum [4096] int64 mean [1.0] float32 max [9,250] min [3,0,1] int16 argmax [1,0] prod [750,0,2]
uint16  sum [4096] int64 mean [1.0] float32 max [9,250] min [3,0,1] uint16 argmax [1,0] prod [750,0,2]
uint32  sum [4096] int64 mean [1.0] float32 max [9,250] min [3,0,1] uint32 argmax [1,0] prod [750,0,2]
uint64  sum [4096] int64 mean [1.0] float32 max [9,250] min [3,0,1] uint64 argmax [1,0] prod [750,0,2]
