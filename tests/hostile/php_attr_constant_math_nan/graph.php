<?php
declare(strict_types=1);

use Cuda\CudaArray;
use Gtc\Graph;
use Gtc\Input;

require_once __DIR__ . '/gtc_attributes.php';

#[Graph(name: 'g')]
function g(
    #[Input('float32', [2, 3])] CudaArray $x,
): array {
    $y = $x * (sqrt(-1));
    return ['y' => $y];
}
