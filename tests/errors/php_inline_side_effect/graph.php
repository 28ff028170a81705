<?php
declare(strict_types=1);

use Cuda\CudaArray;
use Gtc\{Graph, Input};

require_once __DIR__ . '/gtc_attributes.php';

function dense(CudaArray $x, CudaArray $w): CudaArray
{
    echo "dense\n";
    return $x->matmul($w);
}

#[Graph(name: 'g')]
function g(
    #[Input('float32', [4, 3])] CudaArray $x,
    #[Input('float32', [3, 2])] CudaArray $w,
): array {
    $y = dense($x, $w);
    return ['y' => $y];
}
