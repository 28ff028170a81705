--TEST--
Cuda\Compiler without a CUDA device: a clear RuntimeException; options and names are vetted first
--SKIPIF--
<?php
ini_set('gtc.device', 'auto');
if ((new Cuda\CudaArray([1]))->device() !== 'cpu') die('skip a CUDA device is available');
?>
--ENV--
GTC_DEVICE=
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\Compiler;
$src = 'extern "C" __global__ void k(float *p) { p[threadIdx.x] = 1.0f; }';
throws(fn() => new Compiler($src));
throws(fn() => new Compiler($src, ['-DN=4', '--std=c++17', '-lineinfo'], ['k']));
ini_set('gtc.device', 'cuda');
throws(fn() => new Compiler($src));
ini_set('gtc.device', 'cpu');
throws(fn() => new Compiler($src));
// options outside the allow-list never reach NVRTC (nor the device check)
throws(fn() => new Compiler($src, ['--dump-ptx']));
throws(fn() => new Compiler($src, ['-arch=sm_80']));
throws(fn() => new Compiler($src, ['--gpu-architecture=sm_80']));
throws(fn() => new Compiler($src, ['-D']));
throws(fn() => new Compiler($src, ['--fmad=']));
throws(fn() => new Compiler($src, ['-DX', 3]));
throws(fn() => new Compiler($src, ['a' => '-DX']));
throws(fn() => new Compiler($src, ['']));
throws(fn() => new Compiler($src, ["-DX\0Y"]));
throws(fn() => new Compiler($src, [], [1]));
throws(fn() => new Compiler("k\0"));
throws(fn() => new Compiler());
$rc = new ReflectionClass(Compiler::class);
var_dump($rc->isFinal());
throws(fn() => $rc->newInstanceWithoutConstructor());
$e = new Cuda\CompilationException('m');
var_dump($e->getLog(), $e instanceof Cuda\Exception);
?>
--EXPECTF--
Cuda\RuntimeException: no CUDA device is available%S; Cuda\Compiler needs one
Cuda\RuntimeException: no CUDA device is available%S; Cuda\Compiler needs one
Cuda\RuntimeException: no CUDA device is available%S; Cuda\Compiler needs one
Cuda\RuntimeException: no CUDA device is available%S; Cuda\Compiler needs one
Cuda\InvalidArgumentException: NVRTC option "--dump-ptx" is not allowed (allowed: -D, -U, -I and their long forms, -std=, -use_fast_math, -lineinfo, -fmad=, -ftz=, -prec-div=, -prec-sqrt=, -maxrregcount=, -extra-device-vectorization, -default-device, -restrict, -w)
Cuda\InvalidArgumentException: NVRTC option "-arch=sm_80" is not allowed (%s)
Cuda\InvalidArgumentException: NVRTC option "--gpu-architecture=sm_80" is not allowed (%s)
Cuda\InvalidArgumentException: NVRTC option "-D" is not allowed (%s)
Cuda\InvalidArgumentException: NVRTC option "--fmad=" is not allowed (%s)
TypeError: Cuda\Compiler::__construct(): Argument #2 ($options) must be a list of strings, int found in the list
ValueError: Cuda\Compiler::__construct(): Argument #2 ($options) must be a list of strings
ValueError: Cuda\Compiler::__construct(): Argument #2 ($options) must not contain empty strings or strings with null bytes
ValueError: Cuda\Compiler::__construct(): Argument #2 ($options) must not contain empty strings or strings with null bytes
TypeError: Cuda\Compiler::__construct(): Argument #3 ($names) must be a list of strings, int found in the list
ValueError: Cuda\Compiler::__construct(): Argument #1 ($source) must not contain any null bytes
ArgumentCountError: Cuda\Compiler::__construct() expects at least 1 argument, 0 given
bool(true)
ReflectionException: Class Cuda\Compiler is an internal class marked as final that cannot be instantiated without invoking its constructor
string(0) ""
bool(true)
