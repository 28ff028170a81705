<?php
declare(strict_types=1);

use Cuda\CudaArray;
use Gtc\Graph;
use Gtc\Input;

require_once __DIR__ . '/gtc_attributes.php';

#[Graph(name: 'class')]
function g(
    #[Input('float32', [2, 3])] CudaArray $int,
    #[Input('float32', [])] CudaArray|float $class,
): array {
    $function = $int * $class;
    $__halt_compiler = $function->relu();
    $v17 = $__halt_compiler->sum(axis: 1);
    $zend_object = $v17 + 1;
    return ['gtc_k3' => $zend_object, 'self' => $__halt_compiler];
}
