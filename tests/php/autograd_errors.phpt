--TEST--
Eager autograd errors: backward() on a non-scalar without a gradient, a gradient of the wrong shape or dtype or class, a tensor with no history, integer tensors, an op with no gradient on the path (named), placeholders outside tracing
--FILE--
<?php
use Cuda\CudaArray;
function show(callable $f): void
{
    try {
        $f();
        echo "no exception\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
$x = CudaArray::fromFlatArray([1, 2, 3, 4], [2, 2])->requiresGrad();
$y = $x * $x;
show(fn() => $y->backward());
show(fn() => $y->backward(CudaArray::ones([4])));
show(fn() => $y->backward(CudaArray::ones([2, 2], 'float64')));
show(fn() => $y->backward(CudaArray::ones([1])));
show(fn() => $y->backward(new ArrayObject([])));
show(fn() => CudaArray::ones([2])->sum()->backward());
show(fn() => CudaArray::fromFlatArray([1, 2], [2], 'int64')->requiresGrad());
show(fn() => CudaArray::fromFlatArray([true], [1], 'bool')->requiresGrad());
show(fn() => $x->argMax()->backward());
show(fn() => $x->slice(':', '::2')->sum()->backward()); // a step over one element: it has a gradient
show(fn() => CudaArray::fromFlatArray([1, 2, 3, 4, 5], [5])->requiresGrad()->slice('::-1')->gt(2)->astype('float32')->sum()->backward());
show(fn() => $x->sum()->backward(CudaArray::ones([])));
echo json_encode($x->grad()->toArray()), "\n";
// nothing half-done: a failed backward() leaves earlier gradients as they were
$x->zeroGrad();
show(fn() => CudaArray::fromFlatArray([1, 2, 3, 4, 5], [5])->requiresGrad()->slice('::-1')->gt(2)->astype('float32')->sum()->backward());
var_dump($x->grad());
// the error names the op with no gradient
$k = CudaArray::fromFlatArray([0.5, 1.5], [2])->requiresGrad();
show(fn() => ($k * 2)->floor()->astype('int64', 'unsafe')->astype('float32')->sum()->backward());
// a history 60,000 ops deep: backward() evaluates it without recursion; a tape full of live
// history refuses the next op with advice, and forgets it once the tensors are dropped
$deep = CudaArray::fromFlatArray([1, 2], [2])->requiresGrad();
$y = $deep;
for ($i = 0; $i < 30000; $i++) $y = $y * 1.0 + 0.0;
$y->sum()->backward();
echo json_encode($deep->grad()->toArray()), "\n";
show(function () use (&$y) { for ($i = 0; $i < 60000; $i++) $y = $y + 0.0; });
unset($y);
$deep->zeroGrad();
($deep * 3)->sum()->backward();
echo json_encode($deep->grad()->toArray()), "\n";
?>
--EXPECT--
Cuda\InvalidArgumentException: backward(): the tensor has shape [2,2], not a single value: pass the gradient of the loss with respect to it (a tensor of shape [2,2])
Cuda\InvalidArgumentException: backward(): the gradient is float32 [4], the tensor float32 [2,2]: they must match
Cuda\InvalidArgumentException: backward(): the gradient is float64 [2,2], the tensor float32 [2,2]: they must match
Cuda\InvalidArgumentException: backward(): the gradient is float32 [1], the tensor float32 [2,2]: they must match
TypeError: Cuda\CudaArray::backward(): Argument #1 ($gradient) must be of type ?Cuda\CudaArray, ArrayObject given
Cuda\RuntimeException: backward(): the tensor has no gradient history: no tensor it is computed from requires gradients (call requiresGrad() on the leaves first)
Cuda\InvalidArgumentException: requiresGrad(): only floating-point tensors can require gradients, this one is int64
Cuda\InvalidArgumentException: requiresGrad(): only floating-point tensors can require gradients, this one is bool
Cuda\InvalidArgumentException: backward(): int64 tensors have no gradient
no exception
Cuda\RuntimeException: backward(): tape "gt_8" (gt): lies on a path from a parameter to the loss "sum_10", but a comparison gives bool, which has no gradient
no exception
[[2,1],[2,1]]
Cuda\RuntimeException: backward(): tape "gt_16" (gt): lies on a path from a parameter to the loss "sum_18", but a comparison gives bool, which has no gradient
NULL
Cuda\RuntimeException: backward(): tape "cast_22" (cast): lies on a path from a parameter to the loss "sum_24", but its result is not a float, so it has no gradient
[1,1]
Cuda\RuntimeException: the autograd tape is full (100000 ops): the histories of live tensors are that long; detach() a tensor (or drop it) to let the tape forget its history
[3,3]
