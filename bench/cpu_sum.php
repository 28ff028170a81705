<?php
/*
 * bench/cpu_sum.php: eager float32 reductions on the CPU backend over 16M floats (issue #26's
 * blocked sums, docs/cpu.md): the sum and the mean of a flat [16M], the row sums ->sum(1) and the
 * column sums ->sum(0) of a [4096, 4096].
 *
 *   GTC_DEVICE=cpu GTC_CPU_THREADS=1 php -n -d extension=build/gtc.so bench/cpu_sum.php [--reps=15]
 *
 * One JSON line per op: milliseconds per call, the minimum and median of the repeats (one call
 * each, after a warm-up), and the result's first value (the same data every run: randn seed 1).
 */
use Cuda\CudaArray;

$reps = 15;
foreach (array_slice($argv, 1) as $arg) {
    if (!preg_match('/^--reps=(\d+)$/', $arg, $m)) {
        fwrite(STDERR, "usage: cpu_sum.php [--reps=N]\n");
        exit(2);
    }
    $reps = max(1, (int)$m[1]);
}
$flat = CudaArray::randn([16777216], 1);
$sq = $flat->reshape([4096, 4096]);
$ops = [
    'sum [16M]' => fn() => $flat->sum(),
    'mean [16M]' => fn() => $flat->mean(),
    'sum(1) [4096,4096]' => fn() => $sq->sum(1),
    'sum(0) [4096,4096]' => fn() => $sq->sum(0),
];
foreach ($ops as $name => $f) {
    $r = $f();
    $ts = [];
    for ($i = 0; $i < $reps; $i++) {
        $t0 = hrtime(true);
        $r = $f();
        $ts[] = (hrtime(true) - $t0) / 1e6;
    }
    sort($ts);
    $v = $r->toArray();
    while (is_array($v)) $v = $v[0];
    echo json_encode(['op' => $name, 'ms_min' => round($ts[0], 3), 'ms_median' => round($ts[intdiv($reps, 2)], 3),
                      'first' => $v, 'threads' => getenv('GTC_CPU_THREADS') ?: 'auto']), "\n";
}
