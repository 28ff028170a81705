<?php
declare(strict_types=1);

use Cuda\CudaArray;
use Gtc\Graph;
use Gtc\Input;

require_once __DIR__ . '/gtc_attributes.php';

#[Graph(name: 'g')]
function g(
    #[Input('float32', [4, 3])] CudaArray $x,
    #[Input('float32', [3, 2])] CudaArray $w,
): array {
    $z = $x->matmul($w);
    $y = $z->sparsemax(axis: 1);
    return ['y' => $y];
}
