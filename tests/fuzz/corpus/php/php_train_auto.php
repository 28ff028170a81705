<?php
/* tests/golden/php_train_auto/graph.php: examples/train_auto.json as a PHP graph: the forward
 * pass and the loss, with #[Gtc\Train] for the gradients and the SGD update. Its expected/ files
 * are what `gtc dump|grad|plan examples/train_auto.json` print (tests/e2e/php_graphs.sh compares
 * them with the JSON graph's). Called eagerly it returns the loss. */
declare(strict_types=1);

use Cuda\CudaArray;
use Gtc\Graph;
use Gtc\Input;
use Gtc\Train;

require_once __DIR__ . '/../../../examples/gtc_attributes.php';

#[Graph(name: 'mlp_auto_step')]
#[Train(
    loss: 'loss',
    params: ['w1', 'b1', 'w2', 'b2'],
    stop_gradient: ['m'],
    optimizer: ['type' => 'sgd', 'lr' => 'lr', 'clip_value' => 5],
)]
function mlp_auto_step(
    #[Input('float32', [512, 480])] CudaArray $x,
    #[Input('float32', [512, 2])] CudaArray $y,
    #[Input('float32', [480, 256])] CudaArray $w1,
    #[Input('float32', [256])] CudaArray $b1,
    #[Input('float32', [256, 2])] CudaArray $w2,
    #[Input('float32', [2])] CudaArray $b2,
    #[Input('float32', [])] CudaArray|float $lr,
): array {
    $z1 = $x->matmul($w1);
    $h1 = $z1 + $b1;
    $a1 = $h1->relu();
    $z2 = $a1->matmul($w2);
    $logits = $z2 + $b2;
    $m = $logits->max(axis: 1, keepdims: true);
    $sh = $logits - $m;
    $e = $sh->exp();
    $se = $e->sum(axis: 1, keepdims: true);
    $lse = $se->log();
    $ysh = $y * $sh;
    $ysh_row = $ysh->sum(axis: 1, keepdims: true);
    $nll_row = $lse - $ysh_row;
    $loss = $nll_row->mean();
    return ['loss' => $loss];
}
