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
 * call is printed in microseconds, with GFLOP/s = 2 m n k / time. The products are
 * bench/cpu_gemm_shapes.json's; bench/cpu_gemm_torch.py times PyTorch's `a @ b` on them the same
 * way; OpenBLAS's side is main's gtc.so (before gtc's own kernel) running this script.
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

// [name, m, n, k, ta, tb]: shared with bench/cpu_gemm_torch.py
$shapes = json_decode(file_get_contents(__DIR__ . '/cpu_gemm_shapes.json'), true);

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
