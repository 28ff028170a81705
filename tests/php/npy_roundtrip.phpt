--TEST--
toNpy / fromNpy round-trip every dtype, rank 0, empty arrays and views
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$dir = sys_get_temp_dir() . '/gtc_npy_rt_' . getmypid();
@mkdir($dir);
$cases = [
    new CudaArray([[1.5, -2], [3, 4]]),
    new CudaArray([0.1, 1e300], 'float64'),
    new CudaArray([[1, -2, 3]], 'int32'),
    new CudaArray([PHP_INT_MAX, PHP_INT_MIN], 'int64'),
    new CudaArray([true, false, true], 'bool'),
    CudaArray::full([], 7, 'int64'),
    CudaArray::zeros([0]),
    CudaArray::zeros([2, 0, 3], 'int32'),
    (new CudaArray([[1, 2, 3], [4, 5, 6]], 'int32'))->transpose()->slice('::-1'),
    CudaArray::rand([3, 4, 5], 1, 'float64'),
];
foreach ($cases as $i => $a) {
    $path = "$dir/a$i.npy";
    $a->toNpy($path);
    $b = CudaArray::fromNpy($path);
    $raw = file_get_contents($path);
    $hlen = unpack('v', $raw, 8)[1];
    echo $b->dtype(), ' ', json_encode($b->getShape()), ' ',
        $b->toArray() === $a->toArray() ? 'same' : 'DIFFERENT', ' ',
        (10 + $hlen) % 64 === 0 ? 'aligned' : 'unaligned', ' ',
        rtrim(substr($raw, 10, $hlen)), "\n";
    unlink($path);
}
rmdir($dir);
throws(fn() => CudaArray::fromNpy("$dir/missing.npy"));
throws(fn() => (new CudaArray([1]))->toNpy("$dir/no/such/dir/x.npy"));
throws(fn() => CudaArray::fromNpy("bad\0path"));
throws(fn() => CudaArray::fromNpy(sys_get_temp_dir()));
throws(fn() => CudaArray::fromNpy('data://text/plain;base64,' . base64_encode("\x93NUMPY\x01\x00\x16\x00{'descr': 'nope'}   \n")));
?>
--EXPECTF--
float32 [2,2] same aligned {'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }
float64 [2] same aligned {'descr': '<f8', 'fortran_order': False, 'shape': (2,), }
int32 [1,3] same aligned {'descr': '<i4', 'fortran_order': False, 'shape': (1, 3), }
int64 [2] same aligned {'descr': '<i8', 'fortran_order': False, 'shape': (2,), }
bool [3] same aligned {'descr': '|b1', 'fortran_order': False, 'shape': (3,), }
int64 [] same aligned {'descr': '<i8', 'fortran_order': False, 'shape': (), }
float32 [0] same aligned {'descr': '<f4', 'fortran_order': False, 'shape': (0,), }
int32 [2,0,3] same aligned {'descr': '<i4', 'fortran_order': False, 'shape': (2, 0, 3), }
int32 [3,2] same aligned {'descr': '<i4', 'fortran_order': False, 'shape': (3, 2), }
float64 [3,4,5] same aligned {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4, 5), }
Cuda\RuntimeException: fromNpy: cannot open %s/missing.npy for reading: No such file or directory
Cuda\RuntimeException: toNpy: cannot open %s/no/such/dir/x.npy for writing: No such file or directory
ValueError: Cuda\CudaArray::fromNpy(): Argument #1 ($path) must not contain any null bytes
Cuda\InvalidArgumentException: fromNpy: %s is not a regular file
Cuda\InvalidArgumentException: fromNpy: data://text/plain;base64,%s: stream wrappers are not supported; give a local file path
