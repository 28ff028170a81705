<?php
/* tests/golden/php_symbolic/graph.php: examples/digits_dynamic.json as a PHP graph: a symbolic
 * batch (#[Graph(dims: ['batch' => 4096])], #[Input('float32', ['batch', 64])]), the forward pass
 * and the loss, with #[Gtc\Train] for the gradients (the mean over the batch divides by the run's
 * size) and the SGD update. */
declare(strict_types=1);

use Cuda\CudaArray;
use Gtc\Graph;
use Gtc\Input;
use Gtc\Train;

require_once __DIR__ . '/../../../examples/gtc_attributes.php';

#[Graph(name: 'digits_dynamic_step', dims: ['batch' => 4096])]
#[Train(loss: 'loss', params: ['w1', 'b1', 'w2', 'b2'], optimizer: ['type' => 'sgd', 'lr' => 'lr', 'momentum' => 0.9])]
function digits_dynamic_step(
    #[Input('float32', ['batch', 64])] CudaArray $x,
    #[Input('float32', ['batch', 10])] CudaArray $y,
    #[Input('float32', [64, 64])] CudaArray $w1,
    #[Input('float32', [64])] CudaArray $b1,
    #[Input('float32', [64, 10])] CudaArray $w2,
    #[Input('float32', [10])] CudaArray $b2,
    #[Input('float32', [])] CudaArray|float $lr,
): array {
    $logits = ($x->matmul($w1) + $b1)->relu()->matmul($w2) + $b2;
    $loss = $logits->crossEntropy($y);
    return ['loss' => $loss, 'logits' => $logits];
}
