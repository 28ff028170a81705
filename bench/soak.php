<?php
/*
 * bench/soak.php: a memory soak. Many replays of a compiled training step, each fed new input
 * tensors, then many eager CudaArray ops; a table of memory after warm-up and at every 10%, and
 * the growth from warm-up to the end. Memory that grows after warm-up is a leak.
 *
 *   php -n -d extension=build/gtc.so -d extension=build/bench/train_step.so bench/soak.php
 *   options: [--replays=100000] [--eager=100000] [--warmup=N] (per phase; default 1% of the
 *            phase, at least 100, at most 1000) [--sync=100] (replays between synchronising reads)
 *            [--max-php-growth=16384] [--max-alloc-growth=0] [--max-reserved-growth=1048576]
 *            (bytes above the warm-up row that any later row may show)
 *            [--leak=1] (a test hook: every eager result is kept alive, so the check must fail)
 *
 * Replays: the one model extension loaded (gtc_<graph>, e.g. MlpTrainStep from
 * examples/train_step.json); its donated inputs (the parameters) are made once and updated in
 * place; every other tensor input is a new CudaArray each replay, from one of four host buffers
 * (CudaArray::fromBuffer, as a data loader would); rank-0 inputs are numbers (lr 0.001). Eager:
 * a fixed rotation of add, matmul, sum (+ item()), a slicing view, astype, an expression whose
 * temporaries die inside it, construction from PHP arrays, and a failing op (caught) plus a
 * reshape that copies; results go into a 7-slot ring, so lifetimes overlap (emptied at each row,
 * so every row sees the same live arrays).
 *
 * Columns: PHP memory_get_usage(), the process's VmRSS (/proc/self/status), the runtime's
 * allocated bytes (CudaArray::memoryInfo(): live arrays and arenas, what gtc.memory_limit
 * counts), and on CUDA the caching allocator's reserved bytes and the device memory in use
 * (device_total - device_free, every process counted). PHP memory, allocated and reserved are
 * checked against the --max-*-growth slack (RSS and device use are reported only: the C heap
 * and the driver may keep pages); the last line is "soak: PASS ..." or "soak: FAIL ..." (exit 1).
 */
use Cuda\CudaArray;

$opt = ['replays' => 100000, 'eager' => 100000, 'warmup' => -1, 'sync' => 100,
        'max-php-growth' => 16384, 'max-alloc-growth' => 0, 'max-reserved-growth' => 1 << 20, 'leak' => 0];
foreach (array_slice($argv, 1) as $arg) {
    if (!preg_match('/^--([a-z-]+)=(-?[0-9]+)$/', $arg, $m) || !array_key_exists($m[1], $opt)) {
        fwrite(STDERR, "usage: soak.php [--replays=N] [--eager=N] [--warmup=N] [--sync=N] [--max-php-growth=B]"
                     . " [--max-alloc-growth=B] [--max-reserved-growth=B] [--leak=1]\n");
        exit(2);
    }
    $opt[$m[1]] = (int)$m[2];
}
$sync = max(1, $opt['sync']);
$warmupOf = fn(int $n) => $opt['warmup'] >= 0 ? $opt['warmup'] : min(1000, max(100, intdiv($n, 100)));

function rss_kib(): ?int {
    $s = @file_get_contents('/proc/self/status');
    return $s !== false && preg_match('/^VmRSS:\s+(\d+) kB/m', $s, $m) ? (int)$m[1] : null;
}

for ($k = 0; $k < 8; $k++) rss_kib(); // PHP fills small caches on the first few reads of /proc (~1 KiB)

/* One row: PHP memory, RSS (KiB), allocated, reserved, device used (null where not known). */
function sample(): array {
    $i = CudaArray::memoryInfo();
    return [memory_get_usage(), rss_kib(), $i['allocated'], $i['reserved'],
            $i['device_total'] === null ? null : $i['device_total'] - $i['device_free']];
}

$fails = [];
$notes = [];
$growth = [];   // the growth rows, printed after the phases

$mib = fn(?int $v) => $v === null ? '-' : sprintf('%.1f', $v / 1048576);
$int = fn(?int $v) => $v === null ? '-' : number_format($v);
$sgn = fn(?int $v, bool $m = false) => $v === null ? '-' : ($v >= 0 ? '+' : '') . ($m ? sprintf('%.1f', $v / 1048576) : number_format($v));
$hdr = ['phase', 'at', 'iterations', 'seconds', 'PHP memory B', 'RSS KiB', 'allocated B', 'reserved B', 'device used MiB'];
$width = [0, 7, 11, 8, 13, 10, 13, 13, 15];
function line(array $r): string {
    global $width;
    $c = [];
    foreach ($r as $i => $v) $c[] = $i < 2 ? str_pad((string)$v, $width[$i]) : str_pad((string)$v, $width[$i], ' ', STR_PAD_LEFT);
    return implode(' | ', $c) . "\n";
}

/* Runs $step($i) for warm-up + $n iterations; prints a row after warm-up and at every 10% of $n
 * ($syncFn() first: waits for queued GPU work), as it goes. The samples are kept in arrays made
 * before the warm-up row, so recording them allocates nothing. Checks the growth over the
 * warm-up row against the slack. */
function phase(string $name, int $n, int $warm, callable $step, callable $syncFn): void {
    global $fails, $opt, $growth, $int, $mib, $sgn;
    if ($n <= 0) return;
    $val = array_fill(0, 55, null);   // row r, column k at 5 * r + k
    $row = function (int $r) use (&$val, $syncFn, &$t0, $name, $warm, $n, $int, $mib) {
        $syncFn();
        $s = sample();
        $sec = (hrtime(true) - $t0) / 1e9;
        for ($k = 0; $k < 5; $k++) $val[5 * $r + $k] = $s[$k];
        echo line([$name, $r ? 10 * $r . '%' : 'warm-up', number_format($warm + intdiv($r * $n, 10)), sprintf('%.1f', $sec),
                   $int($s[0]), $int($s[1]), $int($s[2]), $int($s[3]), $mib($s[4])]);
    };
    $t0 = hrtime(true);
    for ($i = 0; $i < $warm; $i++) $step($i);
    $row(0);
    $next = 1;
    for ($j = 0; $j < $n; $j++) {
        $step($warm + $j);
        while ($next <= 10 && ($j + 1) * 10 >= $next * $n) $row($next++);
    }
    echo "\n";
    $d = fn(int $k) => $val[$k] === null || $val[50 + $k] === null ? null : $val[50 + $k] - $val[$k];
    $growth[] = [$name, 'growth', '', '', $sgn($d(0)), $sgn($d(1)), $sgn($d(2)), $sgn($d(3)), $sgn($d(4), true)];
    foreach ([0 => ['PHP memory', $opt['max-php-growth']], 2 => ['allocated', $opt['max-alloc-growth']],
              3 => ['reserved', $opt['max-reserved-growth']]] as $k => [$what, $slack]) {
        if ($val[$k] === null) continue;
        $g = max(array_map(fn($r) => $val[5 * $r + $k], range(1, 10))) - $val[$k];
        if ($g > $slack) $fails[] = sprintf('%s: %s grew by %d bytes after warm-up (slack %d)', $name, $what, $g, $slack);
    }
}

/* ---- replays of the compiled step -------------------------------------------------------------- */

$classes = [];
foreach (get_loaded_extensions() as $ext)
    if (str_starts_with($ext, 'gtc_')) $classes = array_merge($classes, (new ReflectionExtension($ext))->getClassNames());
if ($opt['replays'] > 0 && count($classes) !== 1) {
    fwrite(STDERR, "soak.php: load one model extension (-d extension=MODEL.so after gtc.so), or pass --replays=0"
                 . ($classes ? '; loaded: ' . implode(', ', $classes) : '') . "\n");
    exit(2);
}
$device = (new CudaArray([0]))->device();
$width[0] = max(strlen('eager ops'), $opt['replays'] > 0 ? strlen("replay {$classes[0]}") : 0);
echo "soak: device $device, PHP ", PHP_VERSION, ', replays ', number_format($opt['replays']), ', eager ops ',
     number_format($opt['eager']), "\n";
echo line($hdr), implode('-+-', array_map(fn($n) => str_repeat('-', $n), $width)), "\n";
if ($opt['replays'] > 0) {
    $class = $classes[0];
    $model = new $class();
    $in = $data = [];
    $donated = array_filter(array_column($model->outputs(), 'inPlaceOf'));
    $fresh = array_keys(array_filter($model->outputs(), fn($o) => $o['inPlaceOf'] === null));
    foreach ($model->inputs() as $n => $i) {
        $float = in_array($i['dtype'], ['float32', 'float64'], true);
        if ($i['shape'] === []) {
            $in[$n] = $float ? 0.001 : ($i['dtype'] === 'bool' ? true : 1);
        } elseif (in_array($n, $donated, true)) {   // a parameter: made once, updated in place
            $in[$n] = $float ? ((CudaArray::rand($i['shape'], seed: crc32($n)) - 0.5) * 0.1)->astype($i['dtype'], casting: 'unsafe')
                             : CudaArray::zeros($i['shape'], $i['dtype']);
        } else {                                     // data: four host buffers, a new tensor each replay
            for ($k = 0; $k < 4; $k++) {
                $seed = crc32($n) + $k;
                if ($n === 'y' && $float && count($i['shape']) === 2) { // one-hot labels keep the loss sane
                    [$rows, $cls] = $i['shape'];
                    $t = (CudaArray::rand([$rows, 1], seed: $seed) * $cls)->floor()->eq(new CudaArray([range(0, $cls - 1)]));
                } else {
                    $t = $float ? CudaArray::rand($i['shape'], seed: $seed) : CudaArray::rand($i['shape'], seed: $seed, dtype: $i['dtype']);
                }
                $data[$n][$k] = $t->astype($i['dtype'], casting: 'unsafe')->toBuffer();
            }
            $in[$n] = null;
        }
    }
    $shapes = $model->inputs();
    $out = null;
    $first = null;
    $step = function (int $i) use ($model, &$in, $data, $shapes, &$out, $fresh, &$first, $sync) {
        foreach ($data as $n => $bufs) $in[$n] = CudaArray::fromBuffer($bufs[$i & 3], $shapes[$n]['shape'], $shapes[$n]['dtype']);
        $out = $model->run(...$in);
        if ($fresh && ($i + 1) % $sync === 0) {     // bounds the queued GPU work; a no-op wait on the CPU
            $v = $out[$fresh[0]]->sum()->item();
            $first ??= $v;
        }
    };
    $syncFn = function () use (&$out, $fresh) {
        if ($out && $fresh) $out[$fresh[0]]->sum()->item();
    };
    phase("replay $class", $opt['replays'], $warmupOf($opt['replays']), $step, $syncFn);
    $s = $model->getStats();
    $last = $fresh ? $out[$fresh[0]]->sum()->item() : null;
    $notes[] = sprintf('%s: %d replays, backend %s, kernels %s; "%s" first %s, last %s', $class, $s['replays'],
                       $s['backend'], $s['kernels'] ?? '-', $fresh[0] ?? '-', var_export($first, true), var_export($last, true));
    if ($last !== null && !is_finite((float)$last)) $fails[] = "replays: the last \"{$fresh[0]}\" is not finite";
    unset($model, $in, $out, $step, $syncFn);
}

/* ---- eager ops --------------------------------------------------------------------------------- */

if ($opt['eager'] > 0) {
    $a = CudaArray::rand([256, 64], seed: 1);
    $b = CudaArray::rand([256, 64], seed: 2);
    $w = CudaArray::rand([64, 64], seed: 3) - 0.5;
    $ring = array_fill(0, 7, null);
    $checksum = 0.0;
    $kept = [];
    $leak = $opt['leak'] > 0;
    $step = function (int $i) use ($a, $b, $w, &$ring, &$checksum, &$kept, $leak) {
        switch ($i & 7) {
            case 0: $r = $a + $b; break;
            case 1: $r = $a->matmul($w); break;
            case 2: $r = $a->sum(1); $checksum += $r->sum()->item(); break;
            case 3: $r = $a->slice('1:-1, ::2'); break;                 // a view of $a
            case 4: $r = $a->astype('float64'); break;
            case 5: $r = (($a * 0.5 - $b) / 2.0)->relu(); break;        // temporaries die inside
            case 6: $r = new CudaArray([[$i, 1.0], [2.0, 3.0]]); break; // from PHP values
            default:
                try { $a->add(CudaArray::zeros([3])); } catch (Cuda\InvalidArgumentException) {}
                $r = $a->transpose()->reshape([-1]);                   // a copy: not contiguous
        }
        $ring[$i % 7] = $r;                                            // 7 slots: every kind visits each
        if ($leak) $kept[] = $r;
    };
    $syncFn = function () use (&$ring) {   // waits for the queued ops; an empty ring at every row
        foreach ($ring as $k => $r) {
            if ($r) $r->sum()->item();
            $ring[$k] = null;
        }
    };
    phase('eager ops', $opt['eager'], $warmupOf($opt['eager']), $step, $syncFn);
    $notes[] = sprintf('eager: %d ops, checksum of the sums %.6g', $opt['eager'] + $warmupOf($opt['eager']), $checksum);
    unset($a, $b, $w, $ring, $kept, $step, $syncFn);
}

/* ---- growth, notes, verdict ------------------------------------------------------------------- */

foreach ($growth as $r) echo line($r);
foreach ($notes as $n) echo "  $n\n";
echo "  (growth: the last row minus the warm-up row; checked: PHP memory <= {$opt['max-php-growth']} B,"
   . " allocated <= {$opt['max-alloc-growth']} B, reserved <= {$opt['max-reserved-growth']} B above warm-up at any row)\n";
if ($fails) {
    echo 'soak: FAIL (', implode('; ', $fails), ")\n";
    exit(1);
}
echo "soak: PASS\n";
