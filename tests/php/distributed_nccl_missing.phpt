--TEST--
Cuda\Distributed where NCCL cannot be loaded (GTC_NCCL_LIBRARY names no library): phpinfo() says why, a world of 1 still works
--INI--
gtc.device=cpu
--ENV--
GTC_DEVICE=cpu
GTC_NCCL_LIBRARY=/nonexistent/libnccl.so.2
--FILE--
<?php
use Cuda\{CudaArray, Distributed};
ob_start();
phpinfo(INFO_MODULES);
preg_match('/^NCCL => (.*)$/m', ob_get_clean(), $m);
echo $m[1], "\n";
Distributed::init();
$x = new CudaArray([2.0]);
Distributed::allReduce($x, 'mean');
echo Distributed::worldSize(), ' ', $x->toArray()[0], "\n";
?>
--EXPECT--
not available: /nonexistent/libnccl.so.2: cannot open shared object file: No such file or directory
1 2
