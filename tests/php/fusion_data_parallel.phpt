--TEST--
Cuda\Fusion::compile(dataParallel: true): backward()'s parameter gradients averaged across ranks by an all-reduce step; at a world of 1 on the CPU the parameters are bit-identical to the plain plan's; a closure without gradients is refused
--INI--
gtc.device=cpu
--ENV--
GTC_DEVICE=cpu
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\{CudaArray, Fusion, Distributed};

function step(bool $dp, array &$params): Cuda\FusionGraph {
    [$w, $b] = $params;
    $fn = function ($x, $lr) use ($w, $b) {
        $loss = (($x->matmul($w) + $b)->tanh() ** 2)->mean();
        $loss->backward();
        return ['loss' => $loss, 'w' => $w - $lr * $w->grad(), 'b' => $b - $lr * $b->grad()];
    };
    return Fusion::compile($fn, ['x' => [[16, 8], 'float32'], 'lr' => 'float32'], $dp ? 'dp' : 'plain',
                           ['w' => 'captured_0', 'b' => 'captured_1'], dataParallel: $dp);
}
$pa = [CudaArray::randn([8, 4], seed: 1)->requiresGrad(), CudaArray::zeros([4])->requiresGrad()];
$pb = [CudaArray::randn([8, 4], seed: 1)->requiresGrad(), CudaArray::zeros([4])->requiresGrad()];
$plain = step(false, $pa);
$dp = step(true, $pb);
foreach ($dp->getPlan() as $s)
    if ($s['kind'] === 'allreduce') echo "allreduce of ", implode(',', $s['reads']), "\n";
echo count(array_filter($plain->getPlan(), fn($s) => $s['kind'] === 'allreduce')), " in the plain plan\n";
Distributed::init();
for ($i = 0; $i < 5; $i++) {
    $x = CudaArray::randn([16, 8], seed: 10 + $i);
    $la = $plain->run($x, 0.1)['loss']->item();
    $lb = $dp->run($x, 0.1)['loss']->item();
    if ($la !== $lb) echo "step $i: loss $la against $lb\n";
}
var_dump($pa[0]->toBuffer() === $pb[0]->toBuffer(), $pa[1]->toBuffer() === $pb[1]->toBuffer());
var_dump($pa[0]->toBuffer() !== CudaArray::randn([8, 4], seed: 1)->toBuffer()); // it trained
throws(fn() => Fusion::compile(fn($x) => $x * 2, ['x' => [[4], 'float32']], dataParallel: true));
?>
--EXPECT--
allreduce of grad_captured_1,grad_captured_0
0 in the plain plan
bool(true)
bool(true)
bool(true)
Cuda\CompilationException: cannot compile the traced graph: fusion: --data-parallel: graph fusion has no parameter gradients to average (it needs a "train" section, or backward() in a traced closure, whose parameters are updated in place)
