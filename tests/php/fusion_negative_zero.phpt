--TEST--
Cuda\Fusion keeps the sign of a negative zero constant (x * -0.0 in float32 and float64, -0.0 - x): fused bytes equal eager bytes
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$x = new CudaArray([1.0, 2.0, 0.0, -3.0]);
$cases = [
    'x * -0.0' => fn($x) => $x * -0.0,
    '-0.0 * x (float64)' => fn($x) => $x->astype('float64') * -0.0,
    '-0.0 - x' => fn($x) => -0.0 - $x,
    'x * 0.0' => fn($x) => $x * 0.0,
];
foreach ($cases as $name => $f) {
    $eager = $f($x);
    $fused = Fusion::compile($f, [$x])->run($x);
    printf("%-20s %s %s\n", $name, bin2hex($fused->toBuffer()),
        $fused->toBuffer() === $eager->toBuffer() ? 'same' : 'DIFFERENT: ' . bin2hex($eager->toBuffer()));
}
?>
--EXPECT--
x * -0.0             00000080000000800000008000000000 same
-0.0 * x (float64)   0000000000000080000000000000008000000000000000800000000000000000 same
-0.0 - x             000080bf000000c00000008000004040 same
x * 0.0              00000000000000000000000000000080 same
