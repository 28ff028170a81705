--TEST--
FusionGraph::getStats()['pending']: runAsync() executions not waited for (queued on the GPU, none on the CPU, which runs at once); an execution keeps its graph alive and waits when dropped
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$a = CudaArray::rand([256, 256], seed: 3);
$gpu = str_starts_with($a->device(), 'cuda');
$g = Fusion::compile(fn($x) => ($x->matmul($x) + 1)->sum(), ['x' => $a]);
$want = ($a->matmul($a) + 1)->sum()->item();
$e1 = $g->runAsync($a);
$e2 = $g->runAsync($a);
var_dump($g->getStats()['pending'] === ($gpu ? 2 : 0));
var_dump(abs($e1->wait()->item() - $want) <= 1e-3 * abs($want));
var_dump($g->getStats()['pending'] === ($gpu ? 1 : 0));
unset($e2);                                  // dropped unwaited: waits, and the count goes down
var_dump($g->getStats()['pending']);
$e3 = $g->runAsync($a);
unset($g);                                   // the execution keeps its graph
var_dump(abs($e3->wait()->item() - $want) <= 1e-3 * abs($want), $e3->isFinished());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
