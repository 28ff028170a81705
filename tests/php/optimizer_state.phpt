--TEST--
Cuda\Optimizer: a step traced inside Cuda\Fusion::compile gives the eager numbers, and a state saved with saveState() and read back with loadState() continues identically
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
use Cuda\Optimizer;

function same(array $a, array $b, float $tol): bool {
    foreach ($a as $i => $x) {
        $xa = $x->toArray(); $ya = $b[$i]->toArray();
        $fa = is_array($xa) ? $xa : [$xa]; $fb = is_array($ya) ? $ya : [$ya];
        array_walk_recursive($fa, function ($v) use (&$va) { $va[] = $v; });
        array_walk_recursive($fb, function ($v) use (&$vb) { $vb[] = $v; });
        foreach ($va as $k => $v) if (abs($v - $vb[$k]) > $tol * max(1.0, abs($v))) return false;
        $va = $vb = null;
    }
    return true;
}

foreach (['float64', 'float32'] as $dtype) {
    $w = CudaArray::randn([4, 3], seed: 1)->astype($dtype);
    $b = CudaArray::randn([3], seed: 2)->astype($dtype);
    $gw = [CudaArray::randn([4, 3], seed: 3)->astype($dtype), CudaArray::randn([4, 3], seed: 4)->astype($dtype)];
    $gb = [CudaArray::randn([3], seed: 5)->astype($dtype), CudaArray::randn([3], seed: 6)->astype($dtype)];

    // ---- AdamW: eager against the same step compiled (lr a tensor input, state donated) ----
    $opt = Optimizer::adamW(0.01, 0.9, 0.99, 1e-8, 0.05);
    $lr = CudaArray::fromFlatArray([0.01], [1], $dtype);
    $s0 = $opt->initState([$w, $b]);
    $graph = Fusion::compile(
        fn($w, $b, $gw, $gb, $m0, $m1, $v0, $v1, $p1, $p2, $lr) => $opt->step(
            [$w, $b], [$gw, $gb],
            ['firstMoment' => [$m0, $m1], 'secondMoment' => [$v0, $v1], 'beta1Power' => $p1, 'beta2Power' => $p2],
            $lr, [true, false]),
        [$w, $b, $gw[0], $gb[0], ...$s0['firstMoment'], ...$s0['secondMoment'], $s0['beta1Power'], $s0['beta2Power'], $lr]);
    $ep = [$w, $b]; $es = $s0; $cp = [$w, $b]; $cs = $s0;
    for ($k = 0; $k < 4; $k++) {
        $e = $opt->step($ep, [$gw[$k % 2], $gb[$k % 2]], $es, $lr, [true, false]);
        $c = $graph->run($cp[0], $cp[1], $gw[$k % 2], $gb[$k % 2], ...[...$cs['firstMoment'], ...$cs['secondMoment'],
                         $cs['beta1Power'], $cs['beta2Power'], $lr]);
        [$ep, $es, $cp, $cs] = [$e['parameters'], $e['state'], $c['parameters'], $c['state']];
    }
    $tol = $dtype === 'float64' ? 1e-12 : 1e-6;
    echo "$dtype adamW fused == eager: ", json_encode(same($ep, $cp, $tol) && same($es['firstMoment'], $cs['firstMoment'], $tol)
        && same($es['secondMoment'], $cs['secondMoment'], $tol) && same([$es['beta2Power']], [$cs['beta2Power']], $tol)), "\n";
    echo "beta1Power after 4 steps: ", round($cs['beta1Power']->toArray()[0], 6), " (0.9^4 = ", round(0.9 ** 4, 6), ")\n";
    // the update is in the plan, not computed at tracing: stats and inputs of the graph
    echo "graph inputs: ", count($graph->inputs()), "\n";

    // ---- SGD with Nesterov momentum, traced inside Fusion::run as well ----
    $sgd = Optimizer::sgd(0.1, 0.9, 0.01, true);
    $st = $sgd->initState([$w, $b]);
    $e1 = $sgd->step([$w, $b], [$gw[0], $gb[0]], $st);
    $f1 = Fusion::run(fn() => $sgd->step([$w, $b], [$gw[0], $gb[0]], $st));
    echo "$dtype sgd Fusion::run == eager: ", json_encode(same($e1['parameters'], $f1['parameters'], $tol)
        && same($e1['state']['velocity'], $f1['state']['velocity'], $tol)), "\n";

    // ---- saveState / loadState: two steps, save, load, three more == five uninterrupted ----
    $path = sys_get_temp_dir() . '/gtc_opt_state_' . getmypid() . ".npz";
    foreach ([Optimizer::adam(0.02, 0.8, 0.9, 1e-7, 0.01), Optimizer::sgd(0.05, 0.5, 0.0, false, null, 1.0)] as $o) {
        $p = [$w, $b]; $s = $o->initState($p);
        $run = function ($o, $p, $s, $from, $to) use ($gw, $gb) {
            for ($k = $from; $k < $to; $k++) {
                $r = $o->step($p, [$gw[$k % 2], $gb[$k % 2]], $s);
                [$p, $s] = [$r['parameters'], $r['state']];
            }
            return [$p, $s];
        };
        [$pa, $sa] = $run($o, $p, $s, 0, 5);
        [$pb, $sb] = $run($o, $p, $s, 0, 2);
        $o->saveState($path, $sb);
        $loaded = $o->loadState($path, $pb);
        [$pc, $sc] = $run($o, $pb, $loaded, 2, 5);
        $name = $o->getOptions()['type'];
        echo "$dtype $name saved and resumed == uninterrupted: ", json_encode(same($pa, $pc, 0.0)), "\n";
        if ($name === 'adam') {
            $np = CudaArray::loadNpz($path);
            echo "members: ", implode(' ', array_keys($np)), "\n";
        }
    }
    @unlink($path);
}
?>
--EXPECT--
float64 adamW fused == eager: true
beta1Power after 4 steps: 0.6561 (0.9^4 = 0.6561)
graph inputs: 11
float64 sgd Fusion::run == eager: true
float64 adam saved and resumed == uninterrupted: true
members: firstMoment.0 firstMoment.1 secondMoment.0 secondMoment.1 beta1Power beta2Power
float64 sgd saved and resumed == uninterrupted: true
float32 adamW fused == eager: true
beta1Power after 4 steps: 0.6561 (0.9^4 = 0.6561)
graph inputs: 11
float32 sgd Fusion::run == eager: true
float32 adam saved and resumed == uninterrupted: true
members: firstMoment.0 firstMoment.1 secondMoment.0 secondMoment.1 beta1Power beta2Power
float32 sgd saved and resumed == uninterrupted: true
