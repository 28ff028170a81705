<?php
/*
 * bench/scale.php: time per training step of one compiled MLP step (bench/scale_graph.py, built
 * with `gtc compile`, loaded as an extension after gtc.so), from PHP: inputs made from the
 * model's inputs() (x uniform [0, 1), y one-hot, weights uniform +-1/sqrt(fan_in), small biases,
 * lr 0.01), the parameters donated (updated in place). Warm-up steps first (the first builds
 * the CUDA Graph), then each repeat times N steps and one synchronising read of the last loss.
 *
 *   php -n -d extension=build/gtc.so -d extension=MODEL.so bench/scale.php [--steps=N] [--reps=R]
 *
 * Prints one JSON line: {"impl": "gtc", "class": ..., "us_per_step": median, "loss_first", "loss_last"}.
 */
use Cuda\CudaArray;

$opt = ['steps' => 0, 'reps' => 7, 'warmup' => 0];
foreach (array_slice($argv, 1) as $arg) {
    if (!preg_match('/^--([a-z]+)=(\d+)$/', $arg, $m) || !array_key_exists($m[1], $opt)) {
        fwrite(STDERR, "usage: scale.php [--steps=N] [--reps=R] [--warmup=N]\n");
        exit(2);
    }
    $opt[$m[1]] = (int)$m[2];
}
$class = null;
foreach (get_declared_classes() as $c) {
    $r = new ReflectionClass($c);
    if ($r->isInternal() && $r->isFinal() && $r->hasMethod('getStats') && $r->hasMethod('run') && $r->hasMethod('inputs'))
        $class = $c;
}
if (!$class) {
    fwrite(STDERR, "scale.php: load a model compiled from bench/scale_graph.py's output (-d extension=MODEL.so)\n");
    exit(2);
}
$model = new $class();
$io = $model->inputs();
$args = [];
$seed = 1;
foreach ($io as $name => $in) {
    $shape = $in['shape'];
    if ($name === 'lr') $args[$name] = 0.01;
    elseif ($name === 'x') $args[$name] = CudaArray::rand($shape, $seed++);
    elseif ($name === 'y') {
        [$b, $k] = $shape;
        $labels = CudaArray::randint(0, $k, [$b, 1], $seed++);
        $args[$name] = $labels->eq(CudaArray::arange(0, $k, dtype: 'int64'))->astype('float32', 'unsafe');
    } else {
        $lim = $name[0] === 'w' ? 1 / sqrt($shape[0]) : 0.01;
        $args[$name] = CudaArray::rand($shape, $seed++)->multiply(2 * $lim)->subtract($lim);
    }
}
/* one step: the parameters updated in place (donated), the loss returned */
$step = function () use ($model, &$args) {
    $o = $model->run(...$args);
    foreach ($o as $k => $v)
        if ($k !== 'loss') $args[$k] = $v;
    return $o['loss'];
};
$t0 = hrtime(true);
$first = $step()->item();
$first_ms = (hrtime(true) - $t0) / 1e6;
$t0 = hrtime(true);
$step()->item();
$one = (hrtime(true) - $t0) / 1e3;
$steps = $opt['steps'] ?: max(3, min(2000, (int)(200000 / max($one, 1))));
for ($i = 0; $i < ($opt['warmup'] ?: max(2, intdiv($steps, 10))); $i++) $step();
$times = [];
$last = 0.0;
for ($r = 0; $r < $opt['reps']; $r++) {
    $t0 = hrtime(true);
    for ($i = 0; $i < $steps; $i++) $loss = $step();
    $last = $loss->item();
    $times[] = (hrtime(true) - $t0) / 1e3 / $steps;
}
sort($times);
echo json_encode(['impl' => 'gtc', 'class' => $class, 'us_per_step' => $times[intdiv(count($times), 2)],
                  'steps' => $steps, 'reps' => $opt['reps'], 'first_run_ms' => $first_ms,
                  'loss_first' => $first, 'loss_last' => $last]), "\n";
