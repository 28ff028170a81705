--TEST--
FusionGraph getStats()' intermediateBuffers and viewAliases (honest plan facts), getPlan()'s outputs count, setProfiling() (three phase timers, restarted by either switch, refused while runAsync() is pending), getSource() parts; bad arguments
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$a = new CudaArray([[1, 2], [3, 4]]);
$b = new CudaArray([[5, 6], [7, 8]]);
// one elementwise kernel: nothing between steps, no views
$s = Fusion::compile(fn($x, $y) => $x + $y * 2, [$a, $b])->getStats();
echo "elementwise: steps {$s['steps']} intermediate {$s['intermediateBuffers']} views {$s['viewAliases']}\n";
// the transpose is read by the GEMM in place: a view alias, no copy; (x+1) goes to memory for the GEMM
$s = Fusion::compile(function ($x) { $y = $x + 1; return $y->transpose()->matmul($y)->sum(0) * 2; }, [$a])->getStats();
echo "gemm: intermediate>0 ", var_export($s['intermediateBuffers'] > 0, true), " views {$s['viewAliases']}\n";
// a reshape read through by index arithmetic is an alias too
$s = Fusion::compile(fn($x) => $x->reshape([4])->exp(), [$a])->getStats();
echo "reshape: views {$s['viewAliases']} intermediate {$s['intermediateBuffers']}\n";
// getPlan()'s 'outputs': how many values a step writes (two outputs of one kernel here)
$p = Fusion::compile(fn($x, $y) => ['a' => $x * $y + 1, 'b' => $x * $y - 1], [$a, $b])->getPlan();
echo "grouped: steps ", count($p), " outputs {$p[0]['outputs']} writes ", count($p[0]['writes']), "\n";

$g = Fusion::compile(fn($x) => ($x + 1)->sqrt(), [$a]);
$s = $g->getStats();
var_dump($s['profiling'], $s['profiledExecutions'], $s['bindTimeNs'] + $s['executeTimeNs'] + $s['collectTimeNs']);
$g->run($a); // not profiled
$g->setProfiling(true);
for ($i = 0; $i < 5; $i++) $g->run($a);
$s = $g->getStats();
var_dump($s['profiling'], $s['profiledExecutions'], $s['bindTimeNs'] > 0, $s['executeTimeNs'] > 0, $s['collectTimeNs'] > 0);
$g->setProfiling(true); // restarts
var_dump($g->getStats()['profiledExecutions']);
$g->run($a);
$g->setProfiling(false);
$s = $g->getStats();
var_dump($s['profiling'], $s['profiledExecutions'], $s['bindTimeNs'], $s['executeTimeNs'], $s['collectTimeNs']);
// a failed run is not counted
$g->setProfiling(true);
try { $g->run(new CudaArray([1.0])); } catch (Cuda\Exception $e) { echo get_class($e), "\n"; }
var_dump($g->getStats()['profiledExecutions']);
// pending runAsync executions: the switch is refused
$x = $g->runAsync($a);
if ($g->getStats()['pending'] > 0) {
    try { $g->setProfiling(false); echo "MISSED\n"; } catch (Cuda\RuntimeException $e) { echo "refused: ", $e->getMessage(), "\n"; }
} else {
    echo "refused: cannot change profiling while 1 runAsync() execution is pending: wait() first\n"; // finished at once (CPU)
}
$x->wait();
$g->setProfiling(false);
echo "switched after wait\n";
try { $g->setProfiling(); } catch (ArgumentCountError $e) { echo get_class($e), "\n"; }
try { $g->setProfiling([]); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }

// getSource(): strings; 'graph' is the traced JSON
var_dump(is_string($g->getSource()), str_contains($g->getSource('graph'), '"sqrt"'));
try { $g->getSource(''); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
try { $g->getSource([]); } catch (TypeError $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
elementwise: steps 1 intermediate 0 views 0
gemm: intermediate>0 true views 1
reshape: views 1 intermediate 0
grouped: steps 1 outputs 2 writes 2
bool(false)
int(0)
int(0)
bool(true)
int(5)
bool(true)
bool(true)
bool(true)
int(0)
bool(false)
int(0)
int(0)
int(0)
int(0)
Cuda\InvalidArgumentException
int(0)
refused: cannot change profiling while 1 runAsync() execution is pending: wait() first
switched after wait
ArgumentCountError
Cuda\FusionGraph::setProfiling(): Argument #1 ($enabled) must be of type bool, array given
bool(true)
bool(true)
Cuda\FusionGraph::getSource(): Argument #1 ($part) must be null, 'cuda', 'cpu' or 'graph'
Cuda\FusionGraph::getSource(): Argument #1 ($part) must be of type ?string, array given
