--TEST--
Fusion::run(): a traced value's data can be read inside the closure (computed eagerly from the trace's inputs, the plan still fuses), values that escape the closure keep their data; not after a failed trace, not in Fusion::compile()
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$a = new CudaArray([1, 2, 3]);
$b = new CudaArray([[1, 2], [3, 4]]);
$seen = [];
$escaped = $view = $input = null;
$out = Fusion::run(function () use ($a, $b, &$seen, &$escaped, &$view) {
    $x = $a * 2;
    $seen[] = $x->toArray();                 // reads mid-closure
    $seen[] = $x->sum()->item();
    $seen[] = strlen($x->toBuffer());
    $seen[] = $x->toHost()->toArray();
    $seen[] = $x[1];                          // rank 1: traced (a rank-0 value), read below
    $escaped = $x + 10;                       // escapes through a reference
    $view = ($b + 1)->transpose();            // a view escapes: strides kept
    return ['y' => $x + 1, 'n' => $x->sum()];
});
echo json_encode(array_slice($seen, 0, 4)), ' ', json_encode($seen[4]->toArray()), "\n";
echo json_encode($out['y']->toArray()), ' ', json_encode($out['n']->toArray()), "\n";
echo json_encode($escaped->toArray()), ' ', json_encode($view->toArray()), ' ', json_encode($view->getShape()), "\n";
echo json_encode(($escaped * 2)->toArray()), "\n"; // an escaped value is a real tensor
// a branch on a value inside Fusion::run
$r = Fusion::run(function () use ($a) {
    $m = $a->max();
    return $m->item() > 2 ? $a * 10 : $a;
});
echo json_encode($r->toArray()), "\n";
// an input given as a shape has no data
try {
    Fusion::run(fn($x) => $x->toArray(), [[[3], 'float32']]);
} catch (Cuda\RuntimeException $e) { echo $e->getMessage(), "\n"; }
// a failed trace: the escaped value stays without data
$lost = null;
try {
    Fusion::run(function () use ($a, &$lost) { $lost = $a * 2; throw new LogicException('abort'); });
} catch (LogicException $e) { echo "aborted\n"; }
try { $lost->toArray(); } catch (Cuda\RuntimeException $e) { echo $e->getMessage(), "\n"; }
// Fusion::compile: reading is refused (a replay would not see it), escaped values have no data
$kept = null;
try {
    Fusion::compile(function ($x) { echo json_encode($x->toArray()); return $x; }, [$a]);
} catch (Cuda\RuntimeException $e) { echo get_class($e), "\n"; }
$g = Fusion::compile(function ($x) use (&$kept) { $kept = $x * 3; return $x + 1; }, [$a]);
try { $kept->item(); } catch (Cuda\RuntimeException $e) { echo "compile: escaped value has no data\n"; }
echo json_encode($g->run($a)->toArray()), "\n";
// writes inside a trace are still refused
try { Fusion::run(function () use ($a) { $a[0] = 9; return $a + 1; }); } catch (Cuda\RuntimeException $e) { echo $e->getMessage(), "\n"; }
echo json_encode($a->toArray()), "\n";
?>
--EXPECT--
[[2,4,6],12,12,[2,4,6]] [4]
[3,5,7] [12]
[12,14,16] [[2,4],[3,5]] [2,2]
[24,28,32]
[10,20,30]
traced value has no data: input "in0" was given as a shape or dtype, not a Cuda\CudaArray
aborted
placeholder tensors have no data (it is left over from a trace: Fusion::run() gives the values that escape its closure their data; Fusion::compile() and a trace that failed do not)
Cuda\RuntimeException
compile: escaped value has no data
[2,3,4]
writing through $t[i]: not supported while Cuda\Fusion is tracing
[1,2,3]
