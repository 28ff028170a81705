<?php
/* tests/e2e/autograd_closure.php: the training step of examples/train_auto.json three ways, each
 * feeding its updated parameters back for STEPS steps from the same seeded inputs:
 *   - the model `gtc compile` builds from the JSON (its "train" section: autodiff + clipped SGD);
 *   - a Cuda\Fusion::compile closure that computes the loss, calls backward() and writes the
 *     clipped SGD update by hand with $w->grad(), the parameters donated (updated in place);
 *   - the same step eagerly with autograd (requiresGrad, backward, grad, detach).
 * All three must give the same loss and parameters within TOL (relative, Frobenius). Run by
 * tests/e2e/run.sh as
 *
 *   php -n -d extension=gtc.so -d extension=AUTO.so autograd_closure.php AUTO_CLASS [STEPS]
 *
 * (MlpAutoStep of examples/train_auto.json for 20 steps, DigitsAutoStep of
 * examples/digits_auto.json for 100: the autograd issue's check)
 *
 * Prints "ok - ..." / "not ok - ..." lines, then "N passed, N failed". */
declare(strict_types=1);

require_once __DIR__ . '/check.inc';

use Cuda\CudaArray;
use Cuda\Fusion;

define('STEPS', max(1, (int)($argv[2] ?? 20)));
const TOL = 1e-5;

$autoClass = $argv[1] ?? '';
if (!class_exists($autoClass)) {
    echo "not ok - class $autoClass is loaded\n0 passed, 1 failed\n";
    exit(1);
}
$model = new $autoClass();
$params = ['w1', 'b1', 'w2', 'b2'];

/* train_auto.json's forward pass and loss; "stop_gradient": ["m"] is detach(); its optimizer
 * (sgd, clip_value 5) by hand. The parameters require gradients (marked here: in a trace they
 * are placeholders given as shapes). */
function step(CudaArray $x, CudaArray $y, CudaArray $w1, CudaArray $b1, CudaArray $w2, CudaArray $b2, $lr): array
{
    foreach ([$w1, $b1, $w2, $b2] as $p) $p->requiresGrad();
    $logits = $x->matmul($w1)->add($b1)->relu()->matmul($w2)->add($b2);
    $sh = $logits - $logits->max(1, true)->detach();
    $loss = ($sh->exp()->sum(1, true)->log() - ($y * $sh)->sum(1, true))->mean();
    $loss->backward();
    $update = fn(CudaArray $w) => $w - $w->grad()->clamp(-5, 5) * $lr;
    return ['loss' => $loss, 'w1' => $update($w1), 'b1' => $update($b1), 'w2' => $update($w2), 'b2' => $update($b2)];
}

$spec = [];
foreach ($model->inputs() as $name => $info) $spec[$name] = [$info['shape'], $info['dtype']];
$fused = Fusion::compile('step', $spec, 'autograd_step', array_combine($params, $params));
check(true, 'Fusion::compile traces a closure that calls backward() into one plan (' . $fused->getStats()['steps'] . ' steps)');

$shapes = array_map(fn($i) => $i['shape'], $model->inputs());
[$batch, $din] = $shapes['x'];
[$hidden, $classes] = $shapes['w2'];
$labels = (CudaArray::rand([$batch, 1], seed: 21) * $classes)->floor()->astype('int32', casting: 'unsafe');
$init = [
    'x' => (CudaArray::rand([$batch, $din], seed: 22) - 0.5) * 2.0,
    'y' => CudaArray::where($labels->eq(new CudaArray([range(0, $classes - 1)], 'int32')), 1.0, 0.0)->astype('float32'),
    'w1' => (CudaArray::rand([$din, $hidden], seed: 23) - 0.5) * (2.0 * sqrt(6.0 / $din)),
    'b1' => (CudaArray::rand([$hidden], seed: 24) - 0.5) * 0.2,
    'w2' => (CudaArray::rand([$hidden, $classes], seed: 25) - 0.5) * (2.0 * sqrt(3.0 / $hidden)),
    'b2' => (CudaArray::rand([$classes], seed: 26) - 0.5) * 0.2,
    'lr' => 0.05,
];
$copy = fn(array $s) => array_map(fn($v) => $v instanceof CudaArray ? clone $v : $v, $s);
[$sm, $sf, $se] = [$copy($init), $copy($init), $copy($init)];
$worstF = $worstE = 0.0;
$inPlace = true;
for ($k = 1; $k <= STEPS; $k++) {
    $before = $sf;
    $rm = $model->run(...$sm);
    $rf = $fused->run(...$sf);
    $re = step(...$se);
    foreach ($rm as $n => $v) {
        $worstF = max($worstF, rel_err($rf[$n], $v));
        $worstE = max($worstE, rel_err($re[$n], $v));
    }
    foreach ($params as $p) {
        $inPlace = $inPlace && $rf[$p] === $before[$p];
        $sm[$p] = $rm[$p];
        $sf[$p] = $rf[$p];
        $se[$p] = $re[$p]->detach(); // a fresh leaf for the next step
    }
    if ($k === 1) $loss0 = $rm['loss']->item();
}
check($worstF <= TOL, sprintf('%d steps: the fused autograd closure matches gtc compile of the JSON (worst rel err %.2g)', STEPS, $worstF));
check($worstE <= TOL, sprintf('%d steps: eager autograd matches gtc compile of the JSON (worst rel err %.2g)', STEPS, $worstE));
check($inPlace, 'the fused closure updates the donated parameters in place');
check($rm['loss']->item() < $loss0, sprintf('training lowers the loss (%.4f -> %.4f)', $loss0, $rm['loss']->item()));

echo "$passed passed, $failed failed\n";
exit($failed ? 1 : 0);
