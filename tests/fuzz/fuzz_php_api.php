<?php
// tests/fuzz/fuzz_php_api.php: a seeded random-program driver for gtc.so's PHP API, the
// complement of tests/fuzz/fuzz_runtime.c at the PHP level (run by tests/fuzz/php_api.sh,
// ideally against the ASan build, build/asan/gtc.so). Every public method of Cuda\CudaArray
// (found by reflection, so a new method is driven without a change here), ArrayAccess and
// __invoke indexing, the three slice forms, astype, toNpy/fromNpy/saveNpz/loadNpz and
// Cuda\Fusion::compile/run is called with random, often invalid, arguments. A failure must be
// a Cuda\Exception, a TypeError or a ValueError whose message is non-empty valid UTF-8 without
// control characters; anything else (another Error, a fatal error, a sanitizer report: the
// process dies) is a finding. For a subset (slice text, elementwise float64 ops, int64 sums,
// transposes, .npy round trips) the results are recorded and checked against NumPy in one batch
// at the end (/usr/bin/python3).
//   php -d extension=build/gtc.so tests/fuzz/fuzz_php_api.php [seed] [steps] [python]
use Cuda\CudaArray;
use Cuda\Fusion;

$seed = (int)($argv[1] ?? 1);
$steps = (int)($argv[2] ?? 2000);
$python = $argv[3] ?? '/usr/bin/python3';
mt_srand($seed);
ini_set('gtc.memory_limit', (string)(64 << 20));
$tmp = sys_get_temp_dir() . '/gtc_fuzz_php_' . getmypid();
@mkdir($tmp);
chdir($tmp); // a path argument that is any string (a CudaArray's text too) lands here

const DTYPES = ['bool', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'float32', 'float64'];
const INTS = [0, 1, 2, 3, -1, -2, -3, 4, 5, PHP_INT_MAX, PHP_INT_MIN, PHP_INT_MIN + 1, 1 << 62, -(1 << 62), 1 << 31, 255, 65536];
const FLOATS = [0.0, -0.0, 1.5, -2.5, NAN, INF, -INF, 1e308, 5e-324, 0.5];

function pick(array $a) { return $a[mt_rand(0, count($a) - 1)]; }
function rint(): int { return mt_rand(0, 3) ? mt_rand(-4, 5) : pick(INTS); }
function shape(): array {
    $n = mt_rand(0, 4);
    $s = [];
    for ($i = 0; $i < $n; $i++) $s[] = mt_rand(0, 12) ? pick([1, 2, 3, 0, 4, 5]) : rint();
    return $s;
}
function spec(int $rank): string { // slice text, mostly valid
    $parts = [];
    $n = mt_rand(0, $rank + 1);
    $ell = false;
    for ($i = 0; $i < $n; $i++) {
        $k = mt_rand(0, 5);
        if ($k == 0) { $parts[] = (string)rint(); continue; }
        if ($k == 1 && !$ell) { $parts[] = '...'; $ell = true; continue; }
        $f = [];
        for ($j = 0, $m = mt_rand(2, 3); $j < $m; $j++) $f[] = mt_rand(0, 2) ? (string)rint() : '';
        $parts[] = implode(':', $f);
    }
    $s = implode(mt_rand(0, 1) ? ',' : ', ', $parts);
    if (mt_rand(0, 15) == 0) $s .= pick(["\t", "\x80", "\u{202e}", 'x', ':', ',', "\0"]);
    return $s;
}

// Values for a parameter of a type: usually of that type, sometimes anything.
function value_for(?ReflectionType $t, string $name, array $pool, string $tmp) {
    $names = $t instanceof ReflectionUnionType ? array_map(fn($x) => $x->getName(), $t->getTypes())
        : ($t ? [$t->getName()] : ['mixed']);
    if (mt_rand(0, 9) == 0) $names = ['mixed'];
    $n = pick($names);
    if ($n == 'mixed') $n = pick(['int', 'float', 'string', 'array', 'null', 'bool', 'Cuda\\CudaArray']);
    if ($name == 'path' && $n == 'string') return $tmp . '/' . pick(['a.npy', 'b.npz', 'missing.npy', 'dir', 'c.npy']);
    switch ($n) {
    case 'int': return rint();
    case 'float': return mt_rand(0, 1) ? (float)rint() : pick(FLOATS);
    case 'bool': return (bool)mt_rand(0, 1);
    case 'null': return null;
    case 'string':
        if (in_array($name, ['dtype'])) return mt_rand(0, 7) ? pick(DTYPES) : pick(['float16', 'Float32', '', "int32\0", 'complex64']);
        if ($name == 'casting') return pick(['no', 'equiv', 'safe', 'same_kind', 'unsafe', 'bogus']);
        if ($name == 'approximate') return pick(['none', 'tanh', 'erf']);
        return mt_rand(0, 1) ? spec(mt_rand(0, 4)) : pick(['', 'x', "\xff\xfe", str_repeat('a', 300)]);
    case 'array':
        if ($name == 'tensors' || $name == 'inputs') {
            $r = [];
            for ($i = 0, $m = mt_rand(0, 3); $i < $m; $i++) $r[mt_rand(0, 3) ? "t$i" : $i] = $pool ? pick($pool) : 1;
            return $r;
        }
        if ($name == 'data' || $name == 'values') return mt_rand(0, 1) ? [1, 2.5, -3] : [[1, 2], [3, 4]];
        return mt_rand(0, 5) ? shape() : [rint(), 'x', null, [1]];
    case 'callable': return pick([fn($x) => $x->add(1.0), fn($x) => $x->relu()->sum(), fn($x) => [$x->neg(), $x->exp()], fn() => 1]);
    default: return $pool ? pick($pool) : CudaArray::zeros([2]);
    }
}

$stats = ['calls' => 0, 'ok' => 0, 'expected_exceptions' => 0, 'skipped' => 0];
$findings = [];
$records = []; // for NumPy

function check_exception(Throwable $e, string $what, array &$findings): bool {
    // Errors by design, as PHP's own classes throw them: unset($t[i]) on a fixed shape
    // (docs/compat.md), __unserialize() on a live object
    $ok = $e instanceof Cuda\Exception || $e instanceof TypeError || $e instanceof ValueError ||
          (get_class($e) === 'Error' && (str_starts_with($e->getMessage(), 'Cannot unset an element of a Cuda\\CudaArray') ||
                                         str_starts_with($e->getMessage(), 'Cannot unserialize an initialized Cuda\\CudaArray')));
    $m = $e->getMessage();
    if (!$ok) $findings[] = "$what: unexpected " . get_class($e) . ': ' . $m;
    elseif ($m === '' || !preg_match('//u', $m) || preg_match('/[\x00-\x08\x0b-\x1f\x7f]/', $m))
        $findings[] = "$what: unclean message from " . get_class($e) . ': ' . json_encode(bin2hex($m));
    return $ok;
}

function call(callable $f, string $what, array &$stats, array &$findings) {
    $stats['calls']++;
    try {
        $r = $f();
        $stats['ok']++;
        return $r;
    } catch (Throwable $e) {
        if (check_exception($e, $what, $findings)) $stats['expected_exceptions']++;
        return null;
    }
}

function make_tensor(): ?CudaArray {
    global $stats, $findings;
    $dt = pick(DTYPES);
    $s = shape();
    return call(fn() => match (mt_rand(0, 4)) {
        0 => CudaArray::zeros($s, $dt),
        1 => CudaArray::full($s, pick([1, -1, 2.5, NAN, INF, true]), $dt),
        2 => CudaArray::arange(mt_rand(-5, 5), mt_rand(-5, 20), pick([1, 2, -1, 3]), $dt)->reshape([-1]),
        3 => CudaArray::randint(-100, 100, $s, mt_rand(), mt_rand(0, 1) ? 'int64' : 'int32'),
        default => CudaArray::rand($s, mt_rand(), mt_rand(0, 1) ? 'float32' : 'float64'),
    }, "make $dt", $stats, $findings);
}

$pool = [];
for ($i = 0; $i < 4; $i++) if ($t = make_tensor()) $pool[] = $t;
if (!$pool) $pool[] = CudaArray::zeros([2, 3]);
$rc = new ReflectionClass(CudaArray::class);
$methods = array_values(array_filter($rc->getMethods(ReflectionMethod::IS_PUBLIC),
    fn($m) => !in_array($m->getName(), ['fromFile', '__construct'])));

for ($step = 0; $step < $steps; $step++) {
    $x = pick($pool);
    $k = mt_rand(0, 15);
    $r = null;
    if ($k < 7) { // any method by reflection, with random arguments
        $m = pick($methods);
        $args = [];
        foreach ($m->getParameters() as $p) {
            if ($p->isOptional() && mt_rand(0, 2) == 0) break;
            if ($p->isVariadic()) {
                for ($j = 0, $c = mt_rand(0, 4); $j < $c; $j++) $args[] = value_for($p->getType(), $p->getName(), $pool, $tmp);
                break;
            }
            $args[] = value_for($p->getType(), $p->getName(), $pool, $tmp);
        }
        $name = $m->getName();
        $r = call(fn() => $m->isStatic() ? CudaArray::$name(...$args) : $x->$name(...$args), $name, $stats, $findings);
    } elseif ($k == 7) { // ArrayAccess and __invoke
        $sel = mt_rand(0, 1) ? rint() : [rint(), mt_rand(0, 1) ? rint() : null];
        $r = call(fn() => match (mt_rand(0, 4)) {
            0 => $x[$sel],
            1 => isset($x[$sel]),
            2 => (function () use ($x, $sel) { $y = $x->contiguous(); $y[$sel] = pick([1, 2.5, $x, [1, 2]]); return $y; })(),
            3 => $x(...array_map(fn() => mt_rand(0, 1) ? rint() : [rint(), rint()], range(0, mt_rand(0, 3)))),
            default => (function () use ($x, $sel) { $y = $x; unset($y[$sel]); })(),
        }, 'index', $stats, $findings);
    } elseif ($k == 8) { // the three slice forms; the text form checked against NumPy
        $s = spec($x->getNdims());
        $form = mt_rand(0, 2);
        $r = call(fn() => match ($form) {
            0 => $x->slice($s),
            1 => $x->slice(...array_map(fn() => pick([rint(), null, [rint(), rint()], [rint(), null, pick([-1, 2, -2, rint()])], '::-1']),
                range(1, mt_rand(0, $x->getNdims() + 1)))),
            default => $x->slice(starts: array_map(fn() => rint(), range(1, max(1, $x->getNdims()))),
                ends: array_map(fn() => rint(), range(1, max(1, $x->getNdims()))),
                steps: array_map(fn() => pick([1, -1, 2, -3, PHP_INT_MIN]), range(1, max(1, $x->getNdims())))),
        }, 'slice', $stats, $findings);
        if ($form == 0 && $x->getSize() <= 512 && count($records) < 400)
            $records[] = ['op' => 'slice', 'x' => $x->toArray(), 'dtype' => $x->dtype(), 'shape' => $x->getShape(), 'spec' => $s,
                          'ok' => $r !== null, 'result' => $r?->toArray(), 'rshape' => $r?->getShape()];
    } elseif ($k == 9) { // astype with every casting rule
        $r = call(fn() => $x->astype(pick(DTYPES), pick(['no', 'equiv', 'safe', 'same_kind', 'unsafe'])), 'astype', $stats, $findings);
    } elseif ($k == 10) { // .npy and .npz round trips; hostile files
        $f = "$tmp/r.npy";
        call(function () use ($x, $f, &$findings) {
            $x->toNpy($f);
            $y = CudaArray::fromNpy($f);
            if ($y->dtype() !== $x->dtype() || $y->getShape() !== $x->getShape() || $y->toBuffer() !== $x->toBuffer())
                $findings[] = '.npy round trip changed a ' . $x->dtype() . ' ' . json_encode($x->getShape());
            $names = ['w' => $x, 'b' . mt_rand(0, 9) => $y];
            CudaArray::saveNpz("$f.npz", $names, (bool)mt_rand(0, 1));
            $back = CudaArray::loadNpz("$f.npz");
            foreach ($names as $n => $t)
                if (!isset($back[$n]) || $back[$n]->toBuffer() !== $t->toBuffer()) $findings[] = ".npz round trip changed $n";
        }, 'npy', $stats, $findings);
        $bytes = @file_get_contents($f);
        if ($bytes !== false && strlen($bytes)) { // one corrupted byte: a clean exception or a tensor
            $bytes[mt_rand(0, strlen($bytes) - 1)] = chr(mt_rand(0, 255));
            file_put_contents("$tmp/bad.npy", $bytes);
            call(fn() => CudaArray::fromNpy("$tmp/bad.npy"), 'fromNpy corrupt', $stats, $findings);
        }
    } elseif ($k == 11) { // Cuda\Fusion against eager
        $fns = [fn($a) => $a->add(1)->multiply($a), fn($a) => $a->sum(), fn($a) => $a->transpose()->neg(),
                fn($a) => $a->slice('::-1')->abs(), fn($a) => [$a->exp(), $a->max()], fn($a) => $a->reshape([-1])];
        $fn = pick($fns);
        $eager = call(fn() => $fn($x), 'eager', $stats, $findings);
        $fmsg = '';
        $fused = call(function () use ($fn, $x, &$fmsg) {
            try {
                return mt_rand(0, 1) ? Fusion::run($fn, [$x]) : Fusion::compile($fn, [$x])->run($x);
            } catch (Throwable $e) {
                $fmsg = $e->getMessage();
                throw $e;
            }
        }, 'fusion', $stats, $findings);
        if (($eager === null) !== ($fused === null))
            $findings[] = 'Fusion and eager disagree on failing (' . $x->dtype() . ' ' . json_encode($x->getShape()) . "): $fmsg";
    } elseif ($k == 12) { // elementwise float64 and int64 sums against NumPy
        $a = call(fn() => CudaArray::randn(pick([[3], [2, 3], [2, 1, 3]]), mt_rand(), 'float64'), 'randn', $stats, $findings);
        $b = call(fn() => CudaArray::randn(pick([[3], [1, 3], [2, 1]]), mt_rand(), 'float64'), 'randn', $stats, $findings);
        $op = pick(['add', 'subtract', 'multiply', 'divide', 'maximum', 'minimum']);
        if ($a && $b) {
            $r = call(fn() => $a->$op($b), $op, $stats, $findings);
            $records[] = ['op' => $op, 'a' => $a->toArray(), 'b' => $b->toArray(), 'ok' => $r !== null, 'result' => $r?->toArray(), 'rshape' => $r?->getShape()];
        }
        $i = call(fn() => CudaArray::randint(PHP_INT_MIN, PHP_INT_MAX, [mt_rand(1, 6), mt_rand(1, 4)], mt_rand(), 'int64'), 'randint', $stats, $findings);
        if ($i) $records[] = ['op' => 'sum', 'a' => $i->toArray(), 'axis' => $ax = mt_rand(0, 1), 'result' => $i->sum($ax)->toArray()];
        if ($i) $records[] = ['op' => 'transpose', 'a' => $i->toArray(), 'result' => $i->transpose()->toArray()];
    } else {
        $r = make_tensor();
    }
    if ($r instanceof CudaArray && $r->getSize() <= 4096) {
        $pool[] = $r;
        if (count($pool) > 12) array_splice($pool, mt_rand(0, 11), 1);
    }
}

// NumPy, in one batch
$json = "$tmp/records.json";
file_put_contents($json, json_encode($records, JSON_PRESERVE_ZERO_FRACTION | JSON_PARTIAL_OUTPUT_ON_ERROR));
$py = <<<'PY'
import json, sys, numpy as np
recs = json.load(open(sys.argv[1]))
bad = 0
for r in recs:
    op = r['op']
    try:
        if op == 'slice':
            x = np.array(r['x'], dtype=object).reshape(r['shape'])
            try:
                want = eval('x[' + r['spec'] + ']', {'x': x}) if r['spec'].strip() else x
                ok = True
            except Exception:
                ok = False
            if ok and not r['ok'] and r['spec'].rstrip(' \t').endswith(','):
                continue  # a trailing comma ('1,') is refused on purpose (tests/php/slice_string_errors.phpt)
            if ok != r['ok']:
                bad += 1; print('slice %r on %s: numpy %s, gtc %s' % (r['spec'], r['shape'], ok, r['ok'])); continue
            if ok and (list(np.shape(want)) != r['rshape'] or
                       np.asarray(want).reshape(-1).tolist() != np.array(r['result'], dtype=object).reshape(-1).tolist()):
                bad += 1; print('slice %r on %s: numpy %s, gtc %s' % (r['spec'], r['shape'], np.asarray(want).tolist(), r['result']))
        elif op == 'sum':
            a = np.array(r['a'], dtype=np.int64)
            with np.errstate(over='ignore'):
                want = a.sum(axis=r['axis']).tolist()
            if want != r['result']: bad += 1; print('int64 sum differs', want, r['result'])
        elif op == 'transpose':
            if np.array(r['a']).T.tolist() != r['result']: bad += 1; print('transpose differs')
        else:
            a, b = np.array(r['a'], dtype=np.float64), np.array(r['b'], dtype=np.float64)
            f = {'add': np.add, 'subtract': np.subtract, 'multiply': np.multiply, 'divide': np.divide,
                 'maximum': np.maximum, 'minimum': np.minimum}[op]
            try:
                want = f(a, b); ok = True
            except ValueError:
                ok = False
            if ok != r['ok']: bad += 1; print(op, 'broadcast acceptance differs', a.shape, b.shape); continue
            if ok and (list(want.shape) != r['rshape'] or want.tolist() != r['result']):
                bad += 1; print(op, 'differs from numpy', a.shape, b.shape)
    except Exception as e:
        bad += 1; print('checker error on', op, e)
print('numpy: %d records, %d mismatches' % (len(recs), bad))
sys.exit(1 if bad else 0)
PY;
file_put_contents("$tmp/check.py", $py);
exec(escapeshellarg($python) . ' ' . escapeshellarg("$tmp/check.py") . ' ' . escapeshellarg($json) . ' 2>&1', $out, $prc);
echo implode("\n", $out), "\n";
if ($prc !== 0) $findings[] = 'NumPy comparison failed (above)';
chdir('/');
exec('rm -rf ' . escapeshellarg($tmp));
printf("seed %d: %d calls, %d returned, %d expected exceptions, %d findings\n", $seed, $stats['calls'], $stats['ok'],
       $stats['expected_exceptions'], count($findings));
foreach (array_slice(array_unique($findings), 0, 20) as $f) echo "FINDING: $f\n";
exit($findings ? 1 : 0);
