<?php
/* examples/eager_mlp.php: trains a small ReLU MLP with eager Cuda\CudaArray ops — the same
 * step as examples/digits_step.json (forward, stable softmax cross-entropy, hand-written
 * backward, SGD with gradients clipped to ±5) — on a synthetic, seeded 3-class problem.
 *
 *   php -d extension=build/gtc.so examples/eager_mlp.php [epochs]
 */
use Cuda\CudaArray;

$epochs = (int)($argv[1] ?? 200);
$n = 512; $d = 16; $h = 32; $k = 3; $lr = 0.5;

// Data: three Gaussian-ish blobs from the seeded generator; labels from the nearest centre.
$centres = CudaArray::rand([$k, $d], seed: 1)->multiply(4.0)->subtract(2.0);
$noise = CudaArray::rand([$n, $d], seed: 2)->subtract(0.5)->multiply(1.5);
$labels = [];
for ($i = 0; $i < $n; $i++) $labels[] = $i % $k;
$y = CudaArray::where((new CudaArray([$labels], 'int32'))->transpose()->eq(new CudaArray([range(0, $k - 1)], 'int32')), 1.0, 0.0);
$x = $y->matmul($centres)->add($noise);

// Parameters.
$w1 = CudaArray::rand([$d, $h], seed: 3)->subtract(0.5)->multiply(2 / sqrt($d));
$b1 = CudaArray::zeros([$h]);
$w2 = CudaArray::rand([$h, $k], seed: 4)->subtract(0.5)->multiply(2 / sqrt($h));
$b2 = CudaArray::zeros([$k]);

$t0 = microtime(true);
for ($epoch = 1; $epoch <= $epochs; $epoch++) {
    // forward
    $h1 = $x->matmul($w1) + $b1;
    $a1 = $h1->relu();
    $logits = $a1->matmul($w2) + $b2;
    $sh = $logits - $logits->max(1, keepdims: true);
    $e = $sh->exp();
    $se = $e->sum(1, keepdims: true);
    $logp = $sh - $se->log();
    $loss = ($y * $logp)->sum(1)->mean()->neg();
    // backward
    $dlogits = ($e / $se - $y) / $n;
    $dw2 = $a1->transpose()->matmul($dlogits);
    $db2 = $dlogits->sum(0);
    $dh1 = CudaArray::where($h1->gt(0), $dlogits->matmul($w2->transpose()), 0.0);
    $dw1 = $x->transpose()->matmul($dh1);
    $db1 = $dh1->sum(0);
    // SGD, gradients clipped to ±5
    $w1 = $w1 - $dw1->clamp(-5, 5) * $lr;
    $b1 = $b1 - $db1->clamp(-5, 5) * $lr;
    $w2 = $w2 - $dw2->clamp(-5, 5) * $lr;
    $b2 = $b2 - $db2->clamp(-5, 5) * $lr;
    if ($epoch === 1 || $epoch % 50 === 0 || $epoch === $epochs)
        printf("epoch %4d  loss %.5f\n", $epoch, $loss->item());
}
$dt = microtime(true) - $t0;
$pred = ($x->matmul($w1) + $b1)->relu()->matmul($w2)->add($b2)->argMax(1);
$acc = $pred->eq($y->argMax(1))->astype('float32')->mean()->item();
printf("device %s: %d steps in %.3f s (%.1f us/step), train accuracy %.1f%%\n",
       $x->device(), $epochs, $dt, 1e6 * $dt / $epochs, 100 * $acc);
exit($acc > 0.9 ? 0 : 1);
