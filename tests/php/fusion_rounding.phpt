--TEST--
Cuda\Fusion rounds after every op as eager ops do: a + b * c is never contracted into one fused multiply-add (a case where FMA would differ), in float32 and float64, on whichever backend runs it; products (matmul) still agree
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
foreach (['float32' => 2 ** -23, 'float64' => 2 ** -52] as $dt => $eps) {
    // b * c = 1 - eps^2 rounds to 1: a + b * c is 0 op by op, -eps^2 with a fused multiply-add
    $a = CudaArray::full([4], -1.0, $dt);
    $b = CudaArray::full([4], 1.0 + $eps, $dt);
    $c = CudaArray::full([4], 1.0 - $eps, $dt);
    $eager = $a + $b * $c;
    $fused = Fusion::compile(fn($a, $b, $c) => $a + $b * $c, [$a, $b, $c])->run($a, $b, $c);
    $run = Fusion::run(fn() => $b * $c - 1.0 + $a * 0.0);
    printf("%s: eager %s, fused %s, run %s, same bytes: %s\n", $dt, json_encode($eager->toArray()[0]),
        json_encode($fused->toArray()[0]), json_encode($run->toArray()[0]),
        var_export($eager->toBuffer() === $fused->toBuffer(), true));
    // a chain of mul-adds (x * w + b) * v + d in one kernel
    $x = CudaArray::rand([64], 3)->astype($dt) + 0.5;
    $f = fn($x) => ($x * 1.1 + 0.3) * $x + 0.7;
    var_dump($f($x)->toBuffer() === Fusion::compile($f, [$x])->run($x)->toBuffer());
}
// a product inside a fused step keeps agreeing with the eager product (to rounding)
$m = CudaArray::rand([16, 32], 5) - 0.5;
$w = CudaArray::rand([32, 8], 6) - 0.5;
$g = fn($m, $w) => ($m->matmul($w) + 1.0)->relu();
$d = ($g($m, $w) - Fusion::compile($g, [$m, $w])->run($m, $w))->abs()->max()->item();
var_dump($d < 1e-5);
?>
--EXPECT--
float32: eager 0, fused 0, run 0, same bytes: true
bool(true)
float64: eager 0, fused 0, run 0, same bytes: true
bool(true)
bool(true)
