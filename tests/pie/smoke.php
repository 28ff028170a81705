<?php
// tests/pie/smoke.php: Cuda\Fusion::compile with the PIE-built gtc.so (tests/pie/run.sh runs it
// with GTC_CACHE_DIR set to an empty directory): a closure with a GEMM, an elementwise epilogue
// and a reduction, compiled by the C compiler (not the eager fallback) and run; the result is
// checked against numbers worked out by hand. Prints "smoke: ok" or throws / exits 1.
use Cuda\CudaArray;
use Cuda\Fusion;

$g = Fusion::compile(
    fn($x, $w, $b) => ['y' => $x->matmul($w) + $b, 's' => ($x * 2.0)->sum()],
    ['x' => [[2, 3], 'float32'], 'w' => [[3, 2], 'float32'], 'b' => [[2], 'float32']]
);
$x = new CudaArray([[1, 2, 3], [4, 5, 6]]);
$w = new CudaArray([[1, 0], [0, 1], [1, 1]]);
$b = new CudaArray([10, 20]);
$out = $g->run($x, $w, $b);
$y = $out['y']->toArray();
$s = $out['s']->item();
$kernels = $g->getStats()['kernels'];
$want = [[14.0, 25.0], [20.0, 31.0]];
$ok = $y == $want && abs($s - 42.0) < 1e-4 && $kernels === 'cc';
echo "smoke: y=", json_encode($y), " s=$s kernels=$kernels\n";
if (!$ok) {
    echo "smoke: FAIL (want y=", json_encode($want), " s=42 kernels=cc)\n";
    exit(1);
}
echo "smoke: ok\n";
