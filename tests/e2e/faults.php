<?php
/* tests/e2e/faults.php: a compiled model under allocation failure, run by tests/e2e/run.sh (CPU)
 * and tests/e2e/gpu.sh (CUDA) next to one model extension:
 *
 *   php -n -d extension=gtc.so -d extension=MODEL.so faults.php [cpu|cuda-graph]
 *
 * With gtc.memory_limit set just below what a run needs, run() must throw
 * Cuda\OutOfMemoryException (the class itself, not another Cuda\Exception, not a crash) and change
 * nothing: the parameters (donated inputs) keep their bytes, getStats()['replays'] stays, the
 * runtime's allocated bytes and PHP's memory come back to what they were (failures leak nothing,
 * also when repeated). Three places fail: the executor's arena on the first run, a fresh output
 * on a later run, and the conversion of a rank-0 CudaArray scalar. With the limit lifted the same
 * object runs again and gives what a fresh model gives from the same inputs (bit for bit on the
 * CPU; within 1e-6 relative on the GPU), for several steps. Works for any model whose donated
 * inputs are its parameters. Prints "ok - ..." / "not ok - ..." lines, then "N passed, N failed". */
declare(strict_types=1);

require_once __DIR__ . '/check.inc';

use Cuda\CudaArray;

$backend = $argv[1] ?? 'cpu';

function finish(): never {
    global $passed, $failed;
    ini_set('gtc.memory_limit', '0');
    echo "$passed passed, $failed failed\n";
    exit($failed ? 1 : 0);
}

function allocated(): int { return CudaArray::memoryInfo()['allocated']; }

/* The one model class loaded (extension gtc_<graph>). */
$classes = [];
foreach (get_loaded_extensions() as $ext)
    if (str_starts_with($ext, 'gtc_')) $classes = array_merge($classes, (new ReflectionExtension($ext))->getClassNames());
if (!check(count($classes) === 1, 'one model extension is loaded', implode(', ', $classes))) finish();
$class = $classes[0];
$model = new $class();
$donated = [];
foreach ($model->outputs() as $o => $info) if ($info['inPlaceOf'] !== null) $donated[$info['inPlaceOf']] = $o;
$fresh = count($model->outputs()) - count($donated); // outputs that get new storage each run
$scalars = array_keys(array_filter($model->inputs(), fn($i) => $i['shape'] === []));

/* Seeded inputs: small floats (a sane training step), ints and bools from rand; scalars 0.05. */
function make_inputs(object $m, int $seed): array {
    $in = [];
    foreach ($m->inputs() as $n => $i) {
        $s = $seed * 131 + crc32($n) % 1000;
        if ($i['shape'] === []) {
            $in[$n] = match ($i['dtype']) { 'float32', 'float64' => 0.05, 'bool' => true, default => 1 };
        } elseif (in_array($i['dtype'], ['float32', 'float64'], true)) {
            $in[$n] = ((CudaArray::rand($i['shape'], seed: $s) - 0.5) * 0.2)->astype($i['dtype'], casting: 'unsafe');
        } else {
            $in[$n] = CudaArray::rand($i['shape'], seed: $s, dtype: $i['dtype']);
        }
    }
    return $in;
}

function copies(array $in): array {
    return array_map(fn($v) => $v instanceof CudaArray ? clone $v : $v, $in);
}

function bytes(array $in): array {
    return array_map(fn($v) => $v instanceof CudaArray ? $v->toBuffer() : $v, $in);
}

/* Runs $f expecting Cuda\OutOfMemoryException and checks that nothing changed. */
function expect_oom(callable $f, string $what, object $m, array $state): void {
    $snap = bytes($state);
    $replays = $m->getStats()['replays'];
    $alloc = allocated();
    try {
        $f();
        check(false, "$what throws Cuda\\OutOfMemoryException", 'no exception');
    } catch (Cuda\OutOfMemoryException $e) {
        check(get_class($e) === 'Cuda\OutOfMemoryException' && str_contains($e->getMessage(), 'gtc.memory_limit'),
              "$what throws Cuda\\OutOfMemoryException naming gtc.memory_limit", $e->getMessage());
    } catch (Throwable $e) {
        check(false, "$what throws Cuda\\OutOfMemoryException", get_class($e) . ': ' . $e->getMessage());
    }
    unset($e);
    check(bytes($state) === $snap, "$what leaves the parameters and inputs unchanged");
    check($m->getStats()['replays'] === $replays, "$what does not count as a run");
    check(allocated() === $alloc, "$what gives back what it allocated", (string)(allocated() - $alloc));
}

/* Repeated failures leak nothing, in the runtime or in PHP. */
function expect_no_leak(callable $f, string $what): void {
    try { $f(); } catch (Cuda\OutOfMemoryException) {} // the first may size PHP's caches
    $alloc = allocated();
    $php = memory_get_usage();
    for ($i = 0; $i < 50; $i++) {
        try { $f(); } catch (Cuda\OutOfMemoryException) {}
    }
    check(allocated() === $alloc && memory_get_usage() === $php, "$what 50 more times leaks nothing",
          sprintf('allocated %+d, PHP %+d bytes', allocated() - $alloc, memory_get_usage() - $php));
}

/* Largest relative difference between two runs' outputs (0.0: the same bytes). */
function differ(array $a, array $b): float {
    $worst = 0.0;
    foreach ($a as $k => $v) {
        if (!isset($b[$k])) return INF;
        if ($v->toBuffer() === $b[$k]->toBuffer()) continue;
        $x = $v->astype('float64');
        $y = $b[$k]->astype('float64');
        $d = $x - $y;
        $worst = max($worst, sqrt((float)($d * $d)->sum()->item()) / max(sqrt((float)($y * $y)->sum()->item()), 1e-30));
    }
    return $worst;
}
$tol = $backend === 'cpu' ? 0.0 : 1e-6;

check($model->getStats()['backend'] === $backend, "the model runs on $backend", $model->getStats()['backend']);
$arena = $model->getStats()['arenaBytes'];

/* ---- 1. the first run: the executor's arena does not fit ----------------------------------- */

$state = make_inputs($model, 1);
$initial = copies($state);
ini_set('gtc.memory_limit', (string)(allocated() + intdiv($arena, 2)));
expect_oom(fn() => $model->run(...$state), 'a first run whose arena does not fit', $model, $state);
check($model->getStats()['replays'] === 0 && $model->getStats()['kernels'] === null,
      'after it the model has no executor yet', json_encode($model->getStats()));
expect_no_leak(fn() => $model->run(...$state), 'failing the first run');
try {
    CudaArray::zeros([$arena]);
    check(false, 'an eager op over the limit throws too', 'no exception');
} catch (Cuda\OutOfMemoryException) {
    check(true, 'an eager op over the limit throws Cuda\OutOfMemoryException too');
}

/* ---- 2. the limit lifted: the same object runs, as a fresh model does ------------------------ */

ini_set('gtc.memory_limit', '0');
$out = $model->run(...$state);
$ref = new $class();
$refState = copies($initial);
$refOut = $ref->run(...$refState);
$d = differ($out, $refOut);
check($d <= $tol, 'with the limit lifted the same object runs, as a fresh model does', "rel diff $d");
check(differ(array_intersect_key($state, $donated), array_intersect_key($refState, $donated)) <= $tol,
      'and updates its parameters as the fresh model does');
check($model->getStats()['replays'] === 1, 'one run counted', (string)$model->getStats()['replays']);

/* ---- 3. a later run: the fresh outputs do not fit -------------------------------------------- */

if ($fresh > 0) {
    unset($out, $refOut);
    ini_set('gtc.memory_limit', (string)allocated()); // not one more byte
    expect_oom(fn() => $model->run(...$state), 'a later run whose outputs do not fit', $model, $state);
    expect_no_leak(fn() => $model->run(...$state), 'failing a later run');
    ini_set('gtc.memory_limit', '0');
} else {
    echo "# no output of $class needs fresh storage: skipping the later-run case\n";
}

/* ---- 4. a rank-0 CudaArray for a scalar input: its conversion does not fit ------------------- */

if ($scalars) {
    $sc = $scalars[0];
    $arg = array_merge($state, [$sc => CudaArray::full([], $state[$sc], $model->inputs()[$sc]['dtype'])]);
    ini_set('gtc.memory_limit', (string)allocated());
    expect_oom(fn() => $model->run(...$arg), "a run whose scalar \"$sc\" (a rank-0 CudaArray) cannot be converted",
               $model, $state);
    ini_set('gtc.memory_limit', '0');
    unset($arg);
}

/* ---- 5. then several more steps on both objects: still the same ---------------------------- */

$worst = 0.0;
for ($k = 0; $k < 3; $k++) {
    $a = $model->run(...$state);
    $b = $ref->run(...$refState);
    $worst = max($worst, differ($a, $b));
}
check($worst <= $tol, 'three more steps on the object that failed match the fresh model\'s', "rel diff $worst");
check($model->getStats()['replays'] === 4 && $ref->getStats()['replays'] === 4,
      'failed runs were never counted', $model->getStats()['replays'] . ' / ' . $ref->getStats()['replays']);

/* ---- 6. a limit that never fits: every run fails cleanly, and a new object works after ------- */

$state2 = make_inputs($model, 2);
ini_set('gtc.memory_limit', '1K');
$m3 = new $class();
expect_oom(fn() => $m3->run(...$state2), 'a run under gtc.memory_limit=1K', $m3, $state2);
ini_set('gtc.memory_limit', '-1');
$r = $m3->run(...$state2);
check(count($r) === count($model->outputs()), 'gtc.memory_limit=-1 (unlimited) lets it run');

finish();
