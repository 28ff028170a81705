<?php
/* tests/e2e/dynamic.php: one compiled model for every batch size (symbolic dimensions,
 * docs/graph-format.md §3.1); run by tests/e2e/run.sh as
 *
 *   php -n -d extension=gtc.so -d extension=MLP_DYN.so dynamic.php WORKDIR [BACKEND]
 *
 * over tests/e2e/dynamic/mlp_dyn.json ("batch" up to 4096: an MLP's logits and softmax, the
 * cross-entropy mean over the batch, a mean and a max over the batch axis, a Gram matrix whose
 * GEMM contracts over the batch, a sum of everything). The same object runs batches of 1, 7, 256
 * and 4096 (and 7 again), each against a float64 NumPy reference (tests/e2e/dynamic_ref.py);
 * inputs() and outputs() name the symbol; sizes that conflict between inputs, beyond the bound and
 * zero are refused with the input and dimension named; 3,000 runs over changing sizes allocate
 * nothing but their outputs (CudaArray::memoryInfo()'s allocated bytes come back to where they
 * were). Prints "ok - ..." lines, then "N passed, N failed". */
declare(strict_types=1);

require_once __DIR__ . '/check.inc';

use Cuda\CudaArray;

$work = $argv[1] ?? '';
$backend = $argv[2] ?? ''; // tests/gpu/symbolic.sh: 'cuda-graph', the backend every run must take
if (!class_exists('MlpDyn') || !is_dir($work)) {
    echo "not ok - class MlpDyn and directory $work\n0 passed, 1 failed\n";
    exit(1);
}

function thrown(callable $fn): string {
    try {
        $fn();
    } catch (Throwable $e) {
        return get_class($e) . ': ' . $e->getMessage();
    }
    return 'no exception';
}

function expect_throw(callable $fn, string $want, string $what): void {
    $got = thrown($fn);
    check($got === $want, $what, "got: $got; want: $want");
}

$m = new MlpDyn();
$p = ['w1' => CudaArray::randn([8, 16], seed: 3)->multiply(0.5), 'b1' => CudaArray::randn([16], seed: 4)->multiply(0.1),
      'w2' => CudaArray::randn([16, 3], seed: 5)->multiply(0.5), 'b2' => CudaArray::randn([3], seed: 6)->multiply(0.1)];
$in = $m->inputs();
check($in['x']['shape'] === ['batch', 8] && $in['y']['shape'] === ['batch', 3] && $in['w1']['shape'] === [8, 16],
      'inputs() names the symbolic axis', json_encode($in));
check($m->outputs()['logits']['shape'] === ['batch', 3] && $m->outputs()['gram']['shape'] === [16, 16],
      'outputs() too', json_encode($m->outputs()));
$data = function (int $b, int $seed): array {
    return ['x' => CudaArray::randn([$b, 8], seed: $seed),
            'y' => CudaArray::randint(0, 3, [$b], seed: $seed + 1)->oneHot(3)];
};

$ref = __DIR__ . '/dynamic_ref.py';
foreach ([1, 7, 256, 4096, 7] as $n => $b) {
    $d = $data($b, 10 + $n);
    $out = $m->run(...($d + $p));
    check($out['logits']->getShape() === [$b, 3] && $out['probs']->getShape() === [$b, 3]
          && $out['loss']->getShape() === [] && $out['gram']->getShape() === [16, 16],
          "batch $b: output shapes follow the batch");
    CudaArray::saveNpz("$work/in$b.npz", $d + $p);
    $log = [];
    exec(escapeshellarg(getenv('PYTHON') ?: '/usr/bin/python3') . ' ' . escapeshellarg($ref) . ' ' . escapeshellarg("$work/in$b.npz") . ' '
         . escapeshellarg("$work/ref$b.npz") . ' 2>&1', $log, $rc);
    if (!check($rc === 0, "batch $b: the float64 NumPy reference ran", implode("\n", $log))) continue;
    $r = CudaArray::loadNpz("$work/ref$b.npz");
    $worst = 0.0;
    $where = '';
    foreach (['logits', 'probs', 'loss', 'hmean', 'hmax', 'gram', 'ysum'] as $k) {
        $e = rel_err($out[$k], $r[$k]);
        if ($e > $worst) [$worst, $where] = [$e, $k];
    }
    check($worst <= 1e-5, sprintf('batch %d: every output against float64 NumPy (worst rel err %.2e%s)', $b, $worst,
                                  $where ? ", $where" : ''));
}
check($m->getStats()['replays'] === 5, 'one object, one plan: 5 runs', json_encode($m->getStats()['replays']));

// ---- refusals: the input and the dimension named
$d7 = $data(7, 1);
$d8 = $data(8, 2);
expect_throw(fn() => $m->run(...(['x' => $d7['x'], 'y' => $d8['y']] + $p)),
             'Cuda\InvalidArgumentException: input "y": dimension 0 ("batch") is 8, but input "x" gave "batch" = 7',
             'sizes that conflict between inputs');
expect_throw(fn() => $m->run(...($data(4097, 3) + $p)),
             'Cuda\InvalidArgumentException: input "x": dimension 0 ("batch") is 4097; it takes 1 to 4096 (the bound the model was compiled for)',
             'beyond the bound');
expect_throw(fn() => $m->run(...(['x' => CudaArray::zeros([0, 8]), 'y' => CudaArray::zeros([0, 3])] + $p)),
             'Cuda\InvalidArgumentException: input "x": dimension 0 ("batch") is 0; it takes 1 to 4096 (the bound the model was compiled for)',
             'zero rows');
expect_throw(fn() => $m->run(...(['x' => CudaArray::zeros([7, 9]), 'y' => $d7['y']] + $p)),
             'Cuda\InvalidArgumentException: input "x": expected float32 [batch,8], got float32 [7,9]',
             'a static axis still must match');
expect_throw(fn() => $m->run(...(['x' => CudaArray::zeros([8]), 'y' => $d7['y']] + $p)),
             'Cuda\InvalidArgumentException: input "x": expected float32 [batch,8], got float32 [8]',
             'a wrong rank');
check($m->run(...($d7 + $p))['logits']->getShape() === [7, 3], 'the object runs again after the refusals');

// ---- steady state: changing sizes allocate only the outputs, which are freed with them
$sizes = [3, 100, 1, 4096, 17];
$batches = array_map(fn($b) => $data($b, $b), $sizes);
foreach ($batches as $d) $m->run(...($d + $p));
unset($out, $r);
$before = CudaArray::memoryInfo()['allocated'];
for ($i = 0; $i < 3000; $i++) {
    $out = $m->run(...($batches[$i % 5] + $p));
    unset($out);
}
$after = CudaArray::memoryInfo()['allocated'];
check($after === $before, "3,000 runs over batch sizes 1 to 4096 allocate nothing that stays ($before -> $after bytes)");

if ($backend !== '') // every run above took it (the executor is made on the first run)
    check($m->getStats()['backend'] === $backend, "the runs took the $backend backend", json_encode($m->getStats()['backend']));
echo "$passed passed, $failed failed\n";
exit($failed ? 1 : 0);
