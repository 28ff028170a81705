--TEST--
Cuda\Fusion on the CPU: a C compiler that fails, writes no library or a broken one throws every time and caches nothing; no compiler falls back to eager; a later good compile works
--SKIPIF--
<?php
if (!is_executable('/bin/sh')) die('skip needs /bin/sh for the fake compilers');
?>
--ENV--
GTC_DEVICE=cpu
--FILE--
<?php
use Cuda\CudaArray;
use Cuda\Fusion;
$tmp = sys_get_temp_dir() . '/gtc-fusion-cc-' . getmypid();
$cache = "$tmp/cache";
@mkdir($tmp, 0700, true);
putenv("GTC_CACHE_DIR=$cache");
/* Files in the cache directory (kernels and the compile's temporary directories alike). */
function entries(string $dir): array {
    return is_dir($dir) ? array_values(array_diff(scandir($dir), ['.', '..'])) : [];
}
/* Fake compilers: one that writes garbage where the library should be and says it succeeded,
 * one that writes nothing and succeeds, one that prints an error and fails. */
$fake = [
    'garbage' => "#!/bin/sh\nwhile [ \$# -gt 0 ]; do [ \"\$1\" = -o ] && { echo garbage > \"\$2\"; shift; }; shift; done\nexit 0\n",
    'nothing' => "#!/bin/sh\nexit 0\n",
    'noisy' => "#!/bin/sh\necho 'noisy-cc: fatal: out of ideas' >&2\nexit 4\n",
];
foreach ($fake as $name => $body) {
    file_put_contents("$tmp/$name-cc", $body);
    chmod("$tmp/$name-cc", 0700);
}
$fn = fn($a, $b) => ($a * $b + 1)->sum(1);
$spec = ['a' => [[4, 3], 'float32'], 'b' => [[4, 3], 'float32']];
$a = CudaArray::rand([4, 3], 1);
$b = CudaArray::rand([4, 3], 2);
$want = ($a * $b + 1)->sum(1)->toArray();

$cases = ['false', "$tmp/noisy-cc", "$tmp/garbage-cc", "$tmp/nothing-cc"];
foreach ($cases as $cc) {
    putenv("GTC_JIT_CC=$cc");
    for ($k = 1; $k <= 2; $k++) {        // twice: a failure is not remembered as a plan
        try {
            Fusion::compile($fn, $spec);
            echo "no exception\n";
        } catch (Cuda\Exception $e) {
            echo basename($cc), " #$k: ", get_class($e), ': ', str_replace([$tmp, "\n"], ['TMP', ' | '], trim($e->getMessage())), "\n";
        }
    }
    echo '  cache entries: ', count(entries($cache)), "\n";
}
try { Fusion::run($fn, [$a, $b]); } catch (Cuda\CompilationException $e) { echo "Fusion::run throws too\n"; }
echo '  cache entries: ', count(entries($cache)), "\n";

// no compiler at all: the documented fallback, op by op; nothing on disk either
putenv("GTC_JIT_CC=$tmp/no-such-cc");
$g = Fusion::compile($fn, $spec);
echo 'no compiler: kernels ', $g->getStats()['kernels'], ', same result: ', var_export($g->run($a, $b)->toArray() == $want, true), "\n";
echo '  cache entries: ', count(entries($cache)), "\n";

// the real compiler again: compiled now (neither the failures nor the fallback were kept)
putenv('GTC_JIT_CC');
$g = Fusion::compile($fn, $spec);
$s = $g->getStats();
echo "cc: kernels {$s['kernels']}, cache {$s['cache']}, same result: ", var_export($g->run($a, $b)->toArray() == $want, true), "\n";
echo '  cache entries: ', implode(' ', array_map(fn($f) => preg_replace('/^[0-9a-f]{16}/', 'KEY', $f), entries($cache))), "\n";
$s = Fusion::compile($fn, $spec)->getStats();
echo "again: kernels {$s['kernels']}, cache {$s['cache']}\n";
exec('rm -rf ' . escapeshellarg($tmp));
?>
--EXPECTF--
false #1: Cuda\CompilationException: false failed on the generated CPU kernels (exit 1) with no output
false #2: Cuda\CompilationException: false failed on the generated CPU kernels (exit 1) with no output
  cache entries: 0
noisy-cc #1: Cuda\CompilationException: TMP/noisy-cc failed on the generated CPU kernels (exit 4): noisy-cc: fatal: out of ideas
noisy-cc #2: Cuda\CompilationException: TMP/noisy-cc failed on the generated CPU kernels (exit 4): noisy-cc: fatal: out of ideas
  cache entries: 0
garbage-cc #1: Cuda\CompilationException: TMP/garbage-cc did not produce loadable CPU kernels: %s
garbage-cc #2: Cuda\CompilationException: TMP/garbage-cc did not produce loadable CPU kernels: %s
  cache entries: 0
nothing-cc #1: Cuda\CompilationException: TMP/nothing-cc did not produce loadable CPU kernels: %s
nothing-cc #2: Cuda\CompilationException: TMP/nothing-cc did not produce loadable CPU kernels: %s
  cache entries: 0
Fusion::run throws too
  cache entries: 0
no compiler: kernels eager, same result: true
  cache entries: 0
cc: kernels cc, cache miss, same result: true
  cache entries: KEY-cpu.so
again: kernels cc, cache memory
