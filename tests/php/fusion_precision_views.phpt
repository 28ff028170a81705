--TEST--
Fusion::compile(precision: 'tf32'): a cuBLASLt product whose input is a view starting 4 bytes into its allocation (aligned to its element only), between runs on aligned inputs: cuBLASLt's algorithm for unaligned operands, the plan's graph rebuilt when its shape changes; every run within tf32's bound of the exact product
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$flat = CudaArray::rand([512 * 513 + 1], 7)->subtract(0.5);
$view = $flat->slice([1, 512 * 513 + 1])->reshape([512, 513]);     // starts at element 1
$copy = $view->add(0.0);                                            // the same values, a tensor of its own
$w = CudaArray::rand([513, 512], 8)->subtract(0.5);
$fn = fn($x, $w) => $x->matmul($w);
$exact = Fusion::compile($fn, [$copy, $w])->run($copy, $w)->toArray();
$mx = 0.0;
foreach ($exact as $row) foreach ($row as $v) $mx = max($mx, abs($v));
$g = Fusion::compile($fn, [$copy, $w], precision: 'tf32');
foreach (['aligned' => $copy, 'view' => $view, 'aligned again' => $copy, 'view again' => $view] as $k => $x) {
    $out = $g->run($x, $w)->toArray();
    $err = 0.0;
    foreach ($out as $i => $row) foreach ($row as $j => $v) $err = max($err, abs($v - $exact[$i][$j]));
    echo "$k: within bound ", $err / $mx <= 5e-3 ? 'yes' : "NO ($err / $mx)", "\n";
}
echo $g->getPlan()[0]['gemm'] ?? $g->getPlan()[1]['gemm'], "\n";
?>
--EXPECT--
aligned: within bound yes
view: within bound yes
aligned again: within bound yes
view again: within bound yes
cuBLASLt tf32
