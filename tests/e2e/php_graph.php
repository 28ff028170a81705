<?php
/* tests/e2e/php_graph.php: a PHP graph file run two ways gives the same outputs: its function
 * called eagerly with CudaArray, and the model that `gtc compile` built from the same file.
 * Run by tests/e2e/php_graphs.sh as
 *
 *   php -n -d extension=gtc.so -d extension=MODEL.so php_graph.php STEP.php FUNCTION CLASS
 *
 * Inputs are random (fixed seeds) with the shapes of the function's #[Gtc\Input] attributes;
 * several steps feed the updated parameters back, and the loss must fall. Prints "ok - ..." / "not ok - ..." lines,
 * then "N passed, N failed". */
declare(strict_types=1);

require_once __DIR__ . '/check.inc';

use Cuda\CudaArray;

[, $file, $fn, $class] = $argv + [null, '', '', ''];
require $file;

/* Inputs from the attributes, as a user would make them: parameters small, lr a float. */
$inputs = [];
$seed = 1;
foreach ((new ReflectionFunction($fn))->getParameters() as $param) {
    $in = $param->getAttributes(Gtc\Input::class)[0]->newInstance();
    $inputs[$param->getName()] = $in->shape === [] ? 0.1
        : CudaArray::rand($in->shape, $seed++, $in->dtype)->subtract(0.5)->multiply(0.2);
}
if (isset($inputs['y'])) { /* one-hot targets */
    $shape = $inputs['y']->getShape();
    $labels = CudaArray::rand([$shape[0], 1], 99)->multiply($shape[1])->floor()->astype('int32', casting: 'unsafe');
    $inputs['y'] = CudaArray::where($labels->eq(new CudaArray([range(0, $shape[1] - 1)], 'int32')), 1.0, 0.0);
}

$model = new $class();
$losses = [];
$eager = $inputs;
$aot = array_map(fn($v) => $v instanceof CudaArray ? clone $v : $v, $inputs);
for ($step = 0; $step < 3; $step++) {
    $e = $fn(...$eager);
    $c = $model->run(...$aot);
    check(array_keys($e) === array_keys($c), "step $step: the same outputs", implode(',', array_keys($c)));
    foreach ($e as $name => $value) {
        $err = rel_err($c[$name], $value);
        check($err < 1e-5, "step $step: output $name matches (relative error $err)" .
            ($name === 'loss' ? sprintf('; eager %.6f, compiled %.6f', $value->item(), $c[$name]->item()) : ''));
    }
    if (isset($e['loss'])) {
        $losses[] = $e['loss']->item();
    }
    foreach (['w1', 'b1', 'w2', 'b2'] as $p) {
        if (isset($e[$p])) {
            $eager[$p] = $e[$p];
            $aot[$p] = $c[$p];
        }
    }
}
if ($losses) check(end($losses) < $losses[0], sprintf('training lowers the loss on its batch: %.6f after 3 steps, %.6f before', end($losses), $losses[0]));
echo "$passed passed, $failed failed\n";
exit($failed ? 1 : 0);
