--TEST--
->concat (php-gpu-tensors' method: this array first): axes, promotion, views, empty operands, Cuda\Fusion agreement and bad input
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\Fusion;
$a = new CudaArray([[1.0, 2.0], [3.0, 4.0]]);
$b = new CudaArray([[5.0], [6.0]]);
show($a->concat([$b], axis: 1));
show($a->concat([new CudaArray([[7, 8]], 'int32')]));                       // int32 promotes to float32
show((new CudaArray([1, 2], 'int64'))->concat([new CudaArray([true], 'bool')]));
show((new CudaArray([true], 'bool'))->concat([new CudaArray([false], 'bool')]));  // bool stays bool
show($a->transpose()->concat([$a->slice(starts: [0], ends: [1])], -2));                  // strided views
show($a->concat([CudaArray::zeros([2, 0])], 1));
show(CudaArray::zeros([0, 2])->concat([$a]));                               // axis null: 0
show($b->concat([]));
$f = Fusion::compile(fn($x, $y) => $x->concat([$y * 2, $x], axis: 1)->relu(), [$a, $b]);
echo json_encode($f->run($a, $b)->toArray() === $a->concat([$b * 2, $a], axis: 1)->relu()->toArray()), "\n";
throws(fn() => $a->concat([$b]));
throws(fn() => $a->concat([$b], 2));
throws(fn() => $a->concat([1.5]));
throws(fn() => CudaArray::full([], 1.0)->concat([]));
throws(fn() => $b->concat(array_fill(0, 16, $b)));
?>
--EXPECT--
float32 [2,3] [[1.0,2.0,5.0],[3.0,4.0,6.0]]
float32 [3,2] [[1.0,2.0],[3.0,4.0],[7.0,8.0]]
int64 [3] [1,2,1]
bool [2] [true,false]
float32 [3,2] [[1.0,3.0],[2.0,4.0],[1.0,2.0]]
float32 [2,2] [[1.0,2.0],[3.0,4.0]]
float32 [2,2] [[1.0,2.0],[3.0,4.0]]
float32 [2,1] [[5.0],[6.0]]
true
Cuda\InvalidArgumentException: concat: input 1 has shape [2,1], which does not match input 0's [2,2] outside axis 0
Cuda\InvalidArgumentException: concat: axis 2 is out of range for rank 2
TypeError: Cuda\CudaArray::concat(): Argument #1 ($tensors) must contain only Cuda\CudaArray, float given at position 0
Cuda\InvalidArgumentException: concat: operands must have rank >= 1, got a rank-0 tensor
Cuda\InvalidArgumentException: concat: joins this array and at most 15 others, got 16
