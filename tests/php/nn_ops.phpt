--TEST--
dropout and the composite methods: seeds, Fusion == eager (same bits), bad arguments
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$x = CudaArray::rand([8, 33], seed: 3)->subtract(0.5)->multiply(6.0);
// dropout: an int seed or a rank-0 int64 array; the same bits eager and compiled, per seed
$f = Fusion::compile(fn($x, $s) => $x->dropout(0.4, $s), ['x' => $x, 's' => 'int64']);
foreach ([0, 1, 99, (1 << 40) + 1] as $seed) {
    $e = $x->dropout(0.4, $seed)->toArray();
    $c = $f->run(x: $x, s: CudaArray::full([], $seed, 'int64'))->toArray();
    $zeros = count(array_filter(array_merge(...$e), fn($v) => $v == 0.0));
    printf("seed %d: same %s, dropped %s\n", $seed, $e === $c ? 'yes' : 'no', $zeros > 60 && $zeros < 150 ? 'about 40%' : $zeros);
}
echo $x->dropout(0.4, 5)->toArray() === $x->dropout(0.4, 5)->toArray() ? "repeatable\n" : "differs\n";
echo $x->dropout(0.4, 5)->toArray() !== $x->dropout(0.4, 6)->toArray() ? "seeds differ\n" : "same\n";
echo $x->dropout(0.0, 5)->toArray() === $x->toArray() ? "ratio 0 is the identity\n" : "not identity\n";
// composites: eager and Fusion run the same primitives
$s = CudaArray::rand([33], seed: 4);
$t = new CudaArray([0, 3, 32, 1, 1, 0, 5, 7], dtype: 'int64');
$fns = [
    'softmax' => fn($x) => $x->softmax(),
    'logSoftmax' => fn($x) => $x->logSoftmax(0),
    'layerNorm' => fn($x) => $x->layerNorm($s, 0.5, epsilon: 1e-3),
    'gelu' => fn($x) => $x->gelu(),
    'gelu tanh' => fn($x) => $x->gelu('tanh'),
    'crossEntropy' => fn($x) => $x->crossEntropy($t),
];
foreach ($fns as $name => $fn) {
    $e = $fn($x);
    $c = Fusion::compile($fn, ['x' => $x])->run(x: $x);
    $d = $e->subtract($c)->abs()->max()->item();
    printf("%s: %s %s\n", $name, json_encode($e->getShape()), $d <= 1e-6 ? 'agrees' : "differs by $d");
}
echo json_encode((new CudaArray([[1, 2, 3]], dtype: 'int32'))->softmax()->dtype()), "\n";
$bad = [
    fn() => $x->dropout(1.0, 1),
    fn() => $x->dropout(-0.1, 1),
    fn() => $x->dropout(0.5, PHP_INT_MAX),
    fn() => $x->dropout(0.5, CudaArray::full([], 1, 'int32')),
    fn() => $x->dropout(0.5, 'a'),
    fn() => $t->dropout(0.5, 1),
    fn() => $x->softmax(2),
    fn() => $x->softmax(99),
    fn() => $x->layerNorm($t, 0),
    fn() => $x->layerNorm(1, 0, epsilon: -1.0),
    fn() => $x->gelu('fast'),
    fn() => $x->crossEntropy(new CudaArray([1, 2], dtype: 'int64')),
    fn() => $x->crossEntropy(new CudaArray([true, false, true, false, true, false, true, false], dtype: 'bool')),
];
foreach ($bad as $b) {
    try { $b(); echo "no error\n"; }
    catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
?>
--EXPECT--
seed 0: same yes, dropped about 40%
seed 1: same yes, dropped about 40%
seed 99: same yes, dropped about 40%
seed 1099511627777: same yes, dropped about 40%
repeatable
seeds differ
ratio 0 is the identity
softmax: [8,33] agrees
logSoftmax: [8,33] agrees
layerNorm: [8,33] agrees
gelu: [8,33] agrees
gelu tanh: [8,33] agrees
crossEntropy: [] agrees
"float32"
Cuda\InvalidArgumentException: dropout: $ratio must be at least 0 and less than 1
Cuda\InvalidArgumentException: dropout: $ratio must be at least 0 and less than 1
Cuda\InvalidArgumentException: dropout: $seed must be from -2^53 to 2^53
Cuda\InvalidArgumentException: dropout: seed must be a rank-0 int64 tensor (a new one each step), got int32 []
TypeError: Cuda\CudaArray::dropout(): Argument #2 ($seed) must be of type Cuda\CudaArray|int, string given
Cuda\InvalidArgumentException: dropout: x must be float32 or float64, got int64
Cuda\InvalidArgumentException: softmax: axis 2 is out of range for rank 2
Cuda\InvalidArgumentException: softmax: axis 99 is out of range for rank 2
Cuda\InvalidArgumentException: layer_norm: scale must have shape [33] (x's shape from axis 1), got [8]
Cuda\InvalidArgumentException: layer_norm: epsilon must be a finite number >= 0
Cuda\InvalidArgumentException: gelu: $approximate must be 'none' or 'tanh'
Cuda\InvalidArgumentException: cross_entropy: target (class indices) must have shape [8] (logits without axis 1), got [2]
Cuda\InvalidArgumentException: cross_entropy: target must be class indices (an integer dtype) or probabilities (float32 or float64), got bool
