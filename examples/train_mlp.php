<?php
/*
 * examples/train_mlp.php: trains a one-hidden-layer ReLU MLP on examples/data/ (run `make data`
 * first) with eager Cuda\CudaArray ops or with a model compiled by `gtc compile`, then reports
 * test accuracy, the confusion matrix, ROC AUC for binary sets and the speed.
 *
 *   php -d extension=build/gtc.so examples/train_mlp.php --dataset=digits --epochs=1000
 *   php -d extension=build/gtc.so -d extension=build/models/digits.so \
 *       examples/train_mlp.php --mode=aot --dataset=digits
 *   php -d extension=build/gtc.so examples/train_mlp.php --mode=jit --dataset=digits
 *
 * `make models` compiles build/models/digits.so (examples/digits_step.json, class DigitsTrainStep)
 * and build/models/mlp.so (examples/train_step.json, class MlpTrainStep) with `gtc compile`;
 * `make demo` does the second command. In aot mode each step is one call of the compiled class,
 * $model->run(x:, y:, w1:, b1:, w2:, b2:, lr:), which returns ['loss' => ..., 'w1' => ..., ...]
 * with w1..b2 the objects passed in, updated in place; the class's inputs() must match the data
 * and the batch size. In jit mode the same step, eager_step below, is compiled in this process
 * by Cuda\Fusion::compile (traced once with placeholders of the first batch's shapes, lr a
 * float32 scalar, the parameters donated) and each step is one $graph->run(...) with the same
 * arguments and results as aot mode; the compile time and the graph's getStats() are printed.
 * Eager, aot and jit give the same numbers (bit for bit on the CPU backend today; on CUDA within
 * float32 rounding).
 *
 * Options (defaults in brackets; --help lists them):
 *   --mode=eager|aot|jit    eager ops, the compiled step class (digits: DigitsTrainStep from
 *                           examples/digits_step.json; pcam-synthetic: MlpTrainStep from
 *                           examples/train_step.json), or the eager step compiled at start-up
 *                           by Cuda\Fusion::compile [eager]
 *   --dataset=digits|pcam-synthetic     64-64-10 or 480-256-2 [digits]
 *   --epochs=N  --batch-size=N  --learning-rate=F  --seed=N   (aot: the batch size is the graph's)
 *   --device=auto|cpu|cuda|cuda:N   sets GTC_DEVICE for this process before the first tensor is
 *                           made (the device is chosen then; GTC_DEVICE outranks the gtc.device INI
 *                           setting); auto keeps whatever GTC_DEVICE / gtc.device say [auto]
 *   --save=DIR              write w1 b1 w2 b2 and test_predictions as .npy, plus metrics.json
 *   --save-init=DIR         write the initial w1 b1 w2 b2 as .npy before training (bench/train.sh
 *                           gives them to bench/train_torch.py, so PyTorch starts from the same point)
 *   --report-every=N        epochs between loss read-backs [about 20 reports per run]
 *   --shuffle               a new order of the training rows each epoch (Cuda\Batches)
 *   --plot=FILE.svg         draw the loss of the reporting epochs as an SVG line plot
 *                           (examples/svg_plot.php: plain PHP, no library)
 *   --data-dir=DIR          [examples/data]
 *
 * On a terminal, progress is one line redrawn each epoch: a bar, the last loss read back, the
 * rate in samples/s and the estimated time left; otherwise (a log, CI) one line per reporting
 * epoch.
 *
 * The eager step is exactly the graph in examples/digits_step.json (forward, numerically stable
 * softmax cross-entropy, the hand-written backward, SGD with gradients clipped to ±5), so eager and
 * compiled training give the same numbers. Batches are uploaded once as separate contiguous
 * tensors (the compiled step needs contiguous inputs of the graph's batch size); when the batch
 * size does not divide the training set, the last batch is the final rows of the set, overlapping
 * the batch before it, so no row is left out. The rows are in a fixed shuffled order (make data
 * shuffles them), the same every epoch; --shuffle instead draws a new order each epoch on the
 * device with Cuda\Batches (shuffle: true, seed: --seed, dropLast: true: a compiled step takes one
 * batch size, and the rows left over come up in other epochs' batches). The loss is read back only on reporting epochs (that epoch's last
 * step's loss: summing every step's loss on the device would add an eager op, a kernel launch and a
 * PHP call, to each step of a reporting epoch), and those read-backs are the only
 * synchronisations: time per step is the median over reporting intervals of wall time / steps.
 */
use Cuda\CudaArray;

require_once __DIR__ . '/svg_plot.php';

const DATASETS = [
    'digits' => [
        'prefix' => 'digits', 'hidden' => 64, 'epochs' => 1000, 'batch' => 256, 'lr' => 0.5,
        'graph' => 'examples/digits_step.json', 'class' => 'DigitsTrainStep', 'so' => 'digits.so',
    ],
    'pcam-synthetic' => [
        'prefix' => 'pcam', 'hidden' => 256, 'epochs' => 20, 'batch' => 512, 'lr' => 0.03,
        'graph' => 'examples/train_step.json', 'class' => 'MlpTrainStep', 'so' => 'mlp.so',
    ],
];

function fail(string $msg, int $code = 2): never {
    fwrite(STDERR, "train_mlp: $msg\n");
    exit($code);
}

function usage(): string {
    return <<<TXT
    usage: php -d extension=build/gtc.so examples/train_mlp.php [options]
      --mode=eager|aot|jit              [eager]
      --dataset=digits|pcam-synthetic   [digits]
      --epochs=N                        [digits 1000, pcam-synthetic 20]
      --batch-size=N                    [digits 256, pcam-synthetic 512; aot: must be these]
      --learning-rate=F                 [digits 0.5, pcam-synthetic 0.03]
      --seed=N                          [0]
      --device=auto|cpu|cuda|cuda:N     [auto]
      --save=DIR
      --save-init=DIR
      --report-every=N                  [about 20 reports per run]
      --shuffle
      --plot=FILE.svg
      --data-dir=DIR                    [examples/data]

    TXT;
}

function parse_args(array $argv): array {
    $o = ['mode' => 'eager', 'dataset' => 'digits', 'seed' => '0', 'device' => 'auto'];
    $known = ['mode', 'dataset', 'epochs', 'batch-size', 'learning-rate', 'seed', 'device', 'save',
              'save-init', 'report-every', 'data-dir', 'plot'];
    foreach (array_slice($argv, 1) as $a) {
        if ($a === '--help' || $a === '-h') {
            echo usage();
            exit(0);
        }
        if ($a === '--shuffle') {
            $o['shuffle'] = true;
            continue;
        }
        if (!preg_match('/^--([a-z-]+)=(.*)$/s', $a, $m) || !in_array($m[1], $known, true))
            fail("unknown argument '$a'\n" . usage());
        $o[$m[1]] = $m[2];
    }
    if (!in_array($o['mode'], ['eager', 'aot', 'jit'], true)) fail("--mode must be eager, aot or jit, '{$o['mode']}' given");
    if (!isset(DATASETS[$o['dataset']])) fail("--dataset must be digits or pcam-synthetic, '{$o['dataset']}' given");
    if (!preg_match('/^(auto|cpu|cuda|cuda:\d+)$/', $o['device'])) fail("--device must be auto, cpu, cuda or cuda:N, '{$o['device']}' given");
    $ds = DATASETS[$o['dataset']];
    $int = function (string $k, int $def, int $min) use ($o): int {
        if (!isset($o[$k])) return $def;
        if (!preg_match('/^\d+$/', $o[$k]) || (int)$o[$k] < $min) fail("--$k must be an integer >= $min, '{$o[$k]}' given");
        return (int)$o[$k];
    };
    $lr = $o['learning-rate'] ?? (string)$ds['lr'];
    if (!is_numeric($lr) || (float)$lr <= 0) fail("--learning-rate must be a positive number, '$lr' given");
    $epochs = $int('epochs', $ds['epochs'], 1);
    return [
        'mode' => $o['mode'], 'dataset' => $o['dataset'], 'ds' => $ds, 'epochs' => $epochs,
        'batch' => $int('batch-size', $ds['batch'], 1), 'lr' => (float)$lr, 'seed' => $int('seed', 0, 0),
        'device' => $o['device'], 'save' => $o['save'] ?? null, 'save-init' => $o['save-init'] ?? null,
        'shuffle' => isset($o['shuffle']),
        'plot' => isset($o['plot']) ? ($o['plot'] !== '' ? $o['plot'] : fail('--plot needs a file name')) : null,
        'every' => $int('report-every', max(1, intdiv($epochs + 19, 20)), 1),
        'data' => $o['data-dir'] ?? dirname(__DIR__) . '/examples/data',
    ];
}

/* An .npy file written by scripts/make-data.php: [descr, shape, raw little-endian bytes]. */
function npy_load(string $path): array {
    $s = @file_get_contents($path);
    if ($s === false) fail("cannot read $path: run `make data` first", 1);
    if (strlen($s) < 10 || substr($s, 0, 6) !== "\x93NUMPY") fail("$path is not an .npy file", 1);
    [$major] = array_values(unpack('C', $s, 6));
    $off = $major === 1 ? 10 : 12;
    $hlen = $major === 1 ? unpack('v', $s, 8)[1] : unpack('V', $s, 8)[1];
    $h = substr($s, $off, $hlen);
    if (!preg_match("/'descr':\s*'([<|][a-z]\d)'/", $h, $d) || !preg_match("/'shape':\s*\(([\d,\s]*)\)/", $h, $sh)
        || str_contains($h, "'fortran_order': True"))
        fail("$path: unsupported .npy header $h", 1);
    $shape = array_map('intval', array_filter(array_map('trim', explode(',', $sh[1])), 'strlen'));
    $data = substr($s, $off + $hlen);
    $size = ['<f4' => 4, '<i8' => 8][$d[1]] ?? fail("$path: dtype {$d[1]} not expected", 1);
    if (strlen($data) !== array_product($shape) * $size) fail("$path: truncated data", 1);
    return [$d[1], $shape, $data];
}

/* One split: features and one-hot targets as raw float32 bytes, labels as PHP ints. */
function load_split(string $dir, string $prefix, string $split): array {
    [, $xs, $x] = npy_load("$dir/{$prefix}_{$split}_x.npy");
    [, $ys, $y] = npy_load("$dir/{$prefix}_{$split}_y.npy");
    [, $ls, $l] = npy_load("$dir/{$prefix}_{$split}_labels.npy");
    if (count($xs) !== 2 || count($ys) !== 2 || $xs[0] !== $ys[0] || $ls !== [$xs[0]])
        fail("$dir/{$prefix}_{$split}_*.npy: shapes do not agree", 1);
    return ['x' => $x, 'y' => $y, 'labels' => array_values(unpack('P*', $l)), 'n' => $xs[0],
            'd' => $xs[1], 'k' => $ys[1]];
}

/* Uniform(-limit, limit) from the seeded generator. */
function uniform_init(array $shape, float $limit, int $seed): CudaArray {
    return CudaArray::rand($shape, $seed)->multiply(2 * $limit)->subtract($limit);
}

/* The step of examples/digits_step.json, op for op (node names in the comments). --mode=jit traces
 * this very function: then every tensor is a placeholder and $lr a rank-0 float32 one. */
function eager_step(CudaArray $x, CudaArray $y, array $p, CudaArray|float $lr, int $batch): array {
    $z1 = $x->matmul($p['w1']);
    $h1 = $z1->add($p['b1']);
    $a1 = $h1->relu();
    $z2 = $a1->matmul($p['w2']);
    $logits = $z2->add($p['b2']);
    $m = $logits->max(1, keepdims: true);
    $sh = $logits->subtract($m);
    $e = $sh->exp();
    $se = $e->sum(1, keepdims: true);
    $lse = $se->log();
    $logp = $sh->subtract($lse);
    $ylogp = $y->multiply($logp);
    $ll_row = $ylogp->sum(1);
    $ll_mean = $ll_row->mean();
    $loss = $ll_mean->neg();
    $pr = $e->divide($se);
    $p_minus_y = $pr->subtract($y);
    $dlogits = $p_minus_y->divide($batch);
    $dw2 = $a1->transpose([1, 0])->matmul($dlogits);
    $db2 = $dlogits->sum(0);
    $da1 = $dlogits->matmul($p['w2']->transpose([1, 0]));
    $dh1 = CudaArray::where($h1->gt(0), $da1, 0.0);
    $dw1 = $x->transpose([1, 0])->matmul($dh1);
    $db1 = $dh1->sum(0);
    $grads = ['w1' => $dw1, 'b1' => $db1, 'w2' => $dw2, 'b2' => $db2];
    $out = ['loss' => $loss];
    foreach ($grads as $k => $g) $out[$k] = $p[$k]->subtract($g->clamp(-5, 5)->multiply($lr));
    return $out;
}

function forward(CudaArray $x, array $p): CudaArray {
    return $x->matmul($p['w1'])->add($p['b1'])->relu()->matmul($p['w2'])->add($p['b2']);
}

function median(array $v): float {
    sort($v);
    $n = count($v);
    return $n % 2 ? $v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2;
}

/* ROC AUC from scores and 0/1 labels: the Mann-Whitney U statistic with average ranks for ties. */
function roc_auc(array $score, array $label): ?float {
    $idx = array_keys($score);
    usort($idx, fn($a, $b) => $score[$a] <=> $score[$b]);
    $n = count($idx);
    $rankSum = 0.0;
    $pos = 0;
    for ($i = 0; $i < $n;) {
        $j = $i;
        while ($j + 1 < $n && $score[$idx[$j + 1]] == $score[$idx[$i]]) $j++;
        $avg = ($i + $j) / 2 + 1;   // ranks are 1-based
        for ($k = $i; $k <= $j; $k++)
            if ($label[$idx[$k]] === 1) {
                $rankSum += $avg;
                $pos++;
            }
        $i = $j + 1;
    }
    $neg = $n - $pos;
    if ($pos === 0 || $neg === 0) return null;
    return ($rankSum - $pos * ($pos + 1) / 2) / ($pos * $neg);
}

function print_confusion(array $cm): void {
    $k = count($cm);
    $w = max(4, strlen((string)max(array_map('max', $cm))) + 1);
    echo "confusion matrix (rows: true class, columns: predicted):\n";
    echo str_pad('', 6);
    for ($j = 0; $j < $k; $j++) echo str_pad((string)$j, $w, ' ', STR_PAD_LEFT);
    echo str_pad('recall', 9, ' ', STR_PAD_LEFT), "\n";
    foreach ($cm as $i => $row) {
        echo str_pad((string)$i, 6);
        foreach ($row as $c) echo str_pad((string)$c, $w, ' ', STR_PAD_LEFT);
        $tot = array_sum($row);
        printf("%8.1f%%\n", $tot ? 100 * $row[$i] / $tot : 0);
    }
}

function fmt_time(float $s): string {
    if ($s < 1e-3) return sprintf('%.1f µs', $s * 1e6);
    if ($s < 1) return sprintf('%.2f ms', $s * 1e3);
    return sprintf('%.2f s', $s);
}

/* One terminal line, redrawn: epoch, bar, the last loss read back, samples/s and the time left
 * (from the mean time per epoch so far; queued GPU work makes the first epochs' rate approximate). */
function progress(int $epoch, int $epochs, ?float $loss, int $samples, float $elapsed): void {
    $w = 24;
    $fill = (int)round($w * $epoch / $epochs);
    $eta = $epoch < $epochs ? 'ETA ' . fmt_duration($elapsed / $epoch * ($epochs - $epoch)) : 'done in ' . fmt_duration($elapsed);
    printf("\r  epoch %*d/%d [%s%s] loss %s  %s samples/s  %s   ", strlen((string)$epochs), $epoch, $epochs,
           str_repeat('#', $fill), str_repeat('.', $w - $fill), $loss === null ? '-' : sprintf('%.5f', $loss),
           number_format($samples / max($elapsed, 1e-9)), $eta);
    if ($epoch === $epochs) echo "\n";
}

/* 75 -> "1:15", 3725 -> "1:02:05" */
function fmt_duration(float $s): string {
    $s = (int)round($s);
    return $s >= 3600 ? sprintf('%d:%02d:%02d', intdiv($s, 3600), intdiv($s % 3600, 60), $s % 60)
                      : sprintf('%d:%02d', intdiv($s, 60), $s % 60);
}

// ---------------------------------------------------------------------------------------------

$o = parse_args($argv);
if (!extension_loaded('gtc')) fail("the gtc extension is not loaded: php -d extension=build/gtc.so " . implode(' ', $argv), 1);
$ds = $o['ds'];
if ($o['device'] !== 'auto') putenv("GTC_DEVICE={$o['device']}");   // before the first tensor

$model = null;
if ($o['mode'] === 'aot') {
    $class = $ds['class'];
    if (!class_exists($class, false))
        fail("--mode=aot needs class $class, defined by the model extension compiled from {$ds['graph']}:\n"
             . "  build/gtc compile {$ds['graph']} -o build/models/{$ds['so']}\n"
             . "  php -d extension=build/gtc.so -d extension=build/models/{$ds['so']} examples/train_mlp.php --mode=aot --dataset={$o['dataset']} ...", 1);
    $model = new $class();
    // The compiled class fixes the shapes: run() takes x, y, w1, b1, w2, b2 (float32 tensors of
    // exactly these shapes) and lr (a PHP float), and returns loss plus w1..b2, the very objects
    // passed in, updated in place (donated).
    $io = $model->inputs();
    $outs = $model->outputs();
    foreach (['x', 'y', 'w1', 'b1', 'w2', 'b2', 'lr'] as $n)
        if (($io[$n]['dtype'] ?? null) !== 'float32')
            fail("--mode=aot: $class is not an MLP training step (its inputs are " . implode(', ', array_keys($io)) . ')', 1);
    foreach (['loss' => null, 'w1' => 'w1', 'b1' => 'b1', 'w2' => 'w2', 'b2' => 'b2'] as $n => $of)
        if (!array_key_exists($n, $outs) || $outs[$n]['inPlaceOf'] !== $of)
            fail("--mode=aot: $class does not return loss and w1, b1, w2, b2 updated in place", 1);
    $graphBatch = $io['x']['shape'][0];
    if ($o['batch'] !== $graphBatch)
        fail("--mode=aot: the compiled graph {$ds['graph']} has batch $graphBatch, --batch-size={$o['batch']} given");
}

$train = load_split($o['data'], $ds['prefix'], 'train');
$test = load_split($o['data'], $ds['prefix'], 'test');
[$d, $k, $h, $B] = [$train['d'], $train['k'], $ds['hidden'], $o['batch']];
if ($B > $train['n']) fail("--batch-size=$B is larger than the training set ({$train['n']} rows)");
$nb = intdiv($train['n'] + $B - 1, $B);
if ($model && ($io['x']['shape'] !== [$B, $d] || $io['y']['shape'] !== [$B, $k] || $io['w1']['shape'] !== [$d, $h]
               || $io['w2']['shape'] !== [$h, $k]))
    fail(sprintf("--mode=aot: $class is compiled for a %d-%d-%d MLP at batch %d; the data is %d-%d-%d at batch %d",
                 $io['w1']['shape'][0], $io['w1']['shape'][1], $io['w2']['shape'][1], $io['x']['shape'][0], $d, $h, $k, $B), 1);

try {
    // Upload once: one contiguous tensor per batch, plus the full sets for evaluation.
    $batches = [];
    // A last partial batch becomes the final $B rows (overlapping the one before), so every
    // row is trained on and every batch has the compiled graph's shape.
    for ($b = 0; $b < $nb && !$o['shuffle']; $b++) {
        $r0 = min($b * $B, $train['n'] - $B);
        $batches[] = [CudaArray::fromBuffer(substr($train['x'], $r0 * $d * 4, $B * $d * 4), [$B, $d]),
                      CudaArray::fromBuffer(substr($train['y'], $r0 * $k * 4, $B * $k * 4), [$B, $k])];
    }
    $xTrain = CudaArray::fromBuffer($train['x'], [$train['n'], $d]);
    if ($o['shuffle']) {   // [$xb, $yb] batches of $B rows, a new order each epoch (each foreach)
        $batches = new Cuda\Batches([$xTrain, CudaArray::fromBuffer($train['y'], [$train['n'], $k])], $B,
                                    shuffle: true, seed: $o['seed'], dropLast: true);
        $nb = count($batches);
    }
    $xTest = CudaArray::fromBuffer($test['x'], [$test['n'], $d]);
    $device = $xTest->device();

    // He-uniform for the ReLU layer, Glorot-uniform for the output layer, zero biases.
    $params = [
        'w1' => uniform_init([$d, $h], sqrt(6 / $d), crc32("w1/{$o['seed']}")),
        'b1' => CudaArray::zeros([$h]),
        'w2' => uniform_init([$h, $k], sqrt(6 / ($h + $k)), crc32("w2/{$o['seed']}")),
        'b2' => CudaArray::zeros([$k]),
    ];
    if ($o['save-init'] !== null) {
        $dir = $o['save-init'];
        if (!is_dir($dir) && !@mkdir($dir, 0777, true)) fail("cannot create $dir", 1);
        foreach ($params as $name => $t) $t->toNpy("$dir/$name.npy");
    }

    if ($o['mode'] === 'jit') {
        // Compile the eager step: x, y and the parameters as placeholders of the first batch's
        // (every batch's) shapes and dtypes, lr a rank-0 float32 input (a kernel parameter, so
        // another learning rate would not recompile). The parameters are donated: run() returns
        // loss plus w1..b2, the very objects passed in, updated in place, as the aot class does.
        $spec = ['x' => [[$B, $d], 'float32'], 'y' => [[$B, $k], 'float32']];
        foreach ($params as $name => $t) $spec[$name] = [$t->getShape(), $t->dtype()];
        $spec['lr'] = 'float32';
        $name = str_replace('-', '_', $o['dataset']) . '_step';
        $class = "Cuda\\FusionGraph $name";
        $tc = microtime(true);
        $model = Cuda\Fusion::compile(
            fn($x, $y, $w1, $b1, $w2, $b2, $lr) =>
                eager_step($x, $y, ['w1' => $w1, 'b1' => $b1, 'w2' => $w2, 'b2' => $b2], $lr, $B),
            $spec, $name,
            ['w1' => 'w1', 'b1' => 'b1', 'w2' => 'w2', 'b2' => 'b2']);
        $compileTime = microtime(true) - $tc;
    }
} catch (Cuda\Exception $e) {
    fail(get_class($e) . ": " . $e->getMessage(), 1);
}

$overlap = $o['shuffle'] ? 0 : $nb * $B - $train['n'];
$left = $o['shuffle'] ? $train['n'] - $nb * $B : 0;
printf("train_mlp: %s, %d-%d-%d MLP, %s mode on %s\n", $o['dataset'], $d, $h, $k, $o['mode'], $device);
printf("  %d train rows (%d batches of %d%s), %d test rows; %d epochs, learning rate %g, seed %d\n",
       $train['n'], $nb, $B, $overlap ? ", the last overlapping the one before by $overlap"
                              : ($o['shuffle'] ? ', shuffled each epoch' . ($left ? ", $left rows left out of each" : '') : ''), $test['n'], $o['epochs'], $o['lr'], $o['seed']);
if ($model) {
    $st = $model->getStats();
    printf("  compiled step %s: %d graph nodes in %d steps (%d fused kernels, %d GEMMs), backend %s\n",
           $class, $st['nodes'], $st['steps'] ?? $st['graphNodes'], $st['fusedKernels'], $st['gemms'], $st['backend']);
    if ($o['mode'] === 'jit')
        printf("  Cuda\\Fusion::compile of eager_step: %s (kernels: %s, plan cache: %s)\n",
               fmt_time($compileTime), $st['kernels'], $st['cache']);
}

$tty = stream_isatty(STDOUT);
$losses = [];
$intervals = [];
$steps = 0;
$t0 = $tLast = microtime(true);
$stepsLast = 0;
$loss = null;
try {
    for ($epoch = 1; $epoch <= $o['epochs']; $epoch++) {
        $report = $epoch === 1 || $epoch % $o['every'] === 0 || $epoch === $o['epochs'];
        foreach ($batches as [$xb, $yb]) {
            $out = $model ? $model->run(x: $xb, y: $yb, w1: $params['w1'], b1: $params['b1'],
                                        w2: $params['w2'], b2: $params['b2'], lr: $o['lr'])
                          : eager_step($xb, $yb, $params, $o['lr'], $B);
            $params = ['w1' => $out['w1'], 'b1' => $out['b1'], 'w2' => $out['w2'], 'b2' => $out['b2']];
            $steps++;
        }
        if ($report) {
            $loss = $out['loss']->item();   // the read-back waits for the queued steps
            $now = microtime(true);
            $dt = ($now - $tLast) / ($steps - $stepsLast);
            $intervals[] = $dt;
            [$tLast, $stepsLast] = [$now, $steps];
            $losses[$epoch] = $loss;
            if (!is_finite($loss)) {
                if ($tty) echo "\n";
                fail("epoch $epoch: the loss is $loss; try a smaller --learning-rate", 1);
            }
            if (!$tty)
                printf("  epoch %*d/%d  loss %.6f  %s samples/s\n", strlen((string)$o['epochs']), $epoch,
                       $o['epochs'], $loss, number_format($B / $dt));
        }
        if ($tty) progress($epoch, $o['epochs'], $loss, $steps * $B, microtime(true) - $t0);
    }
    $trainTime = microtime(true) - $t0;

    // Evaluation (eager ops in every mode).
    $logits = forward($xTest, $params);
    $pred = $logits->argMax(1);
    $predList = $pred->toArray();
    $trainPred = forward($xTrain, $params)->argMax(1)->toArray();
    $probs = null;
    if ($k === 2) {
        $sh = $logits->subtract($logits->max(1, keepdims: true))->exp();
        $probs = $sh->divide($sh->sum(1, keepdims: true))->slice(starts: [1], ends: [2], axes: [1])->reshape([-1])->toArray();
    }
} catch (Cuda\Exception $e) {
    if ($tty) echo "\n";
    fail(get_class($e) . ": " . $e->getMessage(), 1);
}

$cm = array_fill(0, $k, array_fill(0, $k, 0));
$correct = 0;
foreach ($test['labels'] as $i => $t) {
    $cm[$t][$predList[$i]]++;
    $correct += $t === $predList[$i] ? 1 : 0;
}
$trainCorrect = 0;
foreach ($train['labels'] as $i => $t) $trainCorrect += $t === $trainPred[$i] ? 1 : 0;
$acc = $correct / $test['n'];
$auc = $probs !== null ? roc_auc($probs, $test['labels']) : null;
$stepTime = median($intervals);

printf("test accuracy %.2f%% (%d/%d), train accuracy %.2f%%\n", 100 * $acc, $correct, $test['n'],
       100 * $trainCorrect / $train['n']);
print_confusion($cm);
if ($auc !== null) printf("ROC AUC %.4f\n", $auc);
printf("%d steps in %s: %s per step (median over %d reporting intervals), %s samples/s\n",
       $steps, fmt_time($trainTime), fmt_time($stepTime), count($intervals), number_format($B / $stepTime));
$modelStats = $model ? $model->getStats() : null;
if ($modelStats) printf("compiled step: backend %s, %d runs\n", $modelStats['backend'], $modelStats['replays']);
if ($modelStats && $o['mode'] === 'jit') $modelStats['compile_seconds'] = $compileTime;

if ($o['plot'] !== null) {
    $positive = min($losses) > 0 && max($losses) / min($losses) > 20;   // a log scale when it helps
    $svg = svg_line_plot($losses, title: "{$o['dataset']}, {$o['mode']} mode: training loss", xLabel: 'epoch',
                         yLabel: 'loss', logY: $positive);
    if (@file_put_contents($o['plot'], $svg) !== strlen($svg)) fail("cannot write {$o['plot']}", 1);
    echo "loss curve (", count($losses), " points) written to {$o['plot']}\n";
}

if ($o['save'] !== null) {
    $dir = $o['save'];
    if (!is_dir($dir) && !@mkdir($dir, 0777, true)) fail("cannot create $dir", 1);
    foreach ($params as $name => $t) $t->toNpy("$dir/$name.npy");
    $pred->toNpy("$dir/test_predictions.npy");
    $metrics = [
        'dataset' => $o['dataset'], 'mode' => $o['mode'], 'device' => $device, 'epochs' => $o['epochs'],
        'batch_size' => $B, 'learning_rate' => $o['lr'], 'seed' => $o['seed'], 'steps' => $steps,
        'loss' => $losses, 'test_accuracy' => $acc, 'train_accuracy' => $trainCorrect / $train['n'],
        'confusion' => $cm, 'roc_auc' => $auc, 'train_seconds' => $trainTime,
        'seconds_per_step' => $stepTime, 'samples_per_second' => $B / $stepTime,
        'model' => $modelStats,
    ];
    file_put_contents("$dir/metrics.json", json_encode($metrics, JSON_PRETTY_PRINT | JSON_PRESERVE_ZERO_FRACTION) . "\n");
    echo "saved w1 b1 w2 b2, test_predictions (.npy) and metrics.json to $dir\n";
}
