--TEST--
GTC_DEVICE overrides gtc.device
--SKIPIF--
<?php
putenv('GTC_DEVICE=auto');
if ((new Cuda\CudaArray([1]))->device() !== 'cpu') die('skip a CUDA device is available');
?>
--INI--
gtc.device=cpu
--ENV--
GTC_DEVICE=cuda
--FILE--
<?php
require __DIR__ . '/helpers.inc';
throws(fn() => new Cuda\CudaArray([1]));
putenv('GTC_DEVICE=cpu');
echo (new Cuda\CudaArray([1]))->device(), "\n";
putenv('GTC_DEVICE=banana');
throws(fn() => new Cuda\CudaArray([1]));
?>
--EXPECTF--
Cuda\RuntimeException: GTC_DEVICE=cuda but no CUDA device is available%S
cpu
Cuda\RuntimeException: GTC_DEVICE=banana is not a device (auto, cpu, cuda or cuda:N)
