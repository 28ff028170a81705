--TEST--
slice(...$selectors), php-gpu-tensors' per-axis form: int (drops the axis), null, [start, end(, step)], per-axis strings, the one-string spec, slice(); mixing with the named ONNX form; bad selectors; eager == Cuda\Fusion
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\Fusion;
$a = new CudaArray([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], 'int32');
show($a->slice([1, 3], [1, 4, 2]));                     // rows 1..2, columns 1, 3
show($a->slice(null, '::2'));                           // a string per axis
show($a->slice(' 1:3 , 1:4:2 '));                       // the one-string spec
show($a->slice(-1));                                    // an int drops its axis
show($a->slice(1, -2));                                 // rank 0
show($a->slice());                                      // everything
show($a->slice([null, 2], [3, null, -1]));              // null: the default for the step's sign
show($a->slice([PHP_INT_MIN, PHP_INT_MAX, null]));     // bounds clamp
show($a->slice('1:2', 0));                              // a per-axis string keeps its axis
$v = $a->slice(1, [0, 4, 2]);                           // a view: writes show in $a
$v[1] = 60;
show($a->slice(1));
// mixing the forms, and bad selectors
throws(fn() => $a->slice([0, 1], ends: [1]));
throws(fn() => $a->slice(ends: [1]));
throws(fn() => $a->slice(steps: [1], foo: 2));
throws(fn() => $a->slice(1.5));
throws(fn() => $a->slice(true));
throws(fn() => $a->slice($a));
throws(fn() => $a->slice([1]));
throws(fn() => $a->slice([1, 2, 3, 4]));
throws(fn() => $a->slice(['start' => 1, 'stop' => 2]));
throws(fn() => $a->slice([1.0, 2]));
throws(fn() => $a->slice(null, [0, 4, 0]));
throws(fn() => $a->slice(0, 0, 0));
throws(fn() => $a->slice(3));
throws(fn() => $a->slice(null, -5));
throws(fn() => $a->slice(null, '1,2'));
throws(fn() => $a->slice('...', 0));
throws(fn() => $a->slice(null, '1:2:3:4'));
throws(fn() => $a->slice('x'));
throws(fn() => $a->slice(null, '::0'));
throws(fn() => CudaArray::zeros([0, 2])->slice(0));
// both forms trace: eager == fused
$x = new CudaArray([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]);
$fns = [
    fn($t) => ($t + 1)->slice([1, 3], [1, 4, 2]) * 2,
    fn($t) => $t->slice(-1) + $t->slice(null, 0)->sum(),
    fn($t) => $t->slice(null, '::2')->sum(0),
    fn($t) => $t->slice('1:, ::2') - 1,
    fn($t) => $t->slice(starts: [1], ends: [4], steps: [2], axes: [1])->exp(),
];
foreach ($fns as $k => $f) {
    $g = Fusion::compile($f, [$x]);
    echo $k, ' ', fmt($g->run($x)->toArray(), 4) === fmt($f($x)->toArray(), 4) ? 'same' : 'DIFFERENT', ' ',
        json_encode($f($x)->getShape()), "\n";
}
?>
--EXPECT--
int32 [2,2] [[5,7],[9,11]]
int32 [3,2] [[0,2],[4,6],[8,10]]
int32 [2,2] [[5,7],[9,11]]
int32 [4] [8,9,10,11]
int32 [] [6]
int32 [3,4] [[0,1,2,3],[4,5,6,7],[8,9,10,11]]
int32 [2,4] [[3,2,1,0],[7,6,5,4]]
int32 [3,4] [[0,1,2,3],[4,5,6,7],[8,9,10,11]]
int32 [1] [4]
int32 [4] [4,5,60,7]
ArgumentCountError: Cuda\CudaArray::slice(): pass either per-axis selectors (positional) or the named lists starts:, ends:, steps:, axes:, not both
ArgumentCountError: Cuda\CudaArray::slice(): the named form needs $starts and $ends (and optionally $steps, $axes); positional arguments are per-axis selectors
Error: Unknown named parameter $foo
TypeError: Cuda\CudaArray::slice(): Argument #1 must be an int, null, a string or a list [start, end(, step)], float given
TypeError: Cuda\CudaArray::slice(): Argument #1 must be an int, null, a string or a list [start, end(, step)], bool given
TypeError: Cuda\CudaArray::slice(): Argument #1 must be an int, null, a string or a list [start, end(, step)], Cuda\CudaArray given
Cuda\InvalidArgumentException: slice: selector 1 must be [start, end] or [start, end, step] of ints (null for a default)
Cuda\InvalidArgumentException: slice: selector 1 must be [start, end] or [start, end, step] of ints (null for a default)
Cuda\InvalidArgumentException: slice: selector 1 must be [start, end] or [start, end, step] of ints (null for a default)
Cuda\InvalidArgumentException: slice: selector 1 must be [start, end] or [start, end, step] of ints (null for a default)
Cuda\InvalidArgumentException: slice: step is 0 on axis 1
Cuda\InvalidArgumentException: slice: 3 selectors for a rank-2 array
Cuda\InvalidArgumentException: slice: index 3 is out of range for axis 0 of size 3
Cuda\InvalidArgumentException: slice: index -5 is out of range for axis 1 of size 4
Cuda\InvalidArgumentException: slice: selector 2 "1,2" must select one axis ("1:3", "::2", "-1"); a spec for several axes is the only argument
Cuda\InvalidArgumentException: slice: selector 1 "..." must select one axis ("1:3", "::2", "-1"); a spec for several axes is the only argument
Cuda\InvalidArgumentException: slice: "1:2:3:4" has more than two ':' in "1:2:3:4"
Cuda\InvalidArgumentException: slice: "x" is not an index in "x"
Cuda\InvalidArgumentException: slice: step is 0 on axis 1 in "::0"
Cuda\InvalidArgumentException: slice: index 0 is out of range for axis 0 of size 0
0 same [2,2]
1 same [4]
2 same [2]
3 same [2,2]
4 same [3,2]
