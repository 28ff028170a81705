--TEST--
.npy with NumPy for int8, uint8, int16, uint16, uint32, uint64: NumPy writes and gtc reads, gtc writes and NumPy reads
--SKIPIF--
<?php
exec('/usr/bin/python3 -c "import numpy" 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip NumPy is not available to /usr/bin/python3');
?>
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
$dir = sys_get_temp_dir() . '/gtc_numpy_ints_' . getmypid();
@mkdir($dir);
$codes = ['i1' => 'int8', 'u1' => 'uint8', 'i2' => 'int16', 'u2' => 'uint16', 'u4' => 'uint32', 'u8' => 'uint64'];
$py = <<<'PY'
import sys, numpy as np
d = sys.argv[1]
for c in ['i1', 'u1', 'i2', 'u2', 'u4', 'u8']:
    info = np.iinfo(np.dtype(c))
    np.save(f'{d}/np_{c}.npy', np.array([[info.min, 1], [2, info.max]], dtype=np.dtype(c).newbyteorder('<')))
PY;
file_put_contents("$dir/write.py", $py);
exec('/usr/bin/python3 ' . escapeshellarg("$dir/write.py") . ' ' . escapeshellarg($dir), $o, $rc);
echo "numpy wrote: rc=$rc\n";
foreach ($codes as $c => $dt) {
    $a = CudaArray::fromNpy("$dir/np_$c.npy");
    echo "$c ";
    show($a);
    // gtc writes it back (a transposed view, so the data is packed on the way), NumPy reads
    $a->transpose()->toNpy("$dir/gtc_$c.npy");
    // and gtc reads its own file
    echo "   own round trip: ", CudaArray::fromNpy("$dir/gtc_$c.npy")->toBuffer() === $a->transpose()->toBuffer() ? 'same' : 'DIFFERS', "\n";
}
$read = <<<'PY'
import sys, numpy as np
d = sys.argv[1]
for c in ['i1', 'u1', 'i2', 'u2', 'u4', 'u8']:
    a = np.load(f'{d}/gtc_{c}.npy', allow_pickle=False)
    print(c, a.dtype.str, a.shape, a.tolist())
PY;
file_put_contents("$dir/read.py", $read);
passthru('/usr/bin/python3 ' . escapeshellarg("$dir/read.py") . ' ' . escapeshellarg($dir));
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
numpy wrote: rc=0
i1 int8 [2,2] [[-128,1],[2,127]]
   own round trip: same
u1 uint8 [2,2] [[0,1],[2,255]]
   own round trip: same
i2 int16 [2,2] [[-32768,1],[2,32767]]
   own round trip: same
u2 uint16 [2,2] [[0,1],[2,65535]]
   own round trip: same
u4 uint32 [2,2] [[0,1],[2,4294967295]]
   own round trip: same
u8 uint64 [2,2] [[0,1],[2,1.8446744073709552e+19]]
   own round trip: same
i1 |i1 (2, 2) [[-128, 2], [1, 127]]
u1 |u1 (2, 2) [[0, 2], [1, 255]]
i2 <i2 (2, 2) [[-32768, 2], [1, 32767]]
u2 <u2 (2, 2) [[0, 2], [1, 65535]]
u4 <u4 (2, 2) [[0, 2], [1, 4294967295]]
u8 <u8 (2, 2) [[0, 2], [1, 18446744073709551615]]
