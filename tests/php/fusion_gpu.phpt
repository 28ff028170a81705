--TEST--
Cuda\Fusion on a CUDA device: NVRTC kernels replayed as one CUDA Graph, the disk cache across processes, GEMMs and reductions included
--SKIPIF--
<?php
putenv('GTC_DEVICE');
ini_set('gtc.device', 'auto');
if (!str_starts_with((new Cuda\CudaArray([1]))->device(), 'cuda')) die('skip needs a CUDA device');
?>
--ENV--
GTC_DEVICE=
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$cache = sys_get_temp_dir() . '/gtc-fusion-gpu-' . getmypid();
putenv("GTC_CACHE_DIR=$cache");

$g = Fusion::compile(fn($a, $b, $c) => $a + $b * $c, ['a' => [[300, 70], 'float32'], 'b' => [[300, 70]], 'c' => [[70]]]);
$s = $g->getStats();
echo "steps {$s['steps']} arena {$s['arenaBytes']} backend {$s['backend']} kernels {$s['kernels']}\n";
$a = CudaArray::rand([300, 70], 1); $b = CudaArray::rand([300, 70], 2); $c = CudaArray::rand([70], 3);
$r = $g->run($a, $b, $c);
echo 'device ', $r->device(), ', matches eager: ', var_export(($r - ($a + $b * $c))->abs()->max()->item() <= 1e-6, true), "\n";
$x = $g->runAsync($a, $b, $c);
echo 'async: ', var_export(($x->wait() - $r)->abs()->max()->item() == 0.0 && $x->isFinished(), true), "\n";

// reductions, a row kernel and GEMMs in one graph
$h = Fusion::compile(function ($x, $w) {
    $z = $x->matmul($w)->relu();
    $e = ($z - $z->max(1, true))->exp();
    return ['p' => $e / $e->sum(1, true), 'n' => ($z * $z)->sum()];
}, ['x' => [[128, 64], 'float32'], 'w' => [[64, 32], 'float32']]);
$x = CudaArray::rand([128, 64], 4) - 0.5; $w = CudaArray::rand([64, 32], 5) - 0.5;
$o = $h->run($x, $w);
$z = $x->matmul($w)->relu();
$e = ($z - $z->max(1, true))->exp();
$pe = $e / $e->sum(1, true);
echo 'gemms ', $h->getStats()['gemms'], ', softmax matches: ', var_export(($o['p'] - $pe)->abs()->max()->item() < 1e-5, true),
    ', sum matches: ', var_export(abs($o['n']->item() - ($z * $z)->sum()->item()) <= 1e-4 * abs(($z * $z)->sum()->item()), true), "\n";

// custom kernel launches are refused while tracing
$k = new Cuda\Compiler('extern "C" __global__ void nop() {}');
try { Fusion::compile(function ($t) use ($k) { $k->launch('nop', 1, 1, []); return $t; }, ['t' => [[2], 'float32']]); }
catch (Cuda\RuntimeException $ex) { echo get_class($ex), ': ', $ex->getMessage(), "\n"; }
echo 'tracing: ', var_export(Fusion::isTracing(), true), ', eager: ', json_encode(($a + 0)->getShape()), "\n";

// another process compiles nothing: the kernels come from the disk cache
$ext = null;
foreach (file('/proc/self/maps') as $l) if (preg_match('~\s(/\S*/gtc\.so)$~', trim($l), $m)) $ext = $m[1];
$child = <<<'PHP'
$g = Cuda\Fusion::compile(fn($a, $b, $c) => $a + $b * $c, ['a' => [[300, 70], 'float32'], 'b' => [[300, 70]], 'c' => [[70]]]);
echo $g->getStats()['kernels'], "\n";
PHP;
echo 'child: ', trim((string)shell_exec(escapeshellarg(PHP_BINARY) . ' -n -d ' . escapeshellarg("extension=$ext") . ' -r ' . escapeshellarg($child) . ' 2>&1')), "\n";
exec('rm -rf ' . escapeshellarg($cache));
?>
--EXPECT--
steps 1 arena 0 backend cuda-graph kernels nvrtc
device cuda:0, matches eager: true
async: true
gemms 1, softmax matches: true, sum matches: true
Cuda\RuntimeException: Cuda\Compiler::launch (custom kernel launches): not supported while Cuda\Fusion is tracing
tracing: false, eager: [300,70]
child: nvrtc-cache
