--TEST--
fromBuffer / toBuffer: raw C-order bytes in every dtype
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
show(CudaArray::fromBuffer(pack('g*', 1.5, 2, 3, 4, 5, 6), [2, 3]));
show(CudaArray::fromBuffer(pack('e*', 0.25, -1), [2], 'float64'));
show(CudaArray::fromBuffer(pack('l*', 7, -8), [1, 2], 'int32'));
show(CudaArray::fromBuffer(pack('q*', PHP_INT_MAX, -1), [2], 'int64'));
show(CudaArray::fromBuffer("\x00\x01\x07", [3], 'bool'));       // any non-zero byte is true
show(CudaArray::fromBuffer(pack('g', 42), []));                    // rank 0
show(CudaArray::fromBuffer('', [0, 5]));                           // empty
$a = new CudaArray([[1, 2], [3, 4]], 'int32');
var_dump(bin2hex($a->toBuffer()));
var_dump(bin2hex($a->transpose()->toBuffer()));                    // a view is written in C order
var_dump(bin2hex(CudaArray::fromBuffer("\x00\x01\x07", [3], 'bool')->toBuffer()));
foreach (['float32', 'float64', 'int32', 'int64', 'bool'] as $dt) {
    $x = CudaArray::rand([3, 4], 7, $dt);
    $y = CudaArray::fromBuffer($x->toBuffer(), [3, 4], $dt);
    echo $dt, ' ', $y->toArray() === $x->toArray() ? 'same' : 'different', ' ', strlen($x->toBuffer()), "\n";
}
?>
--EXPECT--
float32 [2,3] [[1.5,2.0,3.0],[4.0,5.0,6.0]]
float64 [2] [0.25,-1.0]
int32 [1,2] [[7,-8]]
int64 [2] [9223372036854775807,-1]
bool [3] [false,true,true]
float32 [] [42.0]
float32 [0,5] []
string(32) "01000000020000000300000004000000"
string(32) "01000000030000000200000004000000"
string(6) "000101"
float32 same 48
float64 same 96
int32 same 48
int64 same 96
bool same 12
