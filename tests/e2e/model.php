<?php
/* tests/e2e/model.php: end-to-end checks of one compiled MLP training-step model (a graph with
 * inputs x, y, w1, b1, w2, b2, lr and outputs loss, w1, b1, w2, b2 donated back to the
 * parameters, like examples/train_step.json), run by tests/e2e/run.sh as
 *
 *   php -n -d extension=gtc.so -d extension=MODEL.so model.php GRAPH.json WORKDIR [BACKEND]
 *
 * It runs several steps, feeding the updated parameters back, and compares every step with the
 * same step written eagerly with CudaArray (float32, and float64) and with a float64 NumPy
 * reference (tests/e2e/ref_steps.py over tests/ref/graph_ref.py); then checks the metadata
 * methods and that wrong inputs throw Cuda\InvalidArgumentException naming the input without
 * changing anything (also: parameters sharing a buffer with another input; on the GPU, an input
 * on the CPU). Prints "ok - ..." / "not ok - ..." lines, then "N passed, N failed". */
declare(strict_types=1);

require_once __DIR__ . '/check.inc';

use Cuda\CudaArray;

const STEPS = 4;
const TOL = 1e-5;

$graphPath = $argv[1] ?? '';
$work = $argv[2] ?? '';
$backend = $argv[3] ?? 'cpu';
if (!is_file($graphPath) || !is_dir($work)) {
    fwrite(STDERR, "usage: model.php GRAPH.json WORKDIR [cpu|cuda-graph]\n");
    exit(2);
}
$graph = json_decode(file_get_contents($graphPath), true);

/* The graph's step, eagerly, op for op (examples/train_step.json), in the inputs' dtype. */
function eager_step(array $in): array {
    ['x' => $x, 'y' => $y, 'w1' => $w1, 'b1' => $b1, 'w2' => $w2, 'b2' => $b2, 'lr' => $lr] = $in;
    $batch = $x->getShape()[0];
    $h1 = $x->matmul($w1) + $b1;
    $a1 = $h1->relu();
    $logits = $a1->matmul($w2) + $b2;
    $sh = $logits - $logits->max(1, keepdims: true);
    $e = $sh->exp();
    $se = $e->sum(1, keepdims: true);
    $logp = $sh - $se->log();
    $loss = ($y * $logp)->sum(1)->mean()->neg();
    $dlogits = ($e / $se - $y) / $batch;
    $dw2 = $a1->transpose([1, 0])->matmul($dlogits);
    $db2 = $dlogits->sum(0);
    $dh1 = CudaArray::where($h1->gt(0), $dlogits->matmul($w2->transpose([1, 0])), 0);
    $dw1 = $x->transpose([1, 0])->matmul($dh1);
    $db1 = $dh1->sum(0);
    return [
        'loss' => $loss,
        'w1' => $w1 - $dw1->clamp(-5, 5) * $lr,
        'b1' => $b1 - $db1->clamp(-5, 5) * $lr,
        'w2' => $w2 - $dw2->clamp(-5, 5) * $lr,
        'b2' => $b2 - $db2->clamp(-5, 5) * $lr,
    ];
}

function cast_all(array $in, string $dt): array {
    return array_map(fn($v) => $v instanceof CudaArray ? $v->astype($dt, casting: 'unsafe') : $v, $in);
}

function buffers(array $arrays): array {
    return array_map(fn($v) => $v instanceof CudaArray ? $v->toBuffer() : $v, $arrays);
}

/* ---- the model's class and metadata ------------------------------------------------------- */

$module = 'gtc_' . $graph['name'];
check(extension_loaded($module), "extension $module is loaded");
$classes = extension_loaded($module) ? (new ReflectionExtension($module))->getClassNames() : [];
check(count($classes) === 1, "$module defines one class", implode(', ', $classes));
$class = $classes[0] ?? 'none';
$expectClass = str_replace(' ', '', ucwords(str_replace('_', ' ', $graph['name'])));
check($class === $expectClass, "the class is named from the graph ($expectClass)", $class);
if (!class_exists($class)) {
    echo "$passed passed, $failed failed\n";
    exit(1);
}
$rc = new ReflectionClass($class);
check($rc->isFinal(), "$class is final");
$run = $rc->getMethod('run');
check($run->isVariadic() && (string)$run->getReturnType() === 'array', 'run(...$inputs): array');

$model = new $class();
$shapes = [];
foreach ($graph['inputs'] as $i) $shapes[$i['name']] = $i;
$inputs = $model->inputs();
$ok = array_keys($inputs) === array_keys($shapes);
foreach ($graph['inputs'] as $i)
    $ok = $ok && ($inputs[$i['name']] ?? null) === ['dtype' => $i['dtype'], 'shape' => $i['shape']];
check($ok, 'inputs() lists the graph inputs in order with dtype and shape', json_encode($inputs));
$outputs = $model->outputs();
$back = []; // output name => the input it updates in place
foreach ($graph['outputs'] as $o => $v) if (isset($graph['donate'][$v])) $back[$o] = $graph['donate'][$v];
$ok = array_keys($outputs) === array_keys($graph['outputs']);
foreach ($outputs as $o => $info) $ok = $ok && ($info['inPlaceOf'] ?? null) === ($back[$o] ?? null);
check($ok, 'outputs() lists the graph outputs with their donated inputs', json_encode($outputs));
check($outputs['loss']['shape'] === [] && $outputs['w1']['shape'] === $shapes['w1']['shape'],
      'outputs() shapes');

$stats = $model->getStats();
$keys = ['nodes', 'fusedKernels', 'gemms', 'reductions', 'graphNodes', 'arenaBytes', 'backend', 'replays'];
check(array_diff($keys, array_keys($stats)) === [], 'getStats() has ' . implode(', ', $keys),
      json_encode($stats));
check(($stats['backend'] ?? '') === $backend, "getStats()['backend'] is '$backend'", (string)($stats['backend'] ?? ''));
check(($stats['replays'] ?? -1) === 0, 'no replays before the first run');
check(($stats['nodes'] ?? 0) >= 1 && ($stats['gemms'] ?? 0) >= 1 && ($stats['graphNodes'] ?? 0) >= 1,
      'getStats() counts nodes, gemms and graph nodes', json_encode($stats));
$plan = $model->getPlan();
$ok = is_array($plan) && count($plan) === $stats['graphNodes'];
foreach ($plan as $s) {
    $ok = $ok && in_array($s['kind'] ?? '', ['elementwise', 'reduce', 'row', 'gemm', 'copy'], true)
        && is_string($s['kernel']) && is_array($s['ops']) && is_array($s['reads'])
        && is_array($s['writes']) && $s['outputs'] === count($s['writes']) && is_string($s['reason']) && count($s['grid']) === 3
        && count($s['block']) === 3;
}
check($ok && count($plan) > 0, 'getPlan() lists every step with kind, kernel, ops, reads, writes, reason, grid, block');
check(str_contains($model->getSource('cpu'), 'Generated by gtc') && is_string($model->getSource('cuda'))
      && $model->getSource() === $model->getSource($backend === 'cuda-graph' ? 'cuda' : 'cpu'),
      "getSource() is the running backend's source; 'cpu' and 'cuda' pick one");
try {
    $model->getSource('graph');
    check(false, "getSource('graph') of a model throws");
} catch (ValueError $e) {
    check(str_contains($e->getMessage(), "must be null, 'cuda' or 'cpu'"), "getSource('graph') of a model: " . $e->getMessage());
}

/* ---- data: seeded, scaled like a real first step -------------------------------------------- */

[$batch, $din] = $shapes['x']['shape'];
[$hidden, $classes] = $shapes['w2']['shape'];
$labels = (CudaArray::rand([$batch, 1], seed: 12) * $classes)->floor()->astype('int32', casting: 'unsafe');
$state = [
    'x' => (CudaArray::rand([$batch, $din], seed: 11) - 0.5) * 2.0,
    'y' => CudaArray::where($labels->eq(new CudaArray([range(0, $classes - 1)], 'int32')), 1.0, 0.0)->astype('float32'),
    'w1' => (CudaArray::rand([$din, $hidden], seed: 13) - 0.5) * (2.0 * sqrt(6.0 / $din)),
    'b1' => (CudaArray::rand([$hidden], seed: 14) - 0.5) * 0.2,
    'w2' => (CudaArray::rand([$hidden, $classes], seed: 15) - 0.5) * (2.0 * sqrt(3.0 / $hidden)),
    'b2' => (CudaArray::rand([$classes], seed: 16) - 0.5) * 0.2,
    'lr' => 0.1,
];
$ok = true;
foreach ($shapes as $n => $i)
    if ($state[$n] instanceof CudaArray)
        $ok = $ok && $state[$n]->dtype() === $i['dtype'] && $state[$n]->getShape() === $i['shape'];
check($ok, 'test inputs match the declared dtypes and shapes');

/* The float64 NumPy reference of all steps, from the same initial inputs. */
$indir = "$work/in";
$refdir = "$work/ref";
@mkdir($indir);
foreach ($state as $n => $v)
    ($v instanceof CudaArray ? $v : CudaArray::full([], $v))->toNpy("$indir/$n.npy");
$py = getenv('PYTHON') ?: '/usr/bin/python3';
$proc = proc_open([$py, __DIR__ . '/ref_steps.py', $graphPath, $indir, $refdir, (string)STEPS],
                  [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$pyout = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
$haveRef = proc_close($proc) === 0;
check($haveRef, 'the NumPy float64 reference ran', trim($pyout));

/* ---- steps ---------------------------------------------------------------------------------- */

$params = array_keys(array_flip(array_values($back))); // w1, b1, w2, b2
$objects = array_map(fn($n) => spl_object_id($state[$n]), array_combine($params, $params));
for ($k = 1; $k <= STEPS; $k++) {
    $before = $state;
    $eager32 = eager_step(array_map(fn($v) => $v instanceof CudaArray ? clone $v : $v, $state));
    $prev64 = cast_all($state, 'float64');
    $eager64 = eager_step($prev64);
    // positional on odd steps, by name (in another order) on even steps
    if ($k % 2) {
        $out = $model->run(...array_values(array_map(fn($n) => $state[$n], array_keys($shapes))));
    } else {
        $named = array_reverse(array_map(fn($n) => $state[$n], array_combine(array_keys($shapes), array_keys($shapes))), true);
        $out = $model->run(...$named);
    }
    check(array_keys($out) === array_keys($graph['outputs']), "step $k returns the outputs by name",
          implode(',', array_keys($out)));
    $same = true;
    foreach ($back as $o => $in) $same = $same && $out[$o] === $before[$in];
    check($same, "step $k: donated outputs are the very objects passed in, updated in place");
    $worst32 = $worst64 = $worstNp = 0.0;
    $where32 = $where64 = $whereNp = '';
    foreach ($out as $name => $v) {
        $e = rel_err($v, $eager32[$name]);
        if ($e > $worst32) [$worst32, $where32] = [$e, $name];
        $e = rel_err($v, $eager64[$name]);
        if ($e > $worst64) [$worst64, $where64] = [$e, $name];
        if ($haveRef) {
            $e = rel_err($v, CudaArray::fromNpy("$refdir/{$name}_$k.npy"));
            if ($e > $worstNp) [$worstNp, $whereNp] = [$e, $name];
        }
    }
    check($worst32 <= TOL, sprintf("step $k matches the eager float32 step (worst rel err %.2g, %s)", $worst32, $where32 ?: '-'));
    check($worst64 <= TOL, sprintf("step $k matches the eager float64 step (worst rel err %.2g, %s)", $worst64, $where64 ?: '-'));
    if ($haveRef)
        check($worstNp <= TOL, sprintf("step $k matches the NumPy float64 reference (worst rel err %.2g, %s)", $worstNp, $whereNp ?: '-'));
    // The updates themselves (p_next - p), which the parameters' own magnitude would hide;
    // float32 rounding of p_next alone makes these good to about 1e-4.
    $worstUpd = 0.0;
    $whereUpd = '';
    foreach ($back as $o => $in) {
        $prev = $prev64[$in];
        $e = rel_err($out[$o]->astype('float64') - $prev, $eager64[$o] - $prev);
        if ($e > $worstUpd) [$worstUpd, $whereUpd] = [$e, $o];
    }
    check($worstUpd <= 1e-3, sprintf("step $k parameter updates match the float64 step (worst rel err %.2g, %s)",
                                     $worstUpd, $whereUpd ?: '-'));
    $loss = $out['loss']->item();
    check(is_float($loss) && is_finite($loss) && $loss > 0, "step $k loss is finite and positive", var_export($loss, true));
    foreach ($back as $o => $in) $state[$in] = $out[$o];
}
$same = true;
foreach ($objects as $n => $id) $same = $same && spl_object_id($state[$n]) === $id;
check($same, 'after all steps the parameters are still the original objects');
check($model->getStats()['replays'] === STEPS, 'getStats() counts the runs', (string)$model->getStats()['replays']);
$model2 = new $class();
check($model2->getStats()['replays'] === 0, 'a second instance has its own executor');

/* A rank-0 input also takes a rank-0 CudaArray, and an int. */
$snap = buffers($state);
$a = $model2->run(...array_merge(array_map(fn($v) => $v instanceof CudaArray ? clone $v : $v, $state), ['lr' => CudaArray::full([], 0.1)]));
$b = $model2->run(...array_merge(array_map(fn($v) => $v instanceof CudaArray ? clone $v : $v, $state), ['lr' => 0.1]));
check(rel_err($a['w1'], $b['w1']) <= 1e-7 && rel_err($a['loss'], $b['loss']) <= 1e-7,
      'lr as a rank-0 CudaArray gives the same step as lr as a float');
$c = $model2->run(...array_merge(array_map(fn($v) => $v instanceof CudaArray ? clone $v : $v, $state), ['lr' => 0]));
check(rel_err($c['w1'], $state['w1']) == 0.0, 'lr as the int 0 leaves the parameters as they were');
check(buffers($state) === $snap, 'runs on copies leave the originals alone');

/* Many argument blocks (on CUDA each run with a new x updates the graph nodes whose steps read
 * it): 70 batches held at once, run with lr 0 so the loss depends on the batch only, forwards
 * then backwards; every run must see its own x. */
$xs = [];
for ($i = 0; $i < 70; $i++) $xs[] = $state['x'] * (1.0 + $i / 64.0);
$loss = fn(CudaArray $x) => $model2->run(...array_merge($state, ['x' => $x, 'lr' => 0]))['loss']->item();
$first = array_map($loss, $xs);
$again = array_reverse(array_map($loss, array_reverse($xs)));
check(count(array_unique(array_map('strval', $first))) === 70 && $again === $first,
      '70 batches in turn, forwards then backwards: each run sees its own inputs', json_encode(array_slice($again, 0, 3)));
check(buffers($state) === $snap, 'and leave the parameters as they were (updated in place with lr 0)');

/* ---- wrong inputs: Cuda\InvalidArgumentException naming the input, nothing changes ---------- */

function expect_invalid(object $model, array $args, string $name, string $what, array $state): void {
    $snap = buffers($state);
    $replays = $model->getStats()['replays'];
    try {
        $model->run(...$args);
        check(false, "$what throws", 'no exception');
    } catch (Cuda\InvalidArgumentException $e) {
        check($name === '' || str_contains($e->getMessage(), "\"$name\""),
              "$what throws Cuda\\InvalidArgumentException" . ($name === '' ? '' : " naming \"$name\""),
              $e->getMessage());
    } catch (Throwable $e) {
        check(false, "$what throws Cuda\\InvalidArgumentException", get_class($e) . ': ' . $e->getMessage());
    }
    check(buffers($state) === $snap && $model->getStats()['replays'] === $replays,
          "$what leaves the parameters unchanged");
}

$named = array_map(fn($n) => $state[$n], array_combine(array_keys($shapes), array_keys($shapes)));
$with = fn(array $changes) => array_merge($named, $changes);
$without = function (string $n) use ($named) { unset($named[$n]); return $named; };
expect_invalid($model, $with(['x' => CudaArray::zeros([$batch + 1, $din])]), 'x', 'a wrong shape', $state);
expect_invalid($model, $with(['x' => $state['x']->astype('float64')]), 'x', 'a wrong dtype', $state);
expect_invalid($model, $with(['w2' => $state['w2']->transpose([1, 0])]), 'w2', 'a transposed parameter', $state);
expect_invalid($model, $with(['w1' => CudaArray::zeros([$din, 2 * $hidden])->slice(starts: [0], ends: [2 * $hidden], steps: [2], axes: [1])]),
               'w1', 'a strided view', $state);
expect_invalid($model, $without('lr'), 'lr', 'a missing input', $state);
expect_invalid($model, $with(['bias' => $state['b1']]), 'bias', 'an unknown input name', $state);
expect_invalid($model, $with(['y' => $state['y']->toArray()]), 'y', 'a PHP array instead of a CudaArray', $state);
expect_invalid($model, $with(['w1' => 'w1']), 'w1', 'a string instead of a CudaArray', $state);
expect_invalid($model, $with(['lr' => 'fast']), 'lr', 'a string for a scalar input', $state);
expect_invalid($model, $with(['lr' => CudaArray::full([1], 0.1)]), 'lr', 'a [1] array for a scalar input', $state);
expect_invalid($model, $with(['b1' => $state['b2']]), 'b1', 'another parameter in its place', $state);
expect_invalid($model, [...array_values($named), 1], '', 'too many positional inputs', $state);
expect_invalid($model, [$state['x'], 'x' => $state['x']], 'x', 'an input given twice', $state);
// A parameter updated in place must not share memory with another input (contiguous views of one
// buffer pass every other check).
$buf = CudaArray::zeros([$hidden + $classes]);
expect_invalid($model, $with(['b1' => $buf->slice(starts: [0], ends: [$hidden]), 'b2' => $buf->slice(starts: [$hidden], ends: [$hidden + $classes])]),
               'b1', 'two parameters that are views of one buffer', $state);
$buf = CudaArray::zeros([$batch * $din + $din * $hidden]);
expect_invalid($model, $with(['x' => $buf->slice(starts: [0], ends: [$batch * $din])->reshape([$batch, $din]),
                              'w1' => $buf->slice(starts: [$batch * $din], ends: [$batch * $din + $din * $hidden])->reshape([$din, $hidden])]),
               'w1', 'a parameter sharing its buffer with the data', $state);
unset($buf);
if ($backend === 'cuda-graph') { // an input on another device (made with GTC_DEVICE=cpu for a moment)
    $prev = getenv('GTC_DEVICE');
    putenv('GTC_DEVICE=cpu');
    $onCpu = CudaArray::zeros([$batch, $din]);
    putenv($prev === false ? 'GTC_DEVICE' : "GTC_DEVICE=$prev");
    expect_invalid($model, $with(['x' => $onCpu]), 'x', 'an input on the CPU', $state);
}

echo "$passed passed, $failed failed\n";
exit($failed ? 1 : 0);
