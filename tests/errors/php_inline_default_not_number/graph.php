<?php
declare(strict_types=1);

use Cuda\CudaArray;
use Gtc\{Graph, Input};

require_once __DIR__ . '/gtc_attributes.php';

function act(CudaArray $x, string $kind = 'relu'): CudaArray
{
    return $x->relu();
}

#[Graph(name: 'g')]
function g(
    #[Input('float32', [4, 3])] CudaArray $x,
    #[Input('float32', [3, 2])] CudaArray $w,
): array {
    $y = act($x->matmul($w));
    return ['y' => $y];
}
