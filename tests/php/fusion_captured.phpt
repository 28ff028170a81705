--TEST--
Cuda\Fusion as php-gpu-tensors' users call it: captured tensors are inputs read at every run, Fusion::run without inputs and with enabled: false, compile(..., cudaGraph:), strided views as inputs; bad arguments
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$j = fn(CudaArray $t) => json_encode($t->toArray());
$w = new CudaArray([[1, 2], [3, 4], [5, 6]]);
$b = new CudaArray([10, 20]);
$x = new CudaArray([[1, 0, 0], [0, 1, 1]]);

// captured weights: one input each (once, however often used), not constants
$g = Fusion::compile(fn($x) => ['y' => $x->matmul($w) + $b, 'w' => $w, 'b2' => $b + $b], ['x' => $x]);
$s = $g->getStats();
echo 'captured ', $s['capturedTensors'], ', inputs ', json_encode(array_keys($g->inputs())), ', outputs ', json_encode(array_keys($g->outputs())), "\n";
$r = $g->run($x);
echo $j($r['y']), ' ', $j($r['w']), ' ', $j($r['b2']), "\n";
// update $w in place (a donated output of another plan): the next run reads the new values
$double = Fusion::compile(fn($v) => ['v' => $v * 2], ['v' => $w], donate: ['v' => 'v']);
$double->run($w);
echo $j($g->run($x)['y']), ' ', $j($g->run(x: $x)['w']), "\n";
try { $g->run($x, $w); } catch (Cuda\InvalidArgumentException $e) { echo $e->getMessage(), "\n"; }

// Fusion::run: no inputs at all (everything captured), enabled: false, php-gpu-tensors' run($fn, false)
$a = new CudaArray([1, 2, 3]); $c = new CudaArray([4, 5, 6]); $d = new CudaArray([7, 8, 9]);
$eager = $j($a + $c * $d);
echo $j(Fusion::run(fn() => $a + $c * $d)), ' ', $j(Fusion::run(fn() => $a + $c * $d, enabled: false)), ' ',
     $j(Fusion::run(fn() => $a + $c * $d, false)), ' eager ', $eager, "\n";
$calls = 0;
Fusion::run(function () use ($a, &$calls) { $calls++; return $a * 2; }, enabled: false);
echo "eager calls $calls, tracing after: ", var_export(Fusion::isTracing(), true), "\n";

// cudaGraph (a bool third argument or by name) is accepted; the plan is the same
$h1 = Fusion::compile(fn($p) => ($p + 1)->sum(), [$a], true);
$h2 = Fusion::compile(fn($p) => ($p + 1)->sum(), [$a], cudaGraph: true);
echo $h1->run($a)->item(), ' ', $h2->run($a)->item(), ' ', $h2->getStats()['cache'], "\n";

// a strided view as an input: read through a contiguous copy; an input updated in place cannot be
$m = new CudaArray([[1, 2], [3, 4], [5, 6]]);
$k = Fusion::compile(fn($t) => $t * 10, ['t' => [[2, 3], 'float32']]);
echo $j($k->run($m->transpose())), "\n";
$inplace = Fusion::compile(fn($t) => ['t' => $t + 1], ['t' => [[2, 3], 'float32']], donate: ['t' => 't']);
try { $inplace->run($m->transpose()); } catch (Cuda\InvalidArgumentException $e) { echo $e->getMessage(), "\n"; }

// bad arguments
foreach ([fn() => Fusion::run(fn() => $a, 'x'), fn() => Fusion::compile(fn($p) => $p, [$a], 5),
          fn() => Fusion::run(fn() => 42)] as $f) {
    try { $f(); echo "no exception\n"; } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
?>
--EXPECT--
captured 2, inputs ["x"], outputs ["y","w","b2"]
[[11,22],[18,30]] [[1,2],[3,4],[5,6]] [20,40]
[[12,24],[26,40]] [[2,4],[6,8],[10,12]]
Cuda\FusionGraph::run() takes 1 input (x), 2 given
[29,42,57] [29,42,57] [29,42,57] eager [29,42,57]
eager calls 1, tracing after: false
9 9 memory
[[10,30,50],[20,40,60]]
input "t" is a strided view; pass a contiguous array
TypeError: Cuda\Fusion::run(): Argument #2 ($inputs) must be of type array|bool, string given
TypeError: Cuda\Fusion::compile(): Argument #3 ($name) must be of type string|bool, int given
Cuda\InvalidArgumentException: the traced function must return a Cuda\CudaArray or (nested) arrays of them; its result is int
