--TEST--
gather, scatterAdd, concat, pad and erf against an independent float64 NumPy reference, eager and in Cuda\Fusion
--SKIPIF--
<?php
exec('/usr/bin/python3 -c "import numpy" 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip NumPy is not available to /usr/bin/python3');
?>
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$dir = sys_get_temp_dir() . '/gtc_index_ref_' . getmypid();
@mkdir($dir);
// NumPy writes the inputs and, in float64, what each case must give (math.erf for erf,
// np.take for gather, np.add.at for scatter_add, np.concatenate: independent of gtc's code).
$py = <<<'PY'
import sys, math, numpy as np
d, mode = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(19)
if mode == 'write':
    x = rng.standard_normal((4, 7, 3))
    np.save(f'{d}/x.npy', x)
    np.save(f'{d}/x32.npy', x.astype(np.float32))
    i = rng.integers(-7, 7, size=(5, 2)).astype(np.int32)
    np.save(f'{d}/i.npy', i)
    j = rng.integers(-4, 4, size=(6,)).astype(np.int64)
    np.save(f'{d}/j.npy', j)
    u = rng.standard_normal((4, 5, 2, 3))
    np.save(f'{d}/u.npy', u)
    e = rng.standard_normal((50,)) * 2
    np.save(f'{d}/e.npy', e)
    ref = {
        'gather1': np.take(x, i, axis=1),
        'gather0': np.take(x, j, axis=0),
        'gatherm1': np.take(x, i % 3, axis=-1),
        'erf': np.vectorize(math.erf)(e),
        'concat1': np.concatenate([x, u[:, :, 0, :], x], axis=1),
        'concat2': np.concatenate([x, x[:1]], axis=0),
        'pad1': np.pad(x, [(1, 0), (0, 2), (3, 1)], constant_values=-2.5),
    }
    r = x.copy()
    np.add.at(r, (slice(None), i % 7), u)  # repeated indices accumulate
    ref['scatter1'] = r
    for k, v in ref.items():
        np.save(f'{d}/ref_{k}.npy', v)
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
echo "numpy wrote: rc=$rc\n";
$x = CudaArray::fromNpy("$dir/x.npy");
$x32 = CudaArray::fromNpy("$dir/x32.npy");
$i = CudaArray::fromNpy("$dir/i.npy");
$j = CudaArray::fromNpy("$dir/j.npy");
$u = CudaArray::fromNpy("$dir/u.npy");
$e = CudaArray::fromNpy("$dir/e.npy");
$im3 = CudaArray::fromFlatArray(array_map(fn($v) => (($v % 3) + 3) % 3, array_merge(...$i->toArray())), [5, 2], 'int32');
$cases = [
    'gather1' => [fn($x, $i) => $x->gather($i, 1), [$x, $i]],
    'gather0' => [fn($x, $j) => $x->gather($j), [$x, $j]],
    'gatherm1' => [fn($x, $i) => $x->gather($i, axis: -1), [$x, $im3]],
    'scatter1' => [fn($x, $i, $u) => $x->scatterAdd($i, $u, 1), [$x, $i, $u]],
    'erf' => [fn($e) => $e->erf(), [$e]],
    'concat1' => [fn($x, $u) => $x->concat([$u->slice(starts: [0], ends: [1], axes: [2])->reshape([4, 5, 3]), $x], 1), [$x, $u]],
    'concat2' => [fn($x) => $x->concat([$x->slice(starts: [0], ends: [1])], axis: 0), [$x]],
    'pad1' => [fn($x) => $x->pad([1, 0, 3, 0, 2, 1], -2.5), [$x]],
];
$lines = [];
foreach ($cases as $name => [$fn, $args]) {
    $fn(...$args)->toNpy("$dir/out_$name.eager.npy");
    Fusion::compile($fn, $args)->run(...$args)->toNpy("$dir/out_$name.fused.npy");
    $lines[] = "$name.eager:1e-12";
    $lines[] = "$name.fused:1e-12";
}
// float32: within float32 rounding of the float64 reference
$x32->gather($i, 1)->toNpy("$dir/out_gather1.f32.npy");
$lines[] = "gather1.f32:1e-7";
$e->astype('float32')->erf()->toNpy("$dir/out_erf.f32.npy");
$lines[] = "erf.f32:1e-6";
$p = proc_open(['/usr/bin/python3', "$dir/ref.py", $dir, 'check'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
fwrite($pipes[0], implode("\n", $lines));
fclose($pipes[0]);
echo stream_get_contents($pipes[1]);
proc_close($p);
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
numpy wrote: rc=0
gather1.eager ok
gather1.fused ok
gather0.eager ok
gather0.fused ok
gatherm1.eager ok
gatherm1.fused ok
scatter1.eager ok
scatter1.fused ok
erf.eager ok
erf.fused ok
concat1.eager ok
concat1.fused ok
concat2.eager ok
concat2.fused ok
pad1.eager ok
pad1.fused ok
gather1.f32 ok
erf.f32 ok
