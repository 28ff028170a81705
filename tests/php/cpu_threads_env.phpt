--TEST--
GTC_CPU_THREADS: a bad value is refused with its name on first use; a good one wins over gtc.cpu_threads
--SKIPIF--
<?php if ((new Cuda\CudaArray([1]))->device() !== 'cpu') die('skip the CPU backend only'); ?>
--ENV--
GTC_CPU_THREADS=many
--FILE--
<?php
require __DIR__ . '/helpers.inc';
throws(fn() => new Cuda\CudaArray([1, 2]));
throws(fn() => Cuda\CudaArray::zeros([3]));
?>
--EXPECT--
Cuda\RuntimeException: GTC_CPU_THREADS="many" is not a thread count (auto, or an integer from 1 to 1024)
Cuda\RuntimeException: GTC_CPU_THREADS="many" is not a thread count (auto, or an integer from 1 to 1024)
