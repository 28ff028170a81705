<?php
/* tests/e2e/predict.php: predict(), the forward function a model compiled from a graph with a
 * "train" section carries next to its training step (compiler/forward.c, RtPlan.predict); run by
 * tests/e2e/run.sh as
 *
 *   php -n -d extension=gtc.so -d extension=MLP_PREDICT.so -d extension=DIGITS.so \
 *       -d extension=DIGITS_AUTO.so predict.php WORKDIR
 *
 * over tests/e2e/predict/mlp_predict.json (outputs loss, logits and probs; SGD with momentum, so
 * the object owns state). Checks: predict() takes only the inputs its outputs read (x and the
 * parameters: no labels, no learning rate, no optimizer state) and returns the outputs but the
 * loss; its values after some training steps against a float64 NumPy forward pass
 * (tests/e2e/predict_ref.py) on the very parameter tensors run() updated in place; it changes no
 * input and no optimizer state; a loss-only graph (examples/digits_auto.json) predicts its loss
 * (the training step's loss before the update); a model without a "train" section has no
 * predict(); and bad calls get clear messages. Prints "ok - ..." lines, then "N passed, N failed". */
declare(strict_types=1);

require_once __DIR__ . '/check.inc';

use Cuda\CudaArray;

$work = $argv[1] ?? '';
foreach (['MlpPredictStep', 'DigitsTrainStep', 'DigitsAutoStep'] as $c)
    if (!class_exists($c) || !is_dir($work)) {
        echo "not ok - class $c and directory $work\n0 passed, 1 failed\n";
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

$m = new MlpPredictStep();
check(method_exists($m, 'predict'), 'a training step compiled from a "train" section has predict()');
check(!method_exists(new DigitsTrainStep(), 'predict'), 'a model without a "train" section has no predict()');

$x = CudaArray::randn([32, 8], seed: 1);
$labels = CudaArray::randint(0, 3, [32], seed: 2);
$y = $labels->oneHot(3);
$p = ['w1' => CudaArray::randn([8, 16], seed: 3)->multiply(0.5), 'b1' => CudaArray::zeros([16]),
      'w2' => CudaArray::randn([16, 3], seed: 4)->multiply(0.5), 'b2' => CudaArray::zeros([3])];
$objs = array_map(fn($t) => spl_object_id($t), $p);

// ---- training steps, then predict() on the parameters run() updated in place
$losses = [];
for ($i = 0; $i < 5; $i++) {
    $out = $m->run(...(['x' => $x, 'y' => $y, 'lr' => 0.1] + $p));
    $losses[] = $out['loss']->item();
}
check($losses[4] < $losses[0], 'five SGD steps lower the loss', json_encode($losses));
$before = array_map(fn($t) => $t->toArray(), $p);
$stateBefore = array_map(fn($t) => $t instanceof CudaArray ? $t->toArray() : $t, $m->optimizerState());
$pred = $m->predict($x, ...$p);
check(array_keys($pred) === ['logits', 'probs'], 'predict() returns the outputs but the loss',
      json_encode(array_keys($pred)));
check($pred['logits']->getShape() === [32, 3] && $pred['logits']->dtype() === 'float32',
      'logits: float32 [32, 3]');
check(array_map(fn($t) => $t->toArray(), $p) === $before, 'predict() changes no parameter');
check(array_map(fn($t) => $t instanceof CudaArray ? $t->toArray() : $t, $m->optimizerState()) === $stateBefore,
      'predict() changes no optimizer state');
check(array_map(fn($t) => spl_object_id($t), $p) === $objs, 'run() updated the same parameter objects');

CudaArray::saveNpz("$work/in.npz", ['x' => $x, 'y' => $y] + $p);
$ref = __DIR__ . '/predict_ref.py';
exec(escapeshellarg(getenv('PYTHON') ?: '/usr/bin/python3') . ' ' . escapeshellarg($ref) . ' ' . escapeshellarg("$work/in.npz") . ' '
     . escapeshellarg("$work/ref.npz") . ' 2>&1', $log, $rc);
if (check($rc === 0, 'the float64 NumPy reference ran', implode("\n", $log))) {
    $r = CudaArray::loadNpz("$work/ref.npz");
    foreach (['logits', 'probs'] as $k) {
        $e = rel_err($pred[$k], $r[$k]);
        check($e <= 1e-5, "predict()['$k'] against float64 NumPy (rel err " . sprintf('%.2e', $e) . ')');
    }
    // the next run() reports the loss of these parameters: the reference's loss
    $next = $m->run(...(['x' => $x, 'y' => $y, 'lr' => 0.1] + $p));
    $e = abs($next['loss']->item() - $r['loss']->item()) / abs($r['loss']->item());
    check($e <= 1e-5, 'run() after predict() goes on from the same parameters (loss rel err ' . sprintf('%.2e', $e) . ')');
}

// named inputs, any order; a second call reuses the executor
$again = $m->predict(b2: $p['b2'], w2: $p['w2'], b1: $p['b1'], w1: $p['w1'], x: $x);
check($again['probs']->toArray() === $m->predict($x, ...$p)['probs']->toArray(), 'named inputs give the same result');
check($m->getStats()['replays'] >= 6, 'getStats() still describes run() (its replays)');

// ---- refusals
expect_throw(fn() => $m->predict($x, $p['w1'], $p['b1'], $p['w2'], $p['b2'], $y),
             'Cuda\InvalidArgumentException: MlpPredictStep::predict() takes 5 inputs (x, w1, b1, w2, b2), 6 given',
             'too many inputs');
expect_throw(fn() => $m->predict(...(['x' => $x, 'y' => $y] + $p)),
             'Cuda\InvalidArgumentException: unknown input "y"; MlpPredictStep::predict()\'s inputs are x, w1, b1, w2, b2',
             'the labels are not a predict() input');
expect_throw(fn() => $m->predict(x: $x, w1: $p['w1']),
             'Cuda\InvalidArgumentException: input "b1" is missing', 'a missing parameter');
expect_throw(fn() => $m->predict(CudaArray::zeros([31, 8]), ...$p),
             'Cuda\InvalidArgumentException: input "x": expected float32 [32,8], got float32 [31,8]',
             'a wrongly shaped input is refused, naming it');
expect_throw(fn() => $m->predict('x', ...$p),
             'Cuda\InvalidArgumentException: input "x" (float32) must be a Cuda\CudaArray, string given', 'a string input');
expect_throw(fn() => $m->run(...(['x' => $x, 'y' => $y, 'lr' => 0.1, 'q' => 1] + $p)),
             'Cuda\InvalidArgumentException: unknown input "q"; MlpPredictStep\'s inputs are x, y, w1, b1, w2, b2, lr, w1_m, b1_m, w2_m, b2_m',
             'run() keeps its message (the class\'s inputs)');

// ---- a graph whose only output is its loss predicts the loss (an evaluation on new data)
$d = new DigitsAutoStep();
check(array_keys($d->inputs()) === ['x', 'y', 'w1', 'b1', 'w2', 'b2', 'lr'], 'digits_auto: run() inputs');
$dx = CudaArray::randn([256, 64], seed: 5);
$dy = CudaArray::randint(0, 10, [256], seed: 6)->oneHot(10);
$dp = ['w1' => CudaArray::randn([64, 64], seed: 7)->multiply(0.1), 'b1' => CudaArray::zeros([64]),
       'w2' => CudaArray::randn([64, 10], seed: 8)->multiply(0.1), 'b2' => CudaArray::zeros([10])];
$ev = $d->predict(...(['x' => $dx, 'y' => $dy] + $dp));
check(array_keys($ev) === ['loss'] && $ev['loss']->getShape() === [], 'a loss-only graph predicts its loss');
$st = $d->run(...(['x' => $dx, 'y' => $dy, 'lr' => 0.05] + $dp));
$e = abs($ev['loss']->item() - $st['loss']->item()) / abs($st['loss']->item());
check($e <= 1e-6, 'it is the loss run() reports before its update (rel err ' . sprintf('%.2e', $e) . ')');

echo "$passed passed, $failed failed\n";
exit($failed ? 1 : 0);
