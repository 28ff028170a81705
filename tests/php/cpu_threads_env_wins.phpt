--TEST--
GTC_CPU_THREADS wins over gtc.cpu_threads (as GTC_DEVICE over gtc.device); phpinfo says where the count came from
--SKIPIF--
<?php if ((new Cuda\CudaArray([1]))->device() !== 'cpu') die('skip the CPU backend only'); ?>
--INI--
gtc.cpu_threads=2
--ENV--
GTC_CPU_THREADS=1
--FILE--
<?php
ob_start();
phpinfo(INFO_MODULES);
$i = ob_get_clean();
var_dump(str_contains($i, 'CPU threads => 1'), str_contains($i, '1 thread (GTC_CPU_THREADS)'));
ini_set('gtc.cpu_threads', '2');
ob_start();
phpinfo(INFO_MODULES);
var_dump(str_contains(ob_get_clean(), 'CPU threads => 1'));
echo (new Cuda\CudaArray([1.5, 2.5]))->sum()->item(), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
4
