<?php
/*
 * bench/cpu_gemm.php: eager float32 matmul on the CPU backend, one line per product (issue #26,
 * docs/cpu.md "Small products"): the products that the MLP, digits-inference and CNN rows of
 * bench/cpu.sh are made of, through the one GEMM call (templates/kernels_cpu_gemm.h: gtc's own
 * kernel below GTC_CPU_SGEMM_OWN_MAX multiply-adds, OpenBLAS above).
 *
 *   GTC_DEVICE=cpu GTC_CPU_THREADS=1 php -n -d extension=build/gtc.so bench/cpu_gemm.php \
 *       [--reps=5] [--ms=200] [--only=SUBSTRING]
 *
 * A product is m x n x k (c[m, n] = a[m, k] b[k, n]); "ta" makes a a transposed view of a
 * [k, m] tensor, "tb" b one of [n, k] (as autograd's gradients are; eager matmul copies such a
 * view before the product). Per product: warm-up, then --reps intervals of at least --ms
 * milliseconds of calls, each ending with one element read back; the best interval's time per
 * call is printed in microseconds, with GFLOP/s = 2 m n k / time. Compare with PyTorch's
 * `a @ b` on the same shapes (torch.set_num_threads(1)), or with OpenBLAS by building gtc.so
 * from main.
 */
use Cuda\CudaArray;

$opt = ['reps' => '5', 'ms' => '200', 'only' => ''];
foreach (array_slice($argv, 1) as $arg) {
    if (!preg_match('/^--(reps|ms|only)=(.*)$/', $arg, $mm)) {
        fwrite(STDERR, "usage: cpu_gemm.php [--reps=5] [--ms=200] [--only=SUBSTRING]\n");
        exit(2);
    }
    $opt[$mm[1]] = $mm[2];
}
$reps = max(1, (int)$opt['reps']);
$ms = max(1, (int)$opt['ms']);

// [name, m, n, k, ta, tb]
$shapes = [
    ['mlp2 480-256 b512 fwd', 512, 256, 480, 0, 0],
    ['mlp2 480-256 b512 dW (ta)', 480, 256, 512, 1, 0],
    ['mlp1/infer 64-64 b256', 256, 64, 64, 0, 0],
    ['infer 64-10 b256', 256, 10, 64, 0, 0],
    ['infer 64-64 b1', 1, 64, 64, 0, 0],
    ['mlp3 784-1024 b1024 fwd', 1024, 1024, 784, 0, 0],
    ['1024^3', 1024, 1024, 1024, 0, 0],
    ['cnn conv1 fwd (im2col)', 16, 16384, 9, 0, 0],
    ['cnn conv1 dW', 16, 9, 16384, 0, 1],
    ['cnn conv2 fwd (im2col)', 32, 4096, 144, 0, 0],
    ['cnn conv2 dW', 32, 144, 4096, 0, 1],
    ['cnn conv2 dX', 144, 4096, 32, 1, 0],
    ['cnn fc fwd', 256, 10, 128, 0, 0],
    ['cnn fc dX', 256, 128, 10, 0, 1],
    ['cnn fc dW', 128, 10, 256, 1, 0],
];

printf("# threads: %s (GTC_CPU_THREADS), device %s, best of %d intervals of >= %d ms\n",
       getenv('GTC_CPU_THREADS') ?: '(default)', CudaArray::zeros([1])->device(), $reps, $ms);
printf("%-28s %16s %5s %10s %9s\n", 'product', 'm x n x k', 'trans', 'us', 'GFLOP/s');
foreach ($shapes as $i => [$name, $m, $n, $k, $ta, $tb]) {
    if ($opt['only'] !== '' && !str_contains($name, $opt['only'])) continue;
    $a = $ta ? CudaArray::randn([$k, $m], 10 + $i)->transpose() : CudaArray::randn([$m, $k], 10 + $i);
    $b = $tb ? CudaArray::randn([$n, $k], 50 + $i)->transpose() : CudaArray::randn([$k, $n], 50 + $i);
    $c = $a->matmul($b);
    $c->reshape([-1])->slice('0')->item(); // warm-up
    $best = INF;
    for ($r = 0; $r < $reps; $r++) {
        $calls = 0;
        $t0 = hrtime(true);
        do {
            $c = $a->matmul($b);
            $calls++;
            $c->reshape([-1])->slice('0')->item();
            $dt = hrtime(true) - $t0;
        } while ($dt < $ms * 1e6);
        $best = min($best, $dt * 1e-3 / $calls);
    }
    printf("%-28s %16s %5s %10.1f %9.1f\n", $name, "{$m}x{$n}x{$k}", ($ta ? 'a' : '-') . ($tb ? 'b' : '-'), $best,
           2.0 * $m * $n * $k / ($best * 1e3));
}
