--TEST--
Cuda\Compiler: a program that does not compile throws a CompilationException every time and leaves nothing cached; the fixed program then runs
--SKIPIF--
<?php
putenv('GTC_DEVICE');
ini_set('gtc.device', 'auto');
try { $d = (new Cuda\CudaArray([1]))->device(); } catch (Throwable $e) { $d = 'cpu'; }
if (!str_starts_with($d, 'cuda')) die('skip needs a CUDA device: Cuda\Compiler compiles with NVRTC for the GPU (tests/php/compiler_no_device.phpt covers machines without one)');
?>
--ENV--
GTC_DEVICE=
--FILE--
<?php
use Cuda\Compiler;
use Cuda\CudaArray;
use Cuda\Fusion;
$cache = sys_get_temp_dir() . '/gtc-compiler-cache-' . getmypid();
mkdir($cache, 0700);
putenv("GTC_CACHE_DIR=$cache");
function entries(string $dir): array { return array_values(array_diff(scandir($dir), ['.', '..'])); }

$bad = "extern \"C\" __global__ void fill(float *p, float v) {\n    p[threadIdx.x] = v + not_declared;\n}\n";
$good = str_replace(' + not_declared', '', $bad);
$messages = [];
for ($k = 1; $k <= 2; $k++) {
    $c = null;
    try {
        $c = new Compiler($bad);
        echo "#$k: no exception\n";
    } catch (Cuda\CompilationException $e) {
        $messages[] = $e->getMessage();
        echo "#$k: ", get_class($e), ', log names the error: ',
            var_export(str_contains($e->getLog(), 'kernel.cu(2): error: identifier "not_declared" is undefined'), true), "\n";
    }
    var_dump($c);
    echo '  cache entries: ', count(entries($cache)), "\n";
}
echo 'the same message both times: ', var_export(count($messages) === 2 && $messages[0] === $messages[1], true), "\n";
// a program with one good and one bad kernel gives no kernels at all
try { new Compiler($good . "extern \"C\" __global__ void broken(float *p) { p[0] = undefined_too; }\n"); echo "no exception\n"; }
catch (Cuda\CompilationException $e) { echo get_class($e), "\n"; }
echo '  cache entries: ', count(entries($cache)), "\n";

// the fixed program under the same kernel name compiles and runs (nothing stale was kept)
$c = new Compiler($good);
$p = CudaArray::zeros([4]);
$c->launch('fill', 1, 4, [$p, 2.5]);
echo implode(',', $c->kernels()), ': ', json_encode($p->toArray()), "\n";
echo '  cache entries: ', count(entries($cache)), "\n";

// the control: a plan compiled by NVRTC (Cuda\Fusion) does use this directory
$g = Fusion::compile(fn($a) => ($a * 2)->sum(), ['a' => [[8], 'float32']]);
echo 'Fusion: kernels ', $g->getStats()['kernels'], ', cache entries: ',
    implode(' ', array_map(fn($f) => preg_replace('/^[0-9a-f]{16}/', 'KEY', $f), entries($cache))), "\n";
exec('rm -rf ' . escapeshellarg($cache));
?>
--EXPECT--
#1: Cuda\CompilationException, log names the error: true
NULL
  cache entries: 0
#2: Cuda\CompilationException, log names the error: true
NULL
  cache entries: 0
the same message both times: true
Cuda\CompilationException
  cache entries: 0
fill: [2.5,2.5,2.5,2.5]
  cache entries: 0
Fusion: kernels nvrtc, cache entries: KEY.kc
