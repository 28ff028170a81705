<?php
/*
 * examples/train_dynamic.php: one compiled model for every batch size. examples/digits_dynamic.json
 * is the digits MLP (64-64-10, SGD with momentum) with a symbolic batch ("batch" up to 4096,
 * docs/graph-format.md §3.1): compiled once, it trains on every row of each epoch — 5 batches of
 * 256 and the last, partial one of 158 rows — and its predict() scores the whole test set (359
 * rows) in one call.
 *
 *   build/gtc compile examples/digits_dynamic.json -o build/models/digits_dynamic.so
 *   php -d extension=build/gtc.so -d extension=build/models/digits_dynamic.so \
 *       examples/train_dynamic.php [EPOCHS [DATA_DIR [LR]]]
 *
 * (on the GPU when there is one, else the CPU backend; -d gtc.device=cpu picks the CPU.) Exits 1
 * below 95% test accuracy.
 */
use Cuda\CudaArray;

$epochs = (int)($argv[1] ?? 40);
$dir = $argv[2] ?? __DIR__ . '/data';
$lr = (float)($argv[3] ?? 0.1);
if (!class_exists('DigitsDynamicStep')) {
    fwrite(STDERR, "train_dynamic: load the compiled model: -d extension=build/models/digits_dynamic.so\n");
    exit(2);
}
foreach (['train_x', 'train_y', 'test_x', 'test_labels'] as $k)
    if (!is_file("$dir/digits_$k.npy")) {
        fwrite(STDERR, "train_dynamic: $dir/digits_$k.npy is missing: run `make data`\n");
        exit(2);
    }
$x = CudaArray::fromNpy("$dir/digits_train_x.npy");
$y = CudaArray::fromNpy("$dir/digits_train_y.npy");
$n = $x->getShape()[0];
$batch = 256;
$batches = [];
for ($at = 0; $at < $n; $at += $batch) /* every row once: the last batch is what is left */
    $batches[] = [$x->slice([$at, min($at + $batch, $n)]), $y->slice([$at, min($at + $batch, $n)])];
$p = ['w1' => CudaArray::randn([64, 64], seed: 1)->multiply(sqrt(2 / 64)), 'b1' => CudaArray::zeros([64]),
      'w2' => CudaArray::randn([64, 10], seed: 2)->multiply(sqrt(1 / 64)), 'b2' => CudaArray::zeros([10])];
$step = new DigitsDynamicStep();
$seen = 0;
for ($e = 1; $e <= $epochs; $e++) {
    $sum = 0.0;
    foreach ($batches as [$bx, $by]) {
        $out = $step->run(...(['x' => $bx, 'y' => $by, 'lr' => $lr] + $p)); // w1 b1 w2 b2 updated in place
        $rows = $bx->getShape()[0];
        $sum += $out['loss']->item() * $rows;
        $seen += $rows;
    }
    if ($e % 10 === 0 || $e === $epochs) printf("epoch %d: loss %.4f over %d rows\n", $e, $sum / $n, $n);
}
$tx = CudaArray::fromNpy("$dir/digits_test_x.npy");
$labels = CudaArray::fromNpy("$dir/digits_test_labels.npy")->toArray();
$pred = $step->predict(...(['x' => $tx] + $p))['logits']->argMax(1)->toArray(); // all 359 rows at once
$right = 0;
foreach ($pred as $i => $c) $right += $c === $labels[$i] ? 1 : 0;
$acc = $right / count($labels);
printf("trained on %d rows (%d per epoch, last batch %d rows), test accuracy %.2f%% (%d/%d) (%s)\n", $seen, $n,
       $n - $batch * (count($batches) - 1), 100 * $acc, $right, count($labels), $step->getStats()['backend']);
exit($acc >= 0.95 ? 0 : 1);
