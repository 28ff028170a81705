--TEST--
conv2d, maxPool2d, avgPool2d and Cuda\NN: bad arguments throw Cuda\InvalidArgumentException with clear messages (never a crash); NN traces in Cuda\Fusion
--FILE--
<?php
use Cuda\NN;
use Cuda\CudaArray as A;
function tryit($name, callable $fn) { try { $fn(); echo "$name: no error\n"; } catch (Throwable $e) { echo "$name: ", get_class($e), ": ", $e->getMessage(), "\n"; } }
$x = A::ones([1, 2, 4, 4]); $w = A::ones([2, 2, 2, 2]);
var_dump(NN::isAvailable());
tryit('softmax f64', fn() => NN::softmax(A::ones([1, 2, 4, 4], 'float64')));
tryit('softmax rank2', fn() => NN::softmax(A::ones([2, 4])));
tryit('softmax slice', fn() => NN::softmax($x->slice(':, :, ::2, :')));
tryit('stride0', fn() => NN::conv2d($x, $w, stride: [0, 1]));
tryit('stride keys', fn() => NN::conv2d($x, $w, stride: ['h' => 1, 'w' => 1]));
tryit('bias', fn() => NN::conv2d($x, $w, bias: A::ones([1])));
tryit('groups', fn() => NN::conv2d($x, $w, groups: 2));
tryit('mode', fn() => NN::pool2d($x, [2, 2], mode: 'sum'));
tryit('padding', fn() => NN::pool2d($x, [2, 2], padding: [2, 0]));
tryit('huge', fn() => NN::pool2d($x, [PHP_INT_MAX, 2]));
echo 'traced: ', json_encode(Cuda\Fusion::run(fn() => NN::softmax($x)->sum())->toArray()), "\n";
tryit('conv int', fn() => NN::conv2d(A::ones([1, 2, 4, 4], 'int32'), $w));
tryit('method pads keys', fn() => $x->conv2d($w, pads: [1, 1, 1]));
tryit('method pads neg', fn() => $x->conv2d($w, pads: [1, -1, 1, 1]));
tryit('method group0', fn() => $x->conv2d($w, group: 0));
tryit('pool strings', fn() => $x->maxPool2d(['a', 2]));
tryit('pool rank3', fn() => A::ones([2, 4, 4])->avgPool2d([2, 2]));
tryit('w rank 3', fn() => $x->conv2d(A::ones([2, 2, 2])));
tryit('x not CudaArray', fn() => NN::conv2d([1], $w));
tryit('dilation 3', fn() => NN::conv2d($x, $w, dilation: [1, 2, 3]));
tryit('kernel 0', fn() => $x->avgPool2d([0, 2]));
tryit('stride float', fn() => $x->maxPool2d([2, 2], [1.5, 1]));
tryit('group huge', fn() => $x->conv2d($w, group: PHP_INT_MAX));
tryit('pad huge', fn() => $x->conv2d($w, pads: [PHP_INT_MAX, 0, 0, 0]));
tryit('bias f32 of ints', fn() => $x->conv2d($w, A::ones([2], 'int64')));
tryit('kernel > input', fn() => $x->conv2d(A::ones([1, 2, 5, 1])));
echo "done\n";

?>
--EXPECT--
bool(true)
softmax f64: no error
softmax rank2: Cuda\InvalidArgumentException: Cuda\NN::softmax(): Argument #1 ($input) must have rank 4 (N, C, H, W), got rank 2
softmax slice: no error
stride0: Cuda\InvalidArgumentException: conv2d: "strides" must be integers from 1 to 2^31-1, got 0
stride keys: Cuda\InvalidArgumentException: Cuda\NN::conv2d(): Argument #4 ($stride) must be a list of 2 integers (height, width)
bias: Cuda\InvalidArgumentException: conv2d: b must have shape [2] (one per filter of w [2,2,2,2]), got [1]
groups: Cuda\InvalidArgumentException: conv2d: w [2,2,2,2] must have 1 input channels per group (x's 2 channels / group 2), got 2
mode: Cuda\InvalidArgumentException: Cuda\NN::pool2d(): Argument #5 ($mode) must be 'max' or 'average'
padding: Cuda\InvalidArgumentException: max_pool2d: pads must be smaller than the kernel (a window of padding only has no value), got 2 and 2 for a kernel height of 2
huge: Cuda\InvalidArgumentException: max_pool2d: the kernel's height 9223372036854775807 is out of range (1 to 1024)
traced: [16]
conv int: Cuda\InvalidArgumentException: conv2d: x must be float32 or float64, got int32
method pads keys: Cuda\InvalidArgumentException: Cuda\CudaArray::conv2d(): Argument #4 ($pads) must be a list of 4 integers (top, left, bottom, right)
method pads neg: Cuda\InvalidArgumentException: conv2d: "pads" must be integers from 0 to 2^31-1, got -1
method group0: Cuda\InvalidArgumentException: Cuda\CudaArray::conv2d(): Argument #6 ($group) must be from 1 to 2^31-1, 0 given
pool strings: Cuda\InvalidArgumentException: Cuda\CudaArray::maxPool2d(): Argument #1 ($kernel) must contain only integers, string given
pool rank3: Cuda\InvalidArgumentException: avg_pool2d: x must have rank 4 (N, C, H, W), got [2,4,4]
w rank 3: Cuda\InvalidArgumentException: conv2d: w must have rank 4 (M, C/group, kH, kW), got [2,2,2]
x not CudaArray: TypeError: Cuda\NN::conv2d(): Argument #1 ($input) must be of type Cuda\CudaArray, array given
dilation 3: Cuda\InvalidArgumentException: Cuda\NN::conv2d(): Argument #6 ($dilation) must be a list of 2 integers (height, width)
kernel 0: Cuda\InvalidArgumentException: avg_pool2d: the kernel's height 0 is out of range (1 to 1024)
stride float: Cuda\InvalidArgumentException: Cuda\CudaArray::maxPool2d(): Argument #2 ($strides) must contain only integers, float given
group huge: Cuda\InvalidArgumentException: Cuda\CudaArray::conv2d(): Argument #6 ($group) must be from 1 to 2^31-1, 9223372036854775807 given
pad huge: Cuda\InvalidArgumentException: conv2d: "pads" must be integers from 0 to 2^31-1, got 9223372036854775807
bias f32 of ints: Cuda\InvalidArgumentException: conv2d: b must be float32 or float64, got int64
kernel > input: Cuda\InvalidArgumentException: conv2d: the kernel's height (5 with dilation 1) is larger than the padded input's (4) in x [1,2,4,4]
done
