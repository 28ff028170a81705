--TEST--
CudaArray::where with a condition that is not bool: nonzero means true (NumPy's truthiness; NaN is nonzero), in every dtype, eager and traced alike; empty arrays
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$x = new CudaArray([1, 2, 3, 4]);
$y = new CudaArray([-1, -2, -3, -4]);
foreach (['float32' => [0.0, 0.5, -0.0, NAN], 'int8' => [0, 3, 0, -1], 'uint64' => [0, 1, 0, 7], 'bool' => [false, true, false, true]] as $dt => $c) {
    $cond = new CudaArray($c, $dt);
    $eager = CudaArray::where($cond, $x, $y);
    $fused = Fusion::compile(fn($c, $a, $b) => CudaArray::where($c, $a, $b), [$cond, $x, $y])->run($cond, $x, $y);
    printf("%-7s %s %s\n", $dt, json_encode($eager->toArray()), $eager->toBuffer() === $fused->toBuffer() ? 'same fused' : 'DIFFERENT');
}
echo json_encode(CudaArray::where(new CudaArray([[2.0], [0.0]]), 1, 0)->toArray()), "\n"; // broadcasting
$e = CudaArray::zeros([0, 3]);
echo json_encode(CudaArray::where($e, $e, $e)->getShape()), "\n";
?>
--EXPECT--
float32 [-1,2,-3,4] same fused
int8    [-1,2,-3,4] same fused
uint64  [-1,2,-3,4] same fused
bool    [-1,2,-3,4] same fused
[[1],[0]]
[0,3]
