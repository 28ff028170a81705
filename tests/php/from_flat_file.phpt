--TEST--
CudaArray::fromFlatArray() and fromFile() (php-gpu-tensors' names): shapes, dtypes, NaN; wrong counts and sizes, nested values, files that are not regular files, bad paths
--FILE--
<?php
use Cuda\CudaArray;
$show = fn($t) => json_encode($t->getShape()) . ' ' . $t->dtype() . ' ' . json_encode($t->toArray());
echo $show(CudaArray::fromFlatArray([1, 2, 3, 4, 5, 6], [2, 3])), "\n";
echo $show(CudaArray::fromFlatArray([1, 2, 3, 4], [2, 1, 2], 'int32')), "\n";
echo $show(CudaArray::fromFlatArray([true, false], [2], 'bool')), "\n";
echo $show(CudaArray::fromFlatArray([7], [])), "\n";
echo $show(CudaArray::fromFlatArray([], [0, 3])), "\n";
$n = CudaArray::fromFlatArray([1.5, NAN, -INF], [3], null);
echo $n->dtype(), ' ', var_export(is_nan($n->toArray()[1]), true), ' ', $n->toArray()[2], "\n";

$dir = sys_get_temp_dir() . '/gtc-fromfile-' . getmypid();
mkdir($dir);
file_put_contents("$dir/f32.bin", pack('g*', 1.0, 2.5, -3.0, 4.0, 5.0, 6.0));
file_put_contents("$dir/i64.bin", pack('q*', -1, 2));
echo $show(CudaArray::fromFile("$dir/f32.bin", [3, 2])), "\n";
echo $show(CudaArray::fromFile("$dir/i64.bin", [2], 'int64')), "\n";
file_put_contents("$dir/empty.bin", '');
echo $show(CudaArray::fromFile("$dir/empty.bin", [0])), "\n";

$bad = [
    fn() => CudaArray::fromFlatArray([1, 2, 3], [2, 2]),
    fn() => CudaArray::fromFlatArray([[1, 2], [3, 4]], [2, 2]),
    fn() => CudaArray::fromFlatArray(['a' => 1], [1]),
    fn() => CudaArray::fromFlatArray([1, 'x'], [2]),
    fn() => CudaArray::fromFlatArray([1], [1], 'complex64'),
    fn() => CudaArray::fromFlatArray([1], [-1]),
    fn() => CudaArray::fromFile("$dir/f32.bin", [4, 2]),
    fn() => CudaArray::fromFile("$dir/f32.bin", [2], 'float64'),
    fn() => CudaArray::fromFile($dir, [1]),
    fn() => CudaArray::fromFile('/dev/zero', [4]),
    fn() => CudaArray::fromFile("$dir/missing.bin", [1]),
    fn() => CudaArray::fromFile("$dir/f32.bin\0.npy", [6]),
];
foreach ($bad as $f) {
    try { $f(); echo "no exception\n"; }
    catch (Throwable $e) { echo get_class($e), ': ', str_replace($dir, 'DIR', $e->getMessage()), "\n"; }
}
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
[2,3] float32 [[1,2,3],[4,5,6]]
[2,1,2] int32 [[[1,2]],[[3,4]]]
[2] bool [true,false]
[] float32 [7]
[0,3] float32 []
float32 true -INF
[3,2] float32 [[1,2.5],[-3,4],[5,6]]
[2] int64 [-1,2]
[0] float32 []
Cuda\InvalidArgumentException: fromFlatArray: shape [2,2] holds 4 values, 3 given
Cuda\InvalidArgumentException: Cuda\CudaArray::fromFlatArray(): Argument #1 ($values) must be a flat list of numbers (an array was found in it)
Cuda\InvalidArgumentException: Cuda\CudaArray::fromFlatArray(): Argument #1 ($values) must be a list of numbers
Cuda\InvalidArgumentException: $data[1] must be int, float or bool, string given
Cuda\InvalidArgumentException: Cuda\CudaArray::fromFlatArray(): Argument #3 ($dtype) must be one of "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bfloat16", "float16", "float32", "float64"; "complex64" given
Cuda\InvalidArgumentException: Cuda\CudaArray::fromFlatArray(): Argument #2 ($shape) must contain only non-negative dimensions, -1 given
Cuda\InvalidArgumentException: fromFile: shape [4,2] of float32 needs 32 bytes, DIR/f32.bin has 24
Cuda\InvalidArgumentException: fromFile: shape [2] of float64 needs 16 bytes, DIR/f32.bin has 24
Cuda\InvalidArgumentException: fromFile: DIR is not a regular file
Cuda\InvalidArgumentException: fromFile: /dev/zero is not a regular file
Cuda\RuntimeException: fromFile: cannot open DIR/missing.bin for reading: No such file or directory
ValueError: Cuda\CudaArray::fromFile(): Argument #1 ($path) must not contain any null bytes
