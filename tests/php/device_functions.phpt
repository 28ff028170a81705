--TEST--
php-gpu-tensors' device functions: extension_loaded('cuda'), the cuda_* functions as their stub declares them, truthful answers without a device, bad arguments, cuda.memory_size, the exception hierarchy
--INI--
cuda.memory_size=64M
--FILE--
<?php
// 1. The stub and the extension agree on every function, parameter, type and default.
$src = preg_replace('~/\*.*?\*/~s', '', file_get_contents(__DIR__ . '/../../runtime/php/device_functions.stub.php'));
preg_match_all('~function\s+(\w+)\s*\(([^)]*)\)\s*:\s*(\??[\w|]+)~', $src, $m, PREG_SET_ORDER);
$bad = 0;
foreach ($m as [, $name, $params, $ret]) {
    if (!function_exists($name)) { echo "missing $name\n"; $bad++; continue; }
    $f = new ReflectionFunction($name);
    $got = [];
    foreach ($f->getParameters() as $p)
        $got[] = $p->getType() . ' $' . $p->getName() . ($p->isDefaultValueAvailable() ? ' = ' . var_export($p->getDefaultValue(), true) : '');
    $want = trim($params) === '' ? [] : array_map('trim', explode(',', $params));
    if ($got !== $want || (string)$f->getReturnType() !== $ret || $f->getExtension()->getName() !== 'gtc') {
        echo "$name: stub (", implode(', ', $want), "): $ret, extension (", implode(', ', $got), "): ", $f->getReturnType(), "\n";
        $bad++;
    }
}
echo count($m), " functions, $bad differ\n";
var_dump(extension_loaded('cuda'), extension_loaded('gtc'));
ob_start(); phpinfo(INFO_MODULES); $info = ob_get_clean();
var_dump(str_contains($info, 'provided by gtc'));

// 2. Exceptions as php-gpu-tensors has them.
foreach (['OutOfMemoryException', 'CompilationException', 'InvalidArgumentException'] as $c)
    echo "Cuda\\$c: ", implode(' < ', array_values(class_parents("Cuda\\$c"))), "\n";

// 3. What every machine answers the same way.
$n = cuda_get_device_count();
$info = cuda_get_backend_info();
var_dump(is_int($n) && $n >= 0, $info['devices'] === $n, $info['precision'], $info['backend'] === (new Cuda\CudaArray([1]))->device() || str_starts_with((new Cuda\CudaArray([1]))->device(), $info['backend']));
echo implode(',', array_keys($info)), "\n";
// lastMatmul: null until an eager matmul ran; then the library of the backend it ran on
$before = $info['lastMatmul'];
$m = Cuda\CudaArray::ones([2, 3])->matmul(Cuda\CudaArray::ones([3, 2]));
$lib = cuda_get_backend_info()['lastMatmul'];
var_dump($before, $lib === ($m->device() === 'cpu' ? $info['blas'] : 'cublas'));
Cuda\Fusion::run(fn() => Cuda\CudaArray::ones([2, 2])->matmul(Cuda\CudaArray::ones([2, 2])) + 1); // traced: not eager
var_dump(cuda_get_backend_info()['lastMatmul'] === $lib);
var_dump(cuda_synchronize(), cuda_clear_error(), cuda_get_last_error());
echo cuda_set_matmul_precision('fp32'), ' ', cuda_set_matmul_precision('highest'), "\n";
$cudaBuilt = $info['cuda'];
if ($cudaBuilt) {
    $v = cuda_get_runtime_version();
    var_dump(array_keys($v) === ['version', 'version_string'], $v['version'] > 0,
             $v['version_string'] === intdiv($v['version'], 1000) . '.' . intdiv($v['version'] % 1000, 10));
} else {
    echo "bool(true)\nbool(true)\nbool(true)\n"; // a build without CUDA: nothing to ask (checked below)
}
// the limit cuda.memory_size set, under its gtc name
$mi = Cuda\CudaArray::memoryInfo();
var_dump($mi['limit'] === 64 << 20);
try { Cuda\CudaArray::zeros([1 << 25]); } catch (Cuda\RuntimeException $e) { echo get_class($e), "\n"; }
ini_set('cuda.memory_size', '0');
var_dump(Cuda\CudaArray::memoryInfo()['limit']);

// 4. Bad arguments.
$calls = [
    fn() => cuda_get_device_info(-1),
    fn() => cuda_set_device(-3),
    fn() => cuda_get_peer_access(0, -1),
    fn() => cuda_get_peer_access(PHP_INT_MAX, 0),
    fn() => cuda_set_matmul_precision('bogus'),
    fn() => cuda_set_matmul_precision('bf16'),
    fn() => cuda_set_matmul_precision(''),
    fn() => cuda_get_device_info('x'),
    fn() => cuda_get_device_count(1),
];
foreach ($calls as $c) {
    try { $c(); echo "no exception\n"; }
    catch (Throwable $e) { echo get_class($e), ': ', $e->getMessage(), "\n"; }
}
echo ini_set('cuda.memory_size', 'lots') === false ? "cuda.memory_size=lots refused\n" : "accepted\n";

?>
--EXPECTF--
14 functions, 0 differ
bool(true)
bool(true)
bool(true)
Cuda\OutOfMemoryException: Cuda\RuntimeException < Cuda\Exception < Exception
Cuda\CompilationException: Cuda\RuntimeException < Cuda\Exception < Exception
Cuda\InvalidArgumentException: Cuda\Exception < Exception
bool(true)
bool(true)
string(11) "fp32-strict"
bool(true)
backend,cuda,devices,device,cublas,cublasLt,cub,cudnn,blas,lastMatmul,nvrtc,precision
NULL
bool(true)
bool(true)
bool(true)
bool(true)
NULL
fp32-strict fp32-strict
bool(true)
bool(true)
bool(true)
bool(true)
Cuda\OutOfMemoryException
int(0)
ValueError: cuda_get_device_info(): Argument #1 ($deviceId) must be between 0 and 2147483647
ValueError: cuda_set_device(): Argument #1 ($deviceId) must be between 0 and 2147483647
ValueError: cuda_get_peer_access(): Argument #2 ($device2) must be between 0 and 2147483647
ValueError: cuda_get_peer_access(): Argument #1 ($device1) must be between 0 and 2147483647
Cuda\InvalidArgumentException: unknown matmul precision "bogus": fp32-strict (or fp32, highest) or tf32 (or high)
Cuda\RuntimeException: matmul precision "bf16" is not available in this gtc (fp32-strict or tf32)
Cuda\InvalidArgumentException: unknown matmul precision "": fp32-strict (or fp32, highest) or tf32 (or high)
TypeError: cuda_get_device_info(): Argument #1 ($deviceId) must be of type int, string given
ArgumentCountError: cuda_get_device_count() expects exactly 0 arguments, 1 given

Warning: ini_set(): Invalid "cuda.memory_size" setting. Invalid quantity "lots": no valid leading digits, interpreting as "0" for backwards compatibility in %s on line %d
cuda.memory_size=lots refused
