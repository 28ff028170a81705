--TEST--
Fusion::compile(precision: 'bf16'): a value only cuBLASLt products, sign tests and sums read is stored in bfloat16 (compiler/pass_bf16.c): the plan says so (getPlan()'s gemm_bf16), the products read it as stored, and every backend computes exactly the rounded value (integer data: the bfloat16 rounding is the only inexact step); not when another op reads it, nor with fp32
--ENV--
GTC_GEMM=cublaslt
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;

/* x rounded to bfloat16 (8 significant bits, to nearest, ties to even): exact for these integers */
function bf16(float $v): float {
    if ($v == 0.0) return 0.0;
    $q = 2.0 ** (floor(log(abs($v), 2)) - 7);
    $r = $v / $q;
    $n = round($r, 0, PHP_ROUND_HALF_EVEN);
    return $n * $q;
}
function ints(int $r, int $c, int $lo, int $hi, int $seed): array {
    mt_srand($seed);
    $a = [];
    for ($i = 0; $i < $r; $i++)
        for ($j = 0; $j < $c; $j++) $a[$i][$j] = (float)mt_rand($lo, $hi);
    return $a;
}
function mm(array $a, array $b): array {
    $o = [];
    foreach ($a as $i => $row)
        for ($j = 0, $n = count($b[0]); $j < $n; $j++) {
            $s = 0.0;
            foreach ($row as $k => $v) $s += $v * $b[$k][$j];
            $o[$i][$j] = $s;
        }
    return $o;
}
$M = 48; $K = 40; $H = 32; $N = 24;
$xa = ints($M, $K, -20, 20, 1); $w1a = ints($K, $H, -20, 20, 2); $w2a = ints($H, $N, -3, 3, 3);
$b1a = ints(1, $H, -20, 20, 4)[0];
$x = new CudaArray($xa); $w1 = new CudaArray($w1a); $b1 = new CudaArray($b1a); $w2 = new CudaArray($w2a);

// h = relu(x w1 + b1) (integers of a few thousand: most are not bfloat16 numbers); what the products see
$h = mm($xa, $w1a);
foreach ($h as $i => $row) foreach ($row as $j => $v) $h[$i][$j] = max($v + $b1a[$j], 0.0);
$h16 = array_map(fn($row) => array_map('bf16', $row), $h);
$rounded = 0;
foreach ($h as $i => $row) foreach ($row as $j => $v) $rounded += $v != $h16[$i][$j];
echo "elements of h that bfloat16 rounds: ", $rounded > 100 ? 'many' : $rounded, "\n";
$exact = mm($h, $w2a);
$want = mm($h16, $w2a);

function same(CudaArray $got, array $want): string {
    $g = $got->toHost()->toArray();
    $bad = 0;
    foreach ($want as $i => $row) foreach ($row as $j => $v) $bad += $g[$i][$j] != $v;
    return $bad ? "$bad elements differ" : 'exactly';
}
/* the cuBLASLt steps' bfloat16 operands and products (getPlan()'s gemm_bf16), and the bfloat16 values written */
function plan_says(object $g): string {
    $s = [];
    foreach ($g->getPlan() as $st) {
        if (isset($st['gemm_bf16'])) $s[] = $st['gemm_bf16'] === '' ? '-' : $st['gemm_bf16'];
        foreach ($st['writes'] as $w) if (str_ends_with($w, '_bf16')) $s[] = "writes $w";
    }
    return implode(' ', $s);
}

// the product and relu's sign test read h: both from its bfloat16 copy
$fn = fn($x, $w1, $b1, $w2) => ($h = $x->matmul($w1)->add($b1)->relu())->matmul($w2)
    ->add($h->gt(0.0)->astype('float32')->sum(1, true));
$zeros = []; /* the positive elements of each row of h */
foreach ($h as $i => $row) $zeros[$i] = count(array_filter($row, fn($v) => $v > 0.0));
$want2 = $want;
foreach ($want2 as $i => $row) foreach ($row as $j => $v) $want2[$i][$j] = $v + $zeros[$i];
$g = Fusion::compile($fn, [$x, $w1, $b1, $w2], precision: 'bf16');
echo "bf16: ", plan_says($g), "\n";
echo "bf16: result is the rounded h times w2, ", same($g->run($x, $w1, $b1, $w2), $want2), "\n";

// fp32: h as computed
$g = Fusion::compile($fn, [$x, $w1, $b1, $w2], precision: 'fp32');
$want3 = $exact;
foreach ($want3 as $i => $row) foreach ($row as $j => $v) $want3[$i][$j] = $v + $zeros[$i];
echo "fp32: ", plan_says($g), "; result ", same($g->run($x, $w1, $b1, $w2), $want3), "\n";

// a sum of h reads the rounded values too (as autocast's bias gradient of a bf16 gradient)
$fn2 = fn($x, $w1, $b1, $w2) => ($h = $x->matmul($w1)->add($b1)->relu())->matmul($w2)->add($h->sum(1, true));
$want4 = $want;
foreach ($want4 as $i => $row) foreach ($row as $j => $v) $want4[$i][$j] = $v + array_sum($h16[$i]);
$g = Fusion::compile($fn2, [$x, $w1, $b1, $w2], precision: 'bf16');
echo "bf16 with h summed: ", plan_says($g), "; result ", same($g->run($x, $w1, $b1, $w2), $want4), "\n";
// another reader (h * 2) needs h's float32 value: h stays float32
$fn3 = fn($x, $w1, $b1, $w2) => ($h = $x->matmul($w1)->add($b1)->relu())->matmul($w2)->add($h->multiply(2.0)->sum(1, true));
$g = Fusion::compile($fn3, [$x, $w1, $b1, $w2], precision: 'bf16');
echo "bf16 with h doubled: ", plan_says($g), "\n";
?>
--EXPECT--
elements of h that bfloat16 rounds: many
bf16: D writes t2_bf16 A
bf16: result is the rounded h times w2, exactly
fp32: - -; result exactly
bf16 with h summed: D writes t2_bf16 A; result exactly
bf16 with h doubled: - -
