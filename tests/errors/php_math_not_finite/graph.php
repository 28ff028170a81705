<?php
declare(strict_types=1);

use Cuda\CudaArray;
use Gtc\{Graph, Input};

require_once __DIR__ . '/gtc_attributes.php';

#[Graph(name: 'g')]
function g(
    #[Input('float32', [4, 3])] CudaArray $x,
    #[Input('float32', [3, 2])] CudaArray $w,
): array {
    $scale = 1 / sqrt(3 - 4);
    $y = $x->matmul($w) * $scale;
    return ['y' => $y];
}
