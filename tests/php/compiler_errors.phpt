--TEST--
Cuda\Compiler on a GPU: compile errors, options, unknown kernels, argument and launch errors; the context stays usable
--SKIPIF--
<?php
putenv('GTC_DEVICE');
ini_set('gtc.device', 'auto');
try { $d = (new Cuda\CudaArray([1]))->device(); } catch (Throwable $e) { $d = 'cpu'; }
if (!str_starts_with($d, 'cuda')) die('skip needs a CUDA device');
?>
--ENV--
GTC_DEVICE=
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\Compiler;
use Cuda\CudaArray;

// a compile error: CompilationException with NVRTC's log, which names the line
try {
    new Compiler("extern \"C\" __global__ void k(float *p) {\n    p[0] = 1.0f;\n    p[1] = undefined_thing;\n}\n");
    echo "no exception\n";
} catch (Cuda\CompilationException $e) {
    echo get_class($e), "\n", $e->getMessage(), "\n--\n";
    var_dump(str_contains($e->getLog(), 'kernel.cu(3): error: identifier "undefined_thing" is undefined'));
    var_dump(str_ends_with($e->getMessage(), $e->getLog()));
}
throws(fn() => new Compiler('template <class T> __global__ void t(T *p) {}', [], ['t<nosuchtype>']));
throws(fn() => new Compiler('extern "C" __global__ void k() {}', ['--dump-ptx']));
throws(fn() => new Compiler('extern "C" __global__ void k() {}', ['-o', 'x.ptx']));

$c = new Compiler(<<<'CU'
struct Pair { int a; float b; };
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void takes_pair(Pair p, int *out) { out[0] = p.a; }
extern "C" __global__ void __launch_bounds__(32) small_blocks(float *p) { p[threadIdx.x] = 1.0f; }
extern "C" __global__ void shared_sum(float *p) {
    extern __shared__ float s[];
    s[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) { float t = 0; for (int i = 0; i < blockDim.x; i++) t += s[i]; p[0] = t; }
}
CU);
echo implode(' ', $c->kernels()), "\n";
$x = CudaArray::ones([8]);
$y = CudaArray::zeros([8]);
throws(fn() => $c->launch('nosuch', 1, 8, []));
throws(fn() => $c->launch('saxpy', 1, 8, [1.0, $x, $y]));
throws(fn() => $c->launch('saxpy', 1, 8, [1.0, $x, $y, 8, 9]));
throws(fn() => $c->launch('saxpy', 1, 8, [1.0, $x, $y, 8.5]));
throws(fn() => $c->launch('saxpy', 1, 8, [1.0, $x, $y, 1 << 40]));
throws(fn() => $c->launch('saxpy', 1, 8, [1.0, $x, 'y', 8]));
throws(fn() => $c->launch('saxpy', 1, 8, [1.0, $x, null, 8]));
throws(fn() => $c->launch('saxpy', 1, 8, [$x, $x, $y, 8]));
throws(fn() => $c->launch('saxpy', 1, 8, [1.0, $x, $y->toHost(), 8]));
throws(fn() => $c->launch('saxpy', 1, 8, [1.0, $x, CudaArray::zeros([8, 2])->transpose(), 8]));
throws(fn() => $c->launch('saxpy', 1, 8, [1.0, $x, $y, new stdClass]));
throws(fn() => $c->launch('saxpy', 1, 8, ['a' => 1.0, 'b' => $x, 'c' => $y, 'd' => 8]));
throws(fn() => $c->launch('takes_pair', 1, 1, [[1, 2.0], $y]));
ini_set('gtc.device', 'cpu');
$cpu = CudaArray::zeros([8]);
ini_set('gtc.device', 'auto');
throws(fn() => $c->launch('saxpy', 1, 8, [1.0, $x, $cpu, 8]));

// launch configurations checked against the device's limits
throws(fn() => $c->launch('saxpy', [], 8, [1.0, $x, $y, 8]));
throws(fn() => $c->launch('saxpy', [1, 1, 1, 1], 8, [1.0, $x, $y, 8]));
throws(fn() => $c->launch('saxpy', 1, [0], [1.0, $x, $y, 8]));
throws(fn() => $c->launch('saxpy', 1, ['8'], [1.0, $x, $y, 8]));
throws(fn() => $c->launch('saxpy', 1, [2048, 1, 1], [1.0, $x, $y, 8]));
throws(fn() => $c->launch('saxpy', 1, [32, 32, 2], [1.0, $x, $y, 8]));
throws(fn() => $c->launch('saxpy', 1, [1, 1, 128], [1.0, $x, $y, 8]));
throws(fn() => $c->launch('saxpy', [1, 1 << 20], 8, [1.0, $x, $y, 8]));
throws(fn() => $c->launch('saxpy', 1, 8, [1.0, $x, $y, 8], -1));
throws(fn() => $c->launch('saxpy', 1, 8, [1.0, $x, $y, 8], 1 << 30));
throws(fn() => $c->launch('saxpy', new stdClass, 8, [1.0, $x, $y, 8]));

// a launch CUDA itself rejects (more threads than the kernel's __launch_bounds__): a
// RuntimeException with the CUDA error's name, and the context stays usable
$p = CudaArray::zeros([64]);
throws(fn() => $c->launch('small_blocks', 1, 64, [$p]));
$c->launch('saxpy', 1, 8, [2.0, $x, $y, 8]);
echo fmt($y->toArray()), ' ', fmt($y->add(1)->sum()->item()), "\n";
$c->launch('small_blocks', 1, 32, [$p]);
echo fmt($p->sum()->item()), "\n";
// dynamic shared memory, above the default 48 KiB too
$s1 = CudaArray::ones([256]);
$s2 = CudaArray::ones([256]);
$c->launch('shared_sum', 1, 256, [$s1], 256 * 4);
$c->launch('shared_sum', 1, 256, [$s2], 100 * 1024);
echo fmt($s1->slice('0:2')->toArray()), ' ', fmt($s2->slice('0:2')->toArray()), "\n";

throws(fn() => clone $c);
throws(fn() => serialize($c));
throws(fn() => $c->__construct('extern "C" __global__ void k() {}'));
?>
--EXPECTF--
Cuda\CompilationException
compilation of kernel.cu failed (NVRTC_ERROR_COMPILATION):
kernel.cu(3): error: identifier "undefined_thing" is undefined
      p[1] = undefined_thing;
             ^

1 error detected in the compilation of "kernel.cu".
--
bool(true)
bool(true)
Cuda\CompilationException: compilation of kernel.cu failed (%s)%A
Cuda\InvalidArgumentException: NVRTC option "--dump-ptx" is not allowed (%s)
Cuda\InvalidArgumentException: NVRTC option "-o" is not allowed (%s)
saxpy takes_pair small_blocks shared_sum
Cuda\InvalidArgumentException: no kernel named 'nosuch' (kernels: saxpy, takes_pair, small_blocks, shared_sum)
Cuda\InvalidArgumentException: saxpy takes 4 arguments, 3 given
Cuda\InvalidArgumentException: saxpy takes 4 arguments, 5 given
Cuda\InvalidArgumentException: argument 4 of saxpy is a float but its parameter is a 32-bit integer (pass an int)
Cuda\InvalidArgumentException: argument 4 of saxpy is 1099511627776, which does not fit its 32-bit integer parameter
Cuda\InvalidArgumentException: argument 3 of saxpy is string; its parameter is a 64-bit integer or pointer
Cuda\InvalidArgumentException: argument 3 of saxpy is null; its parameter is a 64-bit integer or pointer
Cuda\InvalidArgumentException: argument 1 of saxpy is a CudaArray but its parameter is a float, not a pointer
Cuda\InvalidArgumentException: argument 3 of saxpy is a Cuda\HostArray; kernels take Cuda\CudaArray, int, float or bool
Cuda\InvalidArgumentException: argument 3 of saxpy is a non-contiguous view; pass a contiguous array (clone it)
Cuda\InvalidArgumentException: argument 4 of saxpy is a stdClass; kernels take Cuda\CudaArray, int, float or bool
ValueError: Cuda\Compiler::launch(): Argument #4 ($args) must be a list
Cuda\InvalidArgumentException: argument 1 of takes_pair: its parameter is a struct, array or half, which Cuda\Compiler cannot pass (use pointers and scalars)
Cuda\InvalidArgumentException: argument 3 of saxpy lives on cpu, kernels need cuda arrays
ValueError: Cuda\Compiler::launch(): Argument #2 ($grid) must be an int or a list of 1 to 3 ints
ValueError: Cuda\Compiler::launch(): Argument #2 ($grid) must be an int or a list of 1 to 3 ints
ValueError: Cuda\Compiler::launch(): Argument #3 ($block) must contain positive ints below 2^32, 0 given
TypeError: Cuda\Compiler::launch(): Argument #3 ($block) must be a list of ints, string found in the list
Cuda\InvalidArgumentException: block [2048, 1, 1]: the device allows at most 1024 threads along x
Cuda\InvalidArgumentException: block [32, 32, 2] has 2048 threads; the device allows at most 1024 per block
Cuda\InvalidArgumentException: block [1, 1, 128]: the device allows at most 64 threads along z
Cuda\InvalidArgumentException: grid [1, 1048576, 1]: the device allows at most 65535 blocks along y
ValueError: Cuda\Compiler::launch(): Argument #5 ($sharedMem) must be greater than or equal to 0
Cuda\InvalidArgumentException: sharedMem of 1073741824 bytes: the device allows at most %d per block
TypeError: Cuda\Compiler::launch(): Argument #2 ($grid) must be of type array|int, stdClass given
Cuda\RuntimeException: CUDA error in launch of small_blocks: cudaError%s
[2.0,2.0,2.0,2.0,2.0,2.0,2.0,2.0] 24.0
32.0
[256.0,1.0] [256.0,1.0]
Error: Trying to clone an uncloneable object of class Cuda\Compiler
Exception: Serialization of 'Cuda\Compiler' is not allowed
Error: Cuda\Compiler object is already initialized
