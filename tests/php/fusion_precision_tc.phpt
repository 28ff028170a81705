--TEST--
Fusion::compile(precision: tf32|bf16): products under the cuBLASLt threshold run in gtc's tiled kernel on TF32 tensor cores (mma.sync; on a CUDA device) where the tile splits into m16n8 tiles: every operand layout (A @ B, A^T @ B, A @ B^T) and ragged sizes within tf32's bound of the exact product, the epilogue fused; the plan's reason says so (on the CPU backend too: it describes the CUDA lowering; the CPU computes exactly); small tiles stay exact
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
// 400 x 300 outputs: 130 tiles of 32x32 (the tile gtc picks), K = 200 (not a multiple of 64)
$x = CudaArray::rand([400, 200], 1)->subtract(0.5);
$w = CudaArray::rand([200, 300], 2)->subtract(0.5);
$xt = CudaArray::rand([200, 400], 3)->subtract(0.5);
$wt = CudaArray::rand([300, 200], 4)->subtract(0.5);
$b = CudaArray::rand([300], 5);
$cases = [
    'A @ B + b, relu' => [fn($x, $w, $b) => $x->matmul($w)->add($b)->relu(), [$x, $w, $b]],
    'A^T @ B * 2' => [fn($x, $w) => $x->transpose([1, 0])->matmul($w)->multiply(2.0), [$xt, $w]],
    'A @ B^T - 1' => [fn($x, $w) => $x->matmul($w->transpose([1, 0]))->subtract(1.0), [$x, $wt]],
];
foreach ($cases as $name => [$fn, $args]) {
    $ref = Fusion::compile($fn, $args)->run(...$args)->toArray();
    foreach (['tf32' => 5e-3, 'bf16' => 5e-3] as $p => $bound) {
        $g = Fusion::compile($fn, $args, precision: $p);
        $out = $g->run(...$args)->toArray();
        $err = $mx = 0.0;
        foreach ($out as $i => $row) foreach ($row as $j => $v) {
            $err = max($err, abs($v - $ref[$i][$j]));
            $mx = max($mx, abs($ref[$i][$j]));
        }
        $plan = json_encode($g->getPlan());
        echo str_pad("$name, $p:", 26), ' within bound ', $err / $mx <= $bound ? 'yes' : "NO ($err / $mx)",
            '; tensor cores ', str_contains($plan, 'on TF32 tensor cores') ? 'yes' : 'no', "\n";
    }
}
// exact in fp32; a product of 16x16 tiles (64 x 64 x 64) stays exact in tf32 too
$s = CudaArray::rand([64, 64], 6);
foreach (['fp32' => [$x, $w], 'tf32' => [$s, $s]] as $p => $args) {
    $plan = json_encode(Fusion::compile(fn($a, $c) => $a->matmul($c), $args, precision: $p)->getPlan());
    echo "$p ", json_encode($args[0]->getShape()), ': tensor cores ', str_contains($plan, 'on TF32 tensor cores') ? 'yes' : 'no', "\n";
}
?>
--EXPECT--
A @ B + b, relu, tf32:     within bound yes; tensor cores yes
A @ B + b, relu, bf16:     within bound yes; tensor cores yes
A^T @ B * 2, tf32:         within bound yes; tensor cores yes
A^T @ B * 2, bf16:         within bound yes; tensor cores yes
A @ B^T - 1, tf32:         within bound yes; tensor cores yes
A @ B^T - 1, bf16:         within bound yes; tensor cores yes
fp32 [400,200]: tensor cores no
tf32 [64,64]: tensor cores no
