--TEST--
Cuda\Optimizer: SGD (momentum, Nesterov, weight decay, clipping), Adam and AdamW over several steps against an independent float64 NumPy reference, float64 and float32, with learning-rate changes
--SKIPIF--
<?php
exec('/usr/bin/python3 -c "import numpy" 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip NumPy is not available to /usr/bin/python3');
?>
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Optimizer;

// NumPy gives the parameters, five steps of gradients and, per configuration, the parameters
// after every step, written from torch.optim's documented update rules (SGD, Adam, AdamW), not
// from gtc's compiler/optim.c.
$py = <<<'PY'
import json, numpy as np
rng = np.random.default_rng(2718)
P = [rng.standard_normal((3, 4)), rng.standard_normal(4), np.array(0.75)]
G = [[rng.standard_normal(p.shape) * 2 for p in P] for _ in range(5)]
def run(c):
    p = [x.copy() for x in P]; buf = [np.zeros_like(x) for x in P]; m = [np.zeros_like(x) for x in P]
    v = [np.zeros_like(x) for x in P]; out = []
    for s in range(5):
        lr = c['lrs'][s]
        g = [x.copy() for x in G[s]]
        if c.get('cv'): g = [np.clip(x, -c['cv'], c['cv']) for x in g]
        if c.get('cn'):
            norm = np.sqrt(sum((x * x).sum() for x in g))
            g = [x * min(1.0, c['cn'] / (norm + 1e-6)) for x in g]
        mask = c.get('mask', [True] * len(P))
        for i in range(len(P)):
            wd = c.get('wd', 0.0) if mask[i] else 0.0
            if c['type'] == 'sgd':
                d = g[i] + wd * p[i]
                if c.get('mom'):
                    buf[i] = c['mom'] * buf[i] + d
                    d = d + c['mom'] * buf[i] if c.get('nesterov') else buf[i]
                p[i] = p[i] - lr * d
            else:
                b1, b2, eps, t = c['b1'], c['b2'], c['eps'], s + 1
                gi = g[i] + wd * p[i] if c['type'] == 'adam' else g[i]
                m[i] = b1 * m[i] + (1 - b1) * gi
                v[i] = b2 * v[i] + (1 - b2) * gi * gi
                if c['type'] == 'adamW': p[i] = p[i] * (1 - lr * wd)
                mh, vh = m[i] / (1 - b1 ** t), v[i] / (1 - b2 ** t)
                p[i] = p[i] - lr * mh / (np.sqrt(vh) + eps)
        out.append([x.ravel().tolist() for x in p])
    return out
cfg = json.loads(open(0).read())
print(json.dumps({'P': [[x.ravel().tolist(), list(x.shape)] for x in P],
                  'G': [[x.ravel().tolist() for x in gs] for gs in G],
                  'ref': {k: run(c) for k, c in cfg.items()}}))
PY;
$lr5 = fn($a, $b) => [$a, $a, $b, $b, $b];
$configs = [
    'sgd_plain' => ['type' => 'sgd', 'lrs' => $lr5(0.1, 0.1)],
    'sgd_momentum_lr_change' => ['type' => 'sgd', 'mom' => 0.9, 'lrs' => $lr5(0.05, 0.02)],
    'sgd_nesterov_decay' => ['type' => 'sgd', 'mom' => 0.8, 'nesterov' => true, 'wd' => 0.05, 'lrs' => $lr5(0.1, 0.1)],
    'sgd_clip_value' => ['type' => 'sgd', 'mom' => 0.5, 'cv' => 0.7, 'lrs' => $lr5(0.1, 0.1)],
    'sgd_clip_norm' => ['type' => 'sgd', 'cn' => 1.5, 'lrs' => $lr5(0.1, 0.1)],
    'adam_l2' => ['type' => 'adam', 'b1' => 0.9, 'b2' => 0.99, 'eps' => 1e-8, 'wd' => 0.1, 'lrs' => $lr5(0.01, 0.01)],
    'adamw_mask_lr_tensor' => ['type' => 'adamW', 'b1' => 0.8, 'b2' => 0.95, 'eps' => 1e-6, 'wd' => 0.2,
                               'mask' => [true, false, true], 'lrs' => [0.03, 0.01, 0.02, 0.02, 0.005]],
    'adamw_clip_norm' => ['type' => 'adamW', 'b1' => 0.9, 'b2' => 0.999, 'eps' => 1e-8, 'wd' => 0.01, 'cn' => 2.0,
                          'lrs' => $lr5(0.01, 0.01)],
];
$spec = proc_open(['/usr/bin/python3', '-c', $py], [['pipe', 'r'], ['pipe', 'w']], $pipes);
fwrite($pipes[0], json_encode($configs));
fclose($pipes[0]);
$data = json_decode(stream_get_contents($pipes[1]), true);
proc_close($spec);

function make(array $c): Optimizer {
    $lr = $c['lrs'][0];
    return match ($c['type']) {
        'sgd' => Optimizer::sgd($lr, $c['mom'] ?? 0.0, $c['wd'] ?? 0.0, $c['nesterov'] ?? false, $c['cv'] ?? null, $c['cn'] ?? null),
        'adam' => Optimizer::adam($lr, $c['b1'], $c['b2'], $c['eps'], $c['wd'] ?? 0.0, $c['cv'] ?? null, $c['cn'] ?? null),
        'adamW' => Optimizer::adamW($lr, $c['b1'], $c['b2'], $c['eps'], $c['wd'] ?? 0.0, $c['cv'] ?? null, $c['cn'] ?? null),
    };
}

function flat(CudaArray $t): array {
    $a = $t->toArray();
    if (!is_array($a)) return [$a];
    array_walk_recursive($a, function ($v) use (&$out) { $out[] = $v; });
    return $out;
}

// every configuration, float64 and float32, five steps each against the reference
function check_all(array $configs, array $data, string $how): void {
foreach (['float64' => 1e-11, 'float32' => 2e-5] as $dtype => $tol) {
    foreach ($configs as $name => $c) {
        $opt = make($c);
        $params = array_map(fn($p) => CudaArray::fromFlatArray($p[0], $p[1], $dtype), $data['P']);
        $state = $opt->initState($params);
        $err = 0.0;
        for ($s = 0; $s < 5; $s++) {
            $grads = [];
            foreach ($data['G'][$s] as $i => $g) $grads[] = CudaArray::fromFlatArray($g, $data['P'][$i][1], $dtype);
            $lrTensor = null;
            if ($name === 'adamw_mask_lr_tensor') {
                $lrTensor = CudaArray::fromFlatArray([$c['lrs'][$s]], [1], $dtype); // a tensor per step
            } elseif ($opt->getLearningRate() !== $c['lrs'][$s]) {
                $opt->setLearningRate($c['lrs'][$s]);                           // no rebuilding
            }
            $r = $opt->step($params, $grads, $state, $lrTensor, isset($c['mask']) ? $c['mask'] : null);
            foreach ($r['parameters'] as $i => $p) {
                if ($p->dtype() !== $dtype || $p->getShape() !== $data['P'][$i][1]) echo "$name: parameter $i changed type\n";
                foreach (flat($p) as $k => $v) {
                    $want = $data['ref'][$name][$s][$i][$k];
                    $err = max($err, abs($v - $want) / max(1.0, abs($want)));
                }
            }
            foreach ($r['state'] as $key => $entry) {
                foreach (is_array($entry) ? $entry : [$entry] as $e) {
                    if ($e->dtype() !== $dtype) echo "$name: state $key is " . $e->dtype() . "\n";
                }
            }
            $params = $r['parameters'];
            $state = $r['state'];
        }
        if ($err > $tol) echo "$how $dtype $name: off by $err (tolerance $tol)\n";
    }
}
echo "$how: cases ", count($configs), " x 2 dtypes, 5 steps each\n";
}
// a step is a planned graph (compiled C kernels here, one CUDA Graph on a GPU) ...
check_all($configs, $data, 'planned');
// ... and, where no kernels can be built (the CPU backend without a C compiler, nothing in an
// empty kernel cache), the same graph op by op: the same numbers. On a GPU NVRTC builds them.
$device = CudaArray::zeros([1])->device();
if ($device === 'cpu') {
    $cache = sys_get_temp_dir() . '/gtc_opt_kcache_' . getmypid();
    @mkdir($cache);
    putenv("GTC_CACHE_DIR=$cache");
    putenv("GTC_JIT_CC=$cache/no-such-cc");
    Cuda\Fusion::clearCache();
    ob_start();
    check_all($configs, $data, 'op by op');
    $out = ob_get_clean();
    $files = count(glob("$cache/*"));
    $entries = Cuda\Fusion::getCacheStats()['entries']; // the fallback's plans are never cached
    putenv('GTC_JIT_CC');
    putenv('GTC_CACHE_DIR');
    @rmdir($cache);
    echo $out === "op by op: cases 8 x 2 dtypes, 5 steps each\n" && $files === 0 && $entries === 0
        ? "op by op: the same numbers\n" : "fallback failed: $out, $files kernel files, $entries plans cached\n";
} else {
    echo "op by op: not reachable on $device (NVRTC builds the kernels)\n";
}
// the state's keys, as php-gpu-tensors names them
print_r(array_keys(Optimizer::adam()->initState([CudaArray::zeros([2])])));
print_r(array_keys(Optimizer::sgd(0.1, 0.9)->initState([CudaArray::zeros([2])])));
var_dump(Optimizer::sgd(0.1)->initState([CudaArray::zeros([2])]));
// the inputs are not modified: step() is functional
$p = CudaArray::fromFlatArray([1.0, 2.0], [2]);
$o = Optimizer::sgd(0.5, 0.9);
$st = $o->initState([$p]);
$o->step([$p], [CudaArray::fromFlatArray([1.0, 1.0], [2])], $st);
echo json_encode([$p->toArray(), $st['velocity'][0]->toArray()]), "\n";
?>
--EXPECTF--
planned: cases 8 x 2 dtypes, 5 steps each
op by op: %r(the same numbers|not reachable on cuda:\d+ \(NVRTC builds the kernels\))%r
Array
(
    [0] => firstMoment
    [1] => secondMoment
    [2] => beta1Power
    [3] => beta2Power
)
Array
(
    [0] => velocity
)
array(0) {
}
[[1,2],[0,0]]
