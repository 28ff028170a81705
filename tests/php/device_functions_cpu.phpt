--TEST--
cuda_* device functions without a CUDA device: 0 devices, backend cpu, device questions refused with Cuda\RuntimeException, tensors still work
--SKIPIF--
<?php if (cuda_get_device_count() > 0) die('skip a CUDA device is visible (device_functions_gpu.phpt)'); ?>
--FILE--
<?php
// the reason in parentheses differs between builds (no GPU here, or no CUDA backend built)
function msg(Throwable $e): string { return get_class($e) . ': ' . preg_replace('~ \(.*\)$~', '', $e->getMessage()); }
var_dump(cuda_get_device_count(), cuda_get_backend_info()['backend'], cuda_get_backend_info()['device']);
foreach (['cuda_get_device_info', 'cuda_get_current_device', 'cuda_get_memory_info', 'cuda_device_reset'] as $f) {
    try { $f(); echo "$f: no exception\n"; }
    catch (Cuda\RuntimeException $e) { echo "$f: ", msg($e), "\n"; }
}
foreach ([fn() => cuda_set_device(0), fn() => cuda_get_peer_access(0, 0), fn() => cuda_set_matmul_precision('tf32')] as $i => $f) {
    try { $f(); echo "$i: no exception\n"; }
    catch (Cuda\RuntimeException $e) { echo "$i: ", msg($e), "\n"; }
}
echo 'precision ', cuda_get_backend_info()['precision'], "\n";
echo (new Cuda\CudaArray([1.5, 2.5]))->sum()->item(), ' on ', (new Cuda\CudaArray([1]))->device(), "\n";
?>
--EXPECTF--
int(0)
string(3) "cpu"
int(-1)
cuda_get_device_info: Cuda\RuntimeException: no CUDA device is available
cuda_get_current_device: Cuda\RuntimeException: no CUDA device is available
cuda_get_memory_info: Cuda\RuntimeException: no CUDA device is available
cuda_device_reset: Cuda\RuntimeException: no CUDA device is available
0: Cuda\RuntimeException: cannot select CUDA device 0: no CUDA device is available
1: Cuda\RuntimeException: %s
2: Cuda\RuntimeException: matmul precision tf32 needs a CUDA device of compute capability 8.0 or later; the cpu backend computes float32 products in strict FP32
precision fp32-strict
4 on cpu
