--TEST--
gtc.device=cuda without a CUDA device: creating an array throws a clear RuntimeException
--SKIPIF--
<?php
ini_set('gtc.device', 'auto');
if ((new Cuda\CudaArray([1]))->device() !== 'cpu') die('skip a CUDA device is available');
?>
--INI--
gtc.device=cuda
--ENV--
GTC_DEVICE=
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
throws(fn() => new CudaArray([1, 2]));
throws(fn() => CudaArray::zeros([2]));
throws(fn() => CudaArray::rand([2]));
throws(fn() => CudaArray::fromBuffer(pack('g', 1), [1]));
throws(fn() => Cuda\HostArray::fromArray([1])->toDevice());
ini_set('gtc.device', 'cuda:1');
throws(fn() => CudaArray::ones([2]));
ini_set('gtc.device', 'cpu');
echo (new CudaArray([1]))->device(), "\n";
?>
--EXPECTF--
Cuda\RuntimeException: gtc.device=cuda but no CUDA device is available%S
Cuda\RuntimeException: gtc.device=cuda but no CUDA device is available%S
Cuda\RuntimeException: gtc.device=cuda but no CUDA device is available%S
Cuda\RuntimeException: gtc.device=cuda but no CUDA device is available%S
Cuda\RuntimeException: gtc.device=cuda but no CUDA device is available%S
Cuda\RuntimeException: gtc.device=cuda:1 but no CUDA device is available%S
cpu
