<?php
/*
 * examples/cnn_digits.php: trains the small CNN of examples/cnn_digits.json (conv 3x3 -> relu ->
 * max pool 2x2 -> conv 3x3 -> relu -> max pool 2x2 -> linear; AdamW, gradients by gtc's
 * autodiff) on the 8x8 digits of examples/data (run `make data` first), compiled by `gtc compile`,
 * then reports the test accuracy of the trained weights through the model's predict() (the forward
 * function of the same compiled graph, docs/graph-format.md §13).
 *
 *   build/gtc compile examples/cnn_digits.json -o build/models/cnn_digits.so
 *   php -d extension=build/gtc.so -d extension=build/models/cnn_digits.so examples/cnn_digits.php [EPOCHS [DATA_DIR [LR]]]
 *
 * Channels 16 and 32, 30 epochs, learning rate 0.01 by default. Batches of 256 rows in the data's fixed shuffled order (the last one overlapping the one before,
 * so no row is left out); He-initialised weights from a fixed seed; prints the loss every 10
 * epochs, the test accuracy and the time per step, and exits 1 below 98% test accuracy.
 */
use Cuda\CudaArray;

$epochs = (int)($argv[1] ?? 30);
$dir = $argv[2] ?? __DIR__ . '/data';
$lr = (float)($argv[3] ?? 0.01);
if (!class_exists('CnnDigitsStep')) {
    fwrite(STDERR, "cnn_digits: load the compiled model: -d extension=build/models/cnn_digits.so\n");
    exit(2);
}
foreach (['train', 'test'] as $s)
    foreach (['x', 'y', 'labels'] as $k)
        if (!is_file("$dir/digits_{$s}_$k.npy")) {
            fwrite(STDERR, "cnn_digits: $dir/digits_{$s}_$k.npy is missing: run `make data`\n");
            exit(2);
        }
$x = CudaArray::fromNpy("$dir/digits_train_x.npy");
$y = CudaArray::fromNpy("$dir/digits_train_y.npy");
$n = $x->getShape()[0];
$batch = 256;
$batches = [];
for ($at = 0; $at < $n; $at += $batch) {
    $lo = min($at, $n - $batch);
    $batches[] = [$x->slice([$lo, $lo + $batch]), $y->slice([$lo, $lo + $batch])]; // contiguous row ranges
}
/* He initialisation: normal with variance 2 / fan_in, from a fixed seed */
$he = fn(array $shape, int $fanIn, int $seed) => CudaArray::randn($shape, seed: $seed)->multiply(sqrt(2 / $fanIn));
$p = ['w1' => $he([16, 1, 3, 3], 9, 1), 'b1' => CudaArray::zeros([16]),
      'w2' => $he([32, 16, 3, 3], 144, 2), 'b2' => CudaArray::zeros([32]),
      'w3' => $he([128, 10], 128, 3), 'b3' => CudaArray::zeros([10])];
$state = [];
foreach ($p as $k => $w) { /* AdamW's moments, updated in place by each step */
    $state["{$k}_m"] = CudaArray::zeros($w->getShape());
    $state["{$k}_v"] = CudaArray::zeros($w->getShape());
}
$step = new CnnDigitsStep();
$t = 0.0;
$count = 0;
$adamStep = 1.0; // AdamW's t: 1 on the first step (docs/graph-format.md §13)
for ($e = 1; $e <= $epochs; $e++) {
    $t0 = hrtime(true);
    foreach ($batches as [$bx, $by]) {
        $out = $step->run(...['x' => $bx, 'y' => $by, 'lr' => $lr, 'adamw_step' => $adamStep], ...$p, ...$state);
        $adamStep = $out['adamw_step']; // t + 1, kept on the device
        $count++;
    }
    $loss = $out['loss']->item();
    $t += (hrtime(true) - $t0) / 1e9;
    if ($e % 10 === 0 || $e === $epochs) printf("epoch %d: loss %.4f\n", $e, $loss);
}
/* the trained network on the test set: the model's predict() (its forward function, the same
 * parameter tensors run() updated), in batches of the compiled 256 rows, the last one
 * overlapping the one before */
$tx = CudaArray::fromNpy("$dir/digits_test_x.npy");
$labels = CudaArray::fromNpy("$dir/digits_test_labels.npy")->toArray();
$m = $tx->getShape()[0];
$pred = [];
for ($at = 0; $at < $m; $at += $batch) {
    $lo = min($at, $m - $batch);
    $rows = $step->predict(...(['x' => $tx->slice([$lo, $lo + $batch])] + $p))['logits']->argMax(1)->toArray();
    foreach ($rows as $i => $c) $pred[$lo + $i] = $c;
}
$right = 0;
foreach ($pred as $i => $c) $right += $c === $labels[$i] ? 1 : 0;
$acc = $right / $m;
printf("test accuracy %.2f%% (%d/%d), %.3f ms per step (%s)\n", 100 * $acc, $right, $m, 1000 * $t / $count,
       $step->getStats()['backend'] ?? '?');
exit($acc >= 0.98 ? 0 : 1);
