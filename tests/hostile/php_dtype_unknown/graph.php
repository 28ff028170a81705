<?php
declare(strict_types=1);

use Cuda\CudaArray;
use Gtc\Graph;
use Gtc\Input;

require_once __DIR__ . '/gtc_attributes.php';

#[Graph(name: 'g')]
function g(
    #[Input('float8', [2])] CudaArray $x,
): array {
    $y = $x->relu();
    return ['y' => $y];
}
