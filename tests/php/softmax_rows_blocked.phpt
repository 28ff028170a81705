--TEST--
Row steps over short rows run a block of rows at a time (compiler/emit_cpu.c, emit_cpu_row_block: the loops across rows, gtc_expf inline): Cuda\Fusion's generated CPU code gives the eager ops' bits (softmax, log-softmax, max, min, mean, argmax) at row counts with a short last block, rows of 1 to 16 and a longer one (per row), special values in the rows, at 1 and 2 threads
--SKIPIF--
<?php if ((new Cuda\CudaArray([1]))->device() !== 'cpu') die('skip the CPU backend only'); ?>
--ENV--
GTC_CPU_THREADS=
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
use Cuda\Fusion;
putenv('GTC_CACHE_DIR=' . sys_get_temp_dir() . '/gtc-rowblock-' . getmypid());

$f = fn($x) => [
    'sm' => $x->softmax(1), 'lsm' => $x->logSoftmax(1),
    'sm2' => ($x - $x->max(1, keepdims: true))->exp() / ($x - $x->max(1, keepdims: true))->exp()->sum(1, keepdims: true),
    'mx' => $x->max(1), 'mn' => $x->min(1), 'me' => ($x * 3.0)->mean(1), 'am' => $x->argmax(1),
];
// rows of a block and one over, odd counts, 256 and 257; row lengths 1..16 (blocked) and 17 (per row)
$shapes = [[32, 10], [33, 10], [37, 1], [100, 2], [255, 5], [256, 10], [257, 16], [1000, 7], [70, 17]];
foreach (['1', '2'] as $t) {
    ini_set('gtc.cpu_threads', $t);
    foreach ($shapes as $i => $shape) {
        $v = CudaArray::randn($shape, 40 + $i)->toArray();
        foreach ([3 => NAN, 4 => INF, 5 => -INF, 6 => 1e30, 7 => -1e30, 8 => 100.0, 9 => -100.0] as $r => $s)
            $v[$r][intdiv($shape[1], 2)] = $s; // a row each: NaN, +-inf, huge, exp's overflow and underflow
        $v[10] = array_fill(0, $shape[1], -INF);  // a row of -inf only
        $x = new CudaArray($v);
        $g = Fusion::compile($f, ['x' => [$shape]]);
        $jit = $g->run($x);
        $bad = [];
        foreach ($f($x) as $k => $e) if (serialize($e->toArray()) !== serialize($jit[$k]->toArray())) $bad[] = $k;
        echo "$t ", json_encode($shape), ' ', $bad ? 'DIFFERENT: ' . implode(' ', $bad) : 'same', "\n";
    }
}
// the short rows are blocked (their loops across rows), the long ones are not
$src = fn($shape) => Fusion::compile(fn($x) => ['sm' => $x->softmax(1)], ['x' => [$shape]])->getSource('cpu');
var_dump(str_contains($src([256, 10]), 'GTC_CPU_NO_JAM GTC_CPU_STEP'), str_contains($src([256, 17]), 'GTC_CPU_NO_JAM GTC_CPU_STEP'));
?>
--EXPECT--
1 [32,10] same
1 [33,10] same
1 [37,1] same
1 [100,2] same
1 [255,5] same
1 [256,10] same
1 [257,16] same
1 [1000,7] same
1 [70,17] same
2 [32,10] same
2 [33,10] same
2 [37,1] same
2 [100,2] same
2 [255,5] same
2 [256,10] same
2 [257,16] same
2 [1000,7] same
2 [70,17] same
bool(true)
bool(false)
