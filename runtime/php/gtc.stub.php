<?php

/**
 * runtime/php/gtc.stub.php: the PHP API of the gtc extension (namespace Cuda).
 * gtc_arginfo.h is written by hand in gen_stub.php's style to match this file, and
 * tests/php/stub_reflection.phpt checks every class, method, parameter and return type
 * against the loaded extension, so the two cannot drift.
 *
 * Argument errors (a shape that is not a list of ints) throw \ValueError or \TypeError, except a
 * bad dtype name: Cuda\InvalidArgumentException, as php-gpu-tensors has it; errors that depend on the tensors (shapes that do not broadcast, an axis out of
 * range, ragged data, a corrupt .npy) throw Cuda\InvalidArgumentException; a memory limit hit
 * throws Cuda\OutOfMemoryException; anything else from the runtime Cuda\RuntimeException.
 *
 * @generate-class-entries
 */

namespace Cuda;

class Exception extends \Exception {}

class InvalidArgumentException extends Exception {}

class RuntimeException extends Exception {}

/** Under RuntimeException, as in php-gpu-tensors. */
class OutOfMemoryException extends RuntimeException {}

/** Thrown by Cuda\Compiler when NVRTC rejects a program; the message ends with NVRTC's log. */
class CompilationException extends RuntimeException
{
    private string $log = "";

    /** NVRTC's log: "kernel.cu(LINE): error: ..." lines ("" when not thrown by Cuda\Compiler). */
    public function getLog(): string {}
}

/**
 * A tensor on the device selected by gtc.device / GTC_DEVICE ("cpu" or "cuda:0").
 * Operators + - * / ** work with tensors and numbers on either side; numbers are weak (an int
 * tensor times 2 stays int, times 0.5 becomes float32).
 *
 * @strict-properties
 */
final class CudaArray implements \ArrayAccess, \Countable, \Stringable
{
    /** $t[i]: a view of row i (negative from the end; axis 0 dropped), its value at rank 1. */
    public function offsetGet(mixed $offset): mixed {}

    public function offsetExists(mixed $offset): bool {}

    /** $t[i] = number or CudaArray: broadcast into row i, written through to $t's storage. */
    public function offsetSet(mixed $offset, mixed $value): void {}

    /** Always an Error: the shape is fixed. */
    public function offsetUnset(mixed $offset): void {}

    /** Nested lists of int|float|bool; $dtype null infers bool, int64 or float32. */
    public function __construct(array $data, ?string $dtype = "float32") {}

    public static function fromBuffer(string $bytes, array $shape, string $dtype = "float32"): CudaArray {}

    /** A flat list of numbers (C order) shaped as $shape (php-gpu-tensors' name). */
    public static function fromFlatArray(array $values, array $shape, ?string $dtype = "float32"): CudaArray {}

    /** A file of raw packed little-endian values (no header; .npy files are fromNpy's). */
    public static function fromFile(string $path, array $shape, ?string $dtype = "float32"): CudaArray {}

    public function toBuffer(): string {}

    /** Nested lists; a rank-0 array gives a one-element list (item() gives the number). */
    public function toArray(): array {}

    public function item(): int|float|bool {}

    public static function fromNpy(string $path): CudaArray {}

    public function toNpy(string $path): void {}

    /**
     * Writes name => Cuda\CudaArray|Cuda\HostArray as one .npz archive (np.savez's format, each
     * member NAME.npy; $compress: np.savez_compressed's deflate). Names: no "..", no leading "/".
     */
    public static function saveNpz(string $path, array $tensors, bool $compress = false): void {}

    /** An .npz archive (np.savez or np.savez_compressed) as name => Cuda\CudaArray on the current device. */
    public static function loadNpz(string $path): array {}

    public static function zeros(array $shape, string $dtype = "float32"): CudaArray {}

    public static function ones(array $shape, string $dtype = "float32"): CudaArray {}

    public static function full(array $shape, int|float|bool $value, string $dtype = "float32"): CudaArray {}

    /** Uniform [0, 1) floats (0/1 for bool, [0, 2^31) for ints); the same seed gives the same values. */
    public static function rand(array $shape, ?int $seed = null, string $dtype = "float32"): CudaArray {}

    /** Standard normal floats (float32 or float64) from $seed: the same values on every device. */
    public static function randn(array $shape, int $seed, string $dtype = "float32"): CudaArray {}

    /** Uniform integers in [$low, $high) from $seed (an integer dtype); the same values on every device. */
    public static function randint(int $low, int $high, array $shape, int $seed, string $dtype = "int64"): CudaArray {}

    /** NumPy's arange: [start, stop) by step (one argument: [0, start)); dtype null: int64 for ints, else float32. */
    public static function arange(int|float $start, int|float|null $stop = null, int|float $step = 1, ?string $dtype = null): CudaArray {}

    /** NumPy's linspace: $num evenly spaced values from $start to $stop ($endpoint: included). */
    public static function linspace(int|float $start, int|float $stop, int $num = 50, bool $endpoint = true, string $dtype = "float32"): CudaArray {}

    /** A random permutation of 0 .. n-1 (int64) from $seed: the same on every device. */
    public static function permutation(int $n, int $seed): CudaArray {}

    public function add(CudaArray|int|float $other): CudaArray {}

    public function subtract(CudaArray|int|float $other): CudaArray {}

    public function multiply(CudaArray|int|float $other): CudaArray {}

    public function divide(CudaArray|int|float $other): CudaArray {}

    public function power(CudaArray|int|float $other): CudaArray {}

    public function maximum(CudaArray|int|float $other): CudaArray {}

    public function minimum(CudaArray|int|float $other): CudaArray {}

    public function eq(CudaArray|int|float $other): CudaArray {}

    public function ne(CudaArray|int|float $other): CudaArray {}

    public function lt(CudaArray|int|float $other): CudaArray {}

    public function le(CudaArray|int|float $other): CudaArray {}

    public function gt(CudaArray|int|float $other): CudaArray {}

    public function ge(CudaArray|int|float $other): CudaArray {}

    public function clamp(CudaArray|int|float $min, CudaArray|int|float $max): CudaArray {}

    public function neg(): CudaArray {}

    public function abs(): CudaArray {}

    public function exp(): CudaArray {}

    public function log(): CudaArray {}

    public function sqrt(): CudaArray {}

    public function rsqrt(): CudaArray {}

    public function sin(): CudaArray {}

    public function cos(): CudaArray {}

    public function tan(): CudaArray {}

    public function tanh(): CudaArray {}

    /** The Gauss error function (exact GELU: 0.5 * x * (1 + erf(x / sqrt(2)))). */
    public function erf(): CudaArray {}

    public function sigmoid(): CudaArray {}

    public function relu(): CudaArray {}

    public function floor(): CudaArray {}

    public function ceil(): CudaArray {}

    /** Half to even. */
    public function round(): CudaArray {}

    public function sign(): CudaArray {}

    /**
     * NumPy's casting rules: 'same_kind' (the default) refuses float to int and int or float to
     * bool; 'safe', 'equiv', 'no' are stricter; 'unsafe' converts anything, saturating (NaN to 0).
     */
    public function astype(string $dtype, string $casting = 'same_kind'): CudaArray {}

    public static function where(CudaArray $condition, CudaArray|int|float $x, CudaArray|int|float $y): CudaArray {}

    public function sum(int|array|null $axis = null, bool $keepdims = false): CudaArray {}

    public function mean(int|array|null $axis = null, bool $keepdims = false): CudaArray {}

    /** Whether every element along the axes is nonzero (NaN is), as bool. */
    public function all(int|array|null $axis = null, bool $keepdims = false): CudaArray {}

    /** Whether some element along the axes is nonzero, as bool. */
    public function any(int|array|null $axis = null, bool $keepdims = false): CudaArray {}

    /** sum((x - mean)^2) / (n - correction): 0 the population variance, 1 the sample one. */
    public function var(int|array|null $axis = null, int $correction = 0, bool $keepdims = false): CudaArray {}

    /** sqrt(var(...)). */
    public function std(int|array|null $axis = null, int $correction = 0, bool $keepdims = false): CudaArray {}

    public function max(int|array|null $axis = null, bool $keepdims = false): CudaArray {}

    public function min(int|array|null $axis = null, bool $keepdims = false): CudaArray {}

    public function prod(int|array|null $axis = null, bool $keepdims = false): CudaArray {}

    /** Without an axis: the index into the flattened array (rank 0; keepdims: all axes 1). */
    public function argMax(?int $axis = null, bool $keepdims = false): CudaArray {}

    public function argMin(?int $axis = null, bool $keepdims = false): CudaArray {}

    public function matmul(CudaArray $other): CudaArray {}

    /**
     * ONNX Gather: the slices of this array at $indices (int32/int64, negative counts from the
     * end) along $axis; shape shape[:axis] + indices.shape + shape[axis+1:]. An index out of
     * range throws Cuda\InvalidArgumentException naming it and the axis size.
     */
    public function gather(CudaArray $indices, int $axis = 0): CudaArray {}

    /** NumPy's name for gather (the same method): rows $indices of this array, e.g. a shuffled epoch. */
    public function take(CudaArray $indices, int $axis = 0): CudaArray {}

    /** One-hot rows: a new last axis of $depth, 1 where it equals this (int32/int64) array's value. */
    public function oneHot(int $depth, string $dtype = "float32"): CudaArray {}

    /** This array itself when it is contiguous, else a contiguous copy. */
    public function contiguous(): CudaArray {}

    /**
     * The adjoint of gather: a copy of this array with each slice of $updates (the shape of
     * gather($indices, $axis)) added where its index gathers from; repeated indices accumulate.
     */
    public function scatterAdd(CudaArray $indices, CudaArray $updates, int $axis = 0): CudaArray {}

    /**
     * This array and $tensors (at most 15) joined along $axis (null: 0), in that order: equal
     * shapes outside the axis, dtypes promoted as elementwise ops do (php-gpu-tensors' method).
     */
    public function concat(array $tensors, ?int $axis = null): CudaArray {}

    /**
     * Constant padding: $pads holds 2 non-negative integers per axis, all begins then all ends
     * (ONNX order); the new elements are $value.
     */
    public function pad(array $pads, int|float $value = 0): CudaArray {}

    /**
     * Inverted dropout: each element (row-major index i) is kept when Philox4x32-10 of (i, $seed)
     * gives a uniform number >= $ratio, and kept elements are scaled by 1/(1-$ratio); the same
     * bits on every device. $seed: an int (|seed| <= 2^53), or a rank-0 int64 CudaArray (in
     * Cuda\Fusion, an input, so each run can pass a new one).
     */
    public function dropout(float $ratio, CudaArray|int $seed): CudaArray {}

    /** Softmax along $axis (stable: the maximum is subtracted first). */
    public function softmax(int $axis = -1): CudaArray {}

    /** log(softmax) along $axis, computed as x - max - log(sum(exp(x - max))). */
    public function logSoftmax(int $axis = -1): CudaArray {}

    /**
     * Layer normalisation over the axes from $axis on: (x - mean) / sqrt(var + $epsilon) * $scale
     * + $bias; $scale and $bias have x's shape from $axis on (or are numbers).
     */
    public function layerNorm(CudaArray|int|float $scale, CudaArray|int|float $bias, int $axis = -1, float $epsilon = 1e-5): CudaArray {}

    /** GELU: $approximate 'none' (x/2 (1 + erf(x/sqrt 2))) or 'tanh' (the tanh approximation). */
    public function gelu(string $approximate = 'none'): CudaArray {}

    /**
     * Cross-entropy of these logits (class axis $axis) with $target: class indices (an integer
     * array, the logits' shape without $axis) or probabilities (float, the logits' shape);
     * the mean over the other positions, a rank-0 array.
     */
    public function crossEntropy(CudaArray $target, int $axis = 1): CudaArray {}

    /**
     * ONNX Conv 2-D over NCHW: this array is x [N, C, H, W], $weight [M, C/$group, kH, kW], $bias
     * [M] or null; $strides and $dilations [height, width], $pads [top, left, bottom, right]
     * (zeros). Out [N, M, OH, OW], OH = floor((H + top + bottom - dilation*(kH-1) - 1)/stride) + 1.
     * float32 or float64. Composed of graph ops (im2col as strided slices, then a matmul), so it
     * traces in Cuda\Fusion and has gradients.
     */
    public function conv2d(CudaArray $weight, ?CudaArray $bias = null, array $strides = [1, 1], array $pads = [0, 0, 0, 0], array $dilations = [1, 1], int $group = 1): CudaArray {}

    /**
     * Max pooling over NCHW with a [kH, kW] $kernel, $strides (default [1, 1], ONNX's) and $pads
     * [top, left, bottom, right], each smaller than the kernel; padding never wins a max.
     */
    public function maxPool2d(array $kernel, array $strides = [1, 1], array $pads = [0, 0, 0, 0]): CudaArray {}

    /**
     * Average pooling, as maxPool2d; the divisor is the number of real (not padding) elements in
     * the window, or the kernel's size with $countIncludePad.
     */
    public function avgPool2d(array $kernel, array $strides = [1, 1], array $pads = [0, 0, 0, 0], bool $countIncludePad = false): CudaArray {}

    /** A view when the array is contiguous, else a copy; one -1 is inferred. */
    public function reshape(array $shape): CudaArray {}

    /** reshape([getSize()]): one axis, a view when the array is contiguous. */
    public function flatten(): CudaArray {}

    /** A view; null reverses the axes. */
    public function transpose(?array $perm = null): CudaArray {}

    public function squeeze(int|array|null $axis = null): CudaArray {}

    public function unsqueeze(int $axis): CudaArray {}

    public function broadcastTo(array $shape): CudaArray {}

    /**
     * A view. Positional arguments are php-gpu-tensors' selectors, one per leading axis: null
     * keeps the axis, an int selects and drops it, [start, end] or [start, end, step] is a
     * range (null for a default; negative values count from the end, bounds clamp), a string is
     * Python-style ("1:3", "::2"; the only argument may be a spec for several axes,
     * "1:3, ::2, -1, ..."). Named arguments only: the ONNX form
     * slice(starts: [...], ends: [...], steps: [...], axes: [...]). Mixing the two is an error.
     */
    public function slice(mixed ...$selectors): CudaArray {}

    /**
     * $t(1, null, [0, 2]): php-gpu-tensors' selectors, one per leading axis: an int selects and
     * drops its axis, null keeps it, [start, end] keeps start..end inclusive. A view.
     */
    public function __invoke(int|array|null ...$selectors): CudaArray {}

    public function getShape(): array {}

    /** In elements (0 on broadcast axes, negative after a reversing slice). */
    public function getStrides(): array {}

    public function dtype(): string {}

    /** The rank: count(getShape()). */
    public function getNdims(): int {}

    public function getSize(): int {}

    public function device(): string {}

    /**
     * Memory in bytes: 'allocated' (held by live arrays and model arenas on every device: what
     * gtc.memory_limit counts), 'peak' (the most 'allocated' has been), 'limit' (gtc.memory_limit;
     * 0: none); once the CUDA backend is in use, 'reserved' (what the caching allocator holds from
     * the driver: live and cached blocks), 'device_free' and 'device_total' (cudaMemGetInfo, all
     * processes counted), else null for those three.
     */
    public static function memoryInfo(): array {}

    public function toHost(): HostArray {}

    /**
     * Eager autograd (docs/autograd.md). Marks this tensor (a float leaf) as one whose gradient
     * backward() accumulates; false stops that. Returns $this. While Cuda\Fusion traces, marks
     * an input of the traced function.
     */
    public function requiresGrad(bool $requiresGrad = true): CudaArray {}

    /**
     * Accumulates the gradient of sum($this * $gradient) into grad() of every leaf this tensor is
     * computed from that requires gradients; without $gradient the tensor must hold one value.
     * The recorded history stays, so backward() may run again. Inside Fusion::compile it appends
     * the gradient to the traced graph.
     */
    public function backward(?CudaArray $gradient = null): void {}

    /** The gradient backward() accumulated for this leaf, or null (none yet, zeroGrad(), not a leaf). */
    public function grad(): ?CudaArray {}

    /** Forgets the accumulated gradient: grad() is null until the next backward(). */
    public function zeroGrad(): void {}

    /** The same values (sharing the data) with no gradient history. */
    public function detach(): CudaArray {}

    public function __debugInfo(): array {}

    /** NumPy's repr with shape, dtype and device: "CudaArray([[1., 2.], [3., 4.]], shape=[2,2], dtype=float32, device=cpu)" on lines of their own per row; more than 1000 elements are elided to the first and last three along each long axis (only those are read). */
    public function __toString(): string {}

    /** The length of the first axis (count($t)); a rank-0 array has none. */
    public function count(): int {}

    public function __serialize(): array {}

    public function __unserialize(array $data): void {}
}

/**
 * An array in host (CPU) memory. Serializes as CudaArray does (either unserializes the other's data).
 *
 * @strict-properties
 */
/** Also registered as Cuda\ContiguousArray (php-gpu-tensors' name for it). */
final class HostArray implements \Countable
{
    /** Nested lists of numbers, as fromArray; page-locked memory is not offered ($pinned is accepted, isPinned() says false). */
    public function __construct(array $values, ?string $dtype = "float32", bool $pinned = false) {}

    public static function fromArray(array $data, string $dtype = "float32"): HostArray {}

    /** Packed little-endian values (C order), as CudaArray::fromBuffer. */
    public static function fromBuffer(string $bytes, array $shape, ?string $dtype = "float32", bool $pinned = false): HostArray {}

    /** Nested lists; a rank-0 array gives a one-element list. */
    public function toArray(): array {}

    public function toBuffer(): string {}

    public function getShape(): array {}

    public function dtype(): string {}

    public function getDtype(): string {}

    public function getNdims(): int {}

    public function getSize(): int {}

    public function getElementSize(): int {}

    /** The length of the first axis (1 at rank 0). */
    public function count(): int {}

    /** One element by its coordinates (negative from the end). */
    public function get(array $indices): int|float|bool {}

    public function at(int ...$indices): int|float|bool {}

    public function isPinned(): bool {}

    public function toDevice(): CudaArray {}

    /** php-gpu-tensors' name for toDevice(). */
    public function toGpu(): CudaArray {}

    public function __serialize(): array {}

    public function __unserialize(array $data): void {}
}

/**
 * A CUDA C++ program compiled with NVRTC for the current GPU (a cubin for its exact
 * architecture), whose kernels launch on the runtime's stream, ordered with every CudaArray op.
 * Declare kernels `extern "C" __global__` and launch them by name; C++ kernels (templates,
 * namespaces) are named by the expressions in $names ("scale<float>").
 *
 * Throws Cuda\RuntimeException when no CUDA device is available, Cuda\CompilationException
 * with NVRTC's log when the program does not compile, and Cuda\InvalidArgumentException for an
 * option outside this set (the architecture option is the runtime's; options that write files
 * are refused): -DNAME[=V], -UNAME, -IDIR, --define-macro=, --undefine-macro=, --include-path=,
 * -std=, -fmad=, -ftz=, -prec-div=, -prec-sqrt=, -maxrregcount=, -use_fast_math, -lineinfo,
 * --generate-line-info, -extra-device-vectorization, -default-device,
 * --device-as-default-execution-space, -restrict, -w, --disable-warnings (and -std=, -fmad=,
 * -ftz=, -prec-div=, -prec-sqrt=, -maxrregcount=, -use_fast_math, -extra-device-vectorization
 * and -restrict with two dashes).
 *
 * @strict-properties
 * @not-serializable
 */
final class Compiler
{
    public function __construct(string $source, array $options = [], array $names = []) {}

    /**
     * Queues kernel $kernel on the GPU with a grid of blocks ($grid, $block: 1 to 3 positive ints,
     * or one int, checked against the device's limits) and $sharedMem bytes of dynamic shared
     * memory; does not wait for it. $args (a list, one per kernel parameter) convert by the
     * parameter's type as the PTX declares it:
     *   - a contiguous CudaArray on the GPU: the address of its element 0 (any pointer parameter;
     *     the kernel must use the array's dtype);
     *   - int: an integer parameter of 8 to 64 bits (range-checked: it must fit signed or
     *     unsigned), or a float/double parameter (converted);
     *   - float: a float (rounded to float32) or double parameter;
     *   - bool: an integer parameter (0 or 1).
     * Struct, array and half parameters cannot be passed. Mismatches throw
     * Cuda\InvalidArgumentException; a launch CUDA rejects throws Cuda\RuntimeException with
     * the CUDA error's name, and the context stays usable.
     */
    public function launch(string $kernel, array|int $grid, array|int $block, array $args, int $sharedMem = 0): void {}

    /** The kernels' names, in the program's order (name expressions for C++ kernels). */
    public function kernels(): array {}

    /** NVRTC's log of the successful compilation (warnings; often ""). */
    public function getLog(): string {}

    /** The PTX NVRTC generated. */
    public function getPtx(): string {}
}

/**
 * php-gpu-tensors' neural-network helpers as thin wrappers over gtc's graph ops (conv2d,
 * max_pool2d, avg_pool2d, softmax): eager, traced in Cuda\Fusion, differentiable. gtc needs no
 * cuDNN for them, so isAvailable() is always true (cuda_get_backend_info()['cudnn'] stays false).
 *
 * @strict-properties
 * @not-serializable
 */
final class NN
{
    /**
     * $input [N, C, H, W], $weights [M, C/$groups, kH, kW], $bias [M] or null; $stride and
     * $dilation [height, width] (positive), $padding [height, width] (symmetric, >= 0).
     */
    public static function conv2d(CudaArray $input, CudaArray $weights, ?CudaArray $bias = null, array $stride = [1, 1], array $padding = [0, 0], array $dilation = [1, 1], int $groups = 1): CudaArray {}

    /**
     * Pooling over $window [kH, kW]: $mode 'max' or 'average' (the mean of the real elements,
     * padding not counted); $padding [height, width] (symmetric), each smaller than the window.
     */
    public static function pool2d(CudaArray $input, array $window, array $stride = [2, 2], array $padding = [0, 0], string $mode = 'max'): CudaArray {}

    /** Softmax over the channels (axis 1) of an [N, C, H, W] array. */
    public static function softmax(CudaArray $input): CudaArray {}

    /** Always true: these ops are gtc's own (no cuDNN needed). */
    public static function isAvailable(): bool {}
}

/**
 * Data-parallel runs (docs/distributed.md): one PHP process per GPU, started by `gtc run -n N
 * script.php` (or torchrun), each told its place by the environment (RANK, WORLD_SIZE,
 * LOCAL_RANK, GTC_DIST_DIR). init() joins that world (absent variables: a world of 1, rank 0) on
 * CUDA device LOCAL_RANK when gtc.device is auto or cuda; collectives run through NCCL, loaded
 * at run time. A world of 1 works on every backend (its collectives are identities where NCCL
 * is not used); a larger world on the CPU backend is refused (Cuda\RuntimeException).
 * Collectives work in place on contiguous arrays of the world's device.
 *
 * @strict-properties
 * @not-serializable
 */
final class Distributed
{
    /** Joins the world the environment describes; bad or inconsistent variables throw Cuda\RuntimeException. */
    public static function init(): void {}

    public static function isInitialized(): bool {}

    /** This process's rank, 0 to worldSize() - 1. */
    public static function rank(): int {}

    public static function worldSize(): int {}

    /** The rank among the processes of this machine: the CUDA device it uses. */
    public static function localRank(): int {}

    /** The collective library in use ("nccl"), or null where a world of 1 needs none. */
    public static function backend(): ?string {}

    /** Returns when every rank has called it. */
    public static function barrier(): void {}

    /** Overwrites $array on every rank with root's values (initial parameters). */
    public static function broadcast(CudaArray $array, int $root = 0): void {}

    /** In place: the element-wise "sum", "mean" (float arrays), "max" or "min" over the ranks. */
    public static function allReduce(CudaArray $array, string $op = "sum"): void {}

    /**
     * The indices 0 .. $n - 1 this rank sees in $epoch: the same permutation on every rank
     * (seeded $seed + $epoch, CudaArray::permutation's; in order without $shuffle), padded by
     * wrapping to a multiple of the world size, then every worldSize()-th index from rank(): each
     * rank gets ceil($n / worldSize()) indices.
     */
    public static function shard(int $n, int $epoch = 0, bool $shuffle = true, int $seed = 0): array {}

    /** Leaves the world (frees the communicator); init() may be called again. */
    public static function destroy(): void {}
}

/**
 * The JIT: traces a PHP function once with placeholder tensors (shape and dtype, no data), plans
 * the recorded graph with the compiler's own passes and code generators, and replays it: one CUDA
 * Graph on the GPU (kernels compiled with NVRTC), C kernels built by the system C compiler on the
 * CPU (or, without one, the graph op by op). $inputs maps names (string keys) or positions to a
 * CudaArray example, a dtype name (a rank-0 input: a runtime scalar), or [shape, dtype]; the
 * function receives the placeholders in that order and returns a CudaArray or (nested) arrays of
 * them, whose keys the replays keep. Tensors the closure captures or makes are inputs of their own,
 * read at every run. Reading a traced value's data works in Fusion::run (computed eagerly; values
 * that escape the closure keep theirs) and throws in Fusion::compile (a replay would not see it);
 * writes through $t[i], nested tracing, Fiber switches, Compiler::launch and changing gtc.device
 * throw while tracing.
 *
 * @strict-properties
 * @not-serializable
 */
final class Fusion
{
    /**
     * $donate maps output key paths to inputs whose buffers they reuse ("donate" in the graph
     * format): replays update those input tensors in place and return them. Tensors the closure
     * captures (use ($w)) are inputs of their own, read at every run. php-gpu-tensors' call
     * compile($fn, $inputs, true) / cudaGraph: true is accepted: a plan on a CUDA device always
     * replays as one CUDA Graph. $precision: how the plan's products (matmul) are computed:
     * "fp32" (exact, the default), "tf32" or "bf16" (tensor cores through cuBLASLt on a device of
     * compute capability 8.0+; float32 storage and accumulation), as `gtc compile --precision`.
     * $dynamic makes the first axis of inputs a symbolic dimension
     * (['batch' => ['x', 'y']]: any size from 1 to the traced one, the same in x and y; one plan
     * for every batch, on the GPU or the CPU; docs/fusion.md). $dataParallel: the gradients of the
     * donated parameters (their backward() gradients) are averaged across the ranks of
     * Cuda\Distributed inside the plan, as `gtc compile --data-parallel` (docs/distributed.md).
     */
    public static function compile(callable $fn, array $inputs, string|bool $name = "fusion", array $donate = [], bool $cudaGraph = false, string $precision = "fp32", array $dynamic = [], bool $dataParallel = false): FusionGraph {}

    /**
     * Traces (or reuses the plan of) $fn over $inputs (real values, often none: the closure's
     * captured tensors are its inputs) and runs it once on them. enabled: false calls $fn
     * eagerly instead (also php-gpu-tensors' run($fn, false)).
     */
    public static function run(callable $fn, array|bool $inputs = [], bool $enabled = true): CudaArray|array {}

    /** The traced graph as v1 JSON (docs/graph-format.md), which `gtc compile` accepts. */
    public static function export(callable $fn, array $inputs, string $name = "fusion", array $donate = []): string {}

    public static function isTracing(): bool {}

    /** The process's plan cache: entries, bytes, maxEntries, maxBytes, compilations, hits, misses, evictions. */
    public static function getCacheStats(): array {}

    /** Forgets every cached plan (least recently used ones also go when the cache is full); compiled FusionGraphs keep theirs. */
    public static function clearCache(): void {}
}

/**
 * A compiled trace: run() takes the inputs by position or name and returns the outputs with the
 * traced function's keys; getPlan(), getStats(), getSource(), inputs() and outputs() are a model
 * extension's, one implementation (getStats adds 'cache': 'memory' or 'miss'; 'kernels': nvrtc,
 * nvrtc-cache, cc, cc-cache or eager; getSource() also takes 'graph').
 *
 * @strict-properties
 * @not-serializable
 */
final class FusionGraph
{
    private function __construct() {}

    public function run(mixed ...$inputs): CudaArray|array {}

    public function runAsync(mixed ...$inputs): FusionExecution {}

    public function getPlan(): array {}

    public function getStats(): array {}

    /** One source text: by default the kernels of the backend it runs on (CUDA C++ or C); 'cuda', 'cpu' or 'graph' (the traced JSON) pick one. */
    public function getSource(?string $part = null): string {}

    /** name => ['dtype' => ..., 'shape' => [...]], in run()'s positional order. */
    public function inputs(): array {}

    /** name => ['dtype' => ..., 'shape' => [...], 'inPlaceOf' => input name or null]. */
    public function outputs(): array {}

    /** Times each run()'s phases into getStats() (bindTimeNs, executeTimeNs, collectTimeNs, profiledExecutions); either switch restarts the counts; refused while runAsync() executions are pending. */
    public function setProfiling(bool $enabled): void {}

    /** Saves the inputs it updates (its parameters, taken from $inputs: name => array, as run() is given them) and its optimizer state to an .npz file. */
    public function saveCheckpoint(string $path, array $inputs, bool $compress = false): void {}

    /** Reads saveCheckpoint()'s file, checked against inputs(): restores the optimizer state it owns and returns the other inputs updated in place (name => Cuda\CudaArray). */
    public function loadCheckpoint(string $path): array {}

    /** The optimizer state it owns (a compiled training step's; [] for a trace): name => Cuda\CudaArray, plus 'step' (AdamW updates done). */
    public function optimizerState(): array {}

    /** Replaces some or all of optimizerState()'s entries (copied; checked by name, dtype and shape; 'step' an int >= 0). */
    public function setOptimizerState(array $state): void {}

    /** Zero buffers and step 0 again, as a new object. */
    public function resetOptimizerState(): void {}
}

/**
 * @strict-properties
 * @not-serializable
 */
final class FusionExecution
{
    private function __construct() {}

    public function wait(): CudaArray|array {}

    public function isFinished(): bool {}
}

/**
 * The mini-batches of a training loop: arrays that share their first axis (features, labels...)
 * cut into batches of $batchSize rows; foreach gives each batch as an array with $arrays' keys.
 * In order, a batch is views of the rows (no copy); with $shuffle, the k-th foreach (k = 0, 1,
 * ...: each rewind is an epoch) takes the rows in CudaArray::permutation($n, $seed + k)'s order,
 * gathered on the arrays' device. The last batch has the rows left over (fewer than $batchSize)
 * unless $dropLast, which leaves them out: a compiled step takes one batch size only.
 *
 * @strict-properties
 * @not-serializable
 */
final class Batches implements \Iterator, \Countable
{
    public function __construct(array $arrays, int $batchSize, bool $shuffle = false, int $seed = 0, bool $dropLast = false) {}

    /** The current batch: key => Cuda\CudaArray; null past the last. */
    public function current(): ?array {}

    /** The current batch's number from 0; null past the last. */
    public function key(): ?int {}

    public function next(): void {}

    /** Starts the next epoch (a foreach does): batch 0, and with $shuffle a new order. */
    public function rewind(): void {}

    public function valid(): bool {}

    /** Batches per epoch. */
    public function count(): int {}

    /** The epoch the iteration is in, from 0 (-1 before the first). */
    public function epoch(): int {}
}
