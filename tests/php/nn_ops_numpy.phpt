--TEST--
dropout, softmax, logSoftmax, layerNorm, gelu and crossEntropy against an independent float64 NumPy reference, eager and in Cuda\Fusion
--SKIPIF--
<?php
exec('/usr/bin/python3 -c "import numpy" 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip NumPy is not available to /usr/bin/python3');
?>
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$dir = sys_get_temp_dir() . '/gtc_nn_ref_' . getmypid();
@mkdir($dir);
// NumPy writes the inputs and, in float64, what each case must give: the textbook formulas
// (max-shifted softmax, population variance, math.erf), and dropout's mask from a Philox4x32-10
// written here from the paper's round function (numpy uint64 words), not from gtc's scalar.h.
$py = <<<'PY'
import sys, math, numpy as np
d, mode = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(1919)
M = np.uint64(0xffffffff)
def philox(c, k0, k1):
    c = [np.asarray(w, dtype=np.uint64) for w in c]
    k0, k1 = np.uint64(k0), np.uint64(k1)
    for r in range(10):
        if r:
            k0, k1 = (k0 + np.uint64(0x9E3779B9)) & M, (k1 + np.uint64(0xBB67AE85)) & M
        p0, p1 = np.uint64(0xD2511F53) * c[0], np.uint64(0xCD9E8D57) * c[2]
        c = [((p1 >> np.uint64(32)) ^ c[1] ^ k0) & M, p1 & M, ((p0 >> np.uint64(32)) ^ c[3] ^ k1) & M, p0 & M]
    return c
def philox_x(i, seed):
    i = np.asarray(i, dtype=np.uint64)
    return philox([i & M, i >> np.uint64(32), np.zeros_like(i), np.zeros_like(i)], seed & 0xffffffff, (seed >> 32) & 0xffffffff)[0]
def dropout(x, ratio, seed):
    u = (philox_x(np.arange(x.size), seed) >> np.uint64(8)).astype(np.float64) * 2.0 ** -24
    return np.where((u >= ratio).reshape(x.shape), x / (1 - ratio), 0.0)
def softmax(x, ax):
    e = np.exp(x - x.max(axis=ax, keepdims=True))
    return e / e.sum(axis=ax, keepdims=True)
def log_softmax(x, ax):
    s = x - x.max(axis=ax, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=ax, keepdims=True))
def layer_norm(x, scale, bias, ax, eps):
    axes = tuple(range(ax, x.ndim))
    mu = x.mean(axis=axes, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=axes, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * scale + bias
if mode == 'write':
    # the Random123 known answers first: this reference's philox must be the paper's
    # (Random123 tests/kat_vectors, philox4x32 10: counter, key, expected)
    kat = [((0, 0, 0, 0), (0, 0), (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)),
           ((0xffffffff,) * 4, (0xffffffff,) * 2, (0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)),
           ((0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), (0xa4093822, 0x299f31d0),
            (0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1))]
    x = rng.standard_normal((4, 5, 6)) * 3
    np.save(f'{d}/x.npy', x)
    s = rng.standard_normal((5, 6)); b = rng.standard_normal((5, 6))
    np.save(f'{d}/s.npy', s); np.save(f'{d}/b.npy', b)
    t = rng.integers(0, 5, size=(4, 6)).astype(np.int64)
    np.save(f'{d}/t.npy', t)
    p = softmax(rng.standard_normal((4, 5, 6)), 1)
    np.save(f'{d}/p.npy', p)
    big = (1 << 40) + 12345
    ref = {
        'dropout': dropout(x, 0.3, 7),
        'dropout_big_seed': dropout(x, 0.75, big),
        'dropout_zero': x,
        'softmax': softmax(x, -1), 'softmax0': softmax(x, 0),
        'log_softmax': log_softmax(x, 1),
        'layer_norm': layer_norm(x, s[0], b[0], 2, 1e-5),
        'layer_norm1': layer_norm(x, s, b, 1, 0.5),
        'gelu': x * 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2))),
        'gelu_tanh': 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))),
        'ce_index': -np.take_along_axis(log_softmax(x, 1), t[:, None, :], axis=1).mean(),
        'ce_prob': -(p * log_softmax(x, 1)).sum(axis=1).mean(),
    }
    for k, v in ref.items():
        np.save(f'{d}/ref_{k}.npy', np.asarray(v, dtype=np.float64))
    print('kat', 'ok' if all(tuple(int(w) for w in philox(c, *k)) == want for c, k, want in kat) else 'bad')
else:
    for line in sys.stdin.read().split():
        case, tol = line.split(':')
        name = case.split('.')[0]
        got, want = np.load(f'{d}/out_{case}.npy').astype(np.float64), np.load(f'{d}/ref_{name}.npy')
        if got.shape != want.shape:
            print(case, 'shape', got.shape, 'want', want.shape)
            continue
        err = np.max(np.abs(got - want) / (1 + np.abs(want))) if want.size else 0.0
        print(case, 'ok' if err <= float(tol) else f'error {err:.3g}')
PY;
file_put_contents("$dir/ref.py", $py);
exec('/usr/bin/python3 ' . escapeshellarg("$dir/ref.py") . ' ' . escapeshellarg($dir) . ' write', $o, $rc);
echo "numpy wrote: rc=$rc ", implode(' ', $o), "\n";
$x = CudaArray::fromNpy("$dir/x.npy");
$s = CudaArray::fromNpy("$dir/s.npy");
$b = CudaArray::fromNpy("$dir/b.npy");
$t = CudaArray::fromNpy("$dir/t.npy");
$p = CudaArray::fromNpy("$dir/p.npy");
$seed = CudaArray::full([], 7, 'int64');
$big = CudaArray::full([], (1 << 40) + 12345, 'int64');
$s0 = $s->slice(0)->reshape([6]);
$b0 = $b->slice(0)->reshape([6]);
$cases = [
    'dropout' => [fn($x, $seed) => $x->dropout(0.3, $seed), [$x, $seed]],
    'dropout_big_seed' => [fn($x, $seed) => $x->dropout(0.75, $seed), [$x, $big]],
    'dropout_zero' => [fn($x, $seed) => $x->dropout(0.0, $seed), [$x, $seed]],
    'softmax' => [fn($x) => $x->softmax(), [$x]],
    'softmax0' => [fn($x) => $x->softmax(0), [$x]],
    'log_softmax' => [fn($x) => $x->logSoftmax(axis: 1), [$x]],
    'layer_norm' => [fn($x, $s, $b) => $x->layerNorm($s, $b), [$x, $s0, $b0]],
    'layer_norm1' => [fn($x, $s, $b) => $x->layerNorm($s, $b, axis: 1, epsilon: 0.5), [$x, $s, $b]],
    'gelu' => [fn($x) => $x->gelu(), [$x]],
    'gelu_tanh' => [fn($x) => $x->gelu(approximate: 'tanh'), [$x]],
    'ce_index' => [fn($x, $t) => $x->crossEntropy($t), [$x, $t]],
    'ce_prob' => [fn($x, $p) => $x->crossEntropy($p, axis: 1), [$x, $p]],
];
$lines = [];
foreach ($cases as $name => [$fn, $args]) {
    $fn(...$args)->toNpy("$dir/out_$name.eager.npy");
    Fusion::compile($fn, $args)->run(...$args)->toNpy("$dir/out_$name.fused.npy");
    $lines[] = "$name.eager:1e-12";
    $lines[] = "$name.fused:1e-12";
}
// an int seed is the same as a rank-0 int64 array holding it
$x->dropout(0.3, 7)->toNpy("$dir/out_dropout.int_seed.npy");
$lines[] = "dropout.int_seed:1e-12";
// float32: within float32 rounding of the float64 reference, and the same mask
$x32 = $x->astype('float32');
$x32->dropout(0.3, 7)->toNpy("$dir/out_dropout.f32.npy");
$lines[] = "dropout.f32:1e-6";
$x32->softmax()->toNpy("$dir/out_softmax.f32.npy");
$lines[] = "softmax.f32:1e-6";
$x32->layerNorm($s0->astype('float32'), $b0->astype('float32'))->toNpy("$dir/out_layer_norm.f32.npy");
$lines[] = "layer_norm.f32:1e-5";
$p = proc_open(['/usr/bin/python3', "$dir/ref.py", $dir, 'check'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
fwrite($pipes[0], implode("\n", $lines));
fclose($pipes[0]);
echo stream_get_contents($pipes[1]);
proc_close($p);
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
numpy wrote: rc=0 kat ok
dropout.eager ok
dropout.fused ok
dropout_big_seed.eager ok
dropout_big_seed.fused ok
dropout_zero.eager ok
dropout_zero.fused ok
softmax.eager ok
softmax.fused ok
softmax0.eager ok
softmax0.fused ok
log_softmax.eager ok
log_softmax.fused ok
layer_norm.eager ok
layer_norm.fused ok
layer_norm1.eager ok
layer_norm1.fused ok
gelu.eager ok
gelu.fused ok
gelu_tanh.eager ok
gelu_tanh.fused ok
ce_index.eager ok
ce_index.fused ok
ce_prob.eager ok
ce_prob.fused ok
dropout.int_seed ok
dropout.f32 ok
softmax.f32 ok
layer_norm.f32 ok
