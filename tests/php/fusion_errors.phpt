--TEST--
Cuda\Fusion: every tracing error throws a clear exception, clears the trace and restores eager execution
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\Fusion;
$cache = sys_get_temp_dir() . '/gtc-fusion-errors-' . getmypid();
putenv("GTC_CACHE_DIR=$cache");
$spec = ['x' => [[2, 2], 'float32']];
$real = new CudaArray([[1, 2], [3, 4]]);

function after(): void
{
    // the trace is gone and eager execution works again
    global $real;
    echo '  tracing: ', var_export(Fusion::isTracing(), true), ', eager: ', fmt(($real + 1)->toArray()), "\n";
}

echo "reading placeholder data:\n";
foreach (['toArray', 'item', 'toBuffer', 'toHost', '__serialize'] as $m) {
    throws(fn() => Fusion::compile(fn($x) => $x->$m(), $spec));
}
throws(fn() => Fusion::compile(fn($x) => $x->toNpy(sys_get_temp_dir() . '/never.npy'), $spec));
throws(fn() => Fusion::compile(fn($x) => serialize($x), $spec));
after();

echo "metadata is fine, and clone shares the placeholder:\n";
$g = Fusion::compile(function ($x) {
    echo '  ', json_encode($x->getShape()), ' ', $x->dtype(), ' ', $x->getSize(), ' ', var_export($x->device() === (new CudaArray([1]))->device(), true), "\n";
    var_dump(Fusion::isTracing());
    $y = clone $x;
    return $y * 2;
}, $spec);
echo '  ', fmt($g->run($real)->toArray()), "\n";

echo "nested capture:\n";
throws(fn() => Fusion::compile(fn($x) => Fusion::compile(fn($y) => $y, ['y' => 'float32']), $spec));
throws(fn() => Fusion::compile(fn($x) => Fusion::run(fn($y) => $y, [$real]), $spec));
throws(fn() => Fusion::compile(fn($x) => Fusion::export(fn($y) => $y, ['y' => 'float32']), $spec));
after();

echo "device changes:\n";
throws(fn() => Fusion::compile(function ($x) { ini_set('gtc.device', 'cpu'); return $x; }, $spec));
after();

echo "exceptions from the closure itself:\n";
throws(fn() => Fusion::compile(function ($x) { throw new LogicException('mine'); }, $spec));
throws(fn() => Fusion::compile(fn($x) => $x->matmul(CudaArray::zeros([3, 3])), $spec));
throws(fn() => Fusion::compile(fn($x) => $x + CudaArray::zeros([3]), $spec));
throws(fn() => Fusion::compile(fn($x) => $x->reshape([3, 3]), $spec));
after();

echo "bad results:\n";
throws(fn() => Fusion::compile(fn($x) => 42, $spec));
throws(fn() => Fusion::compile(fn($x) => ['a' => $x, 'b' => 'text'], $spec));
throws(fn() => Fusion::compile(fn($x) => [], $spec));
throws(fn() => Fusion::compile(fn($x) => null, $spec));
after();

echo "bad input specs:\n";
throws(fn() => Fusion::compile(fn($x) => $x, ['x' => 'float8']));
throws(fn() => Fusion::compile(fn($x) => $x * 2, ['x' => 'bfloat16']));
throws(fn() => Fusion::compile(fn($x) => $x, ['x' => [[2, -1], 'float32']]));
throws(fn() => Fusion::compile(fn($x) => $x, ['x y' => 'float32']));
throws(fn() => Fusion::compile(fn($x) => $x, ['x' => new stdClass()]));
throws(fn() => Fusion::compile(fn($x) => $x, ['x' => [[2], 'float32']], 'not a name'));
after();

echo "placeholders outside their trace:\n";
$kept = null;
Fusion::compile(function ($x) use (&$kept) { $kept = $x; return $x + 1; }, $spec);
throws(fn() => $kept + 1);
throws(fn() => $kept->toArray());
var_dump($kept->getShape() === [2, 2]);
after();

echo "an integer tensor with a float constant:\n";
throws(fn() => Fusion::compile(fn($i) => $i * 2.0, ['i' => [[2], 'int64']]));
$k = Fusion::compile(fn($i) => $i->astype('float32') * 2.0, ['i' => [[2], 'int64']]);
echo '  ', fmt($k->run(new CudaArray([1, 2], 'int64'))->toArray()), "\n";

echo "wrong inputs at replay:\n";
$g = Fusion::compile(fn($x, $s) => $x * $s, ['x' => [[2, 2], 'float32'], 's' => 'float32']);
throws(fn() => $g->run(new CudaArray([[1, 2, 3]]), 1.0));
throws(fn() => $g->run(new CudaArray([[1, 2], [3, 4]], 'float64'), 1.0));
throws(fn() => $g->run(new CudaArray([[1, 2], [3, 4]], 'int32'), 1.0));
throws(fn() => $g->run($real));
throws(fn() => $g->run($real, 1.0, 2.0));
throws(fn() => $g->run($real, 'one'));
throws(fn() => $g->run($real, 1.0, x: $real));
throws(fn() => $g->run($real, nope: 1.0));
throws(fn() => $g->run([[1, 2], [3, 4]], 1.0));
echo '  ', fmt($g->run($real, 2)->toArray()), "\n";
throws(fn() => new Cuda\FusionGraph());
exec('rm -rf ' . escapeshellarg($cache));
?>
--EXPECT--
reading placeholder data:
Cuda\RuntimeException: a traced value has no data inside Fusion::compile(): the closure runs once, so it would be the trace's value, not each run's; return it as an output, or use Fusion::run()
Cuda\RuntimeException: a traced value has no data inside Fusion::compile(): the closure runs once, so it would be the trace's value, not each run's; return it as an output, or use Fusion::run()
Cuda\RuntimeException: a traced value has no data inside Fusion::compile(): the closure runs once, so it would be the trace's value, not each run's; return it as an output, or use Fusion::run()
Cuda\RuntimeException: a traced value has no data inside Fusion::compile(): the closure runs once, so it would be the trace's value, not each run's; return it as an output, or use Fusion::run()
Cuda\RuntimeException: a traced value has no data inside Fusion::compile(): the closure runs once, so it would be the trace's value, not each run's; return it as an output, or use Fusion::run()
Cuda\RuntimeException: a traced value has no data inside Fusion::compile(): the closure runs once, so it would be the trace's value, not each run's; return it as an output, or use Fusion::run()
Cuda\RuntimeException: a traced value has no data inside Fusion::compile(): the closure runs once, so it would be the trace's value, not each run's; return it as an output, or use Fusion::run()
  tracing: false, eager: [[2.0,3.0],[4.0,5.0]]
metadata is fine, and clone shares the placeholder:
  [2,2] float32 4 true
bool(true)
  [[2.0,4.0],[6.0,8.0]]
nested capture:
Cuda\RuntimeException: nested capture: Cuda\Fusion is already tracing a function
Cuda\RuntimeException: nested capture: Cuda\Fusion is already tracing a function
Cuda\RuntimeException: nested capture: Cuda\Fusion is already tracing a function
  tracing: false, eager: [[2.0,3.0],[4.0,5.0]]
device changes:
Cuda\RuntimeException: changing gtc.device: not supported while Cuda\Fusion is tracing
  tracing: false, eager: [[2.0,3.0],[4.0,5.0]]
exceptions from the closure itself:
LogicException: mine
Cuda\InvalidArgumentException: matmul: inner dimensions differ: [2,2] x [3,3]
Cuda\InvalidArgumentException: add: cannot broadcast [2,2] and [3]
Cuda\InvalidArgumentException: reshape: cannot reshape [2,2] (4 elements) into [3,3] (9 elements)
  tracing: false, eager: [[2.0,3.0],[4.0,5.0]]
bad results:
Cuda\InvalidArgumentException: the traced function must return a Cuda\CudaArray or (nested) arrays of them; its result is int
Cuda\InvalidArgumentException: the traced function must return a Cuda\CudaArray or (nested) arrays of them; "b" is string
Cuda\InvalidArgumentException: the traced function returned no tensors
Cuda\InvalidArgumentException: the traced function must return a Cuda\CudaArray or (nested) arrays of them; its result is null
  tracing: false, eager: [[2.0,3.0],[4.0,5.0]]
bad input specs:
Cuda\InvalidArgumentException: input "x": unknown dtype "float8"
Cuda\CompilationException: cannot compile the traced graph: fusion: inputs[0] "x" (input): bfloat16 values are not supported in compiled steps yet (eager operations support them); cast to float32 before compiling
Cuda\InvalidArgumentException: Cuda\Fusion::compile(): Argument #2 ($inputs) must contain only non-negative dimensions, -1 given
Cuda\InvalidArgumentException: input name "x y" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
Cuda\InvalidArgumentException: input "x" must be a Cuda\CudaArray, a dtype name, a number or [shape, dtype], stdClass given
Cuda\InvalidArgumentException: graph name "not a name" is not an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 128 characters)
  tracing: false, eager: [[2.0,3.0],[4.0,5.0]]
placeholders outside their trace:
Cuda\RuntimeException: placeholder tensors have no data outside tracing
Cuda\RuntimeException: placeholder tensors have no data (it is left over from a trace: Fusion::run() gives the values that escape its closure their data; Fusion::compile() and a trace that failed do not)
bool(true)
  tracing: false, eager: [[2.0,3.0],[4.0,5.0]]
an integer tensor with a float constant:
Cuda\InvalidArgumentException: mul: the float constant 2.0 would make this op float32 eagerly but not in the traced graph: cast the tensor first (astype) while tracing
  [2.0,4.0]
wrong inputs at replay:
Cuda\InvalidArgumentException: input "x": expected float32 [2,2], got float32 [1,3]
Cuda\InvalidArgumentException: input "x": expected float32 [2,2], got float64 [2,2]
Cuda\InvalidArgumentException: input "x": expected float32 [2,2], got int32 [2,2]
Cuda\InvalidArgumentException: input "s" is missing
Cuda\InvalidArgumentException: Cuda\FusionGraph::run() takes 2 inputs (x, s), 3 given
Cuda\InvalidArgumentException: input "s" (float32 scalar) must be an int, a float or a Cuda\CudaArray, string given
Cuda\InvalidArgumentException: input "x" is given twice (by position and by name)
Cuda\InvalidArgumentException: unknown input "nope"; Cuda\FusionGraph's inputs are x, s
Cuda\InvalidArgumentException: input "x" (float32) must be a Cuda\CudaArray, array given
  [[2.0,4.0],[6.0,8.0]]
Error: Call to private Cuda\FusionGraph::__construct() from global scope
