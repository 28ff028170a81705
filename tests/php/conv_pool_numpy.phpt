--TEST--
conv2d, maxPool2d, avgPool2d (and Cuda\NN's forms) against an independent float64 NumPy reference, eager and in Cuda\Fusion, float64 and float32
--SKIPIF--
<?php
exec('/usr/bin/python3 -c "import numpy" 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip NumPy is not available to /usr/bin/python3');
?>
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
use Cuda\NN;
$dir = sys_get_temp_dir() . '/gtc_conv_ref_' . getmypid();
@mkdir($dir);
// NumPy writes the inputs and what each case must give, in float64: a convolution as a sum over
// kernel taps of strided windows of the zero-padded input (per group), and pooling as loops
// over output positions of explicit windows (max over real elements, -inf padding; the
// average's divisor counts the window's real elements unless count_include_pad).
$py = <<<'PY'
import sys, numpy as np
d, mode = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(19)
def conv2d(x, w, b=None, s=(1, 1), p=(0, 0, 0, 0), dl=(1, 1), g=1):
    N, C, H, W = x.shape; M, Cg, KH, KW = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])))
    OH = (H + p[0] + p[2] - dl[0] * (KH - 1) - 1) // s[0] + 1
    OW = (W + p[1] + p[3] - dl[1] * (KW - 1) - 1) // s[1] + 1
    out = np.zeros((N, M, OH, OW)); Mg = M // g
    for gi in range(g):
        xs = xp[:, gi * Cg:(gi + 1) * Cg]
        for i in range(KH):
            for j in range(KW):
                win = xs[:, :, i * dl[0]:i * dl[0] + s[0] * (OH - 1) + 1:s[0], j * dl[1]:j * dl[1] + s[1] * (OW - 1) + 1:s[1]]
                out[:, gi * Mg:(gi + 1) * Mg] += np.einsum('nchw,mc->nmhw', win, w[gi * Mg:(gi + 1) * Mg, :, i, j])
    return out if b is None else out + b[None, :, None, None]
def pool(x, k, s=(1, 1), p=(0, 0, 0, 0), mx=True, cip=False):
    N, C, H, W = x.shape
    pw = ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3]))
    xp = np.pad(x, pw, constant_values=-np.inf if mx else 0.0)
    real = np.pad(np.ones((1, 1, H, W)), pw)
    OH = (H + p[0] + p[2] - k[0]) // s[0] + 1; OW = (W + p[1] + p[3] - k[1]) // s[1] + 1
    out = np.zeros((N, C, OH, OW))
    for i in range(OH):
        for j in range(OW):
            sl = (slice(None), slice(None), slice(i * s[0], i * s[0] + k[0]), slice(j * s[1], j * s[1] + k[1]))
            win = xp[sl]
            if mx: out[:, :, i, j] = win.max(axis=(2, 3))
            else: out[:, :, i, j] = win.sum(axis=(2, 3)) / (k[0] * k[1] if cip else real[sl].sum())
    return out
if mode == 'write':
    x = rng.standard_normal((2, 4, 7, 6)); np.save(f'{d}/x.npy', x)
    w = rng.standard_normal((6, 4, 3, 3)); np.save(f'{d}/w.npy', w)
    b = rng.standard_normal(6); np.save(f'{d}/b.npy', b)
    wg = rng.standard_normal((6, 2, 3, 2)); np.save(f'{d}/wg.npy', wg)
    wd = rng.standard_normal((4, 1, 3, 3)); np.save(f'{d}/wd.npy', wd)
    w1 = rng.standard_normal((3, 4, 1, 1)); np.save(f'{d}/w1.npy', w1)
    xl = rng.standard_normal((1, 2, 20, 5)); np.save(f'{d}/xl.npy', xl)
    wl = rng.standard_normal((3, 2, 17, 2)); np.save(f'{d}/wl.npy', wl)
    xt = np.round(rng.standard_normal((2, 3, 6, 5)) * 1.5); np.save(f'{d}/xt.npy', xt)  # ties
    ref = {
        'conv': conv2d(x, w, b, s=(2, 1), p=(1, 0, 2, 1), dl=(1, 2)),
        'conv_plain': conv2d(x, w),
        'conv_group': conv2d(x, wg, s=(1, 2), g=2),
        'conv_depthwise': conv2d(x, wd, p=(1, 1, 1, 1), g=4),
        'conv_1x1': conv2d(x, w1, s=(2, 2)),
        'conv_17_taps': conv2d(xl, wl, p=(0, 0, 1, 0)),
        'nn_conv': conv2d(x, w, b, s=(2, 2), p=(1, 2, 1, 2), dl=(2, 1)),
        'max': pool(x, (3, 2), s=(2, 1), p=(1, 0, 1, 1)),
        'max_plain': pool(x, (2, 2)),
        'max_ties': pool(xt, (2, 3), s=(2, 2), p=(1, 1, 0, 2)),
        'avg': pool(x, (3, 3), s=(2, 2), p=(1, 1, 1, 1), mx=False),
        'avg_cip': pool(x, (3, 3), s=(2, 2), p=(1, 1, 1, 1), mx=False, cip=True),
        'avg_plain': pool(x, (2, 3), s=(1, 3), mx=False),
        'nn_max': pool(x, (2, 2), s=(2, 2)),
        'nn_avg': pool(x, (2, 2), s=(2, 2), p=(1, 1, 1, 1), mx=False),
    }
    for k, v in ref.items():
        np.save(f'{d}/ref_{k}.npy', np.asarray(v, dtype=np.float64))
    print('ok')
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
$a = [];
foreach (['x', 'w', 'b', 'wg', 'wd', 'w1', 'xl', 'wl', 'xt'] as $n) $a[$n] = CudaArray::fromNpy("$dir/$n.npy");
$cases = [
    'conv' => [fn($x, $w, $b) => $x->conv2d($w, $b, strides: [2, 1], pads: [1, 0, 2, 1], dilations: [1, 2]), ['x', 'w', 'b']],
    'conv_plain' => [fn($x, $w) => $x->conv2d($w), ['x', 'w']],
    'conv_group' => [fn($x, $w) => $x->conv2d($w, null, [1, 2], group: 2), ['x', 'wg']],
    'conv_depthwise' => [fn($x, $w) => $x->conv2d($w, pads: [1, 1, 1, 1], group: 4), ['x', 'wd']],
    'conv_1x1' => [fn($x, $w) => $x->conv2d($w, strides: [2, 2]), ['x', 'w1']],
    'conv_17_taps' => [fn($x, $w) => $x->conv2d($w, pads: [0, 0, 1, 0]), ['xl', 'wl']],
    'nn_conv' => [fn($x, $w, $b) => NN::conv2d($x, $w, $b, stride: [2, 2], padding: [1, 2], dilation: [2, 1]), ['x', 'w', 'b']],
    'max' => [fn($x) => $x->maxPool2d([3, 2], [2, 1], [1, 0, 1, 1]), ['x']],
    'max_plain' => [fn($x) => $x->maxPool2d([2, 2]), ['x']],
    'max_ties' => [fn($x) => $x->maxPool2d([2, 3], strides: [2, 2], pads: [1, 1, 0, 2]), ['xt']],
    'avg' => [fn($x) => $x->avgPool2d([3, 3], [2, 2], [1, 1, 1, 1]), ['x']],
    'avg_cip' => [fn($x) => $x->avgPool2d([3, 3], [2, 2], [1, 1, 1, 1], countIncludePad: true), ['x']],
    'avg_plain' => [fn($x) => $x->avgPool2d([2, 3], strides: [1, 3]), ['x']],
    'nn_max' => [fn($x) => NN::pool2d($x, [2, 2]), ['x']],
    'nn_avg' => [fn($x) => NN::pool2d($x, [2, 2], padding: [1, 1], mode: 'average'), ['x']],
];
$lines = [];
foreach ($cases as $name => [$fn, $names]) {
    $args = array_map(fn($n) => $a[$n], $names);
    $fn(...$args)->toNpy("$dir/out_$name.eager.npy");
    Fusion::compile($fn, $args)->run(...$args)->toNpy("$dir/out_$name.fused.npy");
    // float32: within float32 rounding of the float64 reference
    $args32 = array_map(fn($t) => $t->astype('float32'), $args);
    $r32 = $fn(...$args32);
    echo $name === 'conv' ? "float32 in, {$r32->dtype()} out\n" : '';
    $r32->toNpy("$dir/out_$name.f32.npy");
    Fusion::compile($fn, $args32)->run(...$args32)->toNpy("$dir/out_$name.f32fused.npy");
    array_push($lines, "$name.eager:1e-12", "$name.fused:1e-12", "$name.f32:2e-5", "$name.f32fused:2e-5");
}
$p = proc_open(['/usr/bin/python3', "$dir/ref.py", $dir, 'check'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
fwrite($pipes[0], implode("\n", $lines));
fclose($pipes[0]);
$res = stream_get_contents($pipes[1]);
proc_close($p);
$bad = array_filter(explode("\n", trim($res)), fn($l) => !str_ends_with($l, ' ok'));
echo count($lines), " comparisons, ", count($bad) ? implode("\n", $bad) : "all within tolerance", "\n";
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
numpy wrote: rc=0 ok
float32 in, float32 out
60 comparisons, all within tolerance
