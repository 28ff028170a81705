<?php
/*
 * bench/predict.php: gtc's side of bench/predict.sh: serving latency of the digits MLP (64-64-10)
 * at batch 1 through predict(), the forward function of the training step compiled from
 * bench/predict_digits.json (class DigitsServeStep, loaded with -d extension=).
 *
 *   php -n -d extension=build/gtc.so -d extension=build/models/digits_serve.so bench/predict.php [--calls=20000]
 *
 * One row: microseconds per call from PHP, input already on the device, the logits read back to
 * PHP each call (toArray(): a serving answer, which also waits for the work): the median over 10
 * intervals. One JSON object on stdout.
 */
use Cuda\CudaArray;

$calls = 20000;
foreach (array_slice($argv, 1) as $arg) {
    if (!preg_match('/^--calls=(\d+)$/', $arg, $m)) {
        fwrite(STDERR, "usage: predict.php [--calls=N]\n");
        exit(2);
    }
    $calls = max(10, (int)$m[1]);
}
if (!class_exists('DigitsServeStep')) {
    fwrite(STDERR, "predict.php: class DigitsServeStep not loaded (gtc compile bench/predict_digits.json)\n");
    exit(2);
}
$m = new DigitsServeStep();
$p = ['x' => CudaArray::randn([1, 64], 1), 'w1' => CudaArray::randn([64, 64], 2) * 0.1, 'b1' => CudaArray::zeros([64]),
      'w2' => CudaArray::randn([64, 10], 3) * 0.1, 'b2' => CudaArray::zeros([10])];
$t0 = hrtime(true);
for ($i = 0; $i < 100; $i++) $m->predict(...$p)['logits']->toArray();
$warm = (hrtime(true) - $t0) / 1e9;
$per = intdiv($calls, 10);
$us = [];
for ($r = 0; $r < 10; $r++) {
    $t = hrtime(true);
    for ($i = 0; $i < $per; $i++) $logits = $m->predict(...$p)['logits']->toArray();
    $us[] = (hrtime(true) - $t) / 1e3 / $per;
}
sort($us);
echo json_encode(['variant' => 'gtc predict()', 'us_per_call' => ($us[4] + $us[5]) / 2, 'warmup_s' => $warm,
                  'backend' => $m->getStats()['backend'] ?? '?', 'logit0' => $logits[0][0]]), "\n";
