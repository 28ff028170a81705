--TEST--
pad (constant mode, ONNX pads order): values, dtypes, Cuda\Fusion agreement, slice's gradient shape, bad input
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\Fusion;
$a = new CudaArray([[1.0, 2.0], [3.0, 4.0]]);
show($a->pad([1, 0, 0, 2]));                          // one row before, two columns after
show($a->pad([0, 1, 1, 0], value: -1.5));
show((new CudaArray([1, 2], 'int32'))->pad([2, 1], 7));
show((new CudaArray([true], 'bool'))->pad([1, 1], 0));
show($a->transpose()->pad([0, 0, 0, 0]));
show(CudaArray::zeros([0, 2])->pad([1, 0, 0, 1], 3));
$f = Fusion::compile(fn($x) => $x->pad([1, 1, 0, 2], 0.5)->exp()->sum(0), [$a]);
echo json_encode($f->run($a)->toArray() === $a->pad([1, 1, 0, 2], 0.5)->exp()->sum(0)->toArray()), "\n";
throws(fn() => $a->pad([1, 2, 3]));
throws(fn() => $a->pad([1, -1, 0, 0]));
throws(fn() => $a->pad([1, 1.5, 0, 0]));
throws(fn() => $a->pad([0, 0, 0, 0], NAN));
throws(fn() => $a->pad([0, 0, 0, 0], 'x'));
?>
--EXPECT--
float32 [3,4] [[0.0,0.0,0.0,0.0],[1.0,2.0,0.0,0.0],[3.0,4.0,0.0,0.0]]
float32 [3,3] [[-1.5,1.0,2.0],[-1.5,3.0,4.0],[-1.5,-1.5,-1.5]]
int32 [5] [7,7,1,2,7]
bool [3] [false,true,false]
float32 [2,2] [[1.0,3.0],[2.0,4.0]]
float32 [1,3] [[3.0,3.0,3.0]]
true
Cuda\InvalidArgumentException: pad: $pads has 3 entries for rank 2 (all begins, then all ends: 4)
Cuda\InvalidArgumentException: pad: $pads[1] must be an integer from 0 to 2^31-1
Cuda\InvalidArgumentException: pad: $pads[1] must be an integer from 0 to 2^31-1
Cuda\InvalidArgumentException: pad: $value must be a finite number
TypeError: Cuda\CudaArray::pad(): Argument #2 ($value) must be of type int|float, string given
