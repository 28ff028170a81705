--TEST--
gtc.cpu_threads: validated, applied to the CPU backend and its BLAS (phpinfo), and results equal on 1 and 2 threads (eager and JIT)
--SKIPIF--
<?php if ((new Cuda\CudaArray([1]))->device() !== 'cpu') die('skip the CPU backend only'); ?>
--ENV--
GTC_CPU_THREADS=
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\Fusion;
putenv('GTC_CACHE_DIR=' . sys_get_temp_dir() . '/gtc-cpu-threads-' . getmypid());

var_dump(ini_get('gtc.cpu_threads'));
foreach (['0', '-2', 'many', '1025', '2.5'] as $bad) var_dump(ini_set('gtc.cpu_threads', $bad));
var_dump(ini_get('gtc.cpu_threads'));

function info(): string {
    ob_start();
    phpinfo(INFO_MODULES);
    return ob_get_clean();
}
var_dump(ini_set('gtc.cpu_threads', '2'));
$i = info();
var_dump(str_contains($i, 'CPU threads => 2'), (bool)preg_match('/CPU BLAS => OpenBLAS \S+ \(\w+\), kernel \w+.*, 2 threads \(gtc\.cpu_threads\)/', $i));

// sizes above the parallel threshold (32768 elements); odd, so slabs are uneven
$x = CudaArray::randn([301, 517], 1);
$b = CudaArray::randn([517], 2);
$w = CudaArray::randn([517, 129], 3);
$g = Fusion::compile(fn($x, $b, $w) => [
    'e' => ($x + $b)->exp(),
    'r' => ($x * 0.5)->exp()->sum(1),
    'c' => ($x + $b)->sum(0),
    'm' => ($x->matmul($w) + 1.0)->relu(),
    'sm' => ($x - $x->max(1, keepdims: true))->exp() / ($x - $x->max(1, keepdims: true))->exp()->sum(1, keepdims: true),
], ['x' => [[301, 517]], 'b' => [[517]], 'w' => [[517, 129]]]);
var_dump(str_contains($g->getSource('cpu'), '#pragma omp parallel for'));
$res = [];
foreach (['1', '2'] as $t) {
    ini_set('gtc.cpu_threads', $t);
    $o = $g->run($x, $b, $w);
    $res[$t] = [];
    foreach ($o as $k => $v) $res[$t][$k] = $v->toArray();
    // eager: elementwise, reductions over either axis, matmul
    $res[$t]['eager'] = [(($x + $b)->exp())->toArray(), $x->exp()->sum(1)->toArray(), $x->sum(0)->toArray(),
                         $x->matmul($w)->toArray()];
}
// our loops: the same bits; OpenBLAS's GEMM may round differently on one thread (its small-matrix
// kernel): within K * eps of the values' size
function maxdiff(array $a, array $b): float {
    $d = 0.0;
    $fa = []; array_walk_recursive($a, function ($v) use (&$fa) { $fa[] = $v; });
    $fb = []; array_walk_recursive($b, function ($v) use (&$fb) { $fb[] = $v; });
    foreach ($fa as $i => $v) $d = max($d, abs($v - $fb[$i]));
    return $d;
}
foreach (['e', 'r', 'c', 'sm'] as $k) echo $k, ' ', $res['1'][$k] === $res['2'][$k] ? 'same' : 'DIFFERENT', "\n";
echo 'eager ', array_slice($res['1']['eager'], 0, 3) === array_slice($res['2']['eager'], 0, 3) ? 'same' : 'DIFFERENT', "\n";
var_dump(maxdiff($res['1']['m'], $res['2']['m']) < 517 * 1.2e-7 * 100, maxdiff($res['1']['eager'][3], $res['2']['eager'][3]) < 517 * 1.2e-7 * 100);
// the values: the JIT's fused kernel rounds as the eager ops do
var_dump($res['2']['e'] === $res['2']['eager'][0]);
// a column sum (blocks of 64 outputs, row by row) folds each column in the eager op's order
var_dump($res['2']['c'] === ($x + $b)->sum(0)->toArray(), $res['2']['r'] === ($x * 0.5)->exp()->sum(1)->toArray());
?>
--EXPECTF--
string(4) "auto"

Warning: ini_set(): gtc.cpu_threads: "0" is not a thread count (auto, or an integer from 1 to 1024) in %s on line %d
bool(false)

Warning: ini_set(): gtc.cpu_threads: "-2" is not a thread count (auto, or an integer from 1 to 1024) in %s on line %d
bool(false)

Warning: ini_set(): gtc.cpu_threads: "many" is not a thread count (auto, or an integer from 1 to 1024) in %s on line %d
bool(false)

Warning: ini_set(): gtc.cpu_threads: "1025" is not a thread count (auto, or an integer from 1 to 1024) in %s on line %d
bool(false)

Warning: ini_set(): gtc.cpu_threads: "2.5" is not a thread count (auto, or an integer from 1 to 1024) in %s on line %d
bool(false)
string(4) "auto"
string(4) "auto"
bool(true)
bool(true)
bool(true)
e same
r same
c same
sm same
eager same
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
