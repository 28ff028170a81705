--TEST--
php-gpu-tensors' training pattern: one closure computes a 2-layer MLP's forward pass, softmax cross-entropy gradients and a clipped SGD update, with captured constant tensors, a strided (transposed) input and list outputs indexed like arrays; fused replays agree with the eager closure and the loss falls
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$rows = 32; $in = 4; $hidden = 8; $classes = 3;
mt_srand(7);
$flat = fn(int $n, float $s) => array_map(fn() => (mt_rand() / mt_getrandmax() * 2 - 1) * $s, range(1, $n));
// three Gaussian-ish blobs, one per class
$xv = []; $yv = [];
for ($i = 0; $i < $rows; $i++) {
    $c = $i % $classes;
    for ($k = 0; $k < $in; $k++) $xv[] = ($k % $classes === $c ? 1.0 : 0.0) + (mt_rand() / mt_getrandmax() - 0.5) * 0.3;
    for ($k = 0; $k < $classes; $k++) $yv[] = $k === $c ? 1.0 : 0.0;
}
$x = CudaArray::fromFlatArray($xv, [$rows, $in]);
$xt = $x->transpose();                                    // a strided view, passed as an input
$y = CudaArray::fromFlatArray($yv, [$rows, $classes]);
$params = [CudaArray::fromFlatArray($flat($in * $hidden, 0.5), [$in, $hidden]), CudaArray::zeros([1, $hidden]),
           CudaArray::fromFlatArray($flat($hidden * $classes, 0.5), [$hidden, $classes]), CudaArray::zeros([1, $classes])];
$zero = CudaArray::zeros([1]); $lower = CudaArray::full([1], -5.0); $upper = CudaArray::full([1], 5.0);
$lr = 0.5;
$step = static function ($x, $xt, $y, $w1, $b1, $w2, $b2) use ($rows, $lr, $zero, $lower, $upper, $hidden, $classes): array {
    $z1 = $x->matmul($w1) + $b1;
    $a1 = CudaArray::where($z1->gt(0), $z1, $zero);
    $logits = $a1->matmul($w2) + $b2;
    $shifted = $logits - $logits->max(1)->reshape([$rows, 1]);
    $e = $shifted->exp();
    $den = $e->sum(1)->reshape([$rows, 1]);
    $dz2 = ($e / $den - $y) * (1.0 / $rows);
    $dw2 = $a1->transpose()->matmul($dz2);
    $db2 = $dz2->sum(0)->reshape([1, $classes]);
    $dz1 = CudaArray::where($a1->gt(0), $dz2->matmul($w2->transpose()), $zero);
    $dw1 = $xt->matmul($dz1);
    $db1 = $dz1->sum(0)->reshape([1, $hidden]);
    $update = static function ($w, $g) use ($lr, $lower, $upper) {
        $c = CudaArray::where($g->gt(5), $upper, $g);
        $c = CudaArray::where($c->lt(-5), $lower, $c);
        return CudaArray::where($g->eq($g), $w - $c * $lr, $w);
    };
    $loss = ($den->log() - ($shifted * $y)->sum(1)->reshape([$rows, 1]))->sum(0);
    return [$update($w1, $dw1), $update($b1, $db1), $update($w2, $dw2), $update($b2, $db2), $loss];
};
$plan = Fusion::compile($step, [$x, $xt, $y, ...$params]);
$s = $plan->getStats();
echo "inputs ", count($plan->inputs()), ", captured ", $s['capturedTensors'], ", fused kernels > 0: ", var_export($s['fusedKernels'] > 0, true), "\n";

$fused = $params; $eager = $params; $first = null; $worst = 0.0;
for ($i = 0; $i < 60; $i++) {
    $out = $plan->run($x, $xt, $y, ...$fused);
    $ref = Fusion::run($step, [$x, $xt, $y, ...$eager], enabled: false);
    $loss = $out[4][0] / $rows;                            // indexing the fused outputs
    $first ??= $loss;
    $worst = max($worst, abs($loss - $ref[4][0] / $rows));
    [$fused[0], $fused[1], $fused[2], $fused[3]] = $out;
    [$eager[0], $eager[1], $eager[2], $eager[3]] = $ref;
}
foreach ($fused as $k => $p) $worst = max($worst, ($p - $eager[$k])->abs()->max()->item());
printf("loss %.3f -> below half: %s; fused vs eager within 1e-4: %s\n", $first, var_export($loss < $first / 2, true), var_export($worst < 1e-4, true));
$pred = (CudaArray::where(($x->matmul($fused[0]) + $fused[1])->gt(0), $x->matmul($fused[0]) + $fused[1], $zero)->matmul($fused[2]) + $fused[3])->argMax(1)->toArray();
$ok = 0;
foreach ($pred as $i => $p) $ok += (int)($p === $i % $classes);
echo "train accuracy >= 90%: ", var_export($ok / $rows >= 0.9, true), "\n";
?>
--EXPECTF--
inputs 7, captured 3, fused kernels > 0: true
loss %f -> below half: true; fused vs eager within 1e-4: true
train accuracy >= 90%: true
