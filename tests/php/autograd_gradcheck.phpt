--TEST--
Autograd: central finite differences in float64 against backward() for every differentiable op the eager path records (elementwise, unary, reductions with ties, matmul with batches, views, gather/concat/pad, where/clamp, composites), eager and compiled by Cuda\Fusion
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$cache = sys_get_temp_dir() . '/gtc-autograd-gradcheck-' . getmypid();
putenv("GTC_CACHE_DIR=$cache");

/* The one harness: $f maps fresh float64 leaves to a tensor; the loss is sum(f(...) * $w) with a
 * fixed weight $w (so every output element matters). Each element of each leaf is moved by +-h
 * and the central difference is compared with the gradient backward() accumulated eagerly; the
 * same closure compiled by Cuda\Fusion (backward() in the trace) must give that gradient too. */
function gradcheck(string $name, callable $f, array $inputs, float $h = 1e-6, float $tol = 1e-6): void
{
    $leaves = array_map(fn($x) => CudaArray::fromFlatArray($x[0], $x[1], 'float64')->requiresGrad(), $inputs);
    $out = $f(...$leaves);
    $w = CudaArray::fromFlatArray(array_map(fn($i) => sin(1.7 * $i + 0.3) + 1.1, range(0, max(0, $out->getSize() - 1))), $out->getShape() ?: [], 'float64');
    ($out * $w)->sum()->backward();
    $loss = function (array $vals) use ($f, $inputs, $w) {
        $ts = [];
        foreach ($vals as $k => $v) $ts[] = CudaArray::fromFlatArray($v, $inputs[$k][1], 'float64');
        return ($f(...$ts) * $w)->sum()->item();
    };
    $worst = 0.0;
    foreach ($inputs as $k => [$flat, $shape]) {
        $g = $leaves[$k]->grad();
        if ($g === null) { echo "$name: input $k has no gradient\n"; return; }
        $gv = $g->reshape([-1])->toArray();
        for ($i = 0; $i < count($flat); $i++) {
            $plus = array_column($inputs, 0); $minus = $plus;
            $plus[$k][$i] += $h; $minus[$k][$i] -= $h;
            $fd = ($loss($plus) - $loss($minus)) / (2 * $h);
            $worst = max($worst, abs($fd - $gv[$i]) / max(1.0, abs($fd)));
        }
    }
    /* the same gradient compiled: backward() inside Fusion::compile, one plan, the same inputs */
    $compiled = Fusion::compile(function (...$xs) use ($f, $w) {
        ($f(...$xs) * $w)->sum()->backward();
        return array_map(fn($x) => $x->grad(), $xs);
    }, $leaves);
    foreach ($compiled->run(...$leaves) as $k => $c) {
        $e = $leaves[$k]->grad();
        $worst = max($worst, ($c - $e)->abs()->max()->item() / max(1.0, $e->abs()->max()->item()));
    }
    echo $name, ': ', $worst < $tol ? 'ok' : sprintf('MISMATCH %.3g', $worst), "\n";
}

function vals(int $n, float $seed, float $lo = -1.5, float $hi = 1.5): array
{
    $v = [];
    for ($i = 0; $i < $n; $i++) $v[] = $lo + ($hi - $lo) * (0.5 + 0.5 * sin(12.9898 * ($i + $seed) + 78.233 * $seed));
    return $v;
}
$a = [vals(6, 1), [2, 3]];
$b = [vals(6, 2), [2, 3]];
$row = [vals(3, 3), [1, 3]];
$pos = [vals(6, 4, 0.5, 2.0), [2, 3]];

gradcheck('add broadcast', fn($x, $y) => $x + $y, [$a, $row]);
gradcheck('sub', fn($x, $y) => $x - $y, [$a, $b]);
gradcheck('mul broadcast', fn($x, $y) => $x * $y, [$a, $row]);
gradcheck('div', fn($x, $y) => $x / $y, [$a, $pos]);
gradcheck('pow', fn($x, $y) => $x ** $y, [$pos, $b]);
gradcheck('pow const', fn($x) => $x ** 3, [$a]);
gradcheck('maximum', fn($x, $y) => $x->maximum($y), [$a, $b]);
gradcheck('minimum', fn($x, $y) => $x->minimum($y), [$a, $b]);
gradcheck('scalars', fn($x) => 2.5 - $x * 3 + 1 / ($x * $x + 1), [$a]);
foreach (['neg', 'abs', 'exp', 'sin', 'cos', 'tanh', 'erf', 'sigmoid', 'relu'] as $u)
    gradcheck($u, fn($x) => $x->$u(), [$a]);
foreach (['log', 'sqrt', 'rsqrt', 'tan'] as $u)
    gradcheck($u, fn($x) => $x->$u(), [[vals(6, 5, 0.3, 1.2), [2, 3]]]);
gradcheck('sum axis', fn($x) => $x->sum(1), [$a]);
gradcheck('sum keepdims', fn($x) => $x->sum(0, true) * $x, [$a]);
gradcheck('mean', fn($x) => $x->mean([0, 1]), [$a]);
gradcheck('mean axis', fn($x) => $x->mean(0), [$a]);
gradcheck('max axis', fn($x) => $x->max(1), [$a]);
gradcheck('min', fn($x) => $x->min(), [$a]);
gradcheck('prod', fn($x) => $x->prod(1), [$pos]);
gradcheck('var std', fn($x) => $x->var(1)->sum() + $x->std(0, 1), [$a]);
gradcheck('matmul', fn($x, $y) => $x->matmul($y), [$a, [vals(12, 6), [3, 4]]]);
gradcheck('matmul batched broadcast', fn($x, $y) => $x->matmul($y), [[vals(12, 7), [2, 2, 3]], [vals(6, 8), [3, 2]]]);
gradcheck('matmul vector', fn($x, $y) => $x->matmul($y), [$a, [vals(3, 9), [3]]]);
gradcheck('reshape', fn($x) => $x->reshape([3, 2]) * CudaArray::arange(6, dtype: 'float64')->reshape([3, 2]), [$a]);
gradcheck('transpose', fn($x, $y) => $x->transpose()->matmul($y), [$a, $b]);
gradcheck('transpose perm', fn($x) => $x->reshape([1, 2, 3])->transpose([2, 0, 1]) * CudaArray::arange(6, dtype: 'float64')->reshape([3, 1, 2]), [$a]);
gradcheck('broadcastTo', fn($x) => $x->broadcastTo([4, 3]) * CudaArray::arange(12, dtype: 'float64')->reshape([4, 3]), [$row]);
gradcheck('squeeze unsqueeze', fn($x) => $x->squeeze(0)->unsqueeze(1) * CudaArray::arange(3, dtype: 'float64')->reshape([3, 1]), [$row]);
gradcheck('slice', fn($x) => $x->slice([0, 2], [1, 3]), [[vals(12, 10), [3, 4]]]);
gradcheck('index', fn($x) => $x(1), [[vals(12, 12), [3, 4]]]);
gradcheck('gather', fn($x) => $x->gather(CudaArray::fromFlatArray([2, 0, 2, 1], [4], 'int64'), 0), [[vals(12, 13), [3, 4]]]);
gradcheck('take axis 1', fn($x) => $x->take(CudaArray::fromFlatArray([3, 3, 0], [3], 'int64'), 1), [[vals(12, 14), [3, 4]]]);
gradcheck('concat', fn($x, $y) => $x->concat([$y, $x], 0), [$a, $row]);
gradcheck('pad', fn($x) => $x->pad([1, 2, 0, 1], 0.5), [$a]);
gradcheck('where', fn($x, $y) => CudaArray::where($x->gt(0), $x * $y, $y->exp()), [$a, $b]);
gradcheck('clamp', fn($x) => $x->clamp(-0.6, 0.7), [$a]);
gradcheck('clamp tensors', fn($x, $lo) => $x->clamp($lo, 1.0), [$a, [[-0.5, 0.2, -1.0], [1, 3]]]);
gradcheck('astype', fn($x) => $x->astype('float32')->astype('float64') * 1.0, [$a], 1e-3, 1e-4);
gradcheck('softmax', fn($x) => $x->softmax(1), [$a]);
gradcheck('logSoftmax', fn($x) => $x->logSoftmax(0), [$a]);
gradcheck('layerNorm', fn($x, $s, $c) => $x->layerNorm($s, $c), [$a, [vals(3, 15), [3]], [vals(3, 16), [3]]]);
gradcheck('gelu erf', fn($x) => $x->gelu(), [$a]);
gradcheck('gelu tanh', fn($x) => $x->gelu('tanh'), [$a]);
gradcheck('crossEntropy', fn($x) => $x->crossEntropy(CudaArray::fromFlatArray([2, 0], [2], 'int64')), [$a]);
// convolution and pooling (composites of pad, strided slices, concat, matmul, maximum chains);
// the max pool's input has no ties (distinct values), where a difference quotient is exact
$img = [vals(2 * 2 * 5 * 4, 19), [2, 2, 5, 4]];
gradcheck('conv2d strides pads bias', fn($x, $k, $c) => $x->conv2d($k, $c, strides: [2, 1], pads: [1, 0, 1, 1]),
          [$img, [vals(3 * 2 * 3 * 2, 20), [3, 2, 3, 2]], [vals(3, 21), [3]]]);
gradcheck('conv2d group dilation', fn($x, $k) => $x->conv2d($k, null, dilations: [2, 1], group: 2),
          [$img, [vals(4 * 1 * 2 * 2, 22), [4, 1, 2, 2]]]);
gradcheck('maxPool2d', fn($x) => $x->maxPool2d([2, 2], strides: [1, 2], pads: [1, 0, 0, 0]),
          [[array_map(fn($i) => sin(0.37 * $i * $i + $i), range(0, 79)), [2, 2, 5, 4]]]);
gradcheck('avgPool2d', fn($x) => $x->avgPool2d([3, 2], pads: [1, 1, 1, 1]), [$img]);
gradcheck('avgPool2d pads counted', fn($x) => $x->avgPool2d([3, 2], pads: [1, 1, 1, 1], countIncludePad: true), [$img]);
gradcheck('strided slice', fn($x) => $x->slice(null, '1::2'), [$a]);
gradcheck('reversed slices', fn($x) => $x->slice('::-1', '2::-2'), [$a]);
gradcheck('mlp', fn($x, $w, $c) => $x->matmul($w)->add($c)->relu()->sum(1)->mean(), [$a, [vals(12, 17), [3, 4]], [vals(4, 18), [4]]]);

/* ties: the maximum's gradient is split among the tied elements (not a difference quotient) */
$t = CudaArray::fromFlatArray([2, 5, 5, 1, 1, 1], [2, 3], 'float64')->requiresGrad();
$t->max(1)->sum()->backward();
echo json_encode($t->grad()->toArray()), "\n";
$t->zeroGrad();
$t->min()->backward();
echo json_encode($t->grad()->toArray()), "\n";
$m = CudaArray::fromFlatArray([1, 2], [2], 'float64')->requiresGrad();
$n = CudaArray::fromFlatArray([1, 0], [2], 'float64')->requiresGrad();
$m->maximum($n)->sum()->backward();
echo json_encode($m->grad()->toArray()), ' ', json_encode($n->grad()->toArray()), "\n";
exec('rm -rf ' . escapeshellarg($cache));
?>
--EXPECT--
add broadcast: ok
sub: ok
mul broadcast: ok
div: ok
pow: ok
pow const: ok
maximum: ok
minimum: ok
scalars: ok
neg: ok
abs: ok
exp: ok
sin: ok
cos: ok
tanh: ok
erf: ok
sigmoid: ok
relu: ok
log: ok
sqrt: ok
rsqrt: ok
tan: ok
sum axis: ok
sum keepdims: ok
mean: ok
mean axis: ok
max axis: ok
min: ok
prod: ok
var std: ok
matmul: ok
matmul batched broadcast: ok
matmul vector: ok
reshape: ok
transpose: ok
transpose perm: ok
broadcastTo: ok
squeeze unsqueeze: ok
slice: ok
index: ok
gather: ok
take axis 1: ok
concat: ok
pad: ok
where: ok
clamp: ok
clamp tensors: ok
astype: ok
softmax: ok
logSoftmax: ok
layerNorm: ok
gelu erf: ok
gelu tanh: ok
crossEntropy: ok
conv2d strides pads bias: ok
conv2d group dilation: ok
maxPool2d: ok
avgPool2d: ok
avgPool2d pads counted: ok
strided slice: ok
reversed slices: ok
mlp: ok
[[0,0.5,0.5],[0.3333333333333333,0.3333333333333333,0.3333333333333333]]
[[0,0,0],[0.3333333333333333,0.3333333333333333,0.3333333333333333]]
[0.5,1] [0.5,0]
