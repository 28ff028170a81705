<?php
/* examples/digits_step.php: the same training step as examples/digits_step.json, written once as PHP.
 * Run it eagerly (with gtc.so loaded, call digits_train_step() with CudaArray arguments), or compile it ahead
 * of time: `gtc compile examples/digits_step.php -o model.so` (docs/php-graphs.md). Softmax
 * cross-entropy over a two-layer ReLU network, the gradients written out, and an SGD update with
 * gradients clipped to [-5, 5]. The layers and the update are plain PHP functions, which gtc
 * inlines where the graph calls them: the plan is the JSON graph's, with node names taken from
 * the calls (h1_1 for the first layer's matmul, w1_next_step for its scaled gradient, ...). */
declare(strict_types=1);

use Cuda\CudaArray;
use Gtc\{Donate, Graph, Input};

require_once __DIR__ . '/gtc_attributes.php';

/** A fully connected layer, $x @ $w + $b. */
function dense(CudaArray $x, CudaArray $w, CudaArray $b): CudaArray
{
    return $x->matmul($w) + $b;
}

/** One SGD step for parameter $p with its gradient $g clipped to [-5, 5]. */
function sgd_clipped(CudaArray $p, CudaArray $g, CudaArray|float $lr): CudaArray
{
    $step = $g->clamp(-5, 5) * $lr;
    return $p - $step;
}

#[Graph(name: 'digits_train_step')]
#[Donate('w1', 'b1', 'w2', 'b2')]
function digits_train_step(
    #[Input('float32', [256, 64])] CudaArray $x,
    #[Input('float32', [256, 10])] CudaArray $y,
    #[Input('float32', [64, 64])] CudaArray $w1,
    #[Input('float32', [64])] CudaArray $b1,
    #[Input('float32', [64, 10])] CudaArray $w2,
    #[Input('float32', [10])] CudaArray $b2,
    #[Input('float32', [])] CudaArray|float $lr,
): array {
    // forward
    $h1 = dense($x, $w1, $b1);
    $a1 = $h1->relu();
    $logits = dense($a1, $w2, $b2);
    // log-softmax and the mean cross-entropy
    $m = $logits->max(axis: 1, keepdims: true);
    $sh = $logits - $m;
    $e = $sh->exp();
    $se = $e->sum(1, keepdims: true);
    $lse = $se->log();
    $logp = $sh - $lse;
    $ylogp = $y * $logp;
    $ll_row = $ylogp->sum(axis: 1);
    $ll_mean = $ll_row->mean();
    $loss = $ll_mean->neg();
    // backward
    $p = $e / $se;
    $p_minus_y = $p - $y;
    $dlogits = $p_minus_y / 256;
    $a1_t = $a1->transpose([1, 0]);
    $dw2 = $a1_t->matmul($dlogits);
    $db2 = $dlogits->sum(axis: 0);
    $w2_t = $w2->transpose([1, 0]);
    $da1 = $dlogits->matmul($w2_t);
    $h1_pos = $h1->gt(0);
    $dh1 = CudaArray::where($h1_pos, $da1, 0);
    $x_t = $x->transpose([1, 0]);
    $dw1 = $x_t->matmul($dh1);
    $db1 = $dh1->sum(axis: 0);
    // SGD with clipped gradients
    $w1_next = sgd_clipped($w1, $dw1, $lr);
    $b1_next = sgd_clipped($b1, $db1, $lr);
    $w2_next = sgd_clipped($w2, $dw2, $lr);
    $b2_next = sgd_clipped($b2, $db2, $lr);
    return ['loss' => $loss, 'w1' => $w1_next, 'b1' => $b1_next, 'w2' => $w2_next, 'b2' => $b2_next];
}
