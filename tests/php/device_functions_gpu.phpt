--TEST--
cuda_* device functions on a CUDA device: device info, current device, memory, peer access, reset keeps live tensors valid, a second device refused
--SKIPIF--
<?php if (cuda_get_device_count() < 1) die('skip needs a CUDA device'); ?>
--ENV--
GTC_DEVICE=cuda
--FILE--
<?php
$n = cuda_get_device_count();
$x = new Cuda\CudaArray([1.5, 2.5]);
$d = cuda_get_device_info(0);
var_dump($d['name'] !== '', $d['compute_capability_major'] >= 3, $d['total_global_memory'] > 0, $d['multiprocessor_count'] > 0);
var_dump(cuda_get_current_device(), cuda_get_backend_info()['backend'], cuda_get_backend_info()['device']);
$m = cuda_get_memory_info();
var_dump($m['total_memory'] >= $m['free_memory'], $m['used_memory'] === $m['total_memory'] - $m['free_memory'],
         $m['usage_percentage'] > 0 && $m['usage_percentage'] <= 100);
$dv = cuda_get_driver_version();
var_dump($dv['version'] >= cuda_get_runtime_version()['version'] || $dv['version'] > 0);
var_dump(cuda_get_peer_access(0, 0), cuda_set_device(0), cuda_device_reset(), cuda_synchronize());
echo $x->sum()->item(), ' on ', $x->device(), "\n";     // live tensors survive the reset
try { cuda_get_device_info($n); } catch (Cuda\RuntimeException $e) { echo $e->getMessage(), "\n"; }
// eager TF32: products differ from strict FP32 (within TF32's error) and strict comes back exactly
$a = Cuda\CudaArray::rand([256, 256], seed: 1) - 0.5;
$b = Cuda\CudaArray::rand([256, 256], seed: 2) - 0.5;
$strict = $a->matmul($b)->toArray();
echo cuda_set_matmul_precision('tf32'), ' ', cuda_get_backend_info()['precision'], "\n";
$fast = $a->matmul($b)->toArray();
$diff = 0.0;
foreach ($strict as $i => $row) foreach ($row as $j => $v) $diff = max($diff, abs($v - $fast[$i][$j]));
var_dump($diff > 0, $diff < 0.05);
echo cuda_set_matmul_precision('fp32-strict'), "\n";
var_dump($a->matmul($b)->toArray() === $strict);
if ($n > 1) { try { cuda_set_device(1); } catch (Cuda\RuntimeException $e) { echo "second device refused\n"; } }
else echo "second device refused\n";
?>
--EXPECTF--
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
string(4) "cuda"
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
4 on cuda:0
CUDA device %d does not exist (%s visible)
tf32 tf32
bool(true)
bool(true)
fp32-strict
bool(true)
second device refused
