<?php
/*
 * bench/compile.php: time per training step from PHP, the eager CudaArray step or the compiled
 * model (`gtc compile`), for one of the example graphs (one-hidden-layer MLP: forward, stable
 * softmax cross-entropy, the hand-written backward, SGD with gradients clipped to ±5, the
 * parameters updated in place).
 *
 *   php -n -d extension=build/gtc.so bench/compile.php --graph=examples/train_step.json --mode=eager
 *   php -n -d extension=build/gtc.so -d extension=build/bench/train_step.so \
 *       bench/compile.php --graph=examples/train_step.json --mode=compiled
 *   GTC_CACHE_DIR=DIR php -n -d extension=build/gtc.so [-d extension=build/bench/train_step.so] \
 *       bench/compile.php --graph=examples/train_step.json --mode=jit
 *   options: [--steps=N] (steps per repeat; default eager 200, compiled/jit 2000) [--reps=11] [--warmup=N]
 *
 * --mode=jit: Cuda\Fusion::compile of the same step as a PHP closure (eager_step below, traced
 * once with placeholders; the parameters donated as in the graph JSON). Reports compile_ms (the
 * first compile in this process: trace + plan + NVRTC/cc, or the kernel disk cache of
 * $GTC_CACHE_DIR when an earlier process filled it; getStats()['kernels'] says which),
 * memory_hit_ms (median of 5 more compiles of the same closure: trace + in-process plan cache
 * hit), first_run_ms (the first run() + item(): CUDA Graph instantiation) and the replay time per
 * step as for compiled. When a model extension of the same graph is loaded too, its replay is timed
 * in the same process, the repeats interleaved (JIT, AOT, JIT, AOT, ...), from its own copy of
 * the same parameters: aot_us_per_step, aot_loss_first, aot_loss_last (equal losses: equal steps).
 *
 * Prints one JSON line: {"impl": "gtc", "mode": ..., "graph": ..., "us_per_step": median, ...}.
 * Method: inputs are made once with random data (x uniform [0, 1), y one-hot, weights uniform
 * ±1/sqrt(fan_in), small random biases); warm-up steps first (the compiled model builds and
 * instantiates its CUDA Graph on the first run); then each repeat times a loop of N steps followed
 * by one synchronising read of the last loss (item(): a copy to the host on the only stream, so it
 * waits for every queued step). Reported: the median over the repeats of (loop + sync) / N.
 * The eager step is op for op the graph (examples/train_mlp.php's eager_step); the compiled step
 * is one $model->run(...) call (one CUDA Graph replay), its parameters donated (updated in place).
 */
use Cuda\CudaArray;
use Cuda\Fusion;

$opt = ['graph' => 'examples/train_step.json', 'mode' => 'eager', 'steps' => 0, 'reps' => 11, 'warmup' => 0];
foreach (array_slice($argv, 1) as $arg) {
    if (!preg_match('/^--([a-z]+)=(.*)$/', $arg, $m) || !array_key_exists($m[1], $opt)) {
        fwrite(STDERR, "usage: compile.php --graph=FILE --mode=eager|compiled|jit [--steps=N] [--reps=R] [--warmup=N]\n");
        exit(2);
    }
    $opt[$m[1]] = is_int($opt[$m[1]]) ? (int)$m[2] : $m[2];
}
if (!in_array($opt['mode'], ['eager', 'compiled', 'jit'], true)) {
    fwrite(STDERR, "compile.php: --mode must be eager, compiled or jit\n");
    exit(2);
}
$compiled = $opt['mode'] === 'compiled';
$jitMode = $opt['mode'] === 'jit';
$steps = $opt['steps'] ?: ($compiled || $jitMode ? 2000 : 200);
$warm = $opt['warmup'] ?: ($compiled || $jitMode ? 200 : 20);
$reps = max(1, $opt['reps']);

$g = json_decode(file_get_contents($opt['graph']), true);
if (!$g) {
    fwrite(STDERR, "compile.php: cannot read {$opt['graph']}\n");
    exit(2);
}
$shape = [];
foreach ($g['inputs'] as $in) $shape[$in['name']] = $in['shape'];
[$B, $D] = $shape['x'];
[$H, $K] = $shape['w2'];

/* The step of examples/train_step.json / digits_step.json, op for op (also the closure the JIT
 * traces: then every argument is a placeholder, $lr a rank-0 float32 one). */
function eager_step(CudaArray $x, CudaArray $y, array $p, CudaArray|float $lr, int $batch): array {
    $h1 = $x->matmul($p['w1'])->add($p['b1']);
    $a1 = $h1->relu();
    $logits = $a1->matmul($p['w2'])->add($p['b2']);
    $m = $logits->max(1, keepdims: true);
    $sh = $logits->subtract($m);
    $e = $sh->exp();
    $se = $e->sum(1, keepdims: true);
    $logp = $sh->subtract($se->log());
    $loss = $y->multiply($logp)->sum(1)->mean()->neg();
    $dlogits = $e->divide($se)->subtract($y)->divide($batch);
    $dw2 = $a1->transpose([1, 0])->matmul($dlogits);
    $db2 = $dlogits->sum(0);
    $da1 = $dlogits->matmul($p['w2']->transpose([1, 0]));
    $dh1 = CudaArray::where($h1->gt(0), $da1, 0.0);
    $dw1 = $x->transpose([1, 0])->matmul($dh1);
    $db1 = $dh1->sum(0);
    $out = ['loss' => $loss];
    foreach (['w1' => $dw1, 'b1' => $db1, 'w2' => $dw2, 'b2' => $db2] as $k => $gr)
        $out[$k] = $p[$k]->subtract($gr->clamp(-5, 5)->multiply($lr));
    return $out;
}

function uniform(array $shape, float $lim, int $seed): CudaArray {
    return CudaArray::rand($shape, $seed)->multiply(2 * $lim)->subtract($lim);
}

function median(array $v): float {
    sort($v);
    $n = count($v);
    return $n % 2 ? $v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2;
}

$x = CudaArray::rand([$B, $D], 1);
$onehot = [];
for ($i = 0; $i < $B; $i++) {
    $row = array_fill(0, $K, 0.0);
    $row[($i * 7 + 3) % $K] = 1.0;
    $onehot[] = $row;
}
$y = new CudaArray($onehot);
$params = fn() => ['w1' => uniform([$D, $H], 1 / sqrt($D), 2), 'b1' => uniform([$H], 0.01, 3),
                   'w2' => uniform([$H, $K], 1 / sqrt($H), 4), 'b2' => uniform([$K], 0.01, 5)];
$p = $params();
$lr = 0.01;

/* The loaded model extension's class (final, internal, with run/inputs/getStats), checked against
 * the graph's shapes; null when none is loaded. */
function model_class(array $shapeX, array $shapeW2, string $graph): ?string {
    foreach (get_declared_classes() as $c) {
        $r = new ReflectionClass($c);
        if ($r->isInternal() && $r->isFinal() && $r->hasMethod('getStats') && $r->hasMethod('run') && $r->hasMethod('inputs')) {
            $io = (new $c())->inputs();
            if (($io['x']['shape'] ?? null) !== $shapeX || ($io['w2']['shape'] ?? null) !== $shapeW2) {
                fwrite(STDERR, "compile.php: the loaded model $c is not compiled from $graph\n");
                exit(2);
            }
            return $c;
        }
    }
    return null;
}

/* One step of a compiled model (a model extension or a FusionGraph), the parameters donated. */
function model_step(object $model, CudaArray $x, CudaArray $y, array &$p, float $lr): Closure {
    return function () use ($model, $x, $y, &$p, $lr) {
        $o = $model->run(x: $x, y: $y, w1: $p['w1'], b1: $p['b1'], w2: $p['w2'], b2: $p['b2'], lr: $lr);
        $p = ['w1' => $o['w1'], 'b1' => $o['b1'], 'w2' => $o['w2'], 'b2' => $o['b2']];
        return $o['loss'];
    };
}

/* One repeat: N steps and one synchronising read of the last loss; [us per step, that loss]. */
function timed(Closure $step, int $steps): array {
    $t0 = hrtime(true);
    for ($i = 0; $i < $steps; $i++) $last = $step();
    $l = (float)$last->item();
    return [(hrtime(true) - $t0) * 1e-3 / $steps, $l];
}

$model = null;    // the model whose getStats() goes into the row
$aotStep = null;  // --mode=jit with a model extension loaded: the AOT step, timed alongside
$jitInfo = [];
if ($compiled) {
    $class = model_class([$B, $D], [$H, $K], $opt['graph']);
    if (!$class) {
        fwrite(STDERR, "compile.php: --mode=compiled needs a model extension loaded (-d extension=MODEL.so)\n");
        exit(2);
    }
    $model = new $class();
    $step = model_step($model, $x, $y, $p, $lr);
} elseif ($jitMode) {
    $cacheDir = getenv('GTC_CACHE_DIR') ?: (getenv('HOME') ?: '/tmp') . '/.cache/gtc';
    $before = is_dir($cacheDir) ? count(array_diff(scandir($cacheDir), ['.', '..'])) : 0;
    $fn = fn($x, $y, $w1, $b1, $w2, $b2, $lr) =>
        eager_step($x, $y, ['w1' => $w1, 'b1' => $b1, 'w2' => $w2, 'b2' => $b2], $lr, $B);
    $spec = ['x' => [[$B, $D], 'float32'], 'y' => [[$B, $K], 'float32'], 'w1' => [[$D, $H], 'float32'],
             'b1' => [[$H], 'float32'], 'w2' => [[$H, $K], 'float32'], 'b2' => [[$K], 'float32'], 'lr' => 'float32'];
    $donate = ['w1' => 'w1', 'b1' => 'b1', 'w2' => 'w2', 'b2' => 'b2'];
    $name = basename($opt['graph'], '.json');
    $t0 = hrtime(true);
    $model = Fusion::compile($fn, $spec, $name, $donate);
    $compileMs = (hrtime(true) - $t0) * 1e-6;
    $hits = [];
    for ($i = 0; $i < 5; $i++) {
        $t0 = hrtime(true);
        $again = Fusion::compile($fn, $spec, $name, $donate);
        $hits[] = (hrtime(true) - $t0) * 1e-6;
    }
    $jitInfo = ['compile_ms' => round($compileMs, 3), 'memory_hit_ms' => round(median($hits), 4),
                'memory_hit_cache' => $again->getStats()['cache'], 'cache_dir_entries_before' => $before];
    unset($again);
    $step = model_step($model, $x, $y, $p, $lr);
    if ($class = model_class([$B, $D], [$H, $K], $opt['graph'])) {
        $aot = new $class();
        $q = $params();
        $aotStep = model_step($aot, $x, $y, $q, $lr);
    }
} else {
    $step = function () use ($x, $y, &$p, $lr, $B) {
        $o = eager_step($x, $y, $p, $lr, $B);
        $p = ['w1' => $o['w1'], 'b1' => $o['b1'], 'w2' => $o['w2'], 'b2' => $o['b2']];
        return $o['loss'];
    };
}

$t0 = hrtime(true);
$first = (float)$step()->item();
$firstMs = (hrtime(true) - $t0) * 1e-6;
for ($i = 1; $i < $warm; $i++) $last = $step();
$last = $step();
$afterWarm = (float)$last->item();
if ($aotStep) {
    $aotFirst = (float)$aotStep()->item();
    for ($i = 0; $i < $warm; $i++) $last = $aotStep();
    $last->item();
}
$t = $ta = [];
for ($r = 0; $r < $reps; $r++) {
    [$t[], $l] = timed($step, $steps);
    if ($aotStep) [$ta[], $la] = timed($aotStep, $steps);
}
$row = ['impl' => 'gtc', 'mode' => $opt['mode'], 'graph' => basename($opt['graph'], '.json'),
        'us_per_step' => median($t), 'min' => min($t), 'max' => max($t), 'steps' => $steps, 'reps' => $reps,
        'loss_first' => $first, 'loss_after_warmup' => $afterWarm, 'loss_last' => $l,
        'device' => $x->device()];
if ($jitMode) {
    $row += $jitInfo + ['first_run_ms' => round($firstMs, 3)];
    if ($aotStep) {
        $row += ['aot_class' => $class, 'aot_us_per_step' => median($ta), 'aot_min' => min($ta), 'aot_max' => max($ta),
                 'aot_loss_first' => $aotFirst, 'aot_loss_last' => $la];
    }
}
if ($model) {
    $s = $model->getStats();
    $row += ['class' => get_class($model), 'graphNodes' => $s['graphNodes'], 'backend' => $s['backend'],
             'replays' => $s['replays'], 'kernels' => $s['kernels'] ?? null];
    if ($jitMode) $row += ['plan_steps' => $s['steps'], 'cache' => $s['cache'] ?? null];
}
echo json_encode($row, JSON_UNESCAPED_SLASHES), "\n";
