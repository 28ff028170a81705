<?php
/*
 * bench/cpu.php: gtc's side of bench/cpu.sh: one compiled step (a training step or an inference:
 * a class from a model extension built by `gtc compile --cpu-only`), timed from PHP on the CPU
 * backend.
 *
 *   GTC_DEVICE=cpu GTC_CPU_THREADS=N php -n -d extension=build/gtc.so -d extension=model.so \
 *       bench/cpu.php --class=Name [--steps=200]
 *
 * Inputs: seeded random data (x ~ N(0,1), one-hot y, parameters N(0,1) * 0.05, lr 1e-3; AdamW's
 * state is the model's own). Time per step: the median over 10 intervals of wall time / steps,
 * each interval ending with one element of the first output read back. One JSON object on stdout.
 */
use Cuda\CudaArray;

$opt = ['class' => '', 'steps' => '200'];
foreach (array_slice($argv, 1) as $arg) {
    if (!preg_match('/^--(class|steps)=(\w+)$/', $arg, $m)) {
        fwrite(STDERR, "usage: cpu.php --class=NAME [--steps=N]\n");
        exit(2);
    }
    $opt[$m[1]] = $m[2];
}
if (!class_exists($opt['class'])) {
    fwrite(STDERR, "cpu.php: class {$opt['class']} is not loaded (-d extension=model.so)\n");
    exit(2);
}
$m = new ($opt['class'])();
$state = method_exists($m, 'optimizerState') ? $m->optimizerState() : [];
$p = [];
foreach ($m->inputs() as $name => $io) {
    if (array_key_exists($name, $state) || $name === 'adamw_step') continue;
    $p[$name] = match ($name) {
        'x' => CudaArray::randn($io['shape'], 1),
        'y' => CudaArray::randint(0, $io['shape'][1], [$io['shape'][0]], 2, 'int32')->oneHot($io['shape'][1]),
        'lr' => 1e-3,
        default => CudaArray::randn($io['shape'], 3 + count($p)) * 0.05,
    };
}
$steps = max(10, (int)$opt['steps']);
$read = fn(array $out) => $out[array_key_first($out)]->reshape([-1])->slice('0')->item(); // waits for the step
for ($i = 0; $i < 5; $i++) $out = $m->run(...$p);
$read($out);
$per = intdiv($steps, 10);
$t = [];
for ($r = 0; $r < 10; $r++) {
    $t0 = hrtime(true);
    for ($i = 0; $i < $per; $i++) {
        $out = $m->run(...$p);
        foreach ($out as $k => $v) if (array_key_exists($k, $p)) $p[$k] = $v; // donated parameters
    }
    $read($out);
    $t[] = (hrtime(true) - $t0) / 1e3 / $per;
}
sort($t);
echo json_encode(['class' => $opt['class'], 'us_per_step' => ($t[4] + $t[5]) / 2, 'min' => $t[0], 'max' => $t[9],
                  'loss' => isset($out['loss']) ? $out['loss']->item() : null, 'threads' => getenv('GTC_CPU_THREADS')]), "\n";
