<?php
/* tests/e2e/optim_state.php: a compiled training step owns its optimizer state (runtime/php/
 * plan_state.c); run by tests/e2e/run.sh as
 *
 *   php -n -d extension=gtc.so -d extension=ADAMW.so -d extension=MOMENTUM.so optim_state.php \
 *       LinregAdamw LinregMomentum WORKDIR
 *
 * over tests/e2e/optim/linreg_{adamw,momentum}.json (a rank-1 and a rank-0 parameter, lr an
 * input). For each: STEPS steps with run(x:, y:, w:, c:, lr:) only, against the old style that
 * passes zero moments and AdamW's step by hand (bit for bit) and against an independent float64
 * NumPy reference (tests/e2e/optim_ref.py); optimizerState() / setOptimizerState() /
 * resetOptimizerState(); saveCheckpoint + loadCheckpoint into a new object continues bit for bit;
 * every refusal with its exact message. Prints "ok - ..." lines, then "N passed, N failed". */
declare(strict_types=1);

require_once __DIR__ . '/check.inc';

use Cuda\CudaArray;

const STEPS = 6;
const LR = 0.05;

[$adamClass, $momClass, $work] = [$argv[1] ?? '', $argv[2] ?? '', $argv[3] ?? ''];
if (!class_exists($adamClass) || !class_exists($momClass) || !is_dir($work)) {
    echo "not ok - classes $adamClass, $momClass and directory $work\n0 passed, 1 failed\n";
    exit(1);
}

function same(CudaArray|int|float $a, CudaArray|int|float $b): bool {
    $v = fn($t) => $t instanceof CudaArray ? [$t->dtype(), $t->getShape(), $t->toArray()] : $t;
    return $v($a) === $v($b);
}

/* The exception's class and message from $fn, or "no exception". */
function thrown(callable $fn): string {
    try {
        $fn();
    } catch (Throwable $e) {
        return get_class($e) . ': ' . $e->getMessage();
    }
    return 'no exception';
}

function expect_throw(callable $fn, string $want, string $what): void {
    $got = thrown($fn);
    check($got === $want, $what, "got: $got; want: $want");
}

$data = [
    'x' => CudaArray::randn([64, 3], seed: 7),
    'y' => CudaArray::randn([64], seed: 8),
];
$init = ['w' => CudaArray::randn([3], seed: 9), 'c' => CudaArray::full([], 0.25)];
$fresh = fn() => array_map(fn($t) => clone $t, $init);

foreach (['adamw' => $adamClass, 'momentum' => $momClass] as $kind => $class) {
    $adam = $kind === 'adamw';
    $stateNames = $adam ? ['w_m', 'w_v', 'c_m', 'c_v'] : ['w_m', 'c_m'];

    // ---- the state before any run
    $m = new $class();
    $st = $m->optimizerState();
    check(array_keys($st) === array_merge($stateNames, $adam ? ['step'] : []),
          "$kind: optimizerState() lists " . implode(', ', array_keys($st)));
    $zeros = true;
    foreach ($stateNames as $n)
        $zeros = $zeros && $st[$n] instanceof CudaArray && $st[$n]->dtype() === 'float32'
                 && $st[$n]->getShape() === ($n[0] === 'w' ? [3] : []) && $st[$n]->abs()->sum()->item() == 0.0;
    check($zeros, "$kind: before the first run the moments are float32 zeros of their parameter's shape");
    if ($adam) check($st['step'] === 0, "$kind: step 0 before the first run");

    // ---- owned state vs the old style (state passed by hand) vs NumPy
    $p = $fresh();
    foreach (['x', 'y'] as $n) $data[$n]->toNpy("$work/$n.npy");
    foreach ($p as $n => $t) $t->toNpy("$work/$n.npy");
    $ref = "$work/ref-$kind";
    @mkdir($ref);
    $py = getenv('PYTHON') ?: '/usr/bin/python3';
    exec(escapeshellarg($py) . ' ' . escapeshellarg(__DIR__ . '/optim_ref.py') . " $kind " . LR . ' '
         . escapeshellarg($work) . ' ' . escapeshellarg($ref) . ' ' . STEPS . ' 2>&1', $log, $rc);
    check($rc === 0, "$kind: the NumPy reference ran", implode("\n", $log));

    $owned = new $class();
    $old = new $class();
    $po = $fresh();
    $pe = $fresh();
    $explicit = [];
    foreach ($stateNames as $n) $explicit[$n] = $n[0] === 'w' ? CudaArray::zeros([3]) : 0.0;
    $worst = 0.0;
    $bitwise = true;
    for ($k = 1; $k <= STEPS; $k++) {
        $ro = $owned->run(x: $data['x'], y: $data['y'], w: $po['w'], c: $po['c'], lr: LR);
        $args = ['x' => $data['x'], 'y' => $data['y'], 'w' => $pe['w'], 'c' => $pe['c'], 'lr' => LR] + $explicit;
        if ($adam) $args['adamw_step'] = $k;
        $re = $old->run(...$args);
        $po['c'] = $ro['c'];                          // rank 0: passed by value, returned anew
        $pe['c'] = $re['c'];
        $explicit['c_m'] = $re['c_m'];
        if ($adam) $explicit['c_v'] = $re['c_v'];
        foreach ($ro as $n => $v) $bitwise = $bitwise && same($v, $re[$n]);
        foreach (array_merge(['loss', 'w', 'c'], $stateNames) as $n) {
            $want = CudaArray::fromNpy("$ref/{$n}_$k.npy");
            $got = in_array($n, $stateNames, true) ? $owned->optimizerState()[$n] : $ro[$n];
            $worst = max($worst, rel_err($got->astype('float64'), $want));
        }
    }
    check($bitwise, "$kind: " . STEPS . " steps with owned state give bit for bit the outputs of the state passed by hand");
    check($worst <= 1e-5, sprintf("$kind: parameters, loss and moments agree with the float64 NumPy reference (worst rel err %.2g)", $worst));
    $st = $owned->optimizerState();
    $sameState = true;
    foreach ($stateNames as $n) $sameState = $sameState && same($st[$n], $explicit[$n] instanceof CudaArray ? $explicit[$n] : $re[$n]);
    check($sameState, "$kind: optimizerState() holds the moments the old style computed");
    if ($adam) check($st['step'] === STEPS, "$kind: the model counted its updates (step " . STEPS . ')', json_encode($st['step']));
    check($old->optimizerState()[$stateNames[0]]->abs()->sum()->item() == 0.0 && (!$adam || $old->optimizerState()['step'] === 0),
          "$kind: explicit state arguments leave the owned state untouched");

    // ---- a checkpoint continues bit for bit in a new object
    $half = intdiv(STEPS, 2);
    $a = new $class();
    $pa = $fresh();
    for ($k = 1; $k <= $half; $k++) $pa['c'] = $a->run(...$data + $pa + ['lr' => LR])['c'];
    $file = "$work/ckpt-$kind.npz";
    $a->saveCheckpoint($file, $pa);
    $members = array_keys(CudaArray::loadNpz($file));
    sort($members);
    $wantMembers = array_merge(['c', 'w'], $stateNames, $adam ? ['adamw_step'] : []);
    sort($wantMembers);
    check($members === $wantMembers, "$kind: the checkpoint holds " . implode(', ', $members));
    if ($adam) check(CudaArray::loadNpz($file)['adamw_step']->item() == $half + 1, "$kind: adamw_step in the file is the next t");
    $b = new $class();
    $pb = $b->loadCheckpoint($file);
    check(array_keys($pb) === ['w', 'c'], "$kind: loadCheckpoint returns the parameters", json_encode(array_keys($pb)));
    if ($adam) check($b->optimizerState()['step'] === $half, "$kind: loadCheckpoint restores the step");
    $cont = true;
    for ($k = $half + 1; $k <= STEPS; $k++) {
        $ra = $a->run(...$data + $pa + ['lr' => LR]);
        $rb = $b->run(...$data + $pb + ['lr' => LR]);
        [$pa['c'], $pb['c']] = [$ra['c'], $rb['c']];
        foreach ($ra as $n => $v) $cont = $cont && same($v, $rb[$n]);
    }
    check($cont, "$kind: a reloaded model continues bit for bit");
    check(same($pb['w'], $po['w']) && same($pb['c'], $po['c']), "$kind: ... and ends where uninterrupted training ended");

    // ---- setOptimizerState / resetOptimizerState
    $c = new $class();
    $c->setOptimizerState($b->optimizerState());
    $same = true;
    foreach ($b->optimizerState() as $n => $v) $same = $same && same($c->optimizerState()[$n], $v);
    check($same, "$kind: setOptimizerState(optimizerState()) copies the state");
    check($c->optimizerState()['w_m'] !== $b->optimizerState()['w_m'], "$kind: ... into tensors of its own");
    $c->resetOptimizerState();
    $r1 = $c->run(...$data + $fresh() + ['lr' => LR]);
    $r2 = (new $class())->run(...$data + $fresh() + ['lr' => LR]);
    check(same($r1['w'], $r2['w']) && (!$adam || $c->optimizerState()['step'] === 1),
          "$kind: after resetOptimizerState() a run is a first run");

    // ---- refusals
    $IA = 'Cuda\InvalidArgumentException';
    $all = implode(', ', $stateNames) . ($adam ? ', step' : '');
    expect_throw(fn() => $c->setOptimizerState(['w_q' => CudaArray::zeros([3])]),
                 "$IA: setOptimizerState: \"w_q\" is not optimizer state of $class; its optimizer state is $all", "$kind: an unknown name");
    expect_throw(fn() => $c->setOptimizerState(['w' => CudaArray::zeros([3])]),
                 "$IA: setOptimizerState: \"w\" is not optimizer state of $class; its optimizer state is $all", "$kind: a parameter is no state");
    expect_throw(fn() => $c->setOptimizerState([CudaArray::zeros([3])]),
                 "$IA: setOptimizerState: \"0\" is not optimizer state of $class; its optimizer state is $all", "$kind: a list");
    expect_throw(fn() => $c->setOptimizerState(['w_m' => CudaArray::zeros([4])]),
                 "$IA: setOptimizerState: input \"w_m\" must be float32 [3], got float32 [4]", "$kind: a wrong shape");
    expect_throw(fn() => $c->setOptimizerState(['w_m' => CudaArray::zeros([3], 'float64')]),
                 "$IA: setOptimizerState: input \"w_m\" must be float32 [3], got float64 [3]", "$kind: a wrong dtype");
    expect_throw(fn() => $c->setOptimizerState(['w_m' => [0, 0, 0]]),
                 "$IA: setOptimizerState: \"w_m\" must be a Cuda\\CudaArray, array given", "$kind: a PHP array");
    $before = $c->optimizerState();
    expect_throw(fn() => $c->setOptimizerState(['w_m' => CudaArray::ones([3]), 'c_m' => CudaArray::zeros([2])]),
                 "$IA: setOptimizerState: input \"c_m\" must be float32 [], got float32 [2]", "$kind: one bad entry");
    check(same($c->optimizerState()['w_m'], $before['w_m']), "$kind: ... changes nothing");
    if ($adam) {
        expect_throw(fn() => $c->setOptimizerState(['step' => -1]),
                     "$IA: setOptimizerState: \"step\" must be the number of updates done, an int from 0 to 2^53 - 1; -1 given", "$kind: step -1");
        expect_throw(fn() => $c->setOptimizerState(['step' => 1.5]),
                     "$IA: setOptimizerState: \"step\" must be the number of updates done, an int from 0 to 2^53 - 1; float given", "$kind: a float step");
        $msg = fn($v) => "$IA: input \"adamw_step\" is AdamW's step counter t and must be a whole number from 1 (the first update) to 2^53, $v given; a compiled model keeps it itself when run() is not given it";
        $w0 = $fresh();
        expect_throw(fn() => $c->run(...$data + $w0 + ['lr' => LR, 'adamw_step' => 0]), $msg('0'), "$kind: run() with adamw_step 0");
        check(same($w0['w'], $init['w']), "$kind: ... leaves the weights as they were (no NaN)");
        expect_throw(fn() => $c->run(...$data + $w0 + ['lr' => LR, 'adamw_step' => -3]), $msg('-3'), "$kind: adamw_step -3");
        expect_throw(fn() => $c->run(...$data + $w0 + ['lr' => LR, 'adamw_step' => 2.5]), $msg('2.5'), "$kind: adamw_step 2.5");
        expect_throw(fn() => $c->run(...$data + $w0 + ['lr' => LR, 'adamw_step' => CudaArray::zeros([], 'float64')]), $msg('0'),
                     "$kind: adamw_step 0 as a tensor");
        $bad = CudaArray::loadNpz($file);
        $bad['adamw_step'] = CudaArray::zeros([], 'float64');
        CudaArray::saveNpz("$work/bad.npz", $bad);
        $d = new $class();
        expect_throw(fn() => $d->loadCheckpoint("$work/bad.npz"),
                     "$IA: loadCheckpoint: $work/bad.npz: \"adamw_step\" is AdamW's step counter t of the next update and must be a whole number from 1 to 2^53, 0 given",
                     "$kind: a checkpoint with adamw_step 0");
        check($d->optimizerState()['step'] === 0, "$kind: ... changes nothing");
        expect_throw(fn() => $d->saveCheckpoint("$work/bad2.npz", $fresh() + ['adamw_step' => 0]),
                     "$IA: saveCheckpoint: \"adamw_step\" is AdamW's step counter t of the next update and must be a whole number from 1 to 2^53, 0 given",
                     "$kind: saveCheckpoint with adamw_step 0");
    }
    $bad = CudaArray::loadNpz($file);
    unset($bad['w_m']);
    CudaArray::saveNpz("$work/bad.npz", $bad);
    expect_throw(fn() => (new $class())->loadCheckpoint("$work/bad.npz"),
                 "$IA: loadCheckpoint: $work/bad.npz has no \"w_m\"", "$kind: a checkpoint without a moment");
    expect_throw(fn() => (new $class())->saveCheckpoint("$work/bad2.npz", ['w' => $init['w']]),
                 "$IA: saveCheckpoint: input \"c\" (updated in place) is missing from the array", "$kind: saveCheckpoint without a parameter");
}

echo "$passed passed, $failed failed\n";
exit($failed ? 1 : 0);
