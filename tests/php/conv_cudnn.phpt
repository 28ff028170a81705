--TEST--
on a CUDA device: eager conv2d through cuDNN (GTC_CONV=cudnn, runtime/cuda/cuda_cudnn.cu; its graph API, and its legacy calls for grouped convolutions and with GTC_CUDNN_API=legacy) matches the CPU backend; shapes cuDNN does not take (asymmetric pads, float64, views, 2-byte floats) fall back to gtc's own; errors unchanged; phpinfo names the library
--SKIPIF--
<?php
putenv('GTC_DEVICE');
ini_set('gtc.device', 'auto');
if ((new Cuda\CudaArray([1]))->device() !== 'cuda:0') die('skip needs a CUDA device');
?>
--ENV--
GTC_DEVICE=
GTC_CONV=cudnn
--FILE--
<?php
use Cuda\CudaArray;

function flat($a): array {
    return is_array($a) ? iterator_to_array(new RecursiveIteratorIterator(new RecursiveArrayIterator($a)), false) : [$a];
}
/* max |gpu - cpu| / max(1, |cpu|) over every element */
function err(CudaArray $cpu, CudaArray $gpu): string {
    if ($cpu->getShape() !== $gpu->getShape()) return 'shape ' . json_encode($gpu->getShape());
    $a = flat($cpu->toArray());
    $b = flat($gpu->toHost()->toArray());
    $e = 0.0;
    foreach ($a as $i => $v) $e = max($e, abs($v - $b[$i]) / max(1.0, abs($v)));
    return $e < 2e-5 ? 'ok' : "MISMATCH $e";
}
$cases = [ // name => [x shape, w shape, bias?, named arguments]
    'pad 1 + bias' => [[4, 8, 12, 10], [16, 8, 3, 3], true, ['pads' => [1, 1, 1, 1]]],
    'no bias' => [[2, 3, 9, 9], [5, 3, 3, 3], false, []],
    'strides 2x1, pads 2x0' => [[3, 4, 11, 7], [6, 4, 5, 3], true, ['strides' => [2, 1], 'pads' => [2, 0, 2, 0]]],
    'dilations 2x3' => [[2, 4, 13, 13], [4, 4, 3, 2], true, ['dilations' => [2, 3]]],
    'group 2' => [[2, 6, 8, 8], [4, 3, 3, 3], true, ['group' => 2, 'pads' => [1, 1, 1, 1]]],
    'depthwise' => [[2, 6, 8, 8], [6, 1, 3, 3], true, ['group' => 6]],
    'asymmetric pads (gtc)' => [[2, 3, 7, 7], [4, 3, 3, 3], true, ['pads' => [1, 0, 0, 2]]],
    '1x1, stride 3' => [[5, 7, 10, 10], [9, 7, 1, 1], true, ['strides' => [3, 3]]],
];
foreach ($cases as $name => [$xs, $ws, $bias, $args]) {
    $r = [];
    foreach (['cpu', 'cuda'] as $dev) {
        ini_set('gtc.device', $dev);
        $x = CudaArray::randn($xs, 1);
        $w = CudaArray::randn($ws, 2);
        $b = $bias ? CudaArray::randn([$ws[0]], 3) : null;
        $r[$dev] = $x->conv2d($w, $b, ...$args);
    }
    echo str_pad($name, 24), err($r['cpu'], $r['cuda']), "\n";
}
// the legacy calls (cuDNN's graph API is the default; GTC_CUDNN_API is read for each new shape)
putenv('GTC_CUDNN_API=legacy');
foreach (['legacy: pad 1 + bias' => [[3, 8, 12, 10], [16, 8, 3, 3], true, ['pads' => [1, 1, 1, 1]]],
          'legacy: group 2' => [[3, 6, 8, 8], [4, 3, 3, 3], true, ['group' => 2]],
          'legacy: no bias' => [[3, 3, 9, 9], [5, 3, 3, 3], false, ['strides' => [2, 2]]]] as $name => [$xs, $ws, $bias, $args]) {
    $r = [];
    foreach (['cpu', 'cuda'] as $dev) {
        ini_set('gtc.device', $dev);
        $x = CudaArray::randn($xs, 1);
        $w = CudaArray::randn($ws, 2);
        $b = $bias ? CudaArray::randn([$ws[0]], 3) : null;
        $r[$dev] = $x->conv2d($w, $b, ...$args);
    }
    echo str_pad($name, 24), err($r['cpu'], $r['cuda']), "\n";
}
putenv('GTC_CUDNN_API');
ini_set('gtc.device', 'cpu');
$xc = CudaArray::randn([2, 3, 8, 8], 4);
$wc = CudaArray::randn([4, 3, 3, 3], 5);
$ref = $xc->conv2d($wc, pads: [1, 1, 1, 1]);
ini_set('gtc.device', 'cuda');
$x = CudaArray::randn([2, 3, 8, 8], 4);
$w = CudaArray::randn([4, 3, 3, 3], 5);
echo 'float64 (gtc)           ', err($ref, $x->astype('float64')->conv2d($w->astype('float64'), pads: [1, 1, 1, 1])->astype('float32')), "\n";
echo 'a view (gtc)            ', err($ref, $x->transpose([0, 1, 3, 2])->transpose([0, 1, 3, 2])->conv2d($w, pads: [1, 1, 1, 1])), "\n";
$h = $x->astype('bfloat16')->conv2d($w->astype('bfloat16'), pads: [1, 1, 1, 1]);
echo 'bfloat16 (gtc)          ', $h->dtype(), ' ', json_encode($h->getShape()), "\n";
// the same result every call (one algorithm per shape, chosen once)
$a = $x->conv2d($w, pads: [1, 1, 1, 1])->toHost()->toArray();
$same = true;
for ($i = 0; $i < 5; $i++) $same = $same && $x->conv2d($w, pads: [1, 1, 1, 1])->toHost()->toArray() === $a;
echo 'repeatable              ', $same ? 'ok' : 'DIFFERS', "\n";
// bad operands still get gtc's messages
foreach ([fn() => $x->conv2d(CudaArray::randn([4, 2, 3, 3], 6)),
          fn() => $x->conv2d($w, CudaArray::randn([3], 7)),
          fn() => $x->conv2d($w, strides: [0, 1])] as $f) {
    try { $f(); echo "no error\n"; } catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
ob_start();
phpinfo(INFO_MODULES);
preg_match('/Convolution library => (.*)/', ob_get_clean(), $m);
echo 'phpinfo                 ', preg_match('/^(cuDNN \d+\.\d+\.\d+|none \(.+\))$/', $m[1] ?? '') ? 'ok' : 'BAD: ' . ($m[1] ?? 'missing'), "\n";
?>
--EXPECTF--
pad 1 + bias            ok
no bias                 ok
strides 2x1, pads 2x0   ok
dilations 2x3           ok
group 2                 ok
depthwise               ok
asymmetric pads (gtc)   ok
1x1, stride 3           ok
legacy: pad 1 + bias    ok
legacy: group 2         ok
legacy: no bias         ok
float64 (gtc)           ok
a view (gtc)            ok
bfloat16 (gtc)          bfloat16 [2,4,8,8]
repeatable              ok
%s: conv2d: %s
%s: conv2d: %s
%s: conv2d: %s
phpinfo                 ok
