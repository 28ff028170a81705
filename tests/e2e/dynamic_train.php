<?php
/* tests/e2e/dynamic_train.php: a training step over a symbolic batch (docs/graph-format.md §3.1);
 * run by tests/e2e/run.sh as
 *
 *   php -n -d extension=gtc.so -d extension=MLP_DYN_TRAIN.so dynamic_train.php WORKDIR [BACKEND]
 *
 * over tests/e2e/dynamic/mlp_dyn_train.json ("batch" up to 512, SGD, the cross-entropy mean over
 * the batch). One object takes steps of 512, 100, 7 and 1 rows: each update (w1 b1 w2 b2 in place)
 * and loss against the float64 NumPy step of tests/e2e/dynamic_ref.py --step, whose gradient
 * divides by the rows of that step; then predict() (the forward function, symbolic too) on 300
 * rows against the reference's logits. Prints "ok - ..." lines, then "N passed, N failed". */
declare(strict_types=1);

require_once __DIR__ . '/check.inc';

use Cuda\CudaArray;

$work = $argv[1] ?? '';
$backend = $argv[2] ?? ''; // tests/gpu/symbolic.sh: 'cuda-graph', the backend every run must take
if (!class_exists('MlpDynTrain') || !is_dir($work)) {
    echo "not ok - class MlpDynTrain and directory $work\n0 passed, 1 failed\n";
    exit(1);
}
$m = new MlpDynTrain();
$p = ['w1' => CudaArray::randn([8, 16], seed: 3)->multiply(0.5), 'b1' => CudaArray::randn([16], seed: 4)->multiply(0.1),
      'w2' => CudaArray::randn([16, 3], seed: 5)->multiply(0.5), 'b2' => CudaArray::randn([3], seed: 6)->multiply(0.1)];
$ref = __DIR__ . '/dynamic_ref.py';
$runRef = function (string $in, string $out, bool $step): bool {
    global $ref;
    exec(escapeshellarg(getenv('PYTHON') ?: '/usr/bin/python3') . ' ' . escapeshellarg($ref) . ($step ? ' --step ' : ' ') . escapeshellarg($in) . ' '
         . escapeshellarg($out) . ' 2>&1', $log, $rc);
    return check($rc === 0, "the float64 NumPy reference ran ($out)", implode("\n", $log));
};
foreach ([512, 100, 7, 1] as $b) {
    $d = ['x' => CudaArray::randn([$b, 8], seed: $b), 'y' => CudaArray::randint(0, 3, [$b], seed: $b + 1)->oneHot(3)];
    CudaArray::saveNpz("$work/s$b.npz", $d + $p + ['lr' => CudaArray::full([], 0.5)]);
    $out = $m->run(...($d + $p + ['lr' => 0.5]));
    if (!$runRef("$work/s$b.npz", "$work/r$b.npz", true)) continue;
    $r = CudaArray::loadNpz("$work/r$b.npz");
    $worst = 0.0;
    $where = '';
    foreach (['w1', 'b1', 'w2', 'b2', 'loss', 'logits'] as $k) {
        $e = rel_err($k === 'loss' || $k === 'logits' ? $out[$k] : $p[$k], $r[$k]);
        if ($e > $worst) [$worst, $where] = [$e, $k];
    }
    check($worst <= 1e-5, sprintf('a step of %d rows: updates, loss and logits against float64 NumPy (worst rel err %.2e, %s)',
                                  $b, $worst, $where));
    check($out['w1'] === $p['w1'], "a step of $b rows updates w1 in place");
}
$x = CudaArray::randn([300, 8], seed: 77);
$pred = $m->predict(...(['x' => $x] + $p));
check(array_keys($pred) === ['logits'] && $pred['logits']->getShape() === [300, 3], 'predict() on 300 rows: the logits');
CudaArray::saveNpz("$work/p.npz", ['x' => $x, 'y' => CudaArray::zeros([300, 3])] + $p);
if ($runRef("$work/p.npz", "$work/pr.npz", false)) {
    $e = rel_err($pred['logits'], CudaArray::loadNpz("$work/pr.npz")['logits']);
    check($e <= 1e-5, sprintf('predict() against float64 NumPy (rel err %.2e)', $e));
}
check($m->inputs()['x']['shape'] === ['batch', 8], "inputs(): x is ['batch', 8]");
if ($backend !== '') // every run above took it (the executor is made on the first run)
    check($m->getStats()['backend'] === $backend, "the runs took the $backend backend", json_encode($m->getStats()['backend']));
echo "$passed passed, $failed failed\n";
exit($failed ? 1 : 0);
