<?php
/*
 * bench/eager.php: eager-op latency and bandwidth of Cuda\CudaArray, seen from PHP.
 *
 *   php -n -d extension=build/gtc.so bench/eager.php [--n-small=2000] [--n-large=50]
 *       [--reps=11] [--big=33554432] [--sizes=64,512]
 *
 * Prints one JSON object per line (per measurement) on stdout; bench/eager.sh merges these with
 * bench/eager_torch.py's lines into one table.
 *
 * Method, for every measurement: tensors are made once (random data, never zeros); the op is
 * warmed up; then each repeat times a loop of N calls followed by ONE synchronising read of one
 * element of the last result (item() downloads through cudaMemcpyAsync + cudaStreamSynchronize
 * on the context's only stream, so it waits for every op queued before it). The value reported
 * is the median over the repeats of (loop + sync) / N. Small ops report microseconds per call;
 * large ops report GB/s = (bytes read + bytes written) / time per call.
 */

$opt = ['n-small' => 2000, 'n-large' => 50, 'reps' => 11, 'big' => 32 * 1024 * 1024, 'sizes' => '64,512'];
foreach (array_slice($argv, 1) as $arg) {
    if (!preg_match('/^--([a-z-]+)=(.*)$/', $arg, $m) || !array_key_exists($m[1], $opt)) {
        fwrite(STDERR, "usage: eager.php [--n-small=N] [--n-large=N] [--reps=R] [--big=ELEMS] [--sizes=64,512]\n");
        exit(2);
    }
    $opt[$m[1]] = $m[1] === 'sizes' ? $m[2] : (int)$m[2];
}
$reps = max(1, $opt['reps']);

use Cuda\CudaArray;

/* Forces completion of everything queued: reads one element of $t back to the host. */
function sync_on(CudaArray $t): float {
    if ($t->getSize() === 1) return (float)$t->reshape([])->item();
    return (float)$t->reshape([-1])->slice('0')->item();
}

function median(array $v): float {
    sort($v);
    $n = count($v);
    return $n % 2 ? $v[intdiv($n, 2)] : ($v[$n / 2 - 1] + $v[$n / 2]) / 2;
}

/* Runs $f ($n calls, returning the last result) $reps times after a warm-up; returns seconds
 * per call for each repeat. */
function time_per_call(callable $f, int $n, int $reps, int $warm): array {
    sync_on($f($warm));
    $out = [];
    for ($r = 0; $r < $reps; $r++) {
        $t0 = hrtime(true);
        $last = $f($n);
        sync_on($last);
        $t1 = hrtime(true);
        unset($last);
        $out[] = ($t1 - $t0) * 1e-9 / $n;
    }
    return $out;
}

function emit(array $row): void {
    echo json_encode($row, JSON_UNESCAPED_SLASHES), "\n";
}

$probe = CudaArray::rand([2], 1);
$device = $probe->device();
$common = ['impl' => 'gtc', 'device' => $device, 'reps' => $reps];

/* ---- small ops: latency per call ------------------------------------------------------------- */
$n = max(1, $opt['n-small']);
foreach (array_map('intval', explode(',', $opt['sizes'])) as $s) {
    $a = CudaArray::rand([$s, $s], 11);
    $b = CudaArray::rand([$s, $s], 12);
    $ops = [
        /* A view only: no kernel, no device memory. The floor of a call through PHP + runtime. */
        'view' => function (int $k) use ($a, $s) { for ($i = 0; $i < $k; $i++) $c = $a->reshape([$s * $s]); return $c; },
        'add' => function (int $k) use ($a, $b) { for ($i = 0; $i < $k; $i++) $c = $a->add($b); return $c; },
        'multiply' => function (int $k) use ($a, $b) { for ($i = 0; $i < $k; $i++) $c = $a->multiply($b); return $c; },
        'sum' => function (int $k) use ($a) { for ($i = 0; $i < $k; $i++) $c = $a->sum(); return $c; },
        'matmul' => function (int $k) use ($a, $b) { for ($i = 0; $i < $k; $i++) $c = $a->matmul($b); return $c; },
    ];
    foreach ($ops as $name => $f) {
        $v = time_per_call($f, $n, $reps, min($n, 200));
        $us = array_map(fn($x) => $x * 1e6, $v);
        emit($common + ['kind' => 'latency', 'op' => $name, 'size' => "{$s}x{$s}", 'n' => $n,
                        'unit' => 'us', 'value' => round(median($us), 3),
                        'min' => round(min($us), 3), 'max' => round(max($us), 3)]);
    }
    unset($a, $b);
}

/* ---- large ops: bandwidth ------------------------------------------------------------------- */
$n = max(1, $opt['n-large']);
$big = max(1, $opt['big']);
$rows = 4096;
while ($rows > 1 && $big % $rows) $rows >>= 1;
$cols = intdiv($big, $rows);
$a = CudaArray::rand([$rows, $cols], 21);
$b = CudaArray::rand([$rows, $cols], 22);
$at = $a->transpose();                    /* a strided view, [cols, rows] */
$f4 = 4;
$notes = ['add' => 'c = a + b', 'multiply' => 'c = a * b',
          'copy' => 'a->astype(float32): new array, one D2D cudaMemcpyAsync',
          'copy_transpose' => 'a->transpose()->reshape([-1]): strided copy kernel'];
$ops = [
    /* out = a + b: reads 2, writes 1 */
    'add' => [3 * $f4 * $big, function (int $k) use ($a, $b) { for ($i = 0; $i < $k; $i++) $c = $a->add($b); return $c; }],
    'multiply' => [3 * $f4 * $big, function (int $k) use ($a, $b) { for ($i = 0; $i < $k; $i++) $c = $a->multiply($b); return $c; }],
    /* astype to the same dtype of a contiguous array: a new array filled by one device-to-device
     * cudaMemcpyAsync (runtime/cuda/cuda_elementwise.cu copy_shape). Reads 1, writes 1. */
    'copy' => [2 * $f4 * $big, function (int $k) use ($a) { for ($i = 0; $i < $k; $i++) $c = $a->astype('float32'); return $c; }],
    /* reshape of a transposed view cannot be a view: the runtime's strided copy kernel gathers
     * it. Reads 1, writes 1; one side is read with a stride of `rows` elements. */
    'copy_transpose' => [2 * $f4 * $big, function (int $k) use ($at, $big) { for ($i = 0; $i < $k; $i++) $c = $at->reshape([$big]); return $c; }],
];
foreach ($ops as $name => [$bytes, $f]) {
    $v = time_per_call($f, $n, $reps, min($n, 5));
    $gbs = array_map(fn($x) => $bytes / $x * 1e-9, $v);
    emit($common + ['kind' => 'bandwidth', 'op' => $name, 'note' => $notes[$name], 'size' => (string)$big, 'shape' => "{$rows}x{$cols}",
                    'n' => $n, 'bytes_per_call' => $bytes, 'unit' => 'GB/s', 'value' => round(median($gbs), 2),
                    'min' => round(min($gbs), 2), 'max' => round(max($gbs), 2),
                    'us_per_call' => round(median($v) * 1e6, 2)]);
}
