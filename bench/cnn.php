<?php
/*
 * bench/cnn.php: gtc's side of bench/cnn.sh: the CNN training step of examples/cnn_digits.json
 * compiled by `gtc compile` (class CnnDigitsStep, loaded with -d extension=) and single eager
 * conv2d calls, timed from PHP.
 *
 *   php -n -d extension=build/gtc.so -d extension=build/models/cnn_digits.so bench/cnn.php [--steps=2000] [--ops=1]
 *
 * The step runs on one fixed batch of seeded random data (its time does not depend on the
 * values), parameters updated in place (AdamW, lr 1e-3). Time per step: the median over 10 intervals of
 * wall time / steps, each interval ending with one read-back of the loss (which waits for the
 * queued work). --ops=1 times $x->conv2d($w, $b, pads:) for the shapes of bench/conv_shapes.json
 * (bench/cnn_torch.py's too), read back every 100 calls, labelled with GTC_CONV (which convolution
 * eager calls take: auto, gtc's plan, cuDNN); --steps=0 skips the step. One JSON object per row
 * on stdout.
 */
use Cuda\CudaArray;

$opt = ['steps' => 2000, 'ops' => 1];
foreach (array_slice($argv, 1) as $arg) {
    if (!preg_match('/^--(steps|ops)=(\d+)$/', $arg, $m)) {
        fwrite(STDERR, "usage: cnn.php [--steps=N] [--ops=0|1]\n");
        exit(2);
    }
    $opt[$m[1]] = (int)$m[2];
}

function median(array $v): float {
    sort($v);
    $n = count($v);
    return $n % 2 ? $v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2;
}

/* Median over 10 intervals of microseconds per call of $f (which returns something to read back). */
function timed(callable $f, int $n): float {
    $per = max(1, intdiv($n, 10));
    $out = [];
    for ($r = 0; $r < 10; $r++) {
        $t = hrtime(true);
        for ($i = 0; $i < $per; $i++) $last = $f();
        $last->reshape([-1])->slice('0')->item();
        $out[] = (hrtime(true) - $t) / 1e3 / $per;
    }
    return median($out);
}

if ($opt['steps'] > 0 && class_exists('CnnDigitsStep')) {
    $m = new CnnDigitsStep();
    $p = [];
    $state = $m->optimizerState(); // the model owns these (moments, step): not passed
    foreach ($m->inputs() as $name => $io) {
        if (array_key_exists($name, $state) || $name === 'adamw_step') continue;
        $p[$name] = match ($name) {
            'x' => CudaArray::randn($io['shape'], 1),
            'y' => CudaArray::randint(0, 10, [$io['shape'][0]], 2, 'int32')->oneHot(10),
            'lr' => 1e-3,
            default => CudaArray::randn($io['shape'], 3 + count($p)) * 0.1,
        };
    }
    $t0 = hrtime(true);
    for ($i = 0; $i < 20; $i++) $out = $m->run(...$p);
    $out['loss']->item();
    $warm = (hrtime(true) - $t0) / 1e9;
    $us = timed(fn() => $m->run(...$p)['loss'], $opt['steps']);
    echo json_encode(['row' => 'step', 'variant' => 'gtc aot', 'us_per_step' => $us, 'warmup_s' => $warm,
                      'loss' => $m->run(...$p)['loss']->item(), 'backend' => $m->getStats()['backend'] ?? '?']), "\n";
} elseif ($opt['steps'] > 0) {
    fwrite(STDERR, "cnn.php: class CnnDigitsStep not loaded (gtc compile examples/cnn_digits.json): step row skipped\n");
}

if ($opt['ops']) {
    $shapes = json_decode(file_get_contents(__DIR__ . '/conv_shapes.json'), true);
    foreach ($shapes as [$xs, $ws, $pad]) {
        $x = CudaArray::randn($xs, 4);
        $w = CudaArray::randn($ws, 5);
        $b = CudaArray::randn([$ws[0]], 6);
        for ($i = 0; $i < 10; $i++) $x->conv2d($w, $b, pads: [$pad, $pad, $pad, $pad]);
        $us = timed(fn() => $x->conv2d($w, $b, pads: [$pad, $pad, $pad, $pad]), 1000);
        echo json_encode(['row' => 'conv2d', 'x' => $xs, 'w' => $ws, 'pad' => $pad, 'us_per_call' => $us,
                          'conv' => getenv('GTC_CONV') ?: 'auto']), "\n";
    }
}
