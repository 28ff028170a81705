--TEST--
Autograd under Cuda\Fusion: backward() in a compiled closure appends the gradient to the traced graph (one plan, numbers against NumPy-derived references), accumulation and zeroGrad while tracing, inputs that need no gradient, Fusion::run results keep history, errors
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$j = fn($t) => $t === null ? 'null' : json_encode($t->toArray());
$close = function (array $a, array $b): bool {
    foreach ($a as $i => $v) if (abs($v - $b[$i]) > 1e-5) return false;
    return true;
};

// a linear layer's mean: the gradient lands in the same plan as the loss
$in = CudaArray::fromFlatArray([1, 2, 3, 4], [2, 2])->requiresGrad();
$wt = CudaArray::fromFlatArray([2, 0, 1, 1], [2, 2])->requiresGrad();
$g = Fusion::compile(function ($x, $w) {
    $loss = $x->matmul($w)->mean();
    $loss->backward();
    return ['loss' => $loss, 'dx' => $x->grad(), 'dw' => $w->grad()];
}, [$in, $wt]);
$o = $g->run($in, $wt);
echo $j($o['loss']), ' ', $j($o['dx']), ' ', $j($o['dw']), "\n";
var_dump($in->grad(), count($g->getPlan()['steps'] ?? $g->getPlan()) > 0);
// the plan runs again on other values: it is the gradient, not the trace's numbers
$o = $g->run(CudaArray::fromFlatArray([0, 0, 1, 1], [2, 2]), CudaArray::fromFlatArray([1, 2, 3, 4], [2, 2]));
echo $j($o['loss']), ' ', $j($o['dx']), ' ', $j($o['dw']), "\n";

// softmax cross-entropy written out by hand (NumPy: softmax(s) - onehot)
$logits = CudaArray::fromFlatArray([1, 2, 3, 0.5, 0.5, -1], [2, 3])->requiresGrad();
$labels = CudaArray::fromFlatArray([0, 0, 1, 1, 0, 0], [2, 3]);
$ce = Fusion::compile(function ($s, $t) {
    $sh = $s - $s->max(1)->reshape([2, 1]);
    $loss = ($sh->exp()->sum(1)->reshape([2, 1])->log() - ($sh * $t)->sum(1)->reshape([2, 1]))->sum(0);
    $loss->backward();
    $GLOBALS['labelsGrad'] = $t->grad(); // the labels do not require gradients
    return [$loss, $s->grad()];
}, [$logits, $labels]);
[$l, $d] = $ce->run($logits, $labels);
var_dump($close($l->toArray(), [1.2065221]), $close(array_merge(...$d->toArray()),
    [0.09003057, 0.24472847, -0.33475904, -0.55018378, 0.44981622, 0.10036756]), $labelsGrad);

// backward() twice while tracing accumulates; zeroGrad() while tracing starts again
$p = CudaArray::fromFlatArray([1, 2], [2])->requiresGrad();
$acc = Fusion::compile(function ($v) {
    ($v * $v)->sum()->backward();
    $first = $v->grad();
    ($v * 3)->sum()->backward();
    $both = $v->grad();
    $v->zeroGrad();
    $GLOBALS['afterZero'] = $v->grad();
    $v->sum()->backward(); // (a fresh start)
    return [$first, $both, $v->grad()];
}, [$p]);
[$f1, $f2, $f3] = $acc->run($p);
echo $j($f1), ' ', $j($f2), ' ', $j($f3), ' ', $j($afterZero), "\n";

// an input given as a shape can be marked inside the closure; a seed works while tracing
$seeded = Fusion::compile(function ($v, $seed) {
    $v->requiresGrad();
    ($v->exp())->backward($seed);
    return $v->grad();
}, [[[3], 'float64'], [[3], 'float64']]);
$r = $seeded->run(CudaArray::fromFlatArray([0, 1, 2], [3], 'float64'), CudaArray::fromFlatArray([1, 2, 0], [3], 'float64'));
var_dump($close($r->toArray(), [1, 2 * M_E, 0]));

// a captured weight that requires gradients is an input of the plan like any other
$cw = CudaArray::fromFlatArray([0.5, -1], [2])->requiresGrad();
$cap = Fusion::compile(function ($x) use ($cw) {
    ($x * $cw)->sum()->backward();
    return $cw->grad();
}, [CudaArray::ones([2])]);
echo $j($cap->run(CudaArray::fromFlatArray([4, 5], [2]))), ' ', $j($cw->grad()), "\n";

// a training step by hand: backward(), then SGD on the donated weight (updated in place)
$wd = CudaArray::fromFlatArray([1, -2], [2])->requiresGrad();
$sgd = Fusion::compile(function ($w, $x) {
    ($w * $x)->sum()->backward();
    return ['w' => $w - $w->grad() * 0.5];
}, ['w' => $wd, 'x' => CudaArray::ones([2])], 'sgd', ['w' => 'w']);
$r = $sgd->run($wd, CudaArray::fromFlatArray([2, 4], [2]));
echo $j($r['w']), ' ', var_export($r['w'] === $wd, true), ' ', $j($wd), "\n";

// Fusion::run: the result keeps its history, so backward() reaches the captured leaf
$leaf = CudaArray::fromFlatArray([2, 3], [2])->requiresGrad();
$out = Fusion::run(fn() => $leaf * $leaf);
$out->sum()->backward();
echo $j($leaf->grad()), "\n";

// errors while tracing
$show = function (callable $f) {
    try { $f(); echo "no exception\n"; } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
};
$show(fn() => Fusion::compile(fn($x) => [$x->sum()->backward(), $x][1], [CudaArray::ones([2])]));
$show(fn() => Fusion::compile(fn($x) => ($x * 2)->requiresGrad(), [CudaArray::ones([2])]));
$show(fn() => Fusion::compile(function ($x) { $x->requiresGrad(); ($x * $x)->backward(); return $x; }, [CudaArray::ones([2])]));
$show(fn() => Fusion::compile(function ($x) { $x->requiresGrad(); $x->argMax()->astype('float32')->backward(); return $x; }, [CudaArray::ones([2])]));
?>
--EXPECTF--
[5] [[0.5,0.5],[0.5,0.5]] [[1,1],[1.5,1.5]]
NULL
bool(true)
[2.5] [[0.75,1.75],[0.75,1.75]] [[0.25,0.25],[0.25,0.25]]
bool(true)
bool(true)
NULL
[2,4] [5,7] [1,1] null
bool(true)
[4,5] null
[0,-4] true [0,-4]
[4,6]
Cuda\RuntimeException: backward(): no input of the traced function requires gradients (call requiresGrad() on the tensor given for it)
Cuda\InvalidArgumentException: requiresGrad(): while tracing, only an input of the traced function can require gradients
Cuda\InvalidArgumentException: backward(): the tensor has shape [2], not a single value: pass the gradient of the loss with respect to it (a tensor of shape [2])
Cuda\RuntimeException: backward(): %s

