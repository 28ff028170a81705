<?php
/* A PHP graph using every form the front-end reads: methods with positional and named
 * arguments, static calls, operators with numbers, parentheses, unary minus, constants folded
 * and assigned to variables, temporaries named after the variable, two graph functions. */
declare(strict_types=1);

namespace Tests;

use Cuda\CudaArray;
use Gtc\Graph as G;
use Gtc\Input;

require_once __DIR__ . '/../../../examples/gtc_attributes.php';

/* Not a graph: skipped. */
function helper(int $n): int
{
    return $n * 2;
}

#[G(name: 'php_ops')]
#[\Gtc\Donate(w_next: 'w')]
function ops(
    #[Input('float32', [4, 3])] CudaArray $x,
    #[Input(shape: [3, 2], dtype: 'float32')] CudaArray $w,
    #[Input('int32', [4])] CudaArray $labels,
    #[Input('float32', [])] float $lr,
): array {
    $scale = 1 / (2 ** 3);               // a number: folded, no node
    $h = ($x->matmul($w) + 1) * $scale;  // temporaries h_1, h_2
    $neg = -$h;
    $p = $h ** 2 - $neg / 4;
    $s = $p->sum(axis: [0, 1], keepdims: true);
    $m = $p->max(1);
    $mean = $p->mean(keepdims: false);
    $am = $p->argMax(axis: 1);
    $eqs = $am->astype('int32')->eq($labels);
    $acc = $eqs->astype(dtype: 'float32')->mean();
    $sel = CudaArray::where($h->gt(0), $h, 0.5 * $h);
    $cl = $sel->clamp(min: -1, max: 1)->maximum(-0.5)->minimum($m->reshape([4, 1]));
    $t = $cl->transpose();
    $sl = $t->slice(starts: [0, 1], ends: [2, 4], axes: [0, 1], steps: [1, 2]);
    $sx = $t->slice(1, [0, 4, 2]);        // per axis: an index (dropped) and a range
    $b = $s->broadcastTo([4, 2]);
    $ones = CudaArray::ones([4, 2]);
    $z = CudaArray::full([2], 3, 'float32');
    $u = $b->exp()->log()->sqrt()->rsqrt()->abs()->sign()->floor()->ceil()->round()->tanh()->sigmoid()->sin()->cos();
    $q = $u->power(2)->subtract($ones)->multiply($z)->divide(3)->add($mean)->relu()->neg();
    $cmp = $q->ne(0)->astype('float32')->prod()->add($acc)->add($sl->sum())->add($sx->sum());
    $w_next = $w - $lr * $w->min(0);
    return ['q' => $q, 'cmp' => $cmp, 'w_next' => $w_next, 'am' => $am, 'grad' => $q->sum(0)];
}

#[G]
function other(#[Input('float64', [2, 2])] CudaArray $a): CudaArray
{
    return $a->argMin(0, true);
}
