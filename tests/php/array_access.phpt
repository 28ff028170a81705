--TEST--
CudaArray as ArrayAccess (php-gpu-tensors' $t[i]): rows are views, rank 1 gives values, writes go through to storage (numbers and broadcast arrays), negative indices, traced by Cuda\Fusion; bad selectors, out of range, wrong shapes, broadcast views, unset (strided rows: write_strided.phpt)
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$j = fn($v) => json_encode($v instanceof CudaArray ? $v->toArray() : $v);
$t = new CudaArray([[1, 2, 3], [4, 5, 6]], 'int32');
echo $j($t[0]), ' ', $j($t[-1]), ' ', $j($t[1][2]), ' ', $j($t[-2][-3]), ' ', $t[1]->dtype(), "\n";
var_dump(isset($t[1]), isset($t[2]), isset($t[-2]), isset($t[-3]), isset($t['0']));
$t[0] = 7;                              // a number into a row
$t[1] = new CudaArray([10, 20, 30]);    // an array, converted to int32
echo $j($t), "\n";
$t[-1] = new CudaArray([5]);            // broadcast
$row = $t[0];                           // a view: writing into it writes into $t
$row[1] = -1;
echo $j($t), ' ', $j($row), "\n";
$b = CudaArray::zeros([2, 2, 2], 'bool');
$b[1][0] = true;
echo $j($b), "\n";
$f = new CudaArray([0.5, 1.5]);
$f[0] = 3;                              // ints are stored as the array's dtype
var_dump($f[0], $f[1]);

// traced: $x[i] is a slice, so a compiled closure can index its inputs and outputs
$g = Fusion::compile(fn($x) => ['first' => $x[0] * 2, 'last' => $x[-1][1]], ['x' => [[3, 2], 'float32']]);
$r = $g->run(new CudaArray([[1, 2], [3, 4], [5, 6]]));
echo $j($r['first']), ' ', $j($r['last']), ' ', $r['last']->getNdims(), "\n";
$loss = ($f * 2)->sum(0)->reshape([1]);  // the peer's $outputs[4][0]
var_dump($loss[0]);

$bad = [
    fn() => $t[2],
    fn() => $t[-3],
    fn() => $t['1'],
    fn() => $t[1.0],
    fn() => $t[null],
    fn() => (CudaArray::full([], 1))[0],
    function () use ($t) { $t[5] = 1; },
    function () use ($t) { $t[0] = new CudaArray([1, 2]); },
    function () use ($t) { $t[0] = 'x'; },
    function () use ($t) { $t[] = 1; },
    function () use ($t) { unset($t[0]); },
    function () use ($t) { $bb = $t[0]->broadcastTo([4, 3]); $bb[0] = 1; },
    fn() => Fusion::compile(function ($x) { $x[0] = 1; return $x; }, ['x' => [[2], 'float32']]),
];
foreach ($bad as $c) {
    try { $c(); echo "no exception\n"; } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
echo $j($t), "\n";                      // unchanged by the failures
?>
--EXPECT--
[1,2,3] [4,5,6] 6 1 int32
bool(true)
bool(false)
bool(true)
bool(false)
bool(false)
[[7,7,7],[10,20,30]]
[[7,-1,7],[5,5,5]] [7,-1,7]
[[[false,false],[false,false]],[[true,true],[false,false]]]
float(3)
float(1.5)
[2,4] [6] 0
float(9)
Cuda\InvalidArgumentException: index 2 is out of range for axis 0 of size 2
Cuda\InvalidArgumentException: index -3 is out of range for axis 0 of size 2
TypeError: Cuda\CudaArray index must be of type int, string given
TypeError: Cuda\CudaArray index must be of type int, float given
TypeError: Cuda\CudaArray index must be of type int, null given
Cuda\InvalidArgumentException: cannot index a rank-0 Cuda\CudaArray (item() reads its value)
Cuda\InvalidArgumentException: index 5 is out of range for axis 0 of size 2
Cuda\InvalidArgumentException: broadcast_to: cannot broadcast [2] to [3]
TypeError: a value stored in a Cuda\CudaArray must be int, float, bool or Cuda\CudaArray, string given
TypeError: Cuda\CudaArray index must be of type int, null given
Error: Cannot unset an element of a Cuda\CudaArray: its shape is fixed
Cuda\InvalidArgumentException: cannot write through $t[0]: $t is a broadcast view, whose rows share elements; write to a copy
Cuda\RuntimeException: writing through $t[i]: not supported while Cuda\Fusion is tracing
[[7,-1,7],[5,5,5]]
