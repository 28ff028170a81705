--TEST--
phpinfo() shows the version, the backend, NVRTC and NCCL, the CPU's BLAS and threads, the memory limit and memory use
--ENV--
GTC_DEVICE=
--FILE--
<?php
$a = Cuda\CudaArray::zeros([256]);     // 1 KiB in use
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
preg_match('/^gtc\n\n(.*?)\n\n\n?Directive/ms', $info, $m);
echo $m[1], "\n";
preg_match('/^gtc\.device => (.*)$/m', $info, $m);
echo $m[0], "\n";
?>
--EXPECTF--
gtc support => enabled
Version => 0.1.0
Backend => %s
CUDA backend => %s
NVRTC => %s
Convolution library => %s
NCCL => %s
CPU BLAS => OpenBLAS %s (%s), kernel %s, %d thread%S (physical cores)
CPU threads => %d
Memory limit => unlimited
Memory used => %d bytes
Memory peak => %d bytes
gtc.device => auto => auto
