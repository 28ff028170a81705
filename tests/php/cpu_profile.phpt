--TEST--
GTC_CPU_PROFILE=1: a CPU plan's steps are timed, and the table (runs, microseconds per run, every step once with its ops, reads and writes) goes to stderr when the plan is freed; values are unchanged
--SKIPIF--
<?php if ((new Cuda\CudaArray([1]))->device() !== 'cpu') die('skip the CPU backend only'); ?>
--ENV--
GTC_CPU_PROFILE=1
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
putenv('GTC_CACHE_DIR=' . sys_get_temp_dir() . '/gtc-prof-' . getmypid());
$f = fn($a, $b) => ['s' => $a->matmul($b)->sum(1), 'e' => ($a * 2.0)->exp()];
$g = Fusion::compile($f, ['a' => [[3, 4]], 'b' => [[4, 5]]]);
$a = CudaArray::randn([3, 4], 1);
$b = CudaArray::randn([4, 5], 2);
$want = $f($a, $b);
for ($i = 0; $i < 3; $i++) $got = $g->run($a, $b);
var_dump($got['s']->toArray() == $want['s']->toArray(), $got['e']->toArray() == $want['e']->toArray());
fflush(STDOUT);
unset($g, $got);
echo "freed\n";
?>
--EXPECTF--
bool(true)
bool(true)
gtc: cpu profile of plan %s: 3 runs, %f us per run
  step %w%d %w%f us %w%f%s: %s -> %s
%A
freed
