<?php
/* tests/golden/php_train_step/graph.php: a copy of examples/train_step.php. Its expected/ files
 * are copies of tests/golden/train_step/expected/ (the JSON graph's): the PHP and the JSON form
 * of the step must give the same `gtc check`, `gtc dump` and `gtc plan` output, byte for byte. */
declare(strict_types=1);

use Cuda\CudaArray;
use Gtc\Donate;
use Gtc\Graph;
use Gtc\Input;

require_once __DIR__ . '/../../../examples/gtc_attributes.php';

#[Graph(name: 'mlp_train_step')]
#[Donate('w1', 'b1', 'w2', 'b2')]
function mlp_train_step(
    #[Input('float32', [512, 480])] CudaArray $x,
    #[Input('float32', [512, 2])] CudaArray $y,
    #[Input('float32', [480, 256])] CudaArray $w1,
    #[Input('float32', [256])] CudaArray $b1,
    #[Input('float32', [256, 2])] CudaArray $w2,
    #[Input('float32', [2])] CudaArray $b2,
    #[Input('float32', [])] CudaArray|float $lr,
): array {
    // forward
    $z1 = $x->matmul($w1);
    $h1 = $z1 + $b1;
    $a1 = $h1->relu();
    $z2 = $a1->matmul($w2);
    $logits = $z2 + $b2;
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
    $dlogits = $p_minus_y / 512;
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
    $g_w1 = $dw1->clamp(-5, 5);
    $step_w1 = $g_w1 * $lr;
    $w1_next = $w1 - $step_w1;
    $g_b1 = $db1->clamp(-5, 5);
    $step_b1 = $g_b1 * $lr;
    $b1_next = $b1 - $step_b1;
    $g_w2 = $dw2->clamp(-5, 5);
    $step_w2 = $g_w2 * $lr;
    $w2_next = $w2 - $step_w2;
    $g_b2 = $db2->clamp(-5, 5);
    $step_b2 = $g_b2 * $lr;
    $b2_next = $b2 - $step_b2;
    return ['loss' => $loss, 'w1' => $w1_next, 'b1' => $b1_next, 'w2' => $w2_next, 'b2' => $b2_next];
}
