<?php
/* A PHP graph built from plain functions (inlined where the graph calls them: nested calls,
 * named arguments, a default, a helper that only computes a number), with a group use, PHP's
 * math on numbers (folded) and ->unsqueeze()/->squeeze() (reshapes). The dump shows the names
 * the calls give: the call's variable first (h1_z for dense's $z in `$h1 = dense(...)`). */
declare(strict_types=1);

namespace Tests;

use Cuda\CudaArray;
use Gtc\{Graph, Input as In};

require_once __DIR__ . '/../../../examples/gtc_attributes.php';

/** $x @ $w + $b */
function dense(CudaArray $x, CudaArray $w, CudaArray|float $b = 0.0): CudaArray
{
    $z = $x->matmul($w);
    return $z + $b;
}

/** A number: He initialisation's scale for $fan_in inputs. */
function he_scale(int $fan_in): float
{
    return sqrt(2 / $fan_in);
}

function block(CudaArray $x, CudaArray $w, CudaArray $b): CudaArray
{
    $h = dense($x, $w, $b)->relu();
    return $h * he_scale(fan_in: 4);
}

#[Graph(name: 'php_inline')]
function model(
    #[In('float32', [8, 4])] CudaArray $x,
    #[In('float32', [4, 4])] CudaArray $w1,
    #[In('float32', [4])] CudaArray $b1,
    #[In('float32', [4, 1])] CudaArray $w2,
): array {
    $h1 = block($x, $w1, $b1);
    $h2 = block($h1, $w1, b: $b1);
    $logit = dense($h2, $w2)->squeeze(1);              // [8]
    $p = ($logit * (1 / M_PI))->sigmoid()->unsqueeze(0); // [1, 8]
    return ['p' => $p, 'mean' => $p->mean()];
}
