<?php
declare(strict_types=1);

use Cuda\CudaArray;
use Gtc\Graph;
use Gtc\Input;

require_once __DIR__ . '/gtc_attributes.php';

#[Graph(name: 'g')]
function g(
    #[Input('float32', [4, 3])] CudaArray $x,
    #[Input('float8', [3, 2])] CudaArray $w,
): array {
    $y = $x->matmul($w);
    return ['y' => $y];
}
