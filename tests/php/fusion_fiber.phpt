--TEST--
Cuda\Fusion and Fibers: Fiber::suspend() inside a traced closure throws FiberError and leaves no trace active; tracing inside a fiber that does not switch works
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$a = new CudaArray([1, 2]);
$fiber = new Fiber(fn() => Fusion::run(function () use ($a) {
    Fiber::suspend();
    return $a + 1;
}));
try { $fiber->start(); echo "MISSED\n"; } catch (FiberError $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
// a fiber started inside the closure is a switch too
try {
    Fusion::compile(function ($x) { (new Fiber(fn() => 1))->start(); return $x * 2; }, [$a]);
    echo "MISSED\n";
} catch (FiberError $e) { echo get_class($e), "\n"; }
// nothing is left tracing: eager ops have data
echo json_encode(($a + 1)->toArray()), ' ', json_encode(Fusion::run(fn() => $a * 2)->toArray()), "\n";
// tracing inside a fiber, with switches before and after the trace
$f = new Fiber(function () use ($a) {
    Fiber::suspend('before');
    $g = Fusion::compile(fn($x) => $x * 3 + 1, [$a]);
    Fiber::suspend('after');
    return $g->run($a);
});
echo $f->start(), ' ', $f->resume(), ' ';
$f->resume();
echo json_encode($f->getReturn()->toArray()), "\n";
?>
--EXPECT--
FiberError: Cannot switch fibers in current execution context
FiberError
[2,3] [2,4]
before after [4,7]
