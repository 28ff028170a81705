--TEST--
fromNpy rejects corrupt files (and reads Fortran order, big-endian data and trailing bytes as np.load does): object dtype, truncated data, lying header lengths
--FILE--
<?php
require __DIR__ . '/helpers.inc';
use Cuda\CudaArray;
function npy(string $header, string $data, ?int $hlen = null, string $version = "\x01\x00"): string
{
    $pad = 64 - (10 + strlen($header) + 1) % 64;
    $h = $header . str_repeat(' ', $pad % 64) . "\n";
    return "\x93NUMPY" . $version . pack('v', $hlen ?? strlen($h)) . $h . $data;
}
$f = tempnam(sys_get_temp_dir(), 'gtcnpy');
$ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
$cases = [
    'valid' => npy($ok, pack('g*', 1, 2)),
    'fortran order' => npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", pack('g*', 1, 2, 3, 4)),
    'big-endian' => npy("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", pack('G*', 1, 2)),
    'object dtype' => npy("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", str_repeat("\0", 16)),
    'float16' => npy("{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }", str_repeat("\0", 4)),
    'complex64' => npy("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", str_repeat("\0", 16)),
    'raw V2' => npy("{'descr': '|V2', 'fortran_order': False, 'shape': (2,), }", str_repeat("\0", 4)),
    'structured' => npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", str_repeat("\0", 8)),
    'truncated data' => npy($ok, pack('g', 1)),
    'extra data' => npy($ok, pack('g*', 1, 2, 3)),
    'header too long' => npy($ok, pack('g*', 1, 2), 5000),
    'header too short' => npy($ok, pack('g*', 1, 2), 20),
    'bad magic' => 'NUMPY' . str_repeat("\0", 100),
    'empty file' => '',
    'only magic' => "\x93NUMPY\x01\x00",
    'version 9' => npy($ok, pack('g*', 1, 2), null, "\x09\x00"),
    'no shape' => npy("{'descr': '<f4', 'fortran_order': False, }", pack('g*', 1, 2)),
    'negative dim' => npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", ''),
    'huge dims' => npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", ''),
    'huge negative dim' => npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-9223372036854775808, -" . str_repeat('9', 40) . "), }", ''),
    'rank 9' => npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1), }", pack('g', 1)),
    'bad shape' => npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", ''),
    'NUL in header' => npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\0", pack('g*', 1, 2)),
];
foreach ($cases as $name => $bytes) {
    file_put_contents($f, $bytes);
    echo str_pad($name, 18);
    throws(function () use ($f) {
        $a = CudaArray::fromNpy($f);
        echo $a->dtype(), ' ', json_encode($a->getShape()), ' ';
    });
}
unlink($f);
?>
--EXPECTF--
valid             float32 [2] no exception
fortran order     float32 [2,2] no exception
big-endian        float32 [2] no exception
object dtype      Cuda\InvalidArgumentException: %s: npy: %s
float16           float16 [2] no exception
complex64         Cuda\InvalidArgumentException: %s: npy: unsupported dtype '<c8' %s
raw V2            Cuda\InvalidArgumentException: %s: npy: unsupported dtype '|V2': raw 2-byte values %s
structured        Cuda\InvalidArgumentException: %s: npy: %s
truncated data    Cuda\InvalidArgumentException: %s: npy: %s
extra data        float32 [2] no exception
header too long   Cuda\InvalidArgumentException: %s: npy: header length 5000 runs past the end of the file
header too short  Cuda\InvalidArgumentException: %s: npy: %s
bad magic         Cuda\InvalidArgumentException: %s: npy: not an .npy file (bad magic)
empty file        Cuda\InvalidArgumentException: %s: npy: not an .npy file (bad magic)
only magic        Cuda\InvalidArgumentException: %s: npy: truncated header
version 9         Cuda\InvalidArgumentException: %s: npy: unsupported format version 9.0 (1.0, 2.0 and 3.0 are read)
no shape          Cuda\InvalidArgumentException: %s: npy: %s
negative dim      Cuda\InvalidArgumentException: %s: npy: %s
huge dims         Cuda\InvalidArgumentException: %s: npy: %s
huge negative dim Cuda\InvalidArgumentException: %s: npy: %s
rank 9            Cuda\InvalidArgumentException: %s: npy: %s
bad shape         Cuda\InvalidArgumentException: %s: npy: %s
NUL in header     Cuda\InvalidArgumentException: %s: npy: bad header: header contains a NUL byte
