--TEST--
Cuda\Fusion: a + b * c traces into one fused kernel with no intermediate buffer; replays agree with eager
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\Fusion;
use Cuda\FusionGraph;
$cache = sys_get_temp_dir() . '/gtc-fusion-basic-' . getmypid();
putenv("GTC_CACHE_DIR=$cache");

$spec = ['a' => [[64, 48], 'float32'], 'b' => [[64, 48]], 'c' => ['shape' => [48], 'dtype' => 'float32']];
$called = 0;
$g = Fusion::compile(function ($a, $b, $c) use (&$called) {
    $called++;
    return $a + $b * $c;
}, $spec);
var_dump($g instanceof FusionGraph, $called);
$plan = $g->getPlan();
echo count($plan), " step: ", $plan[0]['kind'], " ", implode(',', $plan[0]['ops']), " reads ",
    implode(',', $plan[0]['reads']), "\n";
$s = $g->getStats();
echo "steps {$s['steps']} fused {$s['fusedKernels']} gemms {$s['gemms']} arena {$s['arenaBytes']} nodes {$s['nodes']}\n";
var_dump(in_array($s['kernels'], ['cc', 'cc-cache', 'eager', 'nvrtc', 'nvrtc-cache'], true));
echo implode(',', array_keys($s)), "\n";
// getSource(): one string, the running backend's kernels by default (the CPU's here); parts by name
var_dump(str_contains($g->getSource('cuda'), 'gtc_k0'), str_contains($g->getSource('cpu'), 'gtc_cpu_kernels'),
    $g->getSource() === $g->getSource(getenv('GTC_DEVICE') === 'cuda' ? 'cuda' : 'cpu'),
    json_decode($g->getSource('graph'), true)['format']);
try { $g->getSource('ptx'); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
// inputs() and outputs(): a compiled model's, from the same implementation
echo json_encode($g->inputs()), "\n", json_encode($g->outputs()), "\n";

// fresh random inputs, several replays: the closure never runs again
for ($seed = 1; $seed <= 3; $seed++) {
    $a = CudaArray::rand([64, 48], $seed);
    $b = CudaArray::rand([64, 48], $seed + 10);
    $c = CudaArray::rand([48], $seed + 20);
    $r = $g->run($a, $b, $c);
    $d = ($r - ($a + $b * $c))->abs()->max()->item();
    echo "seed $seed: max |fused - eager| <= 1e-6: ", var_export($d <= 1e-6, true), "\n";
}
var_dump($called, $g->getStats()['replays']);

// named inputs, in any order
$r2 = $g->run(c: $c, b: $b, a: $a);
var_dump(($r2 - $r)->abs()->max()->item());

// structure and keys are preserved; numbers are constants; scalars are runtime inputs
$h = Fusion::compile(fn($x, $lr) => [
    'loss' => ($x * $x)->mean(),
    'params' => ['w' => $x - $lr * 2, 'stats' => [$x->max(), $x->min()]],
], ['x' => [[3, 2], 'float32'], 'lr' => 'float32']);
$x = new CudaArray([[1, -2], [3, 4], [0.5, 6]]);
$out = $h->run($x, 0.25);
echo json_encode(array_keys($out)), json_encode(array_keys($out['params'])), json_encode(array_keys($out['params']['stats'])), "\n";
show($out['loss'], 4);
show($out['params']['w'], 4);
show($out['params']['stats'][0]);
show($out['params']['stats'][1]);
$out = $h->run($x, lr: 1.0); // a new learning rate: the same plan
show($out['params']['w'], 4);

// runAsync
$ex = $g->runAsync($a, $b, $c);
var_dump($ex instanceof Cuda\FusionExecution, $ex->isFinished());
var_dump(($ex->wait() - $r)->abs()->max()->item());

// Fusion::run: scoped capture and immediate execution
$y = Fusion::run(fn($p, $q) => ['s' => $p + $q, 'd' => $p - $q], [new CudaArray([1, 2]), new CudaArray([10, 20])]);
show($y['s']);
show($y['d']);

// a closure returning one of its inputs, and one returning a view
$id = Fusion::compile(fn($t) => ['same' => $t, 'tr' => $t->transpose()], [[[2, 3], 'int64']]);
$o = $id->run(new CudaArray([[1, 2, 3], [4, 5, 6]], 'int64'));
show($o['same']);
show($o['tr']);

exec('rm -rf ' . escapeshellarg($cache));
?>
--EXPECT--
bool(true)
int(1)
1 step: elementwise mul,add reads a,b,c
steps 1 fused 1 gemms 0 arena 0 nodes 2
bool(true)
nodes,steps,fusedKernels,gemms,reductions,graphNodes,arenaBytes,backend,replays,kernels,profiling,profiledExecutions,bindTimeNs,executeTimeNs,collectTimeNs,cache,cacheHit,executions,executionSteps,boundaries,intermediateBuffers,viewAliases,cudaGraph,capturedTensors,pending
bool(true)
bool(true)
bool(true)
string(9) "gtc-graph"
Cuda\FusionGraph::getSource(): Argument #1 ($part) must be null, 'cuda', 'cpu' or 'graph'
{"a":{"dtype":"float32","shape":[64,48]},"b":{"dtype":"float32","shape":[64,48]},"c":{"dtype":"float32","shape":[48]}}
{"out":{"dtype":"float32","shape":[64,48],"inPlaceOf":null}}
seed 1: max |fused - eager| <= 1e-6: true
seed 2: max |fused - eager| <= 1e-6: true
seed 3: max |fused - eager| <= 1e-6: true
int(1)
int(3)
float(0)
["loss","params"]["w","stats"][0,1]
float32 [] [11.0417]
float32 [3,2] [[0.5,-2.5],[2.5,3.5],[0.0,5.5]]
float32 [] [6.0]
float32 [] [-2.0]
float32 [3,2] [[-1.0,-4.0],[1.0,2.0],[-1.5,4.0]]
bool(true)
bool(true)
float(0)
float32 [2] [11.0,22.0]
float32 [2] [-9.0,-18.0]
int64 [2,3] [[1,2,3],[4,5,6]]
int64 [3,2] [[1,4],[2,5],[3,6]]
