<?php
/* scripts/make-data.php: writes the example data sets as .npy files, deterministically (the same
 * bytes on every machine). Run by scripts/make-data.sh, which finds the digits source first:
 *
 *   php -n -d extension=build/gtc.so scripts/make-data.php OUT_DIR DIGITS_SOURCE
 *
 * DIGITS_SOURCE is either a digits.csv file (sklearn's copy of the UCI test set: 1,797 rows of 64
 * pixel values 0-16 and the label) or "optdigits:TRA,TES" for the UCI optdigits.tra/.tes files
 * (the same CSV format: 3,823 training and 1,797 test rows).
 *
 * Writes OUT_DIR/{digits,pcam}_{train,test}_{x,y,labels}.npy: x float32 [N, D], y one-hot float32
 * [N, C], labels int64 [N]. The .npy headers are written here, not by the runtime, so the bytes
 * depend only on this script and on CudaArray::rand (splitmix64 on the host, backend-independent).
 * Features come from elementwise float32 ops only and labels from float64 PHP arithmetic in a
 * fixed order: no BLAS, no reductions whose order could change.
 */
use Cuda\CudaArray;

const SPLIT_SEED = 42;          // digits: stratified 80/20 split and row order
const PCAM_SEED = 0x5043414D;   // "PCAM": features, teacher and label noise
const PCAM_D = 480;
const PCAM_TRAIN = 32768;
const PCAM_TEST = 4096;
const PCAM_CHUNK = 4096;        // rows generated per rand() call
const PCAM_NOISE = 0.10;        // fraction of labels flipped
const PCAM_QUAD = 1.25;         // weight of the quadratic (not linearly separable) teacher term
const PCAM_LATENT = 16;         // dimension of the latent the features mix and the labels depend on
const PCAM_SIGNAL = 0.5;        // fraction of each feature's variance that comes from the latent

function fail(string $msg): never {
    fwrite(STDERR, "make-data: $msg\n");
    exit(1);
}

/* The .npy v1.0 header for a little-endian C-order array, padded to 64 bytes as NumPy does. */
function npy_header(string $descr, array $shape): string {
    $dims = implode(', ', $shape) . (count($shape) === 1 ? ',' : '');
    $dict = "{'descr': '$descr', 'fortran_order': False, 'shape': ($dims), }";
    $pad = 64 - (10 + strlen($dict) + 1) % 64;
    if ($pad === 64) $pad = 0;
    $dict .= str_repeat(' ', $pad) . "\n";
    return "\x93NUMPY\x01\x00" . pack('v', strlen($dict)) . $dict;
}

function npy_write(string $path, string $descr, array $shape, string $data): void {
    $size = [ '<f4' => 4, '<i8' => 8 ][$descr];
    if (strlen($data) !== array_product($shape) * $size) fail("internal: $path has the wrong byte count");
    if (file_put_contents($path, npy_header($descr, $shape) . $data) === false) fail("cannot write $path");
}

/* A 60-bit key from a seeded SHA-256: the order of rows, identical on every platform. */
function row_key(string $tag, int $i): int {
    return (int)hexdec(substr(hash('sha256', "$tag:" . SPLIT_SEED . ":$i"), 0, 15));
}

/* Reads 64-feature + label CSV rows (digits.csv and optdigits.* share the format). */
function read_digits_csv(string $path): array {
    $rows = [];
    $lines = file($path, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES);
    if ($lines === false) fail("cannot read $path");
    foreach ($lines as $n => $line) {
        $f = explode(',', trim($line));
        if (count($f) !== 65) fail("$path:" . ($n + 1) . ": expected 65 comma-separated values, got " . count($f));
        $v = [];
        foreach ($f as $k => $s) {
            if (!preg_match('/^\d+(\.0*)?$/', $s)) fail("$path:" . ($n + 1) . ": value " . ($k + 1) . " is not a whole number: '$s'");
            $v[] = (int)$s;
        }
        $label = array_pop($v);
        if ($label > 9 || max($v) > 16) fail("$path:" . ($n + 1) . ": label must be 0-9 and pixels 0-16");
        $rows[] = [$v, $label];
    }
    if (!$rows) fail("$path has no rows");
    return $rows;
}

/* Writes one digits split; rows are ordered by their key (a seeded shuffle). */
function write_digits(string $out, string $split, array $rows, string $tag): int {
    $keys = [];
    foreach ($rows as $i => $_) $keys[$i] = row_key("$tag-order", $i);
    asort($keys);   // keys are distinct with overwhelming probability; ties keep index order
    $x = $y = $l = '';
    foreach (array_keys($keys) as $i) {
        [$v, $label] = $rows[$i];
        $x .= pack('g*', ...array_map(fn($p) => $p / 16, $v));
        $oh = array_fill(0, 10, 0.0);
        $oh[$label] = 1.0;
        $y .= pack('g*', ...$oh);
        $l .= pack('P', $label);
    }
    $n = count($rows);
    npy_write("$out/digits_{$split}_x.npy", '<f4', [$n, 64], $x);
    npy_write("$out/digits_{$split}_y.npy", '<f4', [$n, 10], $y);
    npy_write("$out/digits_{$split}_labels.npy", '<i8', [$n], $l);
    return $n;
}

function make_digits(string $out, string $source): void {
    if (str_starts_with($source, 'optdigits:')) {
        [$tra, $tes] = explode(',', substr($source, 10), 2);
        $train = read_digits_csv($tra);
        $test = read_digits_csv($tes);
        $what = "UCI optdigits.tra/.tes";
    } else {
        $rows = read_digits_csv($source);
        // Stratified 80/20: within each class, order rows by a seeded key, train on the first 80%.
        $byClass = [];
        foreach ($rows as $i => [$v, $label]) $byClass[$label][$i] = row_key('split', $i);
        ksort($byClass);
        $train = $test = [];
        foreach ($byClass as $idx) {
            asort($idx);
            $ntr = (int)round(0.8 * count($idx));
            foreach (array_keys($idx) as $r => $i) {
                if ($r < $ntr) $train[] = $rows[$i];
                else $test[] = $rows[$i];
            }
        }
        $what = basename($source) . ", stratified 80/20 split (seed " . SPLIT_SEED . ")";
    }
    $ntr = write_digits($out, 'train', $train, 'train');
    $nte = write_digits($out, 'test', $test, 'test');
    printf("digits: %d train, %d test rows, 64 features, 10 classes (%s)\n", $ntr, $nte, $what);
}

/* Unit-variance uniform values as a PHP list, from the seeded generator. */
function uniform_vec(int $n, int $seed): array {
    $b = CudaArray::rand([$n], $seed)->toBuffer();
    return array_map(fn($u) => ($u - 0.5) * sqrt(12.0), array_values(unpack('g*', $b)));
}

/* Irwin-Hall(3), standardised: 2 * (u1 + u2 + u3 - 1.5) has mean 0, variance 1 and a bell shape. */
function bell(array $shape, int $seed): CudaArray {
    $r = CudaArray::rand(array_merge([3], $shape), $seed);
    return $r->slice('0')->add($r->slice('1'))->add($r->slice('2'))->subtract(1.5)->multiply(2.0);
}

/*
 * PCam-shaped synthetic set. Like image pixels, the 480 features are correlated: x = L z + noise,
 * with z a 16-dimensional bell-shaped latent, L a fixed random 16 x 480 mixing matrix (the signal
 * has half of each feature's unit variance) and independent bell-shaped noise for the other half.
 * The label is [lin(z) + QUAD * p(z) * q(z) > 0] for random unit-variance projections lin, p, q,
 * then 10% of labels are flipped. The product term has no linear part, so a linear model stays
 * near 2/3 accuracy while an MLP can approach the ~90% the label noise allows.
 * L z is computed as a fixed sequence of elementwise float32 multiply-adds (no BLAS, no reduction),
 * and the teacher in float64 PHP arithmetic, so the bytes are the same on every machine.
 */
function make_pcam(string $out): void {
    $d = PCAM_D;
    $r = PCAM_LATENT;
    $mix = CudaArray::rand([$r, $d], PCAM_SEED)->subtract(0.5)->multiply(2 * sqrt(3 * PCAM_SIGNAL / $r));
    $mixRows = [];
    for ($j = 0; $j < $r; $j++) $mixRows[] = $mix->slice(starts: [$j], ends: [$j + 1], axes: [0]);   // [1, d]
    $a = uniform_vec($r, PCAM_SEED + 1);
    $u = uniform_vec($r, PCAM_SEED + 2);
    $v = uniform_vec($r, PCAM_SEED + 3);
    $flip = array_values(unpack('g*', CudaArray::rand([PCAM_TRAIN + PCAM_TEST], PCAM_SEED + 4)->toBuffer()));
    $norm = 1.0 / sqrt($r);
    $chunk = 0;
    $row = 0;
    $pos = 0;
    foreach (['train' => PCAM_TRAIN, 'test' => PCAM_TEST] as $split => $n) {
        $fx = fopen("$out/pcam_{$split}_x.npy", 'wb');
        if (!$fx) fail("cannot write $out/pcam_{$split}_x.npy");
        fwrite($fx, npy_header('<f4', [$n, $d]));
        $y = $l = '';
        for ($done = 0; $done < $n; $done += PCAM_CHUNK, $chunk++) {
            $m = min(PCAM_CHUNK, $n - $done);
            $z = bell([$m, $r], PCAM_SEED + 100 + 2 * $chunk);
            $x = bell([$m, $d], PCAM_SEED + 101 + 2 * $chunk)->multiply(sqrt(1 - PCAM_SIGNAL));
            for ($j = 0; $j < $r; $j++)
                $x = $x->add($z->slice(starts: [$j], ends: [$j + 1], axes: [1])->multiply($mixRows[$j]));
            fwrite($fx, $x->toBuffer());
            $zs = array_values(unpack('g*', $z->toBuffer()));
            for ($i = 0; $i < $m; $i++, $row++) {
                $s = $p = $q = 0.0;
                for ($j = 0, $o = $i * $r; $j < $r; $j++) {
                    $t = $zs[$o + $j];
                    $s += $a[$j] * $t;
                    $p += $u[$j] * $t;
                    $q += $v[$j] * $t;
                }
                $label = $norm * $s + PCAM_QUAD * ($norm * $p) * ($norm * $q) > 0 ? 1 : 0;
                if ($flip[$row] < PCAM_NOISE) $label ^= 1;
                $pos += $label;
                $y .= pack('g2', 1 - $label, $label);
                $l .= pack('P', $label);
            }
        }
        fclose($fx);
        npy_write("$out/pcam_{$split}_y.npy", '<f4', [$n, 2], $y);
        npy_write("$out/pcam_{$split}_labels.npy", '<i8', [$n], $l);
    }
    printf("pcam-synthetic: %d train, %d test rows, %d features, 2 classes (%.1f%% positive, %d%% label noise)\n",
           PCAM_TRAIN, PCAM_TEST, $d, 100 * $pos / (PCAM_TRAIN + PCAM_TEST), 100 * PCAM_NOISE);
}

if ($argc !== 3) fail("usage: make-data.php OUT_DIR DIGITS_SOURCE");
if (!extension_loaded('gtc')) fail("the gtc extension is not loaded (php -d extension=build/gtc.so ...)");
putenv('GTC_DEVICE=cpu');   // GTC_DEVICE outranks gtc.device; read when the first tensor is made
[$_, $out, $source] = $argv;
if (!is_dir($out)) fail("$out is not a directory");
make_digits($out, $source);
make_pcam($out);
