--TEST--
matmul: a product does not depend on its operands' layout: transposed, sliced and batched views give bitwise what their contiguous copies give (OpenBLAS's transposed kernels rounded differently; found by tests/fuzz/fuzz_runtime.c)
--SKIPIF--
<?php
// The CPU backend's promise: cuBLAS's transposed kernels are used as they are (runtime/cuda/cuda_matmul.cu)
if (str_starts_with(Cuda\CudaArray::zeros([1])->device(), 'cuda')) die('skip CPU backend only: on CUDA a transposed view goes to cuBLAS as is');
?>
--FILE--
<?php
use Cuda\CudaArray;
$bad = 0;
foreach (['float32', 'float64'] as $dt) {
    foreach ([[40, 2, 7], [37, 6, 33], [34, 40, 64], [5, 3, 4], [64, 48, 17]] as $i => [$m, $k, $n]) {
        $a = CudaArray::randn([$k, $m], 10 + $i, $dt)->transpose();      // [m, k], column-major
        $b = CudaArray::randn([$n, $k], 20 + $i, $dt)->transpose();      // [k, n], column-major
        $bc = $b->contiguous();
        $bad += $a->matmul($bc)->toBuffer() !== $a->contiguous()->matmul($bc)->toBuffer();
        $bad += $a->contiguous()->matmul($b)->toBuffer() !== $a->contiguous()->matmul($bc)->toBuffer();
        $bad += $a->matmul($b)->toBuffer() !== $a->contiguous()->matmul($bc)->toBuffer();
        $s = CudaArray::randn([6, $m, $k], 30 + $i, $dt)->slice('::2');  // a batch of every other matrix
        $bad += $s->matmul($bc)->toBuffer() !== $s->contiguous()->matmul($bc)->toBuffer();
        $r = CudaArray::randn([$m, 2 * $k], 40 + $i, $dt)->slice(null, '::-2'); // negative column stride
        $bad += $r->matmul($bc)->toBuffer() !== $r->contiguous()->matmul($bc)->toBuffer();
    }
}
echo "mismatches: $bad\n";
?>
--EXPECT--
mismatches: 0
