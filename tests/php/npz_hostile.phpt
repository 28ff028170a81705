--TEST--
loadNpz on hostile archives: zip bomb, lying headers, ../ names, duplicates, non-.npy members, huge member counts, bad .npy, not a zip
--SKIPIF--
<?php
exec('/usr/bin/python3 -c "import numpy" 2>/dev/null', $out, $rc);
if ($rc !== 0) die('skip NumPy is not available to /usr/bin/python3');
?>
--FILE--
<?php
use Cuda\CudaArray;
$dir = sys_get_temp_dir() . '/gtc_npz_hostile_' . getmypid();
@mkdir($dir);
$py = <<<'PY'
import sys, io, zipfile, warnings, numpy as np
warnings.simplefilter('ignore')
d = sys.argv[1]
def npy(a):
    b = io.BytesIO(); np.save(b, a); return b.getvalue()
def z(name, members, method=zipfile.ZIP_STORED):
    with zipfile.ZipFile(f'{d}/{name}.npz', 'w', method) as f:
        for n, data in members: f.writestr(n, data)
hdr = npy(np.zeros(1, 'u1'))[:-1]
# a bomb: a header claiming 16 MiB over 256 MiB of zeros deflated (about 256 KiB): only 16 MiB is inflated
big = npy(np.zeros(16, 'f4'))
bomb_hdr = big[:big.index(b'(16,)')] + b'(4194304,)' + big[big.index(b'(16,)') + 5:big.index(b'\n') + 1]
bomb_hdr = bomb_hdr[:8] + (len(bomb_hdr) - 10).to_bytes(2, 'little') + bomb_hdr[10:]
with zipfile.ZipFile(f'{d}/bomb.npz', 'w', zipfile.ZIP_DEFLATED) as f:
    with f.open('x.npy', 'w', force_zip64=True) as m:
        m.write(bomb_hdr)
        chunk = bytes(1 << 20)
        for _ in range(256): m.write(chunk)
z('short', [('x.npy', npy(np.zeros(100, 'f4'))[:-40])], zipfile.ZIP_DEFLATED)
z('dotdot', [('../x.npy', npy(np.ones(1)))])
z('abs', [('/etc/x.npy', npy(np.ones(1)))])
z('dup', [('a.npy', npy(np.ones(1))), ('a.npy', npy(np.ones(2)))])
z('txt', [('a.npy', npy(np.ones(1))), ('readme.txt', b'hello')])
z('dir', [('sub/', b'')])
z('badnpy', [('a.npy', b'\x93NUMPY\x01\x00garbage')])
z('object', [('a.npy', npy(np.array(['x'], dtype=object)) if False else npy(np.array(['ab'])))])
with zipfile.ZipFile(f'{d}/many.npz', 'w') as f:
    for i in range(65537): f.writestr(f'{i}.npy', b'')
open(f'{d}/notzip.npz', 'wb').write(b'PK\x03\x04' + bytes(100))
open(f'{d}/empty.npz', 'wb').write(b'')
# a corrupt CRC: one data byte flipped in a stored member
z('crc', [('a.npy', npy(np.arange(8, dtype='<i8')))])
b = bytearray(open(f'{d}/crc.npz', 'rb').read()); b[200] ^= 1; open(f'{d}/crc.npz', 'wb').write(bytes(b))
PY;
file_put_contents("$dir/make.py", $py);
exec('/usr/bin/python3 ' . escapeshellarg("$dir/make.py") . ' ' . escapeshellarg($dir), $o, $rc);
echo "python: rc=$rc\n";
$rss = getrusage()['ru_maxrss']; // KiB; the bomb inflated whole would add 256 MiB, read as its header says 16
foreach (['bomb', 'short', 'dotdot', 'abs', 'dup', 'txt', 'dir', 'badnpy', 'object', 'many', 'notzip', 'empty', 'crc'] as $n) {
    try {
        $r = CudaArray::loadNpz("$dir/$n.npz");
        echo "$n: loaded ", implode(',', array_map(fn($v) => json_encode($v->getShape()), $r)), "\n";
        if ($n === 'bomb') $grew = getrusage()['ru_maxrss'] - $rss;
    } catch (Cuda\Exception $e) {
        echo "$n: ", get_class($e), ': ', str_replace($dir, 'D', $e->getMessage()), "\n";
    }
}
echo 'memory bounded: ', $grew < (128 << 10) ? 'yes' : "no ($grew KiB)", "\n";
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECTF--
python: rc=0
bomb: loaded [4194304]
short: Cuda\InvalidArgumentException: loadNpz: D/short.npz: member "x.npy": the member is shorter than its .npy header says
dotdot: Cuda\InvalidArgumentException: loadNpz: D/dotdot.npz: the name "../x" has a "." or ".." path component
abs: Cuda\InvalidArgumentException: loadNpz: D/abs.npz: the name "/etc/x" is an absolute path
dup: Cuda\InvalidArgumentException: loadNpz: D/dup.npz has two members of the same name
txt: Cuda\InvalidArgumentException: loadNpz: D/txt.npz: member "readme.txt" is not an .npy file (np.savez names each NAME.npy)
dir: Cuda\InvalidArgumentException: loadNpz: D/dir.npz: member "sub/" is not an .npy file (np.savez names each NAME.npy)
badnpy: Cuda\InvalidArgumentException: loadNpz: D/badnpy.npz: member "a.npy": npy: %s
object: Cuda\InvalidArgumentException: loadNpz: D/object.npz: member "a.npy": npy: %s
many: Cuda\InvalidArgumentException: loadNpz: D/many.npz has 65537 members; at most 65536 are read
notzip: Cuda\InvalidArgumentException: loadNpz: D/notzip.npz is not a readable .npz (zip) archive: %s
empty: Cuda\InvalidArgumentException: loadNpz: D/empty.npz is not a readable .npz (zip) archive: Not a zip archive
crc: Cuda\InvalidArgumentException: loadNpz: D/crc.npz: member "a.npy": %s
memory bounded: yes
