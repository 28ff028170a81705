--TEST--
Cuda\Compiler on a GPU: saxpy over 1e6 elements matches eager ops; 2-D grids, templates, -D, scalar types
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
function maxdiff(CudaArray $a, CudaArray $b): float { return $a->subtract($b)->abs()->max()->item(); }

$c = new Compiler(<<<'CU'
extern "C" __global__ void saxpy(float a, const float *x, const float *y, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i];
}
extern "C" __global__ void axpy64(double a, const double *x, double *y, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        y[i] += a * x[i];
}
extern "C" __global__ void iota(int *out, int n, int start, unsigned char step, bool negate) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (negate ? -1 : 1) * (start + i * step);
}
CU);
echo implode(' ', $c->kernels()), "\n";
var_dump(is_string($c->getLog()), str_contains($c->getPtx(), '.entry saxpy'));

$n = 1000000;
$x = CudaArray::rand([$n], 1);
$y = CudaArray::rand([$n], 2);
$out = CudaArray::zeros([$n]);
$c->launch('saxpy', intdiv($n + 255, 256), 256, [2.5, $x, $y, $out, $n]);
$ref = $x->multiply(2.5)->add($y);
echo $out->device(), ' ', $out->dtype(), ' ', json_encode($out->getShape()), ' saxpy maxdiff<1e-6: ', var_export(maxdiff($out, $ref) < 1e-6, true), "\n";
// an int for a float parameter converts; a grid of [blocks] works like an int
$c->launch('saxpy', [intdiv($n + 127, 128)], [128], [3, $x, $y, $out, $n]);
echo 'int scalar: ', var_export(maxdiff($out, $x->multiply(3)->add($y)) < 1e-6, true), "\n";

$x64 = CudaArray::rand([1000], 3, 'float64');
$y64 = CudaArray::ones([1000], 'float64');
$c->launch('axpy64', 4, 64, [0.25, $x64, $y64, 1000]);   // grid-stride loop
echo 'axpy64: ', var_export(maxdiff($y64, $x64->multiply(0.25)->add(1)) < 1e-12, true), "\n";

$iv = CudaArray::zeros([5], 'int32');
$c->launch('iota', 1, 32, [$iv, 5, 10, 3, true]);
echo 'iota: ', json_encode($iv->toArray()), "\n";

// a 2-D grid of 2-D blocks, with -D
$c2 = new Compiler(<<<'CU'
extern "C" __global__ void index2d(float *out, int rows, int cols) {
    int r = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && col < cols) out[r * cols + col] = SCALE * r + col;
}
extern "C" __global__ void index3d(int *out, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y,
        z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz) out[(z * ny + y) * nx + x] = 100 * z + 10 * y + x;
}
CU, ['-DSCALE=1000.0f', '--std=c++17', '-lineinfo']);
[$rows, $cols] = [37, 53];
$m = CudaArray::full([$rows, $cols], -1.0);
$c2->launch('index2d', [intdiv($cols + 15, 16), intdiv($rows + 15, 16)], [16, 16], [$m, $rows, $cols]);
$expect = [];
for ($r = 0; $r < $rows; $r++) for ($j = 0; $j < $cols; $j++) $expect[$r][$j] = 1000.0 * $r + $j;
echo '2-D: ', var_export($m->toArray() === (new CudaArray($expect))->toArray(), true), "\n";
$t = CudaArray::zeros([3, 4, 5], 'int32');
$c2->launch('index3d', [1, 1, 3], [5, 4, 1], [$t, 5, 4, 3]);
echo '3-D: ', json_encode($t->slice('2, 3')->toArray()), "\n";

// C++ kernels by name expression
$c3 = new Compiler(<<<'CU'
template <class T> __global__ void scale(T *p, T v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= v;
}
namespace ns { __global__ void one(int *p) { p[threadIdx.x] = 1; } }
CU, [], ['scale<float>', 'scale<double>', 'ns::one']);
$k = $c3->kernels();
sort($k);
echo implode(' ', $k), "\n";
$f = CudaArray::full([10], 2.0);
$c3->launch('scale<float>', 1, 32, [$f, 1.5, 10]);
$d = CudaArray::full([3], 2.0, 'float64');
$c3->launch('scale<double>', 1, 32, [$d, 0.1, 3]);
$o = CudaArray::zeros([4], 'int32');
$c3->launch('ns::one', 1, 4, [$o]);
echo fmt($f->toArray()), ' ', fmt($d->toArray()), ' ', fmt($o->toArray()), "\n";

// the kernels run in order with eager ops on the same stream; views pass element 0's address
$row = CudaArray::ones([4, 8]);
$c3->launch('scale<float>', 1, 8, [$row->slice('1:2'), 5.0, 8]);
echo fmt($row->sum(1)->toArray()), "\n";
$c = $c2 = $c3 = null;   // unloads the modules
echo "done\n";
?>
--EXPECT--
saxpy axpy64 iota
bool(true)
bool(true)
cuda:0 float32 [1000000] saxpy maxdiff<1e-6: true
int scalar: true
axpy64: true
iota: [-10,-13,-16,-19,-22]
2-D: true
3-D: [230,231,232,233,234]
ns::one scale<double> scale<float>
[3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0] [0.2,0.2,0.2] [1,1,1,1]
[8.0,40.0,8.0,8.0]
done
