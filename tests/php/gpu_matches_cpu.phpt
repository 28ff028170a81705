--TEST--
on a CUDA device: arrays live on cuda:0 and every op family matches the CPU backend
--SKIPIF--
<?php
putenv('GTC_DEVICE');
ini_set('gtc.device', 'auto');
if ((new Cuda\CudaArray([1]))->device() !== 'cuda:0') die('skip needs a CUDA device');
?>
--ENV--
GTC_DEVICE=
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\HostArray;
function run(): array
{
    $x = CudaArray::rand([33, 17], 1);
    $w = CudaArray::rand([17, 9], 2, 'float64')->astype('float32');
    $i = CudaArray::rand([33, 17], 3, 'int32');
    return [
        'device' => $x->device(),
        'arith' => (($x + 1) * 2 - $x / 3) ** 2,
        'unary' => $x->exp()->log()->sqrt()->tanh()->sigmoid()->round(),
        'cmp' => $x->gt(0.5),
        'where' => CudaArray::where($x->lt(0.3), $x, -1)->clamp(-0.5, 0.5),
        'sum' => $x->sum(1),
        'mean' => $x->mean(0, true),
        'max' => $x->max(),
        'arg' => $x->argMax(1),
        'isum' => $i->sum(0),
        'matmul' => $x->matmul($w),
        'views' => $x->transpose()->slice('::-2, 1:5')->add(0),
        'bcast' => $x->slice('0:1')->broadcastTo([4, 17])->add(0),
        'cast' => $x->multiply(100)->astype('int64', casting: 'unsafe'),
    ];
}
ini_set('gtc.device', 'cpu');
$cpu = run();
ini_set('gtc.device', 'cuda');
$gpu = run();
echo $cpu['device'], ' ', $gpu['device'], "\n";
foreach ($cpu as $k => $c) {
    if ($k === 'device') continue;
    $a = $c->toArray();
    $b = $gpu[$k]->toHost()->toArray();
    $fa = is_array($a) ? iterator_to_array(new RecursiveIteratorIterator(new RecursiveArrayIterator($a)), false) : [$a];
    $fb = is_array($b) ? iterator_to_array(new RecursiveIteratorIterator(new RecursiveArrayIterator($b)), false) : [$b];
    $err = 0.0;
    foreach ($fa as $j => $v) $err = max($err, abs((float)$v - (float)$fb[$j]) / max(1.0, abs((float)$v)));
    echo str_pad($k, 8), $c->dtype() === $gpu[$k]->dtype() && $c->getShape() === $gpu[$k]->getShape() && $err < 1e-4 ? 'ok' : "MISMATCH $err", "\n";
}
$h = HostArray::fromArray([[1, 2], [3, 4]]);
echo $h->toDevice()->device(), "\n";
?>
--EXPECT--
cpu cuda:0
arith   ok
unary   ok
cmp     ok
where   ok
sum     ok
mean    ok
max     ok
arg     ok
isum    ok
matmul  ok
views   ok
bcast   ok
cast    ok
cuda:0
