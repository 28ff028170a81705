--TEST--
float16 .npy both ways with NumPy ('<f2' and '>f2'); bfloat16 .npy refused on save and NumPy's raw '<V2' refused on load with clear messages; bfloat16/float16 through fromBuffer/toBuffer keep their bits; bad dtype names and buffer sizes throw
--SKIPIF--
<?php
exec('/usr/bin/python3 -c "import numpy" 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip NumPy is not available to /usr/bin/python3');
?>
--FILE--
<?php
use Cuda\CudaArray;
$dir = sys_get_temp_dir() . '/gtc_half_npy_' . getmypid();
@mkdir($dir);
$py = fn($code) => exec('/usr/bin/python3 -c ' . escapeshellarg("import numpy as np, sys\n" . $code), $o) !== false ? $o : null;

// gtc writes float16, NumPy reads it
$h = new CudaArray([[1.0, -2.5, 65504.0], [0.1, 1e-7, -0.0]], 'float16');
$h->toNpy("$dir/h.npy");
$o = [];
exec('/usr/bin/python3 -c ' . escapeshellarg("import numpy as np; a = np.load('$dir/h.npy'); print(a.dtype, a.shape, a.astype(np.float64).ravel().tolist())"), $o);
echo $o[0], "\n";
echo json_encode(array_merge(...$h->toArray())), "\n";

// NumPy writes float16 in both byte orders, gtc reads the same values
exec('/usr/bin/python3 -c ' . escapeshellarg("import numpy as np; v = np.array([[0.333, -7.0], [np.inf, 6e-8]]); np.save('$dir/le.npy', v.astype('<f2')); np.save('$dir/be.npy', v.astype('>f2')); print(v.astype(np.float16).astype(np.float64).ravel().tolist())"), $o2);
$le = CudaArray::fromNpy("$dir/le.npy");
$be = CudaArray::fromNpy("$dir/be.npy");
echo $le->dtype(), ' ', $be->dtype(), "\n";
$want = json_decode(str_replace(['inf'], ['1e999'], $o2[0]));
var_dump(array_merge(...$le->toArray()) == $want && array_merge(...$be->toArray()) == $want);

// bfloat16: NumPy has no such dtype
$b = new CudaArray([1.0, 2.0], 'bfloat16');
try { $b->toNpy("$dir/b.npy"); } catch (Cuda\InvalidArgumentException $e) { echo str_replace("$dir/", '', $e->getMessage()), "\n"; }
var_dump(file_exists("$dir/b.npy"));
exec('/usr/bin/python3 -c ' . escapeshellarg("import numpy as np; np.save('$dir/v2.npy', np.zeros(3, dtype='V2'))"));
try { CudaArray::fromNpy("$dir/v2.npy"); } catch (Cuda\InvalidArgumentException $e) { echo str_replace("$dir/", '', $e->getMessage()), "\n"; }

// raw bits: 1, -2, inf, a NaN, the smallest bfloat16 subnormal
$bits = pack('v*', 0x3f80, 0xc000, 0x7f80, 0x7fc0, 0x0001);
$t = CudaArray::fromBuffer($bits, [5], 'bfloat16');
$v = $t->toArray();
var_dump($v[0], $v[1], $v[2], is_nan($v[3]), $v[4] == 2 ** -133);
var_dump($t->toBuffer() === $bits);
$f = CudaArray::fromBuffer(pack('v*', 0x3c00, 0x0001, 0x7bff, 0xfc00), [4], 'float16');
var_dump($f->toArray() == [1.0, 2 ** -24, 65504.0, -INF]);
var_dump($f->astype('bfloat16')->toArray() == [1.0, 2 ** -24, 65536.0, -INF]);
try { CudaArray::fromBuffer("\x00\x00\x00", [2], 'float16'); } catch (Cuda\InvalidArgumentException $e) { echo get_class($e), "\n"; }
foreach (['bf16', 'half', "float16\0", 'Float16'] as $bad)
    try { CudaArray::zeros([2], $bad); } catch (Cuda\InvalidArgumentException $e) { echo substr($e->getMessage(), 0, 60), "\n"; }
// integers and PHP ints round once
var_dump((new CudaArray([257, 2049, PHP_INT_MAX], 'bfloat16'))->toArray() == [256.0, 2048.0, 2.0 ** 63]);
var_dump((new CudaArray([2049, 65520, -70000], 'float16'))->toArray() == [2048.0, INF, -INF]);
foreach (glob("$dir/*") as $p) unlink($p);
rmdir($dir);
?>
--EXPECT--
float16 (2, 3) [1.0, -2.5, 65504.0, 0.0999755859375, 1.1920928955078125e-07, -0.0]
[1,-2.5,65504,0.0999755859375,1.1920928955078125e-7,-0]
float16 float16
bool(true)
b.npy: npy: bfloat16 has no NumPy dtype; save astype('float32'), which holds every bfloat16 value exactly
bool(false)
v2.npy: npy: unsupported dtype '|V2': raw 2-byte values (ml_dtypes saves bfloat16 so) do not say what they hold; save them as float32 (exact for bfloat16)
float(1)
float(-2)
float(INF)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
Cuda\InvalidArgumentException
Cuda\CudaArray::zeros(): Argument #2 ($dtype) must be one of
Cuda\CudaArray::zeros(): Argument #2 ($dtype) must be one of
Cuda\CudaArray::zeros(): Argument #2 ($dtype) must be one of
Cuda\CudaArray::zeros(): Argument #2 ($dtype) must be one of
bool(true)
bool(true)
