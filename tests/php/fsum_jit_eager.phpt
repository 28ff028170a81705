--TEST--
float32 sums and means in ir/fsum.h's blocked order: Cuda\Fusion's generated CPU code and the eager ops give the same bits (rows short and long, columns, a middle axis kept, several axes, fused operands, softmax's row sums), at 1 and 2 threads
--SKIPIF--
<?php if ((new Cuda\CudaArray([1]))->device() !== 'cpu') die('skip the CPU backend only'); ?>
--ENV--
GTC_CPU_THREADS=
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\Fusion;
putenv('GTC_CACHE_DIR=' . sys_get_temp_dir() . '/gtc-fsum-' . getmypid());

// rows of 1..70001 (one block, a short last block, several levels), columns over 600 rows, a
// middle axis kept with runs of 5 (across block edges), 700 (several blocks per run) and 1500
// (values put one at a time)
$eager2 = fn($x) => [
    'r' => ($x * 0.5)->sum(1), 'c' => ($x + 1.0)->sum(0), 'a' => $x->sum(), 'm' => $x->mean(1), 'mc' => $x->mean(0),
    'sm' => $x->exp() / $x->exp()->sum(1, keepdims: true),
];
$eager3 = fn($x) => ['mid' => ($x * $x)->sum([0, 2]), 'last2' => $x->sum([1, 2]), 'first2' => $x->mean([0, 1]), 'all' => $x->sum()];
$cases = [[$eager2, [3, 1]], [$eager2, [5, 7]], [$eager2, [4, 257]], [$eager2, [2, 70001]], [$eager2, [600, 9]],
          [$eager2, [300, 130]], [$eager3, [6, 300, 5]], [$eager3, [3, 40, 700]], [$eager3, [2, 3, 1500]]];
foreach (['1', '2'] as $t) {
    ini_set('gtc.cpu_threads', $t);
    foreach ($cases as $i => [$f, $shape]) {
        $x = CudaArray::randn($shape, 10 + $i);
        $g = Fusion::compile($f, ['x' => [$shape]]);
        $jit = $g->run($x);
        $bad = [];
        foreach ($f($x) as $k => $v) if ($v->toArray() !== $jit[$k]->toArray()) $bad[] = $k;
        echo "$t ", json_encode($shape), ' ', $bad ? 'DIFFERENT: ' . implode(' ', $bad) : 'same', "\n";
    }
}
// the generated code is the blocked order, not a double accumulator
$src = Fusion::compile($eager2, ['x' => [[4, 257]]])->getSource('cpu');
var_dump(str_contains($src, 'gtc_fsum_flush('), str_contains($src, 'double acc'));
?>
--EXPECT--
1 [3,1] same
1 [5,7] same
1 [4,257] same
1 [2,70001] same
1 [600,9] same
1 [300,130] same
1 [6,300,5] same
1 [3,40,700] same
1 [2,3,1500] same
2 [3,1] same
2 [5,7] same
2 [4,257] same
2 [2,70001] same
2 [600,9] same
2 [300,130] same
2 [6,300,5] same
2 [3,40,700] same
2 [2,3,1500] same
bool(true)
bool(false)
