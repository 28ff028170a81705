--TEST--
Eager autograd memory: 1000 training steps (forward, backward(), a hand-written update, zeroGrad) keep the runtime's allocated bytes and PHP's memory flat: the tape forgets what no live tensor needs
--FILE--
<?php
use Cuda\CudaArray;
$x = CudaArray::randn([32, 16], 1);
$y = CudaArray::randn([32, 4], 2);
$w = (CudaArray::randn([16, 4], 3) * 0.1)->requiresGrad();
$step = function () use ($x, $y, &$w) {
    $loss = (($x->matmul($w) - $y) ** 2)->mean();
    $loss->backward();
    $next = ($w - $w->grad() * 0.05)->detach()->requiresGrad();
    $w = $next;
    return $loss->item();
};
for ($i = 0; $i < 50; $i++) $first = $step();
$rt0 = CudaArray::memoryInfo()['allocated'];
$php0 = memory_get_usage();
for ($i = 0; $i < 1000; $i++) $last = $step();
$rt1 = CudaArray::memoryInfo()['allocated'];
$php1 = memory_get_usage();
var_dump($last < $first);
// bounded: at most the tape's collection threshold's worth of small tensors more
var_dump($rt1 - $rt0 < 256 * 1024, $php1 - $php0 < 64 * 1024);
printf("%d %d\n", $rt1 - $rt0 < 256 * 1024 ? 0 : $rt1 - $rt0, $php1 - $php0 < 64 * 1024 ? 0 : $php1 - $php0);

// the same leaf over many steps, zeroGrad each time; and a history kept alive stays usable
$v = CudaArray::fromFlatArray([1, 2], [2])->requiresGrad();
$kept = ($v * $v)->sum();
$base = CudaArray::memoryInfo()['allocated'];
for ($i = 0; $i < 1000; $i++) {
    $v->zeroGrad();
    ($v * 3 + $v->exp())->sum()->backward();
}
var_dump(CudaArray::memoryInfo()['allocated'] - $base < 64 * 1024);
$v->zeroGrad();
$kept->backward();
echo json_encode($v->grad()->toArray()), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
0 0
bool(true)
[2,4]
