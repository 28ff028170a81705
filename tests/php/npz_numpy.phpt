--TEST--
.npz with NumPy: np.savez and np.savez_compressed read by loadNpz, saveNpz (stored and compressed) read by np.load
--SKIPIF--
<?php
exec('/usr/bin/python3 -c "import numpy" 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip NumPy is not available to /usr/bin/python3');
?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$dir = sys_get_temp_dir() . '/gtc_npz_numpy_' . getmypid();
@mkdir($dir);
$py = <<<'PY'
import sys, numpy as np
d = sys.argv[1]
a = dict(f32=np.arange(6, dtype='<f4').reshape(2, 3), f64=np.array(2.5), i64=np.array([-1, 7], dtype='<i8'),
         b=np.array([True, False]), u8=np.zeros((0, 3), dtype='u1'), big=np.arange(4, dtype='>i4'),
         fort=np.asfortranarray(np.arange(6, dtype='<f8').reshape(2, 3)))
np.savez(f'{d}/np.npz', **a)
np.savez_compressed(f'{d}/npc.npz', **a)
PY;
file_put_contents("$dir/write.py", $py);
exec('/usr/bin/python3 ' . escapeshellarg("$dir/write.py") . ' ' . escapeshellarg($dir), $o, $rc);
echo "numpy wrote: rc=$rc\n";
foreach (['np', 'npc'] as $n) {
    $t = CudaArray::loadNpz("$dir/$n.npz");
    echo "$n:\n";
    foreach ($t as $k => $v) { echo "  $k "; show($v); }
}
CudaArray::saveNpz("$dir/gtc.npz", $t);
CudaArray::saveNpz("$dir/gtcc.npz", $t, true);
$check = <<<'PY'
import sys, numpy as np
for f in sys.argv[1:]:
    z = np.load(f)
    print(f.rsplit('/', 1)[1], ' '.join(f'{k}:{z[k].dtype}{list(z[k].shape)}={z[k].ravel().tolist()}' for k in z.files))
PY;
file_put_contents("$dir/read.py", $check);
passthru('/usr/bin/python3 ' . escapeshellarg("$dir/read.py") . ' ' . escapeshellarg("$dir/gtc.npz") . ' ' . escapeshellarg("$dir/gtcc.npz"));
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
numpy wrote: rc=0
np:
  f32 float32 [2,3] [[0.0,1.0,2.0],[3.0,4.0,5.0]]
  f64 float64 [] [2.5]
  i64 int64 [2] [-1,7]
  b bool [2] [true,false]
  u8 uint8 [0,3] []
  big int32 [4] [0,1,2,3]
  fort float64 [2,3] [[0.0,1.0,2.0],[3.0,4.0,5.0]]
npc:
  f32 float32 [2,3] [[0.0,1.0,2.0],[3.0,4.0,5.0]]
  f64 float64 [] [2.5]
  i64 int64 [2] [-1,7]
  b bool [2] [true,false]
  u8 uint8 [0,3] []
  big int32 [4] [0,1,2,3]
  fort float64 [2,3] [[0.0,1.0,2.0],[3.0,4.0,5.0]]
gtc.npz f32:float32[2, 3]=[0.0, 1.0, 2.0, 3.0, 4.0, 5.0] f64:float64[]=[2.5] i64:int64[2]=[-1, 7] b:bool[2]=[True, False] u8:uint8[0, 3]=[] big:int32[4]=[0, 1, 2, 3] fort:float64[2, 3]=[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
gtcc.npz f32:float32[2, 3]=[0.0, 1.0, 2.0, 3.0, 4.0, 5.0] f64:float64[]=[2.5] i64:int64[2]=[-1, 7] b:bool[2]=[True, False] u8:uint8[0, 3]=[] big:int32[4]=[0, 1, 2, 3] fort:float64[2, 3]=[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
