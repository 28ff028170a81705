<?php
/* tests/e2e/fusion_export.php: Cuda\Fusion::export → `gtc compile` → the same outputs as the JIT.
 *   php -n -d extension=gtc.so fusion_export.php export OUT.json
 *   php -n -d extension=gtc.so -d extension=MODEL.so fusion_export.php compare CLASS
 *   php -n -d extension=gtc.so [-d extension=MODEL.so] fusion_export.php bench [STEPS [CLASS]]
 * compare prints "ok" when the compiled model's outputs equal the JIT graph's over three training
 * steps (relative 1e-6), else the worst difference. bench prints one JSON line: cold and warm
 * (in-process cache) compile times, the kernels' origin, and per-step replay and eager times. */
declare(strict_types=1);

use Cuda\CudaArray;
use Cuda\Fusion;

/* examples/train_step.json as a closure (as tests/php/fusion_train_step.phpt). */
function train_step(CudaArray $x, CudaArray $y, CudaArray $w1, CudaArray $b1, CudaArray $w2, CudaArray $b2, $lr): array
{
    $h1 = $x->matmul($w1) + $b1;
    $a1 = $h1->relu();
    $logits = $a1->matmul($w2) + $b2;
    $sh = $logits - $logits->max(1, true);
    $e = $sh->exp();
    $se = $e->sum(1, true);
    $loss = ($y * ($sh - $se->log()))->sum(1)->mean()->neg();
    $dlogits = ($e / $se - $y) / 512;
    $dh1 = CudaArray::where($h1->gt(0), $dlogits->matmul($w2->transpose([1, 0])), 0);
    $update = fn($w, $g) => $w - $g->clamp(-5, 5) * $lr;
    return ['loss' => $loss,
            'w1' => $update($w1, $x->transpose([1, 0])->matmul($dh1)), 'b1' => $update($b1, $dh1->sum(0)),
            'w2' => $update($w2, $a1->transpose([1, 0])->matmul($dlogits)), 'b2' => $update($b2, $dlogits->sum(0))];
}

const SPEC = ['x' => [[512, 480], 'float32'], 'y' => [[512, 2], 'float32'], 'w1' => [[480, 256], 'float32'],
              'b1' => [[256], 'float32'], 'w2' => [[256, 2], 'float32'], 'b2' => [[2], 'float32'], 'lr' => 'float32'];
const DONATE = ['w1' => 'w1', 'b1' => 'b1', 'w2' => 'w2', 'b2' => 'b2'];

function params(): array
{
    return ['w1' => (CudaArray::rand([480, 256], 3) - 0.5) * 0.1, 'b1' => CudaArray::zeros([256]),
            'w2' => (CudaArray::rand([256, 2], 4) - 0.5) * 0.1, 'b2' => CudaArray::zeros([2])];
}

[$mode, $arg] = [$argv[1] ?? '', $argv[2] ?? ''];
if ($mode === 'export') {
    file_put_contents($arg, Fusion::export('train_step', SPEC, 'fusion_train_step', DONATE));
    echo "ok\n";
    exit(0);
}
function data(): array
{
    $x = CudaArray::rand([512, 480], 1) - 0.5;
    $rows = [];
    foreach (CudaArray::rand([512], 2)->toArray() as $v) $rows[] = $v < 0.5 ? [1, 0] : [0, 1];
    return [$x, new CudaArray($rows)];
}

if ($mode === 'bench') {
    $steps = (int)($arg ?: 200);
    $t = hrtime(true);
    $jit = Fusion::compile('train_step', SPEC, 'fusion_train_step', DONATE);
    $cold = (hrtime(true) - $t) / 1e6;
    $t = hrtime(true);
    $jit2 = Fusion::compile('train_step', SPEC, 'fusion_train_step', DONATE);
    $warm = (hrtime(true) - $t) / 1e6;
    [$x, $y] = data();
    $p = params();
    for ($i = 0; $i < 5; $i++) $r = $jit->run($x, $y, $p['w1'], $p['b1'], $p['w2'], $p['b2'], 0.01);
    $r['loss']->item();
    $t = hrtime(true);
    for ($i = 0; $i < $steps; $i++) $r = $jit->run($x, $y, $p['w1'], $p['b1'], $p['w2'], $p['b2'], 0.01);
    $r['loss']->item();
    $replay = (hrtime(true) - $t) / 1e3 / $steps;
    $q = params();
    for ($i = 0; $i < 3; $i++) $e = train_step($x, $y, $q['w1'], $q['b1'], $q['w2'], $q['b2'], 0.01);
    $e['loss']->item();
    $n = max(10, intdiv($steps, 4));
    $t = hrtime(true);
    for ($i = 0; $i < $n; $i++) {
        $e = train_step($x, $y, $q['w1'], $q['b1'], $q['w2'], $q['b2'], 0.01);
        unset($e['loss']);
        $q = $e;
    }
    $q['b2']->toArray();
    $eager = (hrtime(true) - $t) / 1e3 / $n;
    $aot = null;
    if (isset($argv[3])) { // a model extension of the exported graph, loaded next to gtc.so
        $m = new $argv[3]();
        $q = params();
        for ($i = 0; $i < 5; $i++) $r = $m->run($x, $y, $q['w1'], $q['b1'], $q['w2'], $q['b2'], 0.01);
        $r['loss']->item();
        $t = hrtime(true);
        for ($i = 0; $i < $steps; $i++) $r = $m->run($x, $y, $q['w1'], $q['b1'], $q['w2'], $q['b2'], 0.01);
        $r['loss']->item();
        $aot = round((hrtime(true) - $t) / 1e3 / $steps, 1);
    }
    $s = $jit->getStats();
    echo json_encode(['aot_us_per_step' => $aot, 'device' => $x->device(), 'kernels' => $s['kernels'], 'cache2' => $jit2->getStats()['cache'],
        'cold_compile_ms' => round($cold, 2), 'warm_compile_ms' => round($warm, 3),
        'replay_us_per_step' => round($replay, 1), 'eager_us_per_step' => round($eager, 1)]), "\n";
    exit(0);
}
$model = new $arg();
$jit = Fusion::compile('train_step', SPEC, 'fusion_train_step', DONATE);
[$x, $y] = data();
[$p, $q] = [params(), params()];
$worst = 0.0;
for ($step = 0; $step < 3; $step++) {
    $a = $jit->run($x, $y, $p['w1'], $p['b1'], $p['w2'], $p['b2'], 0.5);
    $b = $model->run($x, $y, $q['w1'], $q['b1'], $q['w2'], $q['b2'], 0.5);
    foreach ($a as $k => $t) {
        $d = ($t - $b[$k])->abs()->max()->item() / max(1e-6, $b[$k]->abs()->max()->item());
        $worst = max($worst, $d);
    }
    unset($a['loss'], $b['loss']);
    [$p, $q] = [$a, $b];
}
echo $worst <= 1e-6 ? "ok\n" : "worst relative difference $worst\n";
exit($worst <= 1e-6 ? 0 : 1);
