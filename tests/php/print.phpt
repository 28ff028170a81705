--TEST--
echo $t and count($t): NumPy's repr (brackets, one number format aligned on the point, True/False, nan/inf, scientific notation when magnitudes call for it, rows of rank 3 separated by a blank line, more than 1000 elements elided to the first and last three along long axes) with shape, dtype and device; count() is the first axis; inside Fusion::run a traced value prints its value, inside Fusion::compile <traced>
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
echo new CudaArray([[1, 2, 3], [4, 5, 6]]), "\n";
echo new CudaArray([[1.5, -2.25], [3, 4]], 'float64'), "\n";
echo new CudaArray([1, -2, 300], 'int16'), "\n";
echo new CudaArray([true, false], 'bool'), "\n";
echo CudaArray::full([], 3.5), "\n";
echo CudaArray::zeros([0, 3]), "\n";
echo CudaArray::fromFlatArray(range(0, 23), [2, 3, 4]), "\n";
echo CudaArray::arange(12), "\n"; // an axis of 8 to 1000 elements, not elided (overflowed a buffer: make asan)
echo CudaArray::fromFlatArray(range(0, 1999), [2000], 'int64'), "\n";
echo CudaArray::fromFlatArray(range(0, 9999), [100, 100]), "\n";
echo new CudaArray([1e-6, 1.0, NAN, -INF]), "\n";
echo new CudaArray([0.1, 0.25, 1 / 3]), "\n";
echo (new CudaArray([[1, 2], [3, 4]]))->transpose()->slice('::-1'), "\n";   // a strided view
echo "$t = " . new CudaArray([7], 'uint8'), "\n";                            // string interpolation
var_dump(count(new CudaArray([[1], [2], [3]])), count(CudaArray::zeros([0, 2])), new CudaArray([1]) instanceof Stringable);
try { count(CudaArray::full([], 1)); } catch (Cuda\InvalidArgumentException $e) { echo $e->getMessage(), "\n"; }
Fusion::run(function () { echo (new CudaArray([1, 2])) + 1, "\n"; return new CudaArray([0]); }); // Fusion::run reads traced values
$g = Fusion::compile(function ($x) { echo $x * 2, "\n"; return $x; }, [new CudaArray([1.0, 2.0])]);
?>
--EXPECTF--
CudaArray([[1., 2., 3.],
           [4., 5., 6.]], shape=[2,3], dtype=float32, device=%s)
CudaArray([[ 1.5 , -2.25],
           [ 3.  ,  4.  ]], shape=[2,2], dtype=float64, device=%s)
CudaArray([  1,  -2, 300], shape=[3], dtype=int16, device=%s)
CudaArray([ True, False], shape=[2], dtype=bool, device=%s)
CudaArray(3.5, shape=[], dtype=float32, device=%s)
CudaArray([], shape=[0,3], dtype=float32, device=%s)
CudaArray([[[ 0.,  1.,  2.,  3.],
            [ 4.,  5.,  6.,  7.],
            [ 8.,  9., 10., 11.]],

           [[12., 13., 14., 15.],
            [16., 17., 18., 19.],
            [20., 21., 22., 23.]]], shape=[2,3,4], dtype=float32, device=%s)
CudaArray([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11], shape=[12], dtype=int64, device=%s)
CudaArray([   0,    1,    2, ..., 1997, 1998, 1999], shape=[2000], dtype=int64, device=%s)
CudaArray([[0.000e+00, 1.000e+00, 2.000e+00, ..., 9.700e+01, 9.800e+01, 9.900e+01],
           [1.000e+02, 1.010e+02, 1.020e+02, ..., 1.970e+02, 1.980e+02, 1.990e+02],
           [2.000e+02, 2.010e+02, 2.020e+02, ..., 2.970e+02, 2.980e+02, 2.990e+02],
           ...,
           [9.700e+03, 9.701e+03, 9.702e+03, ..., 9.797e+03, 9.798e+03, 9.799e+03],
           [9.800e+03, 9.801e+03, 9.802e+03, ..., 9.897e+03, 9.898e+03, 9.899e+03],
           [9.900e+03, 9.901e+03, 9.902e+03, ..., 9.997e+03, 9.998e+03, 9.999e+03]], shape=[100,100], dtype=float32, device=%s)
CudaArray([1.e-06, 1.e+00,    nan,   -inf], shape=[4], dtype=float32, device=%s)
CudaArray([0.1       , 0.25      , 0.33333334], shape=[3], dtype=float32, device=%s)
CudaArray([[2., 4.],
           [1., 3.]], shape=[2,2], dtype=float32, device=%s)

Warning: Undefined variable $t in %s on line %d
 = CudaArray([7], shape=[1], dtype=uint8, device=%s)
int(3)
int(0)
bool(true)
count() of a rank-0 Cuda\CudaArray: it has no first axis (item() reads its value)
CudaArray([2., 3.], shape=[2], dtype=float32, device=%s)
CudaArray(<traced>, shape=[2], dtype=float32, device=%s)
