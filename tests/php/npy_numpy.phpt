--TEST--
.npy interoperability with NumPy: every dtype, rank 0 and empty arrays, both directions
--SKIPIF--
<?php
exec('/usr/bin/python3 -c "import numpy" 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip NumPy is not available to /usr/bin/python3');
?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$dir = sys_get_temp_dir() . '/gtc_numpy_' . getmypid();
@mkdir($dir);
$py = <<<'PY'
import sys, numpy as np
d = sys.argv[1]
cases = {
    'f4': np.array([[1.5, -2.0], [3.25, 4.0]], dtype='<f4'),
    'f8': np.array([0.1, -1e300, 5.0], dtype='<f8'),
    'i4': np.array([[1, -2, 2147483647]], dtype='<i4'),
    'i8': np.array([9223372036854775807, -9223372036854775808], dtype='<i8'),
    'b1': np.array([True, False, True], dtype='?'),
    'f4_rank0': np.array(2.5, dtype='<f4'),
    'i8_rank0': np.array(-7, dtype='<i8'),
    'b1_rank0': np.array(True),
    'f4_empty': np.zeros((0,), dtype='<f4'),
    'i4_empty': np.zeros((2, 0, 3), dtype='<i4'),
    'f8_3d': np.arange(24, dtype='<f8').reshape(2, 3, 4),
    'i4_fortran_copy': np.ascontiguousarray(np.asfortranarray(np.arange(6, dtype='<i4').reshape(2, 3))),
}
for k, v in cases.items():
    np.save(f'{d}/np_{k}.npy', v)
PY;
file_put_contents("$dir/write.py", $py);
exec('/usr/bin/python3 ' . escapeshellarg("$dir/write.py") . ' ' . escapeshellarg($dir), $o, $rc);
echo "numpy wrote: rc=$rc\n";
foreach (['f4', 'f8', 'i4', 'i8', 'b1', 'f4_rank0', 'i8_rank0', 'b1_rank0', 'f4_empty', 'i4_empty', 'f8_3d', 'i4_fortran_copy'] as $k) {
    echo str_pad($k, 16);
    show(CudaArray::fromNpy("$dir/np_$k.npy"));
}
// gtc writes, NumPy reads
$ours = [
    'f4' => new CudaArray([[1.5, -2], [3.25, 4]]),
    'f8' => new CudaArray([0.1, -1e300], 'float64'),
    'i4' => new CudaArray([1, -2, 2147483647], 'int32'),
    'i8' => new CudaArray([PHP_INT_MAX, PHP_INT_MIN], 'int64'),
    'b1' => new CudaArray([true, false], 'bool'),
    'rank0' => CudaArray::full([], 3, 'int32'),
    'empty' => CudaArray::zeros([0, 2]),
    'view' => (new CudaArray([[1, 2, 3], [4, 5, 6]], 'int64'))->transpose(),
];
foreach ($ours as $k => $a) $a->toNpy("$dir/gtc_$k.npy");
$read = <<<'PY'
import sys, numpy as np
d = sys.argv[1]
for k in ['f4', 'f8', 'i4', 'i8', 'b1', 'rank0', 'empty', 'view']:
    a = np.load(f'{d}/gtc_{k}.npy', allow_pickle=False)
    print(k, a.dtype.str, a.shape, a.flags['C_CONTIGUOUS'], a.tolist())
PY;
file_put_contents("$dir/read.py", $read);
passthru('/usr/bin/python3 ' . escapeshellarg("$dir/read.py") . ' ' . escapeshellarg($dir));
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
numpy wrote: rc=0
f4              float32 [2,2] [[1.5,-2.0],[3.25,4.0]]
f8              float64 [3] [0.1,-1.0e+300,5.0]
i4              int32 [1,3] [[1,-2,2147483647]]
i8              int64 [2] [9223372036854775807,-9223372036854775808]
b1              bool [3] [true,false,true]
f4_rank0        float32 [] [2.5]
i8_rank0        int64 [] [-7]
b1_rank0        bool [] [true]
f4_empty        float32 [0] []
i4_empty        int32 [2,0,3] [[],[]]
f8_3d           float64 [2,3,4] [[[0.0,1.0,2.0,3.0],[4.0,5.0,6.0,7.0],[8.0,9.0,10.0,11.0]],[[12.0,13.0,14.0,15.0],[16.0,17.0,18.0,19.0],[20.0,21.0,22.0,23.0]]]
i4_fortran_copy int32 [2,3] [[0,1,2],[3,4,5]]
f4 <f4 (2, 2) True [[1.5, -2.0], [3.25, 4.0]]
f8 <f8 (2,) True [0.1, -1e+300]
i4 <i4 (3,) True [1, -2, 2147483647]
i8 <i8 (2,) True [9223372036854775807, -9223372036854775808]
b1 |b1 (2,) True [True, False]
rank0 <i4 () True 3
empty <f4 (0, 2) True []
view <i8 (3, 2) True [[1, 4], [2, 5], [3, 6]]
