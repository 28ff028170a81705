--TEST--
Fusion::compile(precision:): fp32 (exact), tf32 and bf16 products (cuBLASLt on a CUDA device of compute capability 8.0+, the CPU computes them exact); the plan says which GEMM form each product took; results within the documented bounds of fp32; bad precisions
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$a = CudaArray::rand([512, 512], 1)->subtract(0.5);
$b = CudaArray::rand([512, 512], 2)->subtract(0.5);
$fn = fn($x, $w) => $x->matmul($w)->relu();
$ref = Fusion::compile($fn, [$a, $b])->run($a, $b);
$refv = $ref->toArray();
$max = 0.0;
foreach ($refv as $row) foreach ($row as $v) $max = max($max, abs($v));
// bounds relative to the largest element: tf32 rounds operands to 10-bit mantissas, bf16 to 7
foreach (['fp32' => 1e-6, 'tf32' => 5e-3, 'high' => 5e-3, 'bf16' => 3e-2, 'medium' => 3e-2] as $p => $bound) {
    $g = Fusion::compile($fn, [$a, $b], precision: $p);
    $out = $g->run($a, $b)->toArray();
    $err = 0.0;
    foreach ($out as $i => $row) foreach ($row as $j => $v) $err = max($err, abs($v - $refv[$i][$j]));
    $plan = json_encode($g->getPlan());
    $blas = str_contains($plan, 'cuBLASLt');
    $onGpu = (getenv('GTC_DEVICE') ?: 'cpu') !== 'cpu';
    echo "$p: within bound ", $err / $max <= $bound ? 'yes' : "NO ($err / $max)", '; form ',
        $blas === ($p !== 'fp32') ? 'as expected' : 'UNEXPECTED', "\n";
}
// a batch of products against one broadcast weight (cuBLASLt's strided batch, B's stride 0) and
// a transposed operand: each within its bound of the exact product
$xb = CudaArray::rand([8, 256, 256], 3)->subtract(0.5);
$wb = CudaArray::rand([256, 256], 4)->subtract(0.5);
$fb = fn($x, $w) => $x->matmul($w->transpose([1, 0]))->multiply(2.0);
$refb = Fusion::compile($fb, [$xb, $wb])->run($xb, $wb)->toArray();
foreach (['fp32' => 1e-6, 'tf32' => 5e-3, 'bf16' => 3e-2] as $p => $bound) {
    $out = Fusion::compile($fb, [$xb, $wb], precision: $p)->run($xb, $wb)->toArray();
    $err = $mx = 0.0;
    foreach ($out as $z => $m) foreach ($m as $i => $row) foreach ($row as $j => $v) {
        $err = max($err, abs($v - $refb[$z][$i][$j]));
        $mx = max($mx, abs($refb[$z][$i][$j]));
    }
    echo "batched $p: within bound ", $err / $mx <= $bound ? 'yes' : "NO ($err / $mx)", "\n";
}
// A^T B (a weight gradient's form; with tensor cores A is staged transposed first), 512 x 768 x 640
$xa = CudaArray::rand([640, 512], 5)->subtract(0.5);
$wa = CudaArray::rand([640, 768], 6)->subtract(0.5);
$ft = fn($x, $w) => $x->transpose([1, 0])->matmul($w);
$reft = Fusion::compile($ft, [$xa, $wa])->run($xa, $wa)->toArray();
foreach (['fp32' => 1e-6, 'tf32' => 5e-3, 'bf16' => 3e-2] as $p => $bound) {
    $out = Fusion::compile($ft, [$xa, $wa], precision: $p)->run($xa, $wa)->toArray();
    $err = $mx = 0.0;
    foreach ($out as $i => $row) foreach ($row as $j => $v) {
        $err = max($err, abs($v - $reft[$i][$j]));
        $mx = max($mx, abs($reft[$i][$j]));
    }
    echo "A^T B $p: within bound ", $err / $mx <= $bound ? 'yes' : "NO ($err / $mx)", ', ', count($out), 'x', count($out[0]), "\n";
}
foreach (['fp16', '', "tf32\0x", 'TF32'] as $bad) {
    try {
        Fusion::compile($fn, [$a, $b], precision: $bad);
        echo "no error\n";
    } catch (\ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
fp32: within bound yes; form as expected
tf32: within bound yes; form as expected
high: within bound yes; form as expected
bf16: within bound yes; form as expected
medium: within bound yes; form as expected
batched fp32: within bound yes
batched tf32: within bound yes
batched bf16: within bound yes
A^T B fp32: within bound yes, 512x768
A^T B tf32: within bound yes, 512x768
A^T B bf16: within bound yes, 512x768
ValueError: Cuda\Fusion::compile(): Argument #6 ($precision) 'fp16' is not a precision (fp32, tf32 or bf16; or highest, high, medium)
ValueError: Cuda\Fusion::compile(): Argument #6 ($precision) '' is not a precision (fp32, tf32 or bf16; or highest, high, medium)
ValueError: Cuda\Fusion::compile(): Argument #6 ($precision) must not contain any null bytes
ValueError: Cuda\Fusion::compile(): Argument #6 ($precision) 'TF32' is not a precision (fp32, tf32 or bf16; or highest, high, medium)
