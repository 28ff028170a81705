--TEST--
gtc.memory_limit: a large allocation throws OutOfMemoryException, nothing leaks, later ops work
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$keep = new CudaArray([1, 2, 3]);
var_dump(ini_set('gtc.memory_limit', '1K'));
var_dump(ini_get('gtc.memory_limit'));
throws(fn() => CudaArray::zeros([1000000]));
throws(fn() => CudaArray::ones([300], 'float64'));
throws(fn() => new CudaArray(range(1, 1000)));
throws(fn() => $keep->broadcastTo([1000, 3])->add(1));
show($keep->add(1));                              // small ops still fit
show(CudaArray::zeros([8]));
var_dump(ini_set('gtc.memory_limit', '0'));
show(CudaArray::zeros([100000])->sum());          // unlimited again
try { CudaArray::zeros([1000000]); echo "ok\n"; } catch (Cuda\Exception $e) { echo "unexpected\n"; }
ini_set('gtc.memory_limit', '2M');
throws(fn() => CudaArray::zeros([1024, 1024]));   // 4 MiB > 2 MiB
show(CudaArray::zeros([1024, 256])->sum());       // 1 MiB fits
?>
--EXPECTF--
string(1) "0"
string(2) "1K"
Cuda\OutOfMemoryException: out of memory: 4000000 bytes requested, %s (gtc.memory_limit)
Cuda\OutOfMemoryException: %s
Cuda\OutOfMemoryException: %s
Cuda\OutOfMemoryException: %s
float32 [3] [2.0,3.0,4.0]
float32 [8] [0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0]
string(2) "1K"
float32 [] [0.0]
ok
Cuda\OutOfMemoryException: %s
float32 [] [0.0]
