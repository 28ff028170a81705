--TEST--
CudaArray::memoryInfo(): allocated, peak and limit follow arrays and gtc.memory_limit; CUDA figures on a GPU
--FILE--
<?php
use Cuda\CudaArray;
$i = CudaArray::memoryInfo();
echo implode(',', array_keys($i)), "\n";
$base = $i['allocated'];
$a = CudaArray::zeros([1000]);                         // 4000 bytes
$v = $a->reshape([10, 100])->slice('1:3');             // a view: nothing more
$i = CudaArray::memoryInfo();
echo $i['allocated'] - $base, ' ', $i['peak'] >= $i['allocated'] ? 'peak ok' : 'peak low', "\n";
$t = CudaArray::zeros([2000]) + 1;                     // 8000 + 8000, the temporary freed
echo CudaArray::memoryInfo()['allocated'] - $base, "\n";
echo CudaArray::memoryInfo()['peak'] - $base >= 20000 ? "peak saw the temporary\n" : "peak missed it\n";
unset($t, $a);
echo CudaArray::memoryInfo()['allocated'] - $base, "\n"; // $v keeps $a's storage
unset($v);
echo CudaArray::memoryInfo()['allocated'] - $base, "\n";
ini_set('gtc.memory_limit', '3M');
echo CudaArray::memoryInfo()['limit'], "\n";
ini_set('gtc.memory_limit', '0');
echo CudaArray::memoryInfo()['limit'], "\n";
// CUDA: the allocator holds at least what its arrays use; the device's figures are sane
$x = CudaArray::ones([1 << 20]);
$i = CudaArray::memoryInfo();
$ok = str_starts_with($x->device(), 'cuda')
    ? $i['reserved'] >= 4 << 20 && $i['device_total'] > 0 && $i['device_free'] <= $i['device_total']
    : $i['reserved'] === null && $i['device_free'] === null && $i['device_total'] === null;
echo $ok ? "device figures ok\n" : 'device figures wrong: ' . json_encode($i) . "\n";
?>
--EXPECT--
allocated,peak,limit,reserved,device_free,device_total
4000 peak ok
12000
peak saw the temporary
4000
0
3145728
0
device figures ok
