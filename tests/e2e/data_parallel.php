<?php
// tests/e2e/data_parallel.php: a training step compiled with --data-parallel (class DpStep) against
// the same graph compiled plainly (PlainStep), on the CPU backend: the parameters after 8 steps on
// the same batches are bit-identical, without Cuda\Distributed::init() and in a world of 1 joined
// with it (the all-reduce steps run as nothing there); getPlan() lists the all-reduce step.
use Cuda\{CudaArray, Distributed};
$plain = new PlainStep();
$dp = new DpStep();
$init = fn($s) => [
    'w1' => CudaArray::randn([64, 64], seed: 1 + $s) * 0.1, 'b1' => CudaArray::zeros([64]),
    'w2' => CudaArray::randn([64, 10], seed: 2 + $s) * 0.1, 'b2' => CudaArray::zeros([10]),
];
$fail = 0;
foreach ([false, true] as $joined) {
    if ($joined) Distributed::init();
    $a = $init(0);
    $b = array_map(fn($t) => clone $t, $a);
    for ($i = 0; $i < 8; $i++) {
        $x = CudaArray::randn([256, 64], seed: 100 + $i);
        $y = CudaArray::randint(0, 10, [256], 200 + $i)->oneHot(10);
        $la = $plain->run($x, $y, ...$a, lr: 0.05)['loss']->item();
        $lb = $dp->run($x, $y, ...$b, lr: 0.05)['loss']->item();
        if ($la !== $lb) {
            echo "FAIL step $i: loss $la against $lb\n";
            $fail++;
        }
    }
    foreach ($a as $k => $t)
        if ($t->toBuffer() !== $b[$k]->toBuffer()) {
            echo "FAIL ", $joined ? 'joined' : 'not joined', ": $k differs\n";
            $fail++;
        }
    echo $joined ? "world of 1 joined" : "no world", ": parameters ", $fail ? "differ" : "bit-identical", "\n";
}
$count = fn($m) => array_count_values(array_map(fn($s) => $s['kind'], $m->getPlan()))['allreduce'] ?? 0;
$ar = array_values(array_filter($dp->getPlan(), fn($s) => $s['kind'] === 'allreduce'))[0];
echo "allreduce steps: ", $count($dp), " (reads ", implode(',', $ar['reads']), "), plain: ", $count($plain), "\n";
exit($fail ? 1 : 0);
