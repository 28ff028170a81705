--TEST--
$t(...) (php-gpu-tensors' selectors): an int selects and drops its axis, null keeps it, [start, end] is inclusive, negative from the end, clamped; a view; traced by Cuda\Fusion; bad selectors
--FILE--
<?php
use Cuda\CudaArray;
$j = fn($t) => json_encode($t->toArray());
$a = new CudaArray([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], 'int32');
echo $j($a([1, 2], [1, 2])), ' ', $j($a(-1)), ' ', json_encode($a(null, [0, -1])->getShape()), ' ', json_encode($a()->getShape()), ' ', $j($a(1, 2)), "\n";
echo $j($a([0, 99], [-99, 0])), ' ', json_encode($a([2, 1])->getShape()), ' ', $j($a->slice('::2, ::2')([1, 1])), "\n";
$v = $a([1, 2]);                        // a view: rows of a contiguous array write through
$v[0] = 0;
echo $j($a), "\n";
$g = Cuda\Fusion::compile(fn($x) => ['row' => $x(1) * 2, 'block' => $x([0, 1], [2, 3])], ['x' => $a]);
$r = $g->run($a);
echo $j($r['row']), ' ', $j($r['block']), "\n";
foreach ([fn() => $a(0, 0, 0), fn() => $a(3), fn() => $a(-4), fn() => $a('1'), fn() => $a([1]), fn() => $a([1, 2, 1]),
          fn() => $a(['a', 1]), fn() => $a(1.5), fn() => $a(['x' => 0, 'y' => 1])] as $f) {
    try { $f(); echo "no exception\n"; } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
?>
--EXPECT--
[[5,6],[9,10]] [8,9,10,11] [3,4] [3,4] [6]
[[0],[4],[8]] [0,4] [[8,10]]
[[0,1,2,3],[0,0,0,0],[8,9,10,11]]
[0,0,0,0] [[2,3],[0,0]]
Cuda\InvalidArgumentException: 3 selectors for a rank-2 array
Cuda\InvalidArgumentException: index 3 is out of range for axis 0 of size 3
Cuda\InvalidArgumentException: index -4 is out of range for axis 0 of size 3
TypeError: Cuda\CudaArray::__invoke(): Argument #1 must be an int, null or a list [start, end] of two ints, string given
TypeError: Cuda\CudaArray::__invoke(): Argument #1 must be an int, null or a list [start, end] of two ints, array given
TypeError: Cuda\CudaArray::__invoke(): Argument #1 must be an int, null or a list [start, end] of two ints, array given
TypeError: Cuda\CudaArray::__invoke(): Argument #1 must be an int, null or a list [start, end] of two ints, array given
TypeError: Cuda\CudaArray::__invoke(): Argument #1 must be an int, null or a list [start, end] of two ints, float given
TypeError: Cuda\CudaArray::__invoke(): Argument #1 must be an int, null or a list [start, end] of two ints, array given
