--TEST--
Eager composite ops planned as one graph (runtime/php/eager_plan.c; GTC_EAGER_PLAN=all also plans on the CPU backend): the same values as op by op, the same errors, autograd and tracing untouched, more shapes than the plan cache holds
--ENV--
GTC_EAGER_PLAN=all
--FILE--
<?php
use Cuda\CudaArray;

// op by op: an operand with gradient history is never planned (autograd records primitives)
function op_by_op(CudaArray $x): CudaArray { return ($x + 0)->requiresGrad(); }
function close(CudaArray $a, CudaArray $b): string {
    if ($a->getShape() !== $b->getShape()) return 'shape ' . json_encode($a->getShape()) . ' vs ' . json_encode($b->getShape());
    $d = $a->subtract($b)->abs()->max()->item();
    $s = max(1e-30, $b->abs()->max()->item());
    return $d <= 1e-5 * $s ? 'ok' : "differ by $d (scale $s)";
}
$x = CudaArray::randn([3, 4, 9, 7], 1);
$w = CudaArray::randn([6, 2, 3, 2], 2);
$b = CudaArray::randn([6], 3);
$cases = [
    'conv2d group 2, strides, pads' => fn($x) => $x->conv2d($w, $b, strides: [2, 1], pads: [1, 0, 1, 1], group: 2),
    'conv2d dilated, no bias' => fn($x) => $x->conv2d(CudaArray::randn([5, 4, 2, 2], 4), null, dilations: [2, 3]),
    'max pool' => fn($x) => $x->maxPool2d([3, 2], strides: [2, 2], pads: [1, 1, 1, 0]),
    'avg pool, real elements' => fn($x) => $x->avgPool2d([3, 3], pads: [1, 1, 1, 1]),
    'avg pool, pads counted' => fn($x) => $x->avgPool2d([3, 3], pads: [1, 1, 1, 1], countIncludePad: true),
    'softmax' => fn($x) => $x->softmax(1),
    'log softmax' => fn($x) => $x->logSoftmax(-1),
    'layer norm' => fn($x) => $x->layerNorm(CudaArray::randn([7], 5), CudaArray::randn([7], 6)),
    'gelu tanh' => fn($x) => $x->gelu('tanh'),
    'a strided view' => fn($x) => $x->slice(null, '::2')->transpose([0, 1, 3, 2])->softmax(2),
];
foreach ($cases as $name => $f) echo "$name: ", close($f($x), $f(op_by_op($x))), "\n";

// twelve shapes through one op: the cache keeps eight, the rest are planned again
$bad = 0;
for ($n = 1; $n <= 12; $n++) {
    $v = CudaArray::randn([$n, 3], 10 + $n);
    $bad += close($v->softmax(1), op_by_op($v)->softmax(1)) !== 'ok';
    $bad += close($v->softmax(1), op_by_op($v)->softmax(1)) !== 'ok'; // a hit this time
}
echo "twelve shapes, twice each: $bad differ\n";

// the same messages as op by op (what cannot plan falls back to it)
foreach ([fn($x) => $x->conv2d(CudaArray::randn([6, 3, 3, 3], 7)), fn($x) => $x->maxPool2d([20, 2])] as $f) {
    $m = [];
    foreach ([$x, op_by_op($x)] as $in) {
        try { $f($in); $m[] = 'no exception'; } catch (Cuda\Exception $e) { $m[] = get_class($e) . ': ' . $e->getMessage(); }
    }
    echo $m[0] === $m[1] ? "same error: $m[0]" : "errors differ: $m[0] | $m[1]", "\n";
}

// gradients still flow (the tape records the primitives), and a trace records them too
$g = op_by_op($x);
$g->conv2d($w, $b, group: 2)->sum()->backward();
echo "grad ", json_encode($g->grad()->getShape()), "\n";
$graph = Cuda\Fusion::compile(fn($a) => $a->maxPool2d([2, 2])->softmax(1), [$x]);
echo "traced: ", close($graph->run($x), $x->maxPool2d([2, 2])->softmax(1)), ", ", count($graph->getPlan()), " plan steps\n";
?>
--EXPECT--
conv2d group 2, strides, pads: ok
conv2d dilated, no bias: ok
max pool: ok
avg pool, real elements: ok
avg pool, pads counted: ok
softmax: ok
log softmax: ok
layer norm: ok
gelu tanh: ok
a strided view: ok
twelve shapes, twice each: 0 differ
same error: Cuda\InvalidArgumentException: conv2d: w [6,3,3,3] must have 4 input channels per group (x's 4 channels / group 1), got 3
same error: Cuda\InvalidArgumentException: max_pool2d: the kernel's height (20) is larger than the padded input's (9) in x [3,4,9,7]
grad [3,4,9,7]
traced: ok, 4 plan steps
