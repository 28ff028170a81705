--TEST--
Cuda\Fusion::compile(dynamic:): one traced plan for every batch size up to the traced one (a batched product too), and its refusals
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\Fusion;
putenv('GTC_CACHE_DIR=' . sys_get_temp_dir() . '/gtc-fusion-dynamic-' . getmypid());
$f = fn($x, $y, $w) => ['h' => ($x->matmul($w) + 1)->relu(), 'm' => $x->mean(axis: 0), 's' => ($x * $y)->sum()];
$spec = ['x' => [[8, 3], 'float32'], 'y' => [[8, 3], 'float32'], 'w' => [[3, 2], 'float32']];
$g = Fusion::compile($f, $spec, 'dyn', [], false, dynamic: ['batch' => ['x', 'y']]);
echo json_encode($g->inputs()['x']), ' ', json_encode($g->outputs()['h']['shape']), "\n";
$w = CudaArray::randn([3, 2], seed: 1);
foreach ([8, 5, 1] as $b) {
    $x = CudaArray::randn([$b, 3], seed: 10 + $b);
    $y = CudaArray::randn([$b, 3], seed: 20 + $b);
    $r = $g->run($x, $y, $w);
    $e = $f($x, $y, $w); // eager
    printf("batch %d: h %s, m %s, s %s; same as eager: %s\n", $b, json_encode($r['h']->getShape()), json_encode($r['m']->getShape()),
           json_encode($r['s']->getShape()),
           var_export(fmt($r['h']->toArray(), 5) === fmt($e['h']->toArray(), 5) && fmt($r['m']->toArray(), 5) === fmt($e['m']->toArray(), 5)
                      && fmt($r['s']->item(), 4) === fmt($e['s']->item(), 4), true));
}
echo "replays: ", $g->getStats()['replays'], "\n";
$bk = $g->getStats()['backend']; // the device's compiled plan (CUDA: its kernels through NVRTC), never op by op
echo "compiled for the device: ", var_export($bk === (str_starts_with((new CudaArray([1]))->device(), 'cuda') ? 'cuda-graph' : 'cpu'), true), "\n";
// a batched product over the symbolic axis: the batch loop (CPU) or the grid's z blocks (CUDA) stop at the run's batch
$bf = fn($x, $w) => ['y' => $x->matmul($w)->tanh()];
$bg = Fusion::compile($bf, ['x' => [[6, 2, 3], 'float32'], 'w' => [[3, 4], 'float32']], 'bmm', [], false, dynamic: ['batch' => ['x']]);
$bw = CudaArray::randn([3, 4], seed: 2);
foreach ([6, 2, 1] as $b) {
    $x = CudaArray::randn([$b, 2, 3], seed: 30 + $b);
    $r = $bg->run($x, $bw)['y'];
    printf("batched matmul, batch %d: %s, same as eager: %s\n", $b, json_encode($r->getShape()),
           var_export(fmt($r->toArray(), 5) === fmt($bf($x, $bw)['y']->toArray(), 5), true));
}
echo "refusals at run time:\n";
throws(fn() => $g->run(CudaArray::zeros([9, 3]), CudaArray::zeros([9, 3]), $w));
throws(fn() => $g->run(CudaArray::zeros([4, 3]), CudaArray::zeros([5, 3]), $w));
throws(fn() => $g->run(CudaArray::zeros([0, 3]), CudaArray::zeros([0, 3]), $w));
echo "refusals at compile:\n";
throws(fn() => Fusion::compile($f, $spec, 'dyn', [], false, dynamic: ['batch' => ['nope']]));
throws(fn() => Fusion::compile($f, $spec, 'dyn', [], false, dynamic: ['batch' => [3]]));
throws(fn() => Fusion::compile($f, $spec, 'dyn', [], false, dynamic: ['1x' => ['x']]));
throws(fn() => Fusion::compile($f, $spec, 'dyn', [], false, dynamic: ['batch' => []]));
throws(fn() => Fusion::compile($f, $spec, 'dyn', [], false, dynamic: ['batch' => ['x', 'w']]));
throws(fn() => Fusion::compile($f, $spec, 'dyn', [], false, dynamic: ['batch' => ['x']]));
throws(fn() => Fusion::compile(fn($x) => $x->reshape([24]), ['x' => [[8, 3], 'float32']], 'dyn', [], false, dynamic: ['batch' => ['x']]));
echo "tracing: ", var_export(Fusion::isTracing(), true), "\n";
?>
--EXPECT--
{"dtype":"float32","shape":["batch",3]} ["batch",2]
batch 8: h [8,2], m [3], s []; same as eager: true
batch 5: h [5,2], m [3], s []; same as eager: true
batch 1: h [1,2], m [3], s []; same as eager: true
replays: 3
compiled for the device: true
batched matmul, batch 6: [6,2,4], same as eager: true
batched matmul, batch 2: [2,2,4], same as eager: true
batched matmul, batch 1: [1,2,4], same as eager: true
refusals at run time:
Cuda\InvalidArgumentException: input "x": dimension 0 ("batch") is 9; it takes 1 to 8 (the bound the model was compiled for)
Cuda\InvalidArgumentException: input "y": dimension 0 ("batch") is 5, but input "x" gave "batch" = 4
Cuda\InvalidArgumentException: input "x": dimension 0 ("batch") is 0; it takes 1 to 8 (the bound the model was compiled for)
refusals at compile:
Cuda\InvalidArgumentException: dynamic: 'batch' names "nope", which is not an input of the closure
Cuda\InvalidArgumentException: dynamic: 'batch' must list input names (strings), got int
Cuda\InvalidArgumentException: dynamic: keys are the dimensions' names (identifiers): ['batch' => ['x', 'y']]
Cuda\InvalidArgumentException: dynamic: 'batch' must map to a non-empty list of input names
Cuda\InvalidArgumentException: dynamic: input "w" cannot take 'batch' as its first axis (its size differs from the other inputs')
Cuda\InvalidArgumentException: dynamic: trace:7 "t4" (mul): axis 0 meets a symbolic dimension and the static size 8; a symbolic dimension only broadcasts with itself or 1
Cuda\InvalidArgumentException: dynamic: trace:1 "t0" (reshape): would merge or split the symbolic axis 0; reshape may change only the axes after it (input shape [<=8,3])
tracing: false