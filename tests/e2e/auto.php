<?php
/* tests/e2e/auto.php: a training step derived by the compiler (a graph with a "train" section,
 * examples/*_auto.json) against its hand-written twin (examples/*_step.json), both compiled by
 * `gtc compile` and loaded next to gtc.so; run by tests/e2e/run.sh as
 *
 *   php -n -d extension=gtc.so -d extension=HAND.so -d extension=AUTO.so auto.php HAND_CLASS AUTO_CLASS
 *
 * Both run STEPS steps from the same seeded inputs (one-hot labels), each feeding its updated
 * parameters back; every output of every step must agree within 1e-5 (relative, Frobenius), and
 * the auto model must take the same inputs and give the same outputs, updated in place.
 * Prints "ok - ..." / "not ok - ..." lines, then "N passed, N failed". */
declare(strict_types=1);

require_once __DIR__ . '/check.inc';

use Cuda\CudaArray;

const STEPS = 5;
const TOL = 1e-5;

[$handClass, $autoClass] = [$argv[1] ?? '', $argv[2] ?? ''];
if (!class_exists($handClass) || !class_exists($autoClass)) {
    echo "not ok - classes $handClass and $autoClass are loaded\n0 passed, 1 failed\n";
    exit(1);
}
$hand = new $handClass();
$auto = new $autoClass();
check($auto->inputs() === $hand->inputs(), "$autoClass takes the same inputs as $handClass", json_encode($auto->inputs()));
$ho = $hand->outputs();
$ao = $auto->outputs();
check(array_keys($ao) === array_keys($ho), "$autoClass gives the same outputs", json_encode(array_keys($ao)));
$inPlace = true;
foreach ($ho as $n => $info) $inPlace = $inPlace && ($ao[$n]['inPlaceOf'] ?? null) === ($info['inPlaceOf'] ?? null);
check($inPlace, 'the updated parameters take the parameters\' buffers', json_encode($ao));
check($auto->getStats()['graphNodes'] <= $hand->getStats()['graphNodes'],
      sprintf('the auto step needs no more plan steps (%d) than the hand-written one (%d)',
              $auto->getStats()['graphNodes'], $hand->getStats()['graphNodes']));

$shapes = array_map(fn($i) => $i['shape'], $hand->inputs());
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
$sh = $copy($init);
$sa = $copy($init);
$params = ['w1', 'b1', 'w2', 'b2'];
for ($k = 1; $k <= STEPS; $k++) {
    $before = $sa;
    $rh = $hand->run(...$sh);
    $ra = $auto->run(...$sa);
    $worst = 0.0;
    $where = '-';
    foreach ($rh as $n => $v) {
        $e = rel_err($ra[$n], $v);
        if ($e > $worst) [$worst, $where] = [$e, $n];
    }
    check($worst <= TOL, sprintf("step %d: auto and hand-written outputs agree (worst rel err %.2g, %s)", $k, $worst, $where));
    $same = true;
    foreach ($params as $p) $same = $same && $ra[$p] === $before[$p];
    check($same, "step $k: the auto step updates the parameters in place");
    foreach ($params as $p) {
        $sh[$p] = $rh[$p];
        $sa[$p] = $ra[$p];
    }
}
$l0 = $hand->run(...$copy($init))['loss']->item();
$l1 = $auto->run(...$copy($sa))['loss']->item();
check($l1 < $l0, sprintf('training lowers the loss (%.4f -> %.4f)', $l0, $l1));

echo "$passed passed, $failed failed\n";
exit($failed ? 1 : 0);
